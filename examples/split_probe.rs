//! Finer pieces probe: `cargo run --release --example split_probe -- P FROM BELOW TOP R:C...`.
//! Asks the piece of the band `FROM..BELOW` of Officers period `P` with `s[0]` (the largest
//! value, put first as `grundy sat bounds --pieces` does) at the common value `TOP`, whole and
//! then cut in two at byte `C` of residue `R` (`s[R]` below `C` as a byte, or not; `R` alone:
//! `C` = 128, the top bit), for each cut given: one fresh CaDiCaL each (default
//! configuration), seconds printed. The question: can a piece be cut further at no extra cost,
//! so that more cores share a band? (Officers p = 27, band 248..256, `s[0]` = 250, beside two
//! nice-19 campaigns, 2026-11-26: whole 73.8 s; cut at the top bit of residue 1, 72.4 + 0.9 s;
//! of residue 13, 64.2 + 1.0 s: no extra cost, but no balance either, since nearly every model
//! of a piece has its other residues' bytes below 128. Cut at byte 64 instead, a second run:
//! whole 68.0 s; residue 1, 41.0 + 12.3 s; residue 13, 31.5 + 35.9 s: two halves of like cost
//! that together cost no more than the piece, so a piece could be cut once more for cores to
//! share. One piece, one run each: a lead, not a measurement of every band.) Which residue to
//! cut (2026-12-02, byte 64, beside two nice-19 chain proofs, the two probes side by side):
//! p = 27's 200 of 200..208, whole 18.4 s, the halves' sum 19.6-26.1 s over residues 1, 2, 5,
//! 13, 20, 26 (13: 24.4); p = 29's 200 of 200..208, whole 30.0 s, 31.3-42.0 s over 1, 2, 5, 13,
//! 20, 28 (13: 38.5). About 4.5 s of each call is CaDiCaL taking the CNF in, so on pieces this
//! small no residue cuts the search itself by much, and none stands out on both: the chains'
//! residue 13 stays.
use grundy::sat::CollectClauses;
use grundy::sat::bounds::Band;
use grundy::sat::solve::CadicalRun;
use std::time::Duration;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> usize { args[i].parse().unwrap() };
    let (p, from, below, top) = (
        number(0),
        number(1) as u16,
        number(2) as u16,
        number(3) as u16,
    );
    let band = Band { from, below };
    let (e, units) = common::officers_piece(p, from, below, top);
    let ask = |extra: &[i32], what: &str| {
        let mut cnf = e.cnf.clone();
        for &u in units.iter().chain(extra) {
            cnf.add_clause(&[u]);
        }
        let run = CadicalRun::default();
        let (said, seconds) = common::solve_and_say(&e, &cnf, Duration::from_secs(1800), &run);
        println!("p={p} band {band} s[0]={top} {what}: {said} {seconds:.1} s");
        seconds
    };
    let whole = ask(&[], "whole");
    for cut in &args[4..] {
        let (r, c) = cut.split_once(':').unwrap_or((cut, "128"));
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        let low = ask(&[e.at_most(r, c - 1)], &format!("s[{r}] byte < {c}"));
        let high = ask(&[-e.at_most(r, c - 1)], &format!("s[{r}] byte >= {c}"));
        println!(
            "  cut at residue {r}, byte {c}: {low:.1} + {high:.1} = {:.1} s against {whole:.1} s whole",
            low + high
        );
    }
}
