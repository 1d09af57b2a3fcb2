//! A run of a campaign: worker threads, each with an incremental CaDiCaL, take cubes from the
//! ledger's queue, refute them or split them, until the queue is empty, a model is found or
//! time is up.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::{Bound, Cube, Ledger, Verdict, split};
use crate::sat::encode::PeriodEncoding;

/// How a run of a campaign goes.
pub struct Conquer<'a> {
    pub encoding: &'a PeriodEncoding,
    pub threads: usize,
    /// Conflicts a cube gets before it is split.
    pub conflicts: u32,
    /// Pieces a split makes at most ([`split`]).
    pub fanout: usize,
    /// Stop (leaving the rest open) at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this is raised (Ctrl-C, SIGTERM).
    pub stop: &'a AtomicBool,
    /// CaDiCaL's seed (0: its default).
    pub seed: u32,
    /// CaDiCaL's configuration for every worker (see [`crate::sat::solve::Preset`]).
    pub preset: crate::sat::solve::Preset,
    /// Stop after this many solver calls in this run (a bound on work that does not depend on
    /// the machine: tests, and a share of a campaign for a job of fixed size).
    pub max_calls: Option<u64>,
    /// Clauses of at most this many literals that a worker's CaDiCaL learns go to the other
    /// workers before their next call (0: none). Learned clauses are implied by the encoding
    /// (assumptions are decisions in CaDiCaL, never premises), so sharing them changes no answer.
    pub share_len: usize,
}

/// A run could not go on: a solver failed or a model failed the witness check.
#[derive(Debug, thiserror::Error)]
pub enum ConquerError {
    #[error("CaDiCaL failed: {0}")]
    Solver(String),
    /// The ledger handed in holds a cube that does not parse (the CLI reads ledgers with
    /// [`Ledger::read`], which refuses such a file before any solving).
    #[error("the ledger holds a malformed cube: {0}")]
    BadLedger(String),
    #[error("a model in cube {cube} fails the witness check: {reason}")]
    BadModel { cube: String, reason: String },
    #[error("{0}")]
    Report(String),
}

/// Turns a model's bytes into a checked pattern (true values), or says why it is not one.
pub type WitnessCheck<'a> = dyn Fn(&[u8]) -> Result<Vec<crate::values::Value>, String> + Sync + 'a;

/// One solver call's outcome on a cube.
enum Tried {
    /// UNSAT under the bounds of this region (the cube or a box holding it), with the clause
    /// that says so (the negated bounds used).
    Refuted(Cube, Vec<i32>),
    Model(Vec<u8>),
    Undecided,
}

/// The queue and counters the workers share; see the module notes for the invariant.
struct Frontier {
    open: Vec<Cube>,
    running: HashMap<u64, Cube>,
    next_ticket: u64,
    ledger: Ledger,
    found: Option<Result<Vec<crate::values::Value>, ConquerError>>,
    /// Workers still looking for work.
    workers: usize,
    /// Cubes taken in this run.
    taken: u64,
    /// The clause of every refutation so far (implied by the encoding): each worker adds those
    /// it has not seen before its next call, so a region one solver refuted is known to all.
    region_clauses: Vec<Vec<i32>>,
}

impl Frontier {
    /// Ends the run with `outcome` (the first one kept) and tells every worker to halt.
    fn end(&mut self, outcome: Result<Vec<crate::values::Value>, ConquerError>, halt: &AtomicBool) {
        self.found.get_or_insert(outcome);
        halt.store(true, Ordering::Relaxed);
    }

    /// The queue of a new run of the campaign in `ledger`, counted as one more run, with the
    /// conflict budget and preset of `run`.
    fn start(ledger: &Ledger, run: &Conquer<'_>) -> Result<Frontier, ConquerError> {
        let (_, open) = ledger.cubes().map_err(ConquerError::BadLedger)?;
        let mut base = ledger.clone();
        base.runs += 1;
        base.conflicts_per_call = run.conflicts;
        base.preset = run.preset;
        Ok(Frontier {
            open,
            running: HashMap::new(),
            next_ticket: 0,
            ledger: base,
            found: None,
            workers: run.threads.max(1),
            taken: 0,
            region_clauses: Vec::new(),
        })
    }

