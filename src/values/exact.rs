/*!
The exact rare-value (sparse-space) generator, for any finite octal game.

For each heap `n` (Berlekamp-Conway-Guy; Grossman fig. 2; Uhlin's SpS algorithm):
1. *Mark common options.* Mark every single-heap and take-all option, and every split
   `a + b` in which `a` is a rare position. By the sparse-space algebra (see [`super::space`]) these
   are all the options that can carry a common value. The candidate `c` is the smallest unmarked
   common value; every smaller unmarked value is a *leftover rare*.
2. *Prove.* If leftover rares exist, scan all splits `a + b` (`a <= b`) in chunks, marking without
   branches, and after each chunk drop the leftovers that got marked. When none is left, `G(n) = c`.
   If the scan ends with leftovers, `G(n)` is the smallest of them: a new rare value.

Invariants:
- `rare_pos`/`rare_val` hold, in increasing position, every heap whose value is rare under `space`.
- `space` is valid for the game (position type only when [`SparseSpace::position_type_allowed`]);
  under that condition step 1 marks every common option, so the result is exact for *any* mask.
  The mask only decides how much of step 2 runs.

The space starts as "everything rare" (mask 0: the algorithm is then the naive one) and is
re-chosen from the values seen so far at every power of two and whenever the rare count doubles;
it switches only to a space with strictly fewer rare values.
*/

use super::history::Claims;
use super::{MexMarks, SparseSpace, Value, ValueError, find_in_pairs, to_value};
use crate::game::Game;

/// First heap at which the space is chosen from data.
const FIRST_REVIEW: usize = 32;

/// Incremental exact generator: call [`ExactGenerator::extend_to`] repeatedly.
#[derive(Clone, Debug)]
pub struct ExactGenerator {
    game: Game,
    rule: Rule,
    values: Vec<Value>,
    /// The user fixed the space: never re-choose it.
    pinned: bool,
    rare_pos: Vec<u32>,
    rare_val: Vec<Value>,
    scratch: Scratch,
    max: Value,
    next_review: usize,
    rares_at_review: usize,
    /// Pairs scanned in step 2, over all heaps (a cost statistic).
    pub proof_pairs: u64,
    /// Every change of space: (heap at which it was made, new space).
    pub space_changes: Vec<(usize, SparseSpace)>,
}

/// Why a space cannot be pinned for a game.
#[derive(Debug, thiserror::Error)]
#[error(
    "sparse space {space} uses heap parity, but {game} has a split move removing an odd number of beans"
)]
pub struct InvalidSpace {
    pub game: Game,
    pub space: SparseSpace,
}

impl ExactGenerator {
    /// A generator that chooses its sparse space from the data.
    pub fn new(game: &Game) -> ExactGenerator {
        ExactGenerator {
            game: game.clone(),
            rule: Rule::new(game, SparseSpace::default()),
            values: Vec::new(),
            pinned: false,
            rare_pos: Vec::new(),
            rare_val: Vec::new(),
            scratch: Scratch::new(),
            max: 0,
            next_review: FIRST_REVIEW,
            rares_at_review: 0,
            proof_pairs: 0,
            space_changes: Vec::new(),
        }
    }

    /// A generator that keeps `space` for ever (right or wrong: it only affects speed).
    ///
    /// # Errors
    /// [`InvalidSpace`] if the space uses heap parity and the game does not allow it.
    pub fn with_space(game: &Game, space: SparseSpace) -> Result<ExactGenerator, InvalidSpace> {
        if space.by_position && !SparseSpace::position_type_allowed(game) {
            return Err(InvalidSpace {
                game: game.clone(),
                space,
            });
        }
        let mut generator = ExactGenerator::new(game);
        generator.rule = Rule::new(game, space);
        generator.pinned = true;
        Ok(generator)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// `G(0), ..., G(len - 1)`.
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    pub fn into_values(self) -> Vec<Value> {
        self.values
    }

    /// The sparse space in use now.
    pub fn space(&self) -> SparseSpace {
        self.rule.space
    }

    /// The rule (moves and space) in use now.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// (position, value) of every rare value under the current space, by position.
    pub fn rares(&self) -> impl ExactSizeIterator<Item = (usize, Value)> + '_ {
        self.rare_pos
            .iter()
            .zip(&self.rare_val)
            .map(|(&p, &v)| (p as usize, v))
    }

