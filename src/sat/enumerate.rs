/*!
All patterns of one period, up to rotation (`grundy sat GAME --periods P..P --all`).

One incremental CaDiCaL instance holds the encoding of period `p`. Each model is decoded, checked
by the witness checker, and then blocked together with all its rotations (one clause per distinct
rotation: "some residue differs from it"), so every class of patterns under rotation is found once.
The search ends when the instance is UNSAT (the list is complete), at the time limit, or at the
count limit (the list is then a lower bound, and says so).

Every pattern with period `p` is counted, including those whose minimal period is a proper
divisor (a period-4 pattern repeated is a period-8 pattern); `by_minimal_period` tells them apart.

An enumeration of an odd period may take longer than one machine's day, so it is a campaign:
[`enumerate_from`] goes on from the list an earlier run left (each class checked again and
blocked before the first call) and hands the list to its caller after every class found, which
the command saves atomically; a run killed outright loses at most the class it was looking for.
*/

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::encode::PeriodEncoding;
use super::periods::{PeriodError, Problem, minimal_period};
use super::solve::{SolveError, add_ipasir, cadical_model, load_cadical};
use super::{Cnf, CollectClauses};
use crate::values::Value;

/// The classes found for one period.
///
/// Invariant: `classes` is sorted, each class is its own [`canonical_rotation`], and no class is
/// there twice; `by_minimal_period` counts `classes`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Enumeration {
    pub game: String,
    pub p: u64,
    /// Rare values of the table the classes were found and checked with (0 in files older than
    /// this field): a list goes on only under the same table.
    #[serde(default)]
    pub rare_values: u64,
    /// One pattern per rotation class (true values), the lexicographically smallest rotation,
    /// sorted.
    pub classes: Vec<Vec<Value>>,
    /// How many classes have each minimal period.
    pub by_minimal_period: BTreeMap<u64, usize>,
    /// The solver proved there are no more (false: stopped at the time or count limit).
    pub complete: bool,
    /// Seconds and solver calls of every run that built the list.
    pub seconds: f64,
    pub solver_calls: u64,
    /// Runs that built the list (each going on from the one before).
    #[serde(default = "one_run")]
    pub runs: u64,
    /// Clauses of the final instance (encoding plus blocking clauses), for an external re-check.
    #[serde(skip)]
    pub final_cnf: Cnf,
}

fn one_run() -> u64 {
    1
}

impl Enumeration {
    /// An empty list of `problem`'s period `p`, before the first run.
    fn empty(problem: &Problem, p: usize) -> Enumeration {
        Enumeration {
            game: problem.game.to_string(),
            p: p as u64,
            rare_values: problem.rares.len() as u64,
            classes: Vec::new(),
            by_minimal_period: BTreeMap::new(),
            complete: false,
            seconds: 0.0,
            solver_calls: 0,
            runs: 0,
            final_cnf: Cnf::default(),
        }
    }

    /// Adds a class (a canonical rotation not yet in the list), keeping the invariant.
    fn add(&mut self, class: Vec<Value>) {
        let at = self.classes.binary_search(&class).unwrap_or_else(|at| at);
        *self
            .by_minimal_period
            .entry(minimal_period(&class) as u64)
            .or_insert(0) += 1;
        self.classes.insert(at, class);
    }

    /// Why this list cannot be gone on from for `problem`'s period `p` (`None`: it can): another
    /// game, period or rare table, or a class that is not a canonical pattern of period `p`, or
    /// is there twice. Each class is checked by the witness check, so a list edited by hand or
    /// cut short on disk is refused rather than blocked as if it were patterns.
    pub fn refuses(&self, problem: &Problem, p: usize) -> Option<String> {
        let (game, rares) = (problem.game.to_string(), problem.rares.len() as u64);
        if self.game != game || self.p != p as u64 {
            return Some(format!(
                "lists p = {} of {}, not p = {p} of {game}",
                self.p, self.game
            ));
        }
        if self.rare_values != 0 && self.rare_values != rares {
            return Some(format!(
                "was found with {} rare values, this run has {rares}",
                self.rare_values
            ));
        }
        let mut counts = BTreeMap::new();
        for (k, class) in self.classes.iter().enumerate() {
            let which = format!("class {} of {}", k + 1, self.classes.len());
            if class.len() != p || *class != canonical_rotation(class) {
                return Some(format!("{which} is not a smallest rotation of {p} values"));
            }
            if k > 0 && self.classes[k - 1] >= *class {
                return Some(format!("{which} is out of order or there twice"));
            }
            if let Err(e) = problem.check_witness("file", p as u64, class) {
                return Some(format!("{which} is not a pattern: {e}"));
            }
            *counts.entry(minimal_period(class) as u64).or_insert(0) += 1;
        }
        (counts != self.by_minimal_period)
            .then(|| "its counts by minimal period do not match its classes".to_string())
    }
}

