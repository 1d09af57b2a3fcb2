//! Order-merged encoding probe: `cargo run --release --example order_probe -- SEED TIMEOUT P
//! [merged]`. With `merged`, every `below(r, c)` literal of the committed encoding is replaced by
//! `not at_most(r, c - 1)` (`s[r] >= c`), which every model already satisfies (no gain measured:
//! `encodings/README.md`). Environment: `CUBE="12:40 9:40"` fixes residues to bytes, `TOP` (one
//! character a residue: 0 low half, 1 high half, else free), `MIN=c` every byte at least `c`,
//! `BOUND=c` every byte at most `c` (what `grundy sat bounds` asks), `ROT=1` breaks rotation,
//! `MAXROT=1` puts a largest value at residue 0 instead, `FLOOR0=c` makes `s[0]` at least `c`.
use grundy::sat::Cnf;
use grundy::sat::CollectClauses;
use grundy::sat::solve::CadicalRun;
use std::time::Duration;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u32 = args[1].parse().unwrap();
    let timeout = Duration::from_secs_f64(args[2].parse().unwrap());
    let p: usize = args[3].parse().unwrap();
    let merged = args.get(4).is_some_and(|a| a == "merged");
    let mut e = common::officers_encoding(p);
    if std::env::var("ROT").is_ok() {
        e.break_rotation();
    }
    let mut cnf = Cnf::default();
    cnf.num_vars = e.cnf.num_vars;
    // below literal -> Some(replacement) (0: constant true, i32::MIN: constant false)
    let mut map = std::collections::HashMap::new();
    if merged {
        for r in 0..p {
            map.insert(e.below(r, 0), 0);
            for c in 1..256 {
                map.insert(e.below(r, c), -e.at_most(r, c - 1));
            }
            map.insert(e.below(r, 256), i32::MIN);
        }
    }
    'clauses: for clause in e.cnf.clauses() {
        let mut out = Vec::with_capacity(clause.len());
        for &l in clause {
            let m = match map.get(&l.abs()) {
                None => l,
                Some(&0) => {
                    if l > 0 {
                        continue 'clauses;
                    } else {
                        continue;
                    }
                }
                Some(&i32::MIN) => {
                    if l > 0 {
                        continue;
                    } else {
                        continue 'clauses;
                    }
                }
                Some(&m) => {
                    if l > 0 {
                        m
                    } else {
                        -m
                    }
                }
            };
            out.push(m);
        }
        cnf.add_clause(&out);
    }
    if let Ok(cube) = std::env::var("CUBE") {
        for part in cube.split_whitespace() {
            let (r, c) = part.split_once(':').unwrap();
            cnf.add_clause(&[e.x(r.parse().unwrap(), c.parse().unwrap())]);
        }
    }
    if let Ok(top) = std::env::var("TOP") {
        // one character per residue: 0 low (< 128), 1 high, anything else free
        for (r, ch) in top.chars().enumerate() {
            match ch {
                '0' => cnf.add_clause(&[e.at_most(r, 127)]),
                '1' => cnf.add_clause(&[-e.at_most(r, 127)]),
                _ => {}
            }
        }
    }
    if let Ok(m) = std::env::var("MIN") {
        let m: usize = m.parse().unwrap();
        for r in 0..p {
            cnf.add_clause(&[-e.at_most(r, m - 1)]);
        }
    }
    if std::env::var("MAXROT").is_ok() {
        // s[r] <= s[0]: x(r, c) -> s[0] >= c, that is not at_most(0, c - 1)
        for r in 1..p {
            for c in 1..256 {
                cnf.add_clause(&[-e.x(r, c), -e.at_most(0, c - 1)]);
            }
        }
    }
    if let Ok(f) = std::env::var("FLOOR0") {
        let f: usize = f.parse().unwrap();
        cnf.add_clause(&[-e.at_most(0, f - 1)]);
    }
    if let Ok(b) = std::env::var("BOUND") {
        let b: usize = b.parse().unwrap();
        for r in 0..p {
            cnf.add_clause(&[e.at_most(r, b)]);
        }
    }
    let run = CadicalRun {
        seed,
        ..Default::default()
    };
    let (what, seconds) = common::solve_and_say(&e, &cnf, timeout, &run);
    println!(
        "p={p} seed={seed} merged={merged} clauses {} {what} {:.1}s",
        cnf.num_clauses, seconds
    );
}
