//! `grundy plot`: every kind renders a valid, non-empty PNG and SVG from small fixture data; what
//! is drawn is checked against the naive oracle and mvr's table; bad input gives one line.

use std::path::Path;

use grundy::Game;
use grundy::plot::{Histogram, ValueCloud};
use grundy::values::naive_values;

use crate::cli::{fails_with_one_line, files_in, grundy};
use crate::shared::{path_str, reference};

/// Decodes a PNG; checks its size and that something other than the white background was drawn.
fn assert_png_drawn(path: &Path) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).expect("PNG data");
    assert_eq!((info.width, info.height), grundy::plot::SIZE);
    let inked = pixels.iter().filter(|&&b| b < 200).count();
    assert!(inked > 2000, "{}: only {inked} dark bytes", path.display());
}

fn assert_svg_drawn(path: &Path, caption: &str) -> String {
    let svg = std::fs::read_to_string(path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", path.display());
    assert!(svg.trim_end().ends_with("</svg>"), "{}", path.display());
    assert!(
        svg.contains(caption),
        "{} lacks {caption:?}",
        path.display()
    );
    svg
}

/// Runs `grundy plot ARGS --out DIR/STEM` and checks both files.
fn plot_ok(dir: &Path, stem: &str, args: &[&str], caption: &str) -> String {
    let out = dir.join(stem);
    let mut all = vec!["plot"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", path_str(&out)]);
    let result = grundy(&all);
    assert!(
        result.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    assert_png_drawn(&out.with_extension("png"));
    assert_svg_drawn(&out.with_extension("svg"), caption)
}

const PERIODS_FIXTURE: &str = r#"{"game": ".6", "assumptions": "fixture", "rare_values": 3,
 "last_rare": 9, "results": [
 {"p": 1, "feasible": "excluded", "primitive": "excluded", "pattern": null,
  "pattern_period": null, "how": "excluded", "solver": null, "seconds": 0.0, "variables": 0,
  "clauses": 0, "timeout_seconds": 60.0},
 {"p": 4, "feasible": "sat", "primitive": "sat", "pattern": [2, 3, 8, 9], "pattern_period": 4,
  "how": "solved", "solver": "cadical", "seconds": 0.5, "variables": 10, "clauses": 20,
  "timeout_seconds": 60.0},
 {"p": 8, "feasible": "sat", "primitive": "timeout", "pattern": [2, 3, 8, 9, 2, 3, 8, 9],
  "pattern_period": 4, "how": "lifted from 4", "solver": "cadical", "seconds": 60.0,
  "variables": 10, "clauses": 20, "timeout_seconds": 60.0},
 {"p": 9, "feasible": "unsat", "primitive": "unsat", "pattern": null, "pattern_period": null,
  "how": "solved", "solver": "splr", "seconds": 3.0, "variables": 10, "clauses": 20,
  "timeout_seconds": 60.0}]}"#;

fn timing(name: &str, rate: f64) -> String {
    format!(
        r#"{{"name": "{name}", "values": 1000, "seconds": 1.0, "values_per_sec": {rate}, "checksum": 7}}"#
    )
}

fn bench_fixture() -> String {
    let single = format!(
        r#"{{"ours": {}, "baseline": {}, "ratio": 1.0, "checksums_equal": true}}"#,
        timing("ours", 2e6),
        timing("C speculative", 2e6)
    );
    let verifier = format!(
        r#"{{"ours": {}, "baseline": {}, "ratio": 5.0, "checksums_equal": true}}"#,
        timing("verifier", 6e5),
        timing("C rare_value", 1.2e5)
    );
    format!(
        r#"{{"n": 1000, "repeat": 1, "single": {single}, "verifier": {verifier},
        "scaling": [[1, {}, 1.0], [2, {}, 1.7], [4, {}, 3.1]]}}"#,
        timing("T=1", 2e6),
        timing("T=2", 3.4e6),
        timing("T=4", 6.2e6)
    )
}

