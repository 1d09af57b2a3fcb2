/*!
CaDiCaL steered by near misses (large-neighbourhood search): the default way `grundy sat` runs a
single CaDiCaL.

The tabu search of [`super::local`] walks close to fixed points without always landing on one
(Officers p = 17: never), and CaDiCaL, asked under assumptions whether some pattern agrees with a
near miss outside `k` free residues, answers in a fraction of a second where the whole question
takes tens of seconds or more. So one incremental CaDiCaL instance holding the full encoding
alternates, round after round, between
- *neighbourhoods*: a burst of one continuing tabu walk gives its best states (and where it
  stands); for each, a few calls assume its bytes at all residues but its bad ones and random
  others (`k` free in all), each under a conflict limit. `k` adapts: a neighbourhood refuted
  quickly was too small, one that hit the limit too large;
- the *whole question*, for as long as the burst and the neighbourhoods of that round took.

Soundness: what CaDiCaL learns under assumptions is implied by the clauses alone, so a call
without assumptions answers the whole question: UNSAT there is UNSAT (local search never proves
anything), and every SAT answer, neighbourhood or not, is a model of the full encoding (extra
clauses, such as forbidden smaller periods, included). The caller still witness-checks it.

Measured (Officers p = 17, which the tabu search alone seldom finds: 1 seed of 18 in 30 s; one
thread each). Thirty paired seeds, both arms of a seed at the same time (`cargo run --release --example lns_probe --
120 SEED 17` against `cargo run --release --example cdcl_probe -- SEED 120 17`, seeds 101-130,
`results/officers/steered-vs-plain-p17.tsv`): steered 4.7-86.1 s, median 17.8 s, mean 25.2 s;
CaDiCaL alone 10.2-47.5 s, median 21.3 s, mean 22.9 s; steered sooner on 19 of 30 seeds (a sign
test gives p of about 0.2). So no clear gain: a lower median bought with a heavier tail (the
time of a seed swings with where a 2-s burst happens to stand; an earlier twelve-seed sample had
median about 29 s, an earlier six-seed one mean 10.7 s). It stays the default because it
searches where neither the walk nor plain CDCL goes, at no measured cost, and UNSAT answers are
unchanged. p = 23: 1 seed of 6 within 60 s, against 2 of 6 for the tabu search alone: the
neighbourhoods cost walk time where the walk does land, so [`super::periods`] runs this beside a
plain tabu thread.
*/

use super::encode::PeriodEncoding;
use super::lemmas::Carry;
use super::local::{Walk, XorShift};
use super::solve::{Answer, cadical_model, carry_lemmas, load_cadical};
use rustsat::solvers::{
    ControlSignal, LimitConflicts, Solve, SolveIncremental, SolverResult, Terminate,
};
use rustsat::types::Lit;
use rustsat_cadical::CaDiCaL;
use std::cell::Cell;
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How the rounds are paced; [`Pace::for_period`] gives the measured defaults.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Length of one tabu burst.
    pub burst: Duration,
    /// Near misses kept from a burst (its best states, fewest bad residues first).
    pub near_misses: usize,
    /// Neighbourhoods tried around each near miss.
    pub tries: usize,
    /// Free residues in the first neighbourhood (then adapted).
    pub free: usize,
    /// Conflict limit of one neighbourhood.
    pub conflicts: u32,
}

impl Pace {
    /// 2-s bursts, four near misses with three neighbourhoods each, two thirds of the residues
    /// free at first, 3000 conflicts a neighbourhood. (Officers p = 27: `k` settles near 19-20 of
    /// 27; p = 17 near 11-12.)
    pub fn for_period(p: usize) -> Pace {
        Pace {
            burst: Duration::from_secs(2),
            near_misses: 4,
            tries: 3,
            free: (p * 2 / 3).max(1),
            conflicts: 3000,
        }
    }
}

/// What a run did, for reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub rounds: u64,
    pub neighbourhoods: u64,
    pub refuted: u64,
    pub limited: u64,
    /// The free count when the run ended.
    pub free: usize,
    /// Whether a neighbourhood (or the walk itself) gave the model.
    pub by_neighbourhood: bool,
}

