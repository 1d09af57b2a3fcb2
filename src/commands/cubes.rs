//! `grundy sat cubes`: a cube-and-conquer campaign on one question, its deal into shares and
//! their gathering.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use grundy::Game;
use grundy::io::file_name;
use grundy::sat::bounds::Band;
use grundy::sat::cubes::{Conquer, Cube, Ledger, Verdict, conquer};

use super::question::Question;
use super::slurm::question_flags;
use crate::{CubesArgs, PeriodQuestion};

/// `grundy sat cubes`: a cube-and-conquer campaign on one question, continued from its ledger
/// (with `--climb`, one band campaign after another).
pub(crate) fn run_sat_cubes(args: CubesArgs) -> Result<ExitCode> {
    if args.conflicts == 0 || args.conflicts > i32::MAX as u32 {
        bail!("--conflicts must be between 1 and {}", i32::MAX);
    }
    if !(2..=256).contains(&args.fanout) {
        bail!("--fanout must be between 2 and 256");
    }
    let deadline = args
        .timeout
        .map(|t| Instant::now() + Duration::from_secs_f64(t));
    let verdict = match args.climb {
        Some(step) => climb(&args, step, deadline)?,
        None => one_campaign(&args, args.band, deadline)?,
    };
    // A certification stopped early leaves the ledger's verdict as it was.
    if (verdict == Verdict::Open || args.certify) && grundy::interrupt::requested() {
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// One campaign, on the whole question or on `band`, continued from its ledger until an answer,
/// `deadline` or a stop; or the ledger's deal or gathering. Its verdict is said and recorded.
fn one_campaign(
    args: &CubesArgs,
    band: Option<Band>,
    deadline: Option<Instant>,
) -> Result<Verdict> {
    let (within, deal, gather) = (args.within.as_deref(), args.deal, args.gather);
    let c = Campaign {
        drop_region_log: args.drop_region_log,
        ..Campaign::set_up(&args.ask, within, band, args.out.clone(), args.values)?
    };
    let beside = || Ledger::path_beside(&c.out, c.p, c.name(), band);
    let path = args.ledger.clone().unwrap_or_else(beside);
    if args.certify {
        let calls = (args.threads.unwrap_or(1), args.batch as usize);
        return c.certify(&path, (args.prover, args.proof_format), calls, deadline);
    }
    let _lock = Ledger::lock(&path)?;
    // A reopening says where the campaign stands once it is done.
    let announce = deal.is_none() && !gather && !args.reopen_unlogged;
    let mut ledger = c.continue_ledger(&path, within.is_some(), announce, gather)?;
    if args.reopen_unlogged {
        reopen_unlogged(&path, &mut ledger)?;
    }
    if let Some(k) = deal {
        deal_cubes(&path, &mut ledger, k, c.solving(), &c.game, c.p)?;
        return Ok(Verdict::Open);
    }
    if gather {
        c.gather_into(&path, &mut ledger, args.finished_only)?;
    }
    let verdict = if ledger.verdict() == Verdict::Open && !gather {
        let save_every = Duration::from_secs_f64(args.save_every.max(0.1));
        grundy::interrupt::with_stop_flag(|stop| {
            let run = conquer_run(args, c.solving(), deadline, stop);
            c.conquer_showing_progress(&run, &path, &mut ledger, save_every)
        })?
    } else {
        ledger.verdict()
    };
    c.answer(&verdict, &ledger, &path)?;
    Ok(verdict)
}

/// `--climb STEP`: band campaigns up the question's bounds ladder, each from the highest bound
/// refuted so far, until one is not refuted (a pattern, or left open) or 512 is reached.
fn climb(args: &CubesArgs, step: u16, deadline: Option<Instant>) -> Result<Verdict> {
    use grundy::sat::bounds::{Ladder, WHOLE_QUESTION};
    let question = Question::set_up(&args.ask, args.out.clone(), args.values)?;
    let ladder_path = Ladder::path_beside(&question.out, question.p, question.name());
    let mut climbed_from = None;
    loop {
        let ladder = Ladder::read(&ladder_path)?;
        if let Some(pattern) = ladder.as_ref().and_then(|l| l.pattern.clone()) {
            let largest = pattern.iter().max().copied().unwrap_or(0);
            println!(
                "p={}: the ladder {} holds a pattern (largest value {largest}); nothing to climb",
                question.p,
                ladder_path.display()
            );
            return Ok(Verdict::Sat(pattern));
        }
        let from = ladder.as_ref().and_then(Ladder::refuted_below).unwrap_or(0);
        if climbed_from.is_some_and(|before| from <= before) {
            // A refuted band always joins the chain; if it did not, climbing on would loop.
            bail!(
                "{}: band refuted, but the ladder's bound stayed at {from}",
                ladder_path.display()
            );
        }
        climbed_from = Some(from);
        if from >= WHOLE_QUESTION {
            println!(
                "p={}: every band up to {WHOLE_QUESTION} is refuted",
                question.p
            );
            return Ok(Verdict::Unsat);
        }
        let band = band_to_climb(&question.out, question.p, question.name(), from, step);
        if deadline.is_some_and(|d| Instant::now() >= d) {
            // No time left for the next band: start no empty ledger for it.
            println!("p={}: --timeout reached; band {band} is next", question.p);
            return Ok(Verdict::Open);
        }
        eprintln!("grundy: p={} climbing: band {band}", question.p);
        match one_campaign(args, Some(band), deadline)? {
            Verdict::Unsat => {}
            verdict => return Ok(verdict),
        }
    }
}

/// The band to climb from the refuted bound `from`: one whose ledger, beside the periods file
/// `out`, starts at `from` (the narrowest, if several), else `from..from + step` (at most 512).
/// Such a ledger is unfinished, or answered without reaching the ladder (a run stopped between
/// the two, or shares still out): continuing it records its answer or says what it waits for.
fn band_to_climb(out: &Path, p: usize, question: &str, from: u16, step: u16) -> Band {
    use grundy::sat::bounds::WHOLE_QUESTION;
    let prefix = format!("cubes-p{p}-{question}-band{from}-");
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let started = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let below: u16 = name
                .strip_prefix(&prefix)?
                .strip_suffix(".json")?
                .parse()
                .ok()?;
            let band = Band { from, below };
            let ledger = Ledger::read(&entry.path()).ok()??;
            (below > from && ledger.band == Some(band)).then_some(band)
        });
    started.min_by_key(|b| b.below).unwrap_or(Band {
        from,
        below: from.saturating_add(step).min(WHOLE_QUESTION),
    })
}

