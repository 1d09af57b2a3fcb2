/*!
Tabu local search for a periodic fixed point: the first, cheap step of the portfolio. It finds
even periods at once (Officers p = 26 in 0.4-9 s on one thread, where CDCL ran past an hour) and
some odd ones (p = 19 and 23 in seconds; 17 seldom: 1 seed of 18 in 30 s, a pattern other than
Riley's), but it cannot prove anything: it never replaces the solver, and every pattern it returns
is witness-checked by the caller like any model.

State: a byte pattern `s` (compressed values, as in [`super::encode`]) and, per residue `r`, the
count of (shift, value) pairs that make each byte an option of `r` (`v ^ s[(r - t) mod p]` for every
shift `t` and every byte `v` of `R_t`), with the set of hit bytes kept beside the counts so that the
mex is four word scans. Changing one residue updates the counts of every residue it reaches (one
mask added and one taken per residue). Judging a candidate move changes nothing: with the set of
bytes hit exactly once and the fixed sets `{a ^ v : v in R_t}`, each residue's hit set after the
move is three word operations away (see `Counts::bad_after`). That made the same walks 8 times
faster (Officers p = 22 and 24, six seeds each) and is what brought p = 26 from one seed in five to
every seed of ten within a minute. Counts are bit-sliced (see `Counts`), which halved the time
again (same walks, 14 times the first form).

A residue is *bad* when its byte is not the mex of its options; a fixed point has none. Each step
tries "set `r` to its mex" for every bad `r` and makes the move that leaves the fewest bad residues
(ties at random). A residue may not return to a byte it left within the last few steps (a random
tenure up to `p / 2 + 2`) unless that makes a new best; one step in `NOISE_ONE_IN` sets a random
residue to a random byte (rarely: see there). The cost is coarse (a count of bad residues) but
measured against finer ones (hits on `s[r]` plus holes below it) and wider moves (every free byte
of every residue) it found more: on Officers p = 24 (primitive) and 26 only this form succeeded at
all. The earlier Gauss-Seidel walk (move the first bad residue to its mex) found no pattern for
p = 24 primitive or p = 26 in 20 s. Clause-weighting (a residue that stays bad weighs more) and
restarts when the best stalls were tried on p = 23 beside this form and found no more.
*/

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One step in this many is a random move. The tabu list already keeps the walk from cycling, so
/// noise only has to break out of the rare long plateau; more of it throws good states away. One
/// in 33 (the first setting) against one in 1000, 30 s per seed, Officers: p = 19 found by 1 of 6
/// seeds against 12 of 12 (median 5 s); p = 26 mean 10.2 s against 4.3 s (six seeds each, all
/// found); p = 23 about even (9 of 14 against 8 of 14). With no noise at all p = 26 failed on
/// all six seeds, and one in 10000 was slower again (mean 14.6 s).
const NOISE_ONE_IN: usize = 1000;

/// A tiny xorshift generator: reproducible runs without a dependency.
pub(crate) struct XorShift(u64);

impl XorShift {
    pub(crate) fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pattern(&mut self, p: usize) -> Vec<u8> {
        (0..p).map(|_| self.below(256) as u8).collect()
    }
}

/// 256 bits, one per byte.
type ByteSet = [u64; 4];

/// A pattern with its option counts. Invariant: the count of byte `c` at residue `r`, the number
/// of pairs (shift `t`, value `v` of `R_t`) with `v ^ s[(r - t) mod p] = c`, is held bit-sliced:
/// bit `c` of `planes[r][k]` is bit `k` of that count (a count is at most `p`, one per shift, so
/// `bit length of p` planes suffice). Bit `c` of `hit[r]` is set exactly when the count is
/// positive, and of `single[r]` exactly when it is 1. `masks[t][a]` is the fixed set
/// `{a ^ v : v in R_t}`, the options a residue with byte `a` gives the residue `t` after it.
///
/// Why bit-sliced: a move adds one mask to and takes one from every residue's counts; as planes
/// that is a ripple carry over a few 256-bit words instead of a hundred scattered increments.
#[derive(Debug, PartialEq)]
struct Counts {
    masks: Vec<[ByteSet; 256]>,
    s: Vec<u8>,
    planes: Vec<Vec<ByteSet>>,
    hit: Vec<ByteSet>,
    single: Vec<ByteSet>,
}