#[test]
fn value_figures_render_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let stats = d.join("stats.json");
    let made = grundy(&[
        "stats",
        ".6",
        "-n",
        "3000",
        "--json",
        "--out",
        path_str(&stats),
    ]);
    assert!(made.status.success());
    plot_ok(
        d,
        "histogram",
        &["histogram", path_str(&stats)],
        "G(0..3000)",
    );

    let report = d.join("report.json");
    let made = grundy(&["run", ".6", "--to", "2^14", "--out", path_str(&report)]);
    assert!(made.status.success());
    plot_ok(
        d,
        "histogram-run",
        &["histogram", path_str(&report)],
        "G(0..16384)",
    );

    let mvr = reference("officers_rare_values_mvr.txt");
    plot_ok(
        d,
        "rares",
        &["rares", path_str(&mvr)],
        "the 1584 rare values, the last at heap 20627",
    );
    plot_ok(
        d,
        "values",
        &["values", ".6", "--to", "2000"],
        "G(n) for 0 &lt;= n &lt; 2000",
    );
    plot_ok(
        d,
        "values-45",
        &["values", ".45", "--from", "100", "--to", "700"],
        "G(n) for 100",
    );
}

#[test]
fn the_sat_figure_draws_statuses_reached_bounds_and_whole_campaigns() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let periods = d.join("periods.json");
    std::fs::write(&periods, PERIODS_FIXTURE).unwrap();
    let svg = plot_ok(d, "sat", &["sat", path_str(&periods)], "minimal period");
    assert!(svg.contains("undecided (timeout)") && svg.contains("UNSAT"));
    assert!(!svg.contains("&gt;=200"), "{svg}");
    // The open question of p = 8 (primitive) with a ladder beside the file: its bound is drawn;
    // a rung with a floor that no refuted rung reaches counts for nothing.
    let ladder = d.join("bounds-p8-primitive.json");
    let rung = |from: u16, below: u16| {
        format!(r#"{{"from": {from}, "below": {below}, "answer": "unsat", "seconds": 1.0}}"#)
    };
    let ladder_text = |rungs: &[String]| {
        format!(
            r#"{{"game": ".6", "p": 8, "question": "primitive", "rotation_broken": true,
             "fingerprint": "f", "rungs": [{}]}}"#,
            rungs.join(",")
        )
    };
    std::fs::write(
        &ladder,
        ladder_text(&[rung(0, 192), rung(192, 200), rung(208, 216)]),
    )
    .unwrap();
    let svg = plot_ok(
        d,
        "sat-bounds",
        &["sat", path_str(&periods)],
        "minimal period",
    );
    assert!(
        svg.contains("&gt;=200") && !svg.contains("&gt;=216"),
        "{svg}"
    );
    std::fs::write(&ladder, "{ not a ladder").unwrap();
    let line = fails_with_one_line(&["plot", "sat", path_str(&periods), "--out", "x"]);
    assert!(line.contains("bounds-p8-primitive.json"), "{line}");
    std::fs::remove_file(&ladder).unwrap();
    // An open question's bar is its whole campaign: with 5000 s of an earlier run of p = 8 the
    // axis reaches 10000 s; with the last run's 60 s alone it stops below 1000.
    let label = |svg: &str, text: &str| svg.lines().any(|l| l.trim() == text);
    assert!(!label(&svg, "1000") && !label(&svg, "10000"), "{svg}");
    let earlier = r#""earlier": [{"seed": 1, "how": "searched", "seconds": 5000.0,
  "timeout_seconds": 5000.0}], "variables": 10, "clauses": 20,
  "timeout_seconds": 60.0},
 {"p": 9"#;
    let campaign = PERIODS_FIXTURE.replacen(
        r#""variables": 10, "clauses": 20, "timeout_seconds": 60.0},
 {"p": 9"#,
        earlier,
        1,
    );
    assert_ne!(campaign, PERIODS_FIXTURE);
    std::fs::write(&periods, campaign).unwrap();
    let svg = plot_ok(
        d,
        "sat-campaign",
        &["sat", path_str(&periods)],
        "minimal period",
    );
    assert!(label(&svg, "10000"), "{svg}");
}

#[test]
fn the_scaling_figure_draws_each_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bench = d.join("bench.json");
    std::fs::write(&bench, bench_fixture()).unwrap();
    let svg = plot_ok(d, "scaling", &["scaling", path_str(&bench)], "1000 values");
    assert!(svg.contains("C speculative (1 thread)") && svg.contains("C rare_value (1 thread)"));
}

