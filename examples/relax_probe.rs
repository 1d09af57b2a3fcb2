//! Relaxation probe: only "s[r] is not an option of r" (pairwise: s[r] ^ s[q] avoids
//! F = R_{r-q} ∪ R_{q-r}), no mex. Its constraints see differences only, so s[0] = 0 loses
//! nothing. UNSAT here would refute the full encoding (whose clauses include these).
//! `cargo run --release --example relax_probe -- P TIMEOUT [SEED [RESIDUES]]`: RESIDUES (say
//! `0,1,2,5`) keeps only the constraints among those residues (a sub-problem: UNSAT there is UNSAT
//! for all); `SHIFTS=FILE` writes the option shifts.
use grundy::sat::encode::{conflict_xors, option_shifts};
use grundy::sat::solve::{Answer, CadicalRun, solve_cadical_with};
use grundy::sat::{Cnf, CollectClauses};
use grundy::{ExactGenerator, Game};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p: usize = args[1].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[2].parse().unwrap());
    let seed: u32 = args.get(3).map_or(0, |s| s.parse().unwrap());
    let kept: Vec<usize> = args.get(4).map_or((0..p).collect(), |a| {
        a.split(',').map(|r| r.parse().unwrap()).collect()
    });
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(p, v)| (p as u64, v)).collect();
    let (_, shifts) = option_shifts(&Game::officers(), g.space(), &rares, p).unwrap();
    if let Ok(path) = std::env::var("SHIFTS") {
        std::fs::write(path, format!("{shifts:?}")).unwrap();
    }
    let x = |r: usize, c: usize| (r * 256 + c + 1) as i32;
    let mut cnf = Cnf::default();
    cnf.num_vars = (p * 256) as i32;
    for &r in &kept {
        let all: Vec<i32> = (0..256).map(|c| x(r, c)).collect();
        cnf.add_clause(&all);
    }
    cnf.add_clause(&[x(kept[0], 0)]);
    let mut pairs = 0;
    for (i, &r) in kept.iter().enumerate() {
        for &q in &kept[i + 1..] {
            let f = conflict_xors(&shifts, r, q);
            pairs += f.len();
            for c in 0..256 {
                for &v in &f {
                    cnf.add_clause(&[-x(r, c), -x(q, c ^ v as usize)]);
                }
            }
        }
    }
    let zero_in_r0 = shifts[0].contains(&0);
    println!(
        "p={p} mean |F| {:.1} of 256, 0 in R_0: {zero_in_r0}, clauses {}",
        pairs as f64 / (kept.len() * (kept.len() - 1) / 2).max(1) as f64,
        cnf.num_clauses
    );
    let run = CadicalRun {
        seed,
        ..Default::default()
    };
    let t = Instant::now();
    match solve_cadical_with(&cnf, Some(timeout), &run).unwrap() {
        Answer::Sat(model) => {
            let s: Vec<usize> = kept
                .iter()
                .map(|&r| (0..256).find(|&c| model[x(r, c) as usize]).unwrap())
                .collect();
            println!("sat {s:?}");
        }
        other => println!("{other:?}"),
    }
    println!("{:.1}s", t.elapsed().as_secs_f64());
}
