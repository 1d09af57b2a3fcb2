//! Climbing a ladder: each rung (or each piece of a band) asked of CaDiCaL, the answers
//! written into the ladder as they come.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::{
    Asked, Band, Cut, Half, KeptLemmas, Ladder, PieceOutcome, ProofPiece, Rung, RungAnswer,
    RungOrPiece, asked_with_proof, band_tops, band_units, band_values, model_or_failure,
    not_refuted, rung_stem_of, settle_checked_files, with_units,
};
use crate::sat::encode::PeriodEncoding;
use crate::sat::lemmas::LemmaStore;
use crate::sat::solve::{Answer, CadicalRun, Preset, solve_cadical_with, solve_carried_with_lrat};
use crate::values::Value;

/// How the rungs run. (Clone: a band's parts cut finer, [`Climb::halve`], run on a copy.)
#[derive(Clone)]
pub struct Climb<'a> {
    /// The question's encoding the rungs run on: with a largest value put first
    /// ([`PeriodEncoding::put_largest_first`]) when `largest_first`, else as the question has it.
    pub encoding: &'a PeriodEncoding,
    /// Each rung is a band from the highest refuted bound: its floor is a unit on `s[0]`. Why:
    /// below a refuted bound there is nothing left to find, and fixing that the largest value is
    /// at least the bound makes a rung far cheaper (Officers p = 27, below 216: 88 s as a band
    /// from 208 against 391 s for every value below 216 with a smallest value first, and 370 s
    /// with a largest first but no floor; 2026-11-24).
    pub largest_first: bool,
    /// Above 1 (with `largest_first`): each band is split into one cube per byte of `s[0]`,
    /// solved this many at a time.
    pub threads: usize,
    /// Seconds a rung may take.
    pub timeout: Option<Duration>,
    /// Conflicts each fresh call may take (a whole rung, a piece or half, a cube of a split
    /// rung; not a proof's, nor the incremental solver's): one that reaches them has no answer,
    /// as at `timeout`, and the rung records the limit ([`Rung::conflicts`]). Why: a timeout
    /// measures the machine as much as the question (a 5 s piece of p = 27 learned about a
    /// thousand clauses on an idle VM and none beside two busy cores), a conflict count does not.
    pub conflicts: Option<u32>,
    /// CaDiCaL's seed (0: its default). A rung with a proof runs with the default.
    pub seed: u32,
    /// CaDiCaL's configuration. A rung with a proof runs with the default.
    pub preset: Preset,
    pub stop: &'a AtomicBool,
    /// Certify every UNSAT rung here (`<stem>-below<V>.cnf`, and `.drat` or `.lrat`).
    pub proof_stem: Option<PathBuf>,
    /// The format of those proofs (DRAT checked by `GRUNDY_DRAT_CHECKER`, or LRAT checked by
    /// [`crate::sat::lrat`]).
    pub proof_format: crate::sat::solve::ProofFormat,
    /// Keep each proof's files once checked (`--keep-proofs`), else remove them, as the chain
    /// does ([`super::ProveChain::keep_proofs`]).
    pub keep_proofs: bool,
    /// All rungs in one incremental CaDiCaL, each under its bound as assumptions, a refuted one
    /// kept as a clause (no proofs).
    pub incremental: bool,
    /// Each band (with `largest_first`) is asked in pieces, one fresh CaDiCaL call per byte of
    /// `s[0]`, lowest first, each refuted piece saved in the rung ([`ProofPiece`]); a band
    /// left without an answer is continued by the next run from its first piece not refuted.
    /// `timeout` is then per piece.
    pub pieces: bool,
    /// Keep what CaDiCaL learns in each fresh call (a whole rung or a piece; not a proof's,
    /// not split cubes) in lemma files named from this stem, its rung and its CNF's
    /// fingerprint, saved every `lemma_every` and when the call ends; the call asked again
    /// (a piece stopped and asked by the next run) starts with them ([`crate::sat::lemmas`]).
    pub lemma_stem: Option<PathBuf>,
    pub lemma_every: Duration,
    /// With `pieces`: each piece asked as the two halves of a cut of `s[residue]` at a value
    /// ([`Half`]), or the parts of a cut at several ([`Cut::parts`]), each saved as it ends.
    pub cut: Option<Cut>,
    /// With `pieces`: only these values of the open band's `s[0]` are asked (empty: every
    /// one), and the climb stops after that band. Why: pieces are asked lowest first, and the
    /// climb stops at the first without an answer, so a piece that resists for days keeps the
    /// band's others from ever being asked. The band is refuted only once every piece is, by
    /// this run or earlier ones.
    pub only_pieces: Vec<Value>,
    /// With `pieces`: a piece left without an answer does not end the try; every open piece
    /// (of `only_pieces`, when it names some) is asked once a try, lowest first. Why: a try
    /// ends at its first piece without an answer, so behind one that resists for days the
    /// band's others are never asked, nor a pattern among them found.
    pub in_turn: bool,
    /// Tries in all, in this run, of a call left without an answer in `timeout` (a whole rung,
    /// or the pieces of a band): each try after the first is given the lemmas the calls before
    /// it kept (`lemma_stem` is needed for more than 1). Why: a campaign of months is a chain
    /// of such tries, and a piece asked again with what it learned has often fallen soon after
    /// it had run for an hour (Officers p = 37's band 200..208: `s[0]` = 207 no answer in 72
    /// minutes, then refuted in 105 s given its 2^20 clauses; 213 of 208..216, 38 minutes, then
    /// 1295 s), where before each try waited for someone to start the next run.
    pub tries: usize,
    /// With `pieces`, `cut` and `in_turn`: once the tries of the band's cut end with parts of
    /// it left without an answer, each such part (of two common values or more) is cut in two
    /// at its middle common value ([`Cut::halved`]) and the band asked again in the finer cut
    /// (its tries anew), up to this many times (a halving that finds no part of two values
    /// asks the cut again as it is); the next band starts from `cut` again. Each half starts
    /// from the lemma files of the parts that hold it. Why: Officers p = 39's
    /// piece 230 of 224..232 fell so, its cut halved by hand where it resisted, five times (34
    /// parts, none over 384 s, where their parents had no answer in 480 to 900 s; 2026-12-07),
    /// each time by someone reading which parts stopped and checking that each half held a
    /// common value.
    pub halve: usize,
    /// This run's name in the tries it goes on with ([`Rung::runs`]):
    /// [`super::RunShare::name_this_run`] once per process.
    pub run_name: String,
    /// With `pieces`: told of each piece (its value of `s[0]`, and half) as its call starts,
    /// in the thread that asks it. Why: a piece's end is a [`Step`], but its start is not (the
    /// calls run in worker threads), and a progress display of a band of hours should say
    /// which piece is being asked.
    pub on_piece_start: Option<&'a (dyn Fn(Value, Option<Half>) + Sync)>,
}

