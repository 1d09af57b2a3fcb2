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

Tabu walks ([`super::local`]) run beside the solver, as in the race that decides a period: CDCL's
rate of finding falls by orders of magnitude from p = 17 to 23 (none in 1500 s at 23, where a walk
finds one in seconds). A walk takes a fixed point only if its class is not yet known; it hands it
over, raises a flag that ends the solver's call, and walks on from a fresh random pattern. Between
calls the loop takes what the walks found exactly as it takes a model: witness check, then the
class and its rotations blocked. So the walks only find classes sooner: the list is complete only
when CaDiCaL says UNSAT with every class blocked, and a walk's class still unblocked at that UNSAT
would be a contradiction ([`PeriodError::Disagree`]).
*/

use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::encode::PeriodEncoding;
use super::periods::{PeriodError, Problem, minimal_period};
use super::solve::{Answer, ProofNote, SolveError, add_ipasir, cadical_model, load_cadical};
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
    /// Classes the tabu walks beside the solver found first (0 in files older than the walks).
    #[serde(default)]
    pub by_local_search: u64,
    /// Fixed points the walks reached, of new classes or known ones: how often a walk comes back
    /// to a class it or the solver had hints at how many classes walks can reach at all.
    #[serde(default)]
    pub local_search_fixed_points: u64,
    /// A proof that no pattern lies outside `classes` ([`prove_complete`], `--all
    /// --proof-dir`): absent until a complete list is proved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completeness: Option<ProofNote>,
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
            by_local_search: 0,
            local_search_fixed_points: 0,
            completeness: None,
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

/// The encoding's CNF with every class of `classes` blocked with all its rotations, and the
/// canonical byte rotation of each class.
fn blocked_cnf(
    e: &PeriodEncoding,
    classes: &[Vec<Value>],
) -> Result<(Cnf, HashSet<Vec<u8>>), PeriodError> {
    let (mut cnf, mut blocked) = (e.cnf.clone(), HashSet::new());
    for class in classes {
        let bytes = e.compress(class).ok_or_else(|| {
            PeriodError::Earlier(format!("{class:?} has a value the encoding cannot hold"))
        })?;
        for clause in rotation_blocks(e, &bytes) {
            cnf.add_clause(&clause);
        }
        blocked.insert(canonical_rotation(&bytes));
    }
    Ok((cnf, blocked))
}