    /// The end of a run, the workers gone: `ledger` becomes the final state (with the pattern,
    /// if one was found), and what ended the run early, if anything, is returned.
    fn finish(
        &mut self,
        ledger: &mut Ledger,
    ) -> Option<Result<Vec<crate::values::Value>, ConquerError>> {
        let found = self.found.take();
        if let Some(Ok(pattern)) = &found {
            self.ledger.pattern = Some(pattern.clone());
        }
        *ledger = self.snapshot();
        found
    }

    /// Removes every waiting or running cube inside `region` and counts it refuted; `ticket`'s
    /// own cube (if still running) among them.
    fn refute(&mut self, ticket: u64, region: &Cube) {
        let mut share = 0.0;
        self.open.retain(|c| {
            let inside = region.contains(c);
            if inside {
                share += c.share();
            }
            !inside
        });
        let gone: Vec<u64> = self
            .running
            .iter()
            .filter(|(t, c)| **t == ticket || region.contains(c))
            .map(|(t, _)| *t)
            .collect();
        for t in gone {
            share += self.running.remove(&t).map_or(0.0, |c| c.share());
        }
        self.ledger.refuted_share += share;
        self.ledger.refutations += 1;
        self.ledger.new_regions.push(region.render());
    }

    /// Puts back the `pieces` of `ticket`'s undecided `cube`, unless a wider refutation by
    /// another worker removed the cube meanwhile (then there is nothing left to split).
    fn put_back(&mut self, ticket: u64, cube: Cube, pieces: Option<Vec<Cube>>) {
        if self.running.remove(&ticket).is_none() {
            return;
        }
        match pieces {
            Some(pieces) => {
                // Reversed: the queue is a stack, so the lowest piece goes first.
                self.open.extend(pieces.into_iter().rev());
                self.ledger.splits += 1;
            }
            // Every residue fixed and still undecided cannot happen (propagation settles a full
            // assignment); keep it open rather than lose it.
            None => self.open.insert(0, cube),
        }
    }

    /// After `snapshot` was reported: how much of the region log it wrote, and the regions it
    /// did not log (a save that failed) back ahead of those refuted since.
    fn logged(&mut self, mut snapshot: Ledger) {
        self.ledger.logged_regions = snapshot.logged_regions;
        self.ledger.region_log_bytes = snapshot.region_log_bytes;
        snapshot.new_regions.append(&mut self.ledger.new_regions);
        self.ledger.new_regions = snapshot.new_regions;
    }

    /// The ledger as it stands, the running cubes written back as open; the regions refuted
    /// since the last snapshot move into it (saving it logs them).
    fn snapshot(&mut self) -> Ledger {
        let regions = std::mem::take(&mut self.ledger.new_regions);
        let mut ledger = Ledger {
            new_regions: regions,
            ..self.ledger.clone()
        };
        ledger.open = self
            .open
            .iter()
            .chain(self.running.values())
            .map(Cube::render)
            .collect();
        ledger
    }
}

/// Runs the campaign in `ledger` on: `run.threads` workers, each an incremental CaDiCaL, take cubes
/// from the queue (last in, first out: depth first, so the queue stays short) until a model is
/// found, no cube is left, or the run is stopped. `check` turns a model's bytes into a checked
/// pattern (the witness check) or says why it is not one. `report` gets a snapshot of the ledger
/// every `report_every` (to save it and show progress) and once at the end; an error from it stops
/// the run. The ledger passed in is left as the final snapshot.
///
/// # Errors
/// [`ConquerError`] if a solver fails or a model fails the check; the ledger is still the last
/// consistent state (the cube of a failed call stays open).
pub fn conquer(
    run: &Conquer<'_>,
    ledger: &mut Ledger,
    check: &WitnessCheck<'_>,
    report_every: Duration,
    report: &mut dyn FnMut(&mut Ledger) -> Result<(), String>,
) -> Result<Verdict, ConquerError> {
    let started = Instant::now();
    let frontier = Mutex::new(Frontier::start(ledger, run)?);
    let changed = Condvar::new();
    let halt = AtomicBool::new(false);
    let learned = Mutex::new(Vec::new());
    let seconds_before = ledger.seconds;
    let outcome = std::thread::scope(|scope| {
        for id in 0..run.threads.max(1) {
            let pool = Pool {
                id,
                learned: &learned,
            };
            let (frontier, changed, halt) = (&frontier, &changed, &halt);
            scope.spawn(move || worker(run, frontier, changed, halt, check, pool));
        }
        let mut last_report = Instant::now();
        loop {
            let state = frontier.lock().expect("cube frontier lock");
            let (mut state, _) = changed
                .wait_timeout(state, Duration::from_millis(200))
                .expect("cube frontier lock");
            let late = run.deadline.is_some_and(|d| Instant::now() >= d);
            if late || run.stop.load(Ordering::Relaxed) || state.found.is_some() {
                halt.store(true, Ordering::Relaxed);
            }
            if state.workers == 0 {
                break;
            }
            if last_report.elapsed() >= report_every {
                let mut snapshot = state.snapshot();
                drop(state);
                snapshot.seconds = seconds_before + started.elapsed().as_secs_f64();
                let reported = report(&mut snapshot);
                let mut state = frontier.lock().expect("cube frontier lock");
                state.logged(snapshot);
                if let Err(reason) = reported {
                    // The last report that went through stays the state on disk.
                    state.end(Err(ConquerError::Report(reason)), &halt);
                }
                last_report = Instant::now();
            }
        }
        let mut state = frontier.lock().expect("cube frontier lock");
        state.ledger.seconds = seconds_before + started.elapsed().as_secs_f64();
        state.finish(ledger)
    });
    // Saved even after a failure: everything refuted so far stays refuted.
    let saved = report(ledger).map_err(ConquerError::Report);
    if let Some(Err(e)) = outcome {
        return Err(e);
    }
    saved?;
    Ok(ledger.verdict())
}