#[test]
fn the_cloud_draws_every_rare_value_of_the_oracle() {
    // Officers' rare rule from the papers: popcount(v & !0x11) even.
    let officers: Game = ".6".parse().unwrap();
    let naive = naive_values(&officers, 3000).unwrap();
    let rare_by_paper: Vec<(u64, u16)> = (500..3000)
        .filter(|&n| (naive[n] & !0x11).count_ones().is_multiple_of(2))
        .map(|n| (n as u64, naive[n]))
        .collect();
    let cloud = ValueCloud::compute(&officers, 500, 3000).unwrap();
    let drawn_rare: Vec<(u64, u16)> = cloud
        .points
        .iter()
        .filter(|p| p.2)
        .map(|p| (p.0, p.1))
        .collect();
    assert_eq!(drawn_rare, rare_by_paper);
    for &(n, v, _) in &cloud.points {
        assert_eq!(v, naive[n as usize], "heap {n}");
    }
    // Sampled: a long range keeps every rare value and thins the common ones.
    let long = ValueCloud::compute(&officers, 0, 100_000).unwrap();
    let rares = long.points.iter().filter(|p| p.2).count();
    assert_eq!(rares, 1584, "mvr's table has 1584 rare values below 100000");
    assert!(long.points.len() <= grundy::plot::MAX_CLOUD_POINTS + rares);
}

/// The smallest `d` dividing `pattern.len()` with `pattern[i] = pattern[i + d]` throughout.
fn smallest_repeat(pattern: &[u16]) -> usize {
    let p = pattern.len();
    (1..=p)
        .find(|&d| p.is_multiple_of(d) && (0..p).all(|i| pattern[i] == pattern[(i + d) % p]))
        .unwrap()
}