/// How the workers of `grundy sat cubes` go at `encoding`, as its flags say (one thread a core
/// unless `--threads`), until `deadline` or until `stop` is raised.
fn conquer_run<'a>(
    args: &CubesArgs,
    encoding: &'a grundy::sat::encode::PeriodEncoding,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
) -> Conquer<'a> {
    let cores = || std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    Conquer {
        encoding,
        threads: args.threads.unwrap_or_else(cores),
        conflicts: args.conflicts,
        fanout: args.fanout,
        deadline,
        stop,
        seed: args.seed,
        preset: args.preset,
        max_calls: args.calls,
        share_len: args.share_len,
    }
}

/// What a cube campaign's verdict says, for its last line.
fn verdict_text(verdict: &Verdict, ledger: &Ledger) -> &'static str {
    match verdict {
        Verdict::Sat(_) => "SAT",
        Verdict::Unsat if ledger.band.is_some() => {
            "UNSAT in the band: no pattern has its largest value there"
        }
        Verdict::Unsat if ledger.root == "*" => "UNSAT",
        Verdict::Unsat => "UNSAT inside the cube (answers nothing about p)",
        Verdict::PartRefuted if ledger.share_of.is_some() => {
            "every cube of this share refuted (gather it into its ledger)"
        }
        Verdict::PartRefuted => "every cube here refuted, the rest is dealt out (gather it)",
        Verdict::Open => "open",
    }
}