/// Proves the complete list `list` complete, from the list alone: each class is checked again
/// ([`Enumeration::refuses`]), then a fresh CaDiCaL, writing a proof at `stem` in the problem's
/// proof format, is asked the encoding of `list.p` with every class and its rotations blocked
/// ([`blocked_cnf`]). Its UNSAT, checked (LRAT by [`super::lrat`], DRAT by `GRUNDY_DRAT_CHECKER`
/// when it names a checker), says no pattern lies outside the list; with the witness checks,
/// that the list is exactly the patterns of period `p` up to rotation. Why from scratch: the
/// enumeration's own instance grew by thousands of incremental calls and leaves no proof, and
/// a certificate should rest on what the file says, not on the run that wrote it.
///
/// Returns the proof's note (`checked_by: None`: a DRAT proof with no checker named), or
/// `None` if the call ran past `timeout` or `stop` rose.
///
/// # Errors
/// [`PeriodError::Incomplete`] with the pattern found if the instance has a model (the list
/// misses a class); [`PeriodError::Earlier`] if the list is refused or not complete; solver
/// and checker failures.
pub fn prove_complete(
    problem: &Problem,
    list: &Enumeration,
    stem: &std::path::Path,
    timeout: Option<Duration>,
    stop: &AtomicBool,
) -> Result<Option<ProofNote>, PeriodError> {
    let p = list.p as usize;
    if !list.complete {
        return Err(PeriodError::Earlier(
            "the list is not complete: nothing to prove".into(),
        ));
    }
    if let Some(reason) = list.refuses(problem, p) {
        return Err(PeriodError::Earlier(reason));
    }
    let e = PeriodEncoding::new(&problem.game, problem.space, &problem.rares, p)?;
    let (cnf, _) = blocked_cnf(&e, &list.classes)?;
    let checker = super::solve::drat_checker_from_env();
    let (answer, note) = super::solve::solve_with_proof_checked_by(
        super::solve::SolverKind::Cadical,
        &cnf,
        timeout,
        stem,
        (problem.proof_format, checker.as_deref()),
        Some(stop),
    )?;
    match answer {
        Answer::Unsat => Ok(note.map(ProofNote::named_alone)),
        Answer::Sat(model) => {
            let pattern = e.decode(&model);
            problem.check_witness("cadical", list.p, &pattern)?;
            Err(PeriodError::Incomplete {
                p: list.p,
                pattern: canonical_rotation(&pattern),
            })
        }
        Answer::Timeout => Ok(None),
    }
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
/// complete `earlier` is returned as it is, with no call. The problem's local search settings
/// say how many tabu walks run beside the solver and for how long (`local_search` zero: none).
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
    let started = Instant::now();
    let found = match earlier {
        Some(earlier) => match earlier.refuses(problem, p) {
            Some(reason) => return Err(PeriodError::Earlier(reason)),
            None => earlier,
        },
        None => Enumeration::empty(problem, p),
    };
    let e = PeriodEncoding::new(&problem.game, problem.space, &problem.rares, p)?;
    let mut list = Lister::new(problem, &e, found, on_class)?;
    if list.found.complete {
        list.found.final_cnf = list.cnf;
        return Ok(list.found);
    }
    list.found.runs += 1;
    let deadline = timeout.map(|limit| started + limit);
    let walks = Walks::of(problem, p, timeout);
    let board = Board {
        known: Mutex::new(list.blocked.clone()),
        pending: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        reached: AtomicU64::new(0),
    };
    let (sender, finds) = std::sync::mpsc::channel();
    let seconds_before = list.found.seconds;
    let outcome = std::thread::scope(|scope| {
        for walk in 0..walks.threads {
            let (sender, seed) = (sender.clone(), walks.seed.wrapping_add(walk as u64));
            let (board, shifts) = (&board, e.shifts());
            scope.spawn(move || walk_for_classes(shifts, seed, walks.budget, board, sender));
        }
        drop(sender);
        let outcome = list.search(&finds, &board, (deadline, limit));
        board.stop.store(true, Relaxed);
        outcome
    });
    list.found.seconds = seconds_before + started.elapsed().as_secs_f64();
    list.count_fixed_points(&board);
    outcome?;
    list.found.final_cnf = list.cnf;
    Ok(list.found)
}

/// What the walks and the solver's loop share.
struct Board {
    /// The canonical byte rotation of every class found so far, by anyone.
    known: Mutex<HashSet<Vec<u8>>>,
    /// A walk sent a class the loop has not taken yet: ends the solver's call.
    pending: AtomicBool,
    /// The loop is done: ends the walks.
    stop: AtomicBool,
    /// Fixed points the walks reached, new classes or not.
    reached: AtomicU64,
}

impl Board {
    fn known(&self) -> std::sync::MutexGuard<'_, HashSet<Vec<u8>>> {
        self.known.lock().expect("no panic while a class is added")
    }
}

/// The tabu walks of one run: how many, from which seed, for how long.
#[derive(Clone, Copy)]
struct Walks {
    threads: usize,
    seed: u64,
    budget: Duration,
}

impl Walks {
    /// As the race of a period runs them: `local_threads` walks (none when `local_search` is
    /// zero) for `local_search`, or as long as the run, seeded from the run seed.
    fn of(problem: &Problem, p: usize, timeout: Option<Duration>) -> Walks {
        let budget = problem.local_search.or(timeout).unwrap_or(Duration::MAX);
        Walks {
            threads: if budget.is_zero() {
                0
            } else {
                problem.local_threads
            },
            seed: problem.local_seed(p as u64 ^ 0xa11),
            budget,
        }
    }
}

