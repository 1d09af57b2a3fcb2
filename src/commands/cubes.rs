//! `grundy sat cubes`: a cube-and-conquer campaign on one question, its deal into shares and
//! their gathering.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use grundy::Game;
use grundy::sat::cubes::{Conquer, Cube, Ledger, Verdict, conquer};
use grundy::sat::encode::PeriodEncoding;
use grundy::sat::periods::{PeriodsFile, Problem, Status, minimal_period};
use grundy::values::exact_prefix;

use super::slurm::question_flags;
use crate::{CubeQuestion, SatCommand, parse_game};

/// `grundy sat cubes`: a cube-and-conquer campaign on one question, continued from its ledger.
pub(crate) fn run_sat_cubes(what: SatCommand) -> Result<ExitCode> {
    let SatCommand::Cubes {
        ask,
        threads,
        conflicts,
        fanout,
        share_len,
        timeout,
        calls,
        within,
        ledger,
        save_every,
        deal,
        gather,
        finished_only,
        seed,
        out,
        values,
    } = what
    else {
        unreachable!("called for sat cubes only")
    };
    if conflicts == 0 || conflicts > i32::MAX as u32 {
        bail!("--conflicts must be between 1 and {}", i32::MAX);
    }
    if !(2..=256).contains(&fanout) {
        bail!("--fanout must be between 2 and 256");
    }
    let c = Campaign::set_up(&ask, within.as_deref(), out, values)?;
    let path = ledger.unwrap_or_else(|| Ledger::path_beside(&c.out, c.p, c.question()));
    let _lock = Ledger::lock(&path)?;
    let mut ledger =
        c.continue_ledger(&path, within.is_some(), deal.is_none() && !gather, gather)?;
    if let Some(k) = deal {
        return deal_cubes(&path, &mut ledger, k, &c.encoding, &c.game, c.p);
    }
    if gather {
        c.gather_into(&path, &mut ledger, finished_only)?;
    }
    let verdict = if ledger.verdict() == Verdict::Open && !gather {
        let stop = AtomicBool::new(false);
        let run = Conquer {
            encoding: &c.encoding,
            threads: threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            conflicts,
            fanout,
            deadline: timeout.map(|t| Instant::now() + Duration::from_secs_f64(t)),
            stop: &stop,
            seed,
            max_calls: calls,
            share_len,
        };
        let save_every = Duration::from_secs_f64(save_every.max(0.1));
        c.conquer_showing_progress(&run, &path, &mut ledger, save_every)?
    } else {
        ledger.verdict()
    };
    println!(
        "p={} {}: {} ({}; ledger {})",
        c.p,
        c.question(),
        verdict_text(&verdict, &ledger),
        ledger.progress_line(),
        path.display()
    );
    if let Verdict::Sat(pattern) = &verdict {
        let s: Vec<String> = pattern.iter().map(ToString::to_string).collect();
        println!("pattern (checked): {}", s.join(","));
    }
    c.merge_answer(&ledger)?;
    if verdict == Verdict::Open && grundy::interrupt::requested() {
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// What a cube campaign's verdict says, for its last line.
fn verdict_text(verdict: &Verdict, ledger: &Ledger) -> &'static str {
    match verdict {
        Verdict::Sat(_) => "SAT",
        Verdict::Unsat if ledger.root == "*" => "UNSAT",
        Verdict::Unsat => "UNSAT inside the cube (answers nothing about p)",
        Verdict::PartRefuted if ledger.share_of.is_some() => {
            "every cube of this share refuted (gather it into its ledger)"
        }
        Verdict::PartRefuted => "every cube here refuted, the rest is dealt out (gather it)",
        Verdict::Open => "open",
    }
}

/// One campaign's question and where its answer goes: the game, the encoding, the periods file
/// (read once, before any work) and the fresh ledger a new campaign would start from.
struct Campaign {
    game: Game,
    p: usize,
    primitive: bool,
    problem: Problem,
    encoding: PeriodEncoding,
    out: PathBuf,
    header: PeriodsFile,
    known: PeriodsFile,
    fresh: Ledger,
}

impl Campaign {
    /// Checks the question and reads the periods file: one of another game or rare table is
    /// refused, and `--primitive` needs a feasible pattern there.
    fn set_up(
        ask: &CubeQuestion,
        within: Option<&str>,
        out: Option<PathBuf>,
        values: u64,
    ) -> Result<Campaign> {
        let (game, p) = (parse_game(&ask.game)?, ask.p);
        if p == 0 {
            bail!("period must be at least 1");
        }
        let root = within
            .map_or(Ok(Cube::full(p)), |w| Cube::parse(w, p))
            .map_err(|e| anyhow::anyhow!("--within: {e}"))?;
        grundy::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
        let problem = Problem {
            break_rotation: !ask.keep_rotation,
            ..Problem::from_prefix(&exact_prefix(&game, values as usize)?)
        };
        let out = out.unwrap_or_else(|| PeriodsFile::default_path(&game));
        let header = PeriodsFile::new(&problem);
        let known = PeriodsFile::read(&out)?.unwrap_or_else(|| header.clone());
        if let Some(reason) = known.refuses(&header) {
            bail!("{}: {reason}", out.display());
        }
        if ask.primitive && known.pattern(p as u64).is_none() {
            bail!(
                "--primitive: {} has no feasible pattern of p = {p}; decide feasible first",
                out.display()
            );
        }
        let encoding = problem.encode_question(p, ask.primitive)?;
        let question = if ask.primitive {
            "primitive"
        } else {
            "feasible"
        };
        let fresh = Ledger::new(
            &game.to_string(),
            &encoding,
            question,
            !ask.keep_rotation,
            &root,
        );
        Ok(Campaign {
            game,
            p,
            primitive: ask.primitive,
            problem,
            encoding,
            out,
            header,
            known,
            fresh,
        })
    }

    fn question(&self) -> &'static str {
        if self.primitive {
            "primitive"
        } else {
            "feasible"
        }
    }

    /// The ledger at `path` if there is one (refused if it asks another question, sits inside
    /// another cube than `--within` gives, or was gathered already), else the fresh one.
    fn continue_ledger(
        &self,
        path: &Path,
        within: bool,
        announce: bool,
        gather: bool,
    ) -> Result<Ledger> {
        let Some(old) = Ledger::read(path)? else {
            if gather {
                bail!("{}: no cube ledger here to gather into", path.display());
            }
            return Ok(self.fresh.clone());
        };
        if let Some(reason) = old.refuses(&self.fresh) {
            bail!("{}: {reason}", path.display());
        }
        if within && old.root != self.fresh.root {
            bail!(
                "{}: a campaign inside {} already, not {}",
                path.display(),
                old.root,
                self.fresh.root
            );
        }
        if let Some(parent) = &old.gathered_into {
            bail!(
                "{}: this share was gathered into {parent}; run that ledger (or deal it again)",
                path.display()
            );
        }
        if announce {
            eprintln!(
                "grundy: continuing {} ({} runs, {:.3e} of the box refuted, {} cubes open)",
                path.display(),
                old.runs,
                old.refuted_share,
                old.open.len()
            );
        }
        Ok(old)
    }

    /// `--gather`: folds the shares back (a pattern one found is checked again), saves the
    /// ledger, then marks the shares gathered.
    fn gather_into(&self, path: &Path, ledger: &mut Ledger, finished_only: bool) -> Result<()> {
        if ledger.shares.is_empty() && !finished_only {
            bail!("{}: no shares dealt out to gather", path.display());
        }
        for line in grundy::sat::shares::gather_shares(path, ledger, finished_only) {
            println!("  {line}");
        }
        if let Some(pattern) = &ledger.pattern {
            self.problem
                .check_witness("cadical", self.p as u64, pattern)
                .context("a gathered share's pattern")?;
        }
        ledger.save(path)?;
        grundy::sat::shares::mark_gathered(path, ledger)?;
        Ok(())
    }

    /// Runs the campaign until it is answered or stopped, saving the ledger every `save_every`
    /// and showing the refuted part in parts per billion of what this ledger holds (its box less
    /// the shares dealt out): that share only grows, so its rate gives an ETA (a guess: the
    /// cubes left may be harder than those refuted). Every model is witness-checked.
    fn conquer_showing_progress(
        &self,
        run: &Conquer,
        path: &Path,
        ledger: &mut Ledger,
        save_every: Duration,
    ) -> Result<Verdict> {
        let p = self.p;
        let check = |bytes: &[u8]| {
            let pattern = self.encoding.expand(bytes);
            self.problem
                .check_witness("cadical", p as u64, &pattern)
                .map_err(|err| err.to_string())?;
            if self.primitive && minimal_period(&pattern) != p {
                return Err(format!(
                    "minimal period {} in the primitive question",
                    minimal_period(&pattern)
                ));
            }
            Ok(pattern)
        };
        let held = ledger.held();
        let mut display = grundy::progress::Progress::new(1_000_000_000, &format!("cubes p={p}"))
            .counting("ppb of the part held refuted");
        let mut report = |l: &Ledger| {
            l.save(path).map_err(|e| e.to_string())?;
            let note = format!(
                "{} open, {} refutations, {} splits",
                l.open.len(),
                l.refutations,
                l.splits
            );
            display.set_with((l.refuted_share / held * 1e9) as u64, &note);
            Ok(())
        };
        let verdict = std::thread::scope(|scope| {
            scope.spawn(|| grundy::interrupt::relay(run.stop));
            let verdict = conquer(run, ledger, &check, save_every, &mut report);
            run.stop.store(true, Ordering::Relaxed);
            verdict
        });
        display.finish();
        Ok(verdict?)
    }

    /// Merges an answer for the whole box into the periods file, unless it contradicts one
    /// decided there (then a solver is wrong: the file is kept as it is).
    fn merge_answer(&self, ledger: &Ledger) -> Result<()> {
        let p = self.p;
        let Some(result) = ledger.period_result(&self.encoding, self.known.pattern(p as u64))
        else {
            return Ok(());
        };
        if let Some(old) = self.known.result(p as u64) {
            let (was, now) = if self.primitive {
                (old.primitive, result.primitive)
            } else {
                (old.feasible, result.feasible)
            };
            if was.decided() && now.decided() && was != now && was != Status::Excluded {
                bail!(
                    "p = {p} {}: cubes say {now:?}, {} says {was:?}; not merged",
                    self.question(),
                    self.out.display()
                );
            }
        }
        PeriodsFile::merge_into(&self.out, &self.header, vec![result])?;
        println!("merged into {}", self.out.display());
        Ok(())
    }
}

