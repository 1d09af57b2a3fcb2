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
*/

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::encode::PeriodEncoding;
use super::solve::{Answer, CadicalRun, Preset, ProofNote, SolverKind, solve_cadical_with};
use crate::values::Value;

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
    /// `seconds` is wall-clock either way.
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
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub lemmas: usize,
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
}

impl Rung {
    /// Whether an independent checker accepted this rung's proof (a DRAT proof of its CNF, or
    /// the certificate of the cube campaign that answered it).
    pub fn has_checked_proof(&self) -> bool {
        self.proof.as_ref().is_some_and(|n| n.checked_by.is_some())
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
            // A band climbed in pieces: how far it got.
            let pieces = match tries().map(|r| r.pieces.len()).max() {
                Some(k) if k > 0 => format!(", {k} pieces of it refuted"),
                _ => String::new(),
            };
            format!("; below {below}: no answer in {longest:.0} s{pieces}")
        });
        let proved = match self.chain_proved() {
            (0, _) => String::new(),
            (n, k) => format!("; {k} of the {n} rungs it rests on with a checked proof"),
        };
        // Checked pieces of rungs not proved yet (`--prove-chain --pieces`).
        let unclosed = self.chain().into_iter().filter(|r| !r.has_checked_proof());
        let pieces: usize = unclosed
            .flat_map(|r| r.pieces.iter().filter(|p| r.has_checked_piece(p.top)))
            .count();
        let proved = match pieces {
            0 => proved,
            k => format!("{proved}, and {k} pieces of the others"),
        };
        format!(
            "{refuted}{found}{open} ({} rungs, {seconds:.0} s{proved})",
            self.rungs.len()
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

/// How the rungs run.
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
    /// CaDiCaL's seed (0: its default). A rung with a proof runs with the default.
    pub seed: u32,
    /// CaDiCaL's configuration. A rung with a proof runs with the default.
    pub preset: Preset,
    pub stop: &'a AtomicBool,
    /// Certify every UNSAT rung here (`<stem>-below<V>.cnf` and `.drat`).
    pub proof_stem: Option<PathBuf>,
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
    /// (a piece stopped and asked by the next run) starts with them ([`super::lemmas`]).
    pub lemma_stem: Option<PathBuf>,
    pub lemma_every: Duration,
}

/// Climbs `bounds` (rising; those at or below the ladder's highest refuted bound, and those
/// above a pattern it has, are skipped) until a rung has a pattern or no answer, or the bounds
/// run out. A pattern replaces one with a larger largest value, so a finer ladder between the
/// highest refuted bound and a pattern's largest value narrows down the least largest value.
/// `check` turns a model's bytes into a checked pattern; `after_rung` sees the ladder after every
/// rung (to save it), and after every piece of one (told so) with [`Climb::pieces`].
///
/// # Errors
/// A line for a solver failure, a model that fails the check, or `after_rung`'s error.
pub fn climb(
    run: &Climb,
    ladder: &mut Ladder,
    bounds: &[Value],
    check: &super::cubes::WitnessCheck,
    after_rung: &mut dyn FnMut(&Ladder, bool) -> Result<(), String>,
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
        let mut units = rung_units(e, below)?;
        if run.largest_first {
            units.extend(floor_unit(e, from));
        }
        if run.pieces && run.largest_first {
            let band = Band { from, below };
            if rung_in_pieces(run, ladder, band, &units, check, after_rung)? == RungAnswer::Timeout
            {
                break;
            }
            continue;
        }
        let started = Instant::now();
        let split = run.largest_first && run.threads > 1;
        let asked = match &mut incremental {
            Some(solver) => Asked::plain(solver.rung(&units, run.timeout)?),
            None if split => Asked::plain(split_rung(run, &units, (from, below))?),
            None => fresh_rung(run, &units, ((from, below), None), run.stop)?,
        };
        let Asked {
            answer,
            proof,
            lemmas,
        } = asked;
        let answer = match answer {
            Answer::Unsat => RungAnswer::Unsat,
            Answer::Timeout => RungAnswer::Timeout,
            Answer::Sat(model) => {
                ladder.pattern = Some(rung_pattern(check, &e.bytes(&model), (from, below))?);
                RungAnswer::Sat
            }
        };
        ladder.rungs.push(Rung {
            from,
            below,
            largest_first: run.largest_first,
            threads: if split { run.threads } else { 0 },
            answer,
            seconds: started.elapsed().as_secs_f64(),
            proof,
            cubes: None,
            pieces: Vec::new(),
            lemmas,
            preset: run.preset_kept(),
        });
        after_rung(ladder, false)?;
        if answer == RungAnswer::Timeout {
            break;
        }
    }
    Ok(())
}