/// One tabu walk for classes not yet known: each fixed point counted, one of a new class marked
/// known, sent, and `pending` raised (which ends the solver's call); then the walk goes on from a
/// fresh random pattern, until `budget` or the board's stop.
fn walk_for_classes(
    shifts: &[Vec<u8>],
    seed: u64,
    budget: Duration,
    board: &Board,
    sender: Sender<Vec<u8>>,
) {
    let is_new = |s: &[u8]| {
        board.reached.fetch_add(1, Relaxed);
        !board.known().contains(&canonical_rotation(s))
    };
    let mut walk = super::local::Walk::new(shifts, seed);
    let started = Instant::now();
    while let Some(left) = budget.checked_sub(started.elapsed()) {
        let Some(bytes) = walk.run(left, &is_new, &board.stop, &mut |_, _| {}) else {
            return;
        };
        board.known().insert(canonical_rotation(&bytes));
        if sender.send(bytes).is_err() {
            return;
        }
        board.pending.store(true, Relaxed);
        walk.restart();
    }
}

/// The list being built, with the instance that knows its classes. Invariant: `blocked` holds
/// the canonical byte rotation of every class of `found`, and `cnf` (and the solver, once
/// loaded) blocks each of them with all its rotations.
struct Lister<'a> {
    problem: &'a Problem,
    e: &'a PeriodEncoding,
    found: Enumeration,
    cnf: Cnf,
    blocked: HashSet<Vec<u8>>,
    /// The walks' fixed points of the earlier runs.
    reached_before: u64,
    on_class: &'a mut dyn FnMut(&Enumeration) -> Result<(), PeriodError>,
}

impl<'a> Lister<'a> {
    /// The list `found` (already checked), its classes blocked in the encoding's CNF.
    fn new(
        problem: &'a Problem,
        e: &'a PeriodEncoding,
        mut found: Enumeration,
        on_class: &'a mut dyn FnMut(&Enumeration) -> Result<(), PeriodError>,
    ) -> Result<Lister<'a>, PeriodError> {
        found.rare_values = problem.rares.len() as u64;
        let (cnf, blocked) = blocked_cnf(e, &found.classes)?;
        let reached_before = found.local_search_fixed_points;
        Ok(Lister {
            problem,
            e,
            found,
            cnf,
            blocked,
            reached_before,
            on_class,
        })
    }

    /// Takes a pattern found by `by` (a model, or a walk's fixed point): witness-checked, its
    /// class and rotations blocked, added, handed on. A class already blocked is left alone.
    fn take(
        &mut self,
        bytes: &[u8],
        by: &'static str,
        solver: &mut rustsat_cadical::CaDiCaL,
    ) -> Result<(), PeriodError> {
        if !self.blocked.insert(canonical_rotation(bytes)) {
            return Ok(());
        }
        let pattern = self.e.expand(bytes);
        self.problem.check_witness(by, self.found.p, &pattern)?;
        for clause in rotation_blocks(self.e, bytes) {
            add_ipasir(solver, &clause).map_err(solve_error)?;
            self.cnf.add_clause(&clause);
        }
        self.found.add(canonical_rotation(&pattern));
        self.found.by_local_search += u64::from(by == LOCAL_SEARCH);
        (self.on_class)(&self.found)
    }

    /// One incremental CaDiCaL, asked again after every class, taking the walks' `finds` between
    /// calls (`pending` ends a call when one arrives), until UNSAT (complete), the deadline, a
    /// stop request, or `limit` classes.
    fn search(
        &mut self,
        finds: &Receiver<Vec<u8>>,
        board: &Board,
        (deadline, limit): (Option<Instant>, usize),
    ) -> Result<(), PeriodError> {
        use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
        let out_of_time =
            || deadline.is_some_and(|d| Instant::now() >= d) || crate::interrupt::requested();
        let mut solver = rustsat_cadical::CaDiCaL::default();
        load_cadical(&mut solver, &self.cnf, &|| false).map_err(solve_error)?;
        let pending = &board.pending;
        solver.attach_terminator(|| match out_of_time() || pending.load(Relaxed) {
            true => ControlSignal::Terminate,
            false => ControlSignal::Continue,
        });
        loop {
            pending.store(false, Relaxed);
            self.count_fixed_points(board);
            for bytes in finds.try_iter() {
                if self.found.classes.len() < limit {
                    self.take(&bytes, LOCAL_SEARCH, &mut solver)?;
                }
            }
            if self.found.classes.len() >= limit || out_of_time() {
                return Ok(());
            }
            self.found.solver_calls += 1;
            match solver.solve().map_err(solve_error)? {
                SolverResult::Unsat => return self.completed(finds, board),
                SolverResult::Interrupted if pending.load(Relaxed) => continue,
                SolverResult::Interrupted => return Ok(()),
                SolverResult::Sat => {}
            }
            let bytes = self
                .e
                .bytes(&cadical_model(&solver, &self.cnf).map_err(solve_error)?);
            board.known().insert(canonical_rotation(&bytes));
            self.take(&bytes, "cadical", &mut solver)?;
        }
    }

    /// The walks' fixed points so far, in the list (so that a list saved mid-run counts them as
    /// it counts the classes they found).
    fn count_fixed_points(&mut self, board: &Board) {
        self.found.local_search_fixed_points = self.reached_before + board.reached.load(Relaxed);
    }

    /// Marks the list complete after the solver's UNSAT, unless a walk found a class that the
    /// UNSAT says cannot be there.
    fn completed(&mut self, finds: &Receiver<Vec<u8>>, board: &Board) -> Result<(), PeriodError> {
        let known = board.known();
        if finds
            .try_iter()
            .chain(known.iter().cloned())
            .any(|bytes| !self.blocked.contains(&canonical_rotation(&bytes)))
        {
            return Err(PeriodError::Disagree { p: self.found.p });
        }
        self.found.complete = true;
        Ok(())
    }
}

