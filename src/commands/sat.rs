//! `grundy sat`: periods decided and merged into the periods file, its summary, DIMACS export,
//! exclusions and the witness check.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use grundy::Game;
use grundy::io::write_output;
use grundy::progress::Progress;
use grundy::sat::periods::{Event, PeriodResult, PeriodsFile, Problem, decide_all};
use grundy::sat::solve::SolverKind;
use grundy::values::exact_prefix;

use super::cubes::run_sat_cubes;
use crate::{SatCommand, SatSolveArgs, parse_game, parse_periods, positive_seconds};

/// `grundy sat ...`: one function a subcommand.
pub(crate) fn run_sat(what: SatCommand) -> Result<ExitCode> {
    match what {
        SatCommand::Cubes(args) => run_sat_cubes(args),
        SatCommand::Bounds(args) => super::bounds::run_sat_bounds(*args),
        SatCommand::Summary { game, out, rungs } => {
            run_sat_summary(game.as_deref(), out.as_deref(), rungs)
        }
        SatCommand::Export {
            game,
            p,
            values,
            primitive,
            break_rotation,
            out,
        } => {
            let game = parse_game(&game)?;
            let question = Exported {
                p,
                primitive,
                break_rotation,
            };
            run_sat_export(&game, values, question, out.as_deref())
        }
        SatCommand::CheckLrat {
            cnf,
            proof,
            standard,
        } => Ok(run_sat_check_lrat(&cnf, &proof, standard.as_deref())),
        SatCommand::Excluded {
            game,
            periods,
            values,
        } => run_sat_excluded(&parse_game(&game)?, values, &periods),
        SatCommand::Lemmas {
            game,
            p,
            files,
            values,
        } => {
            let prefix = exact_prefix(&parse_game(&game)?, values as usize)?;
            run_sat_lemmas(&Problem::from_prefix(&prefix), p, &files)
        }
        SatCommand::Check {
            game,
            pattern,
            p,
            periods_file,
            values,
        } => {
            let pattern = match (pattern, p) {
                (Some(pattern), _) => parse_pattern(&pattern)?,
                (None, p) => {
                    let p = p.context("grundy sat check needs --pattern or --p")?;
                    let (path, file) = periods_file_of(Some(&game), periods_file.as_deref())?;
                    pattern_from_file(&path, &file, p)?
                }
            };
            let game = parse_game(&game)?;
            let prefix = exact_prefix(&game, values as usize)?;
            let rule = Rule::of(game, &prefix);
            run_sat_check(&rule, &pattern)
        }
    }
}

/// `grundy sat check-lrat`: the checker's verdict in one line, and the exit code of the checker
/// protocol ([`grundy::sat::solve::check_drat_proof`]): 0 accepted, 1 refused, 2 no verdict.
/// With `standard`, an accepted proof is written there renumbered, and a second line says so
/// (a failure to write it is one line on standard error and exit 2: the verdict stands).
fn run_sat_check_lrat(
    cnf: &std::path::Path,
    proof: &std::path::Path,
    standard: Option<&std::path::Path>,
) -> ExitCode {
    use grundy::sat::lrat::{LratError, check_files, checker_name, write_standard};
    match check_files(cnf, proof, None) {
        Ok(c) => {
            println!(
                "{}: accepted ({} clauses of the CNF, {} added with {} hints, {} deleted)",
                checker_name(),
                c.cnf_clauses,
                c.additions,
                c.hints,
                c.deletions
            );
            let Some(out) = standard else {
                return ExitCode::SUCCESS;
            };
            match write_standard(cnf, proof, out) {
                Ok(r) => {
                    println!(
                        "written to {} in LRAT's numbering: the CNF's clauses 1..{}, {} \
                         additions and {} deletions",
                        out.display(),
                        r.cnf_clauses,
                        r.additions,
                        r.deletions
                    );
                    ExitCode::SUCCESS
                }
                // A file unreadable or unwritable names itself; a step it cannot renumber is
                // the proof's.
                Err(e @ LratError::Cannot(_)) => {
                    eprintln!("grundy: {e}");
                    ExitCode::from(2)
                }
                Err(e) => {
                    eprintln!("grundy: cannot renumber {}: {e}", proof.display());
                    ExitCode::from(2)
                }
            }
        }
        Err(LratError::Refused(why)) => {
            println!("{}: refused {}: {why}", checker_name(), proof.display());
            ExitCode::from(1)
        }
        Err(e) => {
            println!("{}: cannot check {}: {e}", checker_name(), proof.display());
            ExitCode::from(2)
        }
    }
}

