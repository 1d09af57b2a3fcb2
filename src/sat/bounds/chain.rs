//! Proving the rungs a ladder's bound rests on: each asked again in a fresh CaDiCaL writing
//! a proof, DRAT checked by an independent checker or LRAT checked by [`crate::sat::lrat`].

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::costs::{PartCosts, values_held};
use super::{
    Asked, Band, Cut, Half, Ladder, PieceOutcome, ProofPiece, Rung, asked_with_proof, band_tops,
    band_units, band_values, not_refuted, rung_stem, rung_stem_of, with_units,
};
use crate::sat::encode::PeriodEncoding;
use crate::sat::solve::{Answer, ProofFormat, ProofNote};
use crate::values::Value;

/// How [`prove_chain`] runs.
pub struct ProveChain<'a> {
    /// The encoding of rungs with a largest value first (bands), and the question's own (whole
    /// rungs of earlier builds, with a smallest value first or every rotation).
    pub largest_first: &'a PeriodEncoding,
    pub question: &'a PeriodEncoding,
    /// Seconds a call may take (a rung, or a piece of one).
    pub timeout: Option<Duration>,
    /// Where each rung's CNF and proof go (`<stem>-below<V>` or `<stem>-from<F>-below<V>`,
    /// and `-s0-<value>` after it for a piece).
    pub proof_stem: &'a Path,
    /// The format CaDiCaL writes each proof in, and the DRAT checker's command
    /// ([`crate::sat::solve::check_drat_proof`]; an LRAT proof is checked by
    /// [`crate::sat::lrat`] and needs none). Why LRAT: it names each step's antecedents, so
    /// its check does no search; on two calls of this chain (2026-12-01) CaDiCaL took about as
    /// long to write it, and its check took 1.4 and 2.0 s where rate took 39.7 and 54.0 s.
    pub proof: (ProofFormat, Option<&'a str>),
    /// Keep each proof's files once checked (`--keep-proofs`), else remove them (proofs of
    /// hard rungs run to gigabytes); each note says which ("lrat, kept").
    pub keep_proofs: bool,
    /// Calls made at once, each its own CaDiCaL and checker (1: one after another). The rungs
    /// of a chain, and the pieces of a rung, are independent questions, so a machine with cores
    /// (and disk for their proofs) to spare proves them side by side.
    pub jobs: usize,
    /// Bands are proved in pieces, one call per byte of their largest value ([`ProofPiece`]),
    /// each saved as it is checked; pieces proved by an earlier run are not asked again.
    pub pieces: bool,
    /// With `pieces`: each piece proved as the two halves of this cut ([`Half`]), or its parts
    /// ([`Cut::parts`]), each saved as it is checked. Why: a lent machine gives calls of
    /// minutes on many cores, and a piece of a hard band is one call of an hour; halves are
    /// twice the calls, each about half as long. A piece proved whole, or in every part of
    /// another cut, is not asked again, nor a part proved already.
    pub cut: Option<Cut>,
    /// Only the rungs of the chain up to this bound (`--to`; [`super::WHOLE_QUESTION`]: all).
    /// Why: a lent machine's call of minutes proves the foot of a chain, whose bands are
    /// shortest, where the rule of longest first would spend it on the top bands, hours each.
    pub up_to: Value,
    /// Stop (the calls running keep no proof) when this rises.
    pub stop: &'a AtomicBool,
    /// Told of each call as it starts (`true`) and as it ends, whatever its answer (`false`),
    /// from the thread that makes it. Why: a call runs for an hour, and a display can then
    /// name the calls at work ("asking ... since 01:40 UTC").
    pub on_call: Option<&'a CallWatcher<'a>>,
}

/// What [`ProveChain::on_call`] calls: a call, and whether it is starting (`true`) or ended.
pub type CallWatcher<'a> = dyn Fn(&ChainCall, bool) + Sync + 'a;

