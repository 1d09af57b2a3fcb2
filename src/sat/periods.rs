/*!
Deciding periods: for each `p`, is a period-`p` tail possible (`feasible`), and can `p` be its
minimal period (`primitive`)?

Order of work for one `p` (the cheap steps first):
1. **Excluded** if `p` divides `l + 1` for a losing position `l` (both answers).
2. **Lifted**: a feasible pattern of a proper divisor `d`, repeated `p / d` times, is a pattern of
   period `p`, so `feasible` is sat with no solver call.
3. **Local search and solver side by side** (a race): tabu search ([`super::local`], on its own
   threads, for the whole timeout unless told otherwise) while the encoding of [`super::encode`]
   goes to the chosen solver; the first answer stops the other (CaDiCaL stops at once; splr and
   varisat run to their end). Local search finds the even periods and some odd ones (Officers 19,
   23) far sooner than CDCL, which finds others (17) sooner and alone can answer UNSAT. For
   `primitive` the search accepts only patterns of minimal period `p`. Every pattern, from either
   side, is checked by [`super::witness`] before it is reported; a model that fails is an error,
   never a result, and so is a checked pattern the solver called UNSAT.
5. **Primitive**: if the feasible pattern's minimal period is `p`, done; otherwise solve again with
   period `p / q` forbidden for every prime `q` dividing `p` (every smaller period of a period-`p`
   pattern divides one of those).
*/

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::encode::{EncodeError, PeriodEncoding, option_shifts};
use super::exclusions::excluded_by;
use super::solve::{Answer, CadicalRun, SolveError, SolverKind, solve, solve_cadical_with};
use super::witness::{WitnessError, check_pattern};
use crate::game::Game;
use crate::values::{SparseSpace, Value};

/// The answer to one question about one period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Sat,
    Unsat,
    Excluded,
    Timeout,
}

impl Status {
    pub fn decided(self) -> bool {
        self != Status::Timeout
    }

    /// The name the JSON uses: sat, unsat, excluded, timeout.
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Excluded => "excluded",
            Status::Timeout => "timeout",
        }
    }

    /// The answer as a truth value: a pattern exists (sat), none does (unsat, excluded), or
    /// unknown (timeout).
    pub fn truth(self) -> Option<bool> {
        match self {
            Status::Sat => Some(true),
            Status::Unsat | Status::Excluded => Some(false),
            Status::Timeout => None,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name()) // `pad`, so that widths in format strings apply
    }
}

/// What is known about period `p`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeriodResult {
    pub p: u64,
    pub feasible: Status,
    pub primitive: Status,
    /// A checked pattern (true values): a primitive one when `primitive` is sat.
    pub pattern: Option<Vec<Value>>,
    /// Minimal period of `pattern`.
    pub pattern_period: Option<u64>,
    /// How it was decided: "excluded: p divides l + 1 = ...", "lifted from d", "solved"; or
    /// "searched" for a solver that ran out of time.
    pub how: String,
    pub solver: Option<SolverKind>,
    pub seconds: f64,
    pub variables: u64,
    pub clauses: u64,
    pub timeout_seconds: Option<f64>,
    /// UNSAT certificates written for this `p` (with `--proof-dir`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proofs: Vec<super::solve::ProofNote>,
    /// Learned clauses carried across runs for this `p` (with `--lemmas`), per solver call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lemmas: Vec<LemmaNote>,
    /// The run seed ([`Problem::seed`]); 0 in files written before seeds existed.
    #[serde(default)]
    pub seed: u64,
    /// Earlier runs on this `p`, oldest first, kept by [`PeriodsFile::merge`]: the effort an
    /// open period has had, so that a long campaign does not lose count, and the answers and
    /// patterns of runs a later one replaced.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<Attempt>,
    /// For a question left open: the closest the local search beside the solver came (see
    /// [`NearMiss`]); none with `--local 0`, where no such search runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closest: Option<NearMiss>,
}

/// The closest a local search came to a fixed point in a run that found none: the fewest
/// residues whose value is not the smallest common value missing from their options, and a
/// pattern (true values) with that many. Not an answer and not a bound; it says how near the
/// search got, which the count of bad residues measures. Officers, one walk of 60 s per seed
/// (`results/officers/near-misses.txt`): 17, 19 and 23, which have patterns, come within 1 in
/// 0-5.5 s; the open periods never get that near: 27 stays at 4-5 bad residues, 29 at 5-6, 37 at
/// 5-7, 39 at 6-7 (five seeds each, two for 17).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NearMiss {
    pub bad: usize,
    pub pattern: Vec<Value>,
}

/// Learned clauses one solver call started with and left behind ([`super::lemmas`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LemmaNote {
    /// "feasible" or "primitive".
    pub question: String,
    /// Clauses from earlier runs (every seed's file) added to the encoding.
    pub carried: usize,
    /// Clauses in this run's file afterwards.
    pub kept: usize,
    /// Those clauses by length, units first ([`super::lemmas::by_length`]); absent in the
    /// records of builds before 2026-11-28.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_length: Vec<usize>,
    pub file: String,
}