#[test]
fn the_maxima_figure_draws_riley_s_patterns_and_the_open_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Riley's published patterns as a periods file, each with its own smallest repeat; p = 27
    // open with a ladder refuted below 256, p = 29 open without one.
    // (Riley's patterns are all primitive, so a lifted one is added below.)
    let riley: Vec<(usize, Vec<u16>)> = crate::sat::riley()
        .into_iter()
        .filter_map(|(p, pattern)| Some((p, pattern?)))
        .collect();
    assert!(riley.len() >= 15, "Riley lists patterns for most p <= 26");
    let row = |p: usize, status: &str, pattern: Option<&Vec<u16>>| {
        serde_json::json!({"p": p, "feasible": status, "primitive": status, "pattern": pattern,
            "pattern_period": pattern.map(|x| smallest_repeat(x)), "how": "fixture",
            "solver": null, "seconds": 1.0, "variables": 0, "clauses": 0,
            "timeout_seconds": 60.0})
    };
    let mut rows: Vec<serde_json::Value> =
        riley.iter().map(|(p, x)| row(*p, "sat", Some(x))).collect();
    // A lifted pattern (p = 23's twice as p = 46) is its divisor's point, not one of p = 46.
    let (_, p23) = riley.iter().find(|(p, _)| *p == 23).unwrap();
    rows.push(row(46, "sat", Some(&p23.repeat(2))));
    // Patterns of earlier runs: p = 19's own is drawn again as a ring, p = 23's kept under
    // p = 46 is not a pattern of minimal period 46 and is left out.
    let (_, p19) = riley.iter().find(|(p, _)| *p == 19).unwrap();
    let kept = |pattern: &[u16]| {
        serde_json::json!([{"seed": 1, "how": "x", "seconds": 1.0,
        "pattern": pattern}])
    };
    for (p, pattern) in [(19, p19.clone()), (46, p23.repeat(2))] {
        let at = rows.iter().position(|r| r["p"] == p).unwrap();
        rows[at]["earlier"] = kept(&pattern);
    }
    rows.push(row(27, "timeout", None));
    rows.push(row(29, "timeout", None));
    let periods = d.join("periods.json");
    let file = serde_json::json!({"game": ".6", "assumptions": "fixture", "rare_values": 1584,
        "last_rare": 20627, "results": rows});
    std::fs::write(&periods, file.to_string()).unwrap();
    std::fs::write(
        d.join("bounds-p27-feasible.json"),
        r#"{"game": ".6", "p": 27, "question": "feasible", "rotation_broken": true,
        "fingerprint": "f", "rungs": [{"below": 256, "answer": "unsat", "seconds": 1.0}]}"#,
    )
    .unwrap();
    // A solved period's ladder is a floor under its pattern.
    std::fs::write(
        d.join("bounds-p17-feasible.json"),
        r#"{"game": ".6", "p": 17, "question": "feasible", "rotation_broken": true,
        "fingerprint": "f", "rungs": [{"below": 200, "answer": "unsat", "seconds": 1.0}]}"#,
    )
    .unwrap();

    let maxima = grundy::plot::PatternMaxima::read(&periods).unwrap();
    let expected: Vec<(u64, u16)> = riley
        .iter()
        .filter(|(p, x)| smallest_repeat(x) == *p)
        .map(|(p, x)| (*p as u64, *x.iter().max().unwrap()))
        .collect();
    assert!(
        expected.len() >= 10,
        "most of Riley's patterns are primitive"
    );
    assert_eq!(maxima.patterns, expected);
    assert_eq!(maxima.open, vec![(27, 256), (29, 0)]);
    assert_eq!(maxima.floors, vec![(17, 200)]);
    assert_eq!(maxima.earlier, vec![(19, *p19.iter().max().unwrap())]);
    let svg = plot_ok(
        d,
        "maxima",
        &["maxima", path_str(&periods)],
        "the largest value of a pattern of minimal period p",
    );
    assert!(
        svg.contains("odd p")
            && svg.contains("open: where")
            && svg.contains("solved: no pattern")
            && svg.contains("an earlier pattern"),
        "{svg}"
    );
}

#[test]
fn the_histogram_counts_the_oracles_values() {
    let officers: Game = ".6".parse().unwrap();
    let naive = naive_values(&officers, 2000).unwrap();
    let stats = grundy::stats::Stats::from_values(&officers, &naive, grundy::SparseSpace::OFFICERS);
    let histogram = Histogram::from_stats(&stats);
    for (v, count) in histogram.bars {
        assert_eq!(
            count,
            naive.iter().filter(|&&x| x == v).count() as u64,
            "{v}"
        );
    }
    assert!(histogram.space.is_some());
}

#[test]
fn bad_plot_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("fig");
    let out = path_str(&out);
    let missing = d.join("missing.json");
    let line = fails_with_one_line(&["plot", "sat", path_str(&missing), "--out", out]);
    assert!(line.contains("cannot read"), "{line}");
    let garbage = d.join("garbage.json");
    std::fs::write(&garbage, "{\"not\": \"a periods file\"}").unwrap();
    for kind in ["histogram", "sat", "maxima", "scaling", "rares"] {
        let line = fails_with_one_line(&["plot", kind, path_str(&garbage), "--out", out]);
        assert!(line.contains("garbage.json"), "{kind}: {line}");
    }
    fails_with_one_line(&[
        "plot", "values", ".6", "--from", "10", "--to", "5", "--out", out,
    ]);
    fails_with_one_line(&["plot", "values", "--out", out]);
    let files: Vec<String> = files_in(d)
        .into_iter()
        .filter(|f| f.starts_with("fig"))
        .collect();
    assert!(files.is_empty(), "left behind: {files:?}");
}
