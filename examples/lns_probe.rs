//! Large-neighbourhood search probe (`grundy::sat::lns`): `cargo run --release --example
//! lns_probe -- SECONDS SEED P [FREE CONFLICTS BURST_S]`.
use grundy::sat::encode::PeriodEncoding;
use grundy::sat::lns::{Pace, solve};
use grundy::sat::solve::Answer;
use grundy::{ExactGenerator, Game};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let p: usize = args[3].parse().unwrap();
    let mut pace = Pace::for_period(p);
    if let Some(a) = args.get(4) {
        pace.free = a.parse().unwrap();
    }
    if let Some(a) = args.get(5) {
        pace.conflicts = a.parse().unwrap();
    }
    if let Some(a) = args.get(6) {
        pace.burst = Duration::from_secs_f64(a.parse().unwrap());
    }
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    let e = PeriodEncoding::new(&Game::officers(), g.space(), &rares, p).unwrap();
    let t = Instant::now();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (answer, tally) = solve(
        &e,
        Some(Duration::from_secs_f64(secs)),
        seed,
        pace,
        &stop,
        None,
    )
    .unwrap();
    let what = match answer {
        Answer::Sat(model) => format!("{:?}", e.decode(&model)),
        other => format!("{other:?}"),
    };
    println!(
        "p={p} seed={seed} {:.1}s {tally:?} {what}",
        t.elapsed().as_secs_f64()
    );
}
