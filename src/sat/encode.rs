/*!
The one-hot encoding of "a period-`p` tail is a fixed point of the speculative rule".

Values are byte-compressed common values `c` in `0..256` (see [`Compression`]): every common value
below 512 has exactly one byte, so "a common value below 512" is "a byte". Variables:
- `x(r, c)`: `s[r]` has byte `c`. Exactly one per residue: one clause for at least one, and a
  sequential counter (Sinz) with 255 auxiliary variables for at most one.
- The options come from *shifts*: each rule entry (offset `d`, compressed rare value `v`; `v = 0`
  for a single-heap move) contributes `v ^ s[(r - d) mod p]`; entries are grouped by
  `t = d mod p` into sets `R_t` of distinct `v`. Byte `c` is an option of `r` exactly when
  `x((r - t) mod p, c ^ v)` holds for some `t` and `v` in `R_t` (the XOR is hard-coded into which
  `x` a clause names).
- `s[r]` is not an option of `r`: for residues `r < q`, `s[r] ^ s[q]` is not in
  `F = R_{(r-q) mod p} ∪ R_{(q-r) mod p}` (the same condition seen from either side), as binary
  clauses `-x(r, c) ∨ -x(q, c ^ f)`; and `0` in `R_0` (the residue would be its own option)
  leaves only units `-x(r, c)`: an excluded period is UNSAT. `R_0`'s other values pair `x(r, c)`
  with `x(r, c ^ v)`, which at-most-one already forbids.
- `below(r, c)`: every byte `u < c` is an option of `r`: `below(r, 0)` holds,
  `below(r, c + 1) -> below(r, c)`, and `below(r, c + 1) -> OR over t, v in R_t of
  x((r - t) mod p, c ^ v)`. The mex: `x(r, c) -> below(r, c)`. Since compression preserves
  order, "smallest free byte" is "smallest free common value".

Why binary conflicts and no `hit` variables (the first encoding had `hit(r, c)` defined both ways
and `x -> not hit`): the pairwise form states each conflict once instead of twice, drops 256 `p`
variables and a third of the clauses (Officers p = 19: 3.1 million against 4.6 million), and
CaDiCaL decided Officers p = 19 in 23-140 s over three seeds, where the `hit` form ran past 300 s
(p = 17: 15-21 s against 17-50 s).

A model is exactly a pattern `s` of common values below 512 with `s[r]` = the smallest common value
that is not an option at `r`, under the assumptions of [`super`]. Only value-type spaces are
encoded (position-type spaces have no byte compression).
*/

use super::{Cnf, CollectClauses};
use crate::game::Game;
use crate::values::speculative::{Compression, marking_entries};
use crate::values::{SparseSpace, Value};

/// Why a period cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("period must be at least 1")]
    ZeroPeriod,
    #[error("the rare table is empty: compute or read one first")]
    NoRares,
    #[error("sparse space {0} has no byte compression (value-type spaces only)")]
    NoCompression(SparseSpace),
    #[error("rare value {0} does not fit in a byte after compression")]
    RareTooWide(Value),
}

/// What a variable of the encoding says, for reading learned clauses in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarMeaning {
    /// `x(r, c)`: `s[r]` has byte `c`.
    Byte { r: usize, c: usize },
    /// `below(r, c)`: every byte below `c` (`c` up to 256) is an option of `r`.
    Below { r: usize, c: usize },
    /// The counter's `s[r] <= c` ([`PeriodEncoding::at_most`]), `c` below 255.
    AtMost { r: usize, c: usize },
    /// A variable beyond the layout (the primitive question's, say).
    Other,
}

/// The encoding of one period, with its variable layout.
#[derive(Clone, Debug)]
pub struct PeriodEncoding {
    pub p: usize,
    compression: Compression,
    /// `shifts[t]`: the distinct compressed rare values of entries with offset `≡ t (mod p)`.
    shifts: Vec<Vec<u8>>,
    x0: i32,
    below0: i32,
    amo0: i32,
    pub cnf: Cnf,
}