    /// Computes values until `len` are known.
    ///
    /// # Errors
    /// [`ValueError::TooLarge`] if a value does not fit in 16 bits; values before it are kept.
    pub fn extend_to(&mut self, len: usize) -> Result<(), ValueError> {
        self.extend_with_progress(len, &mut |_| {})
    }

    /// As [`Self::extend_to`], calling `progress(values known)` every 65536 values.
    ///
    /// # Errors
    /// As [`Self::extend_to`].
    pub fn extend_with_progress(
        &mut self,
        len: usize,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), ValueError> {
        self.values.reserve(len.saturating_sub(self.values.len()));
        while self.values.len() < len {
            let n = self.values.len();
            let v = self.next_value(n)?;
            self.push(n, v);
            if n & 0xffff == 0xffff {
                progress(n + 1);
            }
        }
        Ok(())
    }

    fn push(&mut self, n: usize, v: Value) {
        self.values.push(v);
        if v > self.max {
            self.max = v;
            self.scratch.marks.fit(v);
        }
        if self.rule.space.is_rare(n, v) {
            self.rare_pos.push(n as u32);
            self.rare_val.push(v);
        }
        if !self.pinned
            && (n + 1 == self.next_review || self.rare_pos.len() > 2 * self.rares_at_review + 64)
        {
            self.review_space();
        }
    }

    /// Re-chooses the space from all values so far; switches only if strictly fewer rares.
    fn review_space(&mut self) {
        let n = self.values.len();
        let allow = SparseSpace::position_type_allowed(&self.game);
        if let Some((best, count)) = SparseSpace::best_for(&self.values, allow)
            && count < self.rare_pos.len()
        {
            self.rule = Rule::new(&self.game, best);
            self.space_changes.push((n, best));
            self.rare_pos.clear();
            self.rare_val.clear();
            for (p, &v) in self.values.iter().enumerate() {
                if best.is_rare(p, v) {
                    self.rare_pos.push(p as u32);
                    self.rare_val.push(v);
                }
            }
        }
        self.rares_at_review = self.rare_pos.len();
        while self.next_review <= n {
            self.next_review *= 2;
        }
    }

    /// `G(n)`, given `G(0..n)`.
    fn next_value(&mut self, n: usize) -> Result<Value, ValueError> {
        let (v, pairs) = self.rule.value(
            Claims::from(&self.values),
            n,
            &self.rare_pos,
            &self.rare_val,
            &mut self.scratch,
        );
        self.proof_pairs += pairs;
        to_value(&self.game, n, v)
    }
}

/// The moves of a game and a sparse space valid for it: everything the exact step needs besides
/// the values themselves.
#[derive(Clone, Debug)]
pub struct Rule {
    take_all: Vec<usize>,
    single: Vec<usize>,
    splits: Vec<usize>,
    space: SparseSpace,
    /// `common_bits[n & 1][w]` bit `i`: value `64 w + i` is common at heap parity `n & 1`.
    common_bits: [Vec<u64>; 2],
}

