/*!
Proving a period: the Guy-Smith periodicity theorem on exact values.

Theorem (Guy-Smith; Uhlin thm 2.2): for a finite octal game whose moves take at most `k` beans,
if `G(n) = G(n - p)` for every `n` with `d + p <= n <= 2d + 2p + k`, then `G(n) = G(n - p)` for
every `n >= d + p`. So `2d + 2p + k + 1` exact values decide a candidate.

Given a candidate `p` and exact values, [`decide`] computes the minimal preperiod `d` for `p` in the
data (one past the last `n` with `G(n) != G(n + p)`), asks for more values until the theorem's
range is covered, and then finds the minimal period: every period of an eventually periodic
sequence is a multiple of the minimal one `m`, and `m`'s preperiod is at most `p`'s (if
`G(n) = G(n + p)` from `d` on, then `G(n) = G(n + p) = G(n + p + m) = G(n + m)` for large `n`, and
the minimal preperiod of `m` can only be smaller). So a divisor `q` of `p` is a period exactly when
the data shows no mismatch `G(n) != G(n + q)` at or after `d`; its own theorem range is then
inside the data too.
*/

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::values::history::{Claims, encode};
use crate::values::{Value, checksum};

/// A proven period, with what was checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    pub game: String,
    /// Minimal period.
    pub period: u64,
    /// Minimal preperiod: `G(n + period) = G(n)` for all `n >= preperiod`, and not at `preperiod - 1`.
    pub preperiod: u64,
    /// `G(n) = G(n - period)` was checked for every `n` in `preperiod + period ..= checked_to`.
    pub checked_to: u64,
    /// Largest number of beans a move takes (`k` of the theorem).
    pub max_take: u64,
    pub theorem: String,
    /// Sum of `G(n)` for `n <= checked_to`, and the CRC-32 of those values (u16 little endian).
    pub checksum: u64,
    pub values_crc32: u32,
    /// Heap at which the hash search proposed the candidate.
    pub candidate_at: u64,
    /// Hash matches that full comparison rejected before this one.
    pub hash_collisions: u64,
    pub seconds: f64,
}

/// What the values so far say about a candidate period.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Proven; the certificate's timing fields are left for the caller.
    Proven(Certificate),
    /// At least this many values are needed to decide.
    NeedValues(usize),
    /// The data contradicts it: the candidate's window repeated but the values did not follow.
    Refuted { mismatch_at: usize },
}

/// One past the last `n` with `g[n] != g[n + p]` (0 if none): the minimal preperiod of `p`
/// within the data.
pub fn preperiod_in_data(g: &[Value], p: usize) -> usize {
    if g.len() <= p {
        return 0;
    }
    (0..g.len() - p)
        .rev()
        .find(|&n| g[n] != g[n + p])
        .map_or(0, |n| n + 1)
}

/// One past the last `n < end` with `g[n] != g[n + p]` (0 if none); `g` must hold `G(..end + p)`.
/// Reads backwards a segment at a time, so values on disk cost one read per segment.
pub fn preperiod_below<'a>(g: impl Into<Claims<'a>>, p: usize, end: usize) -> usize {
    const SEGMENT: usize = 1 << 16;
    let g = g.into();
    let mut hi = end;
    while hi > 0 {
        let lo = hi.saturating_sub(SEGMENT);
        let run = g.run(lo, hi + p);
        if let Some(i) = (0..hi - lo).rev().find(|&i| run[i] != run[i + p]) {
            return lo + i + 1;
        }
        hi = lo;
    }
    0
}