/// A call of [`prove_chain`] that had no answer in the time it was given ([`Rung::unanswered`]).
///
/// Why the ladder keeps it: CaDiCaL, in the configuration the chain gives it, searches the same
/// way every time it is given the same CNF, so a call asked again with no more time stops about
/// where it stopped before, having proved nothing. On p = 39's chain (2-core VMs of 3 hours,
/// 2026-12-06) two parts of 213 had no answer in 5400 s each, and every run would have given
/// each a core for 1.5 h again. So the chain passes over a call that had no answer in at least
/// its `--timeout` ([`passed_over`]), expects one given more time to take at least what it had
/// ([`ChainCall::estimated_seconds`]), and the record says which calls resisted, for how long
/// and when, with no note written by hand. (On a faster machine the same time goes further: a
/// longer `--timeout` asks them there.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnansweredCall {
    /// The piece's largest value `s[0]` (a true value); none for a whole rung.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<Value>,
    /// The part of the piece the call asked, under a cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<Half>,
    /// The seconds it was given (`--timeout`).
    pub timeout: f64,
    /// When it ended, in UTC to the second ([`super::ended_now`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<chrono::DateTime<chrono::Utc>>,
}

/// What [`prove_chain`] calls after each call that ended by itself: the ladder (the call's
/// record in it), the call, the seconds it took, and how it ended.
pub type AfterChainCall<'a> =
    dyn FnMut(&Ladder, &ChainCall, Duration, ChainCallEnd) -> Result<(), String> + 'a;

/// How a call of [`prove_chain`] ended, for its `after_call`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainCallEnd {
    /// Refuted, its proof checked and recorded.
    Proved,
    /// No answer in the time given, recorded in [`Rung::unanswered`].
    NoAnswer,
}

/// One solver call of [`prove_chain`]: the rung (its index in the ladder) and the band it asks,
/// and for a piece the byte of `s[0]` it fixes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainCall {
    pub index: usize,
    pub band: Band,
    pub largest_first: bool,
    pub top: Option<u8>,
    /// For a piece proved in halves ([`ProveChain::cut`]): which half.
    pub half: Option<Half>,
    /// Its share of the climb (at least a second), from what the ladder says its question took
    /// when first answered: the piece's own seconds when the climb refuted the band in pieces
    /// (at least its share of the rung's if it was given lemmas), else its share of the rung's
    /// (one over the band's bytes for a piece); for a part of a cut, the piece's share that the
    /// ladder's pieces proved in parts spent on parts like it ([`super::costs`]; equal shares
    /// where none is learned). A guess (a proof costs more than the answer), but one that grows
    /// with the real cost.
    pub climb_seconds: f64,
    /// How long the call should take: `climb_seconds`, but at least the longest time it was
    /// given before with no answer ([`UnansweredCall`]). It orders the calls and weighs them in
    /// a progress display.
    pub estimated_seconds: f64,
    /// The longest time it was given before with no answer ([`Rung::unanswered`]; 0: none).
    pub had_before: f64,
    /// The narrowest part of its piece around it (not itself) that had no answer before, if any
    /// ([`AroundUnanswered`]).
    pub around: Option<AroundUnanswered>,
}

/// A call of [`Rung::unanswered`] that held a call of the chain, with more values than it: the
/// whole piece, or a part of an earlier, coarser cut.
///
/// Why it is told, and only told: a cut made finer to ask a resisting part as smaller ones
/// lists the small parts with their shares of the climb (p = 39's 213: 2 min each for the
/// quarters of 176..192, whose halves had no answer in 5400 s each), and a reader of `--plan`
/// should see which calls lie within a part that resisted. It does not raise the call's
/// estimate: a build that expected each quarter to take its learned share of its half's 5400 s
/// (45 min) was wrong on all four (2026-12-07: 213's 176..180, 180..184, 184..188 and
/// 188..192 were proved in 316.2, 192.7, 307.1 and 82.1 s; CaDiCaL's search on a part is no
/// share of its search on the whole, which can lose its way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AroundUnanswered {
    /// The part around the call (`None`: the whole piece).
    pub half: Option<Half>,
    /// The seconds it was given with no answer.
    pub timeout: f64,
}

/// The calls [`prove_chain`] makes: one for each rung of the chain with no checked proof (less
/// bands answered by cube campaigns, which `sat cubes --certify` proves), or with `run.pieces`
/// one for each byte of a band's largest value with no checked piece yet.
///
/// In what order: with one job, lowest rung first (the chain is proved from its foot up, each
/// proof saved as it ends). With more, longest first ([`ChainCall::estimated_seconds`]). Why:
/// the rungs grow harder as the chain climbs, so lowest first starts the longest calls last, and
/// a machine of 16 cores ends up waiting on one of them with the others idle (as it went on a
/// lent machine: the whole rung below 200 held one job through the run). Longest first is the
/// usual rule for sharing jobs of known length among workers.
///
/// A call that had no answer before in at least the run's timeout is not among them
/// ([`passed_over`]).
pub fn chain_calls(run: &ProveChain, ladder: &Ladder) -> Vec<ChainCall> {
    let (mut calls, _) = calls_lowest_first(run, ladder);
    if run.jobs > 1 {
        calls.sort_by(|a, b| b.estimated_seconds.total_cmp(&a.estimated_seconds));
    }
    calls
}

