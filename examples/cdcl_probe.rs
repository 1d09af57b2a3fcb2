//! CDCL probe: one CaDiCaL with a seed on the committed encoding of an Officers period, without
//! local search: `cargo run --release --example cdcl_probe -- SEED TIMEOUT P`. Environment:
//! `OPTS="elim=0,walkeffort=400"` CaDiCaL options, `PRESET=1` (sat) or `2` (unsat), `ROT=1`
//! rotation breaking. (The `hit`-variable form it was first measured against is in git history,
//! commit e8cae76.)
use std::time::Duration;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u32 = args[1].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[2].parse().unwrap());
    let p: usize = args[3].parse().unwrap();
    let mut e = common::officers_encoding(p);
    if std::env::var("ROT").is_ok() {
        e.break_rotation();
    }
    let (what, seconds, settings) = common::solve_with_env_settings(&e, &e.cnf, timeout, seed);
    println!(
        "p={p} {settings} vars {} clauses {} {what} {seconds:.1}s",
        e.cnf.num_vars, e.cnf.num_clauses
    );
}
