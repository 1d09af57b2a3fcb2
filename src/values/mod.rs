/*!
Grundy values of octal games: the naive oracle and the exact rare-value generator.

Both compute the same sequence `G(0), G(1), ...` for any [`Game`]; `naive` straight from the move
set in O(n^2), `exact` with the sparse-space (rare-value) algorithm. Values are `u16`: octal games
studied so far stay far below that, and a value that would not fit is an error, never a wrap.
*/

pub mod exact;
pub mod history;
pub mod marks;
pub mod naive;
pub mod space;
pub mod speculative;
pub mod verify;

pub use exact::ExactGenerator;
pub use naive::naive_values;
pub use space::SparseSpace;

use crate::game::Game;

/// One Grundy value.
pub type Value = u16;

/// Why values could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum ValueError {
    #[error("G({n}) of {game} would be {value}, beyond the supported {} (values are 16-bit)", u16::MAX - 1)]
    TooLarge { game: Game, n: usize, value: u32 },
}

/// A mex array with stamps: `marks[v] == stamp` means `v` is marked for the current heap, so
/// starting a new heap costs one increment instead of clearing the array. Stamps are bytes: the
/// array is cleared once every 255 heaps, and byte stores never become (slow) vector scatters.
///
/// The array covers every `u16`, so marking a value (or the XOR of two) needs no bounds check.
/// `limit` is a power of two above every XOR of the values stored so far: every option value is
/// below it, which bounds the search for a mex.
#[derive(Clone, Debug)]
pub(crate) struct MexMarks {
    stamp: u8,
    limit: u32,
    marks: Box<[u8; 1 << 16]>,
}

impl MexMarks {
    pub(crate) fn new() -> MexMarks {
        let marks = vec![0u8; 1 << 16]
            .into_boxed_slice()
            .try_into()
            .expect("length is 2^16");
        MexMarks {
            stamp: 0,
            limit: 64,
            marks,
        }
    }

    /// Raises `limit` above every XOR of values up to `max_value`.
    pub(crate) fn fit(&mut self, max_value: Value) {
        let need = (u32::from(max_value) + 1).next_power_of_two() * 2;
        self.limit = self.limit.max(need);
    }

    /// Starts a new heap: clears every mark.
    #[inline]
    pub(crate) fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Every index ever marked is below `limit` (it only grows).
            self.marks[..self.limit as usize].fill(0);
            self.stamp = 1;
        }
    }

    #[inline(always)]
    pub(crate) fn mark(&mut self, v: Value) {
        self.marks[v as usize] = self.stamp;
    }

    /// Marks `low[i] ^ high[high.len() - 1 - i]` for every `i`: the split options `(b, m - b)`
    /// for a run of consecutive `b`, given the run `G(b)` and the run `G(m - b)` backwards.
    #[inline]
    pub(crate) fn mark_pairs(&mut self, low: &[Value], high: &[Value]) {
        let stamp = self.stamp;
        let marks = &mut *self.marks;
        // Eight pairs at a time: fixed-size arrays let the compiler drop the loop overhead and
        // do the reversal and XOR in vector registers; the stores stay scalar (a scatter).
        let mut lows = low.chunks_exact(8);
        let mut highs = high.rchunks_exact(8);
        for (l, h) in lows.by_ref().zip(highs.by_ref()) {
            let l: &[Value; 8] = l.try_into().expect("chunk of 8");
            let h: &[Value; 8] = h.try_into().expect("chunk of 8");
            for i in 0..8 {
                marks[(l[i] ^ h[7 - i]) as usize] = stamp;
            }
        }
        for (x, y) in lows.remainder().iter().zip(highs.remainder().iter().rev()) {
            marks[(x ^ y) as usize] = stamp;
        }
    }

    /// Marks `r ^ G(m - a)` for every rare `(a, r)` (positions increasing, all in `1..m`): the
    /// splits `m = a + b` whose part `a` is rare. `g[i]` is `G(offset + i)` and holds every heap
    /// read.
    #[inline]
    pub(crate) fn mark_rare_splits(
        &mut self,
        g: &[Value],
        offset: usize,
        m: usize,
        pos: &[u32],
        val: &[Value],
    ) {
        assert!(pos.len() == val.len() && m <= offset + g.len());
        let (Some(&first), Some(&last)) = (pos.first(), pos.last()) else {
            return;
        };
        assert!(first >= 1 && (last as usize) < m && offset <= m - last as usize);
        let stamp = self.stamp;
        let marks = &mut *self.marks;
        let top = m - offset;
        for (&a, &r) in pos.iter().zip(val) {
            debug_assert!(a >= 1 && (a as usize) < m);
            // SAFETY: positions increase, so 1 <= first <= a <= last and
            // offset <= m - last <= m - a <= m - 1 < offset + g.len() (asserted above): the index
            // top - a lies in 0..g.len(). This is the innermost loop of the generator.
            let x = unsafe { *g.get_unchecked(top - a as usize) };
            marks[(r ^ x) as usize] = stamp;
        }
    }

    /// Bit `i` set when value `64 w + i` is unmarked.
    #[inline]
    pub(crate) fn unmarked_word(&self, w: usize) -> u64 {
        let block: &[u8; 64] = self.marks[64 * w..64 * w + 64]
            .try_into()
            .expect("64 marks");
        let mut bits = 0u64;
        for (i, &m) in block.iter().enumerate() {
            bits |= u64::from(m != self.stamp) << i;
        }
        bits
    }

    #[inline(always)]
    pub(crate) fn is_marked(&self, v: u32) -> bool {
        v < 1 << 16 && self.marks[v as usize] == self.stamp
    }

    /// Every option value is below this.
    pub(crate) fn limit(&self) -> u32 {
        self.limit
    }

    /// Smallest unmarked value.
    pub(crate) fn mex(&self) -> u32 {
        (0..).find(|&v| !self.is_marked(v)).unwrap_or(0)
    }
}

