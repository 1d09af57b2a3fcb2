//! Cube probe: how hard are the cubes of a plain split of a period question?
//! `cargo run --release --example cube_probe -- P RESIDUES SAMPLES TIMEOUT SEED [rot|wW]`:
//! fixes residues 0, 1, ... RESIDUES-1 to random byte values (a cube of the split over their
//! values), SAMPLES times, each cube a fresh CaDiCaL with TIMEOUT s; `rot` adds rotation breaking
//! (s[0] smallest) and draws s[0] below the others; `wW` (W a power of two) fixes only the bucket
//! of width W each value lies in (a split on the high bits). Prints each cube's answer and time.
#[path = "common/mod.rs"]
mod common;

use common::{fresh, officers_encoding, run};
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::Lit;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let k: usize = args[2].parse().unwrap();
    let samples: usize = args[3].parse().unwrap();
    let timeout: f64 = args[4].parse().unwrap();
    let seed: u64 = args[5].parse().unwrap();
    let rot = args.get(6).is_some_and(|a| a == "rot");
    let width: usize = args
        .get(6)
        .and_then(|a| a.strip_prefix('w'))
        .map_or(1, |w| w.parse().unwrap());
    let mut e = officers_encoding(p);
    if rot {
        e.break_rotation();
    }
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut unsat, mut sat, mut open, mut total) = (0, 0, 0, 0.0);
    let base: Vec<Vec<i32>> = e.cnf.clauses().map(<[i32]>::to_vec).collect();
    // SAMPLES 0: every cube of the split, in order.
    let buckets = 256 / width;
    let count = if samples == 0 {
        buckets.pow(k as u32)
    } else {
        samples
    };
    for index in 0..count {
        let mut values: Vec<usize> = (0..k).map(|_| (next() % 256) as usize).collect();
        if samples == 0 {
            values = (0..k)
                .map(|j| (index / buckets.pow(j as u32)) % buckets * width)
                .collect();
        }
        // CUBE=b0,b1,...: these byte values instead of random ones (to test a known pattern's cube).
        if let Ok(given) = std::env::var("CUBE") {
            values = given
                .split(',')
                .map(|b| b.parse().unwrap())
                .take(k)
                .collect();
        }
        // PATTERN=v0,v1,...: true values of a known pattern, compressed here.
        if let Ok(given) = std::env::var("PATTERN") {
            let pattern: Vec<u16> = given.split(',').map(|v| v.parse().unwrap()).collect();
            let bytes = e.compress(&pattern).expect("common values");
            values = bytes.iter().take(k).map(|&b| b as usize).collect();
        }
        if rot {
            let low = (next() % 64) as usize;
            values[0] = low;
            for v in values.iter_mut().skip(1) {
                *v = low + (next() % (256 - low as u64)) as usize;
            }
        }
        let mut solver = fresh(&base);
        let mut fix = |l: i32| solver.add_unit(Lit::from_ipasir(l).unwrap()).unwrap();
        for (r, &v) in values.iter().enumerate() {
            if width == 1 {
                fix(e.x(r, v));
                continue;
            }
            let bucket = v / width * width..v / width * width + width;
            for c in (0..256).filter(|c| !bucket.contains(c)) {
                fix(-e.x(r, c));
            }
        }
        let (r, s) = run(&mut solver, timeout);
        total += s;
        match r {
            SolverResult::Unsat => unsat += 1,
            SolverResult::Sat => sat += 1,
            SolverResult::Interrupted => open += 1,
        }
        let shown: Vec<usize> = values.iter().map(|v| v / width).collect();
        println!("cube {shown:?}: {r:?} {s:.1} s");
    }
    println!("p={p} residues {k}: {unsat} unsat, {sat} sat, {open} open, {total:.0} s in all");
}