/// Working memory of one exact step (one per thread).
#[derive(Clone, Debug)]
pub struct Scratch {
    pub(crate) marks: MexMarks,
    pub(crate) leftover: Vec<u16>,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch {
            marks: MexMarks::new(),
            leftover: Vec::new(),
        }
    }

    /// Prepares for values up to `max_value`.
    pub fn fit(&mut self, max_value: Value) {
        self.marks.fit(max_value);
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

impl Rule {
    /// Step 1: marks every option of heap `n` that can carry a common value.
    fn mark_common_options(
        &self,
        g: Claims,
        n: usize,
        rare_pos: &[u32],
        rare_val: &[Value],
        marks: &mut MexMarks,
    ) {
        marks.begin();
        for &j in &self.take_all {
            if n == j {
                marks.mark(0);
            }
        }
        for &j in &self.single {
            if n > j {
                marks.mark(g.get(n - j));
            }
        }
        let first = usize::from(rare_pos.first() == Some(&0));
        let (pos, val) = (&rare_pos[first..], &rare_val[first..]);
        for &j in &self.splits {
            if n >= j + 2 {
                let m = n - j;
                // The splits read G(m - a) for the rare positions a < m: one run of values.
                let usable = pos.partition_point(|&a| (a as usize) < m);
                if usable > 0 {
                    let lo = m - pos[usable - 1] as usize;
                    marks.mark_rare_splits(&g.run(lo, m), lo, m, &pos[..usable], &val[..usable]);
                }
            }
        }
    }

    /// The speculative `G(n)` (Grossman fig. 3): the smallest common value that step 1 leaves
    /// free, assuming the rare list is complete and `G(n)` is common. `None` if no common value
    /// is free below the mark array's limit. A claim, for the verifier to check.
    pub fn speculate(
        &self,
        g: Claims,
        n: usize,
        rare_pos: &[u32],
        rare_val: &[Value],
        scratch: &mut Scratch,
    ) -> Option<u32> {
        self.mark_common_options(g, n, rare_pos, rare_val, &mut scratch.marks);
        let candidate = candidate_and_leftover(
            &scratch.marks,
            &self.common_bits[n & 1],
            &mut scratch.leftover,
        );
        (candidate < scratch.marks.limit()).then_some(candidate)
    }

    /// The rule of `game` under `space` (the caller checks the space is valid for the game).
    pub fn new(game: &Game, space: SparseSpace) -> Rule {
        Rule {
            take_all: game.take_all_moves(),
            single: game.single_heap_moves(),
            splits: game.split_moves(),
            space,
            common_bits: common_bits(space),
        }
    }

    pub fn space(&self) -> SparseSpace {
        self.space
    }

    /// Bean counts of the split moves.
    pub(crate) fn splits(&self) -> &[usize] {
        &self.splits
    }

    /// The exact `G(n)` given `g = G(0..n)` (or more) and the rare positions below `n` with their
    /// values (increasing; the list may go past `n`, later entries are ignored), with the pairs
    /// scanned. `scratch` must have been fitted to the largest value in `g`.
    pub fn value(
        &self,
        g: Claims,
        n: usize,
        rare_pos: &[u32],
        rare_val: &[Value],
        scratch: &mut Scratch,
    ) -> (u32, u64) {
        self.mark_common_options(g, n, rare_pos, rare_val, &mut scratch.marks);
        let marks = &mut scratch.marks;
        // Candidate and leftover rares in one pass.
        let candidate =
            candidate_and_leftover(marks, &self.common_bits[n & 1], &mut scratch.leftover);
        // Step 2: prove the candidate by covering the leftover rares.
        let mut pairs = 0;
        if !scratch.leftover.is_empty() {
            pairs = prove(g, n, &self.splits, marks, &mut scratch.leftover);
        }
        (
            scratch
                .leftover
                .first()
                .map_or(candidate, |&r| u32::from(r)),
            pairs,
        )
    }
}

/// The common-value bitsets of `space` for even and odd heaps (see `common_bits`).
fn common_bits(space: SparseSpace) -> [Vec<u64>; 2] {
    let words = |parity: usize| -> Vec<u64> {
        (0..1usize << 10)
            .map(|w| {
                (0..64)
                    .filter(|&i| !space.is_rare(parity, (64 * w + i) as u16))
                    .fold(0, |acc, i| acc | 1 << i)
            })
            .collect()
    };
    [words(0), words(1)]
}

/// The candidate (smallest unmarked common value, or `marks.limit()` if none is below it), with
/// every smaller unmarked value pushed to `leftover`. Works 64 values at a time: one vector
/// compare gives the unmarked bits, the precomputed `common` bits split them.
fn candidate_and_leftover(marks: &MexMarks, common: &[u64], leftover: &mut Vec<u16>) -> u32 {
    leftover.clear();
    let words = (marks.limit() as usize).div_ceil(64);
    for (w, &common_word) in common.iter().enumerate().take(words) {
        let unmarked = marks.unmarked_word(w);
        let candidates = unmarked & common_word;
        let mut rares = unmarked & !common_word;
        if candidates != 0 {
            rares &= (1u64 << candidates.trailing_zeros()) - 1;
        }
        while rares != 0 {
            leftover.push((64 * w) as u16 + rares.trailing_zeros() as u16);
            rares &= rares - 1;
        }
        if candidates != 0 {
            return (64 * w) as u32 + candidates.trailing_zeros();
        }
    }
    marks.limit()
}

/// Covers the leftover rares of heap `n` with split options: marks chunk by chunk while many
/// are left, then compares pairs against the few still wanted ([`find_in_pairs`]). Stops when
/// none is left (leftover empty) or all splits are done (leftover keeps the uncovered ones, in
/// increasing order). Returns the pairs scanned.
pub(crate) fn prove(
    g: Claims,
    n: usize,
    splits: &[usize],
    marks: &mut MexMarks,
    leftover: &mut Vec<u16>,
) -> u64 {
    // Small marking chunks keep the overshoot past the last needed pair small; the leftover list
    // is short after the first chunk, so filtering it is cheap.
    const MARK_CHUNK: usize = 128;
    const COMPARE_CHUNK: usize = 512;
    let mut scanned = 0u64;
    let mut compare_chunk = 64;
    for &j in splits {
        if n < j + 2 {
            continue;
        }
        let m = n - j;
        let half = m / 2;
        let mut a = 1;
        while a <= half {
            // While many rares are wanted none can be the last soon: filter the list less
            // often (its cost is its length), about every 16 pairs per wanted value.
            let chunk = if leftover.len() > 8 {
                (16 * leftover.len()).clamp(MARK_CHUNK, 2048)
            } else {
                // Compare chunks start small (many heaps need only a few pairs) and grow.
                compare_chunk = (2 * compare_chunk).min(COMPARE_CHUNK);
                compare_chunk / 2
            };
            let end = (a + chunk).min(half + 1);
            // Pairs (b, m - b) for b in a..end: a forward and a backward run of values.
            let (low, high) = (g.run(a, end), g.run(m + 1 - end, m + 1 - a));
            let (low, high) = (&*low, &*high);
            if leftover.len() > 8 {
                marks.mark_pairs(low, high);
                leftover.retain(|&v| !marks.is_marked(u32::from(v)));
            } else {
                strike_found(low, high, leftover);
            }
            scanned += (end - a) as u64;
            a = end;
            if leftover.is_empty() {
                return scanned;
            }
        }
    }
    scanned
}

/// Removes from `leftover` (at most 8 values) those that some split option
/// `low[i] ^ high[high.len() - 1 - i]` reaches ([`find_in_pairs`]), comparing each pair with
/// all of them at once instead of marking every pair.
#[inline]
fn strike_found(low: &[u16], high: &[u16], leftover: &mut Vec<u16>) {
    let found = match leftover.len() {
        1 => find_in_pairs(low, high, &[leftover[0]]),
        2 => find_in_pairs(low, high, &[leftover[0], leftover[1]]),
        3 | 4 => find_in_pairs(
            low,
            high,
            &std::array::from_fn::<_, 4, _>(|k| leftover[k.min(leftover.len() - 1)]),
        ),
        _ => find_in_pairs(
            low,
            high,
            &std::array::from_fn::<_, 8, _>(|k| leftover[k.min(leftover.len() - 1)]),
        ),
    };
    let mut k = 0;
    leftover.retain(|_| {
        k += 1;
        found & (1 << (k - 1)) == 0
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::naive_values;

    #[test]
    fn officers_matches_naive() {
        let mut exact = ExactGenerator::new(&Game::officers());
        exact.extend_to(3000).unwrap();
        assert_eq!(
            exact.values(),
            naive_values(&Game::officers(), 3000).unwrap().as_slice()
        );
        // Below 3000 no value reaches 256, so any mask that agrees on 0..=max is as good.
        let max = *exact.values().iter().max().unwrap();
        assert!(
            (0..=max).all(|v| exact.space().is_rare(0, v) == SparseSpace::OFFICERS.is_rare(0, v))
        );
    }

    #[test]
    fn wrong_masks_cost_speed_only() {
        let naive = naive_values(&Game::officers(), 1500).unwrap();
        for mask in [0, 1, 0x11, 0xff, 0x1ef, 0x3ff] {
            let mut exact = ExactGenerator::with_space(
                &Game::officers(),
                SparseSpace {
                    mask,
                    by_position: false,
                },
            )
            .unwrap();
            exact.extend_to(1500).unwrap();
            assert_eq!(exact.values(), naive.as_slice(), "mask {mask:#x}");
        }
    }

    #[test]
    fn position_type_only_where_valid() {
        let parity = SparseSpace {
            mask: 0x3,
            by_position: true,
        };
        assert!(ExactGenerator::with_space(&Game::officers(), parity).is_err());
        let g04: Game = ".04".parse().unwrap();
        let mut exact = ExactGenerator::with_space(&g04, parity).unwrap();
        exact.extend_to(1500).unwrap();
        assert_eq!(exact.values(), naive_values(&g04, 1500).unwrap().as_slice());
    }
}