/// The calls [`chain_calls`] leaves out: each had no answer in at least the run's timeout
/// before ([`ChainCall::had_before`]), lowest rung first. With no timeout, none.
pub fn passed_over(run: &ProveChain, ladder: &Ladder) -> Vec<ChainCall> {
    calls_lowest_first(run, ladder).1
}

/// The longest time a call of `rung` asking the piece `top` (`half` of it) was given with no
/// answer ([`Rung::unanswered`]); 0 if none.
fn had_before(rung: &Rung, top: Option<Value>, half: Option<Half>) -> f64 {
    (rung.unanswered.iter())
        .filter(|u| (u.top, u.half) == (top, half))
        .map(|u| u.timeout)
        .fold(0.0, f64::max)
}

/// [`chain_calls`] in the order of the ladder's chain, lowest rung first, and those it passes
/// over ([`passed_over`]).
fn calls_lowest_first(run: &ProveChain, ladder: &Ladder) -> (Vec<ChainCall>, Vec<ChainCall>) {
    let e = run.largest_first;
    let calls = all_calls_lowest_first(run, ladder).into_iter().map(|call| {
        let rung = &ladder.rungs[call.index];
        let had_before = had_before(rung, call.top_value(e), call.half);
        ChainCall {
            estimated_seconds: call.climb_seconds.max(had_before),
            had_before,
            around: around_unanswered(rung, (call.top_value(e), call.half)),
            ..call
        }
    });
    let timeout = run.timeout.map(|t| t.as_secs_f64());
    calls.partition(|call| timeout.is_none_or(|timeout| call.had_before < timeout))
}

/// Of `rung`'s calls with no answer, the narrowest around the part `half` of the piece `top`
/// (not the part itself; the whole piece is the widest), the longest given of equals, if any
/// ([`AroundUnanswered`]).
fn around_unanswered(
    rung: &Rung,
    (top, half): (Option<Value>, Option<Half>),
) -> Option<AroundUnanswered> {
    let (top, half) = (top?, half?);
    let holds = |u: &&UnansweredCall| match u.half {
        None => true,
        Some(around) => around != half && around.holds(&half),
    };
    // Values of the piece held ([`values_held`]), the whole piece widest.
    let width = |u: &UnansweredCall| match u.half {
        Some(around) => {
            let (from, below) = values_held(top, &around);
            below - from
        }
        None => usize::MAX,
    };
    (rung.unanswered.iter())
        .filter(|u| u.top == Some(top))
        .filter(holds)
        .min_by(|a, b| (width(a).cmp(&width(b))).then(b.timeout.total_cmp(&a.timeout)))
        .map(|u| AroundUnanswered {
            half: u.half,
            timeout: u.timeout,
        })
}

/// Every call the chain has left, lowest rung first, with its share of the climb; its
/// `estimated_seconds` is set by [`calls_lowest_first`].
fn all_calls_lowest_first(run: &ProveChain, ladder: &Ladder) -> Vec<ChainCall> {
    let mut calls = Vec::new();
    let costs = (run.cut.as_ref()).and_then(|cut| PartCosts::learned(ladder, cut.residue));
    for index in rungs_to_prove(run, ladder) {
        let rung = &ladder.rungs[index];
        let band = rung.band();
        let whole = ChainCall {
            index,
            band,
            largest_first: rung.largest_first,
            top: None,
            half: None,
            climb_seconds: rung.seconds.max(1.0),
            estimated_seconds: 0.0,
            had_before: 0.0,
            around: None,
        };
        if !(run.pieces && rung.largest_first) {
            calls.push(whole);
            continue;
        }
        let e = run.largest_first;
        for (c, climb_seconds) in pieces_left(e, rung) {
            let piece = ChainCall {
                top: Some(c),
                climb_seconds,
                ..whole
            };
            let Some(cut) = &run.cut else {
                calls.push(piece);
                continue;
            };
            let top = e.expand(&[c])[0];
            let parts = cut.parts();
            let equal = 1.0 / parts.len() as f64;
            let share = |h: &Half| (costs.as_ref()).and_then(|c| c.share(top, h));
            calls.extend(
                (parts.into_iter())
                    .filter(|&h| !rung.has_checked_half(top, h))
                    .map(|h| ChainCall {
                        half: Some(h),
                        climb_seconds: (piece.climb_seconds * share(&h).unwrap_or(equal)).max(1.0),
                        ..piece
                    }),
            );
        }
    }
    calls
}