/// The compression of `space` and the option shifts of period `p`: `shifts[t]` holds the
/// distinct compressed rare values (sorted) of the rule entries with offset `≡ t (mod p)`, so
/// the options of residue `r` are `v ^ s[(r - t) mod p]` for `v` in `shifts[t]`.
///
/// # Errors
/// [`EncodeError`] for `p = 0`, an empty table, or a space without byte compression.
pub fn option_shifts(
    game: &Game,
    space: SparseSpace,
    rares: &[(u64, Value)],
    p: usize,
) -> Result<(Compression, Vec<Vec<u8>>), EncodeError> {
    if p == 0 {
        return Err(EncodeError::ZeroPeriod);
    }
    if rares.is_empty() {
        return Err(EncodeError::NoRares);
    }
    let compression = Compression::new(space).ok_or(EncodeError::NoCompression(space))?;
    let entries = marking_entries(game, compression, rares).map_err(|e| match e {
        crate::values::speculative::SpecError::TooWide { value, .. } => {
            EncodeError::RareTooWide(value)
        }
        _ => EncodeError::NoCompression(space),
    })?;
    let mut shifts = vec![Vec::new(); p];
    for (d, v) in entries {
        shifts[d % p].push(v);
    }
    for s in &mut shifts {
        s.sort_unstable();
        s.dedup();
    }
    Ok((compression, shifts))
}

/// The set `F` of residues `r` and `q` (`r != q`) of a period with option shifts `shifts` (see
/// [`option_shifts`]): the values `s[r] ^ s[q]` must avoid, since `s[q]` is then an option of
/// `r` or `s[r]` one of `q`. Sorted, without repeats; the same set whichever residue comes first.
pub fn conflict_xors(shifts: &[Vec<u8>], r: usize, q: usize) -> Vec<u8> {
    let p = shifts.len();
    let mut f: Vec<u8> = shifts[(r + p - q) % p]
        .iter()
        .chain(&shifts[(q + p - r) % p])
        .copied()
        .collect();
    f.sort_unstable();
    f.dedup();
    f
}

impl PeriodEncoding {
    /// Encodes period `p` of `game` under `space` and the rare table `rares`.
    ///
    /// # Errors
    /// [`EncodeError`] for `p = 0`, an empty table, or a space without byte compression.
    pub fn new(
        game: &Game,
        space: SparseSpace,
        rares: &[(u64, Value)],
        p: usize,
    ) -> Result<PeriodEncoding, EncodeError> {
        let (compression, shifts) = option_shifts(game, space, rares, p)?;
        let mut cnf = Cnf::default();
        let block = |cnf: &mut Cnf, n: usize| {
            let first = cnf.num_vars + 1;
            cnf.num_vars += n as i32;
            first
        };
        let x0 = block(&mut cnf, p * 256);
        let below0 = block(&mut cnf, p * 257);
        let amo0 = block(&mut cnf, p * 255);
        let mut e = PeriodEncoding {
            p,
            compression,
            shifts,
            x0,
            below0,
            amo0,
            cnf: Cnf::default(),
        };
        e.encode(&mut cnf);
        e.cnf = cnf;
        Ok(e)
    }

    pub fn x(&self, r: usize, c: usize) -> i32 {
        self.x0 + (r * 256 + c) as i32
    }

    pub fn below(&self, r: usize, c: usize) -> i32 {
        self.below0 + (r * 257 + c) as i32
    }

    fn amo(&self, r: usize, c: usize) -> i32 {
        self.amo0 + (r * 255 + c) as i32
    }

    /// What variable `var` (1-based) is: the inverse of [`Self::x`], [`Self::below`] and
    /// [`Self::at_most`] on their blocks.
    pub fn var_meaning(&self, var: i32) -> VarMeaning {
        let p = self.p as i32;
        let within = |first: i32, per: i32| {
            let i = var - first;
            (0..p * per)
                .contains(&i)
                .then(|| ((i / per) as usize, (i % per) as usize))
        };
        if let Some((r, c)) = within(self.x0, 256) {
            VarMeaning::Byte { r, c }
        } else if let Some((r, c)) = within(self.below0, 257) {
            VarMeaning::Below { r, c }
        } else if let Some((r, c)) = within(self.amo0, 255) {
            VarMeaning::AtMost { r, c }
        } else {
            VarMeaning::Other
        }
    }

    /// The variable that holds exactly when `s[r] <= c` (a byte), for `c < 255`: the sequential
    /// counter's, which the exactly-one clauses tie to the `x` both ways. Bounds on a residue's
    /// value are single literals of these (cube-and-conquer, rotation breaking).
    pub fn at_most(&self, r: usize, c: usize) -> i32 {
        debug_assert!(c < 255, "s[r] <= 255 always holds and has no variable");
        self.amo(r, c)
    }

