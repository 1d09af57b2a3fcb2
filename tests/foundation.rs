//! Values, rare tables and statistics against independent oracles.

use rayon::prelude::*;

use grundy::game::all_games;
use grundy::io::RareTable;
use grundy::stats::Stats;
use grundy::values::{checksum, naive_values};
use grundy::{ExactGenerator, Game, SparseSpace};

use crate::shared::{
    baseline_checksum, officers_reference_values, read_reference, reference, solved_games,
};

fn exact(game: &Game, n: usize) -> ExactGenerator {
    let mut generator = ExactGenerator::new(game);
    generator
        .extend_to(n)
        .unwrap_or_else(|e| panic!("{game}: {e}"));
    generator
}

fn assert_exact_equals_naive(game: &Game, n: usize) {
    let naive = naive_values(game, n).unwrap();
    let fast = exact(game, n);
    if let Some(i) = (0..n).find(|&i| naive[i] != fast.values()[i]) {
        panic!(
            "{game}: G({i}) naive {} exact {} (space {})",
            naive[i],
            fast.values()[i],
            fast.space()
        );
    }
}

#[test]
fn exact_equals_naive_for_every_code_of_three_digits() {
    let games = all_games(3, false)
        .into_iter()
        .chain(all_games(2, true).into_iter().filter(|g| g.digit(0) == 4));
    let games: Vec<Game> = games.collect();
    assert_eq!(games.len(), 511 + 64);
    games
        .par_iter()
        .for_each(|g| assert_exact_equals_naive(g, 2000));
}

#[test]
fn exact_equals_naive_for_the_solved_games() {
    let games = solved_games();
    assert!(games.len() >= 15);
    games.par_iter().for_each(|row| {
        let game: Game = row.code.parse().unwrap();
        assert_exact_equals_naive(&game, 20000);
    });
}

#[test]
fn values_beyond_eight_bits() {
    // .04 and .06 pass 255 within 2^14 heaps; they use 16-bit values and a position-type space.
    for code in [".04", ".06"] {
        let game: Game = code.parse().unwrap();
        let n = 1 << 14;
        let fast = exact(&game, n);
        assert_eq!(
            fast.values(),
            naive_values(&game, n).unwrap().as_slice(),
            "{code}"
        );
        assert!(
            *fast.values().iter().max().unwrap() > 255,
            "{code} stays below 256"
        );
    }
}

#[test]
fn officers_first_98304_values_equal_mvr() {
    let reference = officers_reference_values();
    let fast = exact(&Game::officers(), reference.len());
    if let Some(i) = (0..reference.len()).find(|&i| reference[i] != fast.values()[i]) {
        panic!(
            "G({i}) = {} but mvr says {}",
            fast.values()[i],
            reference[i]
        );
    }
    assert_eq!(fast.space(), SparseSpace::OFFICERS);
}

#[test]
fn officers_rare_table_equals_mvr() {
    let fast = exact(&Game::officers(), 98304);
    let ours = RareTable::from_generator(&fast);
    let theirs = RareTable::read(&reference("officers_rare_values_mvr.txt")).unwrap();
    assert_eq!(ours.first_difference(&theirs), None);
    assert_eq!(ours.rares.len(), 1584);
}

#[test]
fn committed_rare_table_equals_mvr() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/officers/rare-table.tsv");
    let committed = RareTable::read(&path).unwrap();
    let theirs = RareTable::read(&reference("officers_rare_values_mvr.txt")).unwrap();
    assert_eq!(committed.first_difference(&theirs), None);
    assert_eq!(committed.game, Some(Game::officers()));
}

/// The losing positions as the reference README states them ("... are exactly 0, 1, 4, ...;").
fn readme_losing_positions() -> Vec<u64> {
    let readme = read_reference("README.md").replace('\n', " ");
    let after = readme
        .split("are exactly")
        .nth(1)
        .expect("README lists losing positions");
    let list = after.split(['(', ';']).next().unwrap();
    list.split(',')
        .map(|t| t.trim().parse().expect("position"))
        .collect()
}

#[test]
fn officers_losing_positions_are_the_fourteen_known() {
    let known = readme_losing_positions();
    assert_eq!(known.len(), 14);
    let fast = exact(&Game::officers(), 98304);
    let stats = Stats::from_values(&Game::officers(), fast.values(), fast.space());
    assert_eq!(stats.losing_positions, known);
    // The README also gives the largest value below 98304.
    assert_eq!((stats.max_value, stats.max_first_at), (285, 89634));
    assert_eq!(stats.rare_count, 1584);
    assert_eq!(stats.last_rare, Some(20627));
}

#[test]
fn officers_checksum_equals_the_c_baseline() {
    let n = 98304;
    let fast = exact(&Game::officers(), n);
    assert_eq!(
        checksum(fast.values()),
        baseline_checksum("rare_value", n as u64)
    );
}

#[test]
fn solved_games_reach_their_published_largest_value() {
    // Column max_value of the shared table, reached before 2 preperiods + 2 periods.
    for row in solved_games() {
        let (Some(pre), Some(max)) = (row.preperiod, row.max_value) else {
            continue;
        };
        let n = (2 * pre + 2 * row.period + 64) as usize;
        if n > 400_000 {
            continue; // .16 is covered by the period tests
        }
        let game: Game = row.code.parse().unwrap();
        let fast = exact(&game, n);
        assert_eq!(*fast.values().iter().max().unwrap(), max, "{}", row.code);
    }
}

#[test]
fn automatic_sparse_space_matches_the_published_one() {
    // Mask, rare count and last rare of the shared table, found from scratch by the generator.
    let rows: Vec<_> = solved_games()
        .into_iter()
        .filter(|r| r.sparse.is_some())
        .collect();
    assert!(rows.len() >= 4);
    rows.par_iter().for_each(|row| {
        let (mask, count, last) = row.sparse.unwrap();
        let game: Game = row.code.parse().unwrap();
        let fast = exact(&game, 200_000);
        assert_eq!(
            fast.space(),
            SparseSpace {
                mask,
                by_position: false
            },
            "{}",
            row.code
        );
        assert_eq!(fast.rares().len() as u64, count, "{}", row.code);
        assert_eq!(
            fast.rares().last().map(|r| r.0 as u64),
            Some(last),
            "{}",
            row.code
        );
    });
}

#[test]
fn committed_summary_agrees_with_the_reference_readme() {
    // The reference README: below 2^21 the largest value is 319 (at 1274955), same 14 losing positions.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/officers/summary.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(json["count"], 1 << 21);
    assert_eq!(
        (json["max_value"].as_u64(), json["max_first_at"].as_u64()),
        (Some(319), Some(1274955))
    );
    assert_eq!(
        json["losing_positions"],
        serde_json::json!(readme_losing_positions())
    );
    assert_eq!(
        (json["rare_count"].as_u64(), json["last_rare"].as_u64()),
        (Some(1584), Some(20627))
    );
}
