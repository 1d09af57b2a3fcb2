//! Period search from scratch against the published periods of `../shared/reference`, and the
//! certificates against the naive generator.

use std::process::Command;

use grundy::Game;
use grundy::period::{Outcome, find_period};
use grundy::run::{RunConfig, run};
use grundy::values::{checksum, naive_values};

use crate::shared::{path_str, solved_games};

#[test]
fn every_solved_game_gets_its_published_period_from_scratch() {
    let rows: Vec<_> = solved_games()
        .into_iter()
        .filter(|r| r.code != ".1777")
        .collect();
    assert_eq!(rows.len(), 15);
    for row in rows {
        let game: Game = row.code.parse().unwrap();
        let Outcome::Proven(cert) = find_period(&game, 1 << 22, &mut |_| {}).unwrap() else {
            panic!("{}: no period found", row.code);
        };
        assert_eq!(
            (Some(cert.preperiod), cert.period),
            (row.preperiod, row.period),
            "{}",
            row.code
        );
        assert_eq!(
            cert.checked_to,
            2 * cert.preperiod + 2 * cert.period + game.max_take() as u64
        );
    }
}

#[test]
fn small_certificates_hold_on_naive_values() {
    // The naive oracle, not the generator that produced the certificate.
    for code in [".45", ".4", ".137", ".77", ".176", ".055"] {
        let game: Game = code.parse().unwrap();
        let Outcome::Proven(cert) = find_period(&game, 1 << 20, &mut |_| {}).unwrap() else {
            panic!("{code}")
        };
        let (p, d, top) = (
            cert.period as usize,
            cert.preperiod as usize,
            cert.checked_to as usize,
        );
        let g = naive_values(&game, top + 1).unwrap();
        assert!((d + p..=top).all(|n| g[n] == g[n - p]), "{code}");
        assert!(
            d == 0 || g[d - 1] != g[d - 1 + p],
            "{code}: preperiod not minimal"
        );
        assert_eq!(checksum(&g), cert.checksum, "{code}");
    }
}

#[test]
fn officers_to_2_22_has_no_period() {
    let (report, _) = run(RunConfig::new(Game::officers(), 1 << 22), &mut |_| {}).unwrap();
    assert_eq!(report.verified_to, 1 << 22);
    assert_eq!(report.period, None);
    assert_eq!(report.period_searched_to, 1 << 22);
}

#[test]
fn period_command_writes_a_certificate_or_says_none() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cert.json");
    let ok = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["period", ".356", "--out", path_str(&out)])
        .output()
        .unwrap();
    assert!(ok.status.success());
    let cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (cert["preperiod"].as_u64(), cert["period"].as_u64()),
        (Some(7315), Some(142))
    );
    let none = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["period", "officers", "--max", "2^16"])
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&none.stderr)
            .trim_end()
            .lines()
            .count(),
        1
    );
}
