/*!
Value bounds on an open question: "is there a pattern with every value below `V`?" for a rising
ladder of `V`, a partial answer where the whole question (Riley's, values below 512) is out of
reach.

Why: an UNSAT rung is a theorem of its own under the same assumptions as the question (no rare
value beyond the table): *every* period-`p` pattern has a value of at least `V`. The rungs get
harder as `V` grows (Officers p = 27, rotation broken, one CaDiCaL a rung on the 2-core VM,
2026-11-24: below 128 refuted in 2.9 s, 160 in 33 s, 184 in 195 s, 216 in 391 s), so the highest
refuted rung measures how far a campaign got, and the last rung, `V = 512`, is the question
itself: UNSAT there answers it. A SAT rung is an answer too: a pattern of `p` (witness-checked
like any model), with every value below its bound.

A rung is the question's encoding plus one unit per residue, `s[r] <= c` with `c` the byte of the
largest common value below `V` (bytes keep the order of values, see [`super::encode`]). With
rotation broken (the default), the rung puts a largest value at residue 0
([`super::encode::PeriodEncoding::put_largest_first`]) and asks only about the *band* above the
highest refuted bound `F`: a unit `s[0] >= ` the byte of the smallest common value of at least `F`. Its UNSAT says
"no pattern has its largest value in `F..V`", which with the rungs below `F` says "none below
`V`" ([`Ladder::chain`] walks from 0 up through the refuted bands). Why: below `F` there is
nothing left to find, and a floor on the largest value fixes much of the search at once. Officers
p = 27 below 216: 88 s as the band from 208, against 391 s for every value below 216 with a
smallest value first, and 370 s with a largest first but no floor; below 224, no answer in 600 s
as a whole rung, refuted in 159 s as the band from 216 (one CaDiCaL each, 2026-11-24).

Each rung is a fresh CaDiCaL call, so `--proof-dir` can certify each UNSAT rung by a DRAT proof
of its own CNF (the answer at 512 then rests on the proofs of every rung of the chain). Earlier
rungs' work is redone, which costs less than carrying it: one incremental CaDiCaL for all rungs
(`--incremental`: assumptions, a refuted rung kept as a clause) took 366 s for the rungs of
p = 27 from 128 to 176 where fresh calls took 271 s, and had no answer below 184 after 368 s
where a fresh call took 195 s (same day, same load; whole rungs with a smallest value first).

The ladder lives in a file beside the periods file (`bounds-p<P>-<question>.json`), rewritten
atomically after every rung, so a later run goes on above the highest refuted bound. A band of
hours can be asked in pieces instead ([`Climb::pieces`], [`ProofPiece`]): one fresh call per
value of its largest value, each refuted piece saved, so a stop or a lost machine costs one
piece; its proof can be made the same way ([`ProveChain::pieces`]).

Here: a rung, its band, and the lemma files its calls kept. The rest, a job each:
`ladder.rs` (the file: rungs tried, the chain of refuted bands), `pieces.rs` (pieces, their
halves and parts, what a rung's pieces refute), `units.rs` (the units that ask a rung, band or
piece), `call.rs` (what the two uses of a ladder share: one fresh call, its answer and files),
`climb.rs` (climbing: whole rungs, bands, pieces, split over threads, incremental), `chain.rs`
(proving the rungs a bound rests on), `costs.rs` (what a chain's parts should cost), `merge.rs` (ladders of two machines made one) and
`report.rs` (the table of a ladder).
*/

use serde::{Deserialize, Serialize};

use super::solve::{Preset, ProofNote};
use crate::values::Value;

mod call;
mod chain;
mod climb;
mod costs;
mod ladder;
mod merge;
mod pieces;
mod report;
#[cfg(test)]
mod tests;
mod units;

