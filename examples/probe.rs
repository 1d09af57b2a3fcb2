//! Times the exact generator on Officers: `cargo run --release --example probe -- N`.
use grundy::{ExactGenerator, Game};
use std::time::Instant;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(1 << 20);
    let mut g = ExactGenerator::new(&Game::officers());
    let t = Instant::now();
    g.extend_to(n).unwrap();
    println!(
        "{} values {:.3}s pairs/value {:.1}",
        n,
        t.elapsed().as_secs_f64(),
        g.proof_pairs as f64 / n as f64
    );
}
