//! Several logged regions proved by one CaDiCaL call and one DRAT check: the CNF is the
//! certificate's premises (the encoding with a largest value first, regions before START negated)
//! and "one of regions START..START+K holds" (a selector per region: at least one selector, and
//! each selector implies its region's bounds). UNSAT says each of those regions is refuted.
//! Compared with one call per region: `cargo run --release --example batch_probe -- LEDGER START K`
//! (with GRUNDY_DRAT_CHECKER set; the proof is lightened as `--certify` does). With `LRAT=1`
//! CaDiCaL writes LRAT instead, checked by `grundy::sat::lrat` inside the call (its seconds
//! are then the solving's, the check's said apart), as `--certify --proof-format lrat` does.
use grundy::sat::solve::{Answer, SolverKind, check_drat_proof, solve_with_proof_checked_by};
use std::time::Instant;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::PathBuf::from(&args[1]);
    let start: usize = args[2].parse().unwrap();
    let k: usize = args[3].parse().unwrap();
    let ledger = grundy::sat::cubes::Ledger::read(&path).unwrap().unwrap();
    let regions = grundy::sat::certify::read_regions(&path, &ledger).unwrap();
    let mut e = common::officers_encoding(ledger.p);
    e.put_largest_first();
    // The CNF `--certify` proves these regions on (one region: its bounds as units).
    let (cnf, _) = grundy::sat::certify::batch_cnf(&e, &e.cnf, &regions, 0, start..start + k);
    let dir = tempfile::tempdir().unwrap();
    if std::env::var_os("LRAT").is_some() {
        return lrat_batch(&cnf, dir.path(), (start, k));
    }
    let checker = std::env::var(grundy::sat::solve::DRAT_CHECKER_VAR).unwrap();
    let started = Instant::now();
    let (answer, note) = solve_with_proof_checked_by(
        SolverKind::Cadical,
        &cnf,
        None,
        &dir.path().join("batch"),
        (grundy::sat::solve::ProofFormat::Drat, None),
        None,
    )
    .unwrap();
    let solve_seconds = started.elapsed().as_secs_f64();
    assert!(matches!(answer, Answer::Unsat));
    let note = note.unwrap();
    let proof = std::path::Path::new(&note.proof);
    let started = Instant::now();
    let ratio = std::env::var("RATIO").map_or(grundy::sat::drat::DROPPED_PER_ADDITION, |r| {
        r.parse().unwrap()
    });
    let lightened = grundy::sat::drat::lighten_when(proof, ratio).unwrap();
    let checked = check_drat_proof(&checker, std::path::Path::new(&note.cnf), proof, None);
    let check_seconds = started.elapsed().as_secs_f64();
    println!(
        "{k} regions from {start}: solved in {solve_seconds:.1} s, lightened and checked by \
         {checked:?} in {check_seconds:.1} s ({lightened:?}); {:.1} s a region",
        (solve_seconds + check_seconds) / k as f64
    );
}

/// The batch proved in LRAT and checked apart, each timed.
fn lrat_batch(cnf: &grundy::sat::Cnf, dir: &std::path::Path, (start, k): (usize, usize)) {
    use grundy::sat::solve::{CadicalRun, ProofFormat, solve_cadical_with};
    let (cnf_path, proof) = (dir.join("batch.cnf"), dir.join("batch.lrat"));
    let mut w = std::io::BufWriter::new(std::fs::File::create(&cnf_path).unwrap());
    cnf.write_dimacs(&[], &mut w).unwrap();
    drop(w);
    let run = CadicalRun {
        proof: Some(&proof),
        proof_format: ProofFormat::Lrat,
        ..CadicalRun::default()
    };
    let started = Instant::now();
    assert_eq!(solve_cadical_with(cnf, None, &run).unwrap(), Answer::Unsat);
    let solve_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let checked = grundy::sat::lrat::check_files(&cnf_path, &proof, None).unwrap();
    let check_seconds = started.elapsed().as_secs_f64();
    println!(
        "{k} regions from {start}: solved in {solve_seconds:.1} s writing LRAT, checked in \
         {check_seconds:.1} s ({} additions); {:.1} s a region",
        checked.additions,
        (solve_seconds + check_seconds) / k as f64
    );
}
