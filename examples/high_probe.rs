//! Top-bit decomposition probe: `cargo run --release --example high_probe -- P TIMEOUT [SEED]`.
//! Asks "is there a pattern with a value of at least 256 (byte 128)?" by splitting on the top bit
//! of the byte. All but 4 rule entries of Officers (the rare values 261 and 277, bytes 131 and
//! 139) XOR a byte below 128, which keeps its top bit: a low residue (byte < 128) sees almost
//! only low options below its value, and a high residue needs every byte below 128 to be an
//! option, while its low 7 bits are the mex of the high layer. The master problem Q' is the
//! encoding without the high layer's own rule (a high byte needs every byte below 128 as an
//! option, not those between 128 and itself; two high bytes never conflict): a relaxation, with
//! residue 0 high and residue p - 1 low (every pattern with a high value has such a rotation).
//! A model of Q' names the high set H; the full encoding is asked under "exactly H is high" as
//! assumptions, and its failed assumptions are a clause on H, added to Q' with all rotations.
//! Q' UNSAT: no pattern has a value of at least 256. Sound on p = 4..14 (patterns found, each
//! passes `grundy sat check`). Officers p = 27 (2026-11-24, one run of 1500 s): Q' found one
//! model, with 15 of 27 residues high, and the full encoding under that H had no answer in the
//! rest of the time, so neither half came out easy. `LOWBOUND=c` bounds every low byte.
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit, TernaryVal};
use std::time::Instant;

mod common;

fn lit(l: i32) -> Lit {
    Lit::from_ipasir(l).unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let timeout: f64 = args[2].parse().unwrap();
    let seed: i32 = args.get(3).map_or(0, |s| s.parse().unwrap());
    let e = common::officers_encoding(p);
    let high_byte = |l: i32| (0..p).any(|r| (128..256).any(|c| l == -e.x(r, c)));
    let x_byte = |l: i32| -> Option<(usize, usize)> {
        let i = l.abs() - e.x(0, 0);
        (l < 0 && i >= 0 && (i as usize) < p * 256).then_some((i as usize / 256, i as usize % 256))
    };
    // Q': the encoding without the high layer's own rule. A high byte needs every byte below
    // 128 to be an option (x(r, c) -> below(r, 128)) but not the high bytes below it, and two
    // high bytes never conflict; everything that involves a low byte is kept.
    let mut q: Vec<Vec<i32>> = Vec::new();
    for c in e.cnf.clauses() {
        if c.len() == 2 && high_byte(c[0]) && high_byte(c[1]) {
            continue;
        }
        if c.len() == 2
            && c[1] > 0
            && let Some((r, b)) = x_byte(c[0])
            && b > 128
            && c[1] == e.below(r, b)
        {
            q.push(vec![c[0], e.below(r, 128)]);
            continue;
        }
        q.push(c.to_vec());
    }
    // Rotation: residue 0 high, residue p - 1 low (some high follows a low).
    q.push(vec![-e.at_most(0, 127)]);
    q.push(vec![e.at_most(p - 1, 127)]);
    if let Ok(b) = std::env::var("LOWBOUND") {
        let b: usize = b.parse().unwrap();
        for r in 0..p {
            for c in b + 1..128 {
                q.push(vec![-e.x(r, c)]);
            }
        }
    }
    // The full problem, asked with the top bit of every residue assumed.
    let full: Vec<Vec<i32>> = e.cnf.clauses().map(<[i32]>::to_vec).collect();
    let high_lit = |r: usize| -e.at_most(r, 127);
    let t0 = Instant::now();
    let mut master = common::fresh(&q);
    if seed != 0 {
        master.set_option("seed", seed).unwrap();
    }
    let mut sub = common::fresh(&full);
    let mut cuts = 0usize;
    loop {
        let left = timeout - t0.elapsed().as_secs_f64();
        if left <= 0.0 {
            println!(
                "p={p} timeout after {cuts} cuts, {:.1}s",
                t0.elapsed().as_secs_f64()
            );
            return;
        }
        let (answer, secs) = common::run(&mut master, left);
        match answer {
            SolverResult::Unsat => {
                println!(
                    "p={p} Q unsat after {cuts} cuts: no pattern has a value >= 256 ({:.1}s, last {secs:.1}s)",
                    t0.elapsed().as_secs_f64()
                );
                return;
            }
            SolverResult::Interrupted => {
                println!(
                    "p={p} timeout after {cuts} cuts, {:.1}s",
                    t0.elapsed().as_secs_f64()
                );
                return;
            }
            SolverResult::Sat => {}
        }
        let val =
            |s: &rustsat_cadical::CaDiCaL, l: i32| s.lit_val(lit(l)).unwrap() == TernaryVal::True;
        let high: Vec<bool> = (0..p).map(|r| val(&master, high_lit(r))).collect();
        let assumps: Vec<Lit> = (0..p)
            .map(|r| lit(if high[r] { high_lit(r) } else { -high_lit(r) }))
            .collect();
        let h: String = high.iter().map(|&b| if b { '1' } else { '0' }).collect();
        let left = (timeout - t0.elapsed().as_secs_f64()).max(1.0);
        let ts = Instant::now();
        common::stop_after(&mut sub, left);
        match sub.solve_assumps(&assumps).unwrap() {
            SolverResult::Sat => {
                let bytes: Vec<u8> = (0..p)
                    .map(|r| (0..256).find(|&c| val(&sub, e.x(r, c))).unwrap() as u8)
                    .collect();
                println!(
                    "p={p} PATTERN H={h} bytes {bytes:?} values {:?}",
                    e.expand(&bytes)
                );
                return;
            }
            SolverResult::Unsat => {
                let core: Vec<i32> = sub.core().unwrap().iter().map(|l| l.to_ipasir()).collect();
                let to_q = |l: i32, shift: usize| {
                    let r = (0..p).find(|&r| high_lit(r).abs() == l.abs()).unwrap();
                    let lr = high_lit((r + shift) % p);
                    if (l > 0) == (high_lit(r) > 0) {
                        lr
                    } else {
                        -lr
                    }
                };
                for shift in 0..p {
                    let clause: rustsat::types::Clause =
                        core.iter().map(|&l| lit(to_q(l, shift))).collect();
                    master.add_clause(clause).unwrap();
                }
                cuts += 1;
                let core_h: String = (0..p)
                    .map(
                        |r| match core.iter().find(|&&l| l.abs() == high_lit(r).abs()) {
                            None => '.',
                            Some(&l) => {
                                if (l > 0) == (high_lit(r) > 0) {
                                    '0'
                                } else {
                                    '1'
                                }
                            }
                        },
                    )
                    .collect();
                println!(
                    "cut {cuts}: H={h} |H|={} core {core_h} (Q {secs:.1}s, sub {:.1}s, at {:.1}s)",
                    high.iter().filter(|&&b| b).count(),
                    ts.elapsed().as_secs_f64(),
                    t0.elapsed().as_secs_f64()
                );
            }
            SolverResult::Interrupted => {
                println!("p={p} sub timeout on H={h} after {cuts} cuts");
                return;
            }
        }
    }
}
