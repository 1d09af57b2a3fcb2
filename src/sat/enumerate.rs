/*!
All patterns of one period, up to rotation (`grundy sat GAME --periods P..P --all`).

One incremental CaDiCaL instance holds the encoding of period `p`. Each model is decoded, checked
by the witness checker, and then blocked together with all its rotations (one clause per distinct
rotation: "some residue differs from it"), so every class of patterns under rotation is found once.
The search ends when the instance is UNSAT (the list is complete), at the time limit, or at the
count limit (the list is then a lower bound, and says so).

Every pattern with period `p` is counted, including those whose minimal period is a proper
divisor (a period-4 pattern repeated is a period-8 pattern); `by_minimal_period` tells them apart.
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Enumeration {
    pub game: String,
    pub p: u64,
    /// One pattern per rotation class (true values), the lexicographically smallest rotation,
    /// sorted.
    pub classes: Vec<Vec<Value>>,
    /// How many classes have each minimal period.
    pub by_minimal_period: BTreeMap<u64, usize>,
    /// The solver proved there are no more (false: stopped at the time or count limit).
    pub complete: bool,
    pub seconds: f64,
    pub solver_calls: u64,
    /// Clauses of the final instance (encoding plus blocking clauses), for an external re-check.
    #[serde(skip)]
    pub final_cnf: Cnf,
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
    use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
    let started = Instant::now();
    let e = PeriodEncoding::new(&problem.game, problem.space, &problem.rares, p)?;
    let mut cnf = e.cnf.clone();
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
    let mut classes = Vec::new();
    let mut complete = false;
    let mut calls = 0;
    while classes.len() < limit {
        calls += 1;
        match solver.solve().map_err(solve_error)? {
            SolverResult::Unsat => {
                complete = true;
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
        classes.push(canonical_rotation(&pattern));
    }
    classes.sort();
    let mut by_minimal_period = BTreeMap::new();
    for c in &classes {
        *by_minimal_period
            .entry(minimal_period(c) as u64)
            .or_insert(0) += 1;
    }
    Ok(Enumeration {
        game: problem.game.to_string(),
        p: p as u64,
        classes,
        by_minimal_period,
        complete,
        seconds: started.elapsed().as_secs_f64(),
        solver_calls: calls,
        final_cnf: cnf,
    })
}
