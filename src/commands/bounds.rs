//! `grundy sat bounds`: the value-bound ladder of one question ([`grundy::sat::bounds`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use grundy::sat::bounds::{
    Band, Climb, Half, KeptLemmas, Ladder, RungAnswer, Step, StoppedPiece, WHOLE_QUESTION, climb,
    pieces_and_halves, plural, rung_units,
};
use grundy::sat::solve::Preset;
use grundy::values::Value;

use super::question::Question;
use crate::{BoundsArgs, CutArg, positive_seconds};

/// `grundy sat bounds`: climbs the rungs not refuted yet, saving the ladder after each.
pub(crate) fn run_sat_bounds(args: BoundsArgs) -> Result<ExitCode> {
    refuse_bad_combinations(&args)?;
    let BoundsArgs {
        ask,
        from,
        step,
        to,
        timeout,
        seed,
        preset,
        proof_dir,
        prove_chain,
        plan,
        proof_format,
        keep_proofs,
        jobs,
        pieces,
        cut,
        only_pieces,
        in_turn,
        halve,
        incremental,
        threads,
        lemmas,
        lemmas_every,
        tries,
        conflicts,
        merge,
        ladder,
        out,
        values,
    } = args;
    let timeout = positive_seconds("--timeout", timeout)?;
    let lemma_every = positive_seconds("--lemmas-every", lemmas_every)?;
    let q = Question::set_up(&ask, out, values)?;
    let bounds: Vec<u16> = (from..=to).step_by(usize::from(step)).collect();
    rung_units(&q.encoding, from).map_err(|reason| anyhow::anyhow!("--from: {reason}"))?;
    let path = ladder.unwrap_or_else(|| Ladder::path_beside(&q.out, q.p, q.name()));
    let cut = match cut {
        // Read with no lock, as `--plan` reads: the ladder is saved atomically.
        Some(CutArg::Last) => Some(last_cut(&q.open_ladder(&path)?, &path)?),
        Some(CutArg::Given(cut)) => Some(cut),
        None => None,
    };
    // Before any file or folder is made. (The bands' encoding puts a largest value first, with
    // the same bytes as the question's.)
    for part in cut.iter().flat_map(grundy::sat::bounds::Cut::parts) {
        part.units(&q.encoding).map_err(anyhow::Error::msg)?;
    }
    let chain_settings = ChainSettings {
        timeout,
        proof_format,
        keep_proofs,
        jobs,
        pieces,
        cut: cut.clone(),
        up_to: to,
    };
    if plan {
        // Read as it is on disk, with no lock: a chain at work saves it atomically.
        println!(
            "{}",
            chain_plan(&q, &q.open_ladder(&path)?, &chain_settings)?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let _lock = Ladder::lock(&path)?;
    let mut ladder = q.open_ladder(&path)?;
    // A pattern read back is checked again before it can be merged.
    if let Some(pattern) = &ladder.pattern
        && let Err(reason) = q.check_pattern(pattern)
    {
        bail!("{}: its pattern fails: {reason}", path.display());
    }
    if let Some(other) = merge {
        // Lemma files always come along: a try taken without its files starts afresh.
        let lemma_dir = super::lemma_dir(Some(lemmas.flatten()), &path).unwrap_or_default();
        merge_ladder(&q, &mut ladder, (&other, &lemma_dir), &path)?;
        say_and_merge(&q, &ladder, &path)?;
        return Ok(ExitCode::SUCCESS);
    }
    let proof_stem = proof_dir.map(|dir| file_stem(&q, &dir)).transpose()?;
    let lemma_dir = super::lemma_dir(lemmas, &path);
    let lemma_stem = lemma_dir.map(|dir| file_stem(&q, &dir)).transpose()?;
    match (prove_chain, proof_stem) {
        (true, Some(stem)) => {
            prove_chain_showing_rungs(&q, &mut ladder, &stem, chain_settings, &path)?;
        }
        (_, proof_stem) => {
            let settings = RungSettings {
                timeout,
                seed,
                preset,
                proof_stem,
                proof_format,
                keep_proofs,
                incremental,
                threads,
                pieces,
                lemma_stem,
                lemma_every,
                cut,
                only_pieces,
                in_turn,
                halve: halve.unwrap_or(0),
                tries,
                conflicts,
            };
            climb_showing_rungs(&q, &mut ladder, &bounds, settings, &path)?;
        }
    }
    say_and_merge(&q, &ladder, &path)?;
    let stopped = prove_chain
        || ladder
            .rungs
            .last()
            .is_some_and(|r| r.answer == RungAnswer::Timeout);
    if stopped && grundy::interrupt::requested() {
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--cut last`: the cut that the ladder's last try asked, when that try is a band left
/// without an answer (what a stopped `--halve` run goes on from), said in a line.
fn last_cut(ladder: &Ladder, path: &std::path::Path) -> Result<grundy::sat::bounds::Cut> {
    let Some(rung) = ladder.rungs.last() else {
        bail!("--cut last: {} has no try to go on from", path.display());
    };
    let band = format!("{}..{}", rung.from, rung.below);
    if rung.answer != RungAnswer::Timeout {
        bail!(
            "--cut last: the last try of {} ({band}) has its answer, so there is no cut to go \
             on with: give one (R:V,...)",
            path.display()
        );
    }
    let Some(cut) = rung.cut.clone() else {
        bail!(
            "--cut last: the last try of {} ({band}) asked no cut: give one (R:V,...)",
            path.display()
        );
    };
    println!("  --cut last: the cut of {band}'s last try, {cut}");
    Ok(cut)
}

/// Refuses flags that do not go together, and rungs out of order, before any file is touched.
fn refuse_bad_combinations(args: &BoundsArgs) -> Result<()> {
    let BoundsArgs {
        ask,
        from,
        step,
        to,
        prove_chain,
        threads,
        jobs,
        pieces,
        proof_dir,
        lemmas,
        tries,
        merge,
        halve,
        cut,
        plan,
        ..
    } = args;
    let (pieces, prove_chain, threads, tries) = (*pieces, *prove_chain, *threads, *tries);
    // Clap's `requires` of --plan goes unchecked beside an option that conflicts with
    // --prove-chain (--in-turn, --only-pieces), where it printed a chain's plan for a climb.
    if *plan && !prove_chain {
        bail!("--plan lists the calls of --prove-chain: give --prove-chain too");
    }
    if matches!(cut, Some(CutArg::Last)) && (prove_chain || merge.is_some()) {
        bail!("--cut last goes on with a climb's last cut: not with --prove-chain or --merge");
    }
    if *halve == Some(0) {
        bail!("--halve 0 halves nothing: give the most halvings of a band, 1 or more");
    }
    // `--prove-chain` climbs nothing: `--to` alone says how far up the chain it proves.
    let climb_from = if prove_chain { (*from).min(*to) } else { *from };
    check_ladder_args(climb_from, *step, *to, (threads, *jobs), ask.keep_rotation)?;
    if pieces && ask.keep_rotation {
        bail!("--pieces cuts a band by its largest value, which --keep-rotation does not fix");
    }
    if threads > 1 && proof_dir.is_some() && !(pieces || prove_chain) {
        bail!(
            "--threads with --proof-dir needs --pieces: a band split over threads keeps no proof"
        );
    }
    if threads > 1 && lemmas.is_some() && !pieces {
        bail!("--threads with --lemmas needs --pieces: a band split over threads keeps no lemmas");
    }
    if tries == 0 {
        bail!("--tries must be at least 1");
    }
    refuse_proofs_with_lemmas_wrongly(args)?;
    if tries > 1 && (prove_chain || merge.is_some()) {
        bail!("--tries asks a climb's calls again: not with --prove-chain or --merge");
    }
    Ok(())
}

/// A climb's proofs start from the CNF alone with CaDiCaL's default configuration, unless
/// they carry certified lemmas (`--lemmas` and LRAT): then the campaign's preset, seed and
/// conflicts hold. `--prove-chain` proves from the CNF alone.
fn refuse_proofs_with_lemmas_wrongly(args: &BoundsArgs) -> Result<()> {
    use grundy::sat::solve::{Preset, ProofFormat};
    let proving = args.proof_dir.is_some() || args.prove_chain;
    let carried = args.lemmas.is_some() && args.proof_dir.is_some();
    if args.lemmas.is_some() && args.prove_chain {
        bail!("--prove-chain proves from the CNF alone: not with --lemmas");
    }
    if carried && args.proof_format != ProofFormat::Lrat {
        bail!(
            "--lemmas with --proof-dir needs --proof-format lrat: only LRAT proofs are checked \
             as derivations of the lemmas kept"
        );
    }
    if proving && !carried && args.preset != Preset::Default {
        bail!(
            "--preset with --proof-dir needs --lemmas: a proof from the CNF alone keeps CaDiCaL's default"
        );
    }
    if proving && !carried && args.conflicts.is_some() {
        bail!(
            "--conflicts with --proof-dir needs --lemmas: a proof from the CNF alone is not limited"
        );
    }
    Ok(())
}

/// `--merge`: folds the ladder at `other` (a copy from another machine) into `ladder`, saved at
/// `path` if anything changed, copies the lemma files its records name from `lemmas/` beside
/// `other` into `lemma_dir` (those missing there), and says what changed.
fn merge_ladder(
    q: &Question,
    ladder: &mut Ladder,
    (other, lemma_dir): (&std::path::Path, &std::path::Path),
    path: &std::path::Path,
) -> Result<()> {
    let Some(theirs) = Ladder::read(other)? else {
        bail!("{}: no such ladder to merge", other.display());
    };
    let banded = banded_encoding(q)?;
    // Proof notes name files as `--prove-chain` would; only the file name is kept.
    let stem = std::path::PathBuf::from(question_stem(q));
    let check = |pattern: &[grundy::values::Value]| q.check_pattern(pattern);
    let kept_before = ladder.kept_files();
    let merged = ladder
        .merge_from(
            &theirs,
            banded.as_ref().unwrap_or(&q.encoding),
            &stem,
            &check,
        )
        .map_err(|reason| anyhow::anyhow!("{}: {reason}", other.display()))?;
    // The files before the ladder that names them: a copy that fails leaves the ladder as it
    // was, and a copied file with no record is only disk.
    let theirs = super::lemma_dir(Some(None), other).unwrap_or_default();
    let files = grundy::sat::bounds::copy_kept_lemmas(ladder, &theirs, lemma_dir)
        .map_err(|reason| anyhow::anyhow!("merging {}: {reason}", other.display()))?;
    if !merged.is_empty() {
        ladder.save(path)?;
    }
    println!("merged {}: {merged}", other.display());
    if files != Default::default() {
        println!(
            "  from {} into {}: {files}",
            theirs.display(),
            lemma_dir.display()
        );
    }
    let spent = grundy::sat::bounds::remove_spent_lemmas(&kept_before, ladder, lemma_dir);
    if !spent.is_empty() {
        println!(
            "  removed from {}: {} of calls the merge holds refuted ({})",
            lemma_dir.display(),
            plural(spent.len(), "lemma file", "lemma files"),
            spent.join(", ")
        );
    }
    Ok(())
}

/// Says where the ladder at `path` stands (and its pattern, checked), and merges what it
/// answers into the periods file.
fn say_and_merge(q: &Question, ladder: &Ladder, path: &std::path::Path) -> Result<()> {
    println!(
        "p={} {}: {} (ladder {})",
        q.p,
        q.name(),
        ladder.summary_line(),
        path.display()
    );
    if let Some(pattern) = &ladder.pattern {
        super::question::print_checked_pattern(pattern);
    }
    let feasible = q.known.pattern(q.p as u64);
    q.merge_answer(ladder.period_result(&q.encoding, feasible), "bounds")
}

/// The ladder's options that only make sense together: bounds `from..=to` by `step` within the
/// whole question, and `threads` splitting a band by a largest value, which must be fixed.
fn check_ladder_args(
    from: u16,
    step: u16,
    to: u16,
    (threads, jobs): (usize, usize),
    keep_rotation: bool,
) -> Result<()> {
    if threads == 0 || jobs == 0 {
        bail!("--threads and --jobs must be at least 1");
    }
    if threads > 1 && keep_rotation {
        bail!("--threads splits a band by its largest value, which --keep-rotation does not fix");
    }
    if step == 0 {
        bail!("--step must be at least 1");
    }
    if to > WHOLE_QUESTION || from > to {
        bail!("bad bounds --from {from} --to {to}: need --from <= --to <= {WHOLE_QUESTION}");
    }
    Ok(())
}

/// Where the question's files go in `dir` (created): the stem of each rung's CNF and DRAT
/// file, or of its lemma files.
fn file_stem(q: &Question, dir: &std::path::Path) -> Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    Ok(dir.join(question_stem(q)))
}

/// The name the question's files start with: `<game>-p<P>-<question>`.
fn question_stem(q: &Question) -> String {
    format!("{}-p{}-{}", q.game.slug(), q.p, q.name())
}

/// How each rung runs, as the command line says (see [`Climb`]).
struct RungSettings {
    timeout: Duration,
    seed: u32,
    preset: Preset,
    proof_stem: Option<PathBuf>,
    proof_format: grundy::sat::solve::ProofFormat,
    keep_proofs: bool,
    incremental: bool,
    threads: usize,
    pieces: bool,
    lemma_stem: Option<PathBuf>,
    lemma_every: Duration,
    cut: Option<grundy::sat::bounds::Cut>,
    only_pieces: Vec<u16>,
    in_turn: bool,
    halve: usize,
    tries: usize,
    conflicts: Option<u32>,
}

/// With rotation broken, rungs put a largest value first (bands from the refuted bound): the
/// question's encoding with every rotation kept and a largest value put first. (The ladder
/// keeps the fingerprint of the question's own encoding, of the same rare table.)
fn banded_encoding(q: &Question) -> Result<Option<grundy::sat::encode::PeriodEncoding>> {
    if !q.problem.break_rotation {
        return Ok(None);
    }
    let mut e = q.problem.encode_question_rotation_kept(q.p, q.primitive)?;
    e.put_largest_first();
    Ok(Some(e))
}

/// How `--prove-chain` makes its calls (see [`grundy::sat::bounds::ProveChain`]).
struct ChainSettings {
    timeout: Duration,
    proof_format: grundy::sat::solve::ProofFormat,
    keep_proofs: bool,
    jobs: usize,
    pieces: bool,
    cut: Option<grundy::sat::bounds::Cut>,
    up_to: u16,
}

/// `--prove-chain`: every rung the ladder's bound rests on gets a checked DRAT proof (whole or
/// in pieces), each printed as it ends and the ladder saved after it.
fn prove_chain_showing_rungs(
    q: &Question,
    ladder: &mut Ladder,
    stem: &std::path::Path,
    settings: ChainSettings,
    path: &std::path::Path,
) -> Result<()> {
    use grundy::sat::bounds::{ChainCall, ChainCallEnd, ProveChain, chain_calls, prove_chain};
    use grundy::sat::solve::ProofFormat;
    let checker = grundy::sat::solve::drat_checker_from_env();
    if settings.proof_format == ProofFormat::Drat && checker.is_none() {
        bail!(
            "--prove-chain needs an independent DRAT checker: set {} (for instance \
             \"sh encodings/check_drat_rate.sh\", with rate from crates.io), or prove in LRAT \
             (--proof-format lrat), which grundy checks itself",
            grundy::sat::solve::DRAT_CHECKER_VAR
        );
    }
    let banded = banded_encoding(q)?;
    let (chain, before) = ladder.chain_proved();
    let done = grundy::interrupt::with_stop_flag(|stop| {
        let run = chain_run(
            (q, banded.as_ref()),
            stem,
            &settings,
            checker.as_deref(),
            stop,
        );
        let calls = chain_calls(&run, ladder);
        let passed = grundy::sat::bounds::passed_over(&run, ladder);
        if !calls.is_empty() {
            println!("{}", chain_start_line((q.p, ladder), &calls, &run));
        }
        if !passed.is_empty() {
            println!("p={}: {}", q.p, passed_over_words(&passed, &run));
        }
        let mut display = chain_progress(&calls, q.p);
        let asking = AskingCalls::default();
        asking.show_in(&display);
        let (mut made, mut weighed) = (0, 0);
        let (e, timeout) = (run.largest_first, settings.timeout);
        let mut after_call = |l: &Ladder, call: &ChainCall, seconds, end| {
            l.save(path).map_err(|e| e.to_string())?;
            display.println(&match end {
                ChainCallEnd::Proved => call_words(l, call, seconds),
                ChainCallEnd::NoAnswer => no_answer_words(&call.name(e), timeout),
            });
            // The calls that ended, whatever their order in the queue (`--jobs`).
            (made, weighed) = (made + 1, weighed + call_weight(call));
            display.set(weighed);
            asking.show_after(&format!("{made} of {} calls", calls.len()));
            Ok(())
        };
        let name = |call: &ChainCall| call.name(run.largest_first).to_string();
        let on_call = |call: &ChainCall, running: bool| match running {
            true => asking.started(name(call)),
            false => asking.ended(&name(call)),
        };
        let run = ProveChain {
            on_call: Some(&on_call),
            ..run
        };
        let done = prove_chain(&run, ladder, &calls, &mut after_call);
        // A failure is the one line the run ends with.
        if done.is_ok() {
            display.finish();
        }
        done
    })
    .map_err(anyhow::Error::msg)?;
    let (_, after) = ladder.chain_proved();
    println!(
        "p={}: {}",
        q.p,
        chain_end_words(&done, &settings, (chain, before, after))
    );
    Ok(())
}

/// The [`grundy::sat::bounds::ProveChain`] of `settings`, with no watcher: the run's, and the
/// one its `--plan` lists the calls of (`banded`: the bands' encoding, if not the question's).
fn chain_run<'a>(
    (q, banded): (
        &'a Question,
        Option<&'a grundy::sat::encode::PeriodEncoding>,
    ),
    stem: &'a std::path::Path,
    settings: &ChainSettings,
    checker: Option<&'a str>,
    stop: &'a std::sync::atomic::AtomicBool,
) -> grundy::sat::bounds::ProveChain<'a> {
    grundy::sat::bounds::ProveChain {
        largest_first: banded.unwrap_or(&q.encoding),
        question: &q.encoding,
        timeout: Some(settings.timeout),
        proof_stem: stem,
        proof: (settings.proof_format, checker),
        keep_proofs: settings.keep_proofs,
        jobs: settings.jobs,
        pieces: settings.pieces,
        cut: settings.cut.clone(),
        up_to: settings.up_to,
        stop,
        on_call: None,
    }
}

/// `--prove-chain --plan`: the run's first line, then each call it would make in the order it
/// would make them, with what the climb took over it, then how many rungs have a checked proof.
fn chain_plan(q: &Question, ladder: &Ladder, settings: &ChainSettings) -> Result<String> {
    let banded = banded_encoding(q)?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let no_stem = std::path::Path::new("");
    let run = chain_run((q, banded.as_ref()), no_stem, settings, None, &stop);
    let calls = grundy::sat::bounds::chain_calls(&run, ladder);
    let passed = grundy::sat::bounds::passed_over(&run, ladder);
    let (chain, proved) = ladder.chain_proved();
    let proved = format!("{proved} of the {chain} rungs the bound rests on have a checked proof");
    let mut lines = match calls.is_empty() {
        true => vec![format!("p={}: no call to prove", q.p)],
        false => vec![chain_start_line((q.p, ladder), &calls, &run)],
    };
    let human = grundy::progress::human_time;
    for call in &calls {
        let name = call.name(run.largest_first);
        let mut expected = match call.had_before > 0.0 {
            true => format!("no answer in {} before", human(call.had_before)),
            false => format!("its share of the climb: {}", human(call.climb_seconds)),
        };
        if let Some(a) = call.around {
            let part = a.half.map_or("the piece".to_string(), |h| h.to_string());
            let given = human(a.timeout);
            expected += &format!("; within {part}, which had no answer in {given}");
        }
        lines.push(format!("  {name} ({expected})"));
    }
    if !passed.is_empty() {
        lines.push(format!("p={}: {}", q.p, passed_over_words(&passed, &run)));
    }
    lines.push(format!("p={}: {proved}", q.p));
    Ok(lines.join("\n"))
}

/// The calls `--prove-chain` passes over, in words: "2 calls passed over, each with no answer
/// in 1.5 h before, at least the --timeout (s[0] = 213, 176 <= s[13] < 184 of the band
/// 208..216; ...): a longer --timeout, or a finer --cut, asks them", the first three named.
fn passed_over_words(
    passed: &[grundy::sat::bounds::ChainCall],
    run: &grundy::sat::bounds::ProveChain,
) -> String {
    let human = grundy::progress::human_time;
    let names: Vec<_> = passed.iter().map(|p| p.name(run.largest_first)).collect();
    let shortest = passed
        .iter()
        .map(|p| p.had_before)
        .fold(f64::INFINITY, f64::min);
    let longest = passed.iter().map(|p| p.had_before).fold(0.0, f64::max);
    let had = match shortest == longest {
        true => human(longest),
        false => format!("{} to {}", human(shortest), human(longest)),
    };
    let each = match passed.len() {
        1 => "with",
        _ => "each with",
    };
    let them = match passed.len() {
        1 => "it",
        _ => "them",
    };
    format!(
        "{} passed over, {each} no answer in {had} before, at least this --timeout ({}): a \
         longer --timeout, or a finer --cut, asks {them}",
        plural(passed.len(), "call", "calls"),
        first_named(&names)
    )
}

/// One line for a call of `--prove-chain` (named `name`) that had no answer in the time it was
/// `given`, recorded in the ladder so that runs with no longer `--timeout` pass over it.
fn no_answer_words(name: &grundy::sat::bounds::ChainCallName, given: Duration) -> String {
    let given = grundy::progress::human_time(given.as_secs_f64());
    format!(
        "  {name}: no answer in {given}; recorded, so runs with no longer --timeout pass over it"
    )
}

/// What `--prove-chain` did, for its last line: the rungs (and pieces) proved now, how many of
/// the `chain`'s rungs have a checked proof `after` it (and `before`), and what it left.
fn chain_end_words(
    done: &grundy::sat::bounds::ChainProofs,
    settings: &ChainSettings,
    (chain, before, after): (usize, usize, usize),
) -> String {
    // The same words as the ladder's summary and table: "1 piece and 2 halves".
    let finer = settings
        .cut
        .as_ref()
        .is_some_and(grundy::sat::bounds::Cut::is_finer);
    let pieces = match pieces_and_halves(done.pieces, done.halves, finer) {
        _ if !settings.pieces => String::new(),
        none if none.is_empty() => " (no pieces)".to_string(),
        some => format!(" ({some})"),
    };
    format!(
        "{} proved now{pieces}; {after} of the {chain} rungs the bound rests on have a checked \
         proof (were {before}){}",
        plural(done.proved, "rung", "rungs"),
        left_unproved(done, settings.timeout)
    )
}

/// The line `--prove-chain` starts with: how many calls, in which bands, how long the climb
/// took over them (and the proofs should, at the pace of the bands below proved in pieces,
/// [`Ladder::proof_pace`]), and how many run at once ("p=37: 11 calls to prove, in the band
/// 168..176; the climb took 28 min over them; 1 at a time"). Why: the first call of a chain may
/// run for an hour, and until it ends nothing else says what the run is doing.
fn chain_start_line(
    (p, ladder): (usize, &Ladder),
    calls: &[grundy::sat::bounds::ChainCall],
    run: &grundy::sat::bounds::ProveChain,
) -> String {
    let mut bands: Vec<_> = calls.iter().map(|c| (c.band.from, c.band.below)).collect();
    bands.sort();
    bands.dedup();
    let band = |(from, below): (u16, u16)| format!("{from}..{below}");
    let bands = match bands[..] {
        [one] => format!("the band {}", band(one)),
        [lowest, .., highest] => format!(
            "{} bands from {} to {}",
            bands.len(),
            band(lowest),
            band(highest)
        ),
        [] => "no band".to_string(),
    };
    let climbed: f64 = calls.iter().map(|c| c.climb_seconds).sum();
    let human = grundy::progress::human_time;
    let proofs = |pace: f64| -> f64 { calls.iter().map(|c| c.expected_at(pace)).sum() };
    let format = run.proof.0.name().to_uppercase();
    // One call's words: "the climb took 84 s over it, its proof about 4 min".
    let (them, their, proofs_word, shares) = match calls.len() {
        1 => ("it", "its", "proof", "share"),
        _ => ("them", "their", "proofs", "shares"),
    };
    let pace = match (
        grundy::sat::bounds::parts_pace(run, ladder),
        ladder.proof_pace(run.proof.0),
    ) {
        (Some((n, times)), _) => format!(
            ", {their} {proofs_word} about {} ({times:.1} times {their} {shares} of the climb, as \
             the {} of the same pieces proved in {format} so far)",
            human(proofs(times)),
            plural(n, "part", "parts"),
        ),
        (None, Some((n, times))) => format!(
            ", {their} {proofs_word} about {} ({times:.1} times the climb, as in the {} below in \
             {format})",
            human(proofs(times)),
            plural(n, "band proved in pieces", "bands proved in pieces"),
        ),
        (None, None) => String::new(),
    };
    format!(
        "p={p}: {} to prove, in {bands}; the climb took {} over {them}{pace}; {} at a time",
        plural(calls.len(), "call", "calls"),
        human(climbed),
        run.jobs.min(calls.len()),
    )
}

/// One line for a call of `--prove-chain` that ended with a checked proof.
fn call_words(l: &Ladder, call: &grundy::sat::bounds::ChainCall, seconds: Duration) -> String {
    let r = &l.rungs[call.index];
    let piece = r.pieces.last().filter(|_| call.top.is_some());
    let note = piece.map_or(r.proof.as_ref(), |p| p.proof.as_ref());
    let by = note
        .and_then(|n| n.checked_by.as_deref())
        .unwrap_or("nothing");
    let what = match piece {
        Some(grundy::sat::bounds::ProofPiece {
            top,
            half: Some(half),
            ..
        }) => format!("{}, piece s[0] = {top}, {half}", rung_words(r)),
        Some(p) => format!("{}, piece s[0] = {}", rung_words(r), p.top),
        None => rung_words(r),
    };
    let closed = match (piece, r.has_checked_proof()) {
        (Some(_), true) => format!("; its {} pieces cover it", r.pieces.len()),
        _ => String::new(),
    };
    let seconds = seconds.as_secs_f64();
    format!("  {what}: proof checked by {by} ({seconds:.1} s to prove and check){closed}")
}

/// The progress of `--prove-chain` over its calls, each weighed by [`call_weight`]; ticking, as a
/// call takes minutes to hours.
fn chain_progress(
    calls: &[grundy::sat::bounds::ChainCall],
    p: usize,
) -> grundy::progress::Progress {
    let total = calls.iter().map(call_weight).sum();
    let mut display = grundy::progress::Progress::new(total, &format!("prove-chain p={p}"))
        .counting(
            "estimated seconds (each call at its share of the climb, or more if it had no answer \
             before)",
        )
        .ticking();
    // From zero: the first call proved counts towards the rate.
    display.set(0);
    display
}

/// A call's weight in the progress of `--prove-chain`: the seconds it should take. The rungs of
/// a chain grow harder as it climbs, so counting rungs would guess the end too soon.
fn call_weight(call: &grundy::sat::bounds::ChainCall) -> u64 {
    call.estimated_seconds.ceil() as u64
}

/// What `--prove-chain` left without a proof, and why, for the end of its last line.
fn left_unproved(done: &grundy::sat::bounds::ChainProofs, timeout: Duration) -> String {
    let mut left = String::new();
    if let Some(call) = done.timed_out {
        let timeout = grundy::progress::human_time(timeout.as_secs_f64());
        left += &match done.calls_timed_out {
            1 => format!("; {call} had no answer in {timeout}"),
            n => format!("; {n} calls had no answer in {timeout} (the lowest: {call})"),
        };
    }
    if !done.stopped.is_empty() {
        left += &format!("; stopped: {}", cut_short(&done.stopped));
    }
    if done.not_started > 0 {
        let not = plural(done.not_started, "call", "calls");
        left += &match done.stopped.is_empty() {
            true => format!("; {not} not started"),
            false => format!(", {not} not started"),
        };
    }
    if done.cube_bands > 0 {
        left += &format!(
            "; {} bands answered by cube campaigns wait for `sat cubes --band F..V --certify`",
            done.cube_bands
        );
    }
    left
}

/// The calls a stop request cut short, in words: "2 calls cut short (s[0] = 165, s[13] >= 144
/// of the band 160..168; the band 168..176)", the first three named.
fn cut_short(stopped: &[grundy::sat::bounds::ChainCallName]) -> String {
    let calls = plural(stopped.len(), "call", "calls");
    format!("{calls} cut short ({})", first_named(stopped))
}

/// Calls by name, the first three of them, then how many more: "the band 32..248; s[0] = 165
/// of the band 160..168; the band 168..176; 2 more". Why not all: a run may leave dozens.
fn first_named(calls: &[grundy::sat::bounds::ChainCallName]) -> String {
    const NAMED: usize = 3;
    let mut names: Vec<String> = calls.iter().take(NAMED).map(|c| c.to_string()).collect();
    if calls.len() > NAMED {
        names.push(format!("{} more", calls.len() - NAMED));
    }
    names.join("; ")
}

/// Climbs with a stop request relayed to the solver, printing each rung as it ends and saving
/// the ladder after it.
fn climb_showing_rungs(
    q: &Question,
    ladder: &mut Ladder,
    bounds: &[u16],
    settings: RungSettings,
    path: &std::path::Path,
) -> Result<()> {
    let largest_first = q.problem.break_rotation;
    let banded = banded_encoding(q)?;
    let encoding = banded.as_ref().unwrap_or(&q.encoding);
    let lemma_dir = (settings.lemma_stem.as_deref())
        .and_then(std::path::Path::parent)
        .map(std::path::Path::to_path_buf);
    // The pieces of the band being climbed, on a terminal (pieces run for hours, each line
    // printed only when one ends).
    let mut display: Option<grundy::progress::Progress> = None;
    // The calls of the display's try refuted so far, and ended so far (refuted or stopped).
    // The display counts those ended when the try asks in turn (every call of it ends within
    // --timeout, so its rate and ETA are the try's), those refuted when not (the first call
    // stopped ends the try), and says the refuted beside an in-turn count.
    let (mut refuted_now, mut ended_now) = (0, 0);
    let in_turn = settings.in_turn;
    let refuted_lead = |refuted: u64| match in_turn {
        true => format!("{refuted} refuted"),
        false => String::new(),
    };
    // The pieces being asked, named in the display's note (their starts are told from the
    // worker threads, their ends by the climb's steps).
    let asking = AskingCalls::default();
    let mut after_rung = |l: &Ladder, step: Step| {
        let Some(r) = l.rungs.last() else {
            return Ok(());
        };
        let starts = match step {
            Step::RungStart(band) => Some(band),
            Step::PiecesStart => Some(r.band()),
            _ => None,
        };
        if let Step::TryAgain(tried) = step {
            println!(
                "  {}..{}: try {tried} of {}, the calls without an answer asked again",
                r.from, r.below, settings.tries
            );
            return Ok(());
        }
        if let Step::Halved { round, parts: 0 } = step {
            println!(
                "  {}..{}: halving {round} of {}: no part without an answer holds two common \
                 values, so the band is asked again in the same cut, each part from its own files",
                r.from, r.below, settings.halve
            );
            return Ok(());
        }
        if let Step::Halved { round, parts } = step {
            println!(
                "  {}..{}: halving {round} of {}: {} without an answer cut in two (each at its \
                 middle common value), the band asked again in the finer cut",
                r.from,
                r.below,
                settings.halve,
                plural(parts, "part", "parts")
            );
            return Ok(());
        }
        // A call about to start: nothing to save yet, but what it will not be given is said.
        if let Some(band) = starts {
            let lemma_dir = lemma_dir.as_deref();
            say_what_starts(l, band, &settings, lemma_dir);
            if step == Step::PiecesStart {
                println!(
                    "  {}",
                    pieces_start_words(l, encoding, &settings, lemma_dir)
                );
                let shown = pieces_progress(encoding, r, q.p, &settings);
                (refuted_now, ended_now) = (0, 0);
                asking.show_in(&shown);
                asking.show_after(&refuted_lead(0));
                display = Some(shown);
            }
            return Ok(());
        }
        l.save(path).map_err(|e| e.to_string())?;
        let line = match step {
            Step::Piece => format!("  {}", piece_words(r)),
            Step::PieceStopped(stopped) => format!("  {}", stopped_piece_words(r, stopped)),
            _ => format!("  {}", rung_line(r)),
        };
        let ended = match step {
            Step::Piece => (r.pieces.last()).map(|p| (p.top, p.half)),
            Step::PieceStopped(stopped) => Some((stopped.top, stopped.half)),
            _ => None,
        };
        if let Some((top, half)) = ended {
            asking.ended(&piece_name(top, half));
        }
        match (&mut display, step) {
            (Some(d), Step::Piece | Step::PieceStopped(_)) => {
                refuted_now += u64::from(step == Step::Piece);
                ended_now += 1;
                d.set(if in_turn { ended_now } else { refuted_now });
                asking.show_after(&refuted_lead(refuted_now));
                d.println(&line);
            }
            _ => {
                if let Some(d) = display.take() {
                    d.finish();
                }
                println!("{line}");
            }
        }
        Ok(())
    };
    let climbed = grundy::interrupt::with_stop_flag(|stop| {
        let run = Climb {
            encoding,
            largest_first,
            threads: settings.threads,
            timeout: Some(settings.timeout),
            seed: settings.seed,
            preset: settings.preset,
            stop,
            proof_stem: settings.proof_stem.clone(),
            proof_format: settings.proof_format,
            keep_proofs: settings.keep_proofs,
            incremental: settings.incremental,
            pieces: settings.pieces,
            lemma_stem: settings.lemma_stem.clone(),
            lemma_every: settings.lemma_every,
            cut: settings.cut.clone(),
            only_pieces: settings.only_pieces.clone(),
            in_turn: settings.in_turn,
            halve: settings.halve,
            tries: settings.tries,
            conflicts: settings.conflicts,
            run_name: grundy::sat::bounds::RunShare::name_this_run(),
            on_piece_start: Some(&|top, half| asking.started(piece_name(top, half))),
        };
        climb(&run, ladder, bounds, &|b| q.check(b), &mut after_rung)
    });
    climbed.map_err(|reason| anyhow::anyhow!("{reason}"))
}

/// The notes before a call of `band` starts: each lemma file an earlier run kept for a call
/// this run asks that it will not give it (not in `lemma_dir`, or no `--lemmas`).
fn say_what_starts(
    l: &Ladder,
    band: Band,
    settings: &RungSettings,
    lemma_dir: Option<&std::path::Path>,
) {
    let asked = (lemma_dir, settings.only_pieces.as_slice());
    for line in lemmas_not_found(l, band, asked, settings.cut.is_some()) {
        eprintln!("grundy: note: {line}");
    }
}

/// The first line of a band in pieces ([`pieces_start_line`], the open band being the
/// ladder's last try), and whether its pieces are asked in turn.
fn pieces_start_words(
    l: &Ladder,
    encoding: &grundy::sat::encode::PeriodEncoding,
    settings: &RungSettings,
    lemma_dir: Option<&std::path::Path>,
) -> String {
    let Some(r) = l.rungs.last() else {
        return String::new();
    };
    let calls = (settings.threads, settings.only_pieces.as_slice());
    let in_turn = match settings.in_turn {
        true => "; each asked in turn (one without an answer ends no try)",
        false => "",
    };
    let line = pieces_start_line(l, r, encoding, calls, lemma_dir);
    // A cut halved by this run (`--halve`) is not the command line's: said as it now stands.
    let halved = match &r.cut {
        Some(cut) if r.cut != settings.cut => format!("; parts of {cut}"),
        _ => String::new(),
    };
    format!("{line}{in_turn}{halved}")
}

/// The calls being asked, each named with the time it started, and the note of a progress
/// display that names them ("asking s[0] = 225 since 18:14 UTC"): the pieces of a band being
/// climbed, or the calls of `--prove-chain`. Why: a call runs for an hour, and a display whose
/// count moves only when one ends cannot tell a run at work from one that is stuck.
#[derive(Default)]
struct AskingCalls {
    calls: std::sync::Mutex<Vec<(String, String)>>,
    note: std::sync::Mutex<Option<grundy::progress::NoteSetter>>,
    /// What the note says before the calls ("3 of 11 calls"), if anything.
    lead: std::sync::Mutex<String>,
}

impl AskingCalls {
    fn started(&self, name: String) {
        self.lock_calls().push((name, utc_hour_minute()));
        self.show();
    }

    fn ended(&self, name: &str) {
        self.lock_calls().retain(|(n, _)| n != name);
        self.show();
    }

    /// Names the calls in `display`'s note from now on (a band's new display, before any of
    /// its pieces starts: a piece of an earlier band that left no step, halted by a pattern
    /// found beside it, is forgotten).
    fn show_in(&self, display: &grundy::progress::Progress) {
        self.lock_calls().clear();
        let mut note = self.note.lock().unwrap_or_else(|p| p.into_inner());
        *note = Some(display.note_setter());
        drop(note);
        self.show();
    }

    /// Writes the note from now on with `lead` before the calls.
    fn show_after(&self, lead: &str) {
        *self.lead.lock().unwrap_or_else(|p| p.into_inner()) = lead.to_string();
        self.show();
    }

    /// Writes the note ([`Self::note`]).
    fn show(&self) {
        let note = self.note();
        let setter = self.note.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(setter) = setter.as_ref() {
            setter.set(&note);
        }
    }

    /// The lead, then the calls being asked, oldest first ("3 of 11 calls; asking s[0] = 175
    /// since 01:40 UTC"); empty when there is neither.
    fn note(&self) -> String {
        let named: Vec<String> = (self.lock_calls().iter())
            .map(|(name, since)| format!("{name} since {since} UTC"))
            .collect();
        let asking = (!named.is_empty()).then(|| format!("asking {}", named.join("; ")));
        let lead = self.lead.lock().unwrap_or_else(|p| p.into_inner()).clone();
        ([Some(lead), asking].into_iter().flatten())
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn lock_calls(&self) -> std::sync::MutexGuard<'_, Vec<(String, String)>> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A piece of a band in the note of [`AskingCalls`]: "s[0] = 225" or "s[0] = 225, s[13] >= 64".
fn piece_name(top: Value, half: Option<Half>) -> String {
    let half = half.map_or(String::new(), |h| format!(", {h}"));
    format!("s[0] = {top}{half}")
}

/// The time of day in UTC, hours and minutes ("18:14"): when a piece of hours started, read
/// beside a log's own times.
fn utc_hour_minute() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let seconds_today = now.map_or(0, |d| d.as_secs() % 86_400);
    format!(
        "{:02}:{:02}",
        seconds_today / 3600,
        seconds_today % 3600 / 60
    )
}

/// A line for each call of `band` whose lemma file the last run kept ([`Ladder::kept_lemmas`])
/// and this one will not give it: not in `dir`, or no `--lemmas` (`dir` `None`); of the pieces
/// `only` when it names some. The call then starts afresh, and a run of hours should say so
/// before it starts, not after; a whole piece's file gone while this run asks the piece cut
/// (`asked_cut`) and parts of it have files of their own is said so, since the parts do not
/// start afresh (asked whole, the piece is given no part's file).
fn lemmas_not_found(
    l: &Ladder,
    band: Band,
    (dir, only): (Option<&std::path::Path>, &[u16]),
    asked_cut: bool,
) -> Vec<String> {
    let (given, missing) = kept_lemmas_found(l, band, (dir, only));
    let parts_given = |k: &KeptLemmas| match (k.half, asked_cut) {
        (Some(_), _) | (None, false) => 0,
        (None, true) => (given.iter())
            .filter(|g| g.top == k.top && g.half.is_some())
            .count(),
    };
    let line = |k: &KeptLemmas| {
        let call = match k.piece() {
            Some(piece) => format!("the piece {piece} of {band}"),
            None => format!("the band {band}"),
        };
        let why = match dir {
            Some(d) => format!("{} is not in {}", k.file, d.display()),
            None => format!("this run has no --lemmas (the file: {})", k.file),
        };
        let core = grundy::sat::lemmas::core_name(&k.file);
        let starts = match (dir.is_some_and(|d| d.join(&core).exists()), parts_given(k)) {
            (true, _) => format!("it starts from its core ({core}: units and binary clauses only)"),
            (false, 0) => "it starts afresh".to_string(),
            (false, n) => format!("its parts asked cut still have their own files ({n} found)"),
        };
        format!(
            "{call} had {} lemmas kept by an earlier run, but {why}: {starts}",
            k.clauses
        )
    };
    missing.into_iter().map(line).collect()
}

/// The lemma files the last run kept for the calls of `band` ([`Ladder::kept_lemmas`]): those
/// in `dir`, which this run gives their calls, and those it will not (not there, or no
/// `--lemmas`: `dir` `None`); only those of the pieces `only` when it names some
/// (`--only-pieces`: the calls this run makes).
fn kept_lemmas_found<'l>(
    l: &'l Ladder,
    band: Band,
    (dir, only): (Option<&std::path::Path>, &[u16]),
) -> (Vec<&'l KeptLemmas>, Vec<&'l KeptLemmas>) {
    let asked = |k: &&KeptLemmas| only.is_empty() || k.top.is_some_and(|t| only.contains(&t));
    let found = |k: &&KeptLemmas| dir.is_some_and(|d| d.join(&k.file).exists());
    (l.kept_lemmas(band).into_iter().filter(asked)).partition(found)
}

/// The line a band in pieces starts with: the values of `s[0]` left (and those this run asks
/// alone, `--only-pieces`), how many run at once, and how many start from lemma files an
/// earlier call kept for them (of this run, with `--tries`, or of one before; found in `dir`).
/// Why: a piece runs for hours, and a log that says nothing until one ends cannot tell a run at
/// work from one that is stuck, nor say what it was given.
fn pieces_start_line(
    l: &Ladder,
    r: &grundy::sat::bounds::Rung,
    e: &grundy::sat::encode::PeriodEncoding,
    (threads, only): (usize, &[u16]),
    dir: Option<&std::path::Path>,
) -> String {
    let band = r.band();
    let values = grundy::sat::bounds::band_values(e, band);
    let left: Vec<String> = (values.iter())
        .copied()
        .filter(|&top| !r.covers(top))
        .map(|top| top.to_string())
        .collect();
    let (given, missing) = kept_lemmas_found(l, band, (dir, only));
    let core_there = |k: &&KeptLemmas| {
        dir.is_some_and(|d| d.join(grundy::sat::lemmas::core_name(&k.file)).exists())
    };
    let cores: Vec<&KeptLemmas> = missing.into_iter().filter(core_there).collect();
    let mut line = format!(
        "{band} in pieces: s[0] = {} left of {}, {} at once",
        left.join(", "),
        values.len(),
        threads.max(1)
    );
    if !only.is_empty() {
        let only: Vec<String> = only.iter().map(u16::to_string).collect();
        line += &format!("; this run asks only s[0] = {}", only.join(", "));
    }
    // No count of clauses: the file may have been rewritten since its record (the same call
    // run with another folder), and the rung line says what each call was given.
    let calls = calls_given_lemmas(r, &given);
    if calls > 0 {
        line += &format!("; {calls} start from lemma files kept by an earlier call");
    }
    let from_cores = calls_given_lemmas(r, &cores);
    if from_cores > 0 {
        line += &format!(
            "; {from_cores} from the cores of lemma files (their units and binaries; the \
             files are not here)"
        );
    }
    line
}

/// How many calls of the band `r` asks start from the kept files `given`: calls, not files (a
/// piece asked on two seeds has a file of each); under a cut, each part not refuted of a piece
/// whose whole file is given counts (it starts from it too), and one with a file of its own or
/// of a larger part that holds it ([`Half::holds`]: a coarser cut's).
fn calls_given_lemmas(r: &grundy::sat::bounds::Rung, given: &[&KeptLemmas]) -> usize {
    let mut calls: Vec<_> = given.iter().map(|k| (k.top, k.half)).collect();
    calls.sort_unstable();
    calls.dedup();
    let Some(cut) = &r.cut else {
        return calls.len();
    };
    let parts = cut.parts();
    // The piece's own file, the part's, or that of a larger part holding it (a coarser cut).
    let part_given = |top: Option<Value>, part: Half| {
        (given.iter()).any(|k| k.top == top && k.half.is_none_or(|h| h.holds(&part)))
    };
    let mut tops: Vec<Option<Value>> = calls.iter().map(|&(top, _)| top).collect();
    tops.dedup();
    (tops.into_iter().flatten())
        .flat_map(|top| parts.iter().map(move |&part| (top, part)))
        .filter(|&(top, part)| !r.has_piece(top, Some(part)) && part_given(Some(top), part))
        .count()
}

/// A rung that ended, in words: its band, answer, seconds, proof and lemmas.
fn rung_line(r: &grundy::sat::bounds::Rung) -> String {
    let answer = format!("{:?}", r.answer).to_lowercase();
    let checked = r.proof.as_ref().and_then(|n| n.checked_by.as_deref());
    let proof = match (&r.proof, checked) {
        (Some(_), Some(by)) => format!(", proof checked by {by}"),
        (Some(n), None) => format!(", proof {} (unchecked)", n.proof),
        (None, _) => String::new(),
    };
    let limit = match r.conflicts {
        Some(n) => format!(", at most {n} conflicts a call"),
        None => String::new(),
    };
    let mut lemmas = lemma_words(r.lemmas);
    let kept: usize = r.kept.iter().map(|k| k.clauses).sum();
    if kept > 0 {
        lemmas += &format!(", {kept} lemmas kept for the next try");
    }
    if let Some(units) = grundy::sat::bounds::units_kept(r.kept.iter()) {
        lemmas += &format!(" ({units} of them units)");
    }
    format!(
        "{}: {answer} ({:.1} s{limit}{proof}{lemmas})",
        rung_words(r),
        r.seconds
    )
}

/// The progress over the calls a try in pieces of rung `r`'s band makes ([`calls_to_ask`]:
/// the parts under its cut, of the pieces named by `--only-pieces`, less those refuted already),
/// ticking on a terminal so its clock moves between pieces.
///
/// [`calls_to_ask`]: grundy::sat::bounds::calls_to_ask
fn pieces_progress(
    e: &grundy::sat::encode::PeriodEncoding,
    r: &grundy::sat::bounds::Rung,
    p: usize,
    settings: &RungSettings,
) -> grundy::progress::Progress {
    let band = r.band();
    // The try's cut: the command line's, or that cut halved by this run (`--halve`).
    let cut = r.cut.as_ref();
    let calls = grundy::sat::bounds::calls_to_ask(e, r, cut, &settings.only_pieces);
    let unit = if cut.is_some() { "parts" } else { "pieces" };
    let mut display = grundy::progress::Progress::new(
        calls.len() as u64,
        &format!("p={p} band {band} in pieces"),
    )
    .counting(unit)
    .ticking();
    display.set(0);
    display
}

/// The last piece of a rung climbed in pieces, in words: its value of `s[0]`, its seconds and
/// proof, and how many of the band's pieces are refuted.
fn piece_words(r: &grundy::sat::bounds::Rung) -> String {
    let Some(piece) = r.pieces.last() else {
        return rung_words(r);
    };
    let proof = match piece.proof.as_ref().map(|n| n.checked_by.as_deref()) {
        Some(Some(by)) => format!(", proof checked by {by}"),
        Some(None) => ", proof unchecked".into(),
        None => String::new(),
    };
    let lemmas = lemma_words(piece.lemmas);
    let half = piece.half.map_or(String::new(), |h| format!(", {h}"));
    format!(
        "{}, piece s[0] = {}{half}: unsat ({:.1} s{proof}{lemmas}); {}",
        rung_words(r),
        piece.top,
        piece.seconds,
        r.pieces_refuted()
    )
}

/// A piece of `r` left without an answer, in words: how long it ran, what it was given, and
/// what its lemma file holds for the next try (the rung's record of it).
fn stopped_piece_words(r: &grundy::sat::bounds::Rung, stopped: StoppedPiece) -> String {
    let half = stopped.half.map_or(String::new(), |h| format!(", {h}"));
    let kept = (r.kept.iter())
        .find(|k| (k.top, k.half) == (Some(stopped.top), stopped.half))
        .map_or(String::new(), |k| {
            let units = grundy::sat::bounds::units_kept(std::iter::once(k))
                .map_or(String::new(), |n| format!(" ({n} of them units)"));
            let certified = if k.certified { ", certified" } else { "" };
            format!(
                ", {} lemmas kept for the next try{units}{certified}",
                k.clauses
            )
        });
    format!(
        "{}, piece s[0] = {}{half}: no answer ({:.1} s{}{kept})",
        rung_words(r),
        stopped.top,
        stopped.seconds.as_secs_f64(),
        lemma_words(stopped.given)
    )
}

/// The lemmas a call was given, in words (nothing when none).
fn lemma_words(given: usize) -> String {
    match given {
        0 => String::new(),
        n => format!(", {n} lemmas of earlier calls given"),
    }
}

/// A rung's band in words: `below V`, or `from F below V`.
fn rung_words(r: &grundy::sat::bounds::Rung) -> String {
    match r.from {
        0 => format!("below {}", r.below),
        from => format!("from {from} below {}", r.below),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The note names the calls running, oldest first, each with its start, after the lead;
    /// a call that ended leaves it. Mutation: ended calls kept, or the lead dropped.
    #[test]
    fn the_note_names_the_calls_running_after_the_lead() {
        let asking = AskingCalls::default();
        assert_eq!(asking.note(), "");
        asking.started(piece_name(169, None));
        asking.started("the band 176..184".to_string());
        asking.ended("s[0] = 169");
        asking.show_after("1 of 3 calls");
        let note = asking.note();
        let lead = "1 of 3 calls; asking the band 176..184 since ";
        assert!(note.starts_with(lead) && note.ends_with(" UTC"), "{note}");
        assert_eq!(note.len(), lead.len() + "01:40 UTC".len(), "{note}");
        asking.ended("the band 176..184");
        assert_eq!(asking.note(), "1 of 3 calls");
    }
}