    fn encode(&self, out: &mut dyn CollectClauses) {
        let p = self.p;
        for r in 0..p {
            // Exactly one byte: at least one, and a sequential counter for at most one.
            let all: Vec<i32> = (0..256).map(|c| self.x(r, c)).collect();
            out.add_clause(&all);
            out.add_clause(&[-self.x(r, 0), self.amo(r, 0)]);
            for c in 1..255 {
                out.add_clause(&[-self.x(r, c), self.amo(r, c)]);
                out.add_clause(&[-self.amo(r, c - 1), self.amo(r, c)]);
                out.add_clause(&[-self.x(r, c), -self.amo(r, c - 1)]);
            }
            out.add_clause(&[-self.x(r, 255), -self.amo(r, 254)]);
            // below and the mex: every smaller byte is an option.
            out.add_clause(&[self.below(r, 0)]);
            for c in 0..256 {
                out.add_clause(&[-self.below(r, c + 1), self.below(r, c)]);
                out.add_clause(&[-self.x(r, c), self.below(r, c)]);
                let mut sources = vec![-self.below(r, c + 1)];
                for (t, values) in self.shifts.iter().enumerate() {
                    let q = (r + p - t) % p;
                    sources.extend(values.iter().map(|&v| self.x(q, c ^ v as usize)));
                }
                out.add_clause(&sources);
            }
            if self.shifts[0].contains(&0) {
                for c in 0..256 {
                    out.add_clause(&[-self.x(r, c)]);
                }
            }
        }
        // s[r] is not an option: s[r] ^ s[q] avoids F for every pair of residues.
        for r in 0..p {
            for q in r + 1..p {
                let f = conflict_xors(&self.shifts, r, q);
                for c in 0..256 {
                    for &v in &f {
                        out.add_clause(&[-self.x(r, c), -self.x(q, c ^ v as usize)]);
                    }
                }
            }
        }
    }

    /// The assignment that `pattern` (true values) induces on every variable, for checking a
    /// known pattern against the clauses. `None` if a value has no byte.
    pub fn assignment_for(&self, pattern: &[Value]) -> Option<Vec<bool>> {
        let p = self.p;
        let bytes: Vec<usize> = self
            .compress(pattern)?
            .into_iter()
            .map(usize::from)
            .collect();
        let mut a = vec![false; self.cnf.num_vars as usize + 1];
        for r in 0..p {
            a[self.x(r, bytes[r]) as usize] = true;
            for c in 0..255 {
                a[self.amo(r, c) as usize] = bytes[r] <= c;
            }
            let mut hit = [false; 256];
            for (t, values) in self.shifts.iter().enumerate() {
                for &v in values {
                    hit[bytes[(r + p - t) % p] ^ v as usize] = true;
                }
            }
            let mut all_below = true;
            for c in 0..=256 {
                a[self.below(r, c) as usize] = all_below;
                all_below &= c < 256 && hit[c];
            }
        }
        Some(a)
    }

    /// The option shifts: `shifts()[t]` holds the compressed rare values of entries with offset
    /// `≡ t (mod p)`.
    pub fn shifts(&self) -> &[Vec<u8>] {
        &self.shifts
    }

    /// True values of a byte pattern.
    pub fn expand(&self, bytes: &[u8]) -> Vec<Value> {
        bytes
            .iter()
            .map(|&c| self.compression.expand_common(c))
            .collect()
    }

    /// The bytes of a pattern of true values; `None` if a value has no byte.
    pub fn compress(&self, pattern: &[Value]) -> Option<Vec<u8>> {
        pattern
            .iter()
            .map(|&v| self.compression.compress(v))
            .collect()
    }

    /// The bytes of a model: `s[r]` compressed, the first `c` with `x(r, c)` true.
    pub fn bytes(&self, model: &[bool]) -> Vec<u8> {
        (0..self.p)
            .map(|r| {
                (0..256)
                    .find(|&c| model[self.x(r, c) as usize])
                    .unwrap_or(0) as u8
            })
            .collect()
    }

    /// The pattern (true values) of a model.
    pub fn decode(&self, model: &[bool]) -> Vec<Value> {
        self.expand(&self.bytes(model))
    }
}

impl PeriodEncoding {
    /// Rotation symmetry breaking: `s[0]` is a smallest value of the pattern. Every pattern has
    /// a rotation that starts at a minimum, and rotations of solutions are solutions, so this
    /// keeps SAT/UNSAT (and primitivity) and removes most rotated copies. Uses the counter
    /// variables of residue 0, which hold exactly when `s[0] <= c`: `x(r, c) -> amo(0, c)`.
    pub fn break_rotation(&mut self) {
        for r in 1..self.p {
            for c in 0..255 {
                let clause = [-self.x(r, c), self.amo(0, c)];
                self.cnf.add_clause(&clause);
            }
        }
    }