/// The rungs of the chain the run proves ([`Ladder::chain_indices_to_prove`]) up to its bound.
fn rungs_to_prove(run: &ProveChain, ladder: &Ladder) -> Vec<usize> {
    let in_reach = |&i: &usize| ladder.rungs[i].below <= run.up_to;
    (ladder.chain_indices_to_prove().into_iter())
        .filter(in_reach)
        .collect()
}

/// The pieces of `rung` (a band, `e` its encoding) with no checked proof: each byte of its
/// largest value, with what the climb says it should take ([`piece_estimate`]).
fn pieces_left(e: &PeriodEncoding, rung: &Rung) -> Vec<(u8, f64)> {
    let tops = band_tops(e, rung.band());
    (tops.iter())
        .map(|&c| (c, e.expand(&[c])[0]))
        .filter(|&(_, top)| !rung.has_checked_piece(top))
        .map(|(c, top)| (c, piece_estimate(rung, tops.len(), top)))
        .collect()
}

/// What the climb says the piece `top` of `rung` (one of `tops` pieces) should take, at least
/// a second: its own seconds where the climb refuted the band in pieces, else its share of the
/// rung's.
fn piece_estimate(rung: &Rung, tops: usize, top: Value) -> f64 {
    let share = rung.seconds / tops.max(1) as f64;
    // A piece refuted given lemmas took a fraction of what its tries cost (p = 37's 207 of
    // 200..208: 104.9 s, given 2^20 clauses, where its parts took 976-1881 s to prove), so it
    // counts as at least its share of the band.
    let own = (rung.pieces.iter()).find(|p| p.half.is_none() && p.top == top);
    let seconds = match own {
        Some(p) if p.lemmas > 0 => p.seconds.max(share),
        Some(p) => p.seconds,
        None => share,
    };
    seconds.max(1.0)
}

/// How the checked parts, in the run's proof format, of the pieces a chain still asks in parts
/// went against what [`chain_calls`] would have expected of them (the piece's estimate times the
/// part's learned share, [`super::costs`]): how many parts, and their seconds over those
/// expected. `None` without a cut, or where no such part is proved.
///
/// Why: a chain's first line said how long its proofs should take at the pace of the bands
/// below proved in pieces ([`Ladder::proof_pace`]), and on p = 39 (2026-12-06) that pace was
/// 1.3 (81 min for 25 calls) where the 30 parts already proved of the same pieces had taken 2.0
/// times their shares; the 24 parts proved next took 3.5 core-hours. The parts already proved
/// of the same pieces are the nearest evidence there is. It leans low: the parts left are often
/// those that resisted.
pub fn parts_pace(run: &ProveChain, ladder: &Ladder) -> Option<(usize, f64)> {
    let cut = run.cut.as_ref()?;
    let costs = PartCosts::learned(ladder, cut.residue);
    let format = run.proof.0.name();
    let in_format = |p: &&ProofPiece| {
        p.proof.as_ref().map(|n| n.written_in()) == Some(format) && p.is_checked()
    };
    let (mut parts, mut spent, mut expected) = (0, 0.0, 0.0);
    for index in rungs_to_prove(run, ladder) {
        let rung = &ladder.rungs[index];
        if !(run.pieces && rung.largest_first) {
            continue;
        }
        let e = run.largest_first;
        for (c, estimate) in pieces_left(e, rung) {
            let top = e.expand(&[c])[0];
            let of_top = (rung.pieces.iter())
                .filter(|p| p.top == top)
                .filter(in_format);
            for (part, half) in of_top.filter_map(|p| p.half.map(|h| (p, h))) {
                let Some(share) = costs.as_ref().and_then(|c| c.share(top, &half)) else {
                    continue;
                };
                parts += 1;
                spent += part.seconds;
                expected += (estimate * share).max(1.0);
            }
        }
    }
    (parts > 0 && expected > 0.0).then(|| (parts, spent / expected))
}