impl Counts {
    fn new(shifts: &[Vec<u8>], s: Vec<u8>) -> Counts {
        let masks = shifts
            .iter()
            .map(|values| {
                std::array::from_fn(|a| {
                    let mut mask = [0; 4];
                    for &v in values {
                        let c = a ^ v as usize;
                        mask[c >> 6] |= 1u64 << (c & 63);
                    }
                    mask
                })
            })
            .collect();
        let mut counts = Counts {
            masks,
            s: Vec::new(),
            planes: Vec::new(),
            hit: Vec::new(),
            single: Vec::new(),
        };
        counts.reset(s);
        counts
    }

    /// Counts for the pattern `s` from zero, keeping the masks (they depend on the rule only).
    fn reset(&mut self, s: Vec<u8>) {
        let p = s.len();
        let bits = (usize::BITS - p.leading_zeros()) as usize;
        self.s = vec![0; p];
        self.planes = vec![vec![[0; 4]; bits]; p];
        self.hit = vec![[0; 4]; p];
        self.single = vec![[0; 4]; p];
        for (q, &b) in s.iter().enumerate() {
            self.add(q, b, true);
        }
        self.s = s;
    }

    /// Adds (`up`) or removes the options that `s[q] = b` gives: one bit-sliced increment or
    /// decrement of every residue's counts by a mask.
    fn add(&mut self, q: usize, b: u8, up: bool) {
        let p = self.s.len();
        for (t, masks) in self.masks.iter().enumerate() {
            let r = (q + t) % p;
            let mask = &masks[b as usize];
            let planes = &mut self.planes[r];
            for w in 0..4 {
                let mut carry = mask[w];
                for plane in planes.iter_mut() {
                    if carry == 0 {
                        break;
                    }
                    let x = plane[w];
                    plane[w] = x ^ carry;
                    carry &= if up { x } else { !x };
                }
                let high = planes[1..].iter().fold(0, |acc, plane| acc | plane[w]);
                self.hit[r][w] = planes[0][w] | high;
                self.single[r][w] = planes[0][w] & !high;
            }
        }
    }

    fn set(&mut self, q: usize, b: u8) {
        let a = self.s[q];
        if a != b {
            self.add(q, a, false);
            self.add(q, b, true);
            self.s[q] = b;
        }
    }

    /// The smallest byte that is not an option of `r`; `None` if every byte is one (the mex is
    /// then a common value of 512 or more, outside the question).
    fn mex(&self, r: usize) -> Option<u8> {
        mex_of(&self.hit[r])
    }

    fn bad(&self) -> usize {
        (0..self.s.len())
            .filter(|&r| self.mex(r) != Some(self.s[r]))
            .count()
    }

    /// Bad residues after setting `s[r] = b` (with `b != s[r]`), counted without changing the
    /// state, or some number above `limit` once the count passes it. Residue `q` gets options
    /// from `r` through one shift `t = q - r` only, and `R_t` holds distinct bytes, so each byte
    /// `s[r] ^ v` loses exactly one hit (it becomes free when its count was 1) and each byte
    /// `b ^ v` gains one: the new hit set is `(hit & !(mask(a) & single)) | mask(b)`, twelve word
    /// operations per residue where moving and moving back wrote four counts per rule entry.
    fn bad_after(&self, r: usize, b: u8, limit: usize) -> usize {
        let p = self.s.len();
        let a = self.s[r];
        let mut bad = 0;
        for (t, masks) in self.masks.iter().enumerate() {
            let q = (r + t) % p;
            let (freed, gained) = (&masks[a as usize], &masks[b as usize]);
            let (hit, single) = (&self.hit[q], &self.single[q]);
            let hit: ByteSet =
                std::array::from_fn(|w| (hit[w] & !(freed[w] & single[w])) | gained[w]);
            let byte = if q == r { b } else { self.s[q] };
            if mex_of(&hit) != Some(byte) {
                bad += 1;
                if bad > limit {
                    return bad;
                }
            }
        }
        bad
    }
}

