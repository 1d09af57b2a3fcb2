//! Times the exact generator on any game: `cargo run --release --example game_probe -- .16 509623`.
use grundy::{ExactGenerator, Game};
fn main() {
    let game: Game = std::env::args().nth(1).unwrap().parse().unwrap();
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut g = ExactGenerator::new(&game);
    let t = std::time::Instant::now();
    g.extend_to(n).unwrap();
    println!(
        "{game} {n} values {:.3}s pairs/value {:.1} space {} rares {}",
        t.elapsed().as_secs_f64(),
        g.proof_pairs as f64 / n as f64,
        g.space(),
        g.rares().len()
    );
}
