//! Where the seconds of a piece's proof fall along the values of a cut's residue, learned from
//! the pieces a ladder has proved in parts, so a chain shares a piece's estimate among its
//! parts by what parts like them cost, not equally.
//!
//! Why: the parts of one piece differ by an order of magnitude and more. p = 39's 216..224
//! (2026-12-05, LRAT, cut on `s[13]` at 64, 96, 120, 144, 152 and 160): 216's parts took 2144,
//! 846, 1018, 422, 893, 296 and 3565 s; 192..200's 144..152 and 152..160 took 4-6 s each
//! where its `s[13] >= 160` took 889-3322 s. Equal shares put the longest calls anywhere in
//! the order of [`super::chain_calls`] (longest first on more than one job), and a chain's
//! plan then ends with two calls of hours on one core.
//!
//! The model, and its one assumption: each learned piece spreads its share of its own total
//! evenly over the values of `s[residue]` its part holds (`0..=top`, as `s[0]` is a largest
//! value), so a part of another cut (160..168 of a part learned as `s[13] >= 160`) gets the
//! values' share. The pieces are weighed alike, each value's density the mean over the pieces
//! that hold it (a value above every learned piece's largest takes the density of the highest
//! value learned).

use super::{Half, Ladder, ProofPiece};
use crate::values::Value;

/// The learned density of a piece's proof seconds over the values of `s[residue]`.
///
/// Invariant: `per_value` is not empty, and every entry is finite and at least 0.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PartCosts {
    pub residue: usize,
    /// Index `v`: the mean share of a piece's seconds that the value `v` of `s[residue]` holds.
    per_value: Vec<f64>,
}

impl PartCosts {
    /// Learned from every piece of the ladder (bands with a largest value first) whose checked
    /// parts on `residue` hold each of its values exactly once; `None` where there is none.
    pub fn learned(ladder: &Ladder, residue: usize) -> Option<PartCosts> {
        let mut sum: Vec<f64> = Vec::new();
        let mut count: Vec<u32> = Vec::new();
        for rung in ladder.rungs.iter().filter(|r| r.largest_first) {
            let mut tops: Vec<Value> = rung.pieces.iter().map(|p| p.top).collect();
            tops.sort_unstable();
            tops.dedup();
            for top in tops {
                let parts = (rung.pieces.iter())
                    .filter(|p| p.top == top && p.is_checked())
                    .filter(|p| p.half.is_some_and(|h| h.residue == residue));
                let Some(density) = piece_density(top, parts.collect()) else {
                    continue;
                };
                if sum.len() < density.len() {
                    sum.resize(density.len(), 0.0);
                    count.resize(density.len(), 0);
                }
                for (v, d) in density.into_iter().enumerate() {
                    sum[v] += d;
                    count[v] += 1;
                }
            }
        }
        let per_value: Vec<f64> = (sum.iter().zip(&count))
            .map(|(&s, &n)| s / f64::from(n))
            .collect();
        (!per_value.is_empty()).then_some(PartCosts { residue, per_value })
    }

    /// The share of the piece at `top` that `part` should take (0 to 1), or `None` where the
    /// learned density gives the piece nothing to share (or the part is of another residue).
    pub fn share(&self, top: Value, part: &Half) -> Option<f64> {
        if part.residue != self.residue {
            return None;
        }
        let density = |v: usize| self.per_value[v.min(self.per_value.len() - 1)];
        let end = usize::from(top) + 1;
        let whole: f64 = (0..end).map(density).sum();
        let (from, below) = values_held(top, part);
        let held: f64 = (from..below).map(density).sum();
        (whole > 0.0).then(|| held / whole)
    }
}

/// The values of `s[residue]` a part of the piece at `top` holds, as `from..below` within
/// `0..=top` (empty for a part above the piece's largest value).
pub(super) fn values_held(top: Value, part: &Half) -> (usize, usize) {
    let end = usize::from(top) + 1;
    let (from, below) = part.span();
    let below = below.map_or(end, |b| usize::from(b).min(end));
    (usize::from(from).min(below), below)
}

/// One piece's share of its seconds per value of `s[residue]` (`0..=top`), from its `parts`:
/// `None` unless they hold each value exactly once (parts of two cuts overlap) and took time.
fn piece_density(top: Value, mut parts: Vec<&ProofPiece>) -> Option<Vec<f64>> {
    parts.sort_by_key(|p| p.half.map(|h| h.span()));
    let mut reached = 0;
    let mut held = Vec::new();
    for piece in parts {
        let (from, below) = values_held(top, &piece.half?);
        if from != reached.min(below) {
            return None;
        }
        reached = reached.max(below);
        held.push((from, below, piece.seconds.max(0.0)));
    }
    let total: f64 = (held.iter().filter(|h| h.1 > h.0)).map(|h| h.2).sum();
    if reached != usize::from(top) + 1 || !(total > 0.0 && total.is_finite()) {
        return None;
    }
    let mut density = vec![0.0; reached];
    for (from, below, seconds) in held.into_iter().filter(|h| h.1 > h.0) {
        let each = seconds / total / (below - from) as f64;
        density[from..below].fill(each);
    }
    Some(density)
}
