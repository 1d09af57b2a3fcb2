/*!
Online candidate search (Grossman 4): the hash of the last `W` values is saved at heaps
`n0 = 2^j - 1`, and every later heap `n <= 2 n0 + 1` whose hash equals it proposes the period
`p = n - n0`. A match is confirmed by comparing the two windows value by value; a mismatch is a
hash collision, counted and reported, never trusted. If the game is eventually periodic with
preperiod `d` and period `p`, a candidate appears at the first `n0 >= max(d + W, p)`, so fewer than
twice the necessary values are computed. `W` is the window the rule reads when no new rare value
appears (last rare position + largest take + 1), re-read at every saved heap.
*/

use super::hash::RollingHash;
use crate::values::history::Claims;

/// The window the rule reads when no new rare value appears: last rare position + largest
/// take + 1 (the `W` of the module docs).
pub fn rule_window(game: &crate::game::Game, last_rare: u64) -> usize {
    last_rare as usize + game.max_take() + 1
}

/// A confirmed candidate: the windows ending at `n0` and `n0 + period` are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub n0: usize,
    pub period: usize,
    pub window: usize,
}

/// The online search state.
#[derive(Clone, Debug)]
pub struct PeriodSearch {
    hash: RollingHash,
    modulus: u64,
    /// Next heap to look at.
    next: usize,
    /// (heap, hash) saved at the last power of two.
    saved: Option<(usize, u64)>,
    /// Hash matches whose windows differed.
    pub collisions: u64,
    /// Confirmed candidates so far.
    pub candidates: u64,
}

impl Default for PeriodSearch {
    fn default() -> Self {
        PeriodSearch::new()
    }
}

impl PeriodSearch {
    pub fn new() -> PeriodSearch {
        PeriodSearch::with_modulus(super::hash::MERSENNE_61)
    }

    /// A search with another hash modulus (tests force collisions with a tiny one).
    pub fn with_modulus(modulus: u64) -> PeriodSearch {
        PeriodSearch {
            hash: RollingHash::with_modulus(1, modulus),
            modulus,
            next: 0,
            saved: None,
            collisions: 0,
            candidates: 0,
        }
    }

    /// Heaps looked at so far.
    pub fn position(&self) -> usize {
        self.next
    }

    /// Looks at the heaps of `g` not seen yet, with the rule's window `window` (used from the
    /// next saved heap on), and stops at the first confirmed candidate. Reads `g` a segment at a
    /// time, so values that a long run keeps on disk cost one read per segment.
    pub fn feed<'a>(&mut self, g: impl Into<Claims<'a>>, window: usize) -> Option<Candidate> {
        const SEGMENT: usize = 1 << 16;
        let g = g.into();
        while self.next < g.len() {
            // The segment holds every value read: G(n) and G(n - w) for both windows.
            let lo = self.next.saturating_sub(window.max(self.hash.window()) + 1);
            let end = (self.next + SEGMENT).min(g.len());
            let run = g.run(lo, end);
            let at = |i: usize| run[i - lo];
            while self.next < end {
                let n = self.next;
                self.next += 1;
                if (n + 1).is_power_of_two() && n >= 63 {
                    let w = window.clamp(1, n.div_ceil(2));
                    self.hash = RollingHash::with_modulus(w, self.modulus);
                    self.hash.reset(&run[n + 1 - w - lo..=n - lo]);
                    self.saved = Some((n, self.hash.value()));
                    continue;
                }
                let Some((n0, h0)) = self.saved else { continue };
                let w = self.hash.window();
                self.hash.roll(at(n), at(n - w));
                if self.hash.value() == h0 {
                    if g.run(n0 + 1 - w, n0 + 1) == g.run(n + 1 - w, n + 1) {
                        self.candidates += 1;
                        return Some(Candidate {
                            n0,
                            period: n - n0,
                            window: w,
                        });
                    }
                    self.collisions += 1;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn periodic(pre: usize, pattern: &[u16], len: usize) -> Vec<u16> {
        (0..len)
            .map(|i| {
                if i < pre {
                    1000 + i as u16
                } else {
                    pattern[(i - pre) % pattern.len()]
                }
            })
            .collect()
    }

    #[test]
    fn finds_a_planted_period_once_past_the_preperiod() {
        let pattern: Vec<u16> = (0..37u32)
            .map(|i| ((i * 2654435761) >> 24) as u16)
            .collect();
        let g = periodic(300, &pattern, 5000);
        let mut search = PeriodSearch::new();
        let c = search.feed(&g, 16).expect("a candidate");
        assert_eq!(c.period % 37, 0);
        assert!(c.n0 + 1 - c.window >= 300);
        assert_eq!(search.collisions, 0);
    }

    #[test]
    fn forced_collisions_are_counted_not_trusted() {
        // Modulus 3: hashes agree all the time; only real repeats may come out.
        let g: Vec<u16> = (0..4096u32)
            .map(|i| ((i * 2654435761u32) >> 20) as u16)
            .collect();
        let mut search = PeriodSearch::with_modulus(3);
        assert_eq!(search.feed(&g, 32), None);
        assert!(search.collisions > 100, "{}", search.collisions);
    }
}