/// The short learned clauses of every worker, each with the worker that learned it.
struct Pool<'p> {
    id: usize,
    learned: &'p Mutex<Vec<(usize, Vec<i32>)>>,
}

impl Pool<'_> {
    /// The clauses other workers pooled after the first `seen` (which then counts them all).
    fn learned_by_others(&self, seen: &mut usize) -> Vec<Vec<i32>> {
        let learned = self.learned.lock().expect("lemma pool lock");
        let others = learned[*seen..].iter().filter(|(by, _)| *by != self.id);
        let news = others.map(|(_, c)| c.clone()).collect();
        *seen = learned.len();
        news
    }
}

/// One worker: its own CaDiCaL, cubes from the queue until there are none or the run halts.
fn worker<'h>(
    run: &Conquer<'_>,
    frontier: &Mutex<Frontier>,
    changed: &Condvar,
    halt: &'h AtomicBool,
    check: &WitnessCheck<'_>,
    pool: Pool<'h>,
) {
    let mut solver = match new_solver(run, halt, &pool) {
        Ok(s) => s,
        Err(e) => {
            let mut state = frontier.lock().expect("cube frontier lock");
            state.end(Err(ConquerError::Solver(e.to_string())), halt);
            state.workers -= 1;
            changed.notify_all();
            return;
        }
    };
    let e = run.encoding;
    let rotation = frontier
        .lock()
        .expect("cube frontier lock")
        .ledger
        .rotation();
    // Region clauses and pooled lemmas already added to this solver.
    let (mut seen, mut seen_learned) = (0, 0);
    loop {
        let mut news = pool.learned_by_others(&mut seen_learned);
        // Take a cube, or wait while others run (their splits may bring more).
        let Some((ticket, cube)) = next_cube(run, frontier, changed, halt, &mut seen, &mut news)
        else {
            return;
        };
        let started = Instant::now();
        let tried = add_clauses(&mut solver, &news)
            .and_then(|()| attempt(&mut solver, e, &cube, run.conflicts));
        let seconds = started.elapsed().as_secs_f64();
        let mut state = frontier.lock().expect("cube frontier lock");
        state.ledger.calls += 1;
        state.ledger.solver_seconds += seconds;
        match tried {
            Err(err) => state.end(Err(ConquerError::Solver(err.to_string())), halt),
            Ok(Tried::Refuted(region, clause)) => {
                state.refute(ticket, &region);
                state.region_clauses.push(clause);
            }
            Ok(Tried::Model(bytes)) => {
                let checked = check(&bytes).map_err(|reason| ConquerError::BadModel {
                    cube: cube.render(),
                    reason,
                });
                state.end(checked, halt);
            }
            // Stopped from outside: the cube stays running, so the snapshot keeps it open.
            Ok(Tried::Undecided) if halt.load(Ordering::Relaxed) => {}
            Ok(Tried::Undecided) => {
                let pieces = split(e.shifts(), &cube, rotation, run.fanout);
                state.put_back(ticket, cube, pieces);
            }
        }
        changed.notify_all();
    }
}

