//! The pieces of a band: one value of its largest value, `s[0]`, each, and the halves and parts
//! of a piece cut again on another residue; which pieces a rung's records refute, and in words.

use serde::{Deserialize, Serialize};

use super::{RunShare, Rung, floor_byte, is_zero_count, plural};
use crate::sat::encode::PeriodEncoding;
use crate::sat::solve::ProofNote;
use crate::values::Value;

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

    /// This cut with each of `parts` (of its residue) cut in two at its middle common value:
    /// of the values of `common` (the common values `s[residue]` can take, ascending) inside
    /// the part, the one at half their count, so that each half holds one at least (a cut
    /// [`Half::units`] accepts). `None` when no part holds two. Why by count, not by the
    /// middle of the span: the last part of a cut has no end but the band's, and rare values
    /// leave gaps (a cut at 172 and 174 leaves nothing between: 172 and 173 are rare).
    pub fn halved(&self, parts: &[Half], common: &[Value]) -> Option<Cut> {
        let mut values: Vec<Value> = self.values().collect();
        let before = values.len();
        for part in parts.iter().filter(|h| h.residue == self.residue) {
            let (from, end) = part.span();
            let held: Vec<Value> = (common.iter().copied())
                .filter(|&v| v >= from && end.is_none_or(|end| v < end))
                .collect();
            if held.len() >= 2 {
                values.push(held[held.len() / 2]);
            }
        }
        values.sort_unstable();
        values.dedup();
        let (&at, above) = values.split_first()?;
        (values.len() > before).then(|| Cut {
            residue: self.residue,
            at,
            above: above.to_vec(),
        })
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
    /// When the call that refuted it (and proved it, with a proof) ended, in UTC to the second
    /// ([`ended_now`]); absent in the records of builds before 2026-12-06. Why: a chain runs for
    /// weeks over machines and stops, and which parts were proved when (on which run, beside
    /// what) was otherwise kept only in notes written by hand, and lost with a stop that wrote
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<chrono::DateTime<chrono::Utc>>,
}

/// The time now, in UTC to the second: a piece's [`ProofPiece::ended`].
pub fn ended_now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound;
    chrono::Utc::now().trunc_subsecs(0)
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
    pub(super) fn span(&self) -> (Value, Option<Value>) {
        match self.high {
            false => (0, Some(self.at)),
            true => (self.at, self.below),
        }
    }

    /// Whether every value of `part` is one of this part's: the same residue, and its span
    /// inside this one's (`s[13] >= 64` holds `96 <= s[13] < 120`, and itself). Why: a call
    /// on the larger part asks a CNF that the smaller part's CNF implies (its units imply the
    /// larger's through the order of the encoding), so the clauses it learned hold for it.
    pub fn holds(&self, part: &Half) -> bool {
        let ((from, end), (part_from, part_end)) = (self.span(), part.span());
        let ends_inside = match (end, part_end) {
            (None, _) => true,
            (Some(end), Some(part_end)) => part_end <= end,
            (Some(_), None) => false,
        };
        self.residue == part.residue && from <= part_from && ends_inside
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
                "no common value of s[{}] from {} below {end} ({}): no part to ask; leave out \
                 the cut at {} or at {end}",
                self.residue,
                self.at,
                rare_words(self.at, end),
                self.at
            )),
            Some(c) => Ok(vec![-below_at, e.at_most(self.residue, usize::from(c) - 1)]),
            None => Ok(vec![-below_at]),
        }
    }
}

/// The values from `from` below `end`, all rare, in words for the line that refuses a part
/// of none: "170 and 171 are rare" (p = 39's 168..172 cut at 170, 2026-12-07, where the cure
/// was a cut at 169), or "its 4 values are rare" when there are more than two.
fn rare_words(from: Value, end: Value) -> String {
    match end.saturating_sub(from) {
        1 => format!("{from} is rare"),
        2 => format!("{from} and {} are rare", from + 1),
        n => format!("its {n} values are rare"),
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
    pub(super) fn covers_with(&self, top: Value, counts: impl Fn(&ProofPiece) -> bool) -> bool {
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

    /// Adds `seconds` that the run named `run` (asking in turn or not) spent on this try, to
    /// its share and the total.
    pub(super) fn add_seconds(&mut self, (run, in_turn): (&str, bool), seconds: f64) {
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
    pub(super) fn covers_part_with(
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
    /// "K pieces of it refuted", and " and H halves of another" (or " of K others") when
    /// there are such; "parts" for halves when some are parts of a finer cut. Why count the
    /// pieces: two halves of one piece are not two halves of two pieces.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} of it refuted", plural(self.whole, "piece", "pieces"))?;
        let (one, many) = match self.finer {
            false => ("half", "halves"),
            true => ("part", "parts"),
        };
        match (self.halves, self.of) {
            (0, _) => Ok(()),
            (h, 1) => write!(f, " and {} of another", plural(h, one, many)),
            (h, k) => write!(f, " and {h} {many} of {k} others"),
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
