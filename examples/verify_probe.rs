//! Times the verifier on one thread over G(2^19..2^20) of Officers.
use grundy::{ExactGenerator, Game};
fn main() {
    let n = 1 << 20;
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(n).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let t = std::time::Instant::now();
    let v = pool.install(|| {
        grundy::values::verify::verify_interval(
            &Game::officers(),
            g.values(),
            n as u64 / 2,
            n as u64,
        )
    });
    println!(
        "{:?} {:.0}/s",
        v.first_wrong,
        (n / 2) as f64 / t.elapsed().as_secs_f64()
    );
}