/// A cube campaign: its question, and the fresh ledger a new campaign would start from.
struct Campaign {
    question: Question,
    fresh: Ledger,
    /// With `--band`: the question's encoding with a largest value first, which the campaign
    /// runs on (the question's own, with a smallest first, keeps the ladder's fingerprint).
    banded: Option<grundy::sat::encode::PeriodEncoding>,
    /// `--drop-region-log`: a ledger whose region log is missing or cut goes on with a new one.
    drop_region_log: bool,
}

impl std::ops::Deref for Campaign {
    type Target = Question;
    fn deref(&self) -> &Question {
        &self.question
    }
}

impl Campaign {
    fn set_up(
        ask: &PeriodQuestion,
        within: Option<&str>,
        band: Option<Band>,
        out: Option<PathBuf>,
        values: u64,
    ) -> Result<Campaign> {
        let root = within
            .map_or(Ok(Cube::full(ask.p)), |w| Cube::parse(w, ask.p))
            .map_err(|e| anyhow::anyhow!("--within: {e}"))?;
        let question = Question::set_up(ask, out, values)?;
        let game = question.game.to_string();
        let Some(band) = band else {
            let fresh = Ledger::new(
                &game,
                &question.encoding,
                question.name(),
                question.problem.break_rotation,
                &root,
            );
            return Ok(Campaign {
                question,
                fresh,
                banded: None,
                drop_region_log: false,
            });
        };
        let mut banded = (question.problem).encode_question_rotation_kept(ask.p, ask.primitive)?;
        banded.put_largest_first();
        let fresh = Ledger::in_band(&game, &banded, question.name(), band)
            .map_err(|reason| anyhow::anyhow!("--band: {reason}"))?;
        Ok(Campaign {
            question,
            fresh,
            banded: Some(banded),
            drop_region_log: false,
        })
    }

    /// The encoding the cubes are solved on.
    fn solving(&self) -> &grundy::sat::encode::PeriodEncoding {
        self.banded.as_ref().unwrap_or(&self.encoding)
    }

    /// Says the verdict (with a pattern, checked) and records it: a band's as a rung of its
    /// ladder, a whole question's merged into the periods file.
    fn answer(&self, verdict: &Verdict, ledger: &Ledger, path: &Path) -> Result<()> {
        println!(
            "p={} {}: {} ({}; ledger {})",
            self.p,
            self.name(),
            verdict_text(verdict, ledger),
            ledger.progress_line(),
            path.display()
        );
        if let Verdict::Sat(pattern) = verdict {
            super::question::print_checked_pattern(pattern);
        }
        match ledger.band {
            Some(band) => self.record_band(band, verdict, ledger, path),
            None => self.merge_answer(
                ledger.period_result(&self.encoding, self.known.pattern(self.p as u64)),
                "cubes",
            ),
        }
    }