/// The band asked in pieces ([`Climb::pieces`]): one fresh CaDiCaL call per byte of `s[0]` not
/// refuted yet, lowest first, `run.threads` at once, each refuted one saved in the rung
/// (`after_rung` sees the ladder after each, told it was a piece). The rung continued is the
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
    check: &super::cubes::WitnessCheck,
    after_rung: &mut dyn FnMut(&Ladder, bool) -> Result<(), String>,
) -> Result<RungAnswer, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let e = run.encoding;
    let index = rung_to_continue(run, ladder, band);
    let refuted = |c: &u8| (ladder.rungs[index].pieces.iter()).any(|p| p.top == e.expand(&[*c])[0]);
    let todo: Vec<u8> = band_tops(e, band)
        .into_iter()
        .filter(|c| !refuted(c))
        .collect();
    let mut answer = RungAnswer::Unsat;
    let mut mark = Instant::now();
    let take = |&top: &u8, outcome: PieceOutcome, seconds: Duration, halt: &AtomicBool| {
        // Wall-clock time, whatever the threads.
        ladder.rungs[index].seconds += mark.elapsed().as_secs_f64();
        mark = Instant::now();
        let Asked {
            answer: said,
            proof,
            lemmas,
        } = outcome?;
        match said {
            Answer::Unsat => {
                let top = e.expand(&[top])[0];
                let seconds = seconds.as_secs_f64();
                let piece = ProofPiece {
                    top,
                    seconds,
                    proof,
                    lemmas,
                };
                ladder.rungs[index].pieces.push(piece);
                after_rung(ladder, true)
            }
            Answer::Timeout => {
                // A pattern found beside it answers the band all the same.
                if answer == RungAnswer::Unsat {
                    answer = RungAnswer::Timeout;
                }
                Ok(())
            }
            Answer::Sat(model) => {
                halt.store(true, Relaxed);
                answer = RungAnswer::Sat;
                keep_pattern(ladder, check, &e.bytes(&model), band)
            }
        }
    };
    let ask = |&top: &u8, halt: &AtomicBool| ask_piece(run, band, units, top, halt);
    super::side_by_side::ask_side_by_side(&todo, run.threads, run.stop, ask, not_refuted, take)?;
    let rung = &mut ladder.rungs[index];
    rung.answer = answer;
    if let (RungAnswer::Unsat, Some(stem)) = (answer, &run.proof_stem) {
        rung.close_pieces(e, stem);
    }
    after_rung(ladder, false)?;
    Ok(answer)
}

/// What one fresh CaDiCaL call of a rung or piece answered, with the note of its proof when it
/// wrote one and the count of lemmas it was given when it carried them.
struct Asked {
    answer: Answer,
    proof: Option<ProofNote>,
    lemmas: usize,
}

impl Asked {
    /// An answer with no proof and no lemmas.
    fn plain(answer: Answer) -> Asked {
        Asked {
            answer,
            proof: None,
            lemmas: 0,
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
            from: band.from,
            below: band.below,
            largest_first: true,
            threads: 0,
            answer: RungAnswer::Timeout,
            seconds: 0.0,
            proof: None,
            cubes: None,
            preset: run.preset_kept(),
            pieces: Vec::new(),
            lemmas: 0,
        },
    };
    ladder.rungs.push(Rung {
        threads: if run.threads > 1 {
            run.threads
        } else {
            rung.threads
        },
        ..rung
    });
    ladder.rungs.len() - 1
}

