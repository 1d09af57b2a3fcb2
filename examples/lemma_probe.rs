//! Lemma carry-over probe: does a restarted CaDiCaL gain from the short clauses a first run
//! learned? `cargo run --release --example lemma_probe -- P SEED FIXED FIRST_S MAXLEN MODE`:
//! a 2-s tabu walk (seed) gives a near miss; FIXED random residues are fixed to it (units), which
//! makes a cube of the period question. MODE `a`: one run to the end (cap 600 s). `b`: a run of
//! FIRST_S s (or `kN`: N conflicts) keeping learned clauses of at most MAXLEN literals, then a fresh solver with them.
//! `c`: the same restart without them. `n`: the first run only, lemmas counted by length. `w`: print
//! the cube only, in the form `grundy sat cubes --within` reads.
#[path = "common/mod.rs"]
mod common;

use common::{fresh, officers_encoding, run};
use grundy::sat::local::Walk;
use rustsat::solvers::{Learn, LimitConflicts};
use rustsat::types::Clause;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let fixed: usize = args[3].parse().unwrap();
    // FIRST: seconds, or `kN`: N conflicts (a cut point that does not depend on the machine's load).
    let (first, first_conflicts): (f64, Option<u32>) = match args[4].strip_prefix('k') {
        Some(n) => (1e9, Some(n.parse().unwrap())),
        None => (args[4].parse().unwrap(), None),
    };
    let max_len: usize = args[5].parse().unwrap();
    let mode = args[6].as_str();
    let e = officers_encoding(p);
    let mut walk = Walk::new(e.shifts(), seed);
    let mut best = (usize::MAX, Vec::new());
    let stop = AtomicBool::new(false);
    walk.run(Duration::from_secs(2), &|_| false, &stop, &mut |s, bad| {
        if bad <= best.0 {
            best = (bad, s.to_vec());
        }
    });
    let mut clauses: Vec<Vec<i32>> = e.cnf.clauses().map(<[i32]>::to_vec).collect();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut chosen = Vec::new();
    while chosen.len() < fixed {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let r = (x % p as u64) as usize;
        if !chosen.contains(&r) {
            chosen.push(r);
            clauses.push(vec![e.x(r, best.1[r] as usize)]);
        }
    }
    let within: Vec<String> = chosen
        .iter()
        .map(|&r| format!("{r}:{}", best.1[r]))
        .collect();
    print!(
        "p={p} seed={seed} near miss {} bad, fixed {chosen:?} (grundy sat cubes --within \"{}\") ",
        best.0,
        within.join(" ")
    );
    match mode {
        // The cube only.
        "w" => println!(),
        "a" => {
            let (r, t) = run(&mut fresh(&clauses), 600.0);
            println!("a: {r:?} {t:.1}s");
        }
        _ => {
            let mut solver = fresh(&clauses);
            let kept = Arc::new(Mutex::new(Vec::<Vec<i32>>::new()));
            let sink = Arc::clone(&kept);
            solver.attach_learner(
                move |c: Clause| {
                    sink.lock()
                        .unwrap()
                        .push(c.iter().map(|l| l.to_ipasir()).collect())
                },
                max_len,
            );
            solver.limit_conflicts(first_conflicts).unwrap();
            let (r1, t1) = run(&mut solver, first);
            drop(solver);
            let lemmas = kept.lock().unwrap().clone();
            if mode == "n" {
                let mut hist = [0usize; 33];
                for l in &lemmas {
                    hist[l.len().min(32)] += 1;
                }
                println!(
                    "n: first {r1:?} {t1:.1}s, {} lemmas, by length {hist:?}",
                    lemmas.len()
                );
                return;
            }
            if mode == "b" {
                clauses.extend(lemmas.iter().cloned());
            }
            let (r2, t2) = run(&mut fresh(&clauses), 600.0);
            println!(
                "{mode}: first {r1:?} {t1:.1}s, {} lemmas <= {max_len}, then {r2:?} {t2:.1}s, total {:.1}s",
                lemmas.len(),
                t1 + t2
            );
        }
    }
}