/// An earlier run on a period, kept under `earlier` by [`PeriodsFile::merge`]: enough to say how
/// much was tried, with which seed, and for a run that decided something, what it found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub seed: u64,
    pub how: String,
    pub seconds: f64,
    pub timeout_seconds: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closest: Option<NearMiss>,
    /// The run's answers, when it decided at least one question (absent: both timed out, and in
    /// files written before decided runs were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feasible: Option<Status>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primitive: Option<Status>,
    /// The run's checked pattern, if it found one (a later run may find another).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Vec<Value>>,
    /// The run's UNSAT certificates, if it wrote any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proofs: Vec<super::solve::ProofNote>,
}

impl Attempt {
    /// Whether this run answered both questions.
    pub fn decided_both(&self) -> bool {
        let decided = |s: Option<Status>| s.is_some_and(Status::decided);
        decided(self.feasible) && decided(self.primitive)
    }
}

impl PeriodResult {
    /// A result with these answers and nothing else yet (no pattern, no time, seed 0).
    /// The result of a CaDiCaL campaign on `e` (a bounds ladder, a cube campaign) that answered
    /// its question (`primitive_question` or the feasible one) on `p` with `status` and, for
    /// SAT, `pattern` (the periods file's feasible pattern with a primitive UNSAT): both
    /// questions' statuses ([`question_statuses`]), the pattern's minimal period, and `how`
    /// prefixed "primitive by " for the primitive question.
    pub fn of_campaign_answer(
        e: &crate::sat::encode::PeriodEncoding,
        (p, primitive_question): (u64, bool),
        (status, pattern): (Status, Option<Vec<Value>>),
        how: &str,
        seconds: f64,
    ) -> PeriodResult {
        let period = pattern.as_ref().map(|s| minimal_period(s) as u64);
        let (feasible, primitive) = question_statuses(primitive_question, status, period, p);
        let by = if primitive_question {
            "primitive by "
        } else {
            ""
        };
        PeriodResult {
            pattern_period: period,
            pattern,
            how: format!("{by}{how}"),
            solver: Some(SolverKind::Cadical),
            seconds,
            variables: e.cnf.num_vars as u64,
            clauses: e.cnf.num_clauses as u64,
            ..PeriodResult::bare(p, feasible, primitive)
        }
    }

    pub fn bare(p: u64, feasible: Status, primitive: Status) -> PeriodResult {
        PeriodResult {
            p,
            feasible,
            primitive,
            pattern: None,
            pattern_period: None,
            how: String::new(),
            solver: None,
            seconds: 0.0,
            variables: 0,
            clauses: 0,
            timeout_seconds: None,
            proofs: Vec::new(),
            lemmas: Vec::new(),
            seed: 0,
            earlier: Vec::new(),
            closest: None,
        }
    }

    /// Whether the period is still open: a timeout in either question.
    pub fn is_open(&self) -> bool {
        !self.feasible.decided() || !self.primitive.decided()
    }

    /// How many earlier runs kept with this result answered a question the other way (which
    /// [`PeriodsFile::merge`] refused to let replace it): each one is a bug to look into.
    pub fn contradicting_runs(&self) -> usize {
        let clash = |kept: Status, then: Option<Status>| matches!((kept.truth(), then.and_then(Status::truth)), (Some(a), Some(b)) if a != b);
        self.earlier
            .iter()
            .filter(|a| clash(self.feasible, a.feasible) || clash(self.primitive, a.primitive))
            .count()
    }

    /// Seconds spent reaching this result: this run and every earlier run kept with it that left
    /// the period open. An earlier run that decided it too, since replaced, is another answer,
    /// not effort towards this one. For an open period that is every run.
    pub fn campaign_seconds(&self) -> f64 {
        let open = self.earlier.iter().filter(|a| !a.decided_both());
        self.seconds + open.map(|a| a.seconds).sum::<f64>()
    }

    /// What this period has had in all: runs, seeds, seconds (see [`Campaign`]).
    pub fn campaign(&self) -> Campaign {
        let runs: Vec<(u64, f64, Option<&NearMiss>)> = self
            .earlier
            .iter()
            .map(|a| (a.seed, a.seconds, a.closest.as_ref()))
            .chain(std::iter::once((
                self.seed,
                self.seconds,
                self.closest.as_ref(),
            )))
            .collect();
        let mut seeds: Vec<u64> = runs.iter().map(|r| r.0).collect();
        seeds.sort_unstable();
        seeds.dedup();
        Campaign {
            runs: runs.len(),
            seeds,
            seconds: self.campaign_seconds(),
            longest: runs.iter().map(|r| r.1).fold(0.0, f64::max),
            closest: self.closest_state().map(|(near, seed)| (near.bad, seed)),
        }
    }

    /// The closest state any run's local search stood on (the fewest bad residues, the lowest
    /// seed among equals) and that run's seed: what `grundy sat check --p` shows of an open
    /// period.
    pub fn closest_state(&self) -> Option<(&NearMiss, u64)> {
        let earlier = self.earlier.iter().map(|a| (a.closest.as_ref(), a.seed));
        std::iter::once((self.closest.as_ref(), self.seed))
            .chain(earlier)
            .filter_map(|(near, seed)| Some((near?, seed)))
            .min_by_key(|&(near, seed)| (near.bad, seed))
    }

