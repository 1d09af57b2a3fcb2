//! Certificates of cube campaigns: the region log, its cover of the campaign's box (against a
//! brute force over every point), and `sat cubes --certify` on a band of Officers p = 4 (against
//! the brute force of mvr's rare table, and against forged logs).

use std::path::Path;
use std::process::Command;

use grundy::sat::certify::{Certificate, read_regions, uncovered};
use grundy::sat::cubes::{Cube, Ledger, Verdict};

use crate::bounds::{Rule, ladder_json};
use crate::cli::{failed_in_one_line, fails_with_one_line};
use crate::sat::drat_checker;

/// A small generator of test boxes (xorshift64).
struct Boxes(u64);

impl Boxes {
    fn below(&mut self, n: u64) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n) as u8
    }

    /// A box of `p` residues inside `0..=7` each.
    fn cube(&mut self, p: usize) -> Cube {
        let mut c = Cube::full(p);
        for r in 0..p {
            let (a, b) = (self.below(8), self.below(8));
            (c.lo[r], c.hi[r]) = (a.min(b), a.max(b));
        }
        c
    }
}

fn point(v: &[u8]) -> Cube {
    Cube {
        lo: v.to_vec(),
        hi: v.to_vec(),
    }
}

/// `uncovered` returns disjoint pieces inside the root that hold exactly the root's points no
/// region holds: checked point by point over random boxes of 3 residues (up to 512 points).
#[test]
fn uncovered_pieces_are_exactly_the_points_no_region_holds() {
    let mut boxes = Boxes(0x9e37_79b9_7f4a_7c15);
    let mut covered_roots = 0;
    for _ in 0..400 {
        let root = boxes.cube(3);
        let k = usize::from(boxes.below(12));
        let regions: Vec<Cube> = (0..k).map(|_| boxes.cube(3)).collect();
        let pieces = uncovered(&root, &regions, 1 << 20).expect("small enough");
        assert!(pieces.iter().all(|c| root.contains(c)));
        for a in root.lo[0]..=root.hi[0] {
            for b in root.lo[1]..=root.hi[1] {
                for c in root.lo[2]..=root.hi[2] {
                    let x = point(&[a, b, c]);
                    let held = regions.iter().any(|g| g.contains(&x));
                    let in_pieces = pieces.iter().filter(|g| g.contains(&x)).count();
                    assert_eq!(in_pieces, usize::from(!held), "{x:?} {root:?} {regions:?}");
                }
            }
        }
        covered_roots += usize::from(pieces.is_empty());
    }
    // Both answers were met often enough to mean something.
    assert!((20..380).contains(&covered_roots), "{covered_roots}");
    // Past its limit it says so rather than answer.
    assert_eq!(uncovered(&Cube::full(3), &[point(&[1, 2, 3])], 0), None);
}

/// `sat cubes officers --p 4 --band 0..40 --certify` with `extra`, `checker` as the DRAT
/// checker's command (`None`: unset).
fn certify(out: &str, extra: &[&str], checker: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
    cmd.args(["sat", "cubes", "officers", "--p", "4", "--band", "0..40"])
        .args(["--out", out, "--certify", "--threads", "2"])
        .args(extra);
    match checker {
        Some(c) => cmd.env("GRUNDY_DRAT_CHECKER", c),
        None => cmd.env_remove("GRUNDY_DRAT_CHECKER"),
    };
    cmd.output().expect("binary runs")
}

/// The band 0..40 of p = 4 refuted by a campaign of several runs, 4 calls each.
fn refuted_in_runs(out: &str) -> Ledger {
    let ledger_path = Path::new(out).with_file_name("cubes-p4-feasible-band0-40.json");
    for _ in 0..60 {
        let args = ["--band", "0..40", "--conflicts", "1", "--threads", "2"];
        let run = crate::bounds::p4_cubes(out, &[&args[..], &["--calls", "4"]].concat());
        assert!(run.status.success(), "{run:?}");
        let ledger = Ledger::read(&ledger_path).unwrap().unwrap();
        if ledger.verdict() != Verdict::Open {
            return ledger;
        }
    }
    panic!("band 0..40 of p = 4 not answered in 60 runs");
}

