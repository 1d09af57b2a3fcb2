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
([`PeriodEncoding::put_largest_first`]) and asks only about the *band* above the highest refuted
bound `F`: a unit `s[0] >= ` the byte of the smallest common value of at least `F`. Its UNSAT says
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

Here: the ladder and its rungs, the units of a rung, and what the two uses of it share (the files
of a rung or piece, one fresh call and its answer). `climb.rs` climbs (whole rungs, bands, pieces,
split over threads, incremental); `chain.rs` proves the rungs a bound rests on.
*/

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::encode::PeriodEncoding;
use super::solve::{Answer, Preset, ProofNote, SolverKind};
use crate::values::Value;

mod chain;
mod climb;
mod merge;
mod report;

pub use chain::{ChainCall, ChainCallName, ChainProofs, ProveChain, chain_calls, prove_chain};
pub use climb::{Climb, Step, StoppedPiece, climb};
pub use merge::{LemmaFilesCopied, Merged, copy_kept_lemmas, remove_spent_lemmas};

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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

    /// Whether `other` records the same file of the same call (a later save of it).
    fn same_file(&self, other: &KeptLemmas) -> bool {
        (self.top, self.half, &self.file) == (other.top, other.half, &other.file)
    }

    /// What the file holds of units and binary clauses, the units after each earlier try, and
    /// the seconds of the tries counted, as " (86 units, 21878 binary; 2404 s in the last
    /// try)" or " (units by try 40, 61, 86; 21878 binary; 4808 s in the last 2 tries)";
    /// empty for a record of an earlier build, which has no counts.
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

/// A cut of every piece of a band into two [`Half`]s: `s[residue]` below `at`, and at least `at`;
/// or, cut again at the values `above` (ascending, above `at`), into parts between them
/// ([`Cut::parts`]). Why more than two: a lent machine's call of ten minutes on 16 cores proves
/// a half of a hard piece (its proof a gigabyte and more) only if rate's check fits in it too,
/// and the high halves of p = 37's and 39's lowest unproved bands did not (2026-11-28: solved
/// in 4 to 8 minutes, unchecked after 5 more); parts are shorter calls with smaller proofs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cut {
    pub residue: usize,
    pub at: Value,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub above: Vec<Value>,
}

impl Cut {
    /// The cut of `s[residue]` at `at` alone, into two halves.
    pub fn new(residue: usize, at: Value) -> Cut {
        Cut {
            residue,
            at,
            above: Vec::new(),
        }
    }

    /// The parts of the cut, lowest first: below `at`, then from each cut value to the next,
    /// then from the last on. Two halves ([`Half`] with no `below`) for a cut at one value.
    pub fn parts(&self) -> Vec<Half> {
        let residue = self.residue;
        let starts: Vec<Value> = self.values().collect();
        let ends = (starts.iter().skip(1).map(|&v| Some(v))).chain([None]);
        let low = Half {
            residue,
            at: self.at,
            high: false,
            below: None,
        };
        let high = (starts.iter().zip(ends)).map(|(&at, below)| Half {
            residue,
            at,
            high: true,
            below,
        });
        std::iter::once(low).chain(high).collect()
    }

    /// The values cut at, ascending: `at`, then `above`.
    fn values(&self) -> impl Iterator<Item = Value> + '_ {
        std::iter::once(self.at).chain(self.above.iter().copied())
    }

    /// Whether the cut makes more than two parts (so its parts are no halves, in words).
    pub fn is_finer(&self) -> bool {
        !self.above.is_empty()
    }
}

impl std::fmt::Display for Cut {
    /// `s[13] at 64`, or `s[13] at 64, 128 and 192`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let values: Vec<String> = self.values().map(|v| v.to_string()).collect();
        let (last, rest) = values.split_last().expect("a cut has a value");
        match rest {
            [] => write!(f, "s[{}] at {last}", self.residue),
            rest => write!(f, "s[{}] at {} and {last}", self.residue, rest.join(", ")),
        }
    }
}

/// One piece of a band: the band with its largest value, `s[0]`, fixed to `top`, refuted by a
/// fresh CaDiCaL call on its own CNF (climbing with `--pieces`), with a DRAT proof of that CNF
/// when one was asked for (`--proof-dir`, `--prove-chain --pieces`). Why pieces: a hard band
/// runs to hours of solving (and as many again of checking); pieces are saved as each ends, so
/// a run stopped, or a machine gone, loses one piece at most. Every model of the band has
/// `s[0]` at one of the band's bytes, so the pieces of every byte refute the band.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProofPiece {
    /// The value of `s[0]` (a true value, common).
    pub top: Value,
    /// Seconds to refute it (and prove and check, with a proof).
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofNote>,
    /// Clauses of earlier calls on the piece's CNF given to it, as for a rung ([`Rung::lemmas`]).
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub lemmas: usize,
    /// Half of the piece only (`--cut`): the piece refutes `top` once both halves of one cut
    /// are refuted ([`Rung::covers`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<Half>,
}

impl ProofPiece {
    /// Whether an independent checker accepted its proof.
    pub fn is_checked(&self) -> bool {
        self.proof.as_ref().is_some_and(|n| n.checked_by.is_some())
    }

    /// Whether it is a part between two values of a cut at several ([`Cut::parts`]): where
    /// there is one, the words say "parts", not "halves".
    pub fn is_between_cuts(&self) -> bool {
        self.half.is_some_and(|h| h.below.is_some())
    }
}

/// Half of a piece: with `s[residue]` below `at` (`high` false) or at least `at` (`high` true),
/// `at` a true value; with `below` too (a cut at several values, [`Cut::parts`]), a part: at
/// least `at` and below `below`. (The name stays `Half`, as does the ladder's field `half`, the
/// files written before parts.) Why: a band has only as many pieces as values (4 for a band of
/// 8), so a machine with more cores needs pieces cut again, and a cut at a value of another
/// residue can halve a piece at no extra cost (`examples/split_probe.rs`: p = 27, a piece of
/// 68 s cut at 64 on residue 13 into 31.5 and 35.9 s). Every model of the piece has
/// `s[residue]` in one part of a cut, so the parts of a cut refute the piece ([`Rung::covers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Half {
    pub residue: usize,
    pub at: Value,
    pub high: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<Value>,
}

impl Half {
    /// The true values of `s[residue]` this part holds, as `from..below` (`below` None: no
    /// end).
    fn span(&self) -> (Value, Option<Value>) {
        match self.high {
            false => (0, Some(self.at)),
            true => (self.at, self.below),
        }
    }

    /// The units that ask this part on `e`: one for a half, two for a part between two cut
    /// values.
    ///
    /// # Errors
    /// A line when the part is no part: a residue that is not one of `e`'s (or 0, the piece's
    /// own), or no common value in it (nor, for a half, on the other side of `at`).
    pub fn units(&self, e: &PeriodEncoding) -> Result<Vec<i32>, String> {
        let (residue, cut) = (self.residue, self.at);
        if !(1..e.p).contains(&residue) {
            return Err(format!(
                "no cut at s[{residue}]: the residue must be from 1 to {} (0 is the piece's own)",
                e.p - 1
            ));
        }
        let at = match floor_byte(e, cut) {
            Some(0) => Err(format!(
                "no cut at s[{residue}] = {cut}: no common value lies below it (the least is \
                 {})",
                e.expand(&[0])[0]
            )),
            None => Err(format!(
                "no cut at s[{residue}] = {cut}: no common value lies at or above it (the \
                 largest is {})",
                e.expand(&[255])[0]
            )),
            Some(c) => Ok(c),
        }?;
        let below_at = e.at_most(self.residue, usize::from(at) - 1);
        if !self.high {
            return Ok(vec![below_at]);
        }
        let Some(end) = self.below else {
            return Ok(vec![-below_at]);
        };
        match floor_byte(e, end) {
            Some(c) if c <= at => Err(format!(
                "no common value of s[{}] from {} below {end}: no part to ask",
                self.residue, self.at
            )),
            Some(c) => Ok(vec![-below_at, e.at_most(self.residue, usize::from(c) - 1)]),
            None => Ok(vec![-below_at]),
        }
    }
}

impl std::fmt::Display for Half {
    /// `s[13] < 64`, `s[13] >= 64`, `64 <= s[13] < 128`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.residue;
        match (self.high, self.below) {
            (false, _) => write!(f, "s[{r}] < {}", self.at),
            (true, None) => write!(f, "s[{r}] >= {}", self.at),
            (true, Some(end)) => write!(f, "{} <= s[{r}] < {end}", self.at),
        }
    }
}