/// The smallest byte whose bit is clear in a 256-bit hit set.
fn mex_of(hit: &ByteSet) -> Option<u8> {
    (0..4).find_map(|w| {
        let free = !hit[w];
        (free != 0).then(|| (w * 64 + free.trailing_zeros() as usize) as u8)
    })
}

/// Searches for a byte pattern of period `shifts.len()` that is its own mex everywhere and that
/// `accept` takes, until `budget` runs out or `stop` is raised; a fixed point that `accept`
/// refuses (say, one of a smaller period when a primitive one is wanted) restarts the search from
/// a random pattern. Reproducible for a seed (up to the time limit).
pub fn search(
    shifts: &[Vec<u8>],
    budget: Duration,
    seed: u64,
    accept: &dyn Fn(&[u8]) -> bool,
    stop: &AtomicBool,
) -> Option<Vec<u8>> {
    Walk::new(shifts, seed).run(budget, accept, stop, &mut |_, _| {})
}

/// A tabu walk that can be paused and resumed: [`Walk::run`] goes on from where the last call
/// stopped, so a caller can interleave other work (exact neighbourhoods, [`super::lns`]) without
/// restarting the walk.
pub struct Walk {
    state: Counts,
    rng: XorShift,
    tabu_until: Vec<[u64; 256]>,
    best: usize,
    step: u64,
    moves: Vec<(usize, u8)>,
}

impl Walk {
    /// A walk from a random pattern of period `shifts.len()`, reproducible for a seed.
    pub fn new(shifts: &[Vec<u8>], seed: u64) -> Walk {
        let p = shifts.len();
        let mut rng = XorShift::new(seed);
        let state = Counts::new(shifts, rng.pattern(p));
        Walk {
            state,
            rng,
            tabu_until: vec![[0u64; 256]; p],
            best: usize::MAX,
            step: 0,
            moves: Vec::new(),
        }
    }

    /// Goes on from a fresh random pattern (after a fixed point the caller cannot use).
    pub fn restart(&mut self) {
        let p = self.state.s.len();
        self.state.reset(self.rng.pattern(p));
        self.best = usize::MAX;
    }

    /// The pattern the walk stands on.
    pub fn pattern(&self) -> &[u8] {
        &self.state.s
    }

    /// Walks for `budget` (or until `stop`) toward a fixed point that `accept` takes, showing
    /// `observe` every state at least as good as the best so far (the pattern and its count of
    /// bad residues: near misses). A fixed point that `accept` refuses restarts the walk from a
    /// random pattern.
    pub fn run(
        &mut self,
        budget: Duration,
        accept: &dyn Fn(&[u8]) -> bool,
        stop: &AtomicBool,
        observe: &mut dyn FnMut(&[u8], usize),
    ) -> Option<Vec<u8>> {
        let p = self.state.s.len();
        let started = Instant::now();
        loop {
            let (state, rng) = (&mut self.state, &mut self.rng);
            self.step += 1;
            let step = self.step;
            if step.is_multiple_of(256)
                && (started.elapsed() >= budget || stop.load(Ordering::Relaxed))
            {
                return None;
            }
            let bad = state.bad();
            if bad == 0 {
                if accept(&state.s) {
                    return Some(state.s.clone());
                }
                self.restart();
                continue;
            }
            if bad <= self.best {
                observe(&state.s, bad);
            }
            let best = self.best.min(bad);
            self.best = best;
            // Candidate moves: every bad residue to its mex; keep the best non-tabu ones.
            let moves = &mut self.moves;
            moves.clear();
            let mut fewest = usize::MAX;
            for (r, tabu) in self.tabu_until.iter().enumerate() {
                let Some(m) = state.mex(r).filter(|&m| m != state.s[r]) else {
                    continue;
                };
                let after = state.bad_after(r, m, fewest);
                if tabu[m as usize] > step && after >= best {
                    continue;
                }
                if after < fewest {
                    fewest = after;
                    moves.clear();
                }
                if after == fewest {
                    moves.push((r, m));
                }
            }
            let (r, b) = if moves.is_empty() || rng.below(NOISE_ONE_IN) == 0 {
                (rng.below(p), rng.below(256) as u8)
            } else {
                moves[rng.below(moves.len())]
            };
            self.tabu_until[r][state.s[r] as usize] = step + 2 + rng.below(p / 2 + 2) as u64;
            state.set(r, b);
        }
    }
}