/// A piece that had no answer ([`Step::PieceStopped`]): its value of `s[0]` (and half), how
/// long it ran, and the lemmas it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoppedPiece {
    pub top: Value,
    pub half: Option<Half>,
    pub seconds: Duration,
    pub given: usize,
}

/// Where a climb is when it shows the ladder to its caller (the ladder's last rung is the one
/// meant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A rung ended (whole, or its band in pieces): the ladder is to be saved.
    Rung,
    /// A piece of the last rung was refuted and saved in it: the ladder is to be saved.
    Piece,
    /// A piece of the last rung had no answer (its kept lemma file, if any, recorded in the
    /// rung): the ladder is to be saved. Why a step of its own: with [`Climb::in_turn`] a try
    /// goes on past it, and a log of hours should say which pieces resisted as they stop.
    PieceStopped(StoppedPiece),
    /// The pieces of the last rung's band start (those not refuted yet): for a progress
    /// display. The rung may be new, with no answer and no time yet, so not one to save.
    PiecesStart,
    /// A whole rung of this band starts in a fresh CaDiCaL (the ladder's last rung is still
    /// the one before): nothing to save.
    RungStart(Band),
    /// The calls of the ladder's last rung had no answer, and are asked again (this try of
    /// [`Climb::tries`], from 2), given the lemmas they kept: nothing to save.
    TryAgain(usize),
    /// The parts of the last rung's cut left without an answer by its tries are cut in two
    /// ([`Climb::halve`]; this halving, from 1, and how many parts were cut: none when no
    /// such part holds two common values), the band asked again in the finer cut (or the same
    /// one): nothing to save.
    Halved { round: usize, parts: usize },
}