/// Solves the encoding `e` (which may hold extra clauses) by rounds of neighbourhoods and of the
/// whole question until an answer, `timeout`, or `stop`.
///
/// # Errors
/// What CaDiCaL reports as a failure (not a timeout, not an answer).
pub fn solve(
    e: &PeriodEncoding,
    timeout: Option<Duration>,
    seed: u64,
    pace: Pace,
    stop: &AtomicBool,
    carry: Option<&Carry>,
) -> anyhow::Result<(Answer, Tally)> {
    let deadline = timeout.map(|t| Instant::now() + t);
    let late =
        move || deadline.is_some_and(|d| Instant::now() >= d) || stop.load(Ordering::Relaxed);
    let mut tally = Tally {
        free: pace.free.clamp(1, e.p),
        ..Tally::default()
    };
    let Some(mut solver) = load(e, &late)? else {
        return Ok((Answer::Timeout, tally));
    };
    if let Some(carry) = carry {
        carry_lemmas(&mut solver, carry)?;
    }
    // The end of the current global call, besides the overall deadline and the stop flag.
    let round_end: Rc<Cell<Option<Instant>>> = Rc::new(Cell::new(None));
    let round_end_seen = Rc::clone(&round_end);
    solver.attach_terminator(move || {
        let round_over = round_end_seen.get().is_some_and(|d| Instant::now() >= d);
        if round_over || late() {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
    let mut steer = Steer {
        e,
        walk: Walk::new(e.shifts(), seed),
        tried: HashSet::new(),
        rng: XorShift::new(seed),
    };
    while !late() {
        tally.rounds += 1;
        let round_started = Instant::now();
        let budget = deadline.map_or(pace.burst, |d| {
            pace.burst.min(d.saturating_duration_since(Instant::now()))
        });
        let steered = steer.round(&mut solver, budget, pace, &mut tally, stop, &late)?;
        if let Some(answer) = steered {
            return Ok((answer, tally));
        }
        // The whole question, for as long as the burst and its neighbourhoods took.
        round_end.set(Some(Instant::now() + round_started.elapsed()));
        solver.limit_conflicts(None)?;
        let answer = solver.solve()?;
        round_end.set(None);
        match answer {
            SolverResult::Sat => return Ok((Answer::Sat(cadical_model(&solver, &e.cnf)?), tally)),
            SolverResult::Unsat => return Ok((Answer::Unsat, tally)),
            SolverResult::Interrupted => {}
        }
    }
    Ok((Answer::Timeout, tally))
}

/// The local half of the search: the walk that goes on from burst to burst, the near misses
/// already tried, and the random source that picks free residues.
struct Steer<'e> {
    e: &'e PeriodEncoding,
    walk: Walk,
    tried: HashSet<Vec<u8>>,
    rng: XorShift,
}

impl Steer<'_> {
    /// One burst of at most `budget` and the neighbourhoods around its near misses: a model (the
    /// walk's own fixed point if the clauses take it), or `Timeout` once `late`; `None` when the
    /// round found nothing.
    fn round(
        &mut self,
        solver: &mut CaDiCaL,
        budget: Duration,
        pace: Pace,
        tally: &mut Tally,
        stop: &AtomicBool,
        late: &dyn Fn() -> bool,
    ) -> anyhow::Result<Option<Answer>> {
        let e = self.e;
        let (found, mut near) = burst(&mut self.walk, budget, stop, pace.near_misses);
        if let Some(s) = found {
            // A fixed point; the extra clauses may still refuse it (a smaller period).
            if let Some(model) = model_with(solver, e, &s, &[])? {
                tally.by_neighbourhood = true;
                return Ok(Some(Answer::Sat(model)));
            }
            self.walk.restart();
        }
        let shifts = e.shifts();
        let here = self.walk.pattern().to_vec();
        near.push((bad_residues(&here, shifts).len(), here));
        for s in fresh_near_misses(near, &mut self.tried, pace.near_misses) {
            let bad = bad_residues(&s, shifts);
            for _ in 0..pace.tries {
                let free = free_residues(&bad, tally.free, e.p, &mut self.rng);
                if let Some(answer) = neighbourhood(solver, e, &s, &free, pace, tally, late)? {
                    return Ok(Some(answer));
                }
            }
        }
        Ok(None)
    }
}

/// States of a walk with the number of their bad residues.
type NearMisses = Vec<(usize, Vec<u8>)>;

/// One tabu burst of `budget`: a fixed point if the walk reached one, and its near misses, the
/// states with the fewest bad residues seen, each once and `4 * most` at most (a walk on a
/// plateau shows thousands).
fn burst(
    walk: &mut Walk,
    budget: Duration,
    stop: &AtomicBool,
    most: usize,
) -> (Option<Vec<u8>>, NearMisses) {
    let mut near: NearMisses = Vec::new();
    let found = walk.run(budget, &|_| true, stop, &mut |s, bad| {
        if near.first().is_some_and(|&(fewest, _)| bad < fewest) {
            near.clear();
        }
        if near.len() < 4 * most && !near.iter().any(|(_, n)| n == s) {
            near.push((bad, s.to_vec()));
        }
    });
    (found, near)
}

/// The best of `near` (fewest bad residues first), at most `most` of them, each near miss once
/// over the whole search (a walk may stand on the same state after several bursts). Only those
/// chosen are remembered in `tried`, so it grows by at most `most` a round.
fn fresh_near_misses(
    mut near: Vec<(usize, Vec<u8>)>,
    tried: &mut HashSet<Vec<u8>>,
    most: usize,
) -> Vec<Vec<u8>> {
    near.sort_by_key(|&(bad, _)| bad);
    let mut chosen = Vec::new();
    for (_, s) in near {
        if chosen.len() < most && tried.insert(s.clone()) {
            chosen.push(s);
        }
    }
    chosen
}

/// `k` free residues of `p`: the first `k` bad ones, then random others.
fn free_residues(bad: &[usize], k: usize, p: usize, rng: &mut XorShift) -> Vec<usize> {
    let mut free = bad.to_vec();
    free.truncate(k);
    while free.len() < k {
        let r = rng.below(p);
        if !free.contains(&r) {
            free.push(r);
        }
    }
    free
}

/// One neighbourhood call: is there a pattern that agrees with `s` outside the `free` residues
/// (within `pace.conflicts`)? A model, or `Timeout` once `late`, ends the search; a refutation
/// or a hit limit only adapts `tally.free` (a quick refutation: too small; the limit: too large).
fn neighbourhood(
    solver: &mut CaDiCaL,
    e: &PeriodEncoding,
    s: &[u8],
    free: &[usize],
    pace: Pace,
    tally: &mut Tally,
    late: &dyn Fn() -> bool,
) -> anyhow::Result<Option<Answer>> {
    if late() {
        return Ok(Some(Answer::Timeout));
    }
    let t = Instant::now();
    tally.neighbourhoods += 1;
    solver.limit_conflicts(Some(pace.conflicts))?;
    match solver.solve_assumps(&fixed_outside(e, s, free))? {
        SolverResult::Sat => {
            tally.by_neighbourhood = true;
            return Ok(Some(Answer::Sat(cadical_model(solver, &e.cnf)?)));
        }
        SolverResult::Unsat => {
            tally.refuted += 1;
            if t.elapsed() < Duration::from_millis(50) && tally.free < e.p {
                tally.free += 1;
            }
        }
        SolverResult::Interrupted if !late() => {
            tally.limited += 1;
            tally.free = tally.free.saturating_sub(1).max(1);
        }
        SolverResult::Interrupted => return Ok(Some(Answer::Timeout)),
    }
    Ok(None)
}

/// A CaDiCaL holding the clauses of `e`; `None` once `late`.
fn load<'t, 'l>(
    e: &PeriodEncoding,
    late: &dyn Fn() -> bool,
) -> anyhow::Result<Option<CaDiCaL<'t, 'l>>> {
    let mut solver = CaDiCaL::default();
    Ok(load_cadical(&mut solver, &e.cnf, late)?.then_some(solver))
}

/// Residues whose byte is not the smallest byte missing from their options (counted directly,
/// not through the tabu search's counts).
fn bad_residues(s: &[u8], shifts: &[Vec<u8>]) -> Vec<usize> {
    let p = s.len();
    (0..p)
        .filter(|&r| {
            let mut hit = [false; 256];
            for (t, values) in shifts.iter().enumerate() {
                for &v in values {
                    hit[(v ^ s[(r + p - t) % p]) as usize] = true;
                }
            }
            hit.iter().position(|&h| !h) != Some(s[r] as usize)
        })
        .collect()
}

/// Assumptions: `s[r]` at every residue outside `free`.
fn fixed_outside(e: &PeriodEncoding, s: &[u8], free: &[usize]) -> Vec<Lit> {
    (0..e.p)
        .filter(|r| !free.contains(r))
        .map(|r| Lit::from_ipasir(e.x(r, s[r] as usize)).expect("variable"))
        .collect()
}

/// One neighbourhood on a fresh solver: a model of `e` that agrees with the byte pattern `s`
/// outside the residues `free`, if there is one (`None` also when `conflicts` run out).
///
/// # Errors
/// What CaDiCaL reports as a failure.
pub fn complete(
    e: &PeriodEncoding,
    s: &[u8],
    free: &[usize],
    conflicts: Option<u32>,
) -> anyhow::Result<Option<Vec<bool>>> {
    let mut solver = load(e, &|| false)?.expect("never late");
    solver.limit_conflicts(conflicts)?;
    let answer = solver.solve_assumps(&fixed_outside(e, s, free))?;
    if answer == SolverResult::Sat {
        return Ok(Some(cadical_model(&solver, &e.cnf)?));
    }
    Ok(None)
}

/// The model that extends the pattern `s` with residues `free` left open, if the clauses allow.
fn model_with(
    solver: &mut CaDiCaL,
    e: &PeriodEncoding,
    s: &[u8],
    free: &[usize],
) -> anyhow::Result<Option<Vec<bool>>> {
    solver.limit_conflicts(None)?;
    let answer = solver.solve_assumps(&fixed_outside(e, s, free))?;
    if answer == SolverResult::Sat {
        return Ok(Some(cadical_model(solver, &e.cnf)?));
    }
    Ok(None)
}
