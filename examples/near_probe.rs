//! How near a tabu walk comes to a fixed point, per period: `cargo run --release --example
//! near_probe -- SECONDS SEED P...` prints, for one walk of each period, when it first reached a
//! state with at most k bad residues (k = 6 down to 0) and how many distinct states it saw at its
//! best level. A measure of how far odd periods are from the ones the walk solves (19, 23).
use grundy::sat::local::Walk;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    for p in args[3..].iter().map(|s| s.parse::<usize>().unwrap()) {
        let shifts = common::officers_shifts(p);
        let mut walk = Walk::new(&shifts, seed);
        let started = Instant::now();
        let mut first_at: [Option<f64>; 7] = [None; 7];
        let mut best = usize::MAX;
        let mut at_best: HashSet<Vec<u8>> = HashSet::new();
        let found = walk.run(
            Duration::from_secs_f64(secs),
            &|_| true,
            &AtomicBool::new(false),
            &mut |s, bad| {
                for (k, t) in first_at.iter_mut().enumerate().skip(bad) {
                    t.get_or_insert_with(|| started.elapsed().as_secs_f64());
                    let _ = k;
                }
                if bad < best {
                    best = bad;
                    at_best.clear();
                }
                at_best.insert(s.to_vec());
            },
        );
        if found.is_some() {
            first_at[0] = Some(started.elapsed().as_secs_f64());
            best = 0;
        }
        let times: Vec<String> = first_at
            .iter()
            .enumerate()
            .rev()
            .map(|(k, t)| t.map_or(format!("<={k}: -"), |t| format!("<={k}: {t:.1}s")))
            .collect();
        println!(
            "p={p} seed {seed}: best {best} ({} states), {}",
            at_best.len(),
            times.join(", ")
        );
    }
}