/// Climbs `bounds` (rising; those at or below the ladder's highest refuted bound, and those
/// above a pattern it has, are skipped) until a rung has a pattern or no answer in its
/// [`Climb::tries`], or the bounds run out. A pattern replaces one with a larger largest value, so a finer ladder between the
/// highest refuted bound and a pattern's largest value narrows down the least largest value.
/// `check` turns a model's bytes into a checked pattern; `after_rung` sees the ladder after every
/// rung (to save it), and with [`Climb::pieces`] after every piece of one and when a band's
/// pieces start ([`Step`]).
///
/// # Errors
/// A line for a solver failure, a model that fails the check, or `after_rung`'s error.
pub fn climb(
    run: &Climb,
    ladder: &mut Ladder,
    bounds: &[Value],
    check: &crate::sat::cubes::WitnessCheck,
    after_rung: &mut dyn FnMut(&Ladder, Step) -> Result<(), String>,
) -> Result<(), String> {
    let e = run.encoding;
    let mut incremental = match run.incremental {
        true => Some(Incremental::new(run).map_err(|e| format!("CaDiCaL failed: {e}"))?),
        false => None,
    };
    for &below in bounds {
        let known = ladder.largest_in_pattern().is_some_and(|m| below > m);
        if known || Some(below) <= ladder.refuted_below() || ladder.answered_unsat() {
            continue;
        }
        let from = match run.largest_first {
            true => ladder.refuted_below().unwrap_or(0),
            false => 0,
        };
        let band = Band { from, below };
        let units = band_units(e, band, run.largest_first)?;
        if run.pieces && run.largest_first {
            // This band's cut, halved where it resists (`halve`); the next band's is `run`'s.
            let mut band_run = run.clone();
            let (mut tried, mut halved) = (1, 0);
            while rung_in_pieces(&band_run, ladder, band, &units, check, after_rung)?
                == RungAnswer::Timeout
            {
                if only_pieces_refuted(run, ladder) {
                    return Ok(());
                }
                if try_again(run, &mut tried, ladder, after_rung)? {
                    continue;
                }
                if !halve_resisting(&mut band_run, &mut halved, ladder, after_rung)? {
                    return Ok(());
                }
                tried = 1;
            }
            if !run.only_pieces.is_empty() {
                return Ok(());
            }
            continue;
        }
        let split = run.largest_first && run.threads > 1;
        let mut tried = 1;
        loop {
            if incremental.is_none() && !split {
                after_rung(ladder, Step::RungStart(band))?;
            }
            let answer = whole_rung(run, ladder, band, &units, (&mut incremental, split), check)?;
            after_rung(ladder, Step::Rung)?;
            if answer != RungAnswer::Timeout {
                break;
            }
            if !try_again(run, &mut tried, ladder, after_rung)? {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// With [`Climb::only_pieces`]: whether the last rung (the band's try) has each of them
/// refuted, so that asking again would ask nothing.
fn only_pieces_refuted(run: &Climb, ladder: &Ladder) -> bool {
    let rung = ladder.rungs.last();
    !run.only_pieces.is_empty()
        && (run.only_pieces.iter()).all(|&top| rung.is_some_and(|r| r.covers(top)))
}

/// Whether a call left without an answer is asked again ([`Climb::tries`]): tries are left and
/// no stop was requested. Counts the try and tells `after_rung`.
fn try_again(
    run: &Climb,
    tried: &mut usize,
    ladder: &Ladder,
    after_rung: &mut dyn FnMut(&Ladder, Step) -> Result<(), String>,
) -> Result<bool, String> {
    let stopping = run.stop.load(std::sync::atomic::Ordering::Relaxed);
    if *tried >= run.tries || stopping || run.lemma_stem.is_none() {
        return Ok(false);
    }
    *tried += 1;
    after_rung(ladder, Step::TryAgain(*tried))?;
    Ok(true)
}

/// Whether the parts that the tries of `band_run`'s cut left without an answer are cut in two
/// and asked again ([`Climb::halve`]): halvings are left, no stop was requested, and the try
/// asked every part in turn (else those it never asked would be cut too). Cuts those of two
/// common values or more ([`Cut::halved`]: the values `s[residue]` can take, below the band's
/// bound) and tells `after_rung`; when none holds two, the halving asks the cut again as it
/// is, each part from its own files. Why not stop there: a part of one value cannot be cut on
/// the residue, but given what it learned it falls (Officers p = 39's 231 of 224..232: each of
/// the 10 such parts that had no answer fell within one to three more calls, 2026-12-07).
fn halve_resisting(
    band_run: &mut Climb,
    halved: &mut usize,
    ladder: &Ladder,
    after_rung: &mut dyn FnMut(&Ladder, Step) -> Result<(), String>,
) -> Result<bool, String> {
    let stopping = band_run.stop.load(std::sync::atomic::Ordering::Relaxed);
    let (Some(cut), Some(rung)) = (&band_run.cut, ladder.rungs.last()) else {
        return Ok(false);
    };
    if *halved >= band_run.halve || stopping || !band_run.in_turn {
        return Ok(false);
    }
    let mut resisting: Vec<Half> = (pieces_to_ask(band_run, rung).into_iter())
        .filter_map(|(_, half)| half)
        .collect();
    resisting.sort_unstable();
    resisting.dedup();
    if resisting.is_empty() {
        return Ok(false);
    }
    // The common values below the band's bound, lowest first: those `s[residue]` can take.
    let below = Band {
        from: 0,
        below: rung.below,
    };
    let common = band_values(band_run.encoding, below);
    let finer = cut
        .halved(&resisting, &common)
        .unwrap_or_else(|| cut.clone());
    let parts = finer.parts().len() - cut.parts().len();
    band_run.cut = Some(finer);
    *halved += 1;
    after_rung(
        ladder,
        Step::Halved {
            round: *halved,
            parts,
        },
    )?;
    Ok(true)
}

/// One whole rung of `band` (fresh, split over threads, or in the incremental solver), pushed
/// onto the ladder with its answer; a pattern is checked and kept.
fn whole_rung(
    run: &Climb,
    ladder: &mut Ladder,
    band: Band,
    units: &[i32],
    (incremental, split): (&mut Option<Incremental>, bool),
    check: &crate::sat::cubes::WitnessCheck,
) -> Result<RungAnswer, String> {
    let e = run.encoding;
    let Band { from, below } = band;
    let started = Instant::now();
    let asked = match incremental {
        Some(solver) => Asked::plain(solver.rung(units, run.timeout)?),
        None if split => Asked::plain(split_rung(run, units, (from, below))?),
        None => fresh_rung(run, (units, &[]), ((from, below), None), run.stop)?,
    };
    let Asked {
        answer,
        proof,
        lemmas,
        kept,
    } = asked;
    if !matches!(answer, Answer::Timeout) {
        ladder.forget_kept(band, None);
    }
    let index = ladder.rungs.len();
    let answer = match answer {
        Answer::Unsat => RungAnswer::Unsat,
        Answer::Timeout => RungAnswer::Timeout,
        Answer::Sat(model) => {
            ladder.pattern = Some(rung_pattern(check, &e.bytes(&model), (from, below))?);
            RungAnswer::Sat
        }
    };
    ladder.rungs.push(Rung {
        largest_first: run.largest_first,
        threads: if split { run.threads } else { 0 },
        proof,
        lemmas,
        preset: run.preset_kept(),
        conflicts: run.conflicts_kept(),
        in_pieces: Some(false),
        ..Rung::asked(band, answer, started.elapsed().as_secs_f64())
    });
    if let Some(kept) = kept {
        ladder.keep_lemmas(band, index, (None, None), kept);
    }
    Ok(answer)
}

/// The band asked in pieces ([`Climb::pieces`]): one fresh CaDiCaL call per byte of `s[0]` (or
/// per half of one, with [`Climb::cut`]) not refuted yet, lowest first, `run.threads` at once,
/// each refuted one saved in the rung (`after_rung` sees the ladder when they start, and after
/// each). The rung continued is the
/// last try of the band that had no answer with pieces refuted, moved to the end of the ladder
/// (rungs are in the order tried); else a new one. Its answer: UNSAT once every piece is
/// refuted (with their proofs checked, the rung's proof too); a pattern once a piece has one
/// (on one thread the first such piece, so its largest value is the least of the band's); else
/// no answer, when a piece had none (no further piece starts; those running end as they would).
fn rung_in_pieces(
    run: &Climb,
    ladder: &mut Ladder,
    band: Band,
    units: &[i32],
    check: &crate::sat::cubes::WitnessCheck,
    after_rung: &mut dyn FnMut(&Ladder, Step) -> Result<(), String>,
) -> Result<RungAnswer, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let e = run.encoding;
    let values = band_values(e, band);
    if let Some(v) = (run.only_pieces.iter()).find(|v| !values.contains(v)) {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        return Err(format!(
            "s[0] = {v} is no piece of the open band {band} (its pieces: s[0] = {})",
            values.join(", ")
        ));
    }
    let index = rung_to_continue(run, ladder, band);
    let todo = pieces_to_ask(run, &ladder.rungs[index]);
    after_rung(ladder, Step::PiecesStart)?;
    // The larger parts of each piece whose calls kept lemma files (an earlier, coarser cut),
    // read before the calls start: the ladder is not the threads' to read.
    let larger: Vec<Vec<Half>> = (todo.iter())
        .map(|&(top, half)| larger_parts_kept(&ladder.kept_lemmas(band), e.expand(&[top])[0], half))
        .collect();
    let mut answer = RungAnswer::Unsat;
    // The most lemmas a piece stopped by this run was given: what the try's record says once
    // this run leaves it unanswered (not what an earlier run's calls were given, whose files
    // this one may not have found).
    let mut stopped_given = 0;
    let mut mark = Instant::now();
    let take = |&(top, half): &(u8, Option<Half>),
                outcome: PieceOutcome,
                seconds: Duration,
                halt: &AtomicBool| {
        // Wall-clock time, whatever the threads.
        let share = (run.run_name.as_str(), run.in_turn);
        ladder.rungs[index].add_seconds(share, mark.elapsed().as_secs_f64());
        mark = Instant::now();
        let Asked {
            answer: said,
            proof,
            lemmas,
            kept,
        } = outcome?;
        let top = e.expand(&[top])[0];
        // What an earlier call of this piece kept is spent by a refutation, or superseded by
        // what this one kept (`keep_lemmas`); a call that kept nothing (no `--lemmas`) leaves
        // the record.
        if said == Answer::Unsat {
            ladder.forget_kept(band, Some((Some(top), half)));
        }
        match said {
            Answer::Unsat => {
                let seconds = seconds.as_secs_f64();
                let piece = ProofPiece {
                    top,
                    seconds,
                    proof,
                    lemmas,
                    half,
                    ended: Some(super::ended_now()),
                };
                ladder.rungs[index].pieces.push(piece);
                // Files of calls it covers (its piece's, once parts cover the piece) go too.
                let gone = ladder.forget_kept_held(band, index);
                if let Some(dir) = run.lemma_stem.as_deref().and_then(Path::parent) {
                    gone.iter()
                        .for_each(|f| crate::sat::lemmas::remove_with_core(&dir.join(f)));
                }
                after_rung(ladder, Step::Piece)
            }
            Answer::Timeout => {
                // A pattern found beside it answers the band all the same.
                if answer == RungAnswer::Unsat {
                    answer = RungAnswer::Timeout;
                }
                stopped_given = stopped_given.max(lemmas);
                ladder.rungs[index].lemmas = stopped_given;
                if let Some(kept) = kept {
                    ladder.keep_lemmas(band, index, (Some(top), half), kept);
                }
                let stopped = StoppedPiece {
                    top,
                    half,
                    seconds,
                    given: lemmas,
                };
                after_rung(ladder, Step::PieceStopped(stopped))
            }
            Answer::Sat(model) => {
                halt.store(true, Relaxed);
                answer = RungAnswer::Sat;
                keep_pattern(ladder, check, &e.bytes(&model), band)
            }
        }
    };
    let larger_of = |piece: &(u8, Option<Half>)| {
        let at = todo.iter().position(|p| p == piece);
        at.map_or(&[][..], |i| &larger[i][..])
    };
    let ask = |piece: &(u8, Option<Half>), halt: &AtomicBool| {
        let &(top, half) = piece;
        if let Some(started) = run.on_piece_start {
            started(e.expand(&[top])[0], half);
        }
        ask_piece(run, band, units, (top, half, larger_of(piece)), halt)
    };
    crate::sat::side_by_side::ask_side_by_side(
        &todo,
        run.threads,
        run.stop,
        ask,
        |outcome: &PieceOutcome| match run.in_turn {
            true => model_or_failure(outcome),
            false => not_refuted(outcome),
        },
        take,
    )?;
    let answer = settle_pieces(run, ladder, index, answer);
    after_rung(ladder, Step::Rung)?;
    Ok(answer)
}

/// The pieces of the band of `rung` that a try asks ([`calls_to_ask`]).
fn pieces_to_ask(run: &Climb, rung: &Rung) -> Vec<(u8, Option<Half>)> {
    calls_to_ask(run.encoding, rung, run.cut.as_ref(), &run.only_pieces)
}

/// The calls a try in pieces of `rung`'s band makes, lowest first: each byte of `s[0]` (those
/// of `only_pieces` when it names some, [`Climb::only_pieces`]), or each part of it under
/// `cut` ([`Climb::cut`]), that the rung's refuted pieces do not hold yet. Public so that a
/// run's progress counts the calls it makes, not the band's (a run of one piece cut in 8
/// parts, on a band of 4 pieces, showed "0/32" and an ETA for all 32).
pub fn calls_to_ask(
    e: &PeriodEncoding,
    rung: &Rung,
    cut: Option<&Cut>,
    only_pieces: &[Value],
) -> Vec<(u8, Option<Half>)> {
    let tops = band_tops(e, rung.band());
    let values = band_values(e, rung.band());
    let halves: Vec<Option<Half>> = match cut {
        Some(cut) => cut.parts().into_iter().map(Some).collect(),
        None => vec![None],
    };
    let asked = |v: &Value| only_pieces.is_empty() || only_pieces.contains(v);
    (tops.iter().zip(&values))
        .filter(|(_, v)| asked(v))
        .flat_map(|(&c, &v)| halves.iter().map(move |&h| (c, v, h)))
        .filter(|&(_, v, h)| !rung.has_piece(v, h))
        .map(|(c, _, h)| (c, h))
        .collect()
}

/// The answer of the try in pieces at `index` once its calls ended with `answer` (UNSAT when
/// every call asked was refuted), written into its rung: UNSAT only when its pieces cover the
/// band (pieces left out of this run, [`Climb::only_pieces`], leave it open), its lemma records
/// forgotten once answered, and its proof closed when every piece has one.
fn settle_pieces(
    run: &Climb,
    ladder: &mut Ladder,
    index: usize,
    mut answer: RungAnswer,
) -> RungAnswer {
    let band = ladder.rungs[index].band();
    let values = band_values(run.encoding, band);
    let covered = |v: &Value| ladder.rungs[index].covers(*v);
    if answer == RungAnswer::Unsat && !values.iter().all(covered) {
        answer = RungAnswer::Timeout;
    }
    if answer != RungAnswer::Timeout {
        ladder.forget_kept(band, None);
    }
    let rung = &mut ladder.rungs[index];
    rung.answer = answer;
    if answer == RungAnswer::Unsat {
        // The band rests on its pieces, and each says what it was given.
        rung.lemmas = 0;
    }
    if let (RungAnswer::Unsat, Some(stem)) = (answer, &run.proof_stem) {
        rung.close_pieces(run.encoding, stem);
    }
    answer
}

/// The index of the rung [`rung_in_pieces`] goes on with: the last try of `band` that had no
/// answer with pieces refuted, moved to the end of the ladder, or a new rung there.
fn rung_to_continue(run: &Climb, ladder: &mut Ladder, band: Band) -> usize {
    // A try with no piece refuted (a whole rung's, or a first piece's) has nothing to go on
    // from, and stays as it was: the ladder keeps how long it ran.
    let unfinished = |r: &Rung| {
        (r.from, r.below, r.answer, r.largest_first)
            == (band.from, band.below, RungAnswer::Timeout, true)
            && !r.pieces.is_empty()
    };
    let rung = match ladder.rungs.iter().rposition(unfinished) {
        Some(i) => ladder.rungs.remove(i),
        None => Rung {
            preset: run.preset_kept(),
            ..Rung::asked(band, RungAnswer::Timeout, 0.0)
        },
    };
    ladder.rungs.push(Rung {
        threads: if run.threads > 1 {
            run.threads
        } else {
            rung.threads
        },
        cut: run.cut.clone(),
        conflicts: run.conflicts,
        in_pieces: Some(true),
        ..rung
    });
    ladder.rungs.len() - 1
}

/// The parts of the piece at `top` larger than `half` ([`Half::holds`]) whose calls kept the
/// lemma files `kept` ([`Ladder::kept_lemmas`]): a piece cut finer after weeks in halves.
fn larger_parts_kept(kept: &[&KeptLemmas], top: Value, half: Option<Half>) -> Vec<Half> {
    let Some(half) = half else {
        return Vec::new();
    };
    let mut larger: Vec<Half> = (kept.iter())
        .filter(|k| k.top == Some(top))
        .filter_map(|k| k.half)
        .filter(|h| *h != half && h.holds(&half))
        .collect();
    larger.sort_unstable();
    larger.dedup();
    larger
}

/// One piece of `band`: the rung's `units` and `s[0]` at byte `top` (and the units of `half`),
/// in a fresh CaDiCaL that ends when `stop` rises. A half (or part) starts from the lemma files
/// of its whole piece too, and from those of the `larger` parts of it that hold it.
fn ask_piece(
    run: &Climb,
    band: Band,
    units: &[i32],
    (top, half, larger): (u8, Option<Half>, &[Half]),
    stop: &AtomicBool,
) -> PieceOutcome {
    let e = run.encoding;
    let piece_units: Vec<i32> = units.iter().copied().chain([e.x(0, top.into())]).collect();
    let units_of = |part: Option<Half>| -> Result<Vec<i32>, String> {
        let part_units = part.map(|h| h.units(e)).transpose()?.into_iter().flatten();
        Ok(piece_units.iter().copied().chain(part_units).collect())
    };
    let band = (band.from, band.below);
    let top = e.expand(&[top])[0];
    // The stores read besides the call's own: the whole piece's, then the larger parts'.
    let mut outer: Vec<(Vec<i32>, RungOrPiece)> = Vec::new();
    if half.is_some() {
        outer.push((piece_units.clone(), (band, Some((top, None)))));
        for &part in larger {
            outer.push((units_of(Some(part))?, (band, Some((top, Some(part))))));
        }
    }
    fresh_rung(
        run,
        (&units_of(half)?, &outer),
        (band, Some((top, half))),
        stop,
    )
}

/// A model of a piece of `band`, witness-checked and inside the band, kept as the ladder's
/// pattern unless it has one with a smaller largest value.
fn keep_pattern(
    ladder: &mut Ladder,
    check: &crate::sat::cubes::WitnessCheck,
    bytes: &[u8],
    band: Band,
) -> Result<(), String> {
    let pattern = rung_pattern(check, bytes, (band.from, band.below))?;
    let largest = pattern.iter().copied().max();
    if ladder
        .largest_in_pattern()
        .is_none_or(|m| Some(m) > largest)
    {
        ladder.pattern = Some(pattern);
    }
    Ok(())
}

impl Climb<'_> {
    /// The preset a rung records: CaDiCaL's default when it writes a proof from its CNF alone
    /// (a proof carried with lemmas keeps the climb's preset).
    fn preset_kept(&self) -> Preset {
        match (&self.proof_stem, &self.lemma_stem) {
            (Some(_), None) => Preset::Default,
            _ => self.preset,
        }
    }

    /// The conflicts a call of a whole rung could take: none in the incremental solver, which
    /// is not limited.
    fn conflicts_kept(&self) -> Option<u32> {
        self.conflicts.filter(|_| !self.incremental)
    }
}

/// The pattern of a rung's model (its bytes), witness-checked and inside the rung: every value
/// below `below`, and one at least `from` (a pattern with all below is one the ladder refutes).
fn rung_pattern(
    check: &crate::sat::cubes::WitnessCheck,
    bytes: &[u8],
    (from, below): (Value, Value),
) -> Result<Vec<Value>, String> {
    let pattern =
        check(bytes).map_err(|reason| format!("the model of rung {below} fails: {reason}"))?;
    if pattern.iter().any(|&v| v >= below) {
        return Err(format!("the model of rung {below} has a value beyond it"));
    }
    if pattern.iter().all(|&v| v < from) {
        return Err(format!(
            "the model of rung {below} has every value below {from}, which the ladder refutes"
        ));
    }
    Ok(pattern)
}

/// One rung (or piece) in a fresh CaDiCaL: the encoding with its units, and a certificate of
/// an UNSAT answer at `stem` when the climb asks for one. `outer`: for a half (or part) of a
/// piece, the units of the piece and of the larger parts that hold it, each with its call,
/// whose lemma files (learned on a CNF that this call's implies) it is given too.
fn fresh_rung(
    run: &Climb,
    (units, outer): (&[i32], &[(Vec<i32>, RungOrPiece)]),
    which: RungOrPiece,
    stop: &AtomicBool,
) -> PieceOutcome {
    let cnf = with_units(run.encoding, units);
    let proof_stem = run
        .proof_stem
        .as_ref()
        .map(|stem| rung_stem_of(stem, which));
    let Some(lemma_stem) = &run.lemma_stem else {
        let Some(stem) = proof_stem else {
            return Ok(Asked::plain(cadical(run, &cnf, run.timeout, stop, None)?));
        };
        let checker = crate::sat::solve::drat_checker_from_env();
        let proof = ((run.proof_format, checker.as_deref()), run.keep_proofs);
        return asked_with_proof(&cnf, run.timeout, &stem, proof, stop);
    };
    let store = (outer.iter()).fold(
        lemma_store(lemma_stem, (&cnf, which)),
        |store, (units, of)| {
            let cnf = with_units(run.encoding, units);
            store.within(lemma_store(lemma_stem, (&cnf, *of)))
        },
    );
    let every = run.lemma_every;
    // With a proof: certified lemmas (`solve_carried_with_lrat`), its proof and derivation
    // kept here for the record below.
    let mut proved = None;
    let ask = |carry: &_| match &proof_stem {
        None => cadical(run, &cnf, run.timeout, stop, Some(carry)),
        Some(stem) => {
            let cadical = cadical_run(run, stop, Some(carry));
            let carried = solve_carried_with_lrat(&cnf, run.timeout, &cadical, stem)?;
            proved = Some((carried.proof, carried.derivation));
            Ok(carried.answer)
        }
    };
    let started = Instant::now();
    let (answer, carried) = crate::sat::lemmas::carrying(&store, run.seed.into(), every, ask)
        .map_err(|e| e.to_string())?;
    let answer = answer?;
    let answered = !matches!(answer, Answer::Timeout);
    let kept = !answered && carried.kept > 0;
    // An answered call is never asked again (the ladder keeps its answer), so its file would
    // only take disk: up to 2^20 clauses, about 30 MB, per piece. A file of no clauses (a call
    // stopped before it learned one) goes too: the ladder names no such file, and one left
    // behind would read as a kept file the ladder forgot.
    if !kept {
        crate::sat::lemmas::remove_with_core(&carried.file);
    }
    let (proof, derivation) = proved.unwrap_or_default();
    say_if_underived(derivation.as_ref(), &carried.file);
    Ok(Asked {
        answer,
        proof: proof.map(|note| settle_checked_files(note, run.keep_proofs)),
        lemmas: carried.given,
        kept: kept.then(|| KeptLemmas {
            top: None,
            half: None,
            clauses: carried.kept,
            by_length: carried.by_length,
            // The ladder puts the earlier tries' units in front (`Ladder::keep_lemmas`).
            units_before: carried.units_at_start.into_iter().collect(),
            // And their seconds in front of this one's.
            seconds: vec![started.elapsed().as_secs_f64()],
            file: crate::io::file_name(&carried.file),
            certified: carried.certified,
        }),
    })
}

/// Says so when a stopped call's proof left clauses it learned underived (its file then stays
/// uncertified, and every proof given it after proves nothing): a solver exporting a clause
/// its proof does not hold, which no run has shown so far, is worth a line.
fn say_if_underived(derivation: Option<&crate::sat::lrat::Derivation>, file: &Path) {
    if let Some(missing) = derivation.map(|d| d.missing.len()).filter(|&m| m > 0) {
        eprintln!(
            "grundy: note: {} keeps its lemmas uncertified: {missing} of the clauses it learned \
             are not among its proof's checked additions",
            crate::io::file_name(file)
        );
    }
}

/// The lemma files of the call `which` on `cnf`, named from the climb's `stem`.
fn lemma_store(stem: &Path, (cnf, which): (&crate::sat::Cnf, RungOrPiece)) -> LemmaStore {
    let stem = rung_stem_of(stem, which);
    let dir = stem.parent().unwrap_or(Path::new("."));
    LemmaStore::new(dir, &crate::io::file_name(&stem), cnf)
}

/// A fresh CaDiCaL on `cnf` with the climb's seed and preset, ending when `stop` rises, given
/// and keeping lemmas through `carry`.
fn cadical(
    run: &Climb,
    cnf: &crate::sat::Cnf,
    timeout: Option<Duration>,
    stop: &AtomicBool,
    carry: Option<&crate::sat::lemmas::Carry>,
) -> Result<Answer, String> {
    let cadical = cadical_run(run, stop, carry);
    solve_cadical_with(cnf, timeout, &cadical).map_err(|e| format!("CaDiCaL failed: {e}"))
}

/// How the climb runs CaDiCaL: its seed, preset and conflicts, stopped by `stop`.
fn cadical_run<'a>(
    run: &Climb,
    stop: &'a AtomicBool,
    carry: Option<&'a crate::sat::lemmas::Carry>,
) -> CadicalRun<'a> {
    CadicalRun {
        seed: run.seed,
        preset: run.preset,
        stop: Some(stop),
        carry,
        conflicts: run.conflicts,
        ..CadicalRun::default()
    }
}

