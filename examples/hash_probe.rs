//! Measures the period hash against a verified run of Officers to 2^22 (its share of the time).
use grundy::Game;
use grundy::period::PeriodSearch;
use grundy::run::{RunConfig, run};
fn main() {
    let n = 1u64 << 22;
    let mut c = RunConfig::new(Game::officers(), n);
    c.period_search = false;
    let (report, values) = run(c, &mut |_| {}).unwrap();
    let t = std::time::Instant::now();
    let mut s = PeriodSearch::new();
    let found = s.feed(values.claims(), 20628 + 1);
    let hash = t.elapsed().as_secs_f64();
    println!(
        "run {:.3}s ({:.0}/s), hash over {} values {:.4}s = {:.2}% of the run, {:.1} ns/value, found {:?}, collisions {}",
        report.seconds,
        report.values_per_sec,
        values.len(),
        hash,
        100.0 * hash / report.seconds,
        hash * 1e9 / n as f64,
        found,
        s.collisions
    );
}
