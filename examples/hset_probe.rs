//! Fixed-high-set probe: `cargo run --release --example hset_probe -- P K TOP TIMEOUT`.
//! The patterns found for Officers' even periods 24..76 have few values of 256 or more (0 to 8
//! residues, nearly all between 256 and 280). This asks, for every high set H of at most K
//! residues (one per rotation class, residue 0 in H), whether a pattern has exactly H high
//! (bytes 128..=TOP) and every other residue low (bytes below 128), as assumptions on one
//! incremental CaDiCaL with every byte above TOP forbidden. A refuted H leaves its failed
//! assumptions as a clause, with all its rotations, so a later H that contains a refuted core
//! is refuted at once. A pattern ends the probe. Prints, per size, how many H were refuted,
//! the seconds in all and the slowest. `KMIN=k` starts at sets of k residues.
//! Officers p = 26 (2026-11-25, 2-core VM beside a CI run): `hset_probe 26 3 139 60` had no
//! answer for the one set of size 1 in 60 s, and `KMIN=2 hset_probe 26 2 139 30` none for any
//! of the 13 sets of two in 30 s each, though the pattern in `results/officers/periods.json` has
//! exactly two high residues 13 apart (266 and 257, bytes 132 and 129): fixing H does not make
//! the question easy (`grundy bench sat` finds a pattern of 26 in 6 s by local search).
//! Officers p = 27, band 256..264 (2026-11-25, beside two niced ladders): `hset_probe 27 1 131
//! 600` (bytes 128..=131 are 256, 257, 262, 263) had no answer in 600 s for H = {0}, the
//! piece where `s[0]` is the only value above 255, so a cube split that settles which
//! residues are high first would leave pieces as hard as the band (one call: no answer in 1800 s).
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit, TernaryVal};
use std::time::Instant;

mod common;

fn lit(l: i32) -> Lit {
    Lit::from_ipasir(l).unwrap()
}

/// The rotation of `mask` (p bits) that moves residue `j` to 0.
fn rotate(mask: u64, j: usize, p: usize) -> u64 {
    let full = (1u64 << p) - 1;
    ((mask >> j) | (mask << (p - j))) & full
}

/// Whether `mask` is the smallest of its rotations that keep residue 0 in the set.
fn canonical(mask: u64, p: usize) -> bool {
    (0..p)
        .filter(|&j| mask >> j & 1 == 1)
        .all(|j| rotate(mask, j, p) >= mask)
}

/// Every set of `k` residues containing 0, canonical under rotation.
fn high_sets(p: usize, k: usize) -> Vec<u64> {
    fn grow(p: usize, k: usize, from: usize, mask: u64, out: &mut Vec<u64>) {
        if mask.count_ones() as usize == k {
            if canonical(mask, p) {
                out.push(mask);
            }
            return;
        }
        for r in from..p {
            grow(p, k, r + 1, mask | 1 << r, out);
        }
    }
    let mut out = Vec::new();
    grow(p, k, 1, 1, &mut out);
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let kmax: usize = args[2].parse().unwrap();
    let top: usize = args[3].parse().unwrap();
    let timeout: f64 = args[4].parse().unwrap();
    let e = common::officers_encoding(p);
    let mut clauses: Vec<Vec<i32>> = e.cnf.clauses().map(<[i32]>::to_vec).collect();
    for r in 0..p {
        for c in top + 1..256 {
            clauses.push(vec![-e.x(r, c)]);
        }
    }
    let mut solver = common::fresh(&clauses);
    let high_lit = |r: usize| -e.at_most(r, 127);
    let t0 = Instant::now();
    let kmin: usize = std::env::var("KMIN").map_or(1, |s| s.parse().unwrap());
    for k in kmin..=kmax {
        let sets = high_sets(p, k);
        let (mut refuted, mut open, mut slowest, tk) = (0, 0, 0.0f64, Instant::now());
        for &mask in &sets {
            let assumps: Vec<Lit> = (0..p)
                .map(|r| {
                    lit(if mask >> r & 1 == 1 {
                        high_lit(r)
                    } else {
                        -high_lit(r)
                    })
                })
                .collect();
            let ts = Instant::now();
            common::stop_after(&mut solver, timeout);
            let answer = solver.solve_assumps(&assumps).unwrap();
            slowest = slowest.max(ts.elapsed().as_secs_f64());
            match answer {
                SolverResult::Sat => {
                    let bytes: Vec<u8> = (0..p)
                        .map(|r| {
                            (0..256)
                                .find(|&c| {
                                    solver.lit_val(lit(e.x(r, c))).unwrap() == TernaryVal::True
                                })
                                .unwrap() as u8
                        })
                        .collect();
                    println!("p={p} PATTERN H={mask:b} values {:?}", e.expand(&bytes));
                    return;
                }
                SolverResult::Interrupted => open += 1,
                SolverResult::Unsat => {
                    refuted += 1;
                    let core: Vec<i32> = solver
                        .core()
                        .unwrap()
                        .iter()
                        .map(|l| l.to_ipasir())
                        .collect();
                    let residue = |l: i32| (0..p).find(|&r| high_lit(r).abs() == l.abs()).unwrap();
                    for shift in 0..p {
                        let cut: Clause = core
                            .iter()
                            .map(|&l| {
                                let lr = high_lit((residue(l) + shift) % p);
                                lit(if (l > 0) == (high_lit(residue(l)) > 0) {
                                    lr
                                } else {
                                    -lr
                                })
                            })
                            .collect();
                        solver.add_clause(cut).unwrap();
                    }
                }
            }
        }
        println!(
            "p={p} |H|={k}: {} sets, {refuted} refuted, {open} open, {:.1}s (slowest {slowest:.1}s), at {:.1}s",
            sets.len(),
            tk.elapsed().as_secs_f64(),
            t0.elapsed().as_secs_f64()
        );
    }
}
