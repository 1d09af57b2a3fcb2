//! One band of the bounds ladder as one CaDiCaL call, with a preset or options:
//! `cargo run --release --example band_probe -- P FROM BELOW TIMEOUT [SEED]`, environment
//! `PRESET=1` (sat) or `2` (unsat), `OPTS="name=value,..."`. The same CNF as a rung of
//! `grundy sat bounds` (a largest value first, the band's floor on residue 0, every value below
//! BELOW), to try solver settings on a band whose answer is known.
use grundy::sat::CollectClauses;
use grundy::sat::bounds::{floor_unit, rung_units};
use std::time::Duration;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let from: u16 = args[2].parse().unwrap();
    let below: u16 = args[3].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[4].parse().unwrap());
    let seed: u32 = args.get(5).map_or(0, |s| s.parse().unwrap());
    let mut e = common::officers_encoding(p);
    e.put_largest_first();
    let mut cnf = e.cnf.clone();
    for unit in rung_units(&e, below)
        .unwrap()
        .into_iter()
        .chain(floor_unit(&e, from))
    {
        cnf.add_clause(&[unit]);
    }
    let (what, seconds, settings) = common::solve_with_env_settings(&e, &cnf, timeout, seed);
    println!("p={p} band {from}..{below} {settings}: {what} {seconds:.1}s");
}
