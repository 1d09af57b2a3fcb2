/*!
The verifier: turns claimed values into proven ones, interval by interval (Grossman 3.1).

For a heap `n` in `[from, to)` it computes the exact `G(n)` with the rare-value rule
([`super::exact::Rule::value`]) from the *claimed* `G(0..n)`, and compares. If every claim before
`from` is right, a clean interval proves every claim in it: the claims are the true values up to
`to`. Intervals are independent given the claims, so they (and the heaps inside one) run in
parallel; the first wrong heap of `[from, to)` is found exactly (leftmost mismatch), and everything
after it is unproven.

Any sparse space valid for the game gives the same answer (it only changes the work); the space is
chosen from the claims themselves, so the verifier trusts nothing but the rule and the claims.
*/

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::exact::{Rule, Scratch, prove};
use super::history::Claims;
use super::marks::{self, Entry, MarkSet, Slot, mark_groups, slot};
use super::speculative::{Compression, first_safe_heap, marking_entries};
use super::{SparseSpace, Value};
use crate::game::Game;

/// The first wrong claim of an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wrong {
    pub heap: u64,
    pub claimed: Value,
    /// The exact value (16 bits; larger ones are reported as 65535).
    pub exact: Value,
}

/// What checking `[from, to)` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub game: String,
    pub from: u64,
    pub to: u64,
    /// Every claim in `[from, verified_to)` is exact (given the claims before `from`).
    pub verified_to: u64,
    pub first_wrong: Option<Wrong>,
    pub sparse_space: String,
    pub seconds: f64,
}

impl Verdict {
    pub fn ok(&self) -> bool {
        self.first_wrong.is_none()
    }
}

/// A rule and rare list prepared for checking claims of one game.
pub struct Verifier {
    game: Game,
    rule: Rule,
    rare_pos: Vec<u32>,
    rare_val: Vec<Value>,
    max: Value,
    /// Claims noted so far: `rare_pos` lists the rares among `claims[..seen]`, increasing.
    seen: usize,
}

impl Verifier {
    /// Prepares to check `claims` (`G(0..len)`): chooses a space from them and lists their rares.
    pub fn new<'a>(game: &Game, claims: impl Into<Claims<'a>>) -> Verifier {
        let claims = claims.into();
        let allow = SparseSpace::position_type_allowed(game);
        let sample = claims.upto(claims.len().min(1 << 20));
        let space = SparseSpace::best_for(sample, allow).map_or(SparseSpace::default(), |b| b.0);
        let mut verifier = Verifier {
            game: game.clone(),
            rule: Rule::new(game, space),
            rare_pos: Vec::new(),
            rare_val: Vec::new(),
            max: 0,
            seen: 0,
        };
        verifier.extend(claims);
        verifier
    }

    /// Takes note of the claims not seen yet (rares and largest value) after more arrived.
    pub fn extend<'a>(&mut self, claims: impl Into<Claims<'a>>) {
        let claims = claims.into();
        let space = self.rule.space();
        let from = self.seen.min(claims.len());
        self.seen = claims.len();
        claims.for_each_chunk(from, claims.len(), &mut |at, chunk| {
            for (n, &v) in (at..).zip(chunk) {
                self.max = self.max.max(v);
                if space.is_rare(n, v) {
                    self.rare_pos.push(n as u32);
                    self.rare_val.push(v);
                }
            }
        });
    }

    /// Forgets claims from `len` on (after a rollback).
    pub fn truncate(&mut self, len: usize) {
        let keep = self.rare_pos.partition_point(|&p| (p as usize) < len);
        self.rare_pos.truncate(keep);
        self.rare_val.truncate(keep);
        self.seen = self.seen.min(len);
    }

    pub fn space(&self) -> SparseSpace {
        self.rule.space()
    }

    /// The largest claim noted so far.
    pub fn max_claim(&self) -> Value {
        self.max
    }

    /// The exact `G(n)` from the claims before it; every claim before `n` must have been noted.
    pub fn exact_value(&self, claims: Claims, n: usize, scratch: &mut Scratch) -> u32 {
        debug_assert!(self.seen >= n && self.rare_pos.windows(2).all(|w| w[0] < w[1]));
        self.rule
            .value(claims.upto(n), n, &self.rare_pos, &self.rare_val, scratch)
            .0
    }

    /// Checks `claims[from..to]` in parallel (on the current rayon pool).
    pub fn check<'a>(&self, claims: impl Into<Claims<'a>>, from: u64, to: u64) -> Verdict {
        let claims = claims.into();
        let started = std::time::Instant::now();
        let to = to.min(claims.len() as u64);
        let (from_u, to_u) = (from as usize, to as usize);
        let fast = self.block_path(claims, from_u, to_u);
        let split = fast.as_ref().map_or(to_u, |f| f.start);
        let wrong = self
            .check_generic(claims, from_u, split)
            .or_else(|| fast.and_then(|f| f.check(self, claims, to_u)));
        let first_wrong = wrong.map(|(n, exact)| Wrong {
            heap: n as u64,
            claimed: claims.get(n),
            exact: exact.min(65535) as Value,
        });
        Verdict {
            game: self.game.to_string(),
            from,
            to,
            verified_to: first_wrong.map_or(to, |w| w.heap),
            first_wrong,
            sparse_space: self.space().to_string(),
            seconds: started.elapsed().as_secs_f64(),
        }
    }

    /// First wrong claim in `[from, to)` by the exact rule, heap by heap, in parallel.
    fn check_generic(&self, claims: Claims, from: usize, to: usize) -> Option<(usize, u32)> {
        let max = self.max;
        (from..to)
            .into_par_iter()
            .with_min_len(256)
            .map_init(
                || {
                    let mut s = Scratch::new();
                    s.fit(max);
                    s
                },
                |scratch, n| (n, self.exact_value(claims, n, scratch)),
            )
            .find_first(|&(n, exact)| exact != u32::from(claims.get(n)))
    }

    /// The byte-compressed block path for a tail of `[from, to)`, where it is sound: a value-type
    /// space, no rare claim in `[from, to)`, every partner heap past the last rare, and every
    /// claim it reads below 512. `None` where it does not apply.
    fn block_path(&self, claims: Claims, from: usize, to: usize) -> Option<BlockPath> {
        let compression = Compression::new(self.space())?;
        let below_to = self.rare_pos.partition_point(|&p| (p as usize) < to);
        let below_from = self.rare_pos.partition_point(|&p| (p as usize) < from);
        if below_to != below_from {
            return None; // a rare claim inside: the exact rule handles it
        }
        let rares: Vec<(u64, Value)> = self.rare_pos[..below_from]
            .iter()
            .zip(&self.rare_val)
            .map(|(&p, &v)| (u64::from(p), v))
            .collect();
        let start = from.max(first_safe_heap(&self.game, rares.last().map_or(0, |r| r.0)) as usize);
        let entries = marking_entries(&self.game, compression, &rares).ok()?;
        let reach = entries.first().map_or(1, |e| e.0);
        if start >= to || start < reach {
            return None;
        }
        let base = start - reach;
        let slots: Option<Vec<Slot>> = claims
            .run(base, to)
            .iter()
            .map(|&v| compression.compress(v).map(slot))
            .collect();
        let space = self.space();
        let mut rare_values: Vec<Value> = (0..512).filter(|&v| space.is_rare(0, v)).collect();
        rare_values.sort_unstable();
        Some(BlockPath {
            compression,
            entries: marks::entries(&entries),
            slots: slots?,
            base,
            start,
            rare_values,
        })
    }
}