/// Rewrites the region log beside `ledger_path` to hold `regions` and the ledger to count them.
fn forge_log(ledger_path: &Path, regions: &[&str]) {
    let log = grundy::sat::certify::log_path(ledger_path);
    let text = std::fs::read_to_string(&log).unwrap();
    let header = text.lines().next().unwrap();
    let forged: String = std::iter::once(header)
        .chain(regions.iter().copied())
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&log, &forged).unwrap();
    let mut ledger = Ledger::read(ledger_path).unwrap().unwrap();
    ledger.logged_regions = regions.len() as u64;
    ledger.region_log_bytes = forged.len() as u64;
    ledger.save(ledger_path).unwrap();
    let _ = std::fs::remove_file(grundy::sat::certify::certificate_path(ledger_path));
}

/// A band the brute force finds empty, refuted over several runs, is certified by varisat's
/// proofs (checked in-process by varisat-checker, so this runs everywhere): every logged region
/// proved, the regions covering the band, the rung in the ladder resting on the certificate,
/// the summary showing it. A log cut short leaves part of the band covered by nothing (not
/// certified); a forged region with patterns inside is refused; CaDiCaL without a DRAT checker
/// and splr (no proofs) are refused in one line.
#[test]
fn a_band_refuted_over_several_runs_is_certified_and_forged_logs_are_not() {
    let varisat = ["--prover", "varisat"];
    let (dir, regions) = certified_band(&varisat, None, "varisat-checker");
    let out = dir.path().join("periods.json").display().to_string();
    let ledger_path = dir.path().join("cubes-p4-feasible-band0-40.json");
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    let rung = &ladder["rungs"][0];
    let cert_name = "cubes-p4-feasible-band0-40.certificate.json";
    assert_eq!(rung["proof"]["proof"], cert_name);
    assert_eq!(rung["proof"]["checked_by"], "varisat-checker");
    assert!(!ledger_path.with_extension("proofs").exists());
    // The summary shows the certificate under p = 4's ladder, and reads it as no ledger.
    let summary = crate::cli::grundy(&["sat", "summary", "--out", &out]);
    let text = String::from_utf8_lossy(&summary.stdout);
    let certified = "the regions cover the band; UNSAT certified";
    assert!(text.contains(certified), "{text}");
    assert!(!text.contains("not a cube ledger"), "{text}");
    // The first region alone does not cover the band: proved, but not a certificate.
    let first = regions[0].render();
    forge_log(&ledger_path, &[&first]);
    let run = certify(&out, &varisat, None);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(said.contains("lie in no logged region") && said.contains("not certified yet"));
    // Nothing is open, so what no region covers was refuted unlogged (as far as the log says).
    let cert = read_certificate(&ledger_path);
    assert!(cert.uncovered_share.unwrap() > 0.0 && !cert.certified);
    assert_eq!(cert.unlogged_share, cert.uncovered_share);
    // The whole box as a region: p = 4 has patterns, so no proof can refute it. Proved alone,
    // or in one call with two regions before it, it is the region named.
    forge_log(&ledger_path, &["*", &first]);
    let refused = failed_in_one_line(&certify(&out, &varisat, None), "a forged log");
    assert!(refused.contains("region 0 (*)") && refused.contains("varisat finds a model"));
    let second = regions[1].render();
    forge_log(&ledger_path, &[&first, &second, "*"]);
    let refused = failed_in_one_line(&certify(&out, &varisat, None), "a forged log");
    assert!(refused.contains("region 2 (*)"), "{refused}");
    assert!(refused.contains("varisat finds a model"), "{refused}");
    // A ledger whose box is narrower than its band's would certify less than the rung says.
    let kept = std::fs::read(&ledger_path).unwrap();
    let mut narrowed: serde_json::Value = serde_json::from_slice(&kept).unwrap();
    let mut root = Cube::parse(narrowed["root"].as_str().unwrap(), 4).unwrap();
    root.hi[1] = root.lo[1];
    narrowed["root"] = serde_json::json!(root.render());
    narrowed["refuted_share"] = serde_json::json!(root.share());
    std::fs::write(&ledger_path, serde_json::to_vec(&narrowed).unwrap()).unwrap();
    let refused = failed_in_one_line(&certify(&out, &varisat, None), "a narrowed box");
    assert!(refused.contains("a band's own box"), "{refused}");
    std::fs::write(&ledger_path, kept).unwrap();
    let no_checker = failed_in_one_line(&certify(&out, &[], None), "no checker");
    assert!(no_checker.contains("needs an independent DRAT checker"));
    let splr = failed_in_one_line(&certify(&out, &["--prover", "splr"], None), "splr");
    assert!(splr.contains("splr writes no proofs"));
}