/// The closest the walks of one search came to a fixed point: the fewest bad residues any of
/// them stood on, with one such state. What an open period's record says of how near its search
/// got (a near miss is no answer: it only measures the search).
#[derive(Debug)]
pub struct Closest {
    /// The fewest bad residues so far, read without the lock so that a walk on a plateau (which
    /// reports thousands of states as good as its best) takes the lock only for a new record.
    fewest: AtomicUsize,
    state: Mutex<Option<(usize, Vec<u8>)>>,
}

impl Default for Closest {
    fn default() -> Closest {
        Closest {
            fewest: AtomicUsize::new(usize::MAX),
            state: Mutex::new(None),
        }
    }
}

impl Closest {
    /// Keeps `s` if its `bad` residues are fewer than any state offered before.
    pub fn offer(&self, s: &[u8], bad: usize) {
        if bad >= self.fewest.load(Ordering::Relaxed) {
            return;
        }
        let mut state = self
            .state
            .lock()
            .expect("no panic while a near miss is kept");
        if state.as_ref().is_none_or(|(fewest, _)| bad < *fewest) {
            *state = Some((bad, s.to_vec()));
            self.fewest.store(bad, Ordering::Relaxed);
        }
    }

    /// The fewest bad residues seen and a state with that many, if any state was offered.
    pub fn get(&self) -> Option<(usize, Vec<u8>)> {
        self.state
            .lock()
            .expect("no panic while a near miss is kept")
            .clone()
    }
}

