//! Half probe: does a variable per residue for "the byte has bit 7 set" help CaDiCaL?
//! `cargo run --release --example half_probe -- P FIRST..LAST TIMEOUT plain|half|both`: compressed rare
//! bytes are almost all below 128, so an option of `r` lies in the half of its source; the
//! variables `h(r) <-> s[r] >= 128` give the solver a handle on which half each residue is in.
//! Runs each seed of the range (`both`: plain, then half, seed by seed, so the two arms share the
//! machine's load), each a fresh CaDiCaL with TIMEOUT s; prints each answer and time.
#[path = "common/mod.rs"]
mod common;

use common::{fresh, officers_encoding, run};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let (first, last) = args[2].split_once("..").unwrap();
    let seeds: std::ops::RangeInclusive<i32> = first.parse().unwrap()..=last.parse().unwrap();
    let timeout: f64 = args[3].parse().unwrap();
    let arms: &[bool] = match args[4].as_str() {
        "plain" => &[false],
        "half" => &[true],
        _ => &[false, true],
    };
    let e = officers_encoding(p);
    let plain: Vec<Vec<i32>> = e.cnf.clauses().map(<[i32]>::to_vec).collect();
    let mut clauses = plain.clone();
    {
        let h0 = e.cnf.num_vars as i32 + 1;
        for r in 0..p {
            let h = h0 + r as i32;
            for c in 0..256 {
                clauses.push(vec![-e.x(r, c), if c >= 128 { h } else { -h }]);
            }
        }
    }
    for seed in seeds {
        for &half in arms {
            let mut solver = fresh(if half { &clauses } else { &plain });
            solver.set_option("seed", seed).unwrap();
            let (r, secs) = run(&mut solver, timeout);
            let arm = if half { "half" } else { "plain" };
            println!("p={p} {arm} seed {seed}: {r:?} {secs:.1} s");
        }
    }
}