pub use chain::{
    AroundUnanswered, ChainCall, ChainCallEnd, ChainCallName, ChainProofs, ProveChain,
    UnansweredCall, chain_calls, parts_pace, passed_over, prove_chain,
};
pub use climb::{Climb, Step, StoppedPiece, calls_to_ask, climb};
pub use ladder::{Ladder, LadderError};
pub use merge::{LemmaFilesCopied, Merged, copy_kept_lemmas, remove_spent_lemmas};
pub use pieces::{Cut, Half, PiecesRefuted, ProofPiece, ended_now, pieces_and_halves};
pub use units::{band_cube, band_tops, band_values, floor_unit, rung_units};

use call::{
    Asked, PieceOutcome, RungOrPiece, asked_with_proof, model_or_failure, not_refuted, rung_stem,
    rung_stem_of, settle_checked_files,
};
use units::{band_units, floor_byte, with_units};

/// Riley's bound: every value below 512 (the encoding's bytes hold no more).
pub const WHOLE_QUESTION: Value = 512;

/// What a rung answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RungAnswer {
    /// No pattern has every value below the bound.
    Unsat,
    /// A pattern with every value below the bound (the ladder's `pattern`).
    Sat,
    /// No answer within the time limit (or a stop request came).
    Timeout,
}

/// One rung: the question "a pattern whose largest value lies in `from..below`?" (with `from`
/// 0: every value below `below`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rung {
    /// The floor of the band: the rung asks only for patterns with a value of at least `from`,
    /// so its UNSAT says "no pattern below `below`" only together with rungs that say so of
    /// `from` ([`Ladder::chain`]). 0 (no floor) in ladders of earlier builds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from: Value,
    pub below: Value,
    /// Rotation broken with a largest value at residue 0 (earlier builds put a smallest there).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub largest_first: bool,
    /// Threads the band was split over, one CaDiCaL call per byte of `s[0]` (0: one call);
    /// `seconds` is wall-clock either way. For a try in pieces continued over several runs, the
    /// most recent setting above one thread among the runs that went on with it: pieces may have
    /// run with fewer beside them.
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub threads: usize,
    pub answer: RungAnswer,
    pub seconds: f64,
    /// The DRAT certificate of an UNSAT rung, with `--proof-dir`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofNote>,
    /// The cube campaign that answered this band (`grundy sat cubes --band`), its ledger's file
    /// name beside the ladder; `seconds` are its solver seconds summed over threads and runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubes: Option<String>,
    /// CaDiCaL's configuration, when not its default (a rung with a proof keeps the default).
    #[serde(default, skip_serializing_if = "Preset::is_default")]
    pub preset: Preset,
    /// The pieces of a band proved one byte of its largest value at a time (`--prove-chain
    /// --pieces`), as they were checked; once they cover the band, `proof` says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<ProofPiece>,
    /// Clauses learned by earlier calls on the same CNF that this call was given (`--lemmas`):
    /// its UNSAT rests on CaDiCaL having learned them soundly as well as on this call (as every
    /// answer without a proof rests on CaDiCaL); `--prove-chain` proves it from the CNF alone.
    /// For a band in pieces left without an answer: what the pieces that the last run stopped
    /// were given (the most of them), so a run that found no lemma file says 0 here.
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub lemmas: usize,
    /// The cut the last run of this band in pieces asked each piece in (`--cut`), so that a band
    /// left without an answer says what its `seconds` were spent on: halves, not whole pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<Cut>,
    /// Lemma files that calls of this try left without an answer kept for the next run
    /// (`--lemmas`), one per call, forgotten once the call is refuted or the band answered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<KeptLemmas>,
    /// Conflicts each call of this try could take (`--conflicts`; a band in pieces: its last
    /// run's); a call that reached them had no answer, as at a timeout. None: time alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u32>,
    /// Whether the climb asked this band in pieces (`--pieces`: true) or in one call, split over
    /// threads or not (false). Why the ladder says so: `--prove-chain --pieces` replaces the
    /// climb's record of a piece with its proved one and proves a band asked whole in pieces
    /// too, so once every piece has a proof the pieces no longer tell. None: a cube campaign's
    /// band, or a ladder of an earlier build (whose table then claims neither).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_pieces: Option<bool>,
    /// The runs that went on with this try in pieces, each with the seconds it spent on it, so
    /// that `seconds` is their sum plus what runs of builds before 2026-11-28, which name none,
    /// spent. Why: copies of a ladder on two machines may both go on with one try, each asking
    /// other pieces (`--only-pieces`); a merge then adds what each run spent once, by its name
    /// ([`Ladder::merge_from`]), where before it could not tell their common part.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunShare>,
    /// Calls of `--prove-chain` on this rung (whole, or a piece or part of one) that had no
    /// answer in the time they were given, in the order they ended ([`UnansweredCall`]). They
    /// stay once the call is proved, as its history.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unanswered: Vec<UnansweredCall>,
}

