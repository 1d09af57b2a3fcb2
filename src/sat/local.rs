/*!
Gauss-Seidel local search for a periodic fixed point: repeatedly pick a residue whose value is not
the mex of its options and set it to that mex; one move in ten sets a random residue to a random
byte instead, to leave cycles. A pattern where every residue equals its mex is a fixed point (and is
witness-checked by the caller like any model). It often finds even periods quickly but cannot
prove anything: it is the first, cheap step of a portfolio, never a substitute for the solver.

Values are compressed bytes as in the encoding; the options of residue `r` are
`v ^ s[(r - t) mod p]` for every shift `t` and every byte `v` of `R_t` (see [`super::encode`]).
*/

use std::time::{Duration, Instant};

/// A tiny xorshift generator: reproducible runs without a dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The smallest byte that is not an option of residue `r`.
fn mex_at(s: &[u8], r: usize, shifts: &[Vec<u8>]) -> Option<u8> {
    let p = s.len();
    let mut hit = [false; 256];
    for (t, values) in shifts.iter().enumerate() {
        let x = s[(r + p - t % p) % p];
        for &v in values {
            hit[(x ^ v) as usize] = true;
        }
    }
    hit.iter().position(|&h| !h).map(|c| c as u8)
}

/// Searches for a byte pattern of period `shifts.len()` that is its own mex everywhere and that
/// `accept` takes, for at most `budget`, from a seed; a fixed point that `accept` refuses restarts
/// the search from a random pattern. `None` if none was found in time.
pub fn search(
    shifts: &[Vec<u8>],
    budget: Duration,
    seed: u64,
    accept: &dyn Fn(&[u8]) -> bool,
) -> Option<Vec<u8>> {
    let p = shifts.len();
    let started = Instant::now();
    let mut rng = XorShift(seed | 1);
    let mut s: Vec<u8> = (0..p).map(|_| rng.below(256) as u8).collect();
    let mut steps = 0u64;
    loop {
        // Residues not at their mex, scanned from a random start. A residue where every byte is
        // an option has no byte mex (its mex is a common value >= 512): it is never settled.
        let start = rng.below(p);
        let wrong = (0..p)
            .map(|i| (start + i) % p)
            .find_map(|r| match mex_at(&s, r, shifts) {
                Some(m) if m == s[r] => None,
                mex => Some((r, mex)),
            });
        match wrong {
            None if accept(&s) => return Some(s),
            None => s.iter_mut().for_each(|v| *v = rng.below(256) as u8),
            Some((r, Some(m))) if rng.below(10) != 0 => s[r] = m,
            Some(_) => {
                let q = rng.below(p);
                s[q] = rng.below(256) as u8;
            }
        }
        steps += 1;
        if steps.is_multiple_of(1024) && started.elapsed() >= budget {
            return None;
        }
    }
}
