//! One logged region of a band campaign proved by CaDiCaL (DRAT) and by varisat (its own proof,
//! checked in-process by varisat-checker), to compare the two routes of `--certify`:
//! `cargo run --release --example region_probe -- LEDGER INDEX`. The CNF is the certificate's:
//! the encoding with a largest value first, regions before INDEX negated, INDEX's bounds as units.
//! With `GRUNDY_DRAT_CHECKER` set, CaDiCaL's proof is also checked by that command, timed, as
//! written and then lightened as `--certify` checks it (`grundy::sat::drat`). `KEEP=DIR` keeps
//! CaDiCaL's CNF and proof there; `CADICAL_ONLY=1` skips varisat.
use grundy::sat::solve::{ProofFormat, SolverKind, solve_with_proof_checked_by};
use std::time::Instant;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::PathBuf::from(&args[1]);
    let index: usize = args[2].parse().unwrap();
    let ledger = grundy::sat::cubes::Ledger::read(&path).unwrap().unwrap();
    let regions = grundy::sat::certify::read_regions(&path, &ledger).unwrap();
    let mut e = common::officers_encoding(ledger.p);
    e.put_largest_first();
    assert_eq!(grundy::sat::lemmas::fingerprint(&e.cnf), ledger.fingerprint);
    let (cnf, _) = grundy::sat::certify::batch_cnf(&e, &e.cnf, &regions, 0, index..index + 1);
    let dir = tempfile::tempdir().unwrap();
    let kinds: &[SolverKind] = if std::env::var("CADICAL_ONLY").is_ok() {
        &[SolverKind::Cadical]
    } else {
        &[SolverKind::Cadical, SolverKind::Varisat]
    };
    for &kind in kinds {
        let started = Instant::now();
        let stem = dir.path().join(kind.name());
        let (answer, note) =
            solve_with_proof_checked_by(kind, &cnf, None, &stem, (ProofFormat::Drat, None), None)
                .unwrap();
        let bytes = note
            .as_ref()
            .and_then(|n| std::fs::metadata(&n.proof).ok())
            .map_or(0, |m| m.len());
        println!(
            "{}: {:?} in {:.1} s (checked by {:?}), proof {:.1} MB",
            kind.name(),
            matches!(answer, grundy::sat::solve::Answer::Unsat),
            started.elapsed().as_secs_f64(),
            note.as_ref().and_then(|n| n.checked_by.clone()),
            bytes as f64 / 1e6
        );
        if let (Ok(keep), Some(n)) = (std::env::var("KEEP"), note.as_ref()) {
            for f in [&n.cnf, &n.proof] {
                let name = std::path::Path::new(f).file_name().unwrap();
                std::fs::copy(f, std::path::Path::new(&keep).join(name)).unwrap();
            }
        }
        // CaDiCaL's DRAT through the external checker, when one is set.
        let checker = std::env::var(grundy::sat::solve::DRAT_CHECKER_VAR).unwrap_or_default();
        if let (Some(n), false) = (note.filter(|n| n.format == "drat"), checker.is_empty()) {
            let started = Instant::now();
            let checked = grundy::sat::solve::check_drat_proof(
                &checker,
                std::path::Path::new(&n.cnf),
                std::path::Path::new(&n.proof),
                None,
            );
            println!(
                "  checked by {checked:?} in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            // The same proof without the deletions of CNF clauses, as `--certify` checks it.
            let proof = std::path::Path::new(&n.proof);
            let started = Instant::now();
            let lightened = grundy::sat::drat::lighten(proof).unwrap();
            let lighten_seconds = started.elapsed().as_secs_f64();
            let started = Instant::now();
            let checked = grundy::sat::solve::check_drat_proof(
                &checker,
                std::path::Path::new(&n.cnf),
                proof,
                None,
            );
            println!(
                "  lightened in {lighten_seconds:.1} s ({lightened:?}), then checked by {checked:?} in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
}