/// Whether `parts` (of one residue's cuts, any mix of them) hold every value of it: their spans
/// joined reach from 0 with no gap to no end.
fn parts_cover(parts: &[Half]) -> bool {
    parts_cover_span(parts, (0, None))
}

/// Whether `parts` (of one residue's cuts, any mix of them) hold every value of the span `from`
/// below `end` (no end: every value from `from` on): their spans joined reach over it with no
/// gap.
fn parts_cover_span(parts: &[Half], (from, end): (Value, Option<Value>)) -> bool {
    let mut spans: Vec<(Value, Option<Value>)> = parts.iter().map(Half::span).collect();
    spans.sort_unstable();
    // Every value from `from` below `reached` is held so far; the spans go by their first value.
    let mut reached = from;
    for (first, below) in spans {
        if first > reached {
            return false;
        }
        match below {
            None => return true,
            Some(b) => reached = reached.max(b),
        }
        if end.is_some_and(|end| reached >= end) {
            return true;
        }
    }
    false
}

impl Rung {
    /// Whether an independent checker accepted this rung's proof (a DRAT proof of its CNF, or
    /// the certificate of the cube campaign that answered it).
    pub fn has_checked_proof(&self) -> bool {
        self.proof.as_ref().is_some_and(|n| n.checked_by.is_some())
    }

    /// Whether the piece with `s[0]` at `top` is refuted: whole, or in both halves of one cut.
    pub fn covers(&self, top: Value) -> bool {
        self.covers_with(top, |_| true)
    }

    /// [`Self::covers`], counting only the pieces for which `counts` holds.
    fn covers_with(&self, top: Value, counts: impl Fn(&ProofPiece) -> bool) -> bool {
        let of_top = || (self.pieces.iter()).filter(|p| p.top == top && counts(p));
        let parts: Vec<Half> = of_top().filter_map(|p| p.half).collect();
        let of_residue =
            |r| -> Vec<Half> { parts.iter().filter(|h| h.residue == r).copied().collect() };
        of_top().any(|p| p.half.is_none())
            || parts.iter().any(|h| parts_cover(&of_residue(h.residue)))
    }

    /// How much of a band in pieces is refuted: whole values, and halves of values beyond them.
    pub fn pieces_refuted(&self) -> PiecesRefuted {
        self.pieces_refuted_with(|_| true)
    }

    /// [`Self::pieces_refuted`] by checked proofs alone (`--prove-chain --pieces`).
    pub fn pieces_checked(&self) -> PiecesRefuted {
        self.pieces_refuted_with(ProofPiece::is_checked)
    }

    /// [`Self::pieces_refuted`], counting only the pieces for which `counts` holds.
    fn pieces_refuted_with(&self, counts: impl Fn(&ProofPiece) -> bool + Copy) -> PiecesRefuted {
        let counted = || self.pieces.iter().filter(|p| counts(p));
        let mut tops: Vec<Value> = counted().map(|p| p.top).collect();
        tops.sort_unstable();
        tops.dedup();
        let covers = |top| self.covers_with(top, counts);
        let whole = tops.iter().filter(|&&top| covers(top)).count();
        let beyond = || counted().filter(|p| p.half.is_some() && !covers(p.top));
        let halves = beyond().count();
        let finer = beyond().any(ProofPiece::is_between_cuts);
        let mut of: Vec<Value> = beyond().map(|p| p.top).collect();
        of.sort_unstable();
        of.dedup();
        PiecesRefuted {
            whole,
            halves,
            finer,
            of: of.len(),
        }
    }

    /// The band this rung asks.
    pub fn band(&self) -> Band {
        Band {
            from: self.from,
            below: self.below,
        }
    }

    /// Adds `seconds` that the run named `run` (asking in turn or not) spent on this try, to
    /// its share and the total.
    fn add_seconds(&mut self, (run, in_turn): (&str, bool), seconds: f64) {
        self.seconds += seconds;
        match self.runs.iter_mut().find(|share| share.run == run) {
            Some(share) => share.seconds += seconds,
            None => self.runs.push(RunShare {
                run: run.to_string(),
                seconds,
                in_turn,
            }),
        }
    }

    /// Whether the piece at `top` (or its `half`) needs no call: the whole piece is refuted,
    /// or parts refuted hold every value of the half (itself, or parts of a finer or coarser
    /// cut: a part below 32 of a piece whose half below 64 is refuted).
    pub fn has_piece(&self, top: Value, half: Option<Half>) -> bool {
        self.covers(top) || half.is_some_and(|h| self.covers_part_with(top, h, |_| true))
    }

    /// Whether the pieces at `top` for which `counts` holds hold every value of its `half`:
    /// parts of the half's residue whose spans join over it.
    fn covers_part_with(
        &self,
        top: Value,
        half: Half,
        counts: impl Fn(&ProofPiece) -> bool,
    ) -> bool {
        let parts: Vec<Half> = (self.pieces.iter())
            .filter(|p| p.top == top && counts(p))
            .filter_map(|p| p.half)
            .filter(|h| h.residue == half.residue)
            .collect();
        parts_cover_span(&parts, half.span())
    }
}

/// What a try of a band in pieces refuted ([`Rung::pieces_refuted`]): values whose pieces are
/// refuted (whole, or every part of a cut), and halves (or parts) of values beyond them.
/// Ordered by whole pieces first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct PiecesRefuted {
    pub whole: usize,
    pub halves: usize,
    /// Some of `halves` are parts of a cut at more than one value ([`Cut::parts`]): in words,
    /// parts.
    pub finer: bool,
    /// The pieces `halves` are of (several parts of one piece can be refuted, where two halves
    /// would cover it).
    pub of: usize,
}

impl std::fmt::Display for PiecesRefuted {
    /// "K pieces of it refuted", and " and H halves of others" when there are such (" and H
    /// parts of another", or " of K others", for parts).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of it refuted", plural(self.whole, "piece", "pieces"))?;
        match (self.halves, self.finer) {
            (0, _) => Ok(()),
            (h, false) => write!(
                f,
                " and {}",
                plural(h, "half of another", "halves of others")
            ),
            (h, true) => match self.of {
                1 => write!(f, " and {} of another", plural(h, "part", "parts")),
                k => write!(f, " and {h} parts of {k} others"),
            },
        }
    }
}

/// Whole pieces and halves of pieces in words, those of none left out: "4 pieces", "1 half",
/// "2 pieces and 3 halves", "" for none; "parts" for halves when `finer` (some are parts of a
/// cut at more than one value, [`Cut::parts`]).
pub fn pieces_and_halves(whole: usize, halves: usize, finer: bool) -> String {
    let (one, many) = if finer {
        ("part", "parts")
    } else {
        ("half", "halves")
    };
    let what: Vec<String> = [(whole, "piece", "pieces"), (halves, one, many)]
        .into_iter()
        .filter(|&(n, ..)| n > 0)
        .map(|(n, one, many)| plural(n, one, many))
        .collect();
    what.join(" and ")
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

/// The box of `band` with a largest value at residue 0 ([`PeriodEncoding::put_largest_first`]):
/// `s[0]` from the byte of the smallest common value of at least `from` to the byte of the
/// largest below `below`, every other residue up to that byte. With a largest value first, "a
/// pattern whose largest value lies in the band" is exactly "a model in this box".
///
/// # Errors
/// A line saying why, if no common value lies in the band.
pub fn band_cube(e: &PeriodEncoding, band: Band) -> Result<super::cubes::Cube, String> {
    match (floor_byte(e, band.from), top_byte(e, band.below)) {
        (Some(floor), Some(top)) if floor <= top => {
            let mut cube = super::cubes::Cube::full(e.p);
            cube.hi.iter_mut().for_each(|h| *h = top);
            cube.lo[0] = floor;
            Ok(cube)
        }
        _ => Err(format!("no common value lies in the band {band}")),
    }
}

/// The ladder of one question, as written to disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub game: String,
    pub p: usize,
    /// "feasible" or "primitive".
    pub question: String,
    /// Rotation broken: the rungs of this build put a largest value first, those of earlier
    /// builds (without `from`) a smallest; either keeps every answer.
    pub rotation_broken: bool,
    /// [`super::lemmas::fingerprint`] of the question's encoding (with a smallest value first
    /// when rotation is broken, as `grundy sat` has it): rungs of another rare table or
    /// encoding are not this question's. The rungs run on the same clauses with their own
    /// rotation.
    pub fingerprint: String,
    /// Every rung tried, in the order tried (runs append).
    pub rungs: Vec<Rung>,
    /// A checked pattern (true values) once a rung had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Vec<Value>>,
}

