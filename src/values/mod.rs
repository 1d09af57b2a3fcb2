/*!
Grundy values of octal games: the naive oracle and the exact rare-value generator.

Both compute the same sequence `G(0), G(1), ...` for any [`Game`]; `naive` straight from the move
set in O(n^2), `exact` with the sparse-space (rare-value) algorithm. Values are `u16`: octal games
studied so far stay far below that, and a value that would not fit is an error, never a wrap.
*/

pub mod exact;
pub mod naive;
pub mod space;

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
/// starting a new heap costs one increment instead of clearing the array.
///
/// Invariant: `marks.len()` is a power of two larger than every value stored so far, so the XOR
/// of two stored values is always a valid index.
#[derive(Clone, Debug)]
pub(crate) struct MexMarks {
    stamp: u32,
    marks: Vec<u32>,
}

impl MexMarks {
    pub(crate) fn new() -> MexMarks {
        MexMarks { stamp: 0, marks: vec![0; 64] }
    }

    /// Grows the array so that every XOR of values up to `max_value` fits, and more.
    pub(crate) fn fit(&mut self, max_value: Value) {
        let need = ((u32::from(max_value) + 1).next_power_of_two() * 2) as usize;
        if need > self.marks.len() {
            self.marks.resize(need, 0);
        }
    }

    /// Starts a new heap: clears every mark.
    #[inline]
    pub(crate) fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
    }

    #[inline(always)]
    pub(crate) fn mark(&mut self, v: Value) {
        debug_assert!((v as usize) < self.marks.len());
        // SAFETY: by the invariant above every XOR of stored values is below `marks.len()`,
        // and callers only mark such XORs (or stored values themselves).
        unsafe { *self.marks.get_unchecked_mut(v as usize) = self.stamp }
    }

    #[inline(always)]
    pub(crate) fn is_marked(&self, v: u32) -> bool {
        self.marks.get(v as usize) == Some(&self.stamp)
    }

    /// Length of the array: every option value is below it.
    pub(crate) fn limit(&self) -> u32 {
        self.marks.len() as u32
    }

    /// Smallest unmarked value.
    pub(crate) fn mex(&self) -> u32 {
        (0..).find(|&v| !self.is_marked(v)).unwrap_or(0)
    }
}

/// Sum of `G(n)` over the values: the checksum the C baselines print.
pub fn checksum(values: &[Value]) -> u64 {
    values.iter().map(|&v| u64::from(v)).sum()
}

/// Converts a mex to a stored value, or says it is too large.
pub(crate) fn to_value(game: &Game, n: usize, v: u32) -> Result<Value, ValueError> {
    if v >= u32::from(u16::MAX) {
        return Err(ValueError::TooLarge { game: game.clone(), n, value: v });
    }
    Ok(v as Value)
}

/// The first `count` values of `game` by the exact generator, with a progress bar on a terminal.
///
/// # Errors
/// As [`ExactGenerator::extend_to`].
pub fn exact_prefix(game: &Game, count: usize) -> Result<ExactGenerator, ValueError> {
    let progress = crate::progress::Progress::new(count as u64, "exact");
    let mut generator = ExactGenerator::new(game);
    generator.extend_with_progress(count, &mut |done| progress.set(done as u64))?;
    progress.finish();
    Ok(generator)
}