/// A band split by the byte of `s[0]` (with a largest value first, the largest value itself):
/// one fresh CaDiCaL per byte, `run.threads` at a time within the rung's timeout. UNSAT when
/// every cube is; a model stops the others. Why cubes on `s[0]`: fixing the largest value fixes
/// every option it makes, and the bytes of a band are few and of like cost (Officers p = 27, band
/// 208..216: four cubes of 16-30 s, 90 s in all, against 88 s for the band in one call), so
/// threads divide the wall-clock time of a rung.
fn split_rung(run: &Climb, units: &[i32], (from, below): (Value, Value)) -> Result<Answer, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let e = run.encoding;
    let tops = band_tops(e, Band { from, below });
    let deadline = run.timeout.map(|t| Instant::now() + t);
    let cube = |&top: &u8, halt: &AtomicBool| {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left == Some(Duration::ZERO) {
            return Ok(Answer::Timeout);
        }
        let cube_units: Vec<i32> = units.iter().copied().chain([e.x(0, top.into())]).collect();
        cadical(run, &with_units(e, &cube_units), left, halt, None)
    };
    // A cube with no answer leaves the others their share of the rung's time; a model or a
    // failure ends the rung.
    let ends_rung = |a: &Result<Answer, String>| !matches!(a, Ok(Answer::Unsat | Answer::Timeout));
    let (mut refuted, mut model) = (0, None);
    let take = |_: &u8, answer: Result<Answer, String>, _: Duration, halt: &AtomicBool| {
        match answer? {
            Answer::Unsat => refuted += 1,
            Answer::Timeout => {}
            Answer::Sat(m) => {
                halt.store(true, Relaxed);
                model.get_or_insert(m);
            }
        }
        Ok(())
    };
    crate::sat::side_by_side::ask_side_by_side(
        &tops,
        run.threads,
        run.stop,
        cube,
        ends_rung,
        take,
    )?;
    Ok(match (model, refuted == tops.len()) {
        (Some(model), _) => Answer::Sat(model),
        (None, true) => Answer::Unsat,
        (None, false) => Answer::Timeout,
    })
}

