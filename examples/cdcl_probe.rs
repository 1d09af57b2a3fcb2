//! CDCL probe: `cargo run --release --example cdcl_probe -- ENC SEED TIMEOUT P` with ENC `onehot`
//! (the committed encoding) or `direct` (binary conflicts, no hit variables).
use grundy::sat::encode::{PeriodEncoding, option_shifts};
use grundy::sat::solve::{Answer, CadicalRun, solve_cadical_with};
use grundy::sat::{Cnf, CollectClauses};
use grundy::{ExactGenerator, Game};
use std::time::{Duration, Instant};

fn direct(shifts: &[Vec<u8>]) -> Cnf {
    let p = shifts.len();
    let mut cnf = Cnf::default();
    let x0 = cnf.num_vars + 1;
    cnf.num_vars += (p * 256) as i32;
    let amo0 = cnf.num_vars + 1;
    cnf.num_vars += (p * 255) as i32;
    let below0 = cnf.num_vars + 1;
    cnf.num_vars += (p * 257) as i32;
    let x = |r: usize, c: usize| x0 + (r * 256 + c) as i32;
    let amo = |r: usize, c: usize| amo0 + (r * 255 + c) as i32;
    let below = |r: usize, c: usize| below0 + (r * 257 + c) as i32;
    for r in 0..p {
        let all: Vec<i32> = (0..256).map(|c| x(r, c)).collect();
        cnf.add_clause(&all);
        cnf.add_clause(&[-x(r, 0), amo(r, 0)]);
        for c in 1..255 {
            cnf.add_clause(&[-x(r, c), amo(r, c)]);
            cnf.add_clause(&[-amo(r, c - 1), amo(r, c)]);
            cnf.add_clause(&[-x(r, c), -amo(r, c - 1)]);
        }
        cnf.add_clause(&[-x(r, 255), -amo(r, 254)]);
        cnf.add_clause(&[below(r, 0)]);
        for c in 0..256 {
            cnf.add_clause(&[-below(r, c + 1), below(r, c)]);
            cnf.add_clause(&[-x(r, c), below(r, c)]);
            let mut sources = vec![-below(r, c + 1)];
            for (t, values) in shifts.iter().enumerate() {
                for &v in values {
                    sources.push(x((r + p - t) % p, c ^ v as usize));
                }
            }
            cnf.add_clause(&sources);
        }
        // s[r] is not an option of r: 0 in R_0 would forbid everything (an excluded p).
        if shifts[0].contains(&0) {
            cnf.add_clause(&[]);
        }
    }
    for r in 0..p {
        for q in r + 1..p {
            let mut f: Vec<u8> = shifts[(r + p - q) % p]
                .iter()
                .chain(&shifts[(q + p - r) % p])
                .copied()
                .collect();
            f.sort_unstable();
            f.dedup();
            for c in 0..256 {
                for &v in &f {
                    cnf.add_clause(&[-x(r, c), -x(q, c ^ v as usize)]);
                }
            }
        }
    }
    cnf
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u32 = args[2].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[3].parse().unwrap());
    let p: usize = args[4].parse().unwrap();
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    let cnf = match args[1].as_str() {
        "direct" => direct(
            &option_shifts(&Game::officers(), g.space(), &rares, p)
                .unwrap()
                .1,
        ),
        _ => {
            PeriodEncoding::new(&Game::officers(), g.space(), &rares, p)
                .unwrap()
                .cnf
        }
    };
    let t = Instant::now();
    let run = CadicalRun {
        seed,
        ..Default::default()
    };
    let answer = solve_cadical_with(&cnf, Some(timeout), &run).unwrap();
    let what = match answer {
        Answer::Sat(_) => "sat",
        Answer::Unsat => "unsat",
        Answer::Timeout => "timeout",
    };
    println!(
        "{} p={p} seed={seed} vars {} clauses {} {what} {:.1}s",
        args[1],
        cnf.num_vars,
        cnf.num_clauses,
        t.elapsed().as_secs_f64()
    );
}
