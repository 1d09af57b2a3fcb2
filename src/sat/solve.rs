/*!
SAT solvers behind one call: CaDiCaL (through rustsat), splr and varisat.

Every backend takes the same [`Cnf`] and returns a model indexed by variable, so the caller decodes
and witness-checks models the same way whatever solved them. Timeouts: CaDiCaL through a
terminator callback, splr through its own `c_timeout`; varisat has no way to stop a search, so it
runs to the end (the CLI says so).
*/

use std::time::{Duration, Instant};

use super::Cnf;

/// Which solver.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    Cadical,
    Splr,
    Varisat,
}

impl SolverKind {
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Cadical => "cadical",
            SolverKind::Splr => "splr",
            SolverKind::Varisat => "varisat",
        }
    }

    /// Can this solver stop at a timeout?
    pub fn has_timeout(self) -> bool {
        !matches!(self, SolverKind::Varisat)
    }
}

/// What a solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model: `model[v]` is the value of variable `v` (index 0 unused).
    Sat(Vec<bool>),
    Unsat,
    Timeout,
}

/// A solver failed (not a timeout, not an answer).
#[derive(Debug, thiserror::Error)]
#[error("{solver} failed: {reason}")]
pub struct SolveError {
    pub solver: &'static str,
    pub reason: String,
}

/// Solves `cnf` with `kind`, stopping after `timeout` where the solver allows it.
///
/// # Errors
/// [`SolveError`] if the solver reports an internal error.
pub fn solve(kind: SolverKind, cnf: &Cnf, timeout: Option<Duration>) -> Result<Answer, SolveError> {
    let fail = |reason: String| SolveError {
        solver: kind.name(),
        reason,
    };
    match kind {
        SolverKind::Cadical => solve_cadical(cnf, timeout).map_err(|e| fail(e.to_string())),
        SolverKind::Splr => solve_splr(cnf, timeout).map_err(fail),
        SolverKind::Varisat => solve_varisat(cnf).map_err(fail),
    }
}

fn solve_cadical(cnf: &Cnf, timeout: Option<Duration>) -> anyhow::Result<Answer> {
    use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
    use rustsat::types::{Clause, Lit, TernaryVal};
    let mut solver = rustsat_cadical::CaDiCaL::default();
    for clause in cnf.clauses() {
        let clause: Clause = clause
            .iter()
            .map(|&l| Lit::from_ipasir(l))
            .collect::<Result<_, _>>()?;
        solver.add_clause(clause)?;
    }
    if let Some(limit) = timeout {
        let deadline = Instant::now() + limit;
        solver.attach_terminator(move || {
            if Instant::now() >= deadline {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }
    Ok(match solver.solve()? {
        SolverResult::Sat => {
            let mut model = vec![false; cnf.num_vars as usize + 1];
            for v in 1..=cnf.num_vars {
                model[v as usize] = solver.lit_val(Lit::from_ipasir(v)?)? == TernaryVal::True;
            }
            Answer::Sat(model)
        }
        SolverResult::Unsat => Answer::Unsat,
        SolverResult::Interrupted => Answer::Timeout,
    })
}

fn solve_splr(cnf: &Cnf, timeout: Option<Duration>) -> Result<Answer, String> {
    use splr::{Certificate, Config, SolveIF, Solver, SolverError};
    let clauses: Vec<Vec<i32>> = cnf.clauses().map(<[i32]>::to_vec).collect();
    let mut config = Config::default();
    if let Some(limit) = timeout {
        config.c_timeout = limit.as_secs_f64();
    }
    let certificate = match Solver::try_from((config, clauses.as_slice())) {
        Ok(mut solver) => solver.solve(),
        Err(result) => result,
    };
    let model_of = |lits: Vec<i32>| {
        let mut model = vec![false; cnf.num_vars as usize + 1];
        for l in lits.into_iter().filter(|&l| l > 0 && l <= cnf.num_vars) {
            model[l as usize] = true;
        }
        model
    };
    match certificate {
        Ok(Certificate::SAT(lits)) => Ok(Answer::Sat(model_of(lits))),
        Ok(Certificate::UNSAT) => Ok(Answer::Unsat),
        Err(SolverError::TimeOut) => Ok(Answer::Timeout),
        Err(e) => Err(format!("{e:?}")),
    }
}

fn solve_varisat(cnf: &Cnf) -> Result<Answer, String> {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    let mut lits = Vec::new();
    for clause in cnf.clauses() {
        lits.clear();
        lits.extend(
            clause
                .iter()
                .map(|&l| varisat::Lit::from_dimacs(l as isize)),
        );
        solver.add_clause(&lits);
    }
    match solver.solve().map_err(|e| e.to_string())? {
        true => {
            let mut model = vec![false; cnf.num_vars as usize + 1];
            for l in solver.model().unwrap_or_default() {
                let v = l.var().to_dimacs() as usize;
                if v < model.len() {
                    model[v] = l.is_positive();
                }
            }
            Ok(Answer::Sat(model))
        }
        false => Ok(Answer::Unsat),
    }
}