impl Rung {
    /// The calls of [`Rung::unanswered`] still without a proof, each once with the longest time
    /// it was given, in the order they first had no answer. Why: the ladder's table says of a
    /// band in proof which calls resist, not those proved since.
    pub fn unanswered_unproved(&self) -> Vec<UnansweredCall> {
        let proved = |u: &UnansweredCall| match (u.top, u.half) {
            _ if self.has_checked_proof() => true,
            (Some(top), Some(half)) => self.has_checked_half(top, half),
            (Some(top), None) => self.has_checked_piece(top),
            (None, _) => false,
        };
        let mut open: Vec<UnansweredCall> = Vec::new();
        for u in self.unanswered.iter().filter(|u| !proved(u)) {
            match (open.iter_mut()).find(|o| (o.top, o.half) == (u.top, u.half)) {
                Some(o) if o.timeout < u.timeout => *o = u.clone(),
                Some(_) => {}
                None => open.push(u.clone()),
            }
        }
        open
    }

    /// Whether a piece with its largest value at `top` has a checked proof (whole, or of every
    /// part of a cut).
    pub(super) fn has_checked_piece(&self, top: Value) -> bool {
        self.covers_with(top, ProofPiece::is_checked)
    }

    /// Whether every value of the `half` of the piece at `top` has a checked proof: of the half
    /// itself, or of parts (of this cut or others) whose spans join over it.
    fn has_checked_half(&self, top: Value, half: Half) -> bool {
        self.covers_part_with(top, half, ProofPiece::is_checked)
    }

    /// Gives a band whose checked pieces cover every byte of `s[0]` in it its proof: a note
    /// naming the pieces and their checkers. Returns whether it did.
    pub(super) fn close_pieces(&mut self, e: &PeriodEncoding, stem: &Path) -> bool {
        let values = band_values(e, self.band());
        if self.has_checked_proof() || !values.iter().all(|&v| self.has_checked_piece(v)) {
            return false;
        }
        let mut checkers: Vec<&str> = (self.pieces.iter())
            .filter_map(|piece| piece.proof.as_ref()?.checked_by.as_deref())
            .collect();
        checkers.sort_unstable();
        checkers.dedup();
        // The formats the pieces' proofs were written in ("drat", "lrat"; "drat and lrat" for
        // a band proved partly by each).
        let mut formats: Vec<&str> = (self.pieces.iter())
            .filter_map(|piece| Some(piece.proof.as_ref()?.written_in()))
            .collect();
        formats.sort_unstable();
        formats.dedup();
        let fate = super::call::pieces_files_fate(
            (self.pieces.iter()).filter_map(|piece| Some(piece.proof.as_ref()?.format.as_str())),
        );
        let name = crate::io::file_name(&rung_stem(stem, self.from, self.below));
        self.proof = Some(ProofNote {
            cnf: format!("{name}-s0-*.cnf"),
            proof: format!("{name}-s0-*.{}", formats.join("|")),
            format: match self.pieces.iter().any(|p| p.half.is_some()) {
                false => format!(
                    "{} in {} pieces, one per value of s[0] (the largest), {fate}",
                    formats.join(" and "),
                    values.len()
                ),
                true => format!(
                    "{} in pieces, one per value of s[0] (the largest) or {} of one, \
                     covering its {} values, {fate}",
                    formats.join(" and "),
                    match self.pieces.iter().any(ProofPiece::is_between_cuts) {
                        false => "two halves",
                        true => "the parts of a cut",
                    },
                    values.len()
                ),
            },
            checked_by: Some(checkers.join(" and ")),
        });
        true
    }
}

