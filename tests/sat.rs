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
    let losing = grundy::sat::exclusions::losing_positions(g.values());
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

fn officers_problem() -> grundy::sat::periods::Problem {
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 16).unwrap();
    // The rare table from mvr's published file, the rest from the generator.
    grundy::sat::periods::Problem {
        rares: officers_rares(),
        ..grundy::sat::periods::Problem::from_prefix(&g)
    }
}

#[test]
fn the_three_solvers_agree_on_small_periods() {
    use grundy::sat::solve::{Answer, SolverKind, solve};
    let rares = officers_rares();
    for p in [3, 4, 5] {
        let e = PeriodEncoding::new(&Game::officers(), SparseSpace::OFFICERS, &rares, p).unwrap();
        let mut answers = Vec::new();
        for kind in [SolverKind::Cadical, SolverKind::Splr, SolverKind::Varisat] {
            let answer = solve(kind, &e.cnf, Some(std::time::Duration::from_secs(120))).unwrap();
            if let Answer::Sat(model) = &answer {
                assert_eq!(e.cnf.first_violated(model), None, "{kind:?} p={p}");
                check_pattern(
                    &Game::officers(),
                    SparseSpace::OFFICERS,
                    &rares,
                    &e.decode(model),
                )
                .unwrap();
            }
            answers.push(matches!(answer, Answer::Sat(_)));
        }
        // Riley: 3 and 5 are excluded (so unsatisfiable), 4 has a pattern.
        assert_eq!(answers, vec![p == 4; 3], "p={p}");
    }
}

#[test]
fn statuses_up_to_12_are_rileys() {
    use grundy::sat::periods::{PeriodsFile, Status, decide_all, minimal_period};
    use grundy::sat::solve::SolverKind;
    let problem = officers_problem();
    let file = PeriodsFile::new(&problem);
    let timeout = Some(std::time::Duration::from_secs(120));
    let results = decide_all(
        &problem,
        1..=12,
        SolverKind::Cadical,
        timeout,
        2,
        &file,
        &|_| {},
    )
    .unwrap();
    for ((p, published), r) in riley().into_iter().take(12).zip(&results) {
        assert_eq!(r.p, p as u64);
        let expected = if published.is_some() {
            Status::Sat
        } else {
            Status::Excluded
        };
        assert_eq!((r.feasible, r.primitive), (expected, expected), "p={p}");
        if let Some(s) = &r.pattern {
            check_pattern(&Game::officers(), SparseSpace::OFFICERS, &problem.rares, s).unwrap();
            assert_eq!(
                minimal_period(s),
                p,
                "p={p}: the reported pattern is not primitive"
            );
        }
    }
}

#[test]
fn results_merge_without_losing_decided_answers() {
    use grundy::sat::periods::{PeriodResult, PeriodsFile, Status};
    let mut file = PeriodsFile::new(&officers_problem());
    let result = |p: u64, s: Status| PeriodResult {
        p,
        feasible: s,
        primitive: s,
        pattern: None,
        pattern_period: None,
        how: String::new(),
        solver: None,
        seconds: 1.0,
        variables: 0,
        clauses: 0,
        timeout_seconds: None,
    };
    file.merge(vec![result(27, Status::Timeout), result(4, Status::Sat)]);
    file.merge(vec![
        result(4, Status::Timeout),
        result(27, Status::Unsat),
        result(6, Status::Sat),
    ]);
    let statuses: Vec<(u64, Status)> = file.results.iter().map(|r| (r.p, r.feasible)).collect();
    assert_eq!(
        statuses,
        vec![(4, Status::Sat), (6, Status::Sat), (27, Status::Unsat)]
    );
}

#[test]
fn sat_command_writes_and_merges_its_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let run = |periods: &str| {
        Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args([
                "sat",
                "officers",
                "--periods",
                periods,
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    assert!(run("1..5").status.success());
    assert!(run("6..7").status.success());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let ps: Vec<u64> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["p"].as_u64().unwrap())
        .collect();
    assert_eq!(ps, (1..=7).collect::<Vec<_>>());
    // A file that is not a periods file is refused and left as it was.
    std::fs::write(&out, "garbage").unwrap();
    let refused = run("1..2");
    assert!(!refused.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "garbage");
}

#[test]
fn committed_periods_agree_with_riley_and_their_patterns_check() {
    use grundy::sat::periods::{PeriodsFile, Status, minimal_period};
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/officers/periods.json");
    let file: PeriodsFile = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rares = officers_rares();
    let published = riley();
    for r in &file.results {
        if let Some(s) = &r.pattern {
            check_pattern(&Game::officers(), SparseSpace::OFFICERS, &rares, s)
                .unwrap_or_else(|e| panic!("p={}: {e}", r.p));
            assert_eq!(Some(minimal_period(s) as u64), r.pattern_period);
        }
        if r.primitive == Status::Sat {
            assert_eq!(
                r.pattern_period,
                Some(r.p),
                "p={}: primitive without a primitive pattern",
                r.p
            );
        }
        if let Some((_, p_pattern)) = published.iter().find(|(p, _)| *p as u64 == r.p) {
            let expected = if p_pattern.is_some() {
                Status::Sat
            } else {
                Status::Excluded
            };
            for status in [r.feasible, r.primitive] {
                assert!(
                    status == expected || status == Status::Timeout,
                    "p={}: {status:?} against Riley",
                    r.p
                );
            }
        }
    }
}
