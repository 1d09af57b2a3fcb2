//! CDCL probe: one CaDiCaL with a seed on the committed encoding of an Officers period, without
//! local search: `cargo run --release --example cdcl_probe -- SEED TIMEOUT P`. (The `hit`-variable
//! form it was first measured against is in git history, commit e8cae76.)
use grundy::sat::encode::PeriodEncoding;
use grundy::sat::solve::{Answer, CadicalRun, solve_cadical_with};
use grundy::{ExactGenerator, Game};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u32 = args[1].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[2].parse().unwrap());
    let p: usize = args[3].parse().unwrap();
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    let cnf = PeriodEncoding::new(&Game::officers(), g.space(), &rares, p)
        .unwrap()
        .cnf;
    let t = Instant::now();
    let run = CadicalRun {
        seed,
        ..Default::default()
    };
    let what = match solve_cadical_with(&cnf, Some(timeout), &run).unwrap() {
        Answer::Sat(_) => "sat",
        Answer::Unsat => "unsat",
        Answer::Timeout => "timeout",
    };
    println!(
        "p={p} seed={seed} vars {} clauses {} {what} {:.1}s",
        cnf.num_vars,
        cnf.num_clauses,
        t.elapsed().as_secs_f64()
    );
}