/// Waits for a cube to take and takes it (with a fresh ticket), after moving the region
/// clauses this worker has not yet seen into `news`. `None` when the worker is done: the run
/// halted, reached its `max_calls`, or has no cube waiting or running; the worker is then
/// counted out.
fn next_cube(
    run: &Conquer<'_>,
    frontier: &Mutex<Frontier>,
    changed: &Condvar,
    halt: &AtomicBool,
    seen: &mut usize,
    news: &mut Vec<Vec<i32>>,
) -> Option<(u64, Cube)> {
    let mut state = frontier.lock().expect("cube frontier lock");
    news.extend_from_slice(&state.region_clauses[*seen..]);
    *seen = state.region_clauses.len();
    loop {
        if run.max_calls.is_some_and(|m| state.taken >= m) {
            halt.store(true, Ordering::Relaxed);
        }
        if halt.load(Ordering::Relaxed) || (state.open.is_empty() && state.running.is_empty()) {
            state.workers -= 1;
            changed.notify_all();
            return None;
        }
        if let Some(cube) = state.open.pop() {
            let ticket = state.next_ticket;
            state.next_ticket += 1;
            state.taken += 1;
            state.running.insert(ticket, cube.clone());
            return Some((ticket, cube));
        }
        state = changed
            .wait_timeout(state, Duration::from_millis(100))
            .expect("cube frontier lock")
            .0;
    }
}

/// A CaDiCaL with the encoding loaded, stopping when `halt` rises, its short lemmas going to
/// `pool`.
fn new_solver<'h>(
    run: &Conquer<'_>,
    halt: &'h AtomicBool,
    pool: &Pool<'h>,
) -> anyhow::Result<rustsat_cadical::CaDiCaL<'h, 'h>> {
    use rustsat::solvers::{ControlSignal, Learn, Terminate};
    let mut solver = crate::sat::solve::fresh_cadical(run.preset, run.seed)?;
    let stopped = || halt.load(Ordering::Relaxed);
    crate::sat::solve::load_cadical(&mut solver, &run.encoding.cnf, &stopped)?;
    solver.attach_terminator(move || {
        if halt.load(Ordering::Relaxed) {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
    if run.share_len > 0 && run.threads > 1 {
        let (id, learned) = (pool.id, pool.learned);
        solver.attach_learner(
            move |clause: rustsat::types::Clause| {
                let lits = clause.iter().map(|l| l.to_ipasir()).collect();
                learned.lock().expect("lemma pool lock").push((id, lits));
            },
            run.share_len,
        );
    }
    Ok(solver)
}

/// Adds clauses (implied by the encoding) to `solver`.
fn add_clauses(
    solver: &mut rustsat_cadical::CaDiCaL<'_, '_>,
    clauses: &[Vec<i32>],
) -> anyhow::Result<()> {
    for c in clauses {
        crate::sat::solve::add_ipasir(solver, c)?;
    }
    Ok(())
}

/// One call on `cube`: its bounds as assumptions, at most `conflicts` conflicts.
fn attempt(
    solver: &mut rustsat_cadical::CaDiCaL<'_, '_>,
    e: &PeriodEncoding,
    cube: &Cube,
    conflicts: u32,
) -> anyhow::Result<Tried> {
    use rustsat::solvers::{LimitConflicts, SolveIncremental, SolverResult};
    use rustsat::types::Lit;
    let bounds = cube.bounds(e);
    let assumptions: Vec<Lit> = bounds
        .iter()
        .map(|&(l, _)| Lit::from_ipasir(l))
        .collect::<Result<_, _>>()?;
    // CaDiCaL forgets a limit after each call.
    solver.limit_conflicts(Some(conflicts))?;
    Ok(match solver.solve_assumps(&assumptions)? {
        SolverResult::Unsat => {
            // The core is a clause of negated assumptions: the bounds the refutation used.
            let core: Vec<i32> = solver.core()?.iter().map(|l| l.to_ipasir()).collect();
            let used: Vec<Bound> = bounds
                .iter()
                .filter(|(l, _)| core.contains(&-l))
                .map(|&(_, b)| b)
                .collect();
            Tried::Refuted(cube.keeping(&used), core)
        }
        SolverResult::Sat => {
            let model = crate::sat::solve::cadical_model(solver, &e.cnf)?;
            Tried::Model(e.bytes(&model))
        }
        SolverResult::Interrupted => Tried::Undecided,
    })
}