/// Gives every UNSAT rung the ladder's bound rests on ([`Ladder::chain`]) that has no checked
/// proof a proof: the rung (or each of its pieces, [`ProveChain::pieces`]) asked again in a
/// fresh CaDiCaL on its own CNF, the proof checked as [`ProveChain::proof`] says (DRAT by the
/// command in `GRUNDY_DRAT_CHECKER`, LRAT by [`crate::sat::lrat`];
/// [`crate::sat::solve::solve_with_proof_checked_by`]). Makes `calls` (those of [`chain_calls`] for this
/// ladder), `run.jobs` at once; `after_call` sees the ladder after each (to save it, and say so)
/// with the seconds the call took and how it ended. A call with no answer in `timeout` keeps no
/// proof, and the rung records it ([`Rung::unanswered`]). With one
/// job no further call starts after it (the calls left are higher, so harder); with more, the
/// calls go longest first ([`chain_calls`]), so those left are shorter and go on, and their
/// proofs count when the run is asked again.
///
/// # Errors
/// A line if a rung that the ladder says is UNSAT has a model now (the ladder is wrong: the
/// calls still running are stopped), or the solver, the checker or `after_call` fails.
pub fn prove_chain(
    run: &ProveChain,
    ladder: &mut Ladder,
    calls: &[ChainCall],
    after_call: &mut AfterChainCall,
) -> Result<ChainProofs, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let cube_bands = (ladder.chain().into_iter())
        .filter(|r| r.cubes.is_some() && !r.has_checked_proof())
        .count();
    let mut done = ChainProofs {
        cube_bands,
        ..ChainProofs::default()
    };
    let mut taken = 0;
    let take = |call: &ChainCall, answer: PieceOutcome, seconds: Duration, halt: &AtomicBool| {
        taken += 1;
        let Asked { answer, proof, .. } = answer?;
        match answer {
            Answer::Unsat => {
                let closed = record_proof(run, ladder, call, (proof, seconds))?;
                done.count(call, closed);
                after_call(ladder, call, seconds, ChainCallEnd::Proved)
            }
            // Ended by the halt (a stop request, or a failure): not a timeout of its own.
            Answer::Timeout if halt.load(Relaxed) => {
                done.stopped.push(call.name(run.largest_first));
                Ok(())
            }
            Answer::Timeout => {
                done.calls_timed_out += 1;
                if done
                    .timed_out
                    .is_none_or(|t| call.band.below < t.band.below)
                {
                    done.timed_out = Some(call.name(run.largest_first));
                }
                record_unanswered(run, ladder, call, seconds);
                after_call(ladder, call, seconds, ChainCallEnd::NoAnswer)
            }
            Answer::Sat(_) => Err(format!(
                "the rung from {} below {} is UNSAT in the ladder, but CaDiCaL finds a model \
                 of it: the ladder is wrong",
                call.band.from, call.band.below
            )),
        }
    };
    let ask = |&call: &ChainCall, halt: &AtomicBool| {
        let tell = |running| run.on_call.map(|tell| tell(&call, running));
        tell(true);
        let outcome = prove_call(run, call, halt);
        tell(false);
        outcome
    };
    let closes = |outcome: &PieceOutcome| match outcome {
        Ok(Asked {
            answer: Answer::Timeout,
            ..
        }) => run.jobs <= 1,
        outcome => not_refuted(outcome),
    };
    crate::sat::side_by_side::ask_side_by_side(calls, run.jobs, run.stop, ask, closes, take)?;
    done.not_started = calls.len() - taken;
    Ok(done)
}

/// Puts the checked proof of `call` into its rung: the rung's proof, or a piece of it (and the
/// rung's proof once its pieces cover the band). Returns whether the rung is proved now.
fn record_proof(
    run: &ProveChain,
    ladder: &mut Ladder,
    call: &ChainCall,
    (note, seconds): (Option<ProofNote>, Duration),
) -> Result<bool, String> {
    let rung = &mut ladder.rungs[call.index];
    let Some(top) = call.top else {
        rung.proof = note;
        return Ok(true);
    };
    let e = run.largest_first;
    let top = e.expand(&[top])[0];
    // A piece (or half) refuted by a climb without a proof has it now: the climb's record of
    // it goes, and once the piece is covered by checked proofs, every unchecked record of it.
    rung.pieces
        .retain(|piece| piece.top != top || (call.half.is_some() && piece.half != call.half));
    rung.pieces.push(ProofPiece {
        top,
        seconds: seconds.as_secs_f64(),
        proof: Some(note.ok_or("CaDiCaL refuted a piece but left no proof")?),
        lemmas: 0,
        half: call.half,
        ended: Some(super::ended_now()),
    });
    if rung.has_checked_piece(top) {
        rung.pieces
            .retain(|piece| piece.top != top || piece.is_checked());
    }
    Ok(rung.close_pieces(e, run.proof_stem))
}

