/*!
Sparse spaces: the rare/common split of Grundy values.

A sparse space is an index-2 subgroup of the values under XOR (Uhlin, thm 2.3), described by a bit
mask: value `v` is *rare* when `popcount(v & mask)` is even. Flammenkamp's *position type* also
folds in the heap's parity: `v` at heap `n` is rare when `popcount(v & mask) + (n & 1)` is even.

Why this matters: with `f(n, v) = popcount(v & mask) + [by_position] * n  (mod 2)` and rare meaning
`f = 0`, a split `n -> a + b` with `a + b = n - j` has
`f(n, G(a) ^ G(b)) = f(a, G(a)) + f(b, G(b)) + [by_position] * j  (mod 2)`.
When `[by_position] * j` is even for every split move, rare ^ rare and common ^ common are rare and
only rare ^ common is common. That is the one fact the exact generator relies on, so the position
type is only offered for games whose split moves all remove an even number of beans
([`SparseSpace::position_type_allowed`]). The mask itself may be anything: a poor mask only makes
the exact generator slower, never wrong.

The best mask for a prefix of values is found for all masks at once with a Walsh-Hadamard transform
of the value histogram: the number of values with `popcount(v & m)` even is `(N + W(m)) / 2`.
*/

use std::fmt;
use std::str::FromStr;

use super::history::Claims;
use crate::game::Game;

/// A rare/common split: `mask` over value bits, optionally with heap parity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SparseSpace {
    /// Value bits whose parity decides rarity. Zero (with `by_position` off) means every value
    /// is rare: the exact generator then does the work of the naive one.
    pub mask: u32,
    /// Flammenkamp's position type: the heap's parity joins the value bits.
    pub by_position: bool,
}

impl SparseSpace {
    /// The space of Officers: bits 1, 2, 3, 5, 6, 7, 8.
    pub const OFFICERS: SparseSpace = SparseSpace {
        mask: 0x1ee,
        by_position: false,
    };

    /// Is value `v` at heap `n` rare?
    #[inline(always)]
    pub fn is_rare(&self, n: usize, v: u16) -> bool {
        let parity = (u32::from(v) & self.mask).count_ones() + (self.by_position as u32 & n as u32);
        parity & 1 == 0
    }

    /// Can the position type be used for `game`? Only if every split move removes an even
    /// number of beans (see the module docs).
    pub fn position_type_allowed(game: &Game) -> bool {
        game.split_moves().iter().all(|j| j % 2 == 0)
    }

    /// The space with the fewest rare values over `values` (heap `n` holds `values[n]`), with
    /// that count. Ties go to the value type, then to the smaller mask. `None` for no values.
    pub fn best_for<'a>(
        values: impl Into<Claims<'a>>,
        allow_position: bool,
    ) -> Option<(SparseSpace, usize)> {
        let values = values.into();
        let mut even = vec![0i64; 1 << 16];
        let mut odd = vec![0i64; 1 << 16];
        values.for_each_chunk(0, values.len(), &mut |at, chunk| {
            for (n, &v) in (at..).zip(chunk) {
                if n & 1 == 0 {
                    even[v as usize] += 1
                } else {
                    odd[v as usize] += 1
                }
            }
        });
        let max = (0..1 << 16).rev().find(|&v| even[v] + odd[v] > 0)?;
        let size = (max + 1).next_power_of_two().max(2);
        even.truncate(size);
        odd.truncate(size);
        let n_even: i64 = even.iter().sum();
        let n_odd: i64 = odd.iter().sum();
        walsh_hadamard(&mut even);
        walsh_hadamard(&mut odd);
        let mut best: Option<(SparseSpace, usize)> = None;
        for by_position in [false, true] {
            if by_position && !allow_position {
                continue;
            }
            for m in 1..size {
                let odd_rare = if by_position {
                    (n_odd - odd[m]) / 2
                } else {
                    (n_odd + odd[m]) / 2
                };
                let rare = ((n_even + even[m]) / 2 + odd_rare) as usize;
                if best.is_none_or(|(_, r)| rare < r) {
                    best = Some((
                        SparseSpace {
                            mask: m as u32,
                            by_position,
                        },
                        rare,
                    ));
                }
            }
        }
        best
    }
}

/// In-place unnormalised Walsh-Hadamard transform; `a.len()` must be a power of two.
fn walsh_hadamard(a: &mut [i64]) {
    let mut h = 1;
    while h < a.len() {
        for block in a.chunks_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        h *= 2;
    }
}

impl fmt::Display for SparseSpace {
    /// `0x1ee` for a value-type space, `0x1ee+parity` for a position-type one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.mask)?;
        if self.by_position {
            f.write_str("+parity")?;
        }
        Ok(())
    }
}

impl FromStr for SparseSpace {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (hex, by_position) = match s.strip_suffix("+parity") {
            Some(h) => (h, true),
            None => (s, false),
        };
        let digits = hex.trim_start_matches("0x");
        let mask = u32::from_str_radix(digits, 16)
            .map_err(|_| format!("bad sparse space {s:?} (expected a hex mask such as 0x1ee)"))?;
        Ok(SparseSpace { mask, by_position })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn officers_rare_rule_matches_the_papers() {
        // Grossman/Riley: rare iff popcount(v & ~0x11) is even, for v < 512.
        for v in 0u16..512 {
            let paper = ((u32::from(v) & !0x11).count_ones() & 1) == 0;
            assert_eq!(SparseSpace::OFFICERS.is_rare(12345, v), paper, "{v}");
        }
    }

    #[test]
    fn best_mask_is_found_by_brute_force() {
        // Compare the transform with a direct count over every mask on an arbitrary sequence.
        let values: Vec<u16> = (0..500u32)
            .map(|i| ((i * 2654435761) >> 7) as u16 % 37)
            .collect();
        let (space, count) = SparseSpace::best_for(&values, true).unwrap();
        let direct = |s: SparseSpace| {
            (0..values.len())
                .filter(|&n| s.is_rare(n, values[n]))
                .count()
        };
        assert_eq!(direct(space), count);
        for by_position in [false, true] {
            for mask in 1..64 {
                assert!(direct(SparseSpace { mask, by_position }) >= count);
            }
        }
    }

    #[test]
    fn display_round_trip() {
        for s in [
            SparseSpace::OFFICERS,
            SparseSpace {
                mask: 0x5b,
                by_position: true,
            },
        ] {
            assert_eq!(s.to_string().parse::<SparseSpace>().unwrap(), s);
        }
        assert!("zz".parse::<SparseSpace>().is_err());
    }
}