/// The same band certified by CaDiCaL's DRAT proofs, each checked by dratify (a third party's
/// checker, which `.ci/run` installs).
#[test]
fn a_band_is_certified_by_drat_proofs_that_dratify_accepts() {
    let Some(checker) = drat_checker() else {
        return;
    };
    certified_band(&[], Some(&checker), "dratify");
}

/// The same band certified by CaDiCaL's DRAT proofs, each checked by rate (a third party's
/// checker in Rust, several times faster than dratify on Officers' proofs).
#[test]
fn a_band_is_certified_by_drat_proofs_that_rate_accepts() {
    let Some(checker) = crate::sat::rate_checker() else {
        return;
    };
    let (dir, regions) = certified_band(&["--batch", "1"], Some(&checker), "rate");
    // CaDiCaL's model in a batch names its region too.
    let out = dir.path().join("periods.json").display().to_string();
    let ledger_path = dir.path().join("cubes-p4-feasible-band0-40.json");
    let (first, second) = (regions[0].render(), regions[1].render());
    forge_log(&ledger_path, &[&first, &second, "*", &first]);
    let refused = failed_in_one_line(&certify(&out, &[], Some(&checker)), "a forged log");
    assert!(refused.contains("region 2 (*)"), "{refused}");
    assert!(refused.contains("cadical finds a model"), "{refused}");
}

/// The same band certified by CaDiCaL's LRAT proofs, each checked by grundy's LRAT checker in
/// the call (no DRAT checker set); a forged region holding patterns, third in its batch, is
/// named by its model; varisat, which writes no LRAT here, is refused in one line.
#[test]
fn a_band_is_certified_by_lrat_proofs_that_grundy_checks() {
    let lrat = ["--proof-format", "lrat"];
    let (dir, regions) = certified_band(&lrat, None, &grundy::sat::lrat::checker_name());
    let out = dir.path().join("periods.json").display().to_string();
    let ledger_path = dir.path().join("cubes-p4-feasible-band0-40.json");
    let (first, second) = (regions[0].render(), regions[1].render());
    forge_log(&ledger_path, &[&first, &second, "*"]);
    let refused = failed_in_one_line(&certify(&out, &lrat, None), "a forged log");
    assert!(refused.contains("region 2 (*)"), "{refused}");
    assert!(refused.contains("cadical finds a model"), "{refused}");
    let varisat = [&lrat[..], &["--prover", "varisat"]].concat();
    let refused = failed_in_one_line(&certify(&out, &varisat, None), "LRAT by varisat");
    assert!(refused.contains("only CaDiCaL writes LRAT"), "{refused}");
}

