//! The SAT foundation against Riley's published patterns and excluded periods, and against the
//! true periodic tail of a solved game.

use std::process::Command;

use grundy::io::RareTable;
use grundy::sat::encode::{EncodeError, PeriodEncoding};
use grundy::sat::exclusions::excluded_by;
use grundy::sat::witness::check_pattern;
use grundy::{ExactGenerator, Game, SparseSpace};

use crate::shared::{read_reference, reference, solved_games};

/// Riley's list: (p, Some(pattern)) or (p, None) for excluded periods.
fn riley() -> Vec<(usize, Option<Vec<u16>>)> {
    read_reference("mvr_sat_feasible_period_patterns.txt")
        .lines()
        .filter_map(|l| l.strip_prefix("p="))
        .map(|l| {
            let mut words = l.split_whitespace();
            let p: usize = words.next().unwrap().parse().unwrap();
            let rest: Vec<&str> = words.collect();
            let pattern = (rest != ["None"]).then(|| {
                rest.iter()
                    .map(|w| w.parse().unwrap())
                    .collect::<Vec<u16>>()
            });
            (p, pattern)
        })
        .collect()
}

fn officers_rares() -> Vec<(u64, u16)> {
    RareTable::read(&reference("officers_rare_values_mvr.txt"))
        .unwrap()
        .rares
}

#[test]
fn every_published_pattern_is_a_fixed_point() {
    let rares = officers_rares();
    let rows = riley();
    assert_eq!(rows.len(), 26);
    for (p, pattern) in rows.iter().filter_map(|(p, s)| s.as_ref().map(|s| (p, s))) {
        assert_eq!(pattern.len(), *p);
        check_pattern(&Game::officers(), SparseSpace::OFFICERS, &rares, pattern)
            .unwrap_or_else(|e| panic!("p={p}: {e}"));
        // Any rotation is a fixed point too; a changed value is not.
        let mut rotated = pattern.clone();
        rotated.rotate_left(1);
        assert!(check_pattern(&Game::officers(), SparseSpace::OFFICERS, &rares, &rotated).is_ok());
        let mut changed = pattern.clone();
        changed[0] ^= 4;
        assert!(
            check_pattern(&Game::officers(), SparseSpace::OFFICERS, &rares, &changed).is_err(),
            "p={p}"
        );
    }
}

#[test]
fn published_patterns_satisfy_the_encoding_and_changed_ones_do_not() {
    let rares = officers_rares();
    for (p, pattern) in riley()
        .into_iter()
        .filter_map(|(p, s)| s.map(|s| (p, s)))
        .filter(|(p, _)| *p <= 12)
    {
        let e = PeriodEncoding::new(&Game::officers(), SparseSpace::OFFICERS, &rares, p).unwrap();
        let a = e.assignment_for(&pattern).unwrap();
        assert_eq!(e.cnf.first_violated(&a), None, "p={p}");
        assert_eq!(e.decode(&a), pattern);
        let mut changed = pattern.clone();
        changed[p / 2] ^= 6; // bits 1 and 2 are both in the mask: still common, and below 512
        let a = e.assignment_for(&changed).unwrap();
        assert!(
            e.cnf.first_violated(&a).is_some(),
            "p={p}: a changed pattern satisfies the encoding"
        );
    }
}

#[test]
fn excluded_periods_are_rileys() {
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    let losing: Vec<u64> = (0..g.values().len())
        .filter(|&n| g.values()[n] == 0)
        .map(|n| n as u64)
        .collect();
    for (p, pattern) in riley() {
        assert_eq!(
            excluded_by(p as u64, &losing).is_some(),
            pattern.is_none(),
            "p={p}"
        );
    }
}

#[test]
fn a_solved_games_true_tail_is_a_model() {
    // .45: preperiod 498, period 20 (shared table); its tail from heap 498 is a fixed point.
    let row = solved_games()
        .into_iter()
        .find(|r| r.code == ".45")
        .unwrap();
    let game: Game = row.code.parse().unwrap();
    let (pre, p) = (row.preperiod.unwrap() as usize, row.period as usize);
    let mut g = ExactGenerator::new(&game);
    g.extend_to(pre + 3 * p).unwrap();
    let rares: Vec<(u64, u16)> = g.rares().map(|(a, v)| (a as u64, v)).collect();
    let tail = g.values()[pre..pre + p].to_vec();
    check_pattern(&game, g.space(), &rares, &tail).unwrap();
    let e = PeriodEncoding::new(&game, g.space(), &rares, p).unwrap();
    assert_eq!(
        e.cnf.first_violated(&e.assignment_for(&tail).unwrap()),
        None
    );
    // The values before the preperiod are not a periodic tail.
    let early = g.values()[pre - p..pre].to_vec();
    assert!(check_pattern(&game, g.space(), &rares, &early).is_err());
}

#[test]
fn bad_input_is_refused() {
    let rares = officers_rares();
    assert_eq!(
        PeriodEncoding::new(&Game::officers(), SparseSpace::OFFICERS, &rares, 0).unwrap_err(),
        EncodeError::ZeroPeriod
    );
    assert_eq!(
        PeriodEncoding::new(&Game::officers(), SparseSpace::OFFICERS, &[], 4).unwrap_err(),
        EncodeError::NoRares
    );
    let grundy = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .output()
            .unwrap()
    };
    for args in [
        ["sat", "export", "officers", "--p", "0"],
        ["sat", "excluded", "officers", "--periods", "10..5"],
    ] {
        let out = grundy(&args);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr)
                .trim_end()
                .lines()
                .count(),
            1,
            "{args:?}"
        );
    }
    let out = grundy(&["sat", "check", "officers", "--pattern", "121,156,126,155"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = grundy(&["sat", "check", "officers", "--pattern", "121,156,126,154"]);
    assert!(!out.status.success());
}

#[test]
fn dimacs_export_has_the_promised_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p4.cnf");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "sat",
            "export",
            "officers",
            "--p",
            "4",
            "--out",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
    let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .count(),
        clauses
    );
}