/// One piece of `band`: the rung's `units` and `s[0]` at byte `top`, in a fresh CaDiCaL that
/// ends when `stop` rises.
fn ask_piece(run: &Climb, band: Band, units: &[i32], top: u8, stop: &AtomicBool) -> PieceOutcome {
    let e = run.encoding;
    let piece_units: Vec<i32> = units.iter().copied().chain([e.x(0, top.into())]).collect();
    let piece = Some(e.expand(&[top])[0]);
    fresh_rung(run, &piece_units, ((band.from, band.below), piece), stop)
}

/// A model of a piece of `band`, witness-checked and inside the band, kept as the ladder's
/// pattern unless it has one with a smaller largest value.
fn keep_pattern(
    ladder: &mut Ladder,
    check: &super::cubes::WitnessCheck,
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
    /// The preset a rung records: CaDiCaL's default when it writes a proof.
    fn preset_kept(&self) -> Preset {
        match self.proof_stem {
            Some(_) => Preset::Default,
            None => self.preset,
        }
    }
}

/// The band of a rung and, for a piece of it, the value of `s[0]` it fixes.
type RungOrPiece = ((Value, Value), Option<Value>);

/// The files of a rung, or of its piece ([`RungOrPiece`]), named from a climb's `stem` (of
/// proofs or lemmas).
fn rung_stem_of(stem: &Path, ((from, below), top): RungOrPiece) -> PathBuf {
    let stem = rung_stem(stem, from, below);
    match top {
        Some(top) => piece_stem(&stem, top),
        None => stem,
    }
}

/// The stem of a piece's files beside its rung's.
fn piece_stem(rung_stem: &Path, top: Value) -> PathBuf {
    PathBuf::from(format!("{}-s0-{top}", rung_stem.display()))
}

/// The pattern of a rung's model (its bytes), witness-checked and inside the rung: every value
/// below `below`, and one at least `from` (a pattern with all below is one the ladder refutes).
fn rung_pattern(
    check: &super::cubes::WitnessCheck,
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
/// an UNSAT answer at `stem` when the climb asks for one.
fn fresh_rung(run: &Climb, units: &[i32], which: RungOrPiece, stop: &AtomicBool) -> PieceOutcome {
    let cnf = with_units(run.encoding, units);
    if let Some(stem) = &run.proof_stem {
        let checker = super::solve::drat_checker_from_env();
        let stem = rung_stem_of(stem, which);
        return asked_with_proof(&cnf, run.timeout, &stem, checker.as_deref(), stop);
    }
    let Some(stem) = &run.lemma_stem else {
        return Ok(Asked::plain(cadical(run, &cnf, run.timeout, stop, None)?));
    };
    let stem = rung_stem_of(stem, which);
    let (dir, name) = (
        stem.parent().unwrap_or(Path::new(".")),
        crate::io::file_name(&stem),
    );
    let store = super::lemmas::LemmaStore::new(dir, &name, &cnf);
    let every = run.lemma_every;
    let ask = |carry: &_| cadical(run, &cnf, run.timeout, stop, Some(carry));
    let (answer, carried) =
        super::lemmas::carrying(&store, run.seed.into(), every, ask).map_err(|e| e.to_string())?;
    Ok(Asked {
        answer: answer?,
        proof: None,
        lemmas: carried.given,
    })
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

/// How [`prove_chain`] runs.
pub struct ProveChain<'a> {
    /// The encoding of rungs with a largest value first (bands), and the question's own (whole
    /// rungs of earlier builds, with a smallest value first or every rotation).
    pub largest_first: &'a PeriodEncoding,
    pub question: &'a PeriodEncoding,
    /// Seconds a call may take (a rung, or a piece of one).
    pub timeout: Option<Duration>,
    /// Where each rung's CNF and DRAT proof go (`<stem>-below<V>` or `<stem>-from<F>-below<V>`,
    /// and `-s0-<value>` after it for a piece).
    pub proof_stem: &'a Path,
    /// The DRAT checker's command ([`super::solve::check_drat_proof`]).
    pub checker: &'a str,
    /// Calls made at once, each its own CaDiCaL and checker (1: one after another). The rungs
    /// of a chain, and the pieces of a rung, are independent questions, so a machine with cores
    /// (and disk for their proofs) to spare proves them side by side.
    pub jobs: usize,
    /// Bands are proved in pieces, one call per byte of their largest value ([`ProofPiece`]),
    /// each saved as it is checked; pieces proved by an earlier run are not asked again.
    pub pieces: bool,
    /// Stop (the calls running keep no proof) when this rises.
    pub stop: &'a AtomicBool,
}

/// One solver call of [`prove_chain`]: the rung (its index in the ladder) and the band it asks,
/// and for a piece the byte of `s[0]` it fixes. `share` is its part of the rung (1, or one over
/// the band's bytes for a piece), to weigh it in a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChainCall {
    pub index: usize,
    pub band: Band,
    pub largest_first: bool,
    pub top: Option<u8>,
    pub share: f64,
}

