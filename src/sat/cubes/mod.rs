/*!
Cube-and-conquer over the value box of one period question, resumable for months.

One CaDiCaL run on a hard period (Officers 27, 29, 37, 39) either answers or, after hours, says
nothing about how far it got. Here the question is cut into *cubes*, boxes of the value space,
each tried by an incremental CaDiCaL under a conflict budget; a cube that outlasts its budget is
split in two and its halves go back in the queue. The refuted share of the box is a measure of
progress that only grows, the queue is written to a ledger from which a later run (or a machine
after a crash) goes on, and the question is answered when a cube has a model (SAT, witness-checked)
or when no cube is left (UNSAT).

Invariants (kept under one lock, written down once here):
- A [`Cube`] gives every residue `r` an interval `lo[r]..=hi[r]` of bytes (compressed common
  values, as in [`super::encode`]); its *share* is the fraction of the full box `[0, 255]^p` it
  covers, the product of `(hi - lo + 1) / 256`.
- The cubes waiting, the cubes being tried and the region already refuted partition the full box:
  a split replaces a cube by two halves of one residue's interval, and a refuted cube leaves the
  queue exactly once, adding its share to `refuted_share`. So `refuted_share` plus the waiting
  shares is 1, which [`Ledger::read`] checks (a ledger that fails it is corrupt).
- A refutation is CaDiCaL's UNSAT under the cube's bounds as assumptions, on the encoding alone
  (the clauses it learned on the way are implied by it). Its failed assumptions name the bounds
  the refutation used; the box of those bounds alone holds the cube, and every waiting or running
  cube inside it is refuted with it (they satisfy the same bounds).
- A model is decoded and checked by [`super::witness`] before it is reported.

Why intervals and binary splits: a bound `s[r] <= c` is one literal of the encoding (the
sequential counter, [`PeriodEncoding::at_most`]), so a cube is a handful of assumptions and one
solver serves every cube, keeping what it learned. Which residue to split: the one with the fewest
live bytes left, counting a byte dead when it conflicts with a residue already fixed (its XOR with
that value is an option of one of them) or lies below `s[0]`'s lower bound when rotation is
broken; the split is at the middle live byte. This is the "smallest domain first" rule of
constraint programming: fixing residues one after another lets the pairwise conflicts prune, where
halving every residue's range once (measured on Officers p = 27, the top bits of 9 residues) leaves
cubes as hard as the question.

Here: cubes, their share of the box, and how one is split. `ledger.rs` keeps a campaign on disk
(its open cubes, its counters, its verdict) and `conquer.rs` runs it (worker threads, each with
an incremental CaDiCaL, over the ledger's queue).
*/

use super::encode::PeriodEncoding;

mod conquer;
mod ledger;
#[cfg(test)]
mod tests;

pub use conquer::{Conquer, ConquerError, WitnessCheck, conquer};
pub use ledger::{Ledger, LedgerError, ShareNote, Verdict};

/// A box of the value space: residue `r`'s byte lies in `lo[r]..=hi[r]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    pub lo: Vec<u8>,
    pub hi: Vec<u8>,
}

/// A bound of a cube that a refutation may or may not have used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// `s[r] >= lo[r]`.
    Lower(usize),
    /// `s[r] <= hi[r]`.
    Upper(usize),
}

impl Cube {
    /// The whole value space of period `p`.
    pub fn full(p: usize) -> Cube {
        Cube {
            lo: vec![0; p],
            hi: vec![255; p],
        }
    }

