//! Incremental pieces probe: `cargo run --release --example incremental_pieces_probe -- P FROM
//! BELOW`. Asks every piece of the band `FROM..BELOW` of Officers period `P` (one per common
//! value of the largest value `s[0]`, put first as `grundy sat bounds --pieces` does), lowest
//! first, twice: each in a fresh CaDiCaL (as the climb and the chain ask them), then all in one
//! CaDiCaL under assumptions (the band's units and `s[0]`'s value), a refuted piece kept as the
//! clause `s[0]` is not that value, so each later piece starts with what the earlier ones
//! learned. Seconds printed per piece and in all. The question: would a chain proof of a band
//! gain from proving its pieces in one incremental CaDiCaL (one LRAT proof with assumptions)
//! rather than one fresh call each? No: on the 2-core VM beside two nice-19 chain proofs
//! (2026-12-01), p = 27's band 200..208 took 63.9 s in four fresh calls, 259.0 s in one
//! CaDiCaL with every unit assumed and 101.1 s with the band's units kept as clauses and only
//! `s[0]` assumed; p = 29's 200..208 took 156.4, 530.3 and 242.9 s. Even the first piece is
//! slower (14.3 s fresh, 29.6 s with `s[0]` assumed, 64.5 s with all assumed): an assumed
//! literal is not a root unit, so CaDiCaL cannot simplify the CNF with it, and what
//! the earlier pieces learned does not win that back (`docs/value-bounds.md`).
use grundy::sat::bounds::{Band, band_tops};
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Clause, Lit};
use std::time::Instant;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u16 { args[i].parse().unwrap() };
    let (p, from, below) = (usize::from(number(0)), number(1), number(2));
    let band = Band { from, below };
    let mut e = common::officers_encoding(p);
    e.put_largest_first();
    let tops: Vec<u16> = (band_tops(&e, band).iter())
        .map(|&b| e.expand(&[b])[0])
        .collect();
    let lits = |units: &[i32]| -> Vec<Lit> {
        (units.iter())
            .map(|&l| Lit::from_ipasir(l).unwrap())
            .collect()
    };
    let clauses: Vec<Vec<i32>> = e.cnf.clauses().map(<[i32]>::to_vec).collect();
    let mut fresh_total = 0.0;
    for &top in &tops {
        let (_, units) = common::officers_piece(p, from, below, top);
        let mut solver = common::fresh(&clauses);
        for l in lits(&units) {
            solver.add_clause(Clause::from_iter([l])).unwrap();
        }
        let (said, seconds) = common::run(&mut solver, 3600.0);
        fresh_total += seconds;
        println!("p={p} band {band} s[0]={top} fresh: {said:?} {seconds:.1} s");
    }
    // The band's units (every piece's but its last, the value of `s[0]`) as assumptions too,
    // or as clauses of the solver (they hold for every piece of the band).
    let mut totals = Vec::new();
    for band_units_kept in [false, true] {
        let started = Instant::now();
        let mut solver = common::fresh(&clauses);
        if band_units_kept {
            let (_, units) = common::officers_piece(p, from, below, tops[0]);
            for &l in &lits(&units[..units.len() - 1]) {
                solver.add_clause(Clause::from_iter([l])).unwrap();
            }
        }
        let mut total = started.elapsed().as_secs_f64();
        let how = match band_units_kept {
            false => "incremental, all units assumed",
            true => "incremental, band's units kept, s[0] assumed",
        };
        for &top in &tops {
            let (_, units) = common::officers_piece(p, from, below, top);
            let assumed = match band_units_kept {
                false => &units[..],
                true => &units[units.len() - 1..],
            };
            let t = Instant::now();
            common::stop_after(&mut solver, 3600.0);
            let said = solver.solve_assumps(&lits(assumed)).unwrap();
            let seconds = t.elapsed().as_secs_f64();
            total += seconds;
            println!("p={p} band {band} s[0]={top} {how}: {said:?} {seconds:.1} s");
            if said == SolverResult::Unsat {
                let last = *units.last().unwrap();
                solver
                    .add_clause(Clause::from_iter(lits(&[-last])))
                    .unwrap();
            }
        }
        totals.push(total);
    }
    println!(
        "p={p} band {band}: {} pieces, fresh {fresh_total:.1} s; one incremental CaDiCaL: \
         {:.1} s with every unit assumed, {:.1} s with the band's units kept as clauses",
        tops.len(),
        totals[0],
        totals[1]
    );
}