/// The lexicographically smallest rotation.
pub fn canonical_rotation<T: Ord + Copy>(s: &[T]) -> Vec<T> {
    (0..s.len())
        .map(|k| s[k..].iter().chain(&s[..k]).copied().collect::<Vec<T>>())
        .min()
        .unwrap_or_default()
}

/// The clauses that block the byte pattern `bytes` and each of its distinct rotations, so the
/// next model is of another class.
fn rotation_blocks(e: &PeriodEncoding, bytes: &[u8]) -> Vec<Vec<i32>> {
    let p = bytes.len();
    let mut rotations: Vec<Vec<u8>> = (0..p)
        .map(|k| bytes[k..].iter().chain(&bytes[..k]).copied().collect())
        .collect();
    rotations.sort_unstable();
    rotations.dedup();
    rotations
        .iter()
        .map(|rot| (0..p).map(|r| -e.x(r, rot[r] as usize)).collect())
        .collect()
}

fn solve_error(e: anyhow::Error) -> PeriodError {
    PeriodError::Solve(SolveError {
        solver: "cadical",
        reason: e.to_string(),
    })
}

/// Enumerates the patterns of period `p` up to rotation, within `timeout` and `limit` classes.
///
/// # Errors
/// [`PeriodError`] if the encoding or the solver fails, or a model fails the witness check.
pub fn enumerate(
    problem: &Problem,
    p: usize,
    timeout: Option<Duration>,
    limit: usize,
) -> Result<Enumeration, PeriodError> {
    enumerate_from(problem, p, None, timeout, limit, &mut |_| Ok(()))
}

/// As [`enumerate`], going on from `earlier` (the list a run of the same question left, checked
/// by [`Enumeration::refuses`]; its classes are blocked before the first call and its seconds,
/// calls and runs carried on), and handing the list to `on_class` after every class found. A
/// complete `earlier` is returned as it is, with no call.
///
/// # Errors
/// [`PeriodError::Earlier`] if `earlier` is refused; otherwise as [`enumerate`], or whatever
/// `on_class` returns (a list that could not be saved).
pub fn enumerate_from(
    problem: &Problem,
    p: usize,
    earlier: Option<Enumeration>,
    timeout: Option<Duration>,
    limit: usize,
    on_class: &mut dyn FnMut(&Enumeration) -> Result<(), PeriodError>,
) -> Result<Enumeration, PeriodError> {
    use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
    let started = Instant::now();
    let mut found = match earlier {
        Some(earlier) => match earlier.refuses(problem, p) {
            Some(reason) => return Err(PeriodError::Earlier(reason)),
            None => earlier,
        },
        None => Enumeration::empty(problem, p),
    };
    found.rare_values = problem.rares.len() as u64;
    let e = PeriodEncoding::new(&problem.game, problem.space, &problem.rares, p)?;
    let mut cnf = e.cnf.clone();
    for class in &found.classes {
        let bytes = e.compress(class).ok_or_else(|| {
            PeriodError::Earlier(format!("{class:?} has a value the encoding cannot hold"))
        })?;
        for clause in rotation_blocks(&e, &bytes) {
            cnf.add_clause(&clause);
        }
    }
    if found.complete {
        found.final_cnf = cnf;
        return Ok(found);
    }
    found.runs += 1;
    let mut solver = rustsat_cadical::CaDiCaL::default();
    load_cadical(&mut solver, &cnf, &|| false).map_err(solve_error)?;
    // Ends at the deadline or on a stop request (crate::interrupt): either way the classes
    // found so far are a lower bound and are kept.
    let deadline = timeout.map(|limit| started + limit);
    solver.attach_terminator(move || {
        if deadline.is_some_and(|d| Instant::now() >= d) || crate::interrupt::requested() {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
    let seconds_before = found.seconds;
    while found.classes.len() < limit {
        found.solver_calls += 1;
        let answer = solver.solve().map_err(solve_error)?;
        found.seconds = seconds_before + started.elapsed().as_secs_f64();
        match answer {
            SolverResult::Unsat => {
                found.complete = true;
                break;
            }
            SolverResult::Interrupted => break,
            SolverResult::Sat => {}
        }
        let bytes = e.bytes(&cadical_model(&solver, &cnf).map_err(solve_error)?);
        let pattern = e.expand(&bytes);
        problem.check_witness("cadical", p as u64, &pattern)?;
        for clause in rotation_blocks(&e, &bytes) {
            add_ipasir(&mut solver, &clause).map_err(solve_error)?;
            cnf.add_clause(&clause);
        }
        found.add(canonical_rotation(&pattern));
        on_class(&found)?;
    }
    found.seconds = seconds_before + started.elapsed().as_secs_f64();
    found.final_cnf = cnf;
    Ok(found)
}