impl Rung {
    /// A try of `band` with a largest value first that ended with `answer` after `seconds`, and
    /// nothing else to say yet: no proof, pieces, lemmas, cut or runs, CaDiCaL's default
    /// configuration, one call. The climb and the records of cube campaigns fill in the rest.
    pub fn asked(band: Band, answer: RungAnswer, seconds: f64) -> Rung {
        Rung {
            from: band.from,
            below: band.below,
            largest_first: true,
            threads: 0,
            answer,
            seconds,
            proof: None,
            cubes: None,
            preset: Preset::Default,
            pieces: Vec::new(),
            lemmas: 0,
            cut: None,
            kept: Vec::new(),
            conflicts: None,
            in_pieces: None,
            runs: Vec::new(),
            unanswered: Vec::new(),
        }
    }

    /// The band this rung asks.
    pub fn band(&self) -> Band {
        Band {
            from: self.from,
            below: self.below,
        }
    }
}

/// What one run (one process) spent on a try in pieces ([`Rung::runs`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunShare {
    /// The run's name, unique across machines: its start in nanoseconds since the epoch and its
    /// process id, in hex ([`RunShare::name_this_run`]).
    pub run: String,
    pub seconds: f64,
    /// Whether the run asked the try's pieces in turn (`--in-turn`: a piece without an answer
    /// ended no try of it). Why the ladder says so: whether a band's other pieces were asked
    /// at all behind one that resists is part of what its hours mean. Absent (false) in the
    /// records of earlier builds, which did not say.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_turn: bool,
}

impl RunShare {
    /// A name for the run now starting: two runs on two machines would have to start in the
    /// same nanosecond with the same process id to share it.
    pub fn name_this_run() -> String {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{nanos:x}-{:x}", std::process::id())
    }
}

/// The lemma file a call left without an answer kept for the same call asked again: the piece
/// (`top` and `half`; neither for a whole rung), the clauses in it and the file's name. Why the
/// ladder says so: the file lives in a folder the ladder does not hold, so a run that finds it
/// gone (another machine, a folder cleaned, `--lemmas` left off) can say that the call starts
/// afresh, where before hours of search were lost without a word.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptLemmas {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<Half>,
    pub clauses: usize,
    /// Those clauses by length, units first ([`crate::sat::lemmas::by_length`]); absent in
    /// the records of builds before 2026-11-28.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_length: Vec<usize>,
    /// The units the file held when each try that built it started, oldest first (as far back
    /// as tries were counted, 2026-11-28; empty for a call that started afresh): the record of
    /// a call's file moves to its latest try, and this is what it says of the tries before,
    /// so that the table can show whether the tries of a piece get anywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units_before: Vec<usize>,
    /// The seconds of each try that built the file, oldest first, as far back as they were
    /// counted (from 2026-11-28's later builds; a call that started afresh starts the list
    /// again), so that the table can say how long a piece has resisted: the try's seconds are
    /// the whole band's, spread over its pieces.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seconds: Vec<f64>,
    pub file: String,
    /// Whether the file was saved certified (every clause checked to follow from the call's
    /// CNF, [`crate::sat::lemmas::Carry::certified`]): what `--lemmas --proof-dir` aims at,
    /// said in the ladder so that a campaign sees which calls will end with a proof.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub certified: bool,
}