/// [`search`] on `threads` threads with seeds `seed`, `seed + 1`, ...: the first pattern found
/// raises `stop` and so ends the others (as does anyone else raising it). Every walk offers its
/// near misses to `closest`.
pub fn search_parallel(
    shifts: &[Vec<u8>],
    budget: Duration,
    (seed, threads): (u64, usize),
    accept: &(dyn Fn(&[u8]) -> bool + Sync),
    stop: &AtomicBool,
    closest: &Closest,
) -> Option<Vec<u8>> {
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..threads.max(1) as u64)
            .map(|i| {
                scope.spawn(move || {
                    let mut walk = Walk::new(shifts, seed.wrapping_add(i));
                    let found = walk.run(budget, accept, stop, &mut |s, bad| closest.offer(s, bad));
                    if found.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    found
                })
            })
            .collect();
        runs.into_iter()
            .filter_map(|run| run.join().expect("local search thread panicked"))
            .next()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed-point rule written out directly: byte `s[r]` is the smallest byte that is no
    /// `v ^ s[r - t]`.
    fn is_fixed_at(s: &[u8], shifts: &[Vec<u8>], r: usize) -> bool {
        let p = s.len();
        let options: Vec<u8> = (0..p)
            .flat_map(|t| shifts[t].iter().map(move |&v| v ^ s[(r + p - t) % p]))
            .collect();
        (0..=255u8).find(|c| !options.contains(c)) == Some(s[r])
    }

    fn is_fixed_point(s: &[u8], shifts: &[Vec<u8>]) -> bool {
        (0..s.len()).all(|r| is_fixed_at(s, shifts, r))
    }

    #[test]
    fn bad_after_a_move_equals_the_rule_on_the_moved_pattern() {
        // Dense shifts (so mexes are not all 0) and states walked toward fixed points (so some
        // residues are good and a move can break or mend them).
        let mut rng = XorShift::new(11);
        let p = 5;
        let shifts: Vec<Vec<u8>> = (0..p)
            .map(|_| {
                let mut values: Vec<u8> = (0..24).map(|_| rng.below(64) as u8).collect();
                values.sort_unstable();
                values.dedup();
                values
            })
            .collect();
        let mut state = Counts::new(&shifts, rng.pattern(p));
        let mut checked_good = 0;
        for _ in 0..300 {
            let r = rng.below(p);
            let m = state.mex(r).unwrap_or(0);
            for b in [m, rng.below(256) as u8] {
                if b == state.s[r] {
                    continue;
                }
                let mut moved = state.s.clone();
                moved[r] = b;
                let bad = (0..p).filter(|&q| !is_fixed_at(&moved, &shifts, q)).count();
                checked_good += p - bad;
                assert_eq!(
                    state.bad_after(r, b, usize::MAX),
                    bad,
                    "{:?} r {r} b {b}",
                    state.s
                );
                assert!(state.bad_after(r, b, 0) >= bad.min(1));
            }
            state.set(r, m);
        }
        assert!(
            checked_good > 100,
            "too few good residues seen: {checked_good}"
        );
    }

    #[test]
    fn counts_stay_equal_to_a_recount_through_moves() {
        let shifts = vec![vec![0, 3], vec![1, 2, 7], vec![5]];
        let mut rng = XorShift::new(7);
        let mut state = Counts::new(&shifts, rng.pattern(3));
        for _ in 0..200 {
            let (r, b) = (rng.below(3), rng.below(256) as u8);
            state.set(r, b);
            let fresh = Counts::new(&shifts, state.s.clone());
            assert_eq!(state, fresh);
            for r in 0..3 {
                for c in 0..256 {
                    let count = (0..3)
                        .flat_map(|t| shifts[t].iter().map(move |&v| (t, v)))
                        .filter(|&(t, v)| (v ^ state.s[(r + 3 - t) % 3]) as usize == c)
                        .count();
                    let bit = |set: &ByteSet| set[c >> 6] >> (c & 63) & 1 == 1;
                    assert_eq!(bit(&state.hit[r]), count > 0);
                    assert_eq!(bit(&state.single[r]), count == 1);
                }
            }
        }
    }

    #[test]
    fn a_found_pattern_is_a_fixed_point_and_accepted() {
        // A made-up rule, so the test does not depend on a game: s[r] = mex{s[r] ^ 1, s[r - 1],
        // s[r - 1] ^ 2}. Brute force over all 2^16 patterns is the oracle.
        let shifts = vec![vec![1], vec![0, 2]];
        let fixed: Vec<Vec<u8>> = (0..=u16::MAX)
            .map(|x| x.to_le_bytes().to_vec())
            .filter(|s| is_fixed_point(s, &shifts))
            .collect();
        assert!(!fixed.is_empty());
        let stop = AtomicBool::new(false);
        for seed in 1..20 {
            let found = search(&shifts, Duration::from_secs(5), seed, &|_| true, &stop).unwrap();
            assert!(fixed.contains(&found), "{found:?}");
        }
        let accept = |s: &[u8]| s[0] > s[1];
        let closest = Closest::default();
        let found = search_parallel(
            &shifts,
            Duration::from_secs(5),
            (1, 2),
            &accept,
            &AtomicBool::new(false),
            &closest,
        )
        .unwrap();
        assert!(fixed.contains(&found) && accept(&found), "{found:?}");
    }

    #[test]
    fn closest_keeps_a_state_with_the_fewest_bad_residues() {
        // The made-up rule above, with every fixed point refused: the walks never answer, and
        // the best they can stand on is the fewest bad residues of any pattern that is not a
        // fixed point (brute force over all 2^16 patterns).
        let shifts = vec![vec![1], vec![0, 2]];
        let bad = |s: &[u8]| {
            (0..s.len())
                .filter(|&r| !is_fixed_at(s, &shifts, r))
                .count()
        };
        let fewest = (0..=u16::MAX)
            .map(|x| bad(&x.to_le_bytes()))
            .filter(|&b| b > 0)
            .min()
            .unwrap();
        let closest = Closest::default();
        let stop = AtomicBool::new(false);
        let budget = Duration::from_millis(200);
        assert_eq!(
            search_parallel(&shifts, budget, (3, 2), &|_| false, &stop, &closest),
            None
        );
        let (kept, state) = closest.get().unwrap();
        assert_eq!((kept, bad(&state)), (fewest, fewest), "{state:?}");
    }

    #[test]
    fn an_impossible_rule_times_out() {
        // 0 ^ s[r] is an option of r itself: no residue can equal its mex.
        let shifts = vec![vec![0]];
        let stop = AtomicBool::new(false);
        assert_eq!(
            search(&shifts, Duration::from_millis(50), 1, &|_| true, &stop),
            None
        );
    }
}