/// The calls [`prove_chain`] makes, lowest rung first: one for each rung of the chain with no
/// checked proof (less bands answered by cube campaigns, which `sat cubes --certify` proves),
/// or with `run.pieces` one for each byte of a band's largest value with no checked piece yet.
pub fn chain_calls(run: &ProveChain, ladder: &Ladder) -> Vec<ChainCall> {
    let mut calls = Vec::new();
    for index in ladder.chain_indices_to_prove() {
        let rung = &ladder.rungs[index];
        let band = Band {
            from: rung.from,
            below: rung.below,
        };
        let whole = ChainCall {
            index,
            band,
            largest_first: rung.largest_first,
            top: None,
            share: 1.0,
        };
        if !(run.pieces && rung.largest_first) {
            calls.push(whole);
            continue;
        }
        let e = run.largest_first;
        let tops = band_tops(e, band);
        let share = 1.0 / tops.len().max(1) as f64;
        let proved = |c: &u8| rung.has_checked_piece(e.expand(&[*c])[0]);
        let pieces = tops.iter().filter(|c| !proved(c));
        calls.extend(pieces.map(|&c| ChainCall {
            top: Some(c),
            share,
            ..whole
        }));
    }
    calls
}

impl Rung {
    /// Whether a piece with its largest value at `top` has a checked proof.
    fn has_checked_piece(&self, top: Value) -> bool {
        let checked =
            |piece: &ProofPiece| piece.proof.as_ref().is_some_and(|n| n.checked_by.is_some());
        (self.pieces.iter()).any(|piece| piece.top == top && checked(piece))
    }

    /// Gives a band whose checked pieces cover every byte of `s[0]` in it its proof: a note
    /// naming the pieces and their checkers. Returns whether it did.
    fn close_pieces(&mut self, e: &PeriodEncoding, stem: &Path) -> bool {
        let band = Band {
            from: self.from,
            below: self.below,
        };
        let tops = band_tops(e, band);
        if self.has_checked_proof()
            || !tops
                .iter()
                .all(|&c| self.has_checked_piece(e.expand(&[c])[0]))
        {
            return false;
        }
        let mut checkers: Vec<&str> = (self.pieces.iter())
            .filter_map(|piece| piece.proof.as_ref()?.checked_by.as_deref())
            .collect();
        checkers.sort_unstable();
        checkers.dedup();
        let name = crate::io::file_name(&rung_stem(stem, self.from, self.below));
        self.proof = Some(ProofNote {
            cnf: format!("{name}-s0-*.cnf"),
            proof: format!("{name}-s0-*.drat"),
            format: format!(
                "drat in {} pieces, one per value of s[0] (the largest), removed once checked",
                tops.len()
            ),
            checked_by: Some(checkers.join(" and ")),
        });
        true
    }
}