    /// The other rotation: `s[0]` is a *largest* value of the pattern, `x(r, c) -> not amo(0,
    /// c - 1)` (`s[0] >= c`). Every pattern has such a rotation too, so SAT/UNSAT is kept. Why a
    /// second one: a bound on the largest value becomes a bound on `s[0]` alone, so "a pattern
    /// whose largest value lies in `[a, b)`" ([`super::bounds`]) is a unit on each side of
    /// residue 0 instead of a long clause. Not to be combined with [`Self::break_rotation`]
    /// (together they leave only constant patterns).
    pub fn put_largest_first(&mut self) {
        for r in 1..self.p {
            for c in 1..256 {
                let clause = [-self.x(r, c), -self.amo(0, c - 1)];
                self.cnf.add_clause(&clause);
            }
        }
    }

    /// Adds clauses that forbid period `m` (a proper divisor of `p`): some residue `r` has
    /// `s[r] != s[r + m]`. One auxiliary `d_r` per residue: `d_r and x(r, c) -> not x(r + m, c)`.
    pub fn forbid_period(&mut self, m: usize) {
        let p = self.p;
        let differs: Vec<i32> = (0..p).map(|_| self.cnf.new_var()).collect();
        self.cnf.add_clause(&differs);
        for (r, &d) in differs.iter().enumerate() {
            for c in 0..256 {
                let (a, b) = (self.x(r, c), self.x((r + m) % p, c));
                self.cnf.add_clause(&[-d, -a, -b]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::ExactGenerator;

    /// `conflict_xors(r, q)` holds `a ^ b` exactly when, with `s[r] = a` and `s[q] = b`, one
    /// of the two is an option of the other through some shift (the options of `r` from `q`
    /// are `v ^ s[q]` for `v` in `shifts[t]`, `t = r - q mod p`), on Officers p = 7 and every
    /// pair of residues and bytes; and it is the same set either way round. Mutation: only one
    /// side's shift (`s[q]` an option of `r` alone), fails.
    #[test]
    fn conflict_xors_are_the_pairs_that_see_each_other() {
        let mut g = ExactGenerator::new(&Game::officers());
        g.extend_to(1 << 15).unwrap();
        let rares: Vec<(u64, Value)> = g.rares().map(|(n, v)| (n as u64, v)).collect();
        let p = 7;
        let (_, shifts) = option_shifts(&Game::officers(), g.space(), &rares, p).unwrap();
        let sees = |r: usize, a: usize, q: usize, b: usize| {
            (0..p).any(|t| (r + p - t) % p == q && shifts[t].iter().any(|&v| v as usize ^ b == a))
        };
        for r in 0..p {
            for q in (0..p).filter(|&q| q != r) {
                let f = conflict_xors(&shifts, r, q);
                assert_eq!(f, conflict_xors(&shifts, q, r));
                for a in 0..256 {
                    for b in [0, 1, 37, 128, 200, 255] {
                        let xor = (a ^ b) as u8;
                        let seen = sees(r, a, q, b) || sees(q, b, r, a);
                        assert_eq!(f.contains(&xor), seen, "r {r} q {q} a {a} b {b}");
                    }
                }
            }
        }
    }

    /// `var_meaning` inverts `x`, `below` and `at_most` on every residue and byte, and calls
    /// what lies beyond the layout (a primitive question's variables) `Other`. Mutation: a
    /// block's start or stride off by one (a neighbour's meaning comes back).
    #[test]
    fn every_variable_of_the_layout_says_what_it_is() {
        let mut g = ExactGenerator::new(&Game::officers());
        g.extend_to(1 << 12).unwrap();
        let rares: Vec<(u64, Value)> = g.rares().map(|(n, v)| (n as u64, v)).collect();
        let mut e = PeriodEncoding::new(&Game::officers(), g.space(), &rares, 3).unwrap();
        for r in 0..3 {
            for c in 0..257 {
                let below = e.var_meaning(e.below(r, c));
                assert_eq!(below, VarMeaning::Below { r, c });
                if c < 256 {
                    assert_eq!(e.var_meaning(e.x(r, c)), VarMeaning::Byte { r, c });
                }
                if c < 255 {
                    let at_most = e.var_meaning(e.at_most(r, c));
                    assert_eq!(at_most, VarMeaning::AtMost { r, c });
                }
            }
        }
        let layout = e.cnf.num_vars;
        e.forbid_period(1);
        assert!(e.cnf.num_vars > layout);
        for var in [0, layout + 1, e.cnf.num_vars] {
            assert_eq!(e.var_meaning(var), VarMeaning::Other, "{var}");
        }
    }
}
