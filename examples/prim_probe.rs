//! How often a tabu walk for a primitive pattern lands on a fixed point of a smaller period:
//! `cargo run --release --example prim_probe -- SECONDS SEED P...`. Seldom (2026-11-24, 60 s,
//! seed 1: p = 64 three times, of period 16; 76 once; 42 and 78 never), so restarting after one
//! costs little: the walks of the open primitive questions stall at one bad residue instead.
use grundy::sat::local::Walk;
use grundy::sat::periods::minimal_period;
use std::cell::RefCell;
use std::collections::BTreeMap;
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
        let refused = RefCell::new(BTreeMap::<usize, usize>::new());
        let accept = |s: &[u8]| {
            let q = minimal_period(s);
            *refused.borrow_mut().entry(q).or_default() += (q != p) as usize;
            q == p
        };
        let mut best = usize::MAX;
        let found = walk.run(
            Duration::from_secs_f64(secs),
            &accept,
            &AtomicBool::new(false),
            &mut |_, bad| best = best.min(bad),
        );
        println!(
            "p={p} seed {seed}: found {} at {:.1}s, best {best}, fixed points by minimal period {:?}",
            found.is_some(),
            started.elapsed().as_secs_f64(),
            refused.borrow()
        );
    }
}