/// Decides candidate period `p` of `game` from exact values `g`, where the hash search saw the
/// windows ending at `n0` and `n0 + p` agree; a mismatch at or after `earliest` refutes it.
pub fn decide(game: &Game, g: &[Value], p: usize, earliest: usize) -> Decision {
    let k = game.max_take();
    let d = preperiod_in_data(g, p);
    if d > earliest {
        return Decision::Refuted { mismatch_at: d - 1 };
    }
    let need = 2 * d + 2 * p + k + 1;
    if g.len() < need {
        return Decision::NeedValues(need);
    }
    // p is proven with preperiod d. The minimal period divides it (see the module docs).
    let (period, preperiod) = divisors(p)
        .into_iter()
        .map(|q| (q, preperiod_in_data(g, q)))
        .find(|&(_, dq)| dq <= d)
        .unwrap_or((p, d));
    let checked_to = 2 * preperiod + 2 * period + k;
    debug_assert!((preperiod + period..=checked_to).all(|n| g[n] == g[n - period]));
    let checked = &g[..=checked_to];
    let bytes = encode(checked);
    Decision::Proven(Certificate {
        game: game.to_string(),
        period: period as u64,
        preperiod: preperiod as u64,
        checked_to: checked_to as u64,
        max_take: k as u64,
        theorem: "Guy-Smith: G(n) = G(n - p) for preperiod + p <= n <= 2 preperiod + 2p + k implies it for all n >= preperiod + p".into(),
        checksum: checksum(checked),
        values_crc32: crc32fast::hash(&bytes),
        candidate_at: 0,
        hash_collisions: 0,
        seconds: 0.0,
    })
}

/// Divisors of `p`, increasing.
fn divisors(p: usize) -> Vec<usize> {
    let mut small: Vec<usize> = (1..)
        .take_while(|i| i * i <= p)
        .filter(|&i| p.is_multiple_of(i))
        .collect();
    let large: Vec<usize> = small
        .iter()
        .rev()
        .map(|i| p / i)
        .filter(|&q| q * q != p)
        .collect();
    small.extend(large);
    small
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisors_in_order() {
        assert_eq!(divisors(12), vec![1, 2, 3, 4, 6, 12]);
        assert_eq!(divisors(49), vec![1, 7, 49]);
        assert_eq!(divisors(1), vec![1]);
    }

    #[test]
    fn preperiod_picture() {
        // 5 1 | 2 3 2 3 2 3 ...: period 2 from heap 2; period 4 from heap 2 as well.
        let mut g = vec![5, 1];
        g.extend([2, 3].iter().cycle().take(40));
        assert_eq!(preperiod_in_data(&g, 2), 2);
        assert_eq!(preperiod_in_data(&g, 4), 2);
        assert_eq!(preperiod_in_data(&g, 3), g.len() - 3);
    }

    #[test]
    fn multiples_shrink_to_the_minimal_period() {
        // Any values: the decision only reads the sequence (k = 1 for .6).
        let mut g = vec![9, 8, 7];
        g.extend([1, 2, 3].iter().cycle().take(300));
        match decide(&Game::officers(), &g, 12, 50) {
            Decision::Proven(c) => assert_eq!((c.period, c.preperiod), (3, 3)),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            decide(&Game::officers(), &g[..20], 12, 50),
            Decision::NeedValues(2 * 3 + 24 + 2)
        );
    }
}

#[cfg(test)]
mod transient_tests {
    use super::*;
    use crate::period::PeriodSearch;

    #[test]
    fn periodic_for_a_while_is_not_reported() {
        // Periodic (37) from 300 to 3000, then pseudo-random: the search proposes a candidate
        // from the periodic stretch, and the data after it refutes it.
        let pattern: Vec<u16> = (0..37u32)
            .map(|i| ((i * 2654435761) >> 24) as u16)
            .collect();
        let g: Vec<u16> = (0..8192u32)
            .map(|i| match i {
                0..300 => 1000 + i as u16,
                300..3000 => pattern[(i as usize - 300) % 37],
                _ => 2000 + ((i.wrapping_mul(40503) >> 5) % 500) as u16,
            })
            .collect();
        let mut search = PeriodSearch::new();
        let c = search
            .feed(&g, 16)
            .expect("the periodic stretch proposes a candidate");
        assert!(matches!(
            decide(&Game::officers(), &g, c.period, c.n0 + 1 - c.window),
            Decision::Refuted { .. }
        ));
    }
}