    /// This run as an earlier attempt: its effort, and its answers, pattern and certificates
    /// when it decided something.
    fn as_attempt(&self) -> Attempt {
        let decided_any = self.feasible.decided() || self.primitive.decided();
        Attempt {
            seed: self.seed,
            how: self.how.clone(),
            seconds: self.seconds,
            timeout_seconds: self.timeout_seconds,
            closest: self.closest.clone(),
            feasible: decided_any.then_some(self.feasible),
            primitive: decided_any.then_some(self.primitive),
            pattern: self.pattern.clone(),
            proofs: self.proofs.clone(),
        }
    }

    /// Whether this decided run tells nothing that `newer` does not: the same answers, reached
    /// the same way, with the same pattern and certificates (an excluded period, or a lifted
    /// pattern, found again). Such a run is not kept under `earlier`. An open run always is:
    /// its seconds are part of the campaign.
    fn repeated_by(&self, newer: &PeriodResult) -> bool {
        !self.is_open()
            && (self.feasible, self.primitive) == (newer.feasible, newer.primitive)
            && self.how == newer.how
            && self.pattern == newer.pattern
            && self.proofs == newer.proofs
    }

    /// Where `newer` answers a question the opposite way to this result (a pattern against
    /// UNSAT or an exclusion): a line saying so, or `None` when the two agree or either is open.
    fn contradicted_by(&self, newer: &PeriodResult) -> Option<String> {
        let clash = |question: &str, old: Status, new: Status| {
            let (a, b) = (old.truth()?, new.truth()?);
            (a != b).then(|| format!("{question} {old} before, {new} now"))
        };
        let clashes: Vec<String> = [
            clash("feasible", self.feasible, newer.feasible),
            clash("primitive", self.primitive, newer.primitive),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!clashes.is_empty()).then(|| format!("p = {}: {}", self.p, clashes.join(", ")))
    }
}

/// The effort one period has had, over every run the file keeps (the result's own run and its
/// `earlier` attempts): what `grundy sat summary` reports for a campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    pub runs: usize,
    /// Run seeds used, sorted, each once.
    pub seeds: Vec<u64>,
    /// Seconds in all (wall-clock seconds of each run, summed).
    pub seconds: f64,
    /// The longest single run.
    pub longest: f64,
    /// The fewest bad residues any run's local search stood on, and that run's seed.
    pub closest: Option<(usize, u64)>,
}

/// Why a period could not be decided (not a timeout).
#[derive(Debug, thiserror::Error)]
pub enum PeriodError {
    #[error(transparent)]
    Encode(#[from] EncodeError),
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Lemmas(#[from] super::lemmas::CarryError),
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
    #[error(transparent)]
    File(#[from] PeriodsFileError),
    #[error("cannot go on from the earlier list of patterns: {0}")]
    Earlier(String),
    #[error("local search found a checked pattern of period {p}, but the solver said UNSAT")]
    Disagree { p: u64 },
    #[error(
        "the list of period {p} says it is complete, but it misses the checked pattern {pattern:?}"
    )]
    Incomplete { p: u64, pattern: Vec<Value> },
    #[error("solver {solver} returned a model for p = {p} that fails the witness check: {error}")]
    BadModel {
        solver: &'static str,
        p: u64,
        error: WitnessError,
    },
}

/// One question's answer: a pattern (true values), or the status saying why there is none.
type Found = Result<Vec<Value>, Status>;

/// The fixed data of the question: game, space, rare table, losing positions.
pub struct Problem {
    pub game: Game,
    pub space: SparseSpace,
    pub rares: Vec<(u64, Value)>,
    pub losing: Vec<u64>,
    /// Local search time beside each solver call (default: the solver's timeout; zero: none).
    pub local_search: Option<Duration>,
    /// Threads of local search beside the solver (each its own seed).
    pub local_threads: usize,
    /// Add rotation symmetry breaking (`s[0]` is a minimum of the pattern) to every encoding.
    pub break_rotation: bool,
    /// CaDiCaL copies with different seeds per solver call (1: one solver, as `--solver` says).
    pub portfolio: usize,
    /// Write UNSAT certificates (CNF and proof) into this folder.
    pub proof_dir: Option<std::path::PathBuf>,
    /// CaDiCaL's proof format there: DRAT (checked by `GRUNDY_DRAT_CHECKER` when it names a
    /// checker) or LRAT (checked at once by [`super::lrat`]).
    pub proof_format: super::solve::ProofFormat,
    /// Run seed, mixed into the local search's seeds and CaDiCaL's. 0 is the default run
    /// (reproducible: the benchmark and the tests use it); every other seed walks elsewhere, so
    /// that running an open period again adds new search instead of repeating the old. (The
    /// proof-writing call of `--proof-dir` keeps the default seed.)
    pub seed: u64,
    /// A single CaDiCaL (no portfolio, no proof) runs steered by tabu near misses
    /// ([`super::lns`]); `false`: CaDiCaL alone.
    pub neighbourhoods: bool,
    /// Carry learned clauses across runs in this folder ([`super::lemmas`]); CaDiCaL only, never
    /// with a proof to write.
    pub lemma_dir: Option<std::path::PathBuf>,
    /// With `lemma_dir`: also save the lemma file this often while a question runs.
    pub lemma_every: Duration,
}

/// The `feasible` and `primitive` statuses that an answer `status` (Sat or Unsat) to one
/// question on `p` gives: the primitive question presumes a feasible pattern, a feasible UNSAT
/// is UNSAT for both, and a feasible pattern of a smaller minimal period `pattern_period` leaves
/// `primitive` to its own question.
pub fn question_statuses(
    primitive_question: bool,
    status: Status,
    pattern_period: Option<u64>,
    p: u64,
) -> (Status, Status) {
    match (primitive_question, status) {
        (true, s) => (Status::Sat, s),
        (false, Status::Unsat) => (Status::Unsat, Status::Unsat),
        (false, _) if pattern_period == Some(p) => (Status::Sat, Status::Sat),
        (false, _) => (Status::Sat, Status::Timeout),
    }
}

/// The name of a question in file names and ledgers: "primitive" (can `p` be the minimal
/// period?) or "feasible".
pub fn question_name(primitive: bool) -> &'static str {
    if primitive { "primitive" } else { "feasible" }
}