/// The rungs in one incremental CaDiCaL: a rung is a call under its units as assumptions, and
/// a refuted rung adds the clause "some residue lies above the bound" (implied by the encoding,
/// as everything learned under assumptions is), so later rungs start from all earlier work.
struct Incremental<'a> {
    solver: rustsat_cadical::CaDiCaL<'a, 'static>,
    /// The end of the running rung, read by the terminator.
    deadline: std::rc::Rc<std::cell::Cell<Option<Instant>>>,
    cnf: &'a crate::sat::Cnf,
}

impl<'a> Incremental<'a> {
    fn new(run: &Climb<'a>) -> anyhow::Result<Incremental<'a>> {
        use rustsat::solvers::{ControlSignal, Terminate};
        use std::sync::atomic::Ordering;
        let mut solver = crate::sat::solve::fresh_cadical(run.preset, run.seed)?;
        let stop = run.stop;
        crate::sat::solve::load_cadical(&mut solver, &run.encoding.cnf, &|| {
            stop.load(Ordering::Relaxed)
        })?;
        let deadline = std::rc::Rc::new(std::cell::Cell::new(None::<Instant>));
        let seen = std::rc::Rc::clone(&deadline);
        solver.attach_terminator(move || {
            let late = seen.get().is_some_and(|d| Instant::now() >= d);
            if late || stop.load(Ordering::Relaxed) {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        Ok(Incremental {
            solver,
            deadline,
            cnf: &run.encoding.cnf,
        })
    }

    fn rung(&mut self, units: &[i32], timeout: Option<Duration>) -> Result<Answer, String> {
        use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
        use rustsat::types::Clause;
        let fail = |e: anyhow::Error| format!("CaDiCaL failed: {e}");
        self.deadline.set(timeout.map(|t| Instant::now() + t));
        let lits = crate::sat::solve::ipasir_lits(units).map_err(fail)?;
        match self.solver.solve_assumps(&lits).map_err(fail)? {
            SolverResult::Sat => {
                let model =
                    crate::sat::solve::cadical_model(&self.solver, self.cnf).map_err(fail)?;
                Ok(Answer::Sat(model))
            }
            SolverResult::Unsat => {
                let some_above: Clause = lits.iter().map(|&l| !l).collect();
                self.solver.add_clause(some_above).map_err(fail)?;
                Ok(Answer::Unsat)
            }
            SolverResult::Interrupted => Ok(Answer::Timeout),
        }
    }
}
