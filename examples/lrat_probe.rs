//! DRAT against LRAT on one call of a chain proof:
//! `cargo run --release --example lrat_probe -- P FROM BELOW TOP [R:AT[:BELOW]] [DIR]`.
//! Builds the CNF that `grundy sat bounds --prove-chain --pieces` asks for the piece `s[0]` =
//! TOP of the band FROM..BELOW of Officers period P (with `--cut`, the part `s[R]` >= AT, below
//! BELOW when given; `R:AT:0` is the half below AT), then proves it twice in a fresh CaDiCaL
//! (default configuration, as the chain does): writing binary LRAT, checked by
//! `grundy::sat::lrat`, and writing DRAT text, checked by rate through
//! `encodings/check_drat_rate.sh` (set RATE to its path). Prints each side's solving and
//! checking seconds and proof size. The question: how much of a chain proof's time does LRAT
//! save, where rate's search for each step's antecedents was about twice the solving?
//! `ONLY=lrat` or `ONLY=drat` runs one side; `KEEP=1` copies the CNF and proofs to the
//! temporary folder as `probe.*`. Files go to DIR (default: `/tmp`) and are removed.
//!
//! Measured (2-core VM, 2026-12-01, one probe at a time, the last beside builds and tests):
//! p = 27, band 200..208, `s[0]` = 200: LRAT 15.5 s solving + 1.4 s checking (132 MB), DRAT
//! 15.6 + 39.7 s (292 MB), 3.3 times; p = 37, band 184..192, `s[0]` = 184, `s[13]` >= 160:
//! LRAT 19.2 + 2.0 s (165 MB), DRAT 17.4 + 54.0 s (414 MB), 3.4 times; the same band, `s[0]`
//! = 185, `s[13]` < 64: LRAT 243.6 + 9.8 s (960 MB; 155 s of solving in a first run, beside
//! nothing), DRAT 157.2 + 664.5 s (1132 MB), 3.2 times. CaDiCaL writes LRAT at about the
//! same speed; the check is where DRAT's time went. `PRESET=2` (CaDiCaL's unsat configuration)
//! did 13% fewer additions on the second call but 31% and 6% more on the first and third
//! (LRAT, same day, beside two chain proofs), so the chain keeps the default.
use grundy::sat::CollectClauses;
use grundy::sat::bounds::{Band, Half};
use grundy::sat::solve::{Answer, CadicalRun, ProofFormat, solve_cadical_with};
use std::path::Path;
use std::time::Instant;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u16 { args[i].parse().unwrap() };
    let (p, from, below, top) = (number(0) as usize, number(1), number(2), number(3));
    let half = args.get(4).filter(|a| a.contains(':')).map(|cut| {
        let parts: Vec<u16> = cut.split(':').map(|x| x.parse().unwrap()).collect();
        match parts[..] {
            [residue, at] => Half {
                residue: residue.into(),
                at,
                high: true,
                below: None,
            },
            [residue, at, 0] => Half {
                residue: residue.into(),
                at,
                high: false,
                below: None,
            },
            [residue, at, end] => Half {
                residue: residue.into(),
                at,
                high: true,
                below: Some(end),
            },
            _ => panic!("a cut is R:AT or R:AT:BELOW"),
        }
    });
    let dir = args.iter().skip(4).find(|a| !a.contains(':')).cloned();
    let tmp = tempfile::tempdir_in(dir.as_deref().unwrap_or("/tmp")).unwrap();
    let band = Band { from, below };
    let (e, mut units) = common::officers_piece(p, from, below, top);
    if let Some(h) = half {
        units.extend(h.units(&e).unwrap());
    }
    let mut cnf = e.cnf.clone();
    for &u in &units {
        cnf.add_clause(&[u]);
    }
    let cnf_path = tmp.path().join("piece.cnf");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&cnf_path).unwrap());
    cnf.write_dimacs(&[], &mut w).unwrap();
    drop(w);
    let what = format!(
        "p={p} band {band} s[0]={top}{}",
        half.map_or(String::new(), |h| format!(" {h:?}"))
    );
    println!(
        "{what}: {} variables, {} clauses",
        cnf.num_vars, cnf.num_clauses
    );
    let only = std::env::var("ONLY").unwrap_or_default();
    for format in [ProofFormat::Lrat, ProofFormat::Drat] {
        if !only.is_empty() && only != format.name() {
            continue;
        }
        let proof = tmp.path().join(format!("piece.{}", format.name()));
        // PRESET=2: CaDiCaL's unsat configuration (the chain proves with the default).
        let run = CadicalRun {
            proof: Some(&proof),
            proof_format: format,
            preset: common::env_preset(),
            ..CadicalRun::default()
        };
        let t = Instant::now();
        let answer = solve_cadical_with(&cnf, None, &run).unwrap();
        let solving = t.elapsed().as_secs_f64();
        assert_eq!(answer, Answer::Unsat, "the chain's calls are refuted");
        let bytes = std::fs::metadata(&proof).unwrap().len();
        let t = Instant::now();
        let verdict = check(format, &cnf_path, &proof);
        let checking = t.elapsed().as_secs_f64();
        println!(
            "  {}: solving {solving:.1} s, proof {:.0} MB, checking {checking:.1} s ({verdict}); \
             {:.1} s in all",
            format.name(),
            bytes as f64 / 1e6,
            solving + checking
        );
        if std::env::var_os("KEEP").is_some() {
            let kept = std::env::temp_dir().join(format!("probe.{}", format.name()));
            std::fs::copy(&proof, &kept).unwrap();
            std::fs::copy(&cnf_path, std::env::temp_dir().join("probe.cnf")).unwrap();
        }
        std::fs::remove_file(&proof).unwrap();
    }
}

fn check(format: ProofFormat, cnf: &Path, proof: &Path) -> String {
    match format {
        ProofFormat::Lrat => match grundy::sat::lrat::check_files(cnf, proof, None) {
            Ok(c) => format!(
                "accepted: {} additions, {} deletions, {} hints",
                c.additions, c.deletions, c.hints
            ),
            Err(e) => format!("NOT ACCEPTED: {e}"),
        },
        ProofFormat::Drat => {
            let checker = "sh encodings/check_drat_rate.sh";
            match grundy::sat::solve::check_drat_proof(checker, cnf, proof, None) {
                Ok(by) => format!("accepted by {by}"),
                Err(e) => format!("NOT ACCEPTED: {e}"),
            }
        }
    }
}