/// Band 0..40 of p = 4 (no pattern there, by the brute force) refuted in several runs and
/// certified by `sat cubes --certify` with `extra` and `checker`: every region checked by a
/// checker whose name starts with `checked_by`. Returns the folder and the logged regions.
fn certified_band(
    extra: &[&str],
    checker: Option<&str>,
    checked_by: &str,
) -> (tempfile::TempDir, Vec<Cube>) {
    assert!(Rule::officers(4).least_largest_below(40).is_none());
    let (dir, out) = with_periods_file();
    let out = out.as_str();
    let ledger = refuted_in_runs(out);
    assert_eq!(ledger.verdict(), Verdict::Unsat);
    assert!(ledger.runs >= 2, "{}", ledger.progress_line());
    assert_eq!(ledger.logged_regions, ledger.refutations);
    let ledger_path = dir.path().join("cubes-p4-feasible-band0-40.json");
    let regions = read_regions(&ledger_path, &ledger).unwrap();
    let run = certify(out, extra, checker);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        said.contains("the regions cover the band; UNSAT certified"),
        "{said}"
    );
    let cert = read_certificate(&ledger_path);
    assert!(cert.certified && cert.checked == regions.len() as u64 && cert.proof_bytes > 0);
    // One call a batch (16 regions by default, or `--batch`), two batches a round (two threads).
    let batch = extra
        .iter()
        .position(|&a| a == "--batch")
        .map_or(16, |i| extra[i + 1].parse().unwrap());
    assert_eq!(cert.calls, cert.checked.div_ceil(batch), "{cert:?}");
    assert_eq!(cert.checked_by.len(), 1);
    assert!(
        cert.checked_by[0].starts_with(checked_by),
        "{:?}",
        cert.checked_by
    );
    (dir, regions)
}

/// A folder holding a copy of the committed periods file (so that `sat summary` has p = 4 to
/// list), and that file's path.
fn with_periods_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let periods = dir.path().join("periods.json");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/officers/periods.json");
    std::fs::copy(committed, &periods).unwrap();
    let out = periods.display().to_string();
    (dir, out)
}

fn read_certificate(ledger_path: &Path) -> Certificate {
    let path = grundy::sat::certify::certificate_path(ledger_path);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A log whose ledger counts more than it holds is corrupt: a one-line error, no certificate,
/// and no campaign run until the log is restored or dropped (`--drop-region-log`).
#[test]
fn a_region_log_shorter_than_its_ledger_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let six_calls = ["--band", "0..40", "--conflicts", "1", "--calls", "6"];
    assert!(crate::bounds::p4_cubes(&out, &six_calls).status.success());
    let ledger_path = dir.path().join("cubes-p4-feasible-band0-40.json");
    let mut ledger = Ledger::read(&ledger_path).unwrap().unwrap();
    assert!(ledger.logged_regions > 0, "{}", ledger.progress_line());
    ledger.logged_regions += 1;
    ledger.save(&ledger_path).unwrap();
    let head = [
        "sat", "cubes", "officers", "--p", "4", "--band", "0..40", "--out",
    ];
    let said = fails_with_one_line(&[&head[..], &[&out, "--certify"]].concat());
    assert!(said.contains("regions, not the"), "{said}");
    // A log cut short stops the campaign before it solves, unless told to log afresh: then the
    // old log is set aside whole and the new one holds exactly what the ledger counts.
    let log = grundy::sat::certify::log_path(&ledger_path);
    let before = std::fs::read(&log).unwrap();
    std::fs::write(&log, &before[..before.len() - 3]).unwrap();
    let said = fails_with_one_line(&[&head[..], &[&out], &six_calls[2..]].concat());
    assert!(said.contains("(missing or cut)") && said.contains("--drop-region-log"));
    let afresh = [&head[..], &[&out, "--drop-region-log"], &six_calls[2..]].concat();
    assert!(crate::cli::grundy(&afresh).status.success());
    let aside = ledger_path.with_extension("regions.dropped");
    assert_eq!(std::fs::read(aside).unwrap(), &before[..before.len() - 3]);
    let ledger = Ledger::read(&ledger_path).unwrap().unwrap();
    let regions = read_regions(&ledger_path, &ledger).unwrap();
    assert_eq!(regions.len() as u64, ledger.logged_regions);
}