/// Why a ladder file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct LadderError {
    pub path: PathBuf,
    pub reason: String,
}

impl Ladder {
    /// Records the answer of a cube campaign on `band` (its ledger `cubes`, beside the ladder)
    /// as a rung, unless the ladder has that rung already; a pattern is kept unless the ladder
    /// holds one with a smaller largest value. Returns whether the ladder changed.
    pub fn record_band(
        &mut self,
        band: Band,
        answer: RungAnswer,
        seconds: f64,
        cubes: &str,
        pattern: Option<&[Value]>,
        preset: Preset,
    ) -> bool {
        let same = |r: &Rung| {
            (r.from, r.below, r.answer, r.cubes.as_deref())
                == (band.from, band.below, answer, Some(cubes))
        };
        if self.rungs.iter().any(same) {
            return false;
        }
        self.rungs.push(Rung {
            from: band.from,
            below: band.below,
            largest_first: true,
            threads: 0,
            answer,
            seconds,
            proof: None,
            cubes: Some(cubes.to_string()),
            preset,
            pieces: Vec::new(),
            lemmas: 0,
            cut: None,
            kept: Vec::new(),
            conflicts: None,
            in_pieces: None,
            runs: Vec::new(),
        });
        if let Some(found) = pattern {
            let largest = found.iter().copied().max();
            if self.largest_in_pattern().is_none_or(|m| Some(m) > largest) {
                self.pattern = Some(found.to_vec());
            }
        }
        true
    }

    /// Gives the UNSAT rung of `band` answered by the campaign `cubes` its certificate `note`;
    /// false if there is no such rung or it has that note already.
    pub fn certify_band(&mut self, band: Band, cubes: &str, note: ProofNote) -> bool {
        let rung = self.rungs.iter_mut().find(|r| {
            (r.from, r.below, r.answer, r.cubes.as_deref())
                == (band.from, band.below, RungAnswer::Unsat, Some(cubes))
        });
        match rung {
            Some(rung) if rung.proof.as_ref() != Some(&note) => {
                rung.proof = Some(note);
                true
            }
            _ => false,
        }
    }

    pub fn new(game: &str, e: &PeriodEncoding, question: &str, rotation_broken: bool) -> Ladder {
        Ladder {
            game: game.to_string(),
            p: e.p,
            question: question.to_string(),
            rotation_broken,
            fingerprint: super::lemmas::fingerprint(&e.cnf),
            rungs: Vec::new(),
            pattern: None,
        }
    }

    /// The files every try's `kept` records name, sorted, each once: what a merge copies
    /// ([`copy_kept_lemmas`]) and, named before it and not after, removes
    /// ([`remove_spent_lemmas`]).
    pub fn kept_files(&self) -> Vec<String> {
        let mut files: Vec<String> = (self.rungs.iter())
            .flat_map(|r| &r.kept)
            .map(|k| k.file.clone())
            .collect();
        files.sort_unstable();
        files.dedup();
        files
    }

    /// The lemma files that calls of `band` left without an answer kept for the next run
    /// ([`KeptLemmas`]): the latest record of each call's file over the band's tries, in the
    /// order kept, less those of pieces a try refuted since (a ladder merged from another
    /// machine). A piece may have several files, one per seed that asked it (copies joined by
    /// a merge), and its next call is given them all ([`crate::sat::lemmas`]).
    pub fn kept_lemmas(&self, band: Band) -> Vec<&KeptLemmas> {
        let tries = || (self.rungs.iter()).filter(|r| r.band() == band);
        let refuted = |k: &KeptLemmas| {
            k.top
                .is_some_and(|top| tries().any(|r| r.has_piece(top, k.half)))
        };
        let mut kept: Vec<&KeptLemmas> = Vec::new();
        for entry in tries().flat_map(|r| &r.kept) {
            kept.retain(|k| !k.same_file(entry));
            kept.push(entry);
        }
        kept.retain(|k| !refuted(k));
        kept
    }

    /// What the calls stopped on the open band below `below` kept for the next run, for
    /// [`Ladder::summary_line`]: empty when nothing.
    fn kept_words(&self, below: Value) -> String {
        let mut floors: Vec<Value> = (self.rungs.iter())
            .filter(|r| r.below == below)
            .map(|r| r.from)
            .collect();
        floors.sort_unstable();
        floors.dedup();
        let kept: Vec<&KeptLemmas> = (floors.into_iter())
            .flat_map(|from| self.kept_lemmas(Band { from, below }))
            .collect();
        let clauses: usize = kept.iter().map(|k| k.clauses).sum();
        let units = units_kept(kept.iter().copied())
            .map_or_else(String::new, |n| format!(" ({n} of them units)"));
        match kept.len() {
            0 => String::new(),
            1 => format!(", 1 stopped call kept {clauses} lemmas{units} for the next run"),
            n => format!(", {n} stopped calls kept {clauses} lemmas{units} for the next run"),
        }
    }

    /// Records in `rung` (a try of `band`) the lemma file the call `which` (a piece, or the whole
    /// rung: `(None, None)`) kept, superseding the earlier record of that file, and those of
    /// files of the call's earlier CNFs (not those of other seeds' files of its CNF, which it
    /// was given). `kept.units_before` holds the units its file had when it started (none for
    /// a call that started afresh); the earlier record's list goes in front of them when it
    /// has one, and its seconds in front of `kept.seconds`, so the lists run over the tries
    /// that built the file, as far back as they were counted.
    fn keep_lemmas(
        &mut self,
        band: Band,
        rung: usize,
        (top, half): (Option<Value>, Option<Half>),
        kept: KeptLemmas,
    ) {
        let mut kept = KeptLemmas { top, half, ..kept };
        let earlier = (self.kept_lemmas(band).into_iter()).find(|k| k.same_file(&kept));
        if let Some(earlier) = earlier.filter(|_| !kept.units_before.is_empty()) {
            (kept.units_before).splice(0..0, earlier.units_before.iter().copied());
            (kept.seconds).splice(0..0, earlier.seconds.iter().copied());
        }
        // Other seeds' files of the call stay: it was given them, and so is the next. Files of
        // another CNF (an earlier build's encoding) go: no call of this one is given them.
        let question = crate::sat::lemmas::LemmaStore::question_of;
        let superseded = |k: &KeptLemmas| {
            (k.top, k.half) == (kept.top, kept.half)
                && (k.file == kept.file || question(&k.file) != question(&kept.file))
        };
        for other in (self.rungs.iter_mut()).filter(|r| r.band() == band) {
            other.kept.retain(|k| !superseded(k));
        }
        self.rungs[rung].kept.push(kept);
    }

    /// Forgets, in every try of `band`, the lemma files kept for calls that the try at `rung`
    /// holds refuted now ([`Rung::has_piece`]): a piece whose parts refuted cover it, a part
    /// inside parts refuted. Returns their file names, for the climb to remove. Why: such a
    /// call is never asked again, and a piece cut in parts after weeks keeps a file of 2^20
    /// clauses (about 30 MB) per seed that only the parts read.
    fn forget_kept_held(&mut self, band: Band, rung: usize) -> Vec<String> {
        let holder = self.rungs[rung].clone();
        let held = |k: &KeptLemmas| k.top.is_some_and(|top| holder.has_piece(top, k.half));
        let mut gone = Vec::new();
        for r in (self.rungs.iter_mut()).filter(|r| r.band() == band) {
            gone.extend(r.kept.iter().filter(|k| held(k)).map(|k| k.file.clone()));
            r.kept.retain(|k| !held(k));
        }
        gone.sort_unstable();
        gone.dedup();
        gone
    }

    /// Forgets, in every try of `band`, the lemma files kept for the call `which` (a piece, or
    /// the whole rung: `(None, None)`), or for every call with `which` `None`: answered calls
    /// are never asked again, and the climb removes their files.
    fn forget_kept(&mut self, band: Band, which: Option<(Option<Value>, Option<Half>)>) {
        for rung in (self.rungs.iter_mut()).filter(|r| r.band() == band) {
            rung.kept
                .retain(|k| which.is_some_and(|w| w != (k.top, k.half)));
        }
    }

    /// `bounds-p<P>-<question>.json` in the folder of the periods file.
    pub fn path_beside(periods_file: &Path, p: usize, question: &str) -> PathBuf {
        let dir = periods_file.parent().unwrap_or(Path::new(""));
        dir.join(format!("bounds-p{p}-{question}.json"))
    }