/// `grundy sat lemmas`: each file's clauses by length and its units in words. A file is read
/// only for a question of period `p` (feasible or primitive: its variable count, from the
/// fingerprint, is one of theirs), since on another layout the words would be wrong.
fn run_sat_lemmas(problem: &Problem, p: usize, files: &[PathBuf]) -> Result<ExitCode> {
    use grundy::sat::lemmas::{by_length, read_file};
    let e = problem.encode_question_rotation_kept(p, false)?;
    let primitive_vars = problem.encode_question_rotation_kept(p, true)?.cnf.num_vars;
    for path in files {
        let file = read_file(path)?;
        let vars = file.cnf_vars();
        if vars != Some(e.cnf.num_vars) && vars != Some(primitive_vars) {
            bail!(
                "lemma file {}: learned on a CNF of {} variables, where period {p}'s questions \
                 have {} (feasible) and {primitive_vars} (primitive): another period or game?",
                path.display(),
                vars.map_or("?".to_string(), |v| v.to_string()),
                e.cnf.num_vars
            );
        }
        let counts = by_length(&file.clauses);
        let lengths: Vec<String> = (counts.iter().enumerate())
            .filter(|&(_, &n)| n > 0)
            .map(|(i, n)| match i {
                0 => format!("{n} units"),
                1 => format!("{n} binary"),
                _ => format!("{n} of {} literals", i + 1),
            })
            .collect();
        let name = grundy::io::file_name(path);
        let total = file.clauses.len();
        if lengths.is_empty() {
            println!("{name}: no clauses");
        } else {
            println!("{name}: {total} clauses: {}", lengths.join(", "));
        }
        let units: Vec<i32> = (file.clauses.iter())
            .filter(|c| c.len() == 1)
            .map(|c| c[0])
            .collect();
        if !units.is_empty() {
            println!("  units (true of every pattern of the question it was learned on):");
        }
        for line in unit_lines(&e, &units) {
            println!("  {line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The units of a lemma file in words, one line a residue (`s[3] != 0, 40; <= 222`), then the
/// variables beyond the layout.
fn unit_lines(e: &grundy::sat::encode::PeriodEncoding, units: &[i32]) -> Vec<String> {
    use grundy::sat::encode::VarMeaning;
    // A byte's true value; 256 stands for "beyond every byte", 512.
    let value = |c: usize| match u8::try_from(c) {
        Ok(byte) => e.expand(&[byte])[0].to_string(),
        Err(_) => "512".to_string(),
    };
    let mut by_residue: Vec<Vec<String>> = vec![Vec::new(); e.p];
    let mut other = Vec::new();
    let mut sorted = units.to_vec();
    sorted.sort_by_key(|l| (l.unsigned_abs(), *l));
    for lit in sorted {
        let holds = lit > 0;
        let (r, words) = match e.var_meaning(lit.abs()) {
            VarMeaning::Byte { r, c } if holds => (r, format!("= {}", value(c))),
            VarMeaning::Byte { r, c } => (r, format!("!= {}", value(c))),
            VarMeaning::AtMost { r, c } if holds => (r, format!("<= {}", value(c))),
            VarMeaning::AtMost { r, c } => (r, format!(">= {}", value(c + 1))),
            VarMeaning::Below { r, c } if holds => (
                r,
                format!("has every value below {} as an option", value(c)),
            ),
            VarMeaning::Below { r, c } => (r, format!("lacks an option below {}", value(c))),
            VarMeaning::Other => {
                other.push(format!(
                    "variable {} {}",
                    lit.abs(),
                    if holds { "true" } else { "false" }
                ));
                continue;
            }
        };
        by_residue[r].push(words);
    }
    let mut lines: Vec<String> = (by_residue.iter().enumerate())
        .filter(|(_, words)| !words.is_empty())
        .map(|(r, words)| format!("s[{r}] {}", merge_not_equal(words)))
        .collect();
    if !other.is_empty() {
        lines.push(format!("beyond the layout: {}", other.join(", ")));
    }
    lines
}

/// `["!= 0", "!= 40", "<= 222"]` as `"!= 0, 40; <= 222"`.
fn merge_not_equal(words: &[String]) -> String {
    let not: Vec<&str> = words.iter().filter_map(|w| w.strip_prefix("!= ")).collect();
    let rest = words
        .iter()
        .filter(|w| !w.starts_with("!= "))
        .map(String::as_str);
    let mut parts: Vec<String> = Vec::new();
    if !not.is_empty() {
        parts.push(format!("!= {}", not.join(", ")));
    }
    parts.extend(rest.map(str::to_string));
    parts.join("; ")
}

/// What `grundy sat export` writes: period `p`, feasible or primitive, rotation kept or broken.
struct Exported {
    p: usize,
    primitive: bool,
    break_rotation: bool,
}

/// `grundy sat export`: the question as DIMACS, its comments saying what it asks. The exact
/// prefix of `values` values gives the rare table and the space.
fn run_sat_export(
    game: &Game,
    values: u64,
    question: Exported,
    out: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let prefix = exact_prefix(game, values as usize)?;
    let problem = Problem {
        break_rotation: question.break_rotation,
        ..Problem::from_prefix(&prefix)
    };
    let p = question.p;
    let e = problem.encode_question(p, question.primitive)?;
    let mut asked = "feasible".to_string();
    if question.primitive {
        asked = "primitive (every smaller period forbidden)".into();
    }
    if question.break_rotation {
        asked += ", rotation symmetry broken (s[0] is a minimum)";
    }
    let comments = vec![
        format!(
            "grundy: period {p} of {game}, {asked}, sparse space {}, {} rare values from {values} exact values",
            prefix.space(),
            prefix.rares().count()
        ),
        "x(r,c) = 1 + 256 r + c: s[r] has compressed byte c (see src/sat/encode.rs)".to_string(),
    ];
    write_output(out, |w| e.cnf.write_dimacs(&comments, w))?;
    Ok(ExitCode::SUCCESS)
}

/// `grundy sat excluded`: which periods a losing position of the exact prefix rules out.
fn run_sat_excluded(game: &Game, values: u64, periods: &str) -> Result<ExitCode> {
    use grundy::sat::exclusions::{excluded_by, losing_positions};
    let range = parse_periods(periods)?;
    let prefix = exact_prefix(game, values as usize)?;
    let losing = losing_positions(prefix.values());
    for p in range {
        match excluded_by(p, &losing) {
            Some(l) => println!("p={p} excluded: divides {} (losing position {l})", l + 1),
            None => println!("p={p} open"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `grundy sat check`: is `s` (true values) a fixed point of `rule`? Every residue where it
/// fails is named, then what the pattern mends into. Exit 1 when it is not.
fn run_sat_check(rule: &Rule, s: &[u16]) -> Result<ExitCode> {
    use grundy::sat::periods::minimal_period;
    use grundy::sat::witness::WitnessError;
    const MENDED: &str = "mended (each failing residue set to what the rule gives)";
    if s.is_empty() {
        bail!("not a fixed point: {}", WitnessError::Empty);
    }
    let failures = rule.failures(s);
    let largest = s.iter().max().copied().unwrap_or(0);
    if failures.is_empty() {
        println!(
            "fixed point: period {} pattern of {} is consistent with the rule (minimal \
             period {}, largest value {largest})",
            s.len(),
            rule.game,
            minimal_period(s)
        );
        return Ok(ExitCode::SUCCESS);
    }
    for failure in &failures {
        println!("  {failure}");
    }
    // What it becomes with each failing residue set to the rule's value (`witness::mended`).
    let again = grundy::sat::witness::mended(s, &failures).map(|m| {
        let left = rule.failures(&m).len();
        (left, minimal_period(&m))
    });
    println!(
        "{}",
        match again {
            None => "mended: not by the rule's values (a value rare, or 512 or more)".into(),
            Some((0, d)) => format!("{MENDED}: a fixed point of minimal period {d}"),
            Some((n, _)) => format!(
                "{MENDED}: the rule fails at {n} of its {} residues",
                s.len()
            ),
        }
    );
    eprintln!(
        "grundy: not a fixed point: the rule fails at {} of its {} residues (the first: {})",
        failures.len(),
        s.len(),
        failures[0]
    );
    Ok(ExitCode::from(1))
}

/// A pattern as `--pattern` gives it: true values separated by commas or spaces.
fn parse_pattern(pattern: &str) -> Result<Vec<u16>> {
    (pattern.split([',', ' ']))
        .filter(|w| !w.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .with_context(|| format!("bad pattern {pattern:?}: true values separated by commas"))
}

/// The pattern a periods file holds for period `p`, said on one line before it is checked: for
/// a period still open (in either question) the closest state its campaign's local search
/// reached, if one was recorded, since that is what the open question is about (a period
/// lifted from a divisor holds a pattern, but not a primitive one); else its checked pattern.
fn pattern_from_file(path: &std::path::Path, file: &PeriodsFile, p: u64) -> Result<Vec<u16>> {
    let r =
        (file.result(p)).with_context(|| format!("{}: no result for p = {p}", path.display()))?;
    let where_ = path.display();
    let (pattern, said) = match (r.closest_state().filter(|_| r.is_open()), &r.pattern) {
        (Some((near, seed)), _) => (
            &near.pattern,
            format!(
                "open; the closest state a local search reached (seed {seed}; {} of {p} \
                 residues bad by the file)",
                near.bad
            ),
        ),
        (None, Some(pattern)) => (pattern, format!("its pattern ({})", r.how)),
        (None, None) => bail!(
            "{where_}: p = {p} has no pattern and no near miss recorded ({})",
            r.how
        ),
    };
    println!("p = {p} in {where_}: {said}");
    println!("{}", join_values(pattern));
    Ok(pattern.clone())
}

/// Values as `--pattern` takes them, so a line printed can be pasted back.
fn join_values(values: &[u16]) -> String {
    let words: Vec<String> = values.iter().map(u16::to_string).collect();
    words.join(",")
}

/// `grundy sat summary`: the periods file as a table, open periods with their campaign so far.
fn run_sat_summary(
    game: Option<&str>,
    out: Option<&std::path::Path>,
    rungs: bool,
) -> Result<ExitCode> {
    let (path, file) = periods_file_of(game, out)?;
    println!(
        "{}: {} periods of {} (rare table: {} values, the last at {}; {})",
        path.display(),
        file.results.len(),
        file.game,
        file.rare_values,
        file.last_rare,
        file.assumptions
    );
    let rule = Rule::for_file(&file);
    let mut open = Vec::new();
    for r in &file.results {
        println!("{}", campaign_line(r, rule.as_ref()));
        if r.is_open() {
            open.push(format!("{} ({:.0} s)", r.p, r.campaign_seconds()));
            cube_campaign_lines(&path, r, rungs);
        } else {
            // A yardstick: the ladder (and band campaigns) of a period that has patterns.
            ladder_and_band_campaign_lines(&path, r.p as usize, "feasible", rungs);
        }
    }
    totals_lines(&file, &open);
    Ok(ExitCode::SUCCESS)
}

/// The periods file that `grundy sat summary` shows and `grundy sat check --p` reads: `out`, or
/// the game's; one of another game is refused.
fn periods_file_of(
    game: Option<&str>,
    out: Option<&std::path::Path>,
) -> Result<(PathBuf, PeriodsFile)> {
    let path = match (out, game) {
        (Some(out), _) => out.to_path_buf(),
        (None, Some(game)) => PeriodsFile::default_path(&parse_game(game)?),
        (None, None) => bail!("grundy sat summary needs GAME or --out FILE"),
    };
    let file = PeriodsFile::read(&path)?
        .with_context(|| format!("{}: no such periods file", path.display()))?;
    if let Some(game) = game
        && parse_game(game)?.to_string() != file.game
    {
        bail!(
            "{}: holds results for {}, not {game}",
            path.display(),
            file.game
        );
    }
    Ok((path, file))
}

/// The summary's last lines: how the periods were decided, which are open (`open`), and which
/// below the last are missing from the file.
fn totals_lines(file: &PeriodsFile, open: &[String]) {
    use grundy::sat::periods::Status;
    let decided = file.results.len() - open.len();
    let count = |f: &dyn Fn(&PeriodResult) -> bool| file.results.iter().filter(|r| f(r)).count();
    println!(
        "decided {decided}: {} can be the minimal period, {} feasible only by repeating a divisor, {} excluded by a losing position, {} unsat",
        count(&|r| r.primitive == Status::Sat),
        count(&|r| r.feasible == Status::Sat && r.primitive == Status::Unsat),
        count(&|r| r.feasible == Status::Excluded),
        count(&|r| r.feasible == Status::Unsat),
    );
    println!(
        "open {}: {}",
        open.len(),
        if open.is_empty() {
            "none".into()
        } else {
            open.join(", ")
        }
    );
    let primitive_only: Vec<String> = file
        .results
        .iter()
        .filter(|r| r.is_open() && r.feasible.decided())
        .map(|r| r.p.to_string())
        .collect();
    if !primitive_only.is_empty() {
        println!(
            "  of them {} feasible, only `primitive` open: {}",
            primitive_only.len(),
            primitive_only.join(" ")
        );
    }
    let last = file.results.last().map_or(0, |r| r.p);
    let gaps: Vec<String> = (1..=last)
        .filter(|&p| file.result(p).is_none())
        .map(|p| p.to_string())
        .collect();
    if !gaps.is_empty() {
        println!("not in the file (below {last}): {}", gaps.join(" "));
    }
}

/// The cube-and-conquer campaigns and value-bound ladders of an open period whose files lie
/// beside the periods file.
fn cube_campaign_lines(
    periods: &std::path::Path,
    r: &grundy::sat::periods::PeriodResult,
    rungs: bool,
) {
    use grundy::sat::cubes::Ledger;
    for question in ["feasible", "primitive"] {
        let path = Ledger::path_beside(periods, r.p as usize, question, None);
        match Ledger::read(&path) {
            Ok(Some(l)) => {
                println!("      cubes ({question}): {}", l.progress_line());
                for line in grundy::sat::shares::share_lines(&path, &l) {
                    println!("        {line}");
                }
                certificate_summary(&path, &l, question);
            }
            Ok(None) => {}
            Err(e) => println!("      cubes ({question}): {e}"),
        }
        ladder_and_band_campaign_lines(periods, r.p as usize, question, rungs);
    }
}

/// The value-bound ladder of one question and its band campaigns still open, the ladder read
/// once for both.
fn ladder_and_band_campaign_lines(
    periods: &std::path::Path,
    p: usize,
    question: &str,
    rungs: bool,
) {
    use grundy::sat::bounds::Ladder;
    let ladder = Ladder::read(&Ladder::path_beside(periods, p, question));
    ladder_line(&ladder, question, rungs);
    let ladder = ladder.as_ref().ok().and_then(Option::as_ref);
    band_campaign_lines(periods, p, question, ladder);
}

/// The value-bound ladder of one question (`ladder`, as read beside the periods file), if
/// there is one. A decided period can have one too: Officers 17, 19 and 23, run as a yardstick
/// for the open ones. With `rungs`, its table of bands below the line.
fn ladder_line(
    ladder: &Result<Option<grundy::sat::bounds::Ladder>, grundy::sat::bounds::LadderError>,
    question: &str,
    rungs: bool,
) {
    match ladder {
        Ok(Some(l)) => {
            println!("      bounds ({question}): {}", l.summary_line());
            let table = if rungs { l.rung_table() } else { Vec::new() };
            if !table.is_empty() {
                println!();
                table.iter().for_each(|row| println!("{row}"));
                println!();
            }
        }
        Ok(None) => {}
        Err(e) => println!("      bounds ({question}): {e}"),
    }
}

/// The band campaigns (`sat cubes --band`) of one question still open: an answered one is a
/// rung of the ladder shown above. One whose band the ladder refuted by other calls since (in
/// pieces, say) says so: its share refuted is no longer what is known of the band, and going
/// on with it would buy nothing.
fn band_campaign_lines(
    periods: &std::path::Path,
    p: usize,
    question: &str,
    ladder: Option<&grundy::sat::bounds::Ladder>,
) {
    use grundy::sat::bounds::{Band, Rung, RungAnswer};
    use grundy::sat::cubes::{Ledger, Verdict};
    let refuted_since = |band: Option<Band>| {
        let refutes = |r: &Rung| Some(r.band()) == band && r.answer == RungAnswer::Unsat;
        ladder.is_some_and(|l| l.rungs.iter().any(refutes))
    };
    let dir = periods.parent().unwrap_or(std::path::Path::new(""));
    let stem = format!("cubes-p{p}-{question}-band");
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        dir
    }) else {
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        // Ledgers only: not shares (`.dealK-...`) nor certificates (`.certificate.json`).
        .filter(|n| {
            n.starts_with(&stem) && n.strip_suffix(".json").is_some_and(|s| !s.contains('.'))
        })
        .collect();
    names.sort();
    for name in names {
        let path = dir.join(&name);
        match Ledger::read(&path) {
            Ok(Some(l)) => {
                let band = l.band.map_or_else(String::new, |b| b.to_string());
                let since = if refuted_since(l.band) {
                    " (the band is refuted in the ladder since, by other calls: nothing left to ask)"
                } else {
                    ""
                };
                if matches!(l.verdict(), Verdict::Open | Verdict::PartRefuted) {
                    println!(
                        "      cubes ({question}, band {band}): {}{since}",
                        l.progress_line()
                    );
                }
                certificate_summary(&path, &l, &format!("{question}, band {band}"));
            }
            Ok(None) => {}
            Err(e) => println!("      cubes ({question}): {e}"),
        }
    }
}

/// The certificate of the campaign at `path` (`sat cubes --certify`), if one was begun.
fn certificate_summary(path: &std::path::Path, ledger: &grundy::sat::cubes::Ledger, what: &str) {
    let cert_path = grundy::sat::certify::certificate_path(path);
    match grundy::io::read_json_if_present(&cert_path, "a cube certificate") {
        Ok(Some(cert)) => println!(
            "      {}",
            super::cubes::certificate_line(ledger, &cert, &cert_path)
        ),
        Ok(None) => {}
        Err(e) => println!("      certificate ({what}): {}: {e}", cert_path.display()),
    }
}

/// The rare-value rule of a game as the witness check reads it: its game, sparse space and
/// rare table from an exact prefix. One value for `sat check` and the summary's near misses.
struct Rule {
    game: Game,
    space: grundy::SparseSpace,
    rares: Vec<(u64, u16)>,
}

impl Rule {
    fn of(game: Game, prefix: &grundy::ExactGenerator) -> Rule {
        let rares = prefix.rares().map(|(p, v)| (p as u64, v)).collect();
        let space = prefix.space();
        Rule { game, space, rares }
    }

    /// The rule under which `file` was decided, computed again from 2^16 values (as `grundy
    /// sat` computes it by default), to mend the summary's closest states. `None` when the
    /// file's rare table is not that one: nothing said is better than a mend under another.
    fn for_file(file: &PeriodsFile) -> Option<Rule> {
        let game = parse_game(&file.game).ok()?;
        let prefix = exact_prefix(&game, 1 << 16).ok()?;
        let header = PeriodsFile::new(&Problem::from_prefix(&prefix));
        file.refuses(&header)
            .is_none()
            .then(|| Rule::of(game, &prefix))
    }

    /// Where `s` fails the rule ([`grundy::sat::witness::residue_failures`]).
    fn failures(&self, s: &[u16]) -> Vec<grundy::sat::witness::WitnessError> {
        grundy::sat::witness::residue_failures(&self.game, self.space, &self.rares, s)
    }

    /// The minimal period of `s` mended by the rule, when that is a fixed point.
    fn fixed_point_period(&self, s: &[u16]) -> Option<usize> {
        use grundy::sat::witness::{check_pattern, mended};
        let m = mended(s, &self.failures(s))?;
        check_pattern(&self.game, self.space, &self.rares, &m).ok()?;
        Some(grundy::sat::periods::minimal_period(&m))
    }
}

/// One period of `grundy sat summary`: a decided one as `grundy sat` prints it (with the open
/// runs before the answer, and the earlier answers it replaced, if any); an open one with its
/// campaign so far, and what its closest state mends into, if a fixed point ([`Rule`]).
fn campaign_line(r: &grundy::sat::periods::PeriodResult, rule: Option<&Rule>) -> String {
    let c = r.campaign();
    if !r.is_open() {
        let open = r.earlier.iter().filter(|a| !a.decided_both()).count();
        let answers = r.earlier.len() - open;
        let mut notes = Vec::new();
        use grundy::sat::bounds::plural;
        if open > 0 {
            let runs = plural(open, "open run", "open runs");
            notes.push(format!("after {runs}, {:.0} s in all", c.seconds));
        }
        if answers > 0 {
            let kept = plural(answers, "earlier answer", "earlier answers");
            notes.push(format!("{kept} kept under `earlier`"));
        }
        match r.contradicting_runs() {
            0 => {}
            n => notes.push(format!(
                "CONTRADICTED by {}: a bug to look into",
                plural(n, "earlier run", "earlier runs")
            )),
        }
        return if notes.is_empty() {
            period_line(r, false)
        } else {
            format!("{} ({})", period_line(r, false), notes.join("; "))
        };
    }
    let seeds: Vec<String> = c.seeds.iter().map(u64::to_string).collect();
    let closest = r.closest_state().map_or(String::new(), |(near, seed)| {
        let period = rule.and_then(|m| m.fixed_point_period(&near.pattern));
        let mend = period.map_or(String::new(), |d| {
            format!("; mended, a fixed point of minimal period {d}")
        });
        format!(
            "; closest: {} of {} residues bad (seed {seed}{mend})",
            near.bad, r.p
        )
    });
    // A period known feasible (lifted from a divisor, say) is open only in `primitive`; its line
    // says so, so that "OPEN" never reads as "no pattern known".
    let open = match r.feasible.decided() {
        true => format!("feasible {:<8} primitive OPEN", r.feasible),
        false => "OPEN".to_string(),
    };
    format!(
        "p={:<3} {open} after {} run{} (seeds {}), {:.0} s in all, the longest {:.0} s{closest}; last: {}",
        r.p,
        c.runs,
        if c.runs == 1 { "" } else { "s" },
        seeds.join(" "),
        c.seconds,
        c.longest,
        r.how
    )
}

/// `grundy sat GAME --periods A..B`: decide each period and merge into the results file.
pub(crate) fn run_sat_periods(args: SatSolveArgs) -> Result<ExitCode> {
    let (Some(game), Some(periods)) = (&args.game, &args.periods) else {
        bail!(
            "grundy sat needs GAME and --periods A..B (or a subcommand: export, excluded, check)"
        );
    };
    let game = parse_game(game)?;
    let range = parse_periods(periods)?;
    let out = args.out.clone().unwrap_or_else(|| match args.all {
        true => PathBuf::from(format!(
            "results/{}/patterns-p{}.json",
            game.slug(),
            range.start()
        )),
        false => PeriodsFile::default_path(&game),
    });
    let lemma_dir = super::lemma_dir(args.solve.lemmas.clone(), &out);
    let (timeout, lemma_every) = checked_solve_args(&args, &range, lemma_dir.as_deref())?;
    grundy::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
    let prefix = exact_prefix(&game, args.solve.values as usize)?;
    let problem = problem_from(&args, &prefix, (lemma_dir, lemma_every));
    if args.all {
        return enumerate_patterns(&problem, *range.start(), &out, timeout, args.limit);
    }
    // Refused before any work: a file that is not a periods file, or holds another game or
    // another rare table (its answers rest on other assumptions).
    let header = PeriodsFile::new(&problem);
    let known = PeriodsFile::read(&out)?.unwrap_or_else(|| header.clone());
    if let Some(reason) = known.refuses(&header) {
        bail!("{}: {reason}", out.display());
    }
    if args.solve.solver == grundy::sat::solve::SolverKind::Varisat {
        eprintln!("grundy: note: varisat cannot be stopped, --timeout does not apply to it");
    }
    let periods = periods_to_run(range, &known, args.open_only, &out);
    let display = SatDisplay::new(periods.len() as u64, timeout);
    let run = (&problem, args.solve.solver, timeout, args.jobs);
    let (results, file) = decide_merging(run, periods, &out, &known, &display)?;
    display.finish();
    for r in &results {
        println!("{}", period_line(r, true));
    }
    still_open_lines(&file, &results);
    if grundy::interrupt::requested() {
        eprintln!(
            "grundy: interrupted: {} of {} periods ended and are in {} (the rest not started)",
            results.len(),
            display.total,
            out.display()
        );
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// The options of `grundy sat` that cannot be checked one at a time (and the directories they
/// name, created, `lemma_dir` the lemma folder asked for): the timeout and the lemma interval.
fn checked_solve_args(
    args: &SatSolveArgs,
    range: &std::ops::RangeInclusive<u64>,
    lemma_dir: Option<&std::path::Path>,
) -> Result<(Duration, Duration)> {
    let timeout = positive_seconds("--timeout", args.solve.timeout)?;
    let lemma_every = positive_seconds("--lemmas-every", args.solve.lemmas_every)?;
    if lemma_dir.is_some() && args.proof_dir.is_some() {
        bail!(
            "--lemmas and --proof-dir exclude each other: a proof must start from the encoding alone"
        );
    }
    if args.all && range.start() != range.end() {
        bail!("--all enumerates one period: give --periods P..P");
    }
    for dir in [args.proof_dir.as_deref(), lemma_dir].into_iter().flatten() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    Ok((timeout, lemma_every))
}

/// The periods of `range` to run: all of them, or with `open_only` those that `known` (read
/// from `out`) has not decided, said on stderr.
fn periods_to_run(
    range: std::ops::RangeInclusive<u64>,
    known: &PeriodsFile,
    open_only: bool,
    out: &std::path::Path,
) -> Vec<u64> {
    let total = range.clone().count();
    let periods: Vec<u64> = range
        .filter(|&p| !open_only || known.result(p).is_none_or(|r| r.is_open()))
        .collect();
    if open_only {
        eprintln!(
            "grundy: --open-only: {} of {total} periods are decided in {}; {} to run",
            total - periods.len(),
            out.display(),
            periods.len()
        );
    }
    periods
}

/// The [`Problem`] that `grundy sat`'s options ask for.
fn problem_from(
    args: &SatSolveArgs,
    prefix: &grundy::ExactGenerator,
    (lemma_dir, lemma_every): (Option<PathBuf>, Duration),
) -> Problem {
    Problem {
        local_search: args
            .solve
            .local
            .filter(|s| *s >= 0.0 && s.is_finite())
            .map(Duration::from_secs_f64),
        local_threads: args.solve.local_threads.max(1),
        break_rotation: args.solve.break_rotation,
        portfolio: args.solve.portfolio.max(1),
        proof_dir: args.proof_dir.clone(),
        proof_format: args.proof_format,
        seed: args.seed,
        neighbourhoods: !args.solve.no_neighbourhoods,
        lemma_dir,
        lemma_every,
        ..Problem::from_prefix(prefix)
    }
}

/// Decides `periods` with the display running. Each period goes into the file `out` as it ends
/// (read, merged and written under a lock, so other runs on the same file keep theirs): a
/// failure, a kill or a stop request later on loses nothing already decided. Returns the results
/// and the file as last written.
fn decide_merging(
    (problem, solver, timeout, jobs): (&Problem, SolverKind, Duration, usize),
    periods: Vec<u64>,
    out: &std::path::Path,
    known: &PeriodsFile,
    display: &SatDisplay,
) -> Result<(Vec<PeriodResult>, PeriodsFile)> {
    let header = PeriodsFile::new(problem);
    let file = std::sync::Mutex::new(known.clone());
    let finished = std::sync::atomic::AtomicBool::new(false);
    let results = std::thread::scope(|scope| {
        scope.spawn(|| display.tick_until(&finished));
        let results = decide_all(
            problem,
            periods,
            solver,
            Some(timeout),
            jobs,
            known,
            &|event| {
                match event {
                    Event::Started(p) => display.started(p),
                    Event::Ended(r) => {
                        display.ended(r);
                        let merged = PeriodsFile::merge_into(out, &header, vec![r.clone()])?;
                        *file
                            .lock()
                            .expect("no panic while the periods file is held") = merged;
                    }
                }
                Ok(())
            },
        );
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        results
    })?;
    let file = file
        .into_inner()
        .expect("no panic while the periods file is held");
    Ok((results, file))
}

/// An open period's campaign so far, as the periods file now records it, for each period of
/// `results` that has had earlier runs.
fn still_open_lines(file: &PeriodsFile, results: &[PeriodResult]) {
    for r in file
        .results
        .iter()
        .filter(|r| results.iter().any(|x| x.p == r.p))
    {
        if r.is_open() && !r.earlier.is_empty() {
            let (runs, seconds) = (r.earlier.len() + 1, r.campaign_seconds());
            println!(
                "p={}: still open after {runs} runs, {seconds:.0} s in all",
                r.p
            );
        }
    }
}

/// `grundy sat --all`: every pattern of period `p` up to rotation, written as JSON to `out`.
/// A list already there goes on (its classes checked and blocked first), so a run stopped at
/// `--timeout`, by Ctrl-C or by a lost machine is continued by the same command; the list is
/// saved atomically as classes come (at most every [`ENUMERATION_SAVE_GAP`]) and at the end.
fn enumerate_patterns(
    problem: &grundy::sat::periods::Problem,
    p: u64,
    out: &std::path::Path,
    timeout: Duration,
    limit: usize,
) -> Result<ExitCode> {
    use grundy::sat::enumerate::{Enumeration, enumerate_from};
    if let Some(l) = grundy::sat::exclusions::excluded_by(p, &problem.losing) {
        bail!("p = {p} is excluded (p divides l + 1 for the losing position {l}): no pattern");
    }
    let earlier: Option<Enumeration> =
        grundy::io::read_json_if_present(out, "a list of patterns (grundy sat --all)")
            .map_err(|reason| anyhow::anyhow!("{}: {reason}; left untouched", out.display()))?;
    let already = earlier.as_ref().map_or(0, |e| e.classes.len() as u64);
    let earlier = match earlier {
        Some(e) if e.complete => return already_complete(problem, e, out, timeout),
        other => other,
    };
    // The folder is made once, before the search: a run that cannot save should say so now,
    // not after its first class.
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let save = |found: &Enumeration| -> Result<(), grundy::sat::periods::PeriodError> {
        Ok(grundy::io::write_json_atomic(out, found)?)
    };
    let mut display = grundy::progress::Progress::new(0, &format!("all p={p}"))
        .counting("classes")
        .ticking()
        .open_ended();
    display.set_with(already, &format!("limit {} s", timeout.as_secs()));
    let mut last_save = std::time::Instant::now();
    let found = enumerate_from(
        problem,
        p as usize,
        earlier,
        Some(timeout),
        limit,
        &mut |found| {
            let note = format!(
                "{} in all, {} found first by the tabu walks",
                told(found.solver_calls, "solver call"),
                found.by_local_search
            );
            display.set_with(found.classes.len() as u64, &note);
            if last_save.elapsed() >= ENUMERATION_SAVE_GAP {
                save(found)?;
                last_save = std::time::Instant::now();
            }
            Ok(())
        },
    )?;
    display.finish();
    drop(display);
    save(&found)?;
    println!(
        "p={p}: {} patterns up to rotation{} ({} new; {} in all found first by the tabu walks, which reached {} fixed points), {:.1} s and {} over {}; by minimal period: {:?}; written to {}",
        found.classes.len(),
        if found.complete {
            ", all of them"
        } else if grundy::interrupt::requested() {
            " (interrupted: a lower bound; the same command goes on)"
        } else {
            " (stopped at --timeout or --limit: a lower bound; the same command goes on)"
        },
        found.classes.len() as u64 - already,
        found.by_local_search,
        found.local_search_fixed_points,
        found.seconds,
        told(found.solver_calls, "solver call"),
        told(found.runs, "run"),
        found.by_minimal_period,
        out.display()
    );
    if grundy::interrupt::requested() {
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    if found.complete && problem.proof_dir.is_some() {
        return prove_list_complete(problem, found, out, timeout);
    }
    Ok(ExitCode::SUCCESS)
}

/// A complete list already at `out`: said so, and proved complete first with `--proof-dir` if
/// no checked proof is noted yet.
fn already_complete(
    problem: &grundy::sat::periods::Problem,
    e: grundy::sat::enumerate::Enumeration,
    out: &std::path::Path,
    timeout: Duration,
) -> Result<ExitCode> {
    let p = e.p;
    let to_prove = problem.proof_dir.is_some() && proved_by(&e).is_none();
    println!(
        "p={p}: {} has all {} patterns up to rotation already ({:.1} s over {}){}",
        out.display(),
        e.classes.len(),
        e.seconds,
        told(e.runs, "run"),
        match (proved_by(&e), to_prove) {
            (Some(checker), _) => format!(", proved complete by {checker}: nothing to do"),
            (None, false) => ": nothing to do (--proof-dir proves it complete)".to_string(),
            (None, true) => String::new(),
        }
    );
    match to_prove {
        true => prove_list_complete(problem, e, out, timeout),
        false => Ok(ExitCode::SUCCESS),
    }
}

/// The checker that accepted the proof that `list` is complete, if one did.
fn proved_by(list: &grundy::sat::enumerate::Enumeration) -> Option<&str> {
    list.completeness.as_ref()?.checked_by.as_deref()
}

/// With `--all --proof-dir`: proves the complete `list` complete from its classes alone
/// ([`grundy::sat::enumerate::prove_complete`], one call of at most `timeout`), and saves it at
/// `out` with the proof's note. A list the proof finds a pattern outside is an error, and the
/// file is left as it was.
fn prove_list_complete(
    problem: &grundy::sat::periods::Problem,
    mut list: grundy::sat::enumerate::Enumeration,
    out: &std::path::Path,
    timeout: Duration,
) -> Result<ExitCode> {
    let dir = problem
        .proof_dir
        .as_deref()
        .expect("asked with --proof-dir");
    let p = list.p;
    let stem = dir.join(format!("{}-p{p}-complete", problem.game.slug()));
    let started = std::time::Instant::now();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let note = std::thread::scope(|scope| {
        // A stop request ends the proof (and its check) as it ends the search.
        scope.spawn(|| grundy::interrupt::relay(&stop));
        let note =
            grundy::sat::enumerate::prove_complete(problem, &list, &stem, Some(timeout), &stop);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        note
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let Some(note) = note else {
        println!(
            "p={p}: no proof that the list is complete within {} s",
            timeout.as_secs()
        );
        return Ok(ExitCode::from(if grundy::interrupt::requested() {
            grundy::interrupt::EXIT_STATUS
        } else {
            1
        }));
    };
    let verdict = match &note.checked_by {
        Some(checker) => format!("proved complete, the proof checked by {checker}"),
        None => "proved complete, the DRAT proof unchecked (GRUNDY_DRAT_CHECKER names no checker)"
            .to_string(),
    };
    println!(
        "p={p}: the {} classes are all: {verdict} ({seconds:.1} s; {} and {} in {}); written to {}",
        list.classes.len(),
        note.cnf,
        note.proof,
        dir.display(),
        out.display()
    );
    list.completeness = Some(note);
    grundy::io::write_json_atomic(out, &list)?;
    Ok(ExitCode::SUCCESS)
}

/// "1 run", "2 runs": a count with its noun.
fn told(count: u64, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// The longest a found class waits to be saved: an enumeration of p = 4 finds 832 classes in 98
/// s, and a write (with fsync) per class would cost more than the search.
const ENUMERATION_SAVE_GAP: Duration = Duration::from_secs(5);

/// The progress display of `grundy sat`: periods done, and those running with their seconds so
/// far, refreshed every second (in a log, a plain line 10 s apart at first and at most 10
/// minutes apart later), so a campaign of one period for a day still shows it is alive.
struct SatDisplay {
    progress: std::sync::Mutex<Progress>,
    running: std::sync::Mutex<Vec<(u64, std::time::Instant)>>,
    done: std::sync::atomic::AtomicU64,
    total: u64,
    timeout: Duration,
}

impl SatDisplay {
    fn new(total: u64, timeout: Duration) -> SatDisplay {
        SatDisplay {
            progress: std::sync::Mutex::new(Progress::new(total, "sat").counting("periods")),
            running: std::sync::Mutex::new(Vec::new()),
            done: std::sync::atomic::AtomicU64::new(0),
            total,
            timeout,
        }
    }

    fn started(&self, p: u64) {
        if let Ok(mut running) = self.running.lock() {
            running.push((p, std::time::Instant::now()));
        }
    }

    fn ended(&self, r: &grundy::sat::periods::PeriodResult) {
        if let Ok(mut running) = self.running.lock() {
            running.retain(|(p, _)| *p != r.p);
        }
        self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.show(&format!("p={} {}", r.p, r.feasible));
    }

    /// Refreshes the display every second until `finished` is up (looked at every 50 ms, so
    /// the run does not wait for the display at its end).
    fn tick_until(&self, finished: &std::sync::atomic::AtomicBool) {
        let mut last = std::time::Instant::now();
        while !finished.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() < Duration::from_secs(1) {
                continue;
            }
            last = std::time::Instant::now();
            let running: Vec<String> = match self.running.lock() {
                Ok(running) => running
                    .iter()
                    .map(|(p, t)| format!("p={p} {:.0} s", t.elapsed().as_secs_f64()))
                    .collect(),
                Err(_) => return,
            };
            if !running.is_empty() {
                let limit = self.timeout.as_secs_f64();
                self.show(&format!(
                    "running {} (limit {limit:.0} s a question)",
                    running.join(", ")
                ));
            }
        }
    }

    fn show(&self, note: &str) {
        let done = self.done.load(std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut progress) = self.progress.lock() {
            progress.set_with(done, note);
        }
    }

    fn finish(&self) {
        if let Ok(progress) = self.progress.lock() {
            progress.finish();
        }
    }
}

/// One line per decided period: statuses, seconds, how, and the pattern if `with_pattern`.
pub(crate) fn period_line(r: &grundy::sat::periods::PeriodResult, with_pattern: bool) -> String {
    let pattern = match (&r.pattern, &r.closest) {
        (Some(s), _) if with_pattern => format!(" {s:?}"),
        (None, Some(near)) => format!(" (closest: {} of {} residues bad)", near.bad, r.p),
        _ => String::new(),
    };
    format!(
        "p={:<3} feasible {:<8} primitive {:<8} {:.1} s  {}{pattern}",
        r.p, r.feasible, r.primitive, r.seconds, r.how
    )
}