/// Minimal period of a cyclic pattern.
pub fn minimal_period<T: PartialEq>(s: &[T]) -> usize {
    let p = s.len();
    (1..=p)
        .find(|&d| p.is_multiple_of(d) && (0..p).all(|i| s[i] == s[(i + d) % p]))
        .unwrap_or(p)
}

/// "solved" for a solver's answer, "searched" for a timeout (an open period was not solved).
fn solved_or_searched(answer: &Found) -> &'static str {
    if *answer == Err(Status::Timeout) {
        "searched"
    } else {
        "solved"
    }
}

fn primes_dividing(p: usize) -> Vec<usize> {
    (2..=p)
        .filter(|&q| p.is_multiple_of(q) && (2..q).all(|k| !q.is_multiple_of(k)))
        .collect()
}

impl Problem {
    /// The question for the game of an exact prefix: its space, rare table and losing positions.
    pub fn from_prefix(prefix: &crate::values::ExactGenerator) -> Problem {
        Problem {
            game: prefix.game().clone(),
            space: prefix.space(),
            rares: prefix.rares().map(|(p, v)| (p as u64, v)).collect(),
            losing: super::exclusions::losing_positions(prefix.values()),
            local_search: None,
            local_threads: 1,
            break_rotation: false,
            portfolio: 1,
            proof_dir: None,
            proof_format: super::solve::ProofFormat::Drat,
            seed: 0,
            neighbourhoods: true,
            lemma_dir: None,
            lemma_every: Duration::from_secs(600),
        }
    }