/// `grundy sat cubes --deal K`: the shares are written (each under its lock), then the ledger.
fn deal_cubes(
    path: &std::path::Path,
    ledger: &mut grundy::sat::cubes::Ledger,
    k: usize,
    e: &grundy::sat::encode::PeriodEncoding,
    game: &Game,
    p: usize,
) -> Result<ExitCode> {
    use grundy::sat::cubes::Ledger;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{}: not a file name", path.display()))?;
    let shares = ledger
        .deal(k, e.shifts(), name)
        .map_err(|reason| anyhow::anyhow!("{}: cannot deal: {reason}", path.display()))?;
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    let mut locks = Vec::new();
    for (file, share) in &shares {
        let share_path = dir.join(file);
        locks.push(Ledger::lock(&share_path)?);
        share.save(&share_path)?;
    }
    ledger.save(path)?;
    println!(
        "dealt into {} shares ({:.6e} of the box in all); {}",
        shares.len(),
        ledger.elsewhere,
        ledger.progress_line()
    );
    for (file, share) in &shares {
        let share_path = dir.join(file);
        println!(
            "  {}: {} cubes, {:.6e} of the box",
            share_path.display(),
            share.open.len(),
            share.held()
        );
    }
    let flags = question_flags(ledger.question == "primitive", !ledger.rotation_broken);
    let question: String = flags.map(|f| format!(" {f}")).collect();
    println!(
        "run each share (its cubes, under its lock) with: grundy sat cubes {game} --p {p}{question} \
         --ledger SHARE [--threads T --timeout S ...]; then gather them with the same command \
         and --ledger {} --gather",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}
