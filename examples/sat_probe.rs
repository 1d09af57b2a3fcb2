//! Decides Officers periods with one solver: `cargo run --release --example sat_probe -- cadical 4 6 10`.
use grundy::sat::periods::Problem;
use grundy::sat::solve::SolverKind;
use grundy::{ExactGenerator, Game};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = match args[1].as_str() {
        "splr" => SolverKind::Splr,
        "varisat" => SolverKind::Varisat,
        _ => SolverKind::Cadical,
    };
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let problem = Problem::from_prefix(&g);
    for p in args[2..].iter().map(|s| s.parse::<u64>().unwrap()) {
        let r = problem
            .decide(p, kind, Some(std::time::Duration::from_secs(120)), &|_| {
                None
            })
            .unwrap();
        println!(
            "p={p} feasible {:?} primitive {:?} {:.2}s vars {} clauses {} pattern {:?}",
            r.feasible, r.primitive, r.seconds, r.variables, r.clauses, r.pattern
        );
    }
}
