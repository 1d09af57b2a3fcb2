//! Bits and XORs beside the one-hot encoding:
//! `cargo run --release --example xor_probe -- P FROM BELOW TOP TIMEOUT MODE [SEED]`,
//! MODE one of `plain`, `bits`, `xor`, `order`.
//! Asks the piece `s[0]` = TOP of the band FROM..BELOW of Officers period P as
//! `grundy sat bounds --pieces` does (TOP 0: the whole question, a largest value first), in one
//! of these forms. `plain`: the encoding as it is. `bits`: plus eight variables per residue for
//! the bits of its byte (tied to the one-hot both ways), one per pair of residues and bit for
//! the XOR of their bits, and each conflict `s[r] ^ s[q] != f` once more as one clause of eight
//! literals over those XOR bits: redundant, so that a learned clause may speak of the XOR of two
//! residues (what the conflicts are about) rather than of one value pair at a time. `xor`: the
//! same without the binary conflicts (5.44 million clauses on a piece of p = 27 replaced by 21
//! thousand of eight literals): smaller, with weaker propagation. Prints the answer and its seconds.
//!
//! Measured (2-core VM, 2026-12-02, default configuration, seed 0, two probes side by side
//! beside two nice-19 chain proofs; every piece refuted by all three forms):
//!
//! | piece | plain | bits | xor |
//! |---|---|---|---|
//! | p = 27, 200..208, `s[0]` = 200 | 18.3 s | 19.9 s | 30.9 s |
//! | p = 27, 216..224, `s[0]` = 216 | 23.9 s | 20.2 s | 35.1 s |
//! | p = 29, 200..208, `s[0]` = 200 | 32.5 s, 31.0 s | 49.7 s | 62.5 s |
//!
//! The XOR form is 38 times smaller (142,766 clauses against 5,487,821 on p = 27) and 1.3-1.9
//! times slower; the redundant bits gain nothing (-15% to +60%). p = 19's whole question
//! (largest first, no local search) had no answer in 300 s either plain or as XORs. Neither
//! form was kept (docs/periods-by-sat.md, *Bits and XORs*).
//!
//! `order`: the encoding plus clauses that tie `below(r, c)` to the counter's `s[r] >= c` both
//! ways (the same in every model, but propagated only once a byte of `r` is chosen). Seeds 0,
//! 1, 2 on the three pieces above (same day and load): 215.5 s in all against 224.3 s plain,
//! within the spread of seeds; not kept.
use grundy::sat::encode::{VarMeaning, conflict_xors};
use grundy::sat::{Cnf, CollectClauses};
use std::time::Duration;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u16 { args[i].parse().unwrap() };
    let (p, from, below, top) = (number(0) as usize, number(1), number(2), number(3));
    let timeout = Duration::from_secs_f64(args[4].parse().unwrap());
    let mode = args[5].as_str();
    let seed: u32 = args.get(6).map_or(0, |s| s.parse().unwrap());
    let (e, units) = if top == 0 {
        let mut e = common::officers_encoding(p);
        e.put_largest_first();
        (e, Vec::new())
    } else {
        common::officers_piece(p, from, below, top)
    };
    let is_conflict = |clause: &[i32]| {
        clause.len() == 2
            && clause.iter().all(|&l| l < 0)
            && matches!(
                (e.var_meaning(-clause[0]), e.var_meaning(-clause[1])),
                (VarMeaning::Byte { r: a, .. }, VarMeaning::Byte { r: b, .. }) if a != b
            )
    };
    let mut cnf = Cnf::default();
    cnf.num_vars = e.cnf.num_vars;
    for clause in e.cnf.clauses() {
        if mode != "xor" || !is_conflict(clause) {
            cnf.add_clause(clause);
        }
    }
    match mode {
        "plain" => {}
        "bits" | "xor" => add_bits_and_xors(&e, &mut cnf),
        "order" => add_order_ties(&e, &mut cnf),
        _ => panic!("MODE: plain, bits, xor or order"),
    }
    for u in units {
        cnf.add_clause(&[u]);
    }
    let (what, seconds, settings) = common::solve_with_env_settings(&e, &cnf, timeout, seed);
    println!(
        "p={p} {from}..{below} top {top} {mode} ({} vars, {} clauses) {settings}: {what} {seconds:.1}s",
        cnf.num_vars, cnf.num_clauses
    );
}

fn add_bits_and_xors(e: &grundy::sat::encode::PeriodEncoding, cnf: &mut Cnf) {
    let p = e.p;
    let lit = |var: i32, on: bool| if on { var } else { -var };
    let bits: Vec<[i32; 8]> = (0..p)
        .map(|_| std::array::from_fn(|_| cnf.new_var()))
        .collect();
    for (r, bits_r) in bits.iter().enumerate() {
        for c in 0..256usize {
            let mut all = vec![e.x(r, c)];
            for (k, &bit) in bits_r.iter().enumerate() {
                let b = lit(bit, c >> k & 1 == 1);
                cnf.add_clause(&[-e.x(r, c), b]);
                all.push(-b);
            }
            cnf.add_clause(&all);
        }
    }
    let shifts = e.shifts();
    for r in 0..p {
        for q in r + 1..p {
            let y: [i32; 8] = std::array::from_fn(|_| cnf.new_var());
            for ((&y, &a), &b) in y.iter().zip(&bits[r]).zip(&bits[q]) {
                cnf.add_clause(&[-y, a, b]);
                cnf.add_clause(&[-y, -a, -b]);
                cnf.add_clause(&[y, -a, b]);
                cnf.add_clause(&[y, a, -b]);
            }
            for v in conflict_xors(shifts, r, q) {
                let clause: Vec<i32> = (0..8).map(|k| lit(y[k], v >> k & 1 == 0)).collect();
                cnf.add_clause(&clause);
            }
        }
    }
}

/// `below(r, c)` holds exactly when `s[r] >= c` in every model (every byte below `c` an option,
/// and `s[r]` none), so tie it to the counter both ways, `s[r] >= c <-> below(r, c)`, and
/// `not below(r, 256)`.
fn add_order_ties(e: &grundy::sat::encode::PeriodEncoding, cnf: &mut Cnf) {
    for r in 0..e.p {
        for c in 1..256 {
            let at_least = -e.at_most(r, c - 1);
            cnf.add_clause(&[-at_least, e.below(r, c)]);
            cnf.add_clause(&[-e.below(r, c), at_least]);
        }
        cnf.add_clause(&[-e.below(r, 256)]);
    }
}