/// Verification of heaps whose claims are all common and compressible (see `block_path`).
/// Step 1 is the speculative marking over known claims, a block of heaps at a time; the claim
/// must be the first free common value. Step 1 marks only common values there, so the leftover
/// rares are all rare values below the claim, and step 2 ([`prove`]) must cover them.
struct BlockPath {
    compression: Compression,
    entries: Vec<Entry>,
    /// Slots of the claims from heap `base` on.
    slots: Vec<Slot>,
    base: usize,
    start: usize,
    rare_values: Vec<Value>,
}

impl BlockPath {
    const BLOCK: usize = 128;

    /// First wrong claim in `[start, to)`, with its exact value.
    fn check(&self, verifier: &Verifier, claims: Claims, to: usize) -> Option<(usize, u32)> {
        let starts: Vec<usize> = (self.start..to).step_by(Self::BLOCK).collect();
        let max = verifier.max;
        starts
            .into_par_iter()
            .map_init(
                || {
                    let mut s = Scratch::new();
                    s.fit(max);
                    (vec![MarkSet::EMPTY; Self::BLOCK], s)
                },
                |(sets, scratch), b0| {
                    self.check_block(
                        verifier,
                        claims,
                        b0,
                        (b0 + Self::BLOCK).min(to),
                        sets,
                        scratch,
                    )
                },
            )
            .find_map_first(|wrong| wrong)
    }

    fn check_block(
        &self,
        verifier: &Verifier,
        claims: Claims,
        b0: usize,
        b1: usize,
        sets: &mut [MarkSet],
        scratch: &mut Scratch,
    ) -> Option<(usize, u32)> {
        let sets = &mut sets[..b1 - b0];
        sets.fill(MarkSet::EMPTY);
        mark_groups(&self.slots, b0 - self.base, &self.entries, sets);
        for (n, set) in (b0..b1).zip(sets.iter()) {
            let claim = claims.get(n);
            let candidate = set.first_free().map(|c| self.compression.expand_common(c));
            let proven = candidate == Some(claim) && {
                let below = self.rare_values.partition_point(|&v| v < claim);
                scratch.leftover.clear();
                scratch
                    .leftover
                    .extend_from_slice(&self.rare_values[..below]);
                scratch.marks.begin();
                prove(
                    claims.upto(n),
                    n,
                    verifier.rule.splits(),
                    &mut scratch.marks,
                    &mut scratch.leftover,
                );
                scratch.leftover.is_empty()
            };
            if !proven {
                return Some((n, verifier.exact_value(claims, n, scratch)));
            }
        }
        None
    }
}

/// Checks claims `[from, to)` of `game` (see the module docs).
pub fn verify_interval(game: &Game, claims: &[Value], from: u64, to: u64) -> Verdict {
    let end = (to as usize).min(claims.len());
    Verifier::new(game, &claims[..end]).check(claims, from, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::naive_values;

    #[test]
    fn true_values_pass_and_a_changed_one_is_found() {
        let game = Game::officers();
        let mut claims = naive_values(&game, 4000).unwrap();
        let verdict = verify_interval(&game, &claims, 0, 4000);
        assert!(verdict.ok(), "{verdict:?}");
        assert_eq!(verdict.verified_to, 4000);
        let truth = claims[3000];
        claims[3000] ^= 4;
        let verdict = verify_interval(&game, &claims, 2000, 4000);
        assert_eq!(
            verdict.first_wrong,
            Some(Wrong {
                heap: 3000,
                claimed: truth ^ 4,
                exact: truth
            })
        );
        assert_eq!(verdict.verified_to, 3000);
        // An interval that ends before the damage is clean.
        assert!(verify_interval(&game, &claims, 2000, 3000).ok());
    }
}
