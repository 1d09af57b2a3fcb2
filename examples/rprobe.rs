use grundy::run::{RunConfig, run};
use grundy::{ExactGenerator, Game};
fn main() {
    let n = 1 << 17;
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(n).unwrap();
    let truth = g.values().to_vec();
    let mut c = RunConfig::new(Game::officers(), n as u64);
    c.speculate_from = Some(5000);
    c.chunk = 4096;
    let (report, values) = run(c, &mut |_| {}).unwrap();
    let first = (0..n).find(|&i| values[i] != truth[i]);
    println!("first wrong {:?} verified_to {}", first, report.verified_to);
    if let Some(f) = first {
        println!("claim {} truth {}", values[f], truth[f]);
        for rb in report
            .rollbacks
            .iter()
            .filter(|r| (r.heap as i64 - f as i64).abs() < 3000)
        {
            println!("{rb:?}");
        }
    }
}
