//! Distinct-values probe: does a cap on how many distinct values a pattern may hold help CaDiCaL
//! find one? Many known patterns repeat values (p = 26: 6 distinct of 26, p = 43: 18 of 43), so a
//! cap would cut the space a solver wanders. `cargo run --release --example distinct_probe -- P
//! CAP TIMEOUT [SEED]` (CAP 0: no cap, the plain encoding). Environment as `cdcl_probe`'s.
//!
//! The cap: a variable `used(c)` per byte with `x(r, c) -> used(c)` for every residue, and a
//! sequential counter (Sinz) saying at most CAP of the 256 `used` hold. A pattern found under it
//! is a pattern of the period (every clause of the encoding is kept; check the printed pattern
//! with `grundy sat check officers --pattern ...`); UNSAT would say only that no pattern has CAP
//! distinct values or fewer.
use grundy::sat::CollectClauses;
use std::time::Duration;

mod common;

/// Adds "at most `cap` of `lits` hold" to `cnf`: Sinz's sequential counter, `s(i, j)` = "at least
/// `j + 1` of the first `i + 1` literals hold", for `j < cap`.
fn at_most(cnf: &mut grundy::sat::Cnf, lits: &[i32], cap: usize) {
    let first = cnf.num_vars + 1;
    cnf.num_vars += (lits.len() * cap) as i32;
    let s = |i: usize, j: usize| first + (i * cap + j) as i32;
    for (i, &l) in lits.iter().enumerate() {
        cnf.add_clause(&[-l, s(i, 0)]);
        if i > 0 {
            for j in 0..cap {
                cnf.add_clause(&[-s(i - 1, j), s(i, j)]);
            }
            for j in 1..cap {
                cnf.add_clause(&[-l, -s(i - 1, j - 1), s(i, j)]);
            }
            cnf.add_clause(&[-l, -s(i - 1, cap - 1)]);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let cap: usize = args[2].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[3].parse().unwrap());
    let seed: u32 = args.get(4).map_or(0, |s| s.parse().unwrap());
    let e = common::officers_encoding(p);
    let mut cnf = e.cnf.clone();
    if cap > 0 {
        let used0 = cnf.num_vars + 1;
        cnf.num_vars += 256;
        let used: Vec<i32> = (0..256).map(|c| used0 + c).collect();
        for (c, &u) in used.iter().enumerate() {
            for r in 0..p {
                cnf.add_clause(&[-e.x(r, c), u]);
            }
        }
        at_most(&mut cnf, &used, cap);
    }
    let (what, seconds, settings) = common::solve_with_env_settings(&e, &cnf, timeout, seed);
    println!(
        "p={p} cap={cap} {settings} vars {} clauses {} {what} {seconds:.1}s",
        cnf.num_vars, cnf.num_clauses
    );
}