/// Records in its rung that `call` had no answer in the run's timeout (`seconds`, the time it
/// took, where the run has none).
fn record_unanswered(run: &ProveChain, ladder: &mut Ladder, call: &ChainCall, seconds: Duration) {
    let given = run.timeout.unwrap_or(seconds);
    ladder.rungs[call.index].unanswered.push(UnansweredCall {
        top: call.top_value(run.largest_first),
        half: call.half,
        timeout: given.as_secs_f64(),
        ended: Some(super::ended_now()),
    });
}

/// One call asked again in a fresh CaDiCaL writing a proof on its own CNF (the rung's, with
/// `s[0]` fixed for a piece), the proof checked as `run.proof` says; ends with a timeout when
/// `stop` rises.
fn prove_call(run: &ProveChain, call: ChainCall, stop: &AtomicBool) -> PieceOutcome {
    let Band { from, below } = call.band;
    let e = if call.largest_first {
        run.largest_first
    } else {
        run.question
    };
    let mut units = band_units(e, call.band, call.largest_first)?;
    units.extend(call.top.map(|top| e.x(0, usize::from(top))));
    if let Some(half) = call.half {
        units.extend(half.units(e)?);
    }
    let piece = call.top_value(e).map(|top| (top, call.half));
    let stem = rung_stem_of(run.proof_stem, ((from, below), piece));
    let proof = (run.proof, run.keep_proofs);
    asked_with_proof(&with_units(e, &units), run.timeout, &stem, proof, stop)
}

/// What [`prove_chain`] did, and what it left without a proof: calls with no answer in the
/// time allowed, calls cut short by a stop request, and calls never started (after a stop, or
/// on one job after a call out of time). Why: a run stopped by `timeout` on a lent machine said
/// how many parts it proved and nothing of the one it was still checking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChainProofs {
    /// Rungs given a proof now.
    pub proved: usize,
    /// Pieces of rungs proved now ([`ProveChain::pieces`]), whole.
    pub pieces: usize,
    /// Halves of pieces proved now ([`ProveChain::cut`]).
    pub halves: usize,
    /// Bands of the chain answered by cube campaigns with no certificate yet (left alone).
    pub cube_bands: usize,
    /// The call of the lowest rung that had no answer in the time allowed (with one job, no
    /// call started after it).
    pub timed_out: Option<ChainCallName>,
    /// Calls that had no answer in the time allowed.
    pub calls_timed_out: usize,
    /// Calls running when a stop request came, in the order they ended.
    pub stopped: Vec<ChainCallName>,
    /// Calls never started.
    pub not_started: usize,
}

/// What a call of [`prove_chain`] asks, by value: its band, and for a piece the value of
/// `s[0]` and the part of it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainCallName {
    pub band: Band,
    pub piece: Option<(Value, Option<Half>)>,
}

impl std::fmt::Display for ChainCallName {
    /// `the band 160..168`, `s[0] = 165 of the band 160..168`, `s[0] = 165, s[13] >= 144 of
    /// the band 160..168`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.piece {
            None => {}
            Some((top, None)) => write!(f, "s[0] = {top} of ")?,
            Some((top, Some(half))) => write!(f, "s[0] = {top}, {half} of ")?,
        }
        write!(f, "the band {}", self.band)
    }
}

impl ChainCall {
    /// How long its proof should take where proofs take `pace` times their share of the climb:
    /// at least what it had before with no answer.
    pub fn expected_at(&self, pace: f64) -> f64 {
        (self.climb_seconds * pace).max(self.had_before)
    }

    /// The value of `s[0]` its piece fixes (`e`: the encoding of bands, whose byte `top` is);
    /// none for a whole rung.
    pub fn top_value(&self, e: &PeriodEncoding) -> Option<Value> {
        self.top.map(|c| e.expand(&[c])[0])
    }

    /// What this call asks, by value (`e`: the encoding of bands, whose byte `top` is).
    pub fn name(&self, e: &PeriodEncoding) -> ChainCallName {
        ChainCallName {
            band: self.band,
            piece: self.top_value(e).map(|top| (top, self.half)),
        }
    }
}

impl ChainProofs {
    /// Counts a call proved, and the rung if it is proved now.
    fn count(&mut self, call: &ChainCall, rung_closed: bool) {
        self.pieces += usize::from(call.top.is_some() && call.half.is_none());
        self.halves += usize::from(call.half.is_some());
        self.proved += usize::from(rung_closed);
    }
}
