//! Times the speculative generator alone: `cargo run --release --example spec_probe -- N THREADS BLOCK`.
use grundy::values::speculative::Speculative;
use grundy::{ExactGenerator, Game};
use std::time::Instant;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1 << 22);
    let threads: usize = std::env::args()
        .nth(2)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1);
    let block: usize = std::env::args()
        .nth(3)
        .map(|s| s.parse().unwrap())
        .unwrap_or(128);
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(2 * 20628 + 2).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    let mut values = g.values().to_vec();
    let mut spec = Speculative::new(
        &Game::officers(),
        g.space(),
        &rares,
        &values,
        threads,
        block,
    )
    .unwrap();
    let t = Instant::now();
    let todo = n - values.len();
    let per = 1 << 16;
    while values.len() + per / 2 < n {
        spec.generate(per / block, &mut values).unwrap();
    }
    let s = t.elapsed().as_secs_f64();
    let sum: u64 = values.iter().map(|&v| v as u64).sum();
    println!(
        "{} values, {:.3}s, {:.0} values/s, checksum {}",
        values.len(),
        s,
        todo as f64 / s,
        sum
    );
}