/// Who found a class, as the witness check names it.
const LOCAL_SEARCH: &str = "local search";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::ExactGenerator;

    /// `.45`'s problem and its true tail (period 20 from heap 498, taken from its values, not from
    /// the encoding), as the byte pattern of its period's encoding.
    fn true_tail_of_45() -> (Problem, PeriodEncoding, Vec<u8>) {
        let mut g = ExactGenerator::new(&".45".parse().unwrap());
        g.extend_to(1 << 12).unwrap();
        let problem = Problem::from_prefix(&g);
        let tail = g.values()[(1 << 12) - 20..].to_vec();
        problem.check_witness("test", 20, &tail).unwrap();
        let e = PeriodEncoding::new(&problem.game, problem.space, &problem.rares, 20).unwrap();
        let bytes = e.compress(&tail).unwrap();
        (problem, e, bytes)
    }

    fn board_knowing(classes: &[Vec<u8>]) -> Board {
        Board {
            known: Mutex::new(classes.iter().map(|c| canonical_rotation(c)).collect()),
            pending: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            reached: AtomicU64::new(0),
        }
    }

    /// The solver's UNSAT makes a list complete only if every class a walk found is blocked: a
    /// true pattern known to the board (or still in the channel) but not blocked in the instance
    /// means the UNSAT contradicts a witness-checked fixed point, an error, never a complete list.
    #[test]
    fn an_unsat_with_a_walks_class_unblocked_is_a_disagreement() {
        let (problem, e, tail) = true_tail_of_45();
        let mut on_class = |_: &Enumeration| Ok(());
        let empty = Enumeration::empty(&problem, 20);
        let mut list = Lister::new(&problem, &e, empty.clone(), &mut on_class).unwrap();
        let (_walk, finds) = std::sync::mpsc::channel::<Vec<u8>>();
        let known = board_knowing(std::slice::from_ref(&tail));
        let said = list.completed(&finds, &known);
        assert!(
            matches!(said, Err(PeriodError::Disagree { p: 20 })),
            "{said:?}"
        );
        assert!(!list.found.complete);

        let (walk, finds) = std::sync::mpsc::channel::<Vec<u8>>();
        walk.send(tail[5..].iter().chain(&tail[..5]).copied().collect())
            .unwrap();
        let said = list.completed(&finds, &board_knowing(&[]));
        assert!(
            matches!(said, Err(PeriodError::Disagree { p: 20 })),
            "{said:?}"
        );

        // The same class blocked (a rotation of it in the list): complete.
        let listed = Enumeration {
            classes: vec![canonical_rotation(&e.expand(&tail))],
            by_minimal_period: BTreeMap::from([(minimal_period(&tail) as u64, 1)]),
            ..empty
        };
        let mut on_class = |_: &Enumeration| Ok(());
        let mut list = Lister::new(&problem, &e, listed, &mut on_class).unwrap();
        let (_walk, finds) = std::sync::mpsc::channel::<Vec<u8>>();
        list.completed(&finds, &known).unwrap();
        assert!(list.found.complete);
    }
}