    /// The refuted rungs that together say "no pattern below `V`" for the highest such `V`: a
    /// rung without floor, then bands each starting at or below where the one before ended.
    /// A band whose floor no chain reaches proves nothing yet and is left out.
    pub fn chain(&self) -> Vec<&Rung> {
        self.chain_indices()
            .into_iter()
            .map(|i| &self.rungs[i])
            .collect()
    }

    /// [`Ladder::chain`] as indices into `rungs`.
    fn chain_indices(&self) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut reached = 0;
        loop {
            let next = (0..self.rungs.len())
                .filter(|&i| self.rungs[i].answer == RungAnswer::Unsat)
                .filter(|&i| self.rungs[i].from <= reached && self.rungs[i].below > reached)
                .max_by_key(|&i| self.rungs[i].below);
            match next {
                Some(i) => {
                    reached = self.rungs[i].below;
                    chain.push(i);
                }
                None => return chain,
            }
        }
    }

    /// The rungs of the chain that [`prove_chain`] proves, as indices into `rungs`: those with
    /// no checked proof, less bands answered by cube campaigns (`sat cubes --certify` proves
    /// those); lowest first.
    fn chain_indices_to_prove(&self) -> Vec<usize> {
        let needs_proof = |r: &Rung| !r.has_checked_proof() && r.cubes.is_none();
        let chain = self.chain_indices().into_iter();
        chain.filter(|&i| needs_proof(&self.rungs[i])).collect()
    }

    /// Rungs of the chain, and those of them whose proof a checker accepted.
    pub fn chain_proved(&self) -> (usize, usize) {
        let chain = self.chain();
        let checked = chain.iter().filter(|r| r.has_checked_proof()).count();
        (chain.len(), checked)
    }

    /// The highest refuted bound: every pattern has a value at least this.
    pub fn refuted_below(&self) -> Option<Value> {
        self.chain().last().map(|r| r.below)
    }

    /// Whether the rung of 512, the question itself, is refuted.
    pub fn answered_unsat(&self) -> bool {
        self.refuted_below() >= Some(WHOLE_QUESTION)
    }

    /// The largest value of the pattern found, if any: every rung above it has that pattern.
    pub fn largest_in_pattern(&self) -> Option<Value> {
        self.pattern.as_ref().and_then(|s| s.iter().copied().max())
    }

    /// One line for `grundy sat summary`: the highest refuted bound and the first rung above it
    /// that is still open.
    pub fn summary_line(&self) -> String {
        let seconds: f64 = self.rungs.iter().map(|r| r.seconds).sum();
        let refuted = self.refuted_below().map_or_else(
            || "no rung refuted".to_string(),
            |v| format!("every pattern has a value >= {v} (no pattern below it)"),
        );
        let found = self.largest_in_pattern().map_or(String::new(), |m| {
            format!("; a pattern with values up to {m}")
        });
        // The lowest rung above the refuted ones that had no answer, with its longest try.
        let unanswered =
            |r: &&Rung| r.answer == RungAnswer::Timeout && Some(r.below) > self.refuted_below();
        let open = self.rungs.iter().filter(unanswered).map(|r| r.below).min();
        let open = open.map_or(String::new(), |below| {
            let tries = || self.rungs.iter().filter(|r| r.below == below);
            let longest = tries().map(|r| r.seconds).fold(0.0, f64::max);
            let of = match tries().count() {
                1 => String::new(),
                n => format!(" (the longest of {n} tries)"),
            };
            // A band climbed in pieces: how far its furthest try got.
            let pieces = match tries().map(Rung::pieces_refuted).max().unwrap_or_default() {
                none if none == PiecesRefuted::default() => String::new(),
                pieces => format!(", {pieces}"),
            };
            format!(
                "; below {below}: no answer in {longest:.0} s{of}{pieces}{}",
                self.kept_words(below)
            )
        });
        let proved = match self.chain_proved() {
            (0, _) => String::new(),
            (n, k) => format!("; {k} of the {n} rungs it rests on with a checked proof"),
        };
        // Checked pieces (values covered) and halves of pieces of rungs not proved yet
        // (`--prove-chain --pieces [--cut]`).
        let unclosed = self.chain().into_iter().filter(|r| !r.has_checked_proof());
        let checked = unclosed.map(Rung::pieces_checked);
        let (whole, halves, finer) = checked.fold((0, 0, false), |(w, h, f), c| {
            (w + c.whole, h + c.halves, f || c.finer)
        });
        let proved = match pieces_and_halves(whole, halves, finer) {
            what if what.is_empty() => proved,
            what => format!("{proved}, and {what} of the others"),
        };
        format!(
            "{refuted}{found}{open} ({}, {seconds:.0} s{proved})",
            plural(self.rungs.len(), "rung", "rungs")
        )
    }

    /// Why `self` (read from a file) is not the ladder of `fresh`'s question, if it is not.
    pub fn refuses(&self, fresh: &Ladder) -> Option<String> {
        let old = (&self.game, self.p, &self.question, self.rotation_broken);
        let new = (&fresh.game, fresh.p, &fresh.question, fresh.rotation_broken);
        if old != new {
            return Some(format!(
                "made for {} p = {} {} (rotation broken = {}), not {} p = {} {} ({})",
                old.0, old.1, old.2, old.3, new.0, new.1, new.2, new.3
            ));
        }
        (self.fingerprint != fresh.fingerprint).then(|| {
            format!(
                "made for the encoding {}, not {} (another rare table or encoding)",
                self.fingerprint, fresh.fingerprint
            )
        })
    }

    /// Reads a ladder; `None` if there is no file.
    ///
    /// # Errors
    /// [`LadderError`] for a file that cannot be read or is not a ladder.
    pub fn read(path: &Path) -> Result<Option<Ladder>, LadderError> {
        crate::io::read_json_if_present(path, "a bounds ladder").map_err(|reason| LadderError {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Takes the ladder at `path` for this process while the returned file lives (see
    /// [`crate::io::take_lock_beside`]).
    ///
    /// # Errors
    /// [`LadderError`] if another run holds it or the lock file cannot be made.
    pub fn lock(path: &Path) -> Result<std::fs::File, LadderError> {
        crate::io::take_lock_beside(path).map_err(|reason| LadderError {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Writes the ladder atomically.
    ///
    /// # Errors
    /// [`LadderError`] if it cannot be written (the old file stays as it was).
    pub fn save(&self, path: &Path) -> Result<(), LadderError> {
        crate::io::write_json_atomic(path, self).map_err(|e| LadderError {
            path: path.to_path_buf(),
            reason: e.source.to_string(),
        })
    }
}

/// The units of the rung `below`: `s[r] <= c` for every residue, `c` the byte of the largest
/// common value below `below`. None at all for 512 and above (every byte is below 512).
///
/// # Errors
/// A line saying why, if no common value lies below `below`.
pub fn rung_units(e: &PeriodEncoding, below: Value) -> Result<Vec<i32>, String> {
    let Some(top) = top_byte(e, below) else {
        let least = e.expand(&[0])[0];
        return Err(format!(
            "no common value lies below {below} (the least is {least})"
        ));
    };
    if top == 255 {
        return Ok(Vec::new());
    }
    Ok((0..e.p).map(|r| e.at_most(r, usize::from(top))).collect())
}

/// The units of `band`: those of its rung ([`rung_units`]) and, with a largest value first,
/// its floor ([`floor_unit`]); without one (whole rungs of earlier builds) a band has no floor.
///
/// # Errors
/// As [`rung_units`].
fn band_units(e: &PeriodEncoding, band: Band, largest_first: bool) -> Result<Vec<i32>, String> {
    let mut units = rung_units(e, band.below)?;
    if largest_first {
        units.extend(floor_unit(e, band.from));
    }
    Ok(units)
}

/// The unit of a band's floor, `s[0] >= c` with `c` the byte of the smallest common value of
/// at least `from`: with a largest value at residue 0, "some value is at least `from`". None
/// when every common value is (no floor).
pub fn floor_unit(e: &PeriodEncoding, from: Value) -> Option<i32> {
    let c = floor_byte(e, from)?;
    (c > 0).then(|| -e.at_most(0, usize::from(c) - 1))
}

/// The byte of the largest common value below `below`, if any (bytes keep the order of values).
fn top_byte(e: &PeriodEncoding, below: Value) -> Option<u8> {
    (0..=255u8).rev().find(|&c| e.expand(&[c])[0] < below)
}

/// The byte of the smallest common value of at least `from`, if any.
fn floor_byte(e: &PeriodEncoding, from: Value) -> Option<u8> {
    (0..=255u8).find(|&c| e.expand(&[c])[0] >= from)
}

/// The bytes `s[0]` may take in `band` with a largest value first: those of the common values
/// in it, lowest first. One cube each when a band is split over threads, one piece each when
/// its proof is made in pieces.
pub fn band_tops(e: &PeriodEncoding, band: Band) -> Vec<u8> {
    let in_band = |c: &u8| (band.from..band.below).contains(&e.expand(&[*c])[0]);
    (0..=255u8).filter(in_band).collect()
}

/// The values of `s[0]` of [`band_tops`], lowest first: the band's pieces, as the ladder names
/// them.
pub fn band_values(e: &PeriodEncoding, band: Band) -> Vec<Value> {
    let tops = band_tops(e, band);
    tops.iter().map(|&c| e.expand(&[c])[0]).collect()
}

/// What one fresh CaDiCaL call of a rung or piece answered, with the note of its proof when it
/// wrote one and the count of lemmas it was given when it carried them.
struct Asked {
    answer: Answer,
    proof: Option<ProofNote>,
    lemmas: usize,
    /// For a call left without an answer: what its lemma file holds now, and the file (the
    /// piece and the tries before filled in by the climb, [`Ladder::keep_lemmas`]).
    kept: Option<KeptLemmas>,
}

impl Asked {
    /// An answer with no proof and no lemmas.
    fn plain(answer: Answer) -> Asked {
        Asked {
            answer,
            proof: None,
            lemmas: 0,
            kept: None,
        }
    }
}

/// What a solver call of a band's piece or a chain's rung ends with, or the line of its failure.
type PieceOutcome = Result<Asked, String>;

/// Whether a call's outcome keeps further calls from starting: anything but a refutation (no
/// answer in time, a model, a failure).
fn not_refuted(outcome: &PieceOutcome) -> bool {
    !matches!(
        outcome,
        Ok(Asked {
            answer: Answer::Unsat,
            ..
        })
    )
}

/// Whether a call's outcome ends a try that asks its pieces in turn ([`Climb::in_turn`]): a
/// model (which answers the band) or a failure.
fn model_or_failure(outcome: &PieceOutcome) -> bool {
    !matches!(
        outcome,
        Ok(Asked {
            answer: Answer::Unsat | Answer::Timeout,
            ..
        })
    )
}

/// The band of a rung and, for a piece of it, the value of `s[0]` it fixes (and its half).
type RungOrPiece = ((Value, Value), Option<(Value, Option<Half>)>);

/// The files of a rung, or of its piece ([`RungOrPiece`]), named from a climb's `stem` (of
/// proofs or lemmas).
fn rung_stem_of(stem: &Path, ((from, below), piece): RungOrPiece) -> PathBuf {
    let stem = rung_stem(stem, from, below);
    match piece {
        Some((top, half)) => piece_stem(&stem, top, half),
        None => stem,
    }
}

/// The stem of a piece's files (or its half's: `-s<R>-lt<V>`, `-s<R>-ge<V>`; a part's
/// `-s<R>-ge<V>-lt<W>`) beside its rung's.
fn piece_stem(rung_stem: &Path, top: Value, half: Option<Half>) -> PathBuf {
    let half = half.map_or(String::new(), |h| {
        let side = if h.high { "ge" } else { "lt" };
        let end = h.below.map_or(String::new(), |b| format!("-lt{b}"));
        format!("-s{}-{side}{}{end}", h.residue, h.at)
    });
    PathBuf::from(format!("{}-s0-{top}{half}", rung_stem.display()))
}

/// Where the CNF and proof of the rung `from..below` go: `<stem>-below<V>` or
/// `<stem>-from<F>-below<V>`.
fn rung_stem(stem: &Path, from: Value, below: Value) -> PathBuf {
    let band = match from {
        0 => format!("below{below}"),
        _ => format!("from{from}-below{below}"),
    };
    PathBuf::from(format!("{}-{band}", stem.display()))
}

/// A fresh CaDiCaL on `cnf` writing a DRAT proof at `stem` (`.cnf`, `.drat`), checked by
/// `checker` when there is one, ending with no answer when `stop` rises.
fn asked_with_proof(
    cnf: &super::Cnf,
    timeout: Option<Duration>,
    stem: &Path,
    checker: Option<&str>,
    stop: &AtomicBool,
) -> PieceOutcome {
    let (answer, proof) = super::solve::solve_with_proof_checked_by(
        SolverKind::Cadical,
        cnf,
        timeout,
        stem,
        checker,
        Some(stop),
    )
    .map_err(|e| e.to_string())?;
    Ok(Asked {
        proof,
        ..Asked::plain(answer)
    })
}

/// The encoding's clauses with `units` added.
fn with_units(e: &PeriodEncoding, units: &[i32]) -> super::Cnf {
    let mut cnf = e.cnf.clone();
    for &unit in units {
        super::CollectClauses::add_clause(&mut cnf, &[unit]);
    }
    cnf
}

impl Ladder {
    /// What the ladder says about `p` for the periods file: a pattern, or UNSAT at the rung of
    /// 512 (the whole question); `None` otherwise (a lower rung refuted decides nothing).
    /// `feasible` is the periods file's feasible pattern, kept with a primitive UNSAT.
    pub fn period_result(
        &self,
        e: &PeriodEncoding,
        feasible: Option<Vec<Value>>,
    ) -> Option<super::periods::PeriodResult> {
        use super::periods::{PeriodResult, Status, minimal_period};
        let primitive_question = self.question == "primitive";
        let (status, pattern) = match &self.pattern {
            Some(s) => (Status::Sat, Some(s.clone())),
            None if self.answered_unsat() => (Status::Unsat, feasible),
            None => return None,
        };
        let period = pattern.as_ref().map(|s| minimal_period(s) as u64);
        let (feasible_status, primitive_status) =
            super::periods::question_statuses(primitive_question, status, period, self.p as u64);
        // The rungs the answer rests on: the pattern's, or the whole chain of refutations.
        let rests_on: Vec<&Rung> = match status {
            Status::Sat => self
                .rungs
                .iter()
                .rev()
                .find(|r| r.answer == RungAnswer::Sat),
            _ => None,
        }
        .map_or_else(|| self.chain(), |r| vec![r]);
        let last = rests_on.last()?;
        let proofs: Vec<ProofNote> = rests_on.iter().filter_map(|r| r.proof.clone()).collect();
        // An UNSAT without proofs that used clauses learned by earlier calls says so (a proof
        // starts from the CNF alone, so one of every rung makes them irrelevant).
        let carried =
            (rests_on.iter()).any(|r| r.lemmas > 0 || r.pieces.iter().any(|p| p.lemmas > 0));
        let unchecked = proofs.iter().filter(|n| n.checked_by.is_none()).count();
        let proof = match status {
            Status::Sat => "witness-checked".to_string(),
            _ if proofs.len() == rests_on.len() && unchecked == 0 => {
                "DRAT proof of every rung, each checked".into()
            }
            _ if proofs.len() == rests_on.len() => {
                format!("DRAT proof of every rung, {unchecked} of them unchecked")
            }
            _ if carried => "no proof; lemmas carried across calls".into(),
            _ => "no proof".into(),
        };
        Some(PeriodResult {
            pattern_period: period,
            pattern,
            how: format!(
                "{}bounds ladder: rung below {} answered by CaDiCaL ({} rungs; {proof})",
                if primitive_question {
                    "primitive by "
                } else {
                    ""
                },
                last.below,
                self.rungs.len()
            ),
            solver: Some(SolverKind::Cadical),
            seconds: self.rungs.iter().map(|r| r.seconds).sum(),
            variables: e.cnf.num_vars as u64,
            clauses: e.cnf.num_clauses as u64,
            proofs,
            ..PeriodResult::bare(self.p as u64, feasible_status, primitive_status)
        })
    }
}

fn is_zero(v: &Value) -> bool {
    *v == 0
}

fn is_zero_count(n: &usize) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::values::ExactGenerator;

    /// The two halves of a cut at one value, low first.
    fn halves(cut: Cut) -> [Half; 2] {
        cut.parts()
            .try_into()
            .expect("a cut at one value has two halves")
    }

    fn officers(p: usize) -> PeriodEncoding {
        let mut g = ExactGenerator::new(&Game::officers());
        g.extend_to(1 << 12).unwrap();
        let rares: Vec<(u64, Value)> = g.rares().map(|(n, v)| (n as u64, v)).collect();
        PeriodEncoding::new(&Game::officers(), g.space(), &rares, p).unwrap()
    }

    #[test]
    fn a_rung_bounds_every_residue_by_the_largest_common_value_below_it() {
        let e = officers(4);
        // Officers' common values start 2, 3, 4, 5, 8, 9 (6 and 7 are rare): below 8, or 6,
        // are bytes 0..=3.
        assert_eq!(e.expand(&[3, 4]), vec![5, 8]);
        let units = rung_units(&e, 8).unwrap();
        assert_eq!(units, (0..4).map(|r| e.at_most(r, 3)).collect::<Vec<_>>());
        assert_eq!(rung_units(&e, 6).unwrap(), units);
        assert!(rung_units(&e, WHOLE_QUESTION).unwrap().is_empty());
        assert!(rung_units(&e, 2).is_err());
    }

    /// A rung of one try with no proof, pieces or lemmas, for ladders built by hand (here and
    /// in `report.rs`).
    pub(super) fn plain_rung(from: Value, below: Value, answer: RungAnswer) -> Rung {
        Rung {
            from,
            below,
            largest_first: from > 0,
            threads: 0,
            answer,
            seconds: 1.0,
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
        }
    }

    #[test]
    fn a_band_counts_only_once_a_chain_of_refuted_rungs_reaches_its_floor() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let rung = plain_rung;
        ladder.rungs = vec![
            rung(0, 64, RungAnswer::Unsat),
            rung(80, 96, RungAnswer::Unsat),
            rung(64, 72, RungAnswer::Unsat),
            rung(72, 80, RungAnswer::Timeout),
        ];
        // 80..96 floats above the gap 72..80, which no rung refuted.
        assert_eq!(ladder.refuted_below(), Some(72));
        ladder.rungs.push(rung(72, 80, RungAnswer::Unsat));
        assert_eq!(ladder.refuted_below(), Some(96));
        assert_eq!(ladder.chain().len(), 4);
        // A band above nothing refuted proves nothing.
        ladder.rungs.retain(|r| r.from > 0);
        assert_eq!(ladder.refuted_below(), None);
    }

    /// A proof note that rate accepted (its files named only).
    fn checked_note() -> ProofNote {
        ProofNote {
            cnf: "c".into(),
            proof: "d".into(),
            format: "drat".into(),
            checked_by: Some("rate".into()),
        }
    }

    /// A piece (or half) of a second, with no proof or lemmas.
    fn proof_piece(top: Value, half: Option<Half>) -> ProofPiece {
        ProofPiece {
            top,
            seconds: 1.0,
            proof: None,
            lemmas: 0,
            half,
        }
    }

    /// A cut at several values makes parts that run from 0 to no end, named by their spans,
    /// and a cut at one value its two halves as before (so old ladders read the same). A piece
    /// is refuted by parts of one residue whose spans join from 0 to no end, from one cut or
    /// several: not with a gap, nor with parts of another residue. Its pieces refuted beyond
    /// the whole ones are counted in parts, of how many pieces. Mutations: a gap ignored, or
    /// residues mixed (tried: each fails here).
    #[test]
    fn parts_of_cuts_refute_a_piece_only_when_their_spans_join() {
        let three = Cut {
            residue: 1,
            at: 16,
            above: vec![48],
        }
        .parts();
        let named: Vec<String> = three.iter().map(ToString::to_string).collect();
        assert_eq!(named, ["s[1] < 16", "16 <= s[1] < 48", "s[1] >= 48"]);
        let [low, high] = halves(Cut::new(1, 64));
        assert_eq!(
            (low.below, high.below, low.high, high.high),
            (None, None, false, true)
        );
        let rung_of = |parts: &[Half]| Rung {
            pieces: (parts.iter()).map(|&h| proof_piece(8, Some(h))).collect(),
            ..plain_rung(0, 16, RungAnswer::Timeout)
        };
        assert!(rung_of(&three).covers(8));
        assert!(!rung_of(&[three[0], three[2]]).covers(8));
        assert!(!rung_of(&three[1..]).covers(8));
        assert!(rung_of(&[low, three[2]]).covers(8));
        assert!(rung_of(&[three[0], three[1], halves(Cut::new(1, 48))[1]]).covers(8));
        assert!(!rung_of(&[three[0], three[1], halves(Cut::new(2, 48))[1]]).covers(8));
        let mut two_pieces = rung_of(&three[..2]);
        two_pieces.pieces.push(proof_piece(10, Some(three[2])));
        let refuted = two_pieces.pieces_refuted();
        assert_eq!(
            (refuted.whole, refuted.halves, refuted.finer, refuted.of),
            (0, 3, true, 2)
        );
        assert_eq!(
            refuted.to_string(),
            "0 pieces of it refuted and 3 parts of 2 others"
        );
    }

    /// A part needs no call once parts refuted hold each of its values, from one cut or
    /// several: a part below 32 or from 32 below 64 under a refuted half below 64, a part from 96
    /// on under parts from 96 below 128 and from 128 on; not a part reaching over a gap, nor one
    /// of another residue or another piece.
    #[test]
    fn a_part_inside_refuted_parts_needs_no_call() {
        let part = |at, below| Half {
            residue: 1,
            at,
            high: at > 0,
            below,
        };
        let (low, mid, top) = (part(64, None), part(96, Some(128)), part(128, None));
        let low = Half { high: false, ..low };
        let rung = Rung {
            pieces: [low, mid, top].map(|h| proof_piece(8, Some(h))).into(),
            ..plain_rung(0, 16, RungAnswer::Timeout)
        };
        let needs_no_call = |h: Half| rung.has_piece(8, Some(h));
        let below_32 = Half {
            high: false,
            ..part(32, None)
        };
        assert!(needs_no_call(below_32) && needs_no_call(part(32, Some(64))));
        assert!(needs_no_call(low) && needs_no_call(part(96, None)));
        assert!(needs_no_call(part(100, Some(120))) && needs_no_call(part(130, None)));
        assert!(!needs_no_call(part(64, Some(96))) && !needs_no_call(part(32, Some(100))));
        assert!(!needs_no_call(part(64, None)) && !needs_no_call(part(80, Some(97))));
        assert!(!rung.has_piece(
            8,
            Some(Half {
                residue: 2,
                ..below_32
            })
        ));
        assert!(!rung.has_piece(9, Some(below_32)) && !rung.has_piece(8, None));
    }

    /// The summary counts what `--prove-chain` checked of rungs not proved yet: a value covered
    /// by a checked piece or by both checked halves of a cut is one piece, a checked half alone
    /// is a half, and an unchecked half (the climb's) is not counted.
    #[test]
    fn the_summary_counts_checked_pieces_and_halves_of_unproved_rungs() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let checked = Some(checked_note());
        let [low, high] = halves(Cut::new(1, 64));
        let piece = |top, half, proof: &Option<ProofNote>| ProofPiece {
            proof: proof.clone(),
            ..proof_piece(top, half)
        };
        ladder.rungs = vec![Rung {
            pieces: vec![
                piece(2, Some(low), &checked),
                piece(2, Some(high), &checked),
                piece(3, Some(low), &checked),
                piece(4, None, &checked),
                piece(5, Some(high), &None),
            ],
            ..plain_rung(0, 8, RungAnswer::Unsat)
        }];
        let line = ladder.summary_line();
        assert!(
            line.contains("and 2 pieces and 1 half of the others"),
            "{line}"
        );
    }

    /// The lemmas kept for an open band are the latest record of each call's file over the
    /// band's tries, less those of a piece refuted since.
    #[test]
    fn the_summary_counts_the_lemmas_kept_for_the_open_band() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let kept = |top, clauses, file: &str| KeptLemmas {
            top: Some(top),
            half: None,
            clauses,
            by_length: Vec::new(),
            units_before: Vec::new(),
            seconds: Vec::new(),
            file: file.into(),
        };
        let rung = |from, answer, kept| Rung {
            kept,
            ..plain_rung(from, from + 8, answer)
        };
        ladder.rungs = vec![
            rung(0, RungAnswer::Unsat, vec![]),
            rung(8, RungAnswer::Timeout, vec![kept(10, 1000, "a")]),
            rung(
                8,
                RungAnswer::Timeout,
                vec![kept(10, 30, "a"), kept(11, 5, "c")],
            ),
        ];
        let line = ladder.summary_line();
        assert!(line.contains("2 stopped calls kept 35 lemmas"), "{line}");
        ladder.rungs[2].pieces.push(ProofPiece {
            top: 11,
            seconds: 1.0,
            proof: None,
            lemmas: 0,
            half: None,
        });
        let line = ladder.summary_line();
        assert!(line.contains("1 stopped call kept 30 lemmas"), "{line}");
        ladder.rungs.push(rung(8, RungAnswer::Unsat, vec![]));
        assert!(!ladder.summary_line().contains("kept"));
    }

    /// A call's file kept try after try: its record moves to the latest try, and lists the
    /// units its file held when each try started and the seconds of each try, after those of
    /// the record before (one of an earlier build, with no counts, has no list to go on from),
    /// which the table and summary show; a call that started afresh (its file lost) starts the
    /// lists again, and a piece refuted drops its record. Mutation: a list that drops the
    /// earlier record's, or keeps it for a call started afresh, or a record per try (the
    /// summary would count more calls); the seconds not chained.
    #[test]
    fn the_units_of_a_piece_s_file_are_followed_from_try_to_try() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let band = Band { from: 8, below: 16 };
        let file = |start: Option<usize>, units: usize, binary: usize| KeptLemmas {
            top: None,
            half: None,
            clauses: units + binary + 100,
            by_length: vec![units, binary, 100],
            units_before: start.into_iter().collect(),
            seconds: vec![10.0 * units as f64],
            file: "f".into(),
        };
        let old_build = KeptLemmas {
            by_length: Vec::new(),
            seconds: Vec::new(),
            ..file(None, 2, 0)
        };
        ladder.rungs = vec![plain_rung(0, 8, RungAnswer::Unsat)];
        let tries = [
            old_build,
            file(Some(2), 4, 50),
            file(Some(4), 9, 70),
            file(Some(9), 12, 80),
        ];
        for (i, kept) in tries.into_iter().enumerate() {
            ladder.rungs.push(plain_rung(8, 16, RungAnswer::Timeout));
            ladder.keep_lemmas(band, i + 1, (Some(10), None), kept);
        }
        let records: Vec<&KeptLemmas> = ladder.rungs.iter().flat_map(|r| &r.kept).collect();
        assert_eq!(records.len(), 1, "{records:?}");
        assert_eq!(
            (records[0].units_before.clone(), records[0].clauses),
            (vec![2, 4, 9], 192)
        );
        assert_eq!(
            records[0].growth_words(),
            " (units by try 2, 4, 9, 12; 80 binary; 250 s in the last 3 tries)"
        );
        let line = ladder.summary_line();
        assert!(
            line.contains("1 stopped call kept 192 lemmas (12 of them units) for the next run"),
            "{line}"
        );
        let table = ladder.rung_table().join("\n");
        assert!(
            table.contains("192 lemmas kept for s[0] = 10 (units by try 2, 4, 9, 12; 80 binary;"),
            "{table}"
        );
        // Another piece's first record, and then its file lost: no tries before either time;
        // the summary adds both pieces' units.
        let last = ladder.rungs.len() - 1;
        ladder.keep_lemmas(band, last, (Some(11), None), file(None, 3, 20));
        ladder.keep_lemmas(band, last, (Some(11), None), file(None, 5, 10));
        let cell = ladder.rung_table().join("\n");
        assert!(
            cell.contains("; s[0] = 11 (5 units, 10 binary; 50 s in the last try) |"),
            "{cell}"
        );
        assert!(
            ladder
                .summary_line()
                .contains("2 stopped calls kept 307 lemmas (17 of them")
        );
        ladder.forget_kept(band, Some((Some(10), None)));
        ladder.forget_kept(band, Some((Some(11), None)));
        assert!(!ladder.summary_line().contains("kept"));
    }

    /// A refuted part forgets the kept files of the calls the try holds now: its own, those of
    /// finer parts inside it, and, once parts cover the piece, the whole piece's (of every try
    /// of the band); not those of a part it does not cover, nor another piece's, nor another
    /// band's. Mutations: only the refuted call's own record forgotten (the piece's file kept
    /// after its parts cover it); a record of a part outside the refuted ones forgotten.
    #[test]
    fn a_refuted_part_forgets_the_files_of_the_calls_it_holds() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let band = Band { from: 8, below: 16 };
        let file = |name: &str| KeptLemmas {
            top: None,
            half: None,
            clauses: 1,
            by_length: vec![1],
            units_before: Vec::new(),
            seconds: Vec::new(),
            file: name.into(),
        };
        let part = |at, high, below| Half {
            residue: 1,
            at,
            high,
            below,
        };
        let (low, mid, top) = (
            part(16, false, None),
            part(16, true, Some(48)),
            part(48, true, None),
        );
        let inside_low = part(8, false, None);
        ladder.rungs = vec![
            plain_rung(8, 16, RungAnswer::Timeout),
            plain_rung(8, 16, RungAnswer::Timeout),
            plain_rung(16, 24, RungAnswer::Timeout),
        ];
        ladder.keep_lemmas(band, 0, (Some(10), None), file("piece10.lemmas"));
        ladder.keep_lemmas(band, 1, (Some(10), Some(inside_low)), file("low8.lemmas"));
        ladder.keep_lemmas(band, 1, (Some(10), Some(mid)), file("mid.lemmas"));
        ladder.keep_lemmas(band, 1, (Some(11), None), file("piece11.lemmas"));
        let other = Band {
            from: 16,
            below: 24,
        };
        ladder.keep_lemmas(other, 2, (Some(10), None), file("other-band.lemmas"));
        let refute = |ladder: &mut Ladder, half| {
            ladder.rungs[1].pieces.push(proof_piece(10, Some(half)));
            ladder.forget_kept_held(band, 1)
        };
        assert_eq!(refute(&mut ladder, low), ["low8.lemmas"]);
        assert_eq!(refute(&mut ladder, top), Vec::<String>::new());
        assert_eq!(refute(&mut ladder, mid), ["mid.lemmas", "piece10.lemmas"]);
        let left: Vec<&str> = (ladder.rungs.iter())
            .flat_map(|r| r.kept.iter().map(|k| k.file.as_str()))
            .collect();
        assert_eq!(left, ["piece11.lemmas", "other-band.lemmas"]);
    }

    /// A piece asked on two seeds (copies joined by a merge) has a file of each, both given to
    /// its next call: a new save of one supersedes that file's record alone (its units list
    /// going on), the table shows the piece once with both files, and the summary counts both
    /// calls; a file of another CNF (an earlier encoding, which no call of this one is given)
    /// goes at the next save. Mutations: records keyed by piece alone (one file shown); other
    /// CNFs' files kept.
    #[test]
    fn a_piece_keeps_a_file_for_each_seed_of_its_cnf() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let band = Band { from: 8, below: 16 };
        let file = |name: &str, start: Option<usize>, units: usize| KeptLemmas {
            top: None,
            half: None,
            clauses: units + 10,
            by_length: vec![units, 10],
            units_before: start.into_iter().collect(),
            seconds: Vec::new(),
            file: name.into(),
        };
        ladder.rungs = vec![
            plain_rung(0, 8, RungAnswer::Unsat),
            plain_rung(8, 16, RungAnswer::Timeout),
        ];
        let piece = (Some(10), None);
        ladder.keep_lemmas(band, 1, piece, file("q-v1c2-seed0.lemmas", None, 3));
        ladder.keep_lemmas(band, 1, piece, file("q-v1c2-seed1.lemmas", None, 4));
        ladder.keep_lemmas(band, 1, piece, file("q-v1c2-seed0.lemmas", Some(3), 5));
        let files: Vec<&str> = (ladder.kept_lemmas(band).iter())
            .map(|k| k.file.as_str())
            .collect();
        assert_eq!(files, ["q-v1c2-seed1.lemmas", "q-v1c2-seed0.lemmas"]);
        let table = ladder.rung_table().join("\n");
        assert!(
            table.contains(
                "29 lemmas kept for s[0] = 10, 2 files (4 units, 10 binary) \
                 (units by try 3, 5; 10 binary) |"
            ),
            "{table}"
        );
        let line = ladder.summary_line();
        assert!(
            line.contains("2 stopped calls kept 29 lemmas (9 of them units)"),
            "{line}"
        );
        ladder.keep_lemmas(band, 1, piece, file("q-v7c9-seed0.lemmas", None, 1));
        let files: Vec<&str> = (ladder.kept_lemmas(band).iter())
            .map(|k| k.file.as_str())
            .collect();
        assert_eq!(files, ["q-v7c9-seed0.lemmas"]);
    }

    #[test]
    fn an_answer_resting_on_lemmas_says_so() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let rung = |from, below, lemmas| Rung {
            lemmas,
            ..plain_rung(from, below, RungAnswer::Unsat)
        };
        ladder.rungs = vec![rung(0, 256, 0), rung(256, WHOLE_QUESTION, 0)];
        let how = |l: &Ladder| l.period_result(&e, None).unwrap().how;
        assert!(
            how(&ladder).ends_with("(2 rungs; no proof)"),
            "{}",
            how(&ladder)
        );
        // A piece of the last band given lemmas.
        ladder.rungs[1].pieces.push(ProofPiece {
            top: 300,
            seconds: 1.0,
            proof: None,
            lemmas: 7,
            half: None,
        });
        assert!(how(&ladder).contains("lemmas carried"), "{}", how(&ladder));
        // A whole rung given lemmas, off the chain: nothing the answer rests on.
        ladder.rungs[1].pieces.clear();
        ladder.rungs.push(Rung {
            answer: RungAnswer::Timeout,
            ..rung(256, WHOLE_QUESTION, 9)
        });
        assert!(!how(&ladder).contains("lemmas"), "{}", how(&ladder));
        ladder.rungs[0].lemmas = 9;
        assert!(how(&ladder).contains("lemmas carried"), "{}", how(&ladder));
        // Proofs of every rung make lemmas irrelevant, and say whether they were checked.
        let note = |checked_by: Option<&str>| ProofNote {
            cnf: "r.cnf".into(),
            proof: "r.drat".into(),
            format: "drat".into(),
            checked_by: checked_by.map(String::from),
        };
        ladder.rungs[0].proof = Some(note(Some("rate")));
        ladder.rungs[1].proof = Some(note(None));
        let said = how(&ladder);
        assert!(
            said.ends_with("DRAT proof of every rung, 1 of them unchecked)"),
            "{said}"
        );
        ladder.rungs[1].proof = Some(note(Some("rate")));
        let said = how(&ladder);
        assert!(
            said.ends_with("DRAT proof of every rung, each checked)"),
            "{said}"
        );
    }

    #[test]
    fn a_floor_is_a_unit_on_residue_0_from_the_smallest_common_value_at_or_above_it() {
        let e = officers(4);
        // Common values 2, 3, 4, 5, 8: at least 6 is byte 4 (8) or more.
        assert_eq!(floor_unit(&e, 6), Some(-e.at_most(0, 3)));
        assert_eq!(floor_unit(&e, 8), Some(-e.at_most(0, 3)));
        assert_eq!(floor_unit(&e, 0), None);
        assert_eq!(floor_unit(&e, 2), None);
    }

    /// `--prove-chain` with more than one job starts the longest calls first: a piece the climb
    /// took long over, then the rest of its band by share, then the cheap rungs below. With one
    /// job the chain goes from its foot up. Mutation: no sort (the foot first with two jobs).
    #[test]
    fn the_chain_s_calls_go_longest_first_on_more_than_one_job() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let rung = |from, seconds| Rung {
            seconds,
            ..plain_rung(from, from + 8, RungAnswer::Unsat)
        };
        ladder.rungs = vec![rung(0, 1.0), rung(8, 5.0), rung(16, 300.0)];
        // Officers' common values in 16..24 are 18 to 21: the climb refuted s[0] = 19 alone.
        ladder.rungs[2].pieces.push(ProofPiece {
            top: 19,
            seconds: 1000.0,
            proof: None,
            lemmas: 0,
            half: None,
        });
        let stop = AtomicBool::new(false);
        let run = |jobs| chain::ProveChain {
            largest_first: &e,
            question: &e,
            timeout: None,
            proof_stem: Path::new("unused"),
            checker: "unused",
            jobs,
            pieces: true,
            cut: None,
            up_to: WHOLE_QUESTION,
            stop: &stop,
            on_call: None,
        };
        let order = |jobs| {
            let calls = chain::chain_calls(&run(jobs), &ladder);
            let top = |c: &chain::ChainCall| c.top.map(|b| e.expand(&[b])[0]);
            (calls.iter())
                .map(|c| (c.band.from, top(c), c.estimated_seconds))
                .collect::<Vec<_>>()
        };
        let longest_first = order(2);
        assert_eq!(longest_first.len(), 1 + 4 + 4, "{longest_first:?}");
        assert_eq!(longest_first[0], (16, Some(19), 1000.0));
        let rest_of_band: Vec<_> = longest_first[1..4].iter().map(|c| (c.0, c.2)).collect();
        assert_eq!(rest_of_band, vec![(16, 75.0); 3]);
        assert!(longest_first[4..8].iter().all(|c| c.0 == 8 && c.2 == 1.25));
        assert_eq!(longest_first[8], (0, None, 1.0));
        let foot_first = order(1);
        assert_eq!(foot_first[0], (0, None, 1.0));
        let froms: Vec<_> = foot_first.iter().map(|c| c.0).collect();
        assert!(froms.is_sorted(), "{froms:?}");
    }

    /// `--prove-chain --pieces --cut R:V` asks two halves for each piece not proved, and none
    /// for a half proved already or a piece proved whole; each half is expected to take half
    /// the piece's time. Mutation: halves ignored (4 calls for the band), or a proved half
    /// asked again (8).
    #[test]
    fn the_chain_s_pieces_go_in_halves_under_a_cut() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let checked = Some(checked_note());
        let cut = Cut::new(1, 8);
        let [low, high] = halves(cut.clone());
        let piece = |top, half| ProofPiece {
            seconds: 10.0,
            proof: checked.clone(),
            ..proof_piece(top, half)
        };
        // The chain's foot proved; of its band 16..24 (Officers' common values there are 18 to
        // 21) 18 proved whole, 19's low half proved, 20 refuted by the climb (no proof) in
        // 40 s, 21 not yet.
        let proved = |from| Rung {
            proof: checked.clone(),
            ..plain_rung(from, from + 8, RungAnswer::Unsat)
        };
        ladder.rungs = vec![
            proved(0),
            proved(8),
            Rung {
                seconds: 100.0,
                pieces: vec![
                    piece(18, None),
                    piece(19, Some(low)),
                    ProofPiece {
                        proof: None,
                        seconds: 40.0,
                        ..piece(20, None)
                    },
                ],
                ..plain_rung(16, 24, RungAnswer::Unsat)
            },
        ];
        let stop = AtomicBool::new(false);
        let run = chain::ProveChain {
            largest_first: &e,
            question: &e,
            timeout: None,
            proof_stem: Path::new("unused"),
            checker: "unused",
            jobs: 1,
            pieces: true,
            cut: Some(cut),
            up_to: WHOLE_QUESTION,
            stop: &stop,
            on_call: None,
        };
        let calls = chain::chain_calls(&run, &ladder);
        let asked: Vec<_> = (calls.iter())
            .map(|c| (e.expand(&[c.top.unwrap()])[0], c.half, c.estimated_seconds))
            .collect();
        let share = 100.0 / 4.0 / 2.0;
        assert_eq!(
            asked,
            vec![
                (19, Some(high), share),
                (20, Some(low), 20.0),
                (20, Some(high), 20.0),
                (21, Some(low), share),
                (21, Some(high), share),
            ]
        );
        // A finer cut (below 4, from 4 below 8, from 8 on) asks nothing below 8 of 19, whose
        // half below 8 is proved. Mutation: only a part equal to a proved one skipped (3 calls).
        let finer = chain::ProveChain {
            cut: Some(Cut {
                residue: 1,
                at: 4,
                above: vec![8],
            }),
            ..run
        };
        let parts_of_19 = (chain::chain_calls(&finer, &ladder).into_iter())
            .filter(|c| e.expand(&[c.top.unwrap()])[0] == 19)
            .map(|c| c.half.map(|h| h.to_string()));
        assert_eq!(parts_of_19.collect::<Vec<_>>(), [Some("s[1] >= 8".into())]);
    }

    /// A merge says what it did, each count with its noun in number, and nothing of what it
    /// did not. Mutation: "1 rungs closed", or zeros listed.
    #[test]
    fn a_merge_says_what_it_did_in_words() {
        let merged = Merged {
            tries_added: 1,
            piece_proofs: 13,
            rungs_closed: 1,
            ..Merged::default()
        };
        assert_eq!(
            merged.to_string(),
            "1 try added, 13 checked proofs of pieces taken, 1 rung closed by its pieces"
        );
        let pattern = Merged {
            tries_went_on: 2,
            pattern_taken: true,
            ..Merged::default()
        };
        assert_eq!(
            pattern.to_string(),
            "2 tries taken in their later state, its pattern taken"
        );
        assert_eq!(Merged::default().to_string(), "nothing new");
    }
}