    /// The local search's seed for question `base` (`p` or `p ^ 0x9e37`) under the run seed; its
    /// threads take the next seeds, hence the large odd step between run seeds.
    pub(crate) fn local_seed(&self, base: u64) -> u64 {
        base.wrapping_add(self.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// Decides `p`. `known(d)` gives a checked feasible pattern of period `d` if one is known.
    ///
    /// # Errors
    /// [`PeriodError`] if the encoding fails, a solver fails, or a model fails the witness check.
    pub fn decide(
        &self,
        p: u64,
        solver: SolverKind,
        timeout: Option<Duration>,
        known: &dyn Fn(u64) -> Option<Vec<Value>>,
    ) -> Result<PeriodResult, PeriodError> {
        let started = Instant::now();
        let mut result = PeriodResult {
            timeout_seconds: timeout.map(|t| t.as_secs_f64()),
            seed: self.seed,
            ..PeriodResult::bare(p, Status::Timeout, Status::Timeout)
        };
        if let Some(l) = excluded_by(p, &self.losing) {
            result.feasible = Status::Excluded;
            result.primitive = Status::Excluded;
            result.how = format!(
                "excluded: p divides l + 1 = {} for the losing position l = {l}",
                l + 1
            );
            return Ok(result);
        }
        let pu = p as usize;
        let lifted = (1..pu)
            .filter(|d| pu.is_multiple_of(*d))
            .find_map(|d| known(d as u64).map(|s| (d, s)));
        if let Some((d, s)) = lifted {
            let pattern: Vec<Value> = s.iter().cycle().take(pu).copied().collect();
            self.check(solver, p, &pattern)?;
            result.feasible = Status::Sat;
            result.how = format!("lifted from {d}");
            result.pattern_period = Some(minimal_period(&pattern) as u64);
            result.pattern = Some(pattern);
        } else {
            self.race_feasible(p, solver, timeout, &mut result)?;
        }
        if result.feasible == Status::Sat {
            result.primitive = self.primitive(p, solver, timeout, &mut result)?;
        }
        result.seconds = started.elapsed().as_secs_f64();
        if result.is_open() && crate::interrupt::requested() {
            // Stopped before its time limit: the seconds say how far it got.
            result.how.push_str(", interrupted");
        }
        Ok(result)
    }

    /// The race of local search and `solver` on "is `p` feasible?", its answer (a checked
    /// pattern, or a status for both questions), how it was found and the closest miss in `result`.
    fn race_feasible(
        &self,
        p: u64,
        solver: SolverKind,
        timeout: Option<Duration>,
        result: &mut PeriodResult,
    ) -> Result<(), PeriodError> {
        let mut closest = None;
        let (answer, by_local) = self.race(
            p,
            self.local_seed(p),
            timeout,
            &|_| true,
            &mut |stop| self.solver_side(p, solver, timeout, false, result, stop),
            &mut closest,
        )?;
        result.closest = closest;
        result.solver = (!by_local).then_some(solver);
        result.how = if by_local {
            "local search".into()
        } else {
            format!("{}{}", solved_or_searched(&answer), self.setup(solver))
        };
        match answer {
            Ok(pattern) => {
                self.check(solver, p, &pattern)?;
                result.feasible = Status::Sat;
                result.pattern_period = Some(minimal_period(&pattern) as u64);
                result.pattern = Some(pattern);
            }
            Err(status) => {
                result.feasible = status;
                result.primitive = status;
            }
        }
        Ok(())
    }

    /// Can `p` be the minimal period? Uses the feasible pattern if it is primitive already.
    fn primitive(
        &self,
        p: u64,
        solver: SolverKind,
        timeout: Option<Duration>,
        result: &mut PeriodResult,
    ) -> Result<Status, PeriodError> {
        if result.pattern_period == Some(p) {
            return Ok(Status::Sat);
        }
        let primitive = |bytes: &[u8]| minimal_period(bytes) == bytes.len();
        let mut closest = None;
        let (answer, by_local) = self.race(
            p,
            self.local_seed(p ^ 0x9e37),
            timeout,
            &primitive,
            &mut |stop| self.solver_side(p, solver, timeout, true, result, stop),
            &mut closest,
        )?;
        result.closest = closest;
        if by_local {
            result.how += ", primitive by local search";
        } else {
            let verb = solved_or_searched(&answer);
            result.how += &format!(", primitive {verb}{}", self.setup(solver));
            result.solver = Some(solver);
        }
        match answer {
            Ok(pattern) => {
                self.check(solver, p, &pattern)?;
                let period = minimal_period(&pattern) as u64;
                debug_assert_eq!(period, p);
                result.pattern_period = Some(period);
                result.pattern = Some(pattern);
                Ok(Status::Sat)
            }
            Err(status) => Ok(status),
        }
    }

    /// What the solver calls ran with beyond the defaults, for `how`: "" or " (rotation broken,
    /// portfolio of 4, beside local search on 1 thread)".
    fn setup(&self, solver: SolverKind) -> String {
        let mut parts = Vec::new();
        if self.steered(solver) {
            parts.push("steered by near misses".to_string());
        }
        if self.break_rotation {
            parts.push("rotation broken".to_string());
        }
        if self.portfolio > 1 {
            parts.push(format!("portfolio of {}", self.portfolio));
        }
        if self.carries(solver) {
            parts.push("lemmas carried across runs".to_string());
        }
        if self.local_search != Some(Duration::ZERO) {
            let threads = self.local_threads;
            let plural = if threads == 1 { "" } else { "s" };
            parts.push(format!("beside local search on {threads} thread{plural}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join(", "))
        }
    }

    /// Whether a solver call runs [`super::lns`]: one CaDiCaL, without a proof to write.
    fn steered(&self, solver: SolverKind) -> bool {
        solver == SolverKind::Cadical
            && self.neighbourhoods
            && self.portfolio == 1
            && self.proof_dir.is_none()
    }

    /// Whether a solver call adds and keeps learned clauses ([`super::lemmas`]).
    fn carries(&self, solver: SolverKind) -> bool {
        solver == SolverKind::Cadical && self.proof_dir.is_none() && self.lemma_dir.is_some()
    }

    /// Local search ([`super::local`]) for a pattern of period `p` whose bytes `accept` takes,
    /// side by side with `solver_side` (which gets the stop flag to hand to its solver): the first
    /// answer raises the flag and so ends the other. Returns the answer (a pattern in true values,
    /// or the solver's status) and whether local search gave it. The local search runs for
    /// `local_search` or else the timeout; a zero budget leaves the solver alone.
    ///
    /// # Errors
    /// What the solver side returns, or [`PeriodError::Disagree`] for a pattern against UNSAT.
    fn race(
        &self,
        p: u64,
        seed: u64,
        timeout: Option<Duration>,
        accept: &(dyn Fn(&[u8]) -> bool + Sync),
        solver_side: &mut dyn FnMut(&AtomicBool) -> Result<Found, PeriodError>,
        closest: &mut Option<NearMiss>,
    ) -> Result<(Found, bool), PeriodError> {
        let (compression, shifts) = option_shifts(&self.game, self.space, &self.rares, p as usize)?;
        let budget = self.local_search.or(timeout).unwrap_or(Duration::MAX);
        let threads = self.local_threads;
        let stop = AtomicBool::new(false);
        let near = super::local::Closest::default();
        let (found, solved) = std::thread::scope(|scope| {
            // A stop request (SIGINT, SIGTERM) ends both sides as a timeout would.
            scope.spawn(|| crate::interrupt::relay(&stop));
            let local = (!budget.is_zero()).then(|| {
                let (shifts, stop, near) = (&shifts, &stop, &near);
                scope.spawn(move || {
                    let run = (seed, threads);
                    super::local::search_parallel(shifts, budget, run, accept, stop, near)
                })
            });
            let solved = solver_side(&stop);
            stop.store(true, Ordering::Relaxed);
            let found = local.and_then(|run| run.join().expect("local search panicked"));
            (found, solved)
        });
        let solved = solved?;
        if found.is_none() && solved == Err(Status::Timeout) {
            *closest = near.get().map(|(bad, bytes)| NearMiss {
                bad,
                pattern: bytes
                    .iter()
                    .map(|&c| compression.expand_common(c))
                    .collect(),
            });
        }
        match found {
            Some(_) if solved == Err(Status::Unsat) => Err(PeriodError::Disagree { p }),
            Some(bytes) => {
                let pattern = bytes.iter().map(|&c| compression.expand_common(c));
                Ok((Ok(pattern.collect()), true))
            }
            None => Ok((solved, false)),
        }
    }

    /// The solver's side of a race: encode `p` (with every smaller period forbidden for the
    /// `primitive` question), solve, decode; its size goes into `result`. Nothing is encoded
    /// once `stop` is up.
    fn solver_side(
        &self,
        p: u64,
        solver: SolverKind,
        timeout: Option<Duration>,
        primitive: bool,
        result: &mut PeriodResult,
        stop: &AtomicBool,
    ) -> Result<Found, PeriodError> {
        if stop.load(Ordering::Relaxed) {
            return Ok(Err(Status::Timeout));
        }
        let e = self.encode_question(p as usize, primitive)?;
        result.variables = result.variables.max(e.cnf.num_vars as u64);
        result.clauses = result.clauses.max(e.cnf.num_clauses as u64);
        let question = question_name(primitive);
        Ok(
            match self.solve(solver, &e, timeout, p, question, result, stop)? {
                Answer::Sat(model) => Ok(e.decode(&model)),
                Answer::Unsat => Err(Status::Unsat),
                Answer::Timeout => Err(Status::Timeout),
            },
        )
    }

    /// The encoding of one question on `p`: `feasible`, or with `primitive` every period `p / q`
    /// (`q` a prime dividing `p`) forbidden too; rotation broken (a smallest value first) if the
    /// problem says so.
    ///
    /// # Errors
    /// [`EncodeError`] for `p = 0`, an empty rare table or a space without byte compression.
    pub fn encode_question(
        &self,
        p: usize,
        primitive: bool,
    ) -> Result<PeriodEncoding, EncodeError> {
        self.encode_question_with(p, primitive, self.break_rotation)
    }

    /// The same question with every rotation of a pattern kept, whatever the problem says, for
    /// callers that break it their own way ([`super::bounds`] puts a largest value first).
    ///
    /// # Errors
    /// As [`Self::encode_question`].
    pub fn encode_question_rotation_kept(
        &self,
        p: usize,
        primitive: bool,
    ) -> Result<PeriodEncoding, EncodeError> {
        self.encode_question_with(p, primitive, false)
    }

    /// The clauses in a fixed order (rotation before primitivity): the CNF's fingerprint names
    /// lemma files, cube ledgers and ladders, so the order must not change.
    fn encode_question_with(
        &self,
        p: usize,
        primitive: bool,
        break_rotation: bool,
    ) -> Result<PeriodEncoding, EncodeError> {
        let mut e = PeriodEncoding::new(&self.game, self.space, &self.rares, p)?;
        if break_rotation {
            e.break_rotation();
        }
        if primitive {
            for q in primes_dividing(p) {
                e.forbid_period(p / q);
            }
        }
        Ok(e)
    }

    /// One solver call: with a certificate when a proof folder is set, the portfolio when asked
    /// for (CaDiCaL only), CaDiCaL steered by near misses unless switched off, else `solver`. A
    /// certificate is noted in `result`, and so are lemmas carried. CaDiCaL (alone or in a
    /// portfolio, without a proof) ends early when `stop` is raised, answering `Timeout`.
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        solver: SolverKind,
        e: &PeriodEncoding,
        timeout: Option<Duration>,
        p: u64,
        question: &str,
        result: &mut PeriodResult,
        stop: &AtomicBool,
    ) -> Result<Answer, PeriodError> {
        let cnf = &e.cnf;
        let name = format!("{}-p{p}-{question}", self.game.slug());
        if let Some(dir) = &self.proof_dir {
            let checker = super::solve::drat_checker_from_env();
            let (answer, note) = super::solve::solve_with_proof_checked_by(
                solver,
                cnf,
                timeout,
                &dir.join(name),
                (self.proof_format, checker.as_deref()),
                None,
            )?;
            result.proofs.extend(note);
            return Ok(answer);
        }
        let Some(dir) = self.lemma_dir.as_ref().filter(|_| self.carries(solver)) else {
            return Ok(self.solve_carrying(solver, e, timeout, p, stop, None)?);
        };
        // Every seed's file in, this seed's file out (see super::lemmas for why).
        let store = super::lemmas::LemmaStore::new(dir, &name, cnf);
        let (answer, carried) =
            super::lemmas::carrying(&store, self.seed, self.lemma_every, |c| {
                self.solve_carrying(solver, e, timeout, p, stop, Some(c))
            })?;
        result.lemmas.push(LemmaNote {
            question: question.to_string(),
            carried: carried.given,
            kept: carried.kept,
            by_length: carried.by_length,
            file: carried.file.display().to_string(),
        });
        Ok(answer?)
    }

    /// [`Self::solve`] without a proof: `carry` (CaDiCaL only) gives clauses and takes lemmas.
    fn solve_carrying(
        &self,
        solver: SolverKind,
        e: &PeriodEncoding,
        timeout: Option<Duration>,
        p: u64,
        stop: &AtomicBool,
        carry: Option<&super::lemmas::Carry>,
    ) -> Result<Answer, SolveError> {
        let cnf = &e.cnf;
        let failed = |err: anyhow::Error| SolveError {
            solver: solver.name(),
            reason: err.to_string(),
        };
        match solver {
            SolverKind::Cadical if self.portfolio > 1 => {
                let first_seed = (self.seed as u32).wrapping_mul(self.portfolio as u32);
                let copies = self.portfolio;
                super::solve::solve_portfolio(cnf, timeout, copies, first_seed, Some(stop), carry)
            }
            SolverKind::Cadical if self.steered(solver) => {
                let pace = super::lns::Pace::for_period(e.p);
                let seed = self.local_seed(0x6c6e_7300 ^ p);
                super::lns::solve(e, timeout, seed, pace, stop, carry)
                    .map(|(answer, _)| answer)
                    .map_err(failed)
            }
            SolverKind::Cadical => {
                let run = CadicalRun {
                    seed: self.seed as u32,
                    stop: Some(stop),
                    carry,
                    ..CadicalRun::default()
                };
                solve_cadical_with(cnf, timeout, &run).map_err(failed)
            }
            _ => solve(solver, cnf, timeout),
        }
    }

    fn check(&self, solver: SolverKind, p: u64, pattern: &[Value]) -> Result<(), PeriodError> {
        self.check_witness(solver.name(), p, pattern)
    }

    /// The witness check of a pattern some solver produced for period `p`.
    ///
    /// # Errors
    /// [`PeriodError::BadModel`] if `pattern` is not a fixed point of the rule.
    pub fn check_witness(
        &self,
        solver: &'static str,
        p: u64,
        pattern: &[Value],
    ) -> Result<(), PeriodError> {
        check_pattern(&self.game, self.space, &self.rares, pattern)
            .map_err(|error| PeriodError::BadModel { solver, p, error })
    }
}

/// The results file (`results/<game>/periods.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeriodsFile {
    pub game: String,
    pub assumptions: String,
    pub rare_values: u64,
    pub last_rare: u64,
    pub results: Vec<PeriodResult>,
}

impl PeriodsFile {
    pub fn new(problem: &Problem) -> PeriodsFile {
        PeriodsFile {
            game: problem.game.to_string(),
            assumptions: "no rare value beyond the table; every value of the periodic tail is common and below 512".into(),
            rare_values: problem.rares.len() as u64,
            last_rare: problem.rares.last().map_or(0, |r| r.0),
            results: Vec::new(),
        }
    }

    /// Merges `new` in: a decided answer replaces a timeout, a timeout never replaces a decided
    /// answer, otherwise the newer result wins. No run is lost: whichever result stays keeps the
    /// other (with its answers and pattern if it decided something) and the other's earlier
    /// attempts in `earlier`, unless the other is a decided run it only repeats (the same
    /// answers, `how`, pattern and certificates: an excluded period found excluded again).
    /// A new answer that contradicts a decided one (a pattern against UNSAT) does not replace
    /// it: it is kept under `earlier`, and a line per such `p` is returned for the caller to
    /// raise. A run the file holds already (the same seed, seconds, answers: merged before) is
    /// not added twice. Results stay sorted by `p`.
    pub fn merge(&mut self, new: Vec<PeriodResult>) -> Vec<String> {
        let mut contradictions = Vec::new();
        for mut r in new {
            let Some(old) = self.results.iter_mut().find(|old| old.p == r.p) else {
                self.results.push(r);
                continue;
            };
            // The same run merged again (`grundy merge` run twice, say): it is there already.
            let again = r.as_attempt();
            if old.as_attempt() == again || old.earlier.contains(&again) {
                continue;
            }
            let better = |s: Status, t: Status| s.decided() || !t.decided();
            let clash = old.contradicted_by(&r);
            if clash.is_none()
                && better(r.feasible, old.feasible)
                && better(r.primitive, old.primitive)
            {
                // The new result stays; the old one's history, then the old run itself, come
                // before the new one's own.
                std::mem::swap(old, &mut r);
                let mut history = std::mem::take(&mut r.earlier);
                if !r.repeated_by(old) {
                    history.push(r.as_attempt());
                }
                history.append(&mut old.earlier);
                old.earlier = history;
            } else {
                old.earlier.append(&mut r.earlier);
                old.earlier.push(r.as_attempt());
            }
            contradictions.extend(clash);
        }
        self.results.sort_by_key(|r| r.p);
        contradictions
    }

    /// Where a game's periods file lives unless told otherwise: `results/<slug>/periods.json`.
    pub fn default_path(game: &Game) -> PathBuf {
        PathBuf::from(format!("results/{}/periods.json", game.slug()))
    }

    /// The result for period `p`, if the file has one.
    pub fn result(&self, p: u64) -> Option<&PeriodResult> {
        self.results.iter().find(|r| r.p == p)
    }

    /// A checked feasible pattern of period `d`, if the file has one.
    pub fn pattern(&self, d: u64) -> Option<Vec<Value>> {
        self.result(d)
            .filter(|r| r.feasible == Status::Sat)
            .and_then(|r| r.pattern.clone())
    }

    /// Why results decided under `header` (game, rare table) cannot join this file, if so.
    pub fn refuses(&self, header: &PeriodsFile) -> Option<String> {
        if self.game != header.game {
            return Some(format!(
                "holds results for {}, not {}",
                self.game, header.game
            ));
        }
        let (mine, theirs) = (
            (self.rare_values, self.last_rare),
            (header.rare_values, header.last_rare),
        );
        (mine != theirs).then(|| {
            format!(
                "was decided with {} rare values (last {}), these results with {} (last {})",
                mine.0, mine.1, theirs.0, theirs.1
            )
        })
    }

    /// The periods file at `path`, or `None` if there is none.
    ///
    /// # Errors
    /// [`PeriodsFileError`] if it cannot be read or is not a periods file (it is left untouched).
    pub fn read(path: &Path) -> Result<Option<PeriodsFile>, PeriodsFileError> {
        let fail = |reason: String| PeriodsFileError {
            path: path.to_path_buf(),
            reason,
        };
        crate::io::read_json_if_present(path, "a periods file")
            .map_err(|reason| fail(format!("{reason}; left untouched")))
    }

    /// Merges `new` into the file at `path` (started from `header` if there is none) and
    /// returns what the file now holds. The file is read, merged and written (atomically) under
    /// an exclusive lock on a lock file beside it, so runs that share one periods file, say p = 27
    /// and p = 29 in two processes, never write over each other's results.
    ///
    /// # Errors
    /// [`PeriodsFileError`]: the file is not a periods file, holds another game or rare table
    /// ([`Self::refuses`]), or cannot be locked or written; it is left as it was. Also when a
    /// new answer contradicts a decided one ([`Self::merge`]): then the file is written, with
    /// the new run under `earlier`, before the error says which periods clash.
    pub fn merge_into(
        path: &Path,
        header: &PeriodsFile,
        new: Vec<PeriodResult>,
    ) -> Result<PeriodsFile, PeriodsFileError> {
        let fail = |reason: String| PeriodsFileError {
            path: path.to_path_buf(),
            reason,
        };
        let (lock, lock_path) = crate::io::lock_file_beside(path).map_err(&fail)?;
        lock.lock()
            .map_err(|e| fail(format!("cannot lock {}: {e}", lock_path.display())))?;
        let mut file = Self::read(path)?.unwrap_or_else(|| PeriodsFile {
            results: Vec::new(),
            ..header.clone()
        });
        if let Some(reason) = file.refuses(header) {
            return Err(fail(reason));
        }
        let contradictions = file.merge(new);
        crate::io::write_json_atomic(path, &file).map_err(|e| fail(e.source.to_string()))?;
        if !contradictions.is_empty() {
            // Written first, so that both answers are on disk for whoever looks into it.
            return Err(fail(format!(
                "contradicts the file (both answers kept; the new one under `earlier`): {}",
                contradictions.join("; ")
            )));
        }
        Ok(file) // the lock ends with `lock`
    }
}

/// A periods file that cannot be read, joined or written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct PeriodsFileError {
    pub path: PathBuf,
    pub reason: String,
}

/// What [`decide_all`] tells its caller as it goes.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// Work on period `p` begins (for a display of what is running).
    Started(u64),
    /// A period ended: the caller saves it.
    Ended(&'a PeriodResult),
}

/// Decides every period of `periods` on `jobs` threads, lifting from patterns already known
/// (from `file` or from this run). `record` hears each period start and end; at the end the
/// caller can save the result at once (a later failure or a kill then loses nothing already
/// decided). An error from `record` ends the run. After a stop request ([`crate::interrupt`])
/// periods not yet started are left out of the answer, and those running end as "searched ...,
/// interrupted".
///
/// # Errors
/// The first [`PeriodError`], from a period or from `record`.
pub fn decide_all(
    problem: &Problem,
    periods: impl IntoIterator<Item = u64>,
    solver: SolverKind,
    timeout: Option<Duration>,
    jobs: usize,
    file: &PeriodsFile,
    record: &(dyn Fn(Event) -> Result<(), PeriodError> + Sync),
) -> Result<Vec<PeriodResult>, PeriodError> {
    use rayon::prelude::*;
    let found = std::sync::Mutex::new(Vec::<(u64, Vec<Value>)>::new());
    let known = |d: u64| {
        let run = found
            .lock()
            .ok()
            .and_then(|f| f.iter().find(|(p, _)| *p == d).map(|(_, s)| s.clone()));
        run.or_else(|| file.pattern(d))
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| SolveError {
            solver: "rayon",
            reason: e.to_string(),
        })?;
    let periods: Vec<u64> = periods.into_iter().collect();
    pool.install(|| {
        periods
            .par_iter()
            .with_max_len(1)
            .map(|&p| {
                if crate::interrupt::requested() {
                    return Ok(None);
                }
                record(Event::Started(p))?;
                let r = problem.decide(p, solver, timeout, &known)?;
                if let (Status::Sat, Some(s), Ok(mut f)) = (r.feasible, &r.pattern, found.lock()) {
                    f.push((p, s.clone()));
                }
                record(Event::Ended(&r))?;
                Ok(Some(r))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|results| results.into_iter().flatten().collect())
    })
}