    /// The fraction of the full box this cube covers.
    pub fn share(&self) -> f64 {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(&l, &h)| (f64::from(h) - f64::from(l) + 1.0) / 256.0)
            .product()
    }

    /// Whether `other` lies inside this cube.
    pub fn contains(&self, other: &Cube) -> bool {
        (0..self.lo.len()).all(|r| self.lo[r] <= other.lo[r] && other.hi[r] <= self.hi[r])
    }

    /// The literals of `e` that say "inside this cube": one a bound that says something.
    pub fn bound_literals(&self, e: &PeriodEncoding) -> Vec<i32> {
        self.bounds(e).into_iter().map(|(l, _)| l).collect()
    }

    /// The bounds that say something (not `0 <=` nor `<= 255`), as literals of `e`.
    fn bounds(&self, e: &PeriodEncoding) -> Vec<(i32, Bound)> {
        let mut out = Vec::new();
        for r in 0..self.lo.len() {
            if self.lo[r] > 0 {
                out.push((-e.at_most(r, self.lo[r] as usize - 1), Bound::Lower(r)));
            }
            if self.hi[r] < 255 {
                out.push((e.at_most(r, self.hi[r] as usize), Bound::Upper(r)));
            }
        }
        out
    }

    /// This cube with only the bounds in `used`: the region a refutation that used them refutes.
    fn keeping(&self, used: &[Bound]) -> Cube {
        let mut wide = Cube::full(self.lo.len());
        for &b in used {
            match b {
                Bound::Lower(r) => wide.lo[r] = self.lo[r],
                Bound::Upper(r) => wide.hi[r] = self.hi[r],
            }
        }
        wide
    }

    /// The pieces of residue `r`'s interval cut before each byte of `cuts` (increasing, each in
    /// `lo[r] + 1..=hi[r]`).
    fn pieces(&self, r: usize, cuts: &[u8]) -> Vec<Cube> {
        let mut out = Vec::with_capacity(cuts.len() + 1);
        let mut from = self.lo[r];
        for &at in cuts
            .iter()
            .chain(std::iter::once(&self.hi[r].wrapping_add(1)))
        {
            let mut piece = self.clone();
            piece.lo[r] = from;
            piece.hi[r] = at.wrapping_sub(1);
            out.push(piece);
            from = at;
        }
        out
    }

    /// The narrowed residues as `r:lo-hi` (`r:v` when fixed), space-separated; `*` for the full
    /// box. The ledger's form, read back by [`Cube::parse`].
    pub fn render(&self) -> String {
        let parts: Vec<String> = (0..self.lo.len())
            .filter(|&r| (self.lo[r], self.hi[r]) != (0, 255))
            .map(|r| match (self.lo[r], self.hi[r]) {
                (l, h) if l == h => format!("{r}:{l}"),
                (l, h) => format!("{r}:{l}-{h}"),
            })
            .collect();
        if parts.is_empty() {
            "*".into()
        } else {
            parts.join(" ")
        }
    }

    /// Reads [`Cube::render`]'s form (also with commas between residues) for period `p`.
    ///
    /// # Errors
    /// A message naming the part that is not `r:v` or `r:lo-hi` with `r < p`, `lo <= hi <= 255`.
    pub fn parse(text: &str, p: usize) -> Result<Cube, String> {
        let mut cube = Cube::full(p);
        for part in text
            .split([' ', ','])
            .filter(|s| !s.is_empty() && *s != "*")
        {
            let bad = || format!("bad cube part {part:?} (want r:v or r:lo-hi, r < {p})");
            let (r, range) = part.split_once(':').ok_or_else(bad)?;
            let r: usize = r.parse().map_err(|_| bad())?;
            let (lo, hi) = range.split_once('-').unwrap_or((range, range));
            let (lo, hi): (u8, u8) = (
                lo.parse().map_err(|_| bad())?,
                hi.parse().map_err(|_| bad())?,
            );
            if r >= p || lo > hi {
                return Err(bad());
            }
            cube.lo[r] = lo;
            cube.hi[r] = hi;
        }
        Ok(cube)
    }
}

/// The summed share of `cubes` (the share they cover when disjoint); 0.0 for none (a float
/// `sum` of nothing is -0.0, which the JSON would show).
pub fn total_share(cubes: &[Cube]) -> f64 {
    cubes.iter().map(Cube::share).fold(0.0, |a, b| a + b)
}

/// How a campaign's encoding breaks rotation symmetry: what residue 0 bounds the others by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// Every rotation kept.
    Kept,
    /// `s[0]` is a smallest value (the question's own encoding).
    SmallestFirst,
    /// `s[0]` is a largest value (a band of [`super::bounds`]).
    LargestFirst,
}

/// The live bytes of each residue in `cube`, by the pairwise conflicts with fixed residues and
/// the rotation: `s[r] >= lo[0]` with a smallest value first, `s[r] <= hi[0]` with a largest.
/// Sound but weak (the solver knows more); it only chooses splits.
fn live_bytes(shifts: &[Vec<u8>], cube: &Cube, rotation: Rotation) -> Vec<Vec<u8>> {
    let p = cube.lo.len();
    let fixed: Vec<usize> = (0..p).filter(|&q| cube.lo[q] == cube.hi[q]).collect();
    (0..p)
        .map(|r| {
            let (floor, ceiling) = match rotation {
                Rotation::Kept => (0, 255),
                Rotation::SmallestFirst => (cube.lo[0], 255),
                Rotation::LargestFirst => (0, cube.hi[0]),
            };
            let forbidden: Vec<(u8, [bool; 256])> = fixed
                .iter()
                .filter(|&&q| q != r)
                .map(|&q| {
                    let mut f = [false; 256];
                    for v in super::encode::conflict_xors(shifts, r, q) {
                        f[v as usize] = true;
                    }
                    (cube.lo[q], f)
                })
                .collect();
            (cube.lo[r].max(floor)..=cube.hi[r].min(ceiling))
                .filter(|&c| forbidden.iter().all(|(b, f)| !f[(c ^ b) as usize]))
                .collect()
        })
        .collect()
}

/// The split of a cube the solver could not settle: the residue with the fewest live bytes that
/// is not fixed yet, cut into at most `fanout` pieces with about as many live bytes each (2: at
/// its middle live byte; 256: one live byte a piece, the dead ones riding along), or in two at the
/// middle of its interval when nothing there is live. The pieces partition the cube.
pub fn split(
    shifts: &[Vec<u8>],
    cube: &Cube,
    rotation: Rotation,
    fanout: usize,
) -> Option<Vec<Cube>> {
    let live = live_bytes(shifts, cube, rotation);
    let r = (0..cube.lo.len())
        .filter(|&r| cube.lo[r] < cube.hi[r])
        .min_by_key(|&r| (live[r].len(), r))?;
    let (lo, hi) = (cube.lo[r], cube.hi[r]);
    let live = &live[r];
    let n = live.len();
    let cuts: Vec<u8> = match n {
        0 => vec![lo + (hi - lo).div_ceil(2)],
        // One live byte: cut it off from what lies below it, or from what lies above.
        1 if live[0] > lo => vec![live[0]],
        1 => vec![live[0] + 1],
        _ => {
            let k = fanout.clamp(2, n);
            let mut cuts: Vec<u8> = (1..k).map(|i| live[n * i / k]).collect();
            cuts.dedup();
            cuts
        }
    };
    Some(cube.pieces(r, &cuts))
}