/// For each `k`, whether some pair `low[i] ^ high[high.len() - 1 - i]` equals `wanted[k]`
/// (bit `k` of the result). Branch-free lane compares over 16 pairs at a time, so it runs in
/// vector registers; it pays off once few values are still wanted (the long tail of a proof).
pub(crate) fn find_in_pairs<const K: usize>(
    low: &[Value],
    high: &[Value],
    wanted: &[Value; K],
) -> u32 {
    const { assert!(K <= 16, "one bit per wanted value in a u16 lane") };
    // Lane i gathers bit k when some pair it saw matched wanted[k]: one 16-lane OR at the end
    // (called once per compare chunk, so the reduction must be cheap too).
    let mut acc = [0u16; 16];
    let mut lows = low.chunks_exact(16);
    let mut highs = high.rchunks_exact(16);
    for (l, h) in lows.by_ref().zip(highs.by_ref()) {
        let l: &[Value; 16] = l.try_into().expect("chunk of 16");
        let h: &[Value; 16] = h.try_into().expect("chunk of 16");
        let x: [Value; 16] = std::array::from_fn(|i| l[i] ^ h[15 - i]);
        for (k, &w) in wanted.iter().enumerate() {
            for i in 0..16 {
                acc[i] |= u16::from(x[i] == w) << k;
            }
        }
    }
    let mut found = u32::from(acc.iter().fold(0, |s, &v| s | v));
    for (x, y) in lows.remainder().iter().zip(highs.remainder().iter().rev()) {
        for (k, &w) in wanted.iter().enumerate() {
            if x ^ y == w {
                found |= 1 << k;
            }
        }
    }
    found
}

/// Sum of `G(n)` over the values: the checksum the C baselines print.
pub fn checksum(values: &[Value]) -> u64 {
    values.iter().map(|&v| u64::from(v)).sum()
}

/// Converts a mex to a stored value, or says it is too large.
pub(crate) fn to_value(game: &Game, n: usize, v: u32) -> Result<Value, ValueError> {
    if v >= u32::from(u16::MAX) {
        return Err(ValueError::TooLarge {
            game: game.clone(),
            n,
            value: v,
        });
    }
    Ok(v as Value)
}

/// The first `count` values of `game` by the exact generator, with a progress bar on a terminal.
///
/// # Errors
/// As [`ExactGenerator::extend_to`].
pub fn exact_prefix(game: &Game, count: usize) -> Result<ExactGenerator, ValueError> {
    let mut progress = crate::progress::Progress::new(count as u64, "exact");
    let mut generator = ExactGenerator::new(game);
    generator.extend_with_progress(count, &mut |done| progress.set(done as u64))?;
    progress.finish();
    Ok(generator)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find_in_pairs` against its definition, for every width it is called with and lengths
    /// that leave remainders.
    #[test]
    fn find_in_pairs_matches_its_definition() {
        let values: Vec<Value> = (0..300u32)
            .map(|i| ((i * 2654435761) >> 26) as Value)
            .collect();
        let direct = |low: &[Value], high: &[Value], wanted: &[Value]| -> u32 {
            let mut found = 0;
            for (i, &x) in low.iter().enumerate() {
                let y = high[high.len() - 1 - i];
                for (k, &w) in wanted.iter().enumerate() {
                    if x ^ y == w {
                        found |= 1 << k;
                    }
                }
            }
            found
        };
        for len in [0, 1, 15, 16, 17, 40, 100] {
            let (low, high) = (&values[3..3 + len], &values[150..150 + len]);
            for start in 0..40u16 {
                let w1 = [start];
                let w2 = [start, start + 7];
                let w4: [Value; 4] = std::array::from_fn(|k| start + 3 * k as Value);
                let w8: [Value; 8] = std::array::from_fn(|k| start + 5 * k as Value);
                assert_eq!(find_in_pairs(low, high, &w1), direct(low, high, &w1));
                assert_eq!(find_in_pairs(low, high, &w2), direct(low, high, &w2));
                assert_eq!(find_in_pairs(low, high, &w4), direct(low, high, &w4));
                assert_eq!(find_in_pairs(low, high, &w8), direct(low, high, &w8));
            }
        }
    }
}