/// Gives every UNSAT rung the ladder's bound rests on ([`Ladder::chain`]) that has no checked
/// proof a DRAT proof: the rung (or each of its pieces, [`ProveChain::pieces`]) asked again in a
/// fresh CaDiCaL on its own CNF, the proof checked by the command in `GRUNDY_DRAT_CHECKER`
/// ([`super::solve::solve_with_proof`]). Makes `calls` (those of [`chain_calls`] for this
/// ladder), `run.jobs` at once; `after_call` sees the ladder after each (to save it, and say so)
/// with the seconds the call took. After a call with no answer in `timeout` (it keeps no proof)
/// no further call starts; those running end as they would.
///
/// # Errors
/// A line if a rung that the ladder says is UNSAT has a model now (the ladder is wrong: the
/// calls still running are stopped), or the solver, the checker or `after_call` fails.
pub fn prove_chain(
    run: &ProveChain,
    ladder: &mut Ladder,
    calls: &[ChainCall],
    after_call: &mut dyn FnMut(&Ladder, &ChainCall, Duration) -> Result<(), String>,
) -> Result<ChainProofs, String> {
    use std::sync::atomic::Ordering::Relaxed;
    let cube_bands = (ladder.chain().into_iter())
        .filter(|r| r.cubes.is_some() && !r.has_checked_proof())
        .count();
    let mut done = ChainProofs {
        cube_bands,
        ..ChainProofs::default()
    };
    let take = |call: &ChainCall, answer: PieceOutcome, seconds: Duration, halt: &AtomicBool| {
        let Asked { answer, proof, .. } = answer?;
        match answer {
            Answer::Unsat => {
                let closed = record_proof(run, ladder, call, (proof, seconds))?;
                done.count(call, closed);
                after_call(ladder, call, seconds)
            }
            // Ended by the halt: not a timeout of its own.
            Answer::Timeout if halt.load(Relaxed) => Ok(()),
            Answer::Timeout => {
                if done.timed_out.is_none_or(|b| call.band.below < b.below) {
                    done.timed_out = Some(call.band);
                }
                Ok(())
            }
            Answer::Sat(_) => Err(format!(
                "the rung from {} below {} is UNSAT in the ladder, but CaDiCaL finds a model \
                 of it: the ladder is wrong",
                call.band.from, call.band.below
            )),
        }
    };
    let ask = |&call: &ChainCall, halt: &AtomicBool| prove_call(run, call, halt);
    super::side_by_side::ask_side_by_side(calls, run.jobs, run.stop, ask, not_refuted, take)?;
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
    let note = note.map(drop_checked_files);
    let Some(top) = call.top else {
        rung.proof = note;
        return Ok(true);
    };
    let e = run.largest_first;
    let top = e.expand(&[top])[0];
    // A piece refuted by a climb without a proof has it now.
    rung.pieces.retain(|piece| piece.top != top);
    rung.pieces.push(ProofPiece {
        top,
        seconds: seconds.as_secs_f64(),
        proof: Some(note.ok_or("CaDiCaL refuted a piece but left no proof")?),
        lemmas: 0,
    });
    Ok(rung.close_pieces(e, run.proof_stem))
}

/// One call asked again in a fresh CaDiCaL writing DRAT on its own CNF (the rung's, with
/// `s[0]` fixed for a piece), the proof checked by `run.checker`; ends with a timeout when
/// `stop` rises.
fn prove_call(run: &ProveChain, call: ChainCall, stop: &AtomicBool) -> PieceOutcome {
    let Band { from, below } = call.band;
    let e = if call.largest_first {
        run.largest_first
    } else {
        run.question
    };
    let mut units = rung_units(e, below)?;
    if call.largest_first {
        units.extend(floor_unit(e, from));
    }
    units.extend(call.top.map(|top| e.x(0, usize::from(top))));
    let piece = call.top.map(|top| e.expand(&[top])[0]);
    let stem = rung_stem_of(run.proof_stem, ((from, below), piece));
    asked_with_proof(
        &with_units(e, &units),
        run.timeout,
        &stem,
        Some(run.checker),
        stop,
    )
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
    let lemmas = 0;
    Ok(Asked {
        answer,
        proof,
        lemmas,
    })
}