impl KeptLemmas {
    /// The piece the file was kept for, `s[0] = V` with its half when the call was one; `None`
    /// for a whole rung. One wording for the report and for the warning of a file gone.
    pub fn piece(&self) -> Option<String> {
        match (self.top, self.half) {
            (Some(top), Some(half)) => Some(format!("s[0] = {top}, {half}")),
            (Some(top), None) => Some(format!("s[0] = {top}")),
            (None, _) => None,
        }
    }

    /// Whether this file's call was on a larger part of the piece of `other`'s call (the
    /// whole piece, or a coarser part that holds it, [`Half::holds`]): then its file is given
    /// to `other`'s call, and is no call left of its own. Why: once a piece is cut, its whole
    /// file and those of its coarser parts stay kept until every part is refuted, so a count
    /// of files would count calls that are never asked again.
    pub fn holds_call_of(&self, other: &KeptLemmas) -> bool {
        let same_piece = self.top.is_some() && self.top == other.top;
        same_piece
            && match (self.half, other.half) {
                (None, Some(_)) => true,
                (Some(larger), Some(part)) => larger != part && larger.holds(&part),
                _ => false,
            }
    }

    /// Whether `other` records the same file of the same call (a later save of it).
    fn same_file(&self, other: &KeptLemmas) -> bool {
        (self.top, self.half, &self.file) == (other.top, other.half, &other.file)
    }

    /// What the file holds of units and binary clauses, the units after each earlier try, and
    /// the seconds of the tries counted, as " (86 units, 21878 binary; 2404 s in the last
    /// try)" or " (units by try 40, 61, 86; 21878 binary; 4808 s in the last 2 tries)",
    /// ending "; certified" for a certified file; empty for a record of an earlier build,
    /// which has no counts.
    pub fn growth_words(&self) -> String {
        let count = |len: usize| self.by_length.get(len - 1).copied().unwrap_or(0);
        if self.by_length.is_empty() {
            return String::new();
        }
        let (units, binary) = (count(1), count(2));
        let seconds: f64 = self.seconds.iter().sum();
        let timed = match self.seconds.len() {
            0 => String::new(),
            1 => format!("; {seconds:.0} s in the last try"),
            n => format!("; {seconds:.0} s in the last {n} tries"),
        };
        let timed = match self.certified {
            true => format!("{timed}; certified"),
            false => timed,
        };
        if self.units_before.is_empty() {
            return format!(" ({units} units, {binary} binary{timed})");
        }
        let tries: Vec<String> = (self.units_before.iter().chain([&units]))
            .map(usize::to_string)
            .collect();
        format!(
            " (units by try {}; {binary} binary{timed})",
            tries.join(", ")
        )
    }
}

/// The units in the lemma files of `kept`, when each record counts them (none of an earlier
/// build's, which do not).
pub fn units_kept<'a>(kept: impl Iterator<Item = &'a KeptLemmas>) -> Option<usize> {
    let counts: Option<Vec<usize>> = kept.map(|k| k.by_length.first().copied()).collect();
    counts.filter(|c| !c.is_empty()).map(|c| c.iter().sum())
}

/// `n` things in words: "1 {one}", else "{n} {many}".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// A band of values `from..below` (true values): the question "a pattern whose largest value
/// lies in it?", as a rung of a ladder or as the root of a cube campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    pub from: Value,
    pub below: Value,
}

impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.from, self.below)
    }
}

impl std::str::FromStr for Band {
    type Err = String;

    /// `F..V` with `F < V <= 512`.
    fn from_str(text: &str) -> Result<Band, String> {
        let bad = || format!("bad band {text:?}: need F..V with F < V <= {WHOLE_QUESTION}");
        let (from, below) = text.split_once("..").ok_or_else(bad)?;
        let (from, below): (Value, Value) = (
            from.trim().parse().map_err(|_| bad())?,
            below.trim().parse().map_err(|_| bad())?,
        );
        if from >= below || below > WHOLE_QUESTION {
            return Err(bad());
        }
        Ok(Band { from, below })
    }
}

fn is_zero(v: &Value) -> bool {
    *v == 0
}

fn is_zero_count(n: &usize) -> bool {
    *n == 0
}