/// A campaign whose log was lost part way cannot be certified, until `--reopen-unlogged` puts
/// the share refuted with no logged region back among its open cubes: refuted again, the band
/// is certified (the certificate going on from the regions it had checked). A second reopening
/// finds nothing, and a ledger with shares dealt out is refused in one line.
#[test]
fn a_band_refuted_partly_unlogged_is_certified_after_reopening() {
    let (dir, out) = with_periods_file();
    let ledger_path = dir.path().join("cubes-p4-feasible-band0-40.json");
    let calls = [
        "--band",
        "0..40",
        "--conflicts",
        "1",
        "--threads",
        "2",
        "--calls",
    ];
    let run = |extra: &[&str]| crate::bounds::p4_cubes(&out, &[&calls[..], extra].concat());
    assert!(run(&["6"]).status.success());
    // Shares out: their part of the band lies in no cube here, so nothing is reopened.
    assert!(run(&["1", "--deal", "2"]).status.success());
    let said = failed_in_one_line(&run(&["1", "--reopen-unlogged"]), "reopen with shares out");
    assert!(said.contains("gather them first"), "{said}");
    assert!(run(&["1", "--gather"]).status.success());
    // The log is lost: the campaign goes on with a new one, and ends UNSAT.
    std::fs::remove_file(grundy::sat::certify::log_path(&ledger_path)).unwrap();
    let before = Ledger::read(&ledger_path).unwrap().unwrap();
    assert!(before.refuted_share > 0.0 && before.verdict() == Verdict::Open);
    assert!(run(&["2", "--drop-region-log"]).status.success());
    let ledger = refuted_in_runs(&out);
    assert_eq!(ledger.verdict(), Verdict::Unsat);
    let certified = |what: &str| {
        let run = certify(&out, &["--prover", "varisat"], None);
        assert!(run.status.success(), "{what}: {run:?}");
        read_certificate(&ledger_path)
    };
    let lost = certified("with the first log lost");
    let unlogged = lost.unlogged_share.unwrap();
    assert!(unlogged > 0.0 && !lost.certified, "{lost:?}");
    // Reopened: the unlogged share goes back to the open cubes, and is refuted again.
    let reopen = run(&["4", "--reopen-unlogged"]);
    assert!(reopen.status.success(), "{reopen:?}");
    assert!(String::from_utf8_lossy(&reopen.stderr).contains("refuted with no region logged"));
    let ledger = refuted_in_runs(&out);
    assert_eq!(ledger.verdict(), Verdict::Unsat);
    assert!(
        (ledger.reopened_share - unlogged).abs() < 1e-12,
        "{ledger:?}"
    );
    assert!(
        ledger
            .progress_line()
            .contains("reopened to log its regions")
    );
    // The summary says the certificate examined fewer regions than the log holds now.
    let summary = crate::cli::grundy(&["sat", "summary", "--out", &out]);
    let stale = format!(
        "{} of {} regions logged then ({} now)",
        lost.checked, lost.regions, ledger.logged_regions
    );
    let told = String::from_utf8_lossy(&summary.stdout);
    assert!(told.contains(&stale), "{summary:?}");
    // What the cover was then is told as then: the pieces lay in no region at that run.
    assert!(
        told.contains("at that run") && !told.contains("lie in no logged region"),
        "{summary:?}"
    );
    let cert = certified("after reopening");
    assert!(
        cert.certified && cert.unlogged_share == Some(0.0),
        "{cert:?}"
    );
    assert!(cert.checked > lost.checked && lost.checked > 0);
    let again = run(&["1", "--reopen-unlogged"]);
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing to reopen"));
    assert_eq!(
        Ledger::read(&ledger_path).unwrap().unwrap().verdict(),
        Verdict::Unsat
    );
    // A log rewritten under its certificate (two regions swapped: the same length and count)
    // no longer matches what the certificate checked: refused in one line.
    let log = grundy::sat::certify::log_path(&ledger_path);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_ne!(lines[1], lines[2]);
    lines.swap(1, 2);
    std::fs::write(
        &log,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let rewritten = certify(&out, &["--prover", "varisat"], None);
    let said = failed_in_one_line(&rewritten, "a rewritten log");
    assert!(said.contains("dropped or rewritten"), "{said}");
    // Dropping the log sets its certificate aside with it.
    std::fs::remove_file(&log).unwrap();
    assert!(run(&["1", "--drop-region-log"]).status.success());
    let cert = grundy::sat::certify::certificate_path(&ledger_path);
    assert!(!cert.exists() && cert.with_extension("json.dropped").exists());
}

/// A real CaDiCaL proof lightened (`grundy::sat::drat`: the deletions of CNF clauses dropped, as
/// `--certify` does with Officers' regions, whose proofs are made of them; the deletions of
/// added clauses kept) is still accepted by rate and by dratify, and cut before the second half
/// of its additions it is refused: what the checkers read is the lightened proof. The question:
/// .56 with period 7, UNSAT (its true period is 6, and 7 is no multiple), a proof of thousands of
/// steps of both kinds.
#[test]
fn a_lightened_proof_is_accepted_by_the_checkers_and_a_cut_one_is_not() {
    use grundy::sat::solve::{
        Answer, CheckError, SolverKind, check_drat_proof, solve_with_proof_checked_by,
    };
    let checkers: Vec<String> = [crate::sat::rate_checker(), drat_checker()]
        .into_iter()
        .flatten()
        .collect();
    if checkers.is_empty() {
        return;
    }
    let problem = crate::sat::game_problem(".56");
    let e =
        grundy::sat::encode::PeriodEncoding::new(&problem.game, problem.space, &problem.rares, 7)
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stem = dir.path().join("p7");
    let (answer, note) = solve_with_proof_checked_by(
        SolverKind::Cadical,
        &e.cnf,
        None,
        &stem,
        (grundy::sat::solve::ProofFormat::Drat, None),
        None,
    )
    .unwrap();
    assert!(matches!(answer, Answer::Unsat));
    let note = note.unwrap();
    let (cnf, proof) = (Path::new(&note.cnf), Path::new(&note.proof));
    let written = std::fs::read_to_string(proof).unwrap();
    let done = grundy::sat::drat::lighten_when(proof, 0).unwrap();
    assert!(
        done.rewritten && done.dropped_deletions > 1000 && done.kept_deletions > 1000,
        "{done:?}"
    );
    let lightened = std::fs::read_to_string(proof).unwrap();
    assert_eq!(lightened.len() as u64, done.bytes_after);
    assert_eq!(written.len() as u64, done.bytes_before);
    let deletions = |text: &str| text.lines().filter(|l| l.starts_with('d')).count() as u64;
    assert_eq!(deletions(&lightened), done.kept_deletions);
    assert_eq!(
        deletions(&written),
        done.kept_deletions + done.dropped_deletions
    );
    for checker in &checkers {
        let by = check_drat_proof(checker, cnf, proof, None);
        assert!(by.is_ok(), "{checker}: {by:?}");
    }
    let lines: Vec<&str> = lightened.lines().collect();
    let additions: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].starts_with('d'))
        .collect();
    assert_eq!(additions.len() as u64, done.additions);
    std::fs::write(proof, lines[..additions[additions.len() / 2]].join("\n")).unwrap();
    for checker in &checkers {
        let by = check_drat_proof(checker, cnf, proof, None);
        assert!(
            matches!(by, Err(CheckError::Refused { .. })),
            "{checker}: {by:?}"
        );
    }
}