    /// A band campaign's answer goes into the question's bounds ladder as a rung (a pattern
    /// too), and what the ladder then says into the periods file.
    fn record_band(
        &self,
        band: Band,
        verdict: &Verdict,
        ledger: &Ledger,
        path: &Path,
    ) -> Result<()> {
        use grundy::sat::bounds::{Ladder, RungAnswer};
        let (answer, pattern) = match verdict {
            Verdict::Unsat => (RungAnswer::Unsat, None),
            Verdict::Sat(pattern) => (RungAnswer::Sat, Some(pattern.as_slice())),
            Verdict::Open | Verdict::PartRefuted => return Ok(()),
        };
        let ladder_path = Ladder::path_beside(&self.out, self.p, self.name());
        let _lock = Ladder::lock(&ladder_path)?;
        let mut ladder = self.open_ladder(&ladder_path)?;
        let name = file_name(path);
        if ladder.record_band(
            band,
            answer,
            ledger.solver_seconds,
            &name,
            pattern,
            ledger.preset,
        ) {
            ladder.save(&ladder_path)?;
            println!(
                "band {band} recorded in {}: {}",
                ladder_path.display(),
                ladder.summary_line()
            );
        }
        let feasible = self.known.pattern(self.p as u64);
        self.merge_answer(ladder.period_result(&self.encoding, feasible), "bounds")
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
        let Some(mut old) = Ledger::read(path)? else {
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
        keep_region_log(path, &mut old, self.drop_region_log)?;
        if announce {
            eprintln!(
                "grundy: continuing {}: {}",
                path.display(),
                old.progress_line()
            );
        }
        Ok(old)
    }

    /// `--certify`: proves the regions of the ledger at `path` not yet certified, `batch` a call
    /// and `threads` calls at once, until `deadline`; then checks that they cover the root, and
    /// says how far the certificate goes. A certified band's rung in the ladder gets the
    /// certificate as its proof.
    /// Needs no lock on the ledger (it reads the ledger and the log prefix it counts, which a
    /// running campaign only lengthens), only on the certificate.
    fn certify(
        &self,
        path: &Path,
        prover: (
            grundy::sat::solve::SolverKind,
            grundy::sat::solve::ProofFormat,
        ),
        (threads, batch): (usize, usize),
        deadline: Option<Instant>,
    ) -> Result<Verdict> {
        use grundy::sat::certify::{self, Certify};
        let (ledger, regions) = self.ledger_to_certify(path)?;
        let checker = std::env::var(grundy::sat::solve::DRAT_CHECKER_VAR).unwrap_or_default();
        let prover = certify_prover(prover, &checker)?;
        let cert_path = certify::certificate_path(path);
        let _lock = grundy::io::take_lock_beside(&cert_path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", cert_path.display()))?;
        let mut cert =
            certify::read_certificate(path, &ledger, &regions).map_err(anyhow::Error::msg)?;
        let work_dir = path.with_extension("proofs");
        std::fs::create_dir_all(&work_dir)
            .with_context(|| format!("{}: cannot make the proof folder", work_dir.display()))?;
        let mut display =
            grundy::progress::Progress::new(regions.len() as u64, &format!("certify p={}", self.p))
                .counting("regions");
        let mut save = |c: &certify::Certificate| {
            display.set(c.checked);
            grundy::io::write_json_atomic(&cert_path, c).map_err(|e| e.to_string())
        };
        let proved = grundy::interrupt::with_stop_flag(|stop| {
            let run = Certify {
                encoding: self.solving(),
                prover,
                threads,
                batch,
                deadline,
                work_dir: &work_dir,
                stop,
            };
            certify::prove_regions(&run, &regions, &mut cert, &mut save)
        });
        display.finish();
        let _ = std::fs::remove_dir_all(&work_dir);
        proved?;
        certify::examine_cover(&ledger, &regions, &mut cert).map_err(anyhow::Error::msg)?;
        grundy::io::write_json_atomic(&cert_path, &cert)?;
        println!("{}", certificate_line(&ledger, &cert, &cert_path));
        if cert.certified
            && let Some(band) = ledger.band
        {
            self.certify_rung(band, path, &cert, &cert_path)?;
        }
        Ok(ledger.verdict())
    }

    /// The ledger at `path` and the regions its log counts, if a certificate of this question
    /// can speak for it.
    fn ledger_to_certify(&self, path: &Path) -> Result<(Ledger, Vec<grundy::sat::cubes::Cube>)> {
        let ledger = Ledger::read(path)?
            .with_context(|| format!("{}: no cube ledger to certify", path.display()))?;
        if let Some(reason) = ledger.refuses(&self.fresh) {
            bail!("{}: {reason}", path.display());
        }
        // The certificate speaks of the root: a band's must be the band's box, a campaign
        // inside a cube is certified only with that cube named (`--within`).
        if ledger.root != self.fresh.root {
            bail!(
                "{}: its box is {}, not {} (a band's own box, or the cube --within names)",
                path.display(),
                ledger.root,
                self.fresh.root
            );
        }
        let regions = grundy::sat::certify::read_regions(path, &ledger);
        Ok((ledger, regions.map_err(anyhow::Error::msg)?))
    }

    /// Marks the rung of `band` answered by the ledger at `path` as proved by `cert`.
    fn certify_rung(
        &self,
        band: Band,
        path: &Path,
        cert: &grundy::sat::certify::Certificate,
        cert_path: &Path,
    ) -> Result<()> {
        use grundy::sat::bounds::Ladder;
        let ladder_path = Ladder::path_beside(&self.out, self.p, self.name());
        let _lock = Ladder::lock(&ladder_path)?;
        let mut ladder = self.open_ladder(&ladder_path)?;
        let note = grundy::sat::solve::ProofNote {
            cnf: file_name(path),
            proof: file_name(cert_path),
            format: "cube regions, a DRAT proof each".into(),
            checked_by: Some(cert.checked_by.join(", ")),
        };
        if ladder.certify_band(band, &file_name(path), note) {
            ladder.save(&ladder_path)?;
            println!(
                "band {band}'s rung in {} now rests on the certificate: {}",
                ladder_path.display(),
                ladder.summary_line()
            );
        }
        Ok(())
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
    /// and showing the refuted part as a percentage of what this ledger holds (its box less
    /// the shares dealt out; counted in parts per billion): that share only grows, so its rate
    /// gives an ETA (a guess: the cubes left may be harder than those refuted). Every model is
    /// witness-checked.
    fn conquer_showing_progress(
        &self,
        run: &Conquer,
        path: &Path,
        ledger: &mut Ledger,
        save_every: Duration,
    ) -> Result<Verdict> {
        let p = self.p;
        let check = |bytes: &[u8]| self.check(bytes);
        let held = ledger.held();
        let mut display = grundy::progress::Progress::new(1_000_000_000, &format!("cubes p={p}"))
            .as_percent(match (&ledger.band, ledger.elsewhere > 0.0) {
                (_, true) => "of the part held refuted",
                (Some(_), false) => "of the band refuted",
                (None, false) => "of the box refuted",
            });
        let mut report = |l: &mut Ledger| {
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
        let verdict = conquer(run, ledger, &check, save_every, &mut report);
        display.finish();
        Ok(verdict?)
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
    let mut shares = shares;
    for (file, share) in &mut shares {
        let share_path = dir.join(&*file);
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
    let mut question: String = flags.map(|f| format!(" {f}")).collect();
    if let Some(band) = ledger.band {
        question += &format!(" --band {band}");
    }
    println!(
        "run each share (its cubes, under its lock) with: grundy sat cubes {game} --p {p}{question} \
         --ledger SHARE [--threads T --timeout S ...]; then gather them with the same command \
         and --ledger {} --gather",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Refuses a campaign whose region log is missing or cut, unless `drop` (`--drop-region-log`):
/// then the log is set aside and the ledger counts none.
fn keep_region_log(path: &Path, ledger: &mut Ledger, drop: bool) -> Result<()> {
    use grundy::sat::certify::{check_log, drop_log};
    let Err(reason) = check_log(path, ledger) else {
        return Ok(());
    };
    if !drop {
        bail!(
            "{reason}: restore it, or go on with --drop-region-log (the {} regions it counts, \
             and the share they refuted, can then not be certified)",
            ledger.logged_regions
        );
    }
    let dropped = ledger.logged_regions;
    let aside = drop_log(path, ledger).map_err(anyhow::Error::msg)?;
    let aside = aside.map_or_else(
        || "gone".to_string(),
        |a| format!("set aside as {}", a.display()),
    );
    eprintln!("grundy: {reason}; {aside}, a new log begins ({dropped} regions dropped)");
    Ok(())
}

/// `--reopen-unlogged`: the share of the ledger at `path` refuted with no region logged goes
/// back among its open cubes, and the ledger is saved at once (the run that follows may be
/// stopped before its first save).
fn reopen_unlogged(path: &Path, ledger: &mut Ledger) -> Result<()> {
    use grundy::sat::certify;
    let fail = |reason: String| anyhow::anyhow!("{}: cannot reopen: {reason}", path.display());
    let regions = certify::read_regions(path, ledger).map_err(fail)?;
    let pieces = certify::reopen_unlogged(ledger, &regions).map_err(fail)?;
    if pieces.is_empty() {
        eprintln!("grundy: nothing to reopen: every refuted part has its regions logged");
    } else {
        let share = grundy::sat::cubes::total_share(&pieces);
        let of = if ledger.band.is_some() { "band" } else { "box" };
        eprintln!(
            "grundy: reopened {} cube{} ({:.4}% of the {of}) refuted with no region logged; \
             they are refuted again with their regions logged",
            pieces.len(),
            if pieces.len() == 1 { "" } else { "s" },
            100.0 * share / ledger.root_share()
        );
        ledger.save(path)?;
    }
    eprintln!(
        "grundy: continuing {}: {}",
        path.display(),
        ledger.progress_line()
    );
    Ok(())
}

/// `--prover` and `--proof-format` with the DRAT checker's command (`GRUNDY_DRAT_CHECKER`,
/// which CaDiCaL's DRAT proofs need).
fn certify_prover(
    (kind, format): (
        grundy::sat::solve::SolverKind,
        grundy::sat::solve::ProofFormat,
    ),
    checker: &str,
) -> Result<grundy::sat::certify::Prover<'_>> {
    use grundy::sat::certify::Prover;
    use grundy::sat::solve::{DRAT_CHECKER_VAR, ProofFormat, SolverKind};
    Ok(match kind {
        SolverKind::Cadical if format == ProofFormat::Lrat => Prover::CadicalLrat,
        _ if format == ProofFormat::Lrat => {
            bail!("--proof-format lrat: only CaDiCaL writes LRAT here (--prover cadical)")
        }
        SolverKind::Cadical if checker.trim().is_empty() => bail!(
            "--certify needs an independent DRAT checker: set {DRAT_CHECKER_VAR} (for instance \
             \"sh encodings/check_drat_rate.sh\", with rate from crates.io, or \
             \"python3 encodings/check_drat.py\", with dratify from PyPI), or use --proof-format \
             lrat or --prover varisat"
        ),
        SolverKind::Cadical => Prover::CadicalDrat { checker },
        SolverKind::Varisat => Prover::Varisat,
        SolverKind::Splr => bail!("--prover splr: splr writes no proofs (cadical or varisat)"),
    })
}

/// What a certification found, in one line.
pub(crate) fn certificate_line(
    ledger: &Ledger,
    cert: &grundy::sat::certify::Certificate,
    cert_path: &Path,
) -> String {
    let of = if ledger.band.is_some() { "band" } else { "box" };
    // A campaign that went on after the certification has logged more than it examined, and
    // the cover it found then (pieces in no region) may be covered now.
    let stale = ledger.logged_regions > cert.regions;
    let cover = match cert.uncovered_share {
        None => "the cover was too large to examine".to_string(),
        Some(_) if cert.uncovered_pieces == 0 => format!("the regions cover the {of}"),
        Some(share) => format!(
            "{}{} pieces ({:.4}% of the {of}) {} in no logged region, {:.4}% of the {of} in no \
             open cube either (refuted before regions were logged)",
            if stale { "at that run " } else { "" },
            cert.uncovered_pieces,
            100.0 * share / ledger.root_share(),
            if stale { "lay" } else { "lie" },
            100.0 * cert.unlogged_share.unwrap_or(f64::NAN) / ledger.root_share()
        ),
    };
    let verdict = if cert.certified {
        "UNSAT certified"
    } else if ledger.verdict() == Verdict::Unsat {
        "UNSAT, not certified yet"
    } else {
        "not answered yet"
    };
    let regions = match ledger.logged_regions {
        now if stale => format!("{} regions logged then ({now} now)", cert.regions),
        _ => format!("{} regions", cert.regions),
    };
    format!(
        "certificate {}: {} of {regions} proved{} (checked by {}; {:.1} MB of proofs{}, {:.1} s \
         proving, {:.1} s checking); {cover}; {verdict}",
        cert_path.display(),
        cert.checked,
        match cert.calls {
            0 => String::new(),
            n => format!(" in {n} calls since calls were counted"),
        },
        match cert.checked_by.len() {
            0 => "nothing yet".to_string(),
            _ => cert.checked_by.join(", "),
        },
        cert.proof_bytes as f64 / 1e6,
        match cert.lightened {
            0 => String::new(),
            n => format!(", {n} checked lightened"),
        },
        cert.solve_seconds,
        cert.check_seconds
    )
}