/// A checked proof's CNF and DRAT files removed (proofs of hard rungs run to gigabytes, and
/// the check is what counts; `--prove-chain` makes them again), the note keeping their names
/// only; an unchecked one is left as it is.
fn drop_checked_files(note: ProofNote) -> ProofNote {
    if note.checked_by.is_none() {
        return note;
    }
    let _ = std::fs::remove_file(&note.cnf);
    let _ = std::fs::remove_file(&note.proof);
    ProofNote {
        cnf: crate::io::file_name(Path::new(&note.cnf)),
        proof: crate::io::file_name(Path::new(&note.proof)),
        format: "drat, removed once checked".into(),
        checked_by: note.checked_by,
    }
}

/// What [`prove_chain`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChainProofs {
    /// Rungs given a proof now.
    pub proved: usize,
    /// Pieces of rungs proved now ([`ProveChain::pieces`]).
    pub pieces: usize,
    /// Bands of the chain answered by cube campaigns with no certificate yet (left alone).
    pub cube_bands: usize,
    /// The lowest rung that had no answer in the time allowed (no rung started after it).
    pub timed_out: Option<Band>,
}

impl ChainProofs {
    /// Counts a call proved, and the rung if it is proved now.
    fn count(&mut self, call: &ChainCall, rung_closed: bool) {
        self.pieces += usize::from(call.top.is_some());
        self.proved += usize::from(rung_closed);
    }
}

/// The encoding's clauses with `units` added.
fn with_units(e: &PeriodEncoding, units: &[i32]) -> super::Cnf {
    let mut cnf = e.cnf.clone();
    for &unit in units {
        super::CollectClauses::add_clause(&mut cnf, &[unit]);
    }
    cnf
}

/// A fresh CaDiCaL on `cnf` with the climb's seed and preset, ending when `stop` rises, given
/// and keeping lemmas through `carry`.
fn cadical(
    run: &Climb,
    cnf: &super::Cnf,
    timeout: Option<Duration>,
    stop: &AtomicBool,
    carry: Option<&super::lemmas::Carry>,
) -> Result<Answer, String> {
    let cadical = CadicalRun {
        seed: run.seed,
        preset: run.preset,
        stop: Some(stop),
        carry,
        ..CadicalRun::default()
    };
    solve_cadical_with(cnf, timeout, &cadical).map_err(|e| format!("CaDiCaL failed: {e}"))
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
    super::side_by_side::ask_side_by_side(&tops, run.threads, run.stop, cube, ends_rung, take)?;
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
    cnf: &'a super::Cnf,
}

impl<'a> Incremental<'a> {
    fn new(run: &Climb<'a>) -> anyhow::Result<Incremental<'a>> {
        use rustsat::solvers::{ControlSignal, Terminate};
        use std::sync::atomic::Ordering;
        let mut solver = super::solve::fresh_cadical(run.preset, run.seed)?;
        let stop = run.stop;
        super::solve::load_cadical(&mut solver, &run.encoding.cnf, &|| {
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
        let lits = super::solve::ipasir_lits(units).map_err(fail)?;
        match self.solver.solve_assumps(&lits).map_err(fail)? {
            SolverResult::Sat => {
                let model = super::solve::cadical_model(&self.solver, self.cnf).map_err(fail)?;
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
        let proof = match status {
            Status::Sat => "witness-checked",
            _ if proofs.len() == rests_on.len() => "DRAT proof of every rung",
            _ => "no proof",
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

    #[test]
    fn a_band_counts_only_once_a_chain_of_refuted_rungs_reaches_its_floor() {
        let e = officers(4);
        let mut ladder = Ladder::new("officers", &e, "feasible", true);
        let rung = |from, below, answer| Rung {
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
        };
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

    #[test]
    fn a_floor_is_a_unit_on_residue_0_from_the_smallest_common_value_at_or_above_it() {
        let e = officers(4);
        // Common values 2, 3, 4, 5, 8: at least 6 is byte 4 (8) or more.
        assert_eq!(floor_unit(&e, 6), Some(-e.at_most(0, 3)));
        assert_eq!(floor_unit(&e, 8), Some(-e.at_most(0, 3)));
        assert_eq!(floor_unit(&e, 0), None);
        assert_eq!(floor_unit(&e, 2), None);
    }
}
