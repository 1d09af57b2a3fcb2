/*!
The witness check: is a pattern `s[0..p)` (true values) a fixed point of the rule in [`super`]?
Written straight from the rule with 16-bit values and a plain set, sharing nothing with the
encoder, so that a model decoded from a solver is checked by different code before it is reported.
*/

use crate::game::Game;
use crate::values::{SparseSpace, Value};

/// Why a pattern is not a fixed point.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WitnessError {
    #[error("empty pattern")]
    Empty,
    #[error("s[{residue}] = {value} is rare")]
    Rare { residue: usize, value: Value },
    #[error("s[{residue}] = {value} is not below 512")]
    TooLarge { residue: usize, value: Value },
    #[error("s[{residue}] = {value}, but the rule gives {expected}")]
    NotFixed {
        residue: usize,
        value: Value,
        expected: Value,
    },
}

impl WitnessError {
    /// The residue where the rule fails (none for an empty pattern).
    pub fn residue(&self) -> Option<usize> {
        match *self {
            WitnessError::Empty => None,
            WitnessError::Rare { residue, .. }
            | WitnessError::TooLarge { residue, .. }
            | WitnessError::NotFixed { residue, .. } => Some(residue),
        }
    }
}

/// Checks `pattern` as the periodic tail of `game` with rare table `rares` under `space`.
///
/// # Errors
/// [`WitnessError`] at the first residue where the rule fails.
pub fn check_pattern(
    game: &Game,
    space: SparseSpace,
    rares: &[(u64, Value)],
    pattern: &[Value],
) -> Result<(), WitnessError> {
    if pattern.is_empty() {
        return Err(WitnessError::Empty);
    }
    (0..pattern.len()).try_for_each(|r| check_residue(game, space, rares, pattern, r))
}

/// The residues of `pattern` where the rule fails (none for a fixed point): how far a near miss
/// is from one, counted by this module's own reading of the rule.
pub fn bad_residues(
    game: &Game,
    space: SparseSpace,
    rares: &[(u64, Value)],
    pattern: &[Value],
) -> Vec<usize> {
    let failures = residue_failures(game, space, rares, pattern);
    failures.iter().filter_map(WitnessError::residue).collect()
}

/// How the rule fails at each of [`bad_residues`], in residue order: what a near miss would
/// need changed.
pub fn residue_failures(
    game: &Game,
    space: SparseSpace,
    rares: &[(u64, Value)],
    pattern: &[Value],
) -> Vec<WitnessError> {
    (0..pattern.len())
        .filter_map(|r| check_residue(game, space, rares, pattern, r).err())
        .collect()
}

/// `pattern` with every residue where the rule fails set to what the rule gives there (one
/// step, all residues at once, the rule read on the pattern as it was), from its
/// [`residue_failures`]; `None` when a failure is not of that kind (a rare value, or one of 512
/// or more, given or wanted). Why: a near miss of a primitive question can be a fixed point of
/// a smaller period with one residue changed (Officers p = 64's), so that its one bad residue
/// is the primitive question's own constraint, not a sign that a primitive pattern is near;
/// mended, it shows so.
pub fn mended(pattern: &[Value], failures: &[WitnessError]) -> Option<Vec<Value>> {
    let mut mended = pattern.to_vec();
    for failure in failures {
        match *failure {
            WitnessError::NotFixed {
                residue, expected, ..
            } if expected < 512 => mended[residue] = expected,
            _ => return None,
        }
    }
    Some(mended)
}

/// The rule at residue `r` of a non-empty `pattern`.
fn check_residue(
    game: &Game,
    space: SparseSpace,
    rares: &[(u64, Value)],
    pattern: &[Value],
    r: usize,
) -> Result<(), WitnessError> {
    let p = pattern.len();
    let at = |back: usize, r: usize| pattern[(r + p - back % p) % p];
    let value = pattern[r];
    if value >= 512 {
        return Err(WitnessError::TooLarge { residue: r, value });
    }
    // Rarity of a value does not depend on the heap in a value-type space; in the tail heap
    // `n ≡ r`, so a position-type space is read at parity r only when p is even.
    if space.is_rare(r, value) {
        return Err(WitnessError::Rare { residue: r, value });
    }
    let mut options = std::collections::HashSet::new();
    for j in game.single_heap_moves() {
        options.insert(at(j, r));
    }
    for j in game.split_moves() {
        for &(a, v) in rares.iter().filter(|r| r.0 >= 1) {
            options.insert(v ^ at(j + a as usize, r));
        }
    }
    let expected = (0..)
        .find(|&v| !space.is_rare(r, v) && !options.contains(&v))
        .unwrap_or(Value::MAX);
    if expected != value {
        return Err(WitnessError::NotFixed {
            residue: r,
            value,
            expected,
        });
    }
    Ok(())
}
