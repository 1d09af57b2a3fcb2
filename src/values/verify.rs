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

use super::exact::{Rule, Scratch};
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
    pub fn new(game: &Game, claims: &[Value]) -> Verifier {
        let sample = &claims[..claims.len().min(1 << 20)];
        let allow = SparseSpace::position_type_allowed(game);
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
    pub fn extend(&mut self, claims: &[Value]) {
        let space = self.rule.space();
        let from = self.seen.min(claims.len());
        self.seen = claims.len();
        for (n, &v) in claims.iter().enumerate().skip(from) {
            self.max = self.max.max(v);
            if space.is_rare(n, v) {
                self.rare_pos.push(n as u32);
                self.rare_val.push(v);
            }
        }
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

    /// The exact `G(n)` from the claims before it; every claim before `n` must have been noted.
    pub fn exact_value(&self, claims: &[Value], n: usize, scratch: &mut Scratch) -> u32 {
        debug_assert!(self.seen >= n && self.rare_pos.windows(2).all(|w| w[0] < w[1]));
        self.rule
            .value(&claims[..n], n, &self.rare_pos, &self.rare_val, scratch)
            .0
    }

    /// Checks `claims[from..to]` in parallel (on the current rayon pool).
    pub fn check(&self, claims: &[Value], from: u64, to: u64) -> Verdict {
        let started = std::time::Instant::now();
        let to = to.min(claims.len() as u64);
        let max = self.max;
        let wrong = (from as usize..to as usize)
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
            .find_first(|&(n, exact)| exact != u32::from(claims[n]));
        let first_wrong = wrong.map(|(n, exact)| Wrong {
            heap: n as u64,
            claimed: claims[n],
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
