/*!
Periods by SAT (Riley, "Constraining the Period of Officers").

Question for a period `p`: assuming the rare table is complete and every later value is common and
below 512, is there a periodic tail `s[0..p)` of common values that is a fixed point of the
speculative rule? That is, for every residue `r`,
`s[r]` = the smallest common value not among the options of a heap `n ≡ r (mod p)`:
`s[(r - j) mod p]` for each single-heap move `j`, and `v ^ s[(r - j - a) mod p]` for each split
move `j` and rare value `(a, v)` with `a >= 1` (for Officers: `v ^ s[(r - 1 - a) mod p]` over the
rare table with `(0, 0)` standing for the single-heap move, Riley's formula).

- [`exclusions`]: periods ruled out without solving (`p` divides `l + 1` for a losing `l`).
- [`encode`]: the one-hot CNF of the question, into a clause sink ([`Cnf`] here).
- [`witness`]: an independent check of a pattern against the rule (not the encoder).
- [`solve`]: splr, varisat and CaDiCaL (through rustsat) behind one call, portfolios, proofs.
- [`local`]: a tabu search for fixed points (finds patterns, proves nothing).
- [`lns`]: one CaDiCaL steered by the tabu search's near misses (the default single solver).
- [`lemmas`]: learned clauses carried from run to run of one question (long campaigns).
- [`periods`]: the question per period (exclusion, lifting, races, primitive), results as JSON.
- [`enumerate`]: every pattern of a period up to rotation.
- [`cubes`]: cube-and-conquer on one question, resumable from a ledger (months-long campaigns).
- [`shares`]: a cube campaign dealt out to several machines and gathered back.
- [`certify`]: a cube campaign's UNSAT checked region by region with DRAT proofs.
- [`drat`]: a DRAT proof lightened for its checker (the CNF's deletions dropped).
- [`lrat`]: an LRAT checker (a proof that names each step's antecedents, checked with no search).
- [`side_by_side`]: independent solver calls asked a few at once, answers taken one at a time.

`grundy sat export` writes DIMACS for any external solver.
*/

pub mod bounds;
pub mod certify;
pub mod cubes;
pub mod drat;
pub mod encode;
pub mod enumerate;
pub mod exclusions;
pub mod lemmas;
pub mod lns;
pub mod local;
pub mod lrat;
pub mod periods;
pub mod shares;
pub mod side_by_side;
pub mod solve;
pub mod witness;

use std::fmt::Write as _;

/// Somewhere clauses can go: a CNF in memory here, a solver later.
pub trait CollectClauses {
    /// A fresh variable (1-based, DIMACS numbering).
    fn new_var(&mut self) -> i32;
    /// Adds a clause of DIMACS literals (`-v` is the negation of `v`).
    fn add_clause(&mut self, lits: &[i32]);
}

/// A CNF formula in memory, flat: clauses are runs of literals ended by 0 (as in DIMACS), so
/// millions of short clauses cost four bytes a literal and no allocation each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    pub num_vars: i32,
    pub num_clauses: usize,
    lits: Vec<i32>,
}

impl CollectClauses for Cnf {
    fn new_var(&mut self) -> i32 {
        self.num_vars += 1;
        self.num_vars
    }

    fn add_clause(&mut self, lits: &[i32]) {
        debug_assert!(lits.iter().all(|&l| l != 0 && l.abs() <= self.num_vars));
        self.lits.extend_from_slice(lits);
        self.lits.push(0);
        self.num_clauses += 1;
    }
}

impl Cnf {
    /// The clauses, each without its terminating 0.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> {
        self.lits.split(|&l| l == 0).take(self.num_clauses)
    }

    /// Writes DIMACS CNF, with `comments` as `c` lines first.
    ///
    /// # Errors
    /// Any error of `out`.
    pub fn write_dimacs(
        &self,
        comments: &[String],
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        for c in comments {
            writeln!(out, "c {c}")?;
        }
        writeln!(out, "p cnf {} {}", self.num_vars, self.num_clauses)?;
        let mut line = String::new();
        for clause in self.clauses() {
            line.clear();
            for lit in clause {
                let _ = write!(line, "{lit} ");
            }
            line.push_str("0\n");
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Index of the first clause that `assignment` (indexed by variable, index 0 unused)
    /// falsifies, or `None` if it satisfies every clause.
    pub fn first_violated(&self, assignment: &[bool]) -> Option<usize> {
        let holds = |lit: i32| assignment[lit.unsigned_abs() as usize] == (lit > 0);
        self.clauses()
            .position(|clause| !clause.iter().any(|&l| holds(l)))
    }
}
