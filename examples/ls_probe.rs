//! Local search probe: `cargo run --release --example ls_probe -- SECONDS SEED THREADS P...`;
//! `PRIM=1` accepts only primitive patterns.
use grundy::sat::encode::option_shifts;
use grundy::sat::local::{Closest, search_parallel};
use grundy::sat::periods::minimal_period;
use grundy::{ExactGenerator, Game};
use std::time::{Duration, Instant};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let threads: usize = args[3].parse().unwrap();
    let prim = std::env::var_os("PRIM").is_some();
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    for p in args[4..].iter().map(|s| s.parse::<usize>().unwrap()) {
        let (comp, shifts) = option_shifts(&Game::officers(), g.space(), &rares, p).unwrap();
        let t = Instant::now();
        let accept = |s: &[u8]| !prim || minimal_period(s) == s.len();
        let closest = Closest::default();
        let r = search_parallel(
            &shifts,
            Duration::from_secs_f64(secs),
            (seed, threads),
            &accept,
            &std::sync::atomic::AtomicBool::new(false),
            &closest,
        );
        if let (None, Some((bad, _))) = (&r, closest.get()) {
            println!("p={p}: closest {bad} bad residues");
        }
        let vals = r.map(|b| b.iter().map(|&c| comp.expand_common(c)).collect::<Vec<_>>());
        println!("p={p} {:.2}s {:?}", t.elapsed().as_secs_f64(), vals);
    }
}
