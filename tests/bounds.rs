//! Value bounds (`grundy sat bounds`): every rung's answer against a brute-force search over
//! patterns built from mvr's rare table (third-party data), resuming, and bad input.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value as Json;

use crate::cli::{failed_in_one_line, fails_with_one_line, grundy};
use crate::sat::{riley, riley_status};
use crate::shared::{path_str, read_reference};

/// Officers' rare values from mvr's table: (heap, value).
fn mvr_rares() -> Vec<(usize, u16)> {
    read_reference("officers_rare_values_mvr.txt")
        .lines()
        .filter_map(|line| {
            let (n, v) = line.trim().split_once(',')?;
            Some((n.parse().ok()?, v.parse().ok()?))
        })
        .collect()
}

/// Common values of Officers: an odd number of bits outside 0x11.
fn is_common(v: u16) -> bool {
    (v & !0x11).count_ones() % 2 == 1
}

/// The rule written out for period `p`: `by_shift[t]` holds the rare values of heaps `n` with
/// `n + 1 = t (mod p)`, so the options of residue `r` are `v ^ s[(r - t) mod p]`.
pub(crate) struct Rule {
    p: usize,
    by_shift: Vec<HashSet<u16>>,
}

impl Rule {
    pub(crate) fn officers(p: usize) -> Rule {
        let mut by_shift = vec![HashSet::new(); p];
        for (n, v) in mvr_rares() {
            by_shift[(n + 1) % p].insert(v);
        }
        Rule { p, by_shift }
    }

    /// `s[r]` is the smallest common value that is not an option of `r`.
    fn fixed_at(&self, s: &[u16], r: usize) -> bool {
        let p = self.p;
        let options: HashSet<u16> = (0..p)
            .flat_map(|t| self.by_shift[t].iter().map(move |v| v ^ s[(r + p - t) % p]))
            .collect();
        (0..).find(|&v| is_common(v) && !options.contains(&v)) == Some(s[r])
    }

    /// Whether `a` at residue `i` and `b` at `j` can stand together: neither is an option of
    /// the other's residue through the other (a necessary condition, used to prune).
    fn compatible(&self, i: usize, a: u16, j: usize, b: u16) -> bool {
        let p = self.p;
        !self.by_shift[(i + p - j) % p].contains(&(a ^ b))
            && !self.by_shift[(j + p - i) % p].contains(&(a ^ b))
    }

    /// Every fixed point with all its values in `values`, by backtracking.
    fn fixed_points(&self, values: &[u16]) -> Vec<Vec<u16>> {
        let mut found = Vec::new();
        // 0 among the rare values of shift 0: every residue is its own option (p excluded).
        if !self.by_shift[0].contains(&0) {
            self.extend(values, &mut Vec::new(), &mut found);
        }
        found
    }

    /// The least largest value of the fixed points with every value below `bound`.
    pub(crate) fn least_largest_below(&self, bound: u16) -> Option<u16> {
        let found = self.fixed_points(&common_below(bound));
        found.iter().filter_map(|s| s.iter().copied().max()).min()
    }

    fn extend(&self, values: &[u16], s: &mut Vec<u16>, found: &mut Vec<Vec<u16>>) {
        let i = s.len();
        if i == self.p {
            if (0..self.p).all(|r| self.fixed_at(s, r)) {
                found.push(s.clone());
            }
            return;
        }
        for &a in values {
            if (0..i).all(|j| self.compatible(i, a, j, s[j])) {
                s.push(a);
                self.extend(values, s, found);
                s.pop();
            }
        }
    }
}

fn common_below(bound: u16) -> Vec<u16> {
    (0..bound).filter(|&v| is_common(v)).collect()
}

pub(crate) fn ladder_json(path: &std::path::Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A rung's band and answer, as the ladder file has them.
fn band_answer(rung: &Json) -> (Option<u64>, Option<u64>, Option<&str>) {
    let field = |name: &str| rung[name].as_u64();
    (field("from"), field("below"), rung["answer"].as_str())
}

/// The last rung of a ladder file: the try a run made or went on with last.
fn last_rung(path: &std::path::Path) -> Json {
    ladder_json(path)["rungs"]
        .as_array()
        .unwrap()
        .last()
        .cloned()
        .unwrap()
}

/// A rung of a ladder file: its band `from..below` (`from` 0 when the file has none), and
/// its answer.
fn rungs_of(ladder: &Json) -> Vec<(u16, u16, String)> {
    let rungs = ladder["rungs"].as_array().unwrap().iter();
    rungs
        .map(|r| {
            let from = r.get("from").map_or(0, |f| f.as_u64().unwrap() as u16);
            let below = r["below"].as_u64().unwrap() as u16;
            (from, below, r["answer"].as_str().unwrap().to_string())
        })
        .collect()
}

/// The highest bound `V` the refuted rungs cover from 0 (each band starting at or below where
/// the one before ended), and the ladder's pattern.
fn refuted_and_pattern(ladder: &Json) -> (u16, Vec<u16>) {
    let refuted = rungs_of(ladder);
    let refuted: Vec<_> = refuted.iter().filter(|r| r.2 == "unsat").collect();
    let mut reached = 0;
    while let Some(next) = refuted
        .iter()
        .filter(|r| r.0 <= reached && r.1 > reached)
        .map(|r| r.1)
        .max()
    {
        reached = next;
    }
    let pattern = ladder["pattern"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u16)
        .collect();
    (reached, pattern)
}

/// Every rung's answer against the brute force: UNSAT exactly when no fixed point has its
/// largest value in the rung's band. Returns how many rungs had a floor.
fn every_rung_agrees(rule: &Rule, ladder: &Json) -> usize {
    let rungs = rungs_of(ladder);
    for (from, below, answer) in &rungs {
        let in_band = rule
            .fixed_points(&common_below(*below))
            .into_iter()
            .any(|s| s.iter().max() >= Some(from));
        match answer.as_str() {
            "unsat" => assert!(!in_band, "a pattern in {from}..{below}, refuted"),
            "sat" => assert!(in_band, "no pattern in {from}..{below}, found one"),
            other => panic!("rung {from}..{below}: {other}"),
        }
    }
    rungs.iter().filter(|r| r.0 > 0).count()
}

#[test]
fn every_rung_of_p4_agrees_with_a_brute_force_search() {
    let banded = ladders_of_p4_against_brute_force(&[]);
    assert!(banded > 0, "no rung was a band from a refuted bound");
}

#[test]
fn every_incremental_rung_of_p4_agrees_with_a_brute_force_search() {
    let banded = ladders_of_p4_against_brute_force(&["--incremental"]);
    assert!(banded > 0, "no rung was a band from a refuted bound");
}

#[test]
fn every_rung_of_p4_split_over_threads_agrees_with_a_brute_force_search() {
    let banded = ladders_of_p4_against_brute_force(&["--threads", "2"]);
    assert!(banded > 0, "no rung was a band from a refuted bound");
}

#[test]
fn every_rung_of_p4_under_the_unsat_preset_agrees_with_a_brute_force_search() {
    let banded = ladders_of_p4_against_brute_force(&["--preset", "unsat"]);
    assert!(banded > 0, "no rung was a band from a refuted bound");
}

#[test]
fn with_rotation_kept_every_rung_of_p4_agrees_with_a_brute_force_search() {
    let banded = ladders_of_p4_against_brute_force(&["--keep-rotation"]);
    assert_eq!(banded, 0, "bands need a largest value first");
}

/// A coarse ladder of p = 4 and then a fine one between its highest refuted bound and its
/// pattern, run with `extra`, each rung checked by a brute-force search. Returns how many
/// rungs had a floor.
fn ladders_of_p4_against_brute_force(extra: &[&str]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let periods = dir.path().join("periods.json");
    let out = path_str(&periods);
    let coarse = [
        "sat", "bounds", "officers", "--p", "4", "--from", "64", "--step", "32", "--out", out,
    ];
    let run = grundy(&[&coarse[..], extra].concat());
    assert!(run.status.success(), "{run:?}");
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let rule = Rule::officers(4);
    every_rung_agrees(&rule, &ladder_json(&ladder_path));
    let (refuted, pattern) = refuted_and_pattern(&ladder_json(&ladder_path));
    assert!(
        rule.fixed_points(&common_below(refuted)).is_empty(),
        "a pattern of p = 4 below the refuted bound {refuted}"
    );
    assert!((0..4).all(|r| rule.fixed_at(&pattern, r)), "{pattern:?}");
    // The pattern is merged: p = 4 is feasible, as Riley has it.
    let file: Json = serde_json::from_str(&std::fs::read_to_string(&periods).unwrap()).unwrap();
    let status = format!("{:?}", riley_status(&riley()[3].1)).to_lowercase();
    assert_eq!(file["results"][0]["feasible"], status.as_str());

    // A finer ladder between them pins the least largest value of a period-4 pattern.
    let top = pattern.iter().max().unwrap() + 1;
    let (from, to) = (refuted.to_string(), top.to_string());
    let fine = [
        "sat", "bounds", "officers", "--p", "4", "--from", &from, "--step", "1", "--to", &to,
        "--out", out,
    ];
    assert!(grundy(&[&fine[..], extra].concat()).status.success());
    let ladder = ladder_json(&ladder_path);
    let banded = every_rung_agrees(&rule, &ladder);
    // A preset is kept with each rung it ran.
    if let Some(i) = extra.iter().position(|&a| a == "--preset") {
        for rung in ladder["rungs"].as_array().unwrap() {
            assert_eq!(rung["preset"], extra[i + 1], "{rung}");
        }
    }
    let (refuted, pattern) = refuted_and_pattern(&ladder);
    let largest = *pattern.iter().max().unwrap();
    assert_eq!(
        largest, refuted,
        "refuted below {refuted}, a pattern up to {largest}"
    );
    assert!(rule.fixed_points(&common_below(refuted)).is_empty());
    let least = rule.fixed_points(&common_below(largest + 1));
    assert!(least.contains(&pattern), "{pattern:?} not among {least:?}");
    // A decided period's ladder shows in the summary too (the yardstick for open ones).
    let summary = grundy(&["sat", "summary", "--out", out]);
    let text = String::from_utf8_lossy(&summary.stdout);
    let said = format!(
        "bounds (feasible): every pattern has a value >= {refuted} (no pattern below it); a pattern with values up to {largest}"
    );
    assert!(text.contains(&said), "{said} not in {text}");
    banded
}

#[test]
fn a_second_run_goes_on_above_the_refuted_rung_and_bad_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let out = path_str(&out);
    let args = [
        "sat", "bounds", "officers", "--p", "6", "--from", "64", "--step", "64", "--to", "128",
        "--out", out,
    ];
    assert!(grundy(&args).status.success());
    let ladder_path = dir.path().join("bounds-p6-feasible.json");
    let rungs = ladder_json(&ladder_path)["rungs"].as_array().unwrap().len();
    let again = grundy(&args);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(!stdout.contains("  below "), "rungs run again: {stdout}");
    assert_eq!(
        ladder_json(&ladder_path)["rungs"].as_array().unwrap().len(),
        rungs
    );

    // The whole question (the rung of 512) of an excluded period: UNSAT, as Riley has it.
    let excluded = [
        "sat", "bounds", "officers", "--p", "5", "--from", "512", "--to", "512", "--out", out,
    ];
    assert!(grundy(&excluded).status.success());
    let file: Json = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    let five = file["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["p"] == 5)
        .unwrap();
    assert_eq!(riley()[4].1, None);
    assert_eq!(five["feasible"], "unsat");

    for bad in [
        vec!["--step", "0"],
        vec!["--to", "600"],
        vec!["--from", "1"],
        vec!["--from", "200", "--to", "100"],
        vec!["--timeout", "0"],
        vec!["--incremental", "--proof-dir", "proofs"],
        vec!["--threads", "0"],
        vec!["--threads", "2", "--keep-rotation"],
        vec!["--threads", "2", "--incremental"],
        vec!["--threads", "2", "--proof-dir", "proofs"],
        vec!["--pieces", "--incremental"],
        vec!["--lemmas", "lemmas", "--proof-dir", "proofs"],
        vec!["--preset", "unsat", "--proof-dir", "proofs"],
        vec!["--conflicts", "100", "--proof-dir", "proofs"],
        vec![
            "--lemmas",
            "lemmas",
            "--prove-chain",
            "--proof-dir",
            "p",
            "--proof-format",
            "lrat",
        ],
        vec![
            "--preset",
            "unsat",
            "--prove-chain",
            "--proof-dir",
            "proofs",
        ],
        vec!["--lemmas", "lemmas", "--incremental"],
        vec!["--lemmas", "lemmas", "--threads", "2"],
        vec!["--lemmas", "lemmas", "--lemmas-every", "0"],
        vec!["--lemmas-every", "60"],
        vec!["--cut", "2:64"],
        vec!["--pieces", "--cut", "0:64"],
        vec!["--pieces", "--cut", "2:2"],
        vec!["--pieces", "--cut", "two"],
        vec!["--pieces", "--cut", "2:64,32"],
        vec!["--pieces", "--cut", "2:64,64"],
        vec!["--pieces", "--cut", "2:64,"],
        vec!["--pieces", "--cut", "2:8,16,18"],
        vec!["--pieces", "--cut", "2:64", "--in-turn", "--halve", "0"],
        vec!["--pieces", "--cut", "2:64", "--halve", "2"],
        vec!["--pieces", "--in-turn", "--halve", "2"],
        vec!["--pieces", "--cut", "2:64", "--in-turn", "--halve", "two"],
        // --plan lists a chain's calls: an option that conflicts with --prove-chain (clap
        // then skips --plan's own requirement) does not make it a climb's plan.
        vec!["--pieces", "--in-turn", "--plan"],
        vec!["--pieces", "--only-pieces", "8", "--plan"],
    ] {
        let mut line = vec!["sat", "bounds", "officers", "--p", "6", "--out", out];
        line.extend(bad);
        fails_with_one_line(&line);
    }
    // A cut with nothing on one side says which side (Officers' least common value is 2, and
    // the largest the encoding holds is 511); a part with no common value names its rare
    // values (popcount of v & !0x11 even: 16 and 17; 10, 11, 12 and 13) and the cure.
    for (cut, words) in [
        ("0:64", "the residue must be from 1 to 5"),
        ("2:2", "no common value lies below it (the least is 2)"),
        (
            "2:8,16,600",
            "s[2] = 600: no common value lies at or above it",
        ),
        (
            "2:8,16,18",
            "no common value of s[2] from 16 below 18 (16 and 17 are rare): no part to ask; \
             leave out the cut at 16 or at 18",
        ),
        ("2:8,10,14", "from 10 below 14 (its 4 values are rare)"),
    ] {
        let mut line = vec!["sat", "bounds", "officers", "--p", "6", "--out", out];
        line.extend(["--pieces", "--cut", cut]);
        let said = fails_with_one_line(&line);
        assert!(said.contains(words), "{cut}: {said}");
    }
    fails_with_one_line(&["sat", "bounds", "officers", "--p", "0", "--out", out]);
    // A ladder of another encoding, or not a ladder at all, is refused and left as it is.
    let text = std::fs::read_to_string(&ladder_path).unwrap();
    let forged = text.replace("\"fingerprint\": \"", "\"fingerprint\": \"x");
    // A pattern that is no fixed point (Riley's p = 6 with one value changed).
    let mut ladder: Json = serde_json::from_str(&text).unwrap();
    let mut riley6 = riley()[5].1.clone().unwrap();
    riley6[0] ^= 4;
    ladder["pattern"] = serde_json::json!(riley6);
    let bad_pattern = serde_json::to_string_pretty(&ladder).unwrap();
    for content in [forged.as_str(), "{ not json", bad_pattern.as_str()] {
        std::fs::write(&ladder_path, content).unwrap();
        let err = fails_with_one_line(&args);
        assert!(err.contains("bounds-p6-feasible.json"), "{err}");
        if content == bad_pattern {
            assert!(err.contains("its pattern fails"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&ladder_path).unwrap(), content);
    }
}

#[test]
fn the_summary_shows_an_open_periods_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let out = path_str(&out);
    let open = [
        "sat",
        "officers",
        "--periods",
        "27..27",
        "--timeout",
        "1",
        "--out",
        out,
    ];
    assert!(grundy(&open).status.success());
    let rung = [
        "sat", "bounds", "officers", "--p", "27", "--from", "64", "--to", "64", "--out", out,
    ];
    let run = grundy(&rung);
    assert!(run.status.success(), "{run:?}");
    let ladder = ladder_json(&dir.path().join("bounds-p27-feasible.json"));
    assert_eq!(ladder["rungs"][0]["answer"], "unsat", "{ladder}");
    // (The rung's answer itself is checked on p = 4 against a brute force; a brute force over
    // 27 residues is out of reach. What this test checks is that the summary reports it.)
    let summary = grundy(&["sat", "summary", "--out", out]);
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(
        text.contains("bounds (feasible): every pattern has a value >= 64"),
        "{text}"
    );
    // With --rungs, the ladder's table under its line: the one rung, one call with no proof.
    let summary = grundy(&["sat", "summary", "--out", out, "--rungs"]);
    let text = String::from_utf8_lossy(&summary.stdout);
    let seconds = ladder["rungs"][0]["seconds"].as_f64().unwrap();
    let row = format!("| 0..64 | refuted | one call | {seconds:.0} |  |  | none |");
    let under = text.split_once("bounds (feasible)").map(|(_, rest)| rest);
    assert!(
        under.is_some_and(|rest| rest.contains(&row)),
        "{row} not in {text}"
    );
}

/// The README's ladder tables (between its `ladders` markers, each `| band |` table after a
/// `**p = N**` paragraph) are what `grundy sat summary --rungs` prints from the committed
/// ladders. Why a test: those tables were prose written by hand before, and a campaign that
/// commits its ladders without the new tables would leave the README telling an older state.
/// With `GRUNDY_BLESS_README` set, the test first writes the printed tables into the README:
/// what a campaign runs after committing its ladders, then reviews with `git diff`.
#[test]
fn the_readme_s_ladder_tables_are_those_of_the_committed_ladders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let periods = root.join("results/officers/periods.json");
    let summary = grundy(&["sat", "summary", "--out", path_str(&periods), "--rungs"]);
    assert!(summary.status.success(), "{summary:?}");
    let printed = String::from_utf8_lossy(&summary.stdout);
    if std::env::var_os("GRUNDY_BLESS_README").is_some() {
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let blessed = with_printed_ladder_tables(&readme, &printed);
        std::fs::write(root.join("README.md"), blessed).unwrap();
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let tables = readme_ladder_tables(&readme);
    for &(p, table) in &tables {
        assert_eq!(
            Some(table),
            printed_ladder_table(&printed, p),
            "the README's table of p = {p} is not what `grundy sat summary officers --rungs` \
             prints now; run this test with GRUNDY_BLESS_README=1 to write it there"
        );
    }
    let periods: Vec<usize> = tables.iter().map(|&(p, _)| p).collect();
    assert_eq!(periods, [27, 29, 37, 39], "a table for each open period");
}

/// A band campaign (`sat cubes --band`) left open whose band the ladder refuted since by other
/// calls says so in the summary: p = 37's and 39's committed campaigns on 192..200, whose bands
/// the climb refuted in pieces (the ladders' rungs, read here from the JSON), and not p = 27's
/// on 256..264, a band still open. Mutation: the note left off (the line read as a band open).
#[test]
fn a_band_campaign_whose_band_the_ladder_refuted_since_says_so() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let periods = root.join("results/officers/periods.json");
    let summary = grundy(&["sat", "summary", "--out", path_str(&periods)]);
    assert!(summary.status.success(), "{summary:?}");
    let printed = String::from_utf8_lossy(&summary.stdout);
    let note = "(the band is refuted in the ladder since, by other calls: nothing left to ask)";
    for (p, band, refuted) in [
        (27, "256..264", false),
        (37, "192..200", true),
        (39, "192..200", true),
    ] {
        let ladder = ladder_json(&committed_ladder_path(p));
        let (from, below) = band.split_once("..").unwrap();
        let (from, below): (u64, u64) = (from.parse().unwrap(), below.parse().unwrap());
        let in_ladder = (ladder["rungs"].as_array().unwrap().iter()).any(|r| {
            (r["from"].as_u64(), r["below"].as_u64()) == (Some(from), Some(below))
                && r["answer"] == "unsat"
        });
        assert_eq!(in_ladder, refuted, "p = {p}'s ladder");
        let part = summary_part(&printed, p).unwrap();
        let line = (part.lines())
            .find(|l| l.contains(&format!("cubes (feasible, band {band}):")))
            .unwrap_or_else(|| panic!("p = {p}: {part}"));
        assert_eq!(line.ends_with(note), refuted, "{line}");
    }
}

/// The part of the README between its `ladders` markers.
fn readme_ladders_block(readme: &str) -> (&str, &str, &str) {
    let (head, rest) = (readme.split_once("<!-- ladders: begin -->")).expect("a begin marker");
    let (block, tail) = (rest.split_once("<!-- ladders: end -->")).expect("an end marker");
    (head, block, tail)
}

/// The README's ladder tables: each paragraph that starts `| band |` right after one that
/// starts `**p = N**`, with its N.
fn readme_ladder_tables(readme: &str) -> Vec<(usize, &str)> {
    let (_, block, _) = readme_ladders_block(readme);
    let paragraphs: Vec<&str> = block.split("\n\n").map(str::trim).collect();
    paragraphs.windows(2).filter_map(table_after).collect()
}

/// The period and table of a pair of paragraphs, `**p = N**...` and a `| band |` table.
fn table_after<'r>(pair: &[&'r str]) -> Option<(usize, &'r str)> {
    let head = pair[0].strip_prefix("**p = ")?;
    let p = head.split("**").next()?.parse().ok()?;
    pair[1].starts_with("| band |").then_some((p, pair[1]))
}

/// The part of `sat summary`'s output about period `p`: from its line to the next period's.
fn summary_part(printed: &str, p: usize) -> Option<&str> {
    let start = printed.find(&format!("\np={p} "))? + 1;
    let part = &printed[start..];
    Some(&part[..part.find("\np=").unwrap_or(part.len())])
}

/// The table `sat summary --rungs` printed for period `p`: in the period's part of the output
/// ([`summary_part`]), the lines from `| band |` while they start with `|`.
fn printed_ladder_table(printed: &str, p: usize) -> Option<&str> {
    let part = summary_part(printed, p)?;
    let table = &part[part.find("| band |")?..];
    let lines: usize = (table.lines())
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.len() + 1)
        .sum();
    Some(table[..lines.saturating_sub(1)].trim_end())
}

/// `readme` with each ladder table ([`readme_ladder_tables`]) replaced by the printed one, the
/// paragraphs' spacing kept.
fn with_printed_ladder_tables(readme: &str, printed: &str) -> String {
    let (head, block, tail) = readme_ladders_block(readme);
    let mut paragraphs: Vec<String> = block.split("\n\n").map(str::to_string).collect();
    for k in 1..paragraphs.len() {
        let pair = [paragraphs[k - 1].trim(), paragraphs[k].trim()];
        let Some((p, table)) = table_after(&pair) else {
            continue;
        };
        let new = printed_ladder_table(printed, p).expect("the period's table is printed");
        paragraphs[k] = paragraphs[k].replacen(table, new, 1);
    }
    let block = paragraphs.join("\n\n");
    format!("{head}<!-- ladders: begin -->{block}<!-- ladders: end -->{tail}")
}

/// A copy in `dir` of p = 27's committed ladder (refuted to 256 in bands: a ladder whose next
/// band takes hours), where `sat bounds --out dir/periods.json` finds it; its path.
fn committed_p27_ladder(dir: &Path) -> std::path::PathBuf {
    let ladder = dir.join("bounds-p27-feasible.json");
    std::fs::copy(committed_ladder_path(27), &ladder).unwrap();
    ladder
}

/// The committed ladder of Officers' period `p` (third-party-checked proofs, campaigns' tries).
fn committed_ladder_path(p: usize) -> std::path::PathBuf {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/officers");
    committed.join(format!("bounds-p{p}-feasible.json"))
}

/// The arguments of the rung of p = 27 below 400 from scratch, with `extra`: hours of CaDiCaL
/// (its bands above 248 take hours each), so a short run of it ends with no answer.
fn hard_p27_rung<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let rung = ["--from", "400", "--to", "400", "--out", out];
    [&P27_BOUNDS[..], &rung, extra].concat()
}

/// A rung split over threads whose cubes run out of time is no answer, not a refutation: the
/// hard rung in one second, cubes on two threads.
#[test]
fn a_split_rung_out_of_time_is_no_answer() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let args = hard_p27_rung(path_str(&out), &["--threads", "2", "--timeout", "1"]);
    let run = grundy(&args);
    assert!(run.status.success(), "{run:?}");
    let ladder = ladder_json(&dir.path().join("bounds-p27-feasible.json"));
    let rung = &ladder["rungs"][0];
    assert_eq!(rung["answer"], "timeout", "{ladder}");
    assert_eq!(rung["threads"], 2, "{ladder}");
    assert!(rung["seconds"].as_f64().unwrap() < 30.0, "{ladder}");
}

#[test]
fn a_ladder_in_use_by_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let args = hard_p27_rung(path_str(&out), &["--timeout", "60"]);
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(&args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first run holds the lock once its lock file exists (made when it takes the lock).
    let lock = dir.path().join(".bounds-p27-feasible.json.lock");
    let started = std::time::Instant::now();
    while !lock.exists() && started.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let err = fails_with_one_line(&args);
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(err.contains("in use by another run"), "{err}");
}

/// The bands of p = 4 asked as cube campaigns (`sat cubes --band`), cut into many cubes by a
/// budget of one conflict a cube: each answer agrees with the brute force, each becomes a rung
/// of the ladder (UNSAT bands chaining up from 0), and the pattern is merged.
#[test]
fn band_campaigns_of_p4_agree_with_a_brute_force_search_and_join_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let periods = dir.path().join("periods.json");
    let out = path_str(&periods);
    let rule = Rule::officers(4);
    let least = rule
        .least_largest_below(192)
        .expect("a pattern of p = 4 below 192");
    assert!(least > 128, "{least}");
    // The last band holds only the least largest value: a floor or ceiling one byte off fails.
    let bands = [(0, 64), (64, 128), (128, least), (least, least + 1)];
    let cubes_of_band = |band: &str, extra: &[&str]| {
        let head = [
            "sat", "cubes", "officers", "--p", "4", "--band", band, "--out", out,
        ];
        grundy(&[&head[..], extra].concat())
    };
    let mut splits = 0;
    for (from, below) in bands {
        // One band under CaDiCaL's unsat configuration, which its rung notes.
        let preset = if from == 64 { "unsat" } else { "default" };
        let extra = ["--conflicts", "1", "--threads", "2", "--preset", preset];
        let band = format!("{from}..{below}");
        let run = cubes_of_band(&band, &extra);
        assert!(run.status.success(), "{run:?}");
        // Progress is told of the band (its root cube, p residues long, is not repeated).
        let said = String::from_utf8_lossy(&run.stdout);
        if below <= least {
            assert!(
                said.contains("(100.0000% of the band refuted, 0 cubes open"),
                "{said}"
            );
        }
        let ledger = dir
            .path()
            .join(format!("cubes-p4-feasible-band{from}-{below}.json"));
        splits += ladder_json(&ledger)["splits"].as_u64().unwrap();
        // Run again: answered already, no second rung.
        assert!(cubes_of_band(&band, &extra).status.success());
    }
    assert!(splits > 0, "no band was cut into cubes");
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    let rungs = rungs_of(&ladder);
    let asked: Vec<(u16, u16)> = rungs.iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(asked, bands, "one rung a band");
    every_rung_agrees(&rule, &ladder);
    let from_cubes = ladder["rungs"].as_array().unwrap().iter();
    assert!(from_cubes.clone().all(|r| r["cubes"].as_str().is_some()));
    let presets: Vec<&str> = from_cubes
        .clone()
        .map(|r| r["preset"].as_str().unwrap_or("default"))
        .collect();
    assert_eq!(presets, ["default", "unsat", "default", "default"]);
    let (refuted, pattern) = refuted_and_pattern(&ladder);
    assert_eq!(
        refuted, least,
        "the bands below the least largest value chain up"
    );
    assert!((0..4).all(|r| rule.fixed_at(&pattern, r)), "{pattern:?}");
    assert_eq!(pattern.iter().max(), Some(&least), "{pattern:?}");
    let file: Json = serde_json::from_str(&std::fs::read_to_string(&periods).unwrap()).unwrap();
    assert_eq!(file["results"][0]["feasible"], "sat");
    // `sat bounds` goes on above the bands the cubes refuted: no rung of its own below them.
    let more = [
        "sat", "bounds", "officers", "--p", "4", "--from", "64", "--step", "64", "--to", "192",
        "--out", out,
    ];
    assert!(grundy(&more).status.success());
    let after = rungs_of(&ladder_json(&dir.path().join("bounds-p4-feasible.json")));
    assert_eq!(after.len(), bands.len(), "{after:?}");
    // A band campaign stopped halfway shows under the decided period's ladder (a yardstick).
    let one_call = ["--calls", "1", "--conflicts", "1", "--threads", "1"];
    assert!(cubes_of_band("256..384", &one_call).status.success());
    let summary = grundy(&["sat", "summary", "--out", out]);
    let text = String::from_utf8_lossy(&summary.stdout);
    assert!(
        text.contains("cubes (feasible, band 256..384): 0.0000% of the band refuted"),
        "{text}"
    );
}

/// `grundy sat cubes officers --p 4 --out OUT` with `extra`.
pub(crate) fn p4_cubes(out: &str, extra: &[&str]) -> std::process::Output {
    grundy(
        &[
            &["sat", "cubes", "officers", "--p", "4", "--out", out][..],
            extra,
        ]
        .concat(),
    )
}

/// One solver call of one conflict on a band campaign of p = 4 (periods file `out`): its ledger
/// is left started, with cubes open.
fn one_call_of_band(out: &str, band: &str) -> std::process::Output {
    let one_call = ["--calls", "1", "--conflicts", "1", "--threads", "1"];
    p4_cubes(out, &[&["--band", band][..], &one_call].concat())
}

/// `sat cubes --climb` runs band campaigns up the ladder from its refuted bound, continuing a
/// band ledger already started there (of another width), until the band that holds the least
/// largest value of the brute force, whose pattern ends the climb; a second climb finds the
/// question answered and adds nothing.
#[test]
fn a_climb_refutes_band_after_band_and_stops_at_the_least_largest_value() {
    let dir = tempfile::tempdir().unwrap();
    let periods = dir.path().join("periods.json");
    let out = path_str(&periods);
    let rule = Rule::officers(4);
    let least = rule
        .least_largest_below(256)
        .expect("a pattern of p = 4 below 256");
    assert!(one_call_of_band(out, "0..32").status.success());
    let climb = ["--climb", "48", "--conflicts", "1", "--threads", "2"];
    let run = p4_cubes(out, &climb);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("climbing: band 32..80"), "{said}");
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let ladder = ladder_json(&ladder_path);
    let rungs = rungs_of(&ladder);
    assert_eq!((rungs[0].0, rungs[0].1), (0, 32), "{rungs:?}");
    assert!(rungs.windows(2).all(|w| w[1].0 == w[0].1), "{rungs:?}");
    let (last, refuted) = rungs.split_last().unwrap();
    assert!(refuted.iter().all(|r| r.2 == "unsat"), "{rungs:?}");
    assert_eq!(last.2, "sat");
    assert!(last.0 <= least && least < last.1, "{least} not in {last:?}");
    every_rung_agrees(&rule, &ladder);
    let (_, pattern) = refuted_and_pattern(&ladder);
    assert!((0..4).all(|r| rule.fixed_at(&pattern, r)), "{pattern:?}");
    let again = p4_cubes(out, &climb);
    assert!(again.status.success(), "{again:?}");
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing to climb"));
    assert_eq!(rungs_of(&ladder_json(&ladder_path)), rungs);
    // A band answered whose rung never reached the ladder (the ladder lost here) is taken up
    // again at its floor, whatever its width, and its rung recorded.
    let lost = tempfile::tempdir().unwrap();
    let lost_out = lost.path().join("periods.json");
    let lost_out = path_str(&lost_out);
    let band = ["--band", "0..40", "--conflicts", "1"];
    assert!(p4_cubes(lost_out, &band).status.success());
    std::fs::remove_file(lost.path().join("bounds-p4-feasible.json")).unwrap();
    let climb_48 = ["--climb", "48", "--conflicts", "1"];
    assert!(p4_cubes(lost_out, &climb_48).status.success());
    let again = rungs_of(&ladder_json(&lost.path().join("bounds-p4-feasible.json")));
    assert_eq!((again[0].0, again[0].1), (0, 40), "{again:?}");
    assert_eq!((again[1].0, again[1].1), (40, 88), "{again:?}");
    // Out of time before the next band: it is named, and no ledger is started for it.
    let late = tempfile::tempdir().unwrap();
    let late_out = late.path().join("periods.json");
    let none = p4_cubes(path_str(&late_out), &["--climb", "8", "--timeout", "0"]);
    assert!(none.status.success(), "{none:?}");
    let said = String::from_utf8_lossy(&none.stdout);
    assert!(said.contains("band 0..8 is next"), "{said}");
    assert_eq!(std::fs::read_dir(late.path()).unwrap().count(), 0);
    let head = ["sat", "cubes", "officers", "--p", "4", "--out", out];
    for bad in [&["--climb", "0"][..], &["--climb", "8", "--band", "0..8"]] {
        fails_with_one_line(&[&head[..], bad].concat());
    }
}

/// Bad bands, and a band given with a flag it cannot go with, are refused in one line; so is the
/// ledger of another band, which is left as it is.
#[test]
fn band_campaigns_refuse_bad_bands_and_other_bands_ledgers() {
    let dir = tempfile::tempdir().unwrap();
    let periods = dir.path().join("periods.json");
    let out = path_str(&periods);
    assert!(one_call_of_band(out, "0..64").status.success());
    for bad in [
        vec!["--band", "264..256"],
        vec!["--band", "0..600"],
        vec!["--band", "256"],
        vec!["--band", "0..2"],
        vec!["--band", "0..64", "--keep-rotation"],
        vec!["--band", "0..64", "--within", "0:3"],
    ] {
        let mut line = vec!["sat", "cubes", "officers", "--p", "4", "--out", out];
        line.extend(bad);
        fails_with_one_line(&line);
    }
    // A ledger of another band is refused and left as it is.
    let other = dir.path().join("cubes-p4-feasible-band0-64.json");
    let text = std::fs::read_to_string(&other).unwrap();
    let line = [
        "sat",
        "cubes",
        "officers",
        "--p",
        "4",
        "--band",
        "64..128",
        "--ledger",
        path_str(&other),
        "--out",
        out,
    ];
    let err = fails_with_one_line(&line);
    assert!(err.contains("0..64"), "{err}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), text);
}

/// A band dealt to a job array (`slurm cubes --band`, run here) and merged back: its answer is
/// the brute force's, recorded in the ladder as the rung of that band.
#[test]
fn a_band_dealt_into_shares_merges_into_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let work = dir.path().join("work");
    let (out, work) = (path_str(&out), path_str(&work));
    let rule = Rule::officers(4);
    assert!(rule.fixed_points(&common_below(128)).is_empty());
    let args = [
        "slurm",
        "cubes",
        "officers",
        "--p",
        "4",
        "--band",
        "0..128",
        "--shares",
        "3",
        "--conflicts",
        "1",
        "--out",
        out,
        "--work",
        work,
        "--run-here",
    ];
    let run = grundy(&args);
    assert!(run.status.success(), "{run:?}");
    let manifest = std::fs::read_to_string(dir.path().join("work/manifest.json")).unwrap();
    assert!(manifest.contains("--band"), "{manifest}");
    let merged = grundy(&["merge", work]);
    assert!(merged.status.success(), "{merged:?}");
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    assert_eq!(rungs_of(&ladder), vec![(0, 128, "unsat".to_string())]);
    let campaign = ladder_json(&dir.path().join("cubes-p4-feasible-band0-128.json"));
    assert_eq!(campaign["shares"].as_array().map_or(0, Vec::len), 0);
    assert_eq!(campaign["band"]["below"], 128);
}

/// `sat bounds officers --p 4`, the start of the `--prove-chain` runs below.
const P4_BOUNDS: [&str; 5] = ["sat", "bounds", "officers", "--p", "4"];
const P27_BOUNDS: [&str; 5] = ["sat", "bounds", "officers", "--p", "27"];

/// A call of p = 27's band 256..264 (or a piece of it) stopped by work, not time: 3000
/// conflicts learn the same clauses on any machine, whatever else it runs (a few seconds, about
/// 1000 clauses), where 5 s of wall clock learned about a thousand on an idle VM and none beside
/// two busy cores. The timeout, far above, is there only to end a version that ignores the
/// limit.
const BOUNDED_CALL: [&str; 4] = ["--conflicts", "3000", "--timeout", "120"];

/// p = 27's piece `s[0]` = 256 alone of its band 256..264, the band above its committed ladder.
const P27_PIECE_256: [&str; 7] = [
    "--from",
    "264",
    "--to",
    "264",
    "--pieces",
    "--only-pieces",
    "256",
];

/// A DRAT checker's command (rate, else dratify), and a folder with p = 4's ladder climbed to
/// 64 in rungs of 8 and the periods file (its path) it merged into; `None` (the test skips)
/// without a checker.
fn p4_ladder_to_64_and_a_checker() -> Option<(String, tempfile::TempDir, String)> {
    let checker = crate::sat::rate_checker().or_else(crate::sat::drat_checker)?;
    let (dir, out) = p4_ladder_to_64();
    Some((checker, dir, out))
}

/// A folder with p = 4's ladder climbed to 64 in rungs of 8, and the periods file (its path)
/// it merged into.
fn p4_ladder_to_64() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let climb = ["--from", "8", "--step", "8", "--to", "64", "--out", &out];
    assert!(grundy(&[&P4_BOUNDS[..], &climb].concat()).status.success());
    (dir, out)
}

/// A rung from `from` below `below` that says UNSAT with nothing behind it.
fn forged_rung(from: u16, below: u16) -> Json {
    serde_json::json!({
        "from": from, "below": below, "largest_first": true, "answer": "unsat", "seconds": 0.0
    })
}

/// p = 4's ladder at `ladder_path` with the rung 64..136 forged on top, which says UNSAT over a
/// pattern the brute force finds (none lies below 64, so the band holds one): the honest
/// ladder, and its number of rungs.
fn forge_p4_band(ladder_path: &Path) -> (Json, usize) {
    let rule = Rule::officers(4);
    assert!(rule.least_largest_below(64).is_none());
    assert!(rule.least_largest_below(136).is_some());
    let honest = ladder_json(ladder_path);
    let rungs = honest["rungs"].as_array().unwrap().len();
    let mut forged = honest.clone();
    (forged["rungs"].as_array_mut().unwrap()).push(forged_rung(64, 136));
    std::fs::write(ladder_path, serde_json::to_vec(&forged).unwrap()).unwrap();
    (honest, rungs)
}

/// `sat bounds officers --p 4 --prove-chain --proof-dir PROOFS --out OUT`, then `extra`, with
/// `checker` as the DRAT checker.
fn prove_p4_chain(proofs: &str, out: &str, checker: &str, extra: &[&str]) -> std::process::Output {
    use grundy::sat::solve::DRAT_CHECKER_VAR;
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(P4_BOUNDS)
        .args(["--prove-chain", "--proof-dir", proofs, "--out", out])
        .args(extra)
        .env(DRAT_CHECKER_VAR, checker)
        .output()
        .unwrap()
}

/// `sat bounds --prove-chain` gives every rung the bound rests on a DRAT proof that rate (or
/// dratify) accepts, saving each; a rung the ladder wrongly calls UNSAT (forged over a pattern
/// the brute force finds) is caught by its model, in one line, after the
/// true rungs below it were proved; without a checker it does not start.
#[test]
fn every_rung_a_bound_rests_on_gets_a_checked_proof_and_a_false_one_is_caught() {
    use grundy::sat::solve::DRAT_CHECKER_VAR;
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let (honest, rungs) = forge_p4_band(&ladder_path);
    assert!(rungs >= 4, "{honest}");
    let proofs = dir.path().join("proofs").display().to_string();
    let prove = |checker: Option<&str>| match checker {
        Some(c) => prove_p4_chain(&proofs, &out, c, &[]),
        None => Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(P4_BOUNDS)
            .args(["--prove-chain", "--proof-dir", &proofs, "--out", &out])
            .env_remove(DRAT_CHECKER_VAR)
            .output()
            .unwrap(),
    };
    let said = failed_in_one_line(&prove(None), "no checker");
    assert!(said.contains("needs an independent DRAT checker"), "{said}");
    let said = failed_in_one_line(&prove(Some(&checker)), "a forged rung");
    assert!(said.contains("the ladder is wrong"), "{said}");
    // The true rungs below it were proved and saved, each by the checker.
    let proved = ladder_json(&ladder_path);
    for rung in &proved["rungs"].as_array().unwrap()[..rungs] {
        assert!(checked_by_a_drat_checker(rung), "{rung}");
        // Checked, the files are removed and the note keeps their names only.
        let name = rung["proof"]["proof"].as_str().unwrap();
        assert!(!name.contains('/') && name.ends_with(".drat"), "{rung}");
    }
    let left = std::fs::read_dir(&proofs).unwrap().count();
    assert_eq!(left, 0, "proof files left in {proofs}");
    // Without the forged rung, nothing is left to prove and the summary says so.
    let mut mended = honest;
    mended["rungs"] = serde_json::json!(proved["rungs"].as_array().unwrap()[..rungs]);
    std::fs::write(&ladder_path, serde_json::to_vec(&mended).unwrap()).unwrap();
    let again = prove(Some(&checker));
    assert!(again.status.success(), "{again:?}");
    let all = format!("{rungs} of the {rungs} rungs it rests on with a checked proof");
    assert!(
        String::from_utf8_lossy(&again.stdout).contains(&all),
        "{again:?}"
    );
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 rungs proved now"));
}

/// A stop request (SIGTERM) ends `--prove-chain` within seconds, mid-rung, with exit 130: the
/// rung running keeps no proof, and the ladder read back is whole. On p = 27's committed ladder,
/// whose chain holds hours of rungs, with its proofs dropped (they were made since).
#[test]
fn a_stop_request_ends_prove_chain_mid_rung() {
    use grundy::sat::solve::DRAT_CHECKER_VAR;
    let Some(checker) = crate::sat::rate_checker().or_else(crate::sat::drat_checker) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let ladder_path = committed_p27_ladder(dir.path());
    let mut unproved = ladder_json(&ladder_path);
    for rung in unproved["rungs"].as_array_mut().unwrap() {
        let rung = rung.as_object_mut().unwrap();
        rung.remove("proof");
        rung.remove("pieces");
    }
    std::fs::write(&ladder_path, serde_json::to_vec(&unproved).unwrap()).unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let proofs = dir.path().join("proofs").display().to_string();
    let proving = [
        "--prove-chain",
        "--proof-dir",
        &proofs,
        "--timeout",
        "3000",
        "--out",
        &out,
    ];
    let args = [&P27_BOUNDS[..], &proving].concat();
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .env(DRAT_CHECKER_VAR, &checker)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(10));
    crate::engine::send_signal(&child, "TERM");
    let done = crate::engine::output_within(child, 60);
    assert_eq!(done.status.code(), Some(130), "{done:?}");
    let ladder = ladder_json(&ladder_path);
    let chain_rungs = ladder["rungs"].as_array().unwrap().len();
    let unproved = (ladder["rungs"].as_array().unwrap().iter())
        .filter(|r| r["answer"] == "unsat" && r["proof"].is_null())
        .count();
    assert!(chain_rungs > 10 && unproved > 5, "{ladder}");
    // The run's line names the call cut short and counts those never started: each of them a
    // rung without a proof in the ladder read back.
    let stdout = String::from_utf8_lossy(&done.stdout);
    let last = (stdout.lines().find(|l| l.contains("proved now"))).unwrap_or_default();
    assert!(
        last.contains("; stopped: 1 call cut short (the band "),
        "{stdout}"
    );
    let not_started = last
        .split(", ")
        .find_map(|w| w.strip_suffix(" calls not started"))
        .and_then(|n| n.parse::<usize>().ok());
    assert!(
        not_started.is_some_and(|n| n >= 1 && n < unproved),
        "{stdout}"
    );
}

/// A stop request sent as `timeout` (GNU coreutils) sends it, to grundy and then to its whole
/// process group, while a proof is being checked: `--prove-chain` ends within seconds with exit
/// 130 and its last line (naming the call cut short), the checker (and what its wrapper
/// started) ended with it, and no word of a refusal, since the checker gave no verdict.
/// Before, the checker shared the group, died of the signal, and was read as refusing a sound
/// proof (seen on a lent machine under `timeout`); and the signal's echo through the group, read
/// as a second request, ended grundy at once, with no last line and its proof files left (p =
/// 39 under `timeout -s INT`, session 51). The ladder keeps no proof for the rung stopped, and
/// its proof files are removed. Mutation: any second signal ends the process at once.
#[test]
fn a_stop_during_a_check_is_no_refusal() {
    use std::os::unix::process::CommandExt;
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let started = dir.path().join("checking");
    let wrapper = dir.path().join("slow.sh");
    let script = format!(
        "touch {}\nsleep 60\nexec {checker} \"$@\"\n",
        started.display()
    );
    std::fs::write(&wrapper, script).unwrap();
    let proofs = dir.path().join("proofs");
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(P4_BOUNDS)
        .args([
            "--prove-chain",
            "--proof-dir",
            &proofs.display().to_string(),
        ])
        .args(["--out", &out])
        .env(
            grundy::sat::solve::DRAT_CHECKER_VAR,
            format!("sh {}", wrapper.display()),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    crate::engine::wait_for_file(&started, 60, "a check started");
    // To grundy, then to the group, grundy again among it: 10 ms apart, after the first
    // signal's handler ran and before the stop it asked for has ended the run (its relay
    // looks every 50 ms), where `timeout`'s echo may fall.
    crate::engine::send_signal(&child, "INT");
    std::thread::sleep(std::time::Duration::from_millis(10));
    let group = format!("-{}", child.id());
    let sent = Command::new("kill").args(["-INT", "--", &group]).status();
    assert!(sent.unwrap().success());
    let done = crate::engine::output_within(child, 30);
    let said = format!("{done:?}");
    assert_eq!(done.status.code(), Some(130), "{said}");
    assert!(!said.contains("refused"), "{said}");
    let stdout = String::from_utf8_lossy(&done.stdout);
    assert!(stdout.contains("stopped: 1 call cut short"), "{said}");
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    let proved = (ladder["rungs"].as_array().unwrap().iter()).filter(|r| !r["proof"].is_null());
    assert_eq!(proved.count(), 0, "{ladder}");
    let left: Vec<_> = std::fs::read_dir(&proofs).map_or(Vec::new(), |d| d.collect());
    assert!(left.is_empty(), "{left:?}");
}

/// grundy killed outright (SIGKILL, to it alone) mid-check: no stop reaches its checker, which
/// must end all the same, the rate wrapper and the rate it started (a stand-in that records
/// its pid and sleeps). Before, both ran on after grundy, for as long as rate would take.
#[test]
fn a_checker_ends_when_grundy_is_killed_outright() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let climb = ["--from", "8", "--step", "8", "--to", "16", "--out", &out];
    assert!(grundy(&[&P4_BOUNDS[..], &climb].concat()).status.success());
    let rate_pid = dir.path().join("rate.pid");
    let rate = dir.path().join("rate");
    let body = format!("echo $$ > {}\nexec sleep 120", rate_pid.display());
    crate::cli::write_script(&rate, &body);
    let wrapper = Path::new(env!("CARGO_MANIFEST_DIR")).join("encodings/check_drat_rate.sh");
    let proofs = dir.path().join("proofs").display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(P4_BOUNDS)
        .args(["--prove-chain", "--proof-dir", &proofs, "--out", &out])
        .env(
            grundy::sat::solve::DRAT_CHECKER_VAR,
            format!("sh {}", wrapper.display()),
        )
        .env("RATE", &rate)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    crate::engine::wait_for_file(&rate_pid, 60, "a check started");
    let pid = std::fs::read_to_string(&rate_pid)
        .unwrap()
        .trim()
        .to_string();
    child.kill().unwrap();
    child.wait().unwrap();
    // Gone, or a zombie its new parent has not reaped yet.
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit(')')
                .next()
                .is_some_and(|s| !s.trim_start().starts_with('Z'))
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while alive() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    if alive() {
        let _ = Command::new("kill").arg(&pid).status();
        panic!("rate (pid {pid}) ran on after grundy was killed");
    }
}

/// `--prove-chain --jobs 3` proves the rungs of a chain side by side (their checkers are seen
/// running at once), each proof accepted by rate (or dratify); a forged UNSAT rung among them
/// is still caught in one line, and the ladder read back is whole.
#[test]
fn the_rungs_of_a_chain_are_proved_side_by_side() {
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let (wrapper, most_at_once) = overlap_checker(dir.path(), &checker);
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let (honest, rungs) = forge_p4_band(&ladder_path);
    let proofs = dir.path().join("proofs").display().to_string();
    let prove = || prove_p4_chain(&proofs, &out, &wrapper, &["--jobs", "3"]);
    let said = failed_in_one_line(&prove(), "a forged rung among jobs");
    assert!(said.contains("the ladder is wrong"), "{said}");
    assert!(ladder_json(&ladder_path)["rungs"].as_array().unwrap().len() == rungs + 1);
    std::fs::write(&ladder_path, serde_json::to_vec(&honest).unwrap()).unwrap();
    let done = prove();
    assert!(done.status.success(), "{done:?}");
    let stdout = String::from_utf8_lossy(&done.stdout);
    let all = format!("{rungs} of the {rungs} rungs it rests on with a checked proof");
    assert!(stdout.contains(&all), "{stdout}");
    for rung in ladder_json(&ladder_path)["rungs"].as_array().unwrap() {
        assert!(checked_by_a_drat_checker(rung), "{rung}");
    }
    assert!(most_at_once() >= 2, "the checkers never ran side by side");
}

/// On `--prove-chain --jobs 2` a call out of time does not keep the calls left from starting
/// (they go longest first, so they are shorter: the order is the unit test
/// `the_chain_s_calls_go_longest_first_on_more_than_one_job`): p = 27's chain remade as a cheap
/// whole rung below 32 (the committed ladder refutes below 128 whole; below 32 is proved and
/// checked in about 7 s, below 64 in about 50) under two bands that take hours (32..248, and
/// 248..256 of 320 s), all three true. Given 20 s a call (10 s was too little for the cheap
/// rung's proof and check beside a full test run on a loaded machine),
/// both bands run first and have no answer, and the cheap rung is proved after them, checked by
/// rate (or dratify). Mutation: a call out of time closes the queue on two jobs as on one (nothing
/// proved).
///
/// The two calls out of time are recorded in their rungs (20 s, and when), so the same command
/// again passes over both and asks nothing, and `--plan` with a longer `--timeout` lists them,
/// saying what they had. Mutation tried: no record kept (fails).
#[test]
fn a_chain_on_two_jobs_goes_on_past_a_call_out_of_time() {
    let Some(checker) = crate::sat::rate_checker().or_else(crate::sat::drat_checker) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut ladder = committed_ladder(27);
    let rungs = ladder["rungs"].as_array().unwrap();
    let whole = rungs
        .iter()
        .find(|r| r.get("from").is_none())
        .unwrap()
        .clone();
    assert!(whole["below"].as_u64().unwrap() >= 32 && whole["answer"] == "unsat");
    let mut foot = whole;
    foot["below"] = serde_json::json!(32);
    let band = |from: u64, below: u64, seconds: f64| {
        serde_json::json!({"from": from, "below": below, "largest_first": true,
            "answer": "unsat", "seconds": seconds})
    };
    ladder["rungs"] = serde_json::json!([foot, band(32, 248, 5000.0), band(248, 256, 4000.0)]);
    let ladder_path = dir.path().join("bounds-p27-feasible.json");
    std::fs::write(&ladder_path, ladder.to_string()).unwrap();
    let (out, proofs) = (dir.path().join("periods.json"), dir.path().join("proofs"));
    let chain = |timeout: &str, extra: &[&str]| {
        let run = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(P27_BOUNDS)
            .args(["--step", "8", "--prove-chain", "--jobs", "2"])
            .args(["--timeout", timeout])
            .args(["--proof-dir", path_str(&proofs)])
            .args(["--out", path_str(&out)])
            .args(extra)
            .env(grundy::sat::solve::DRAT_CHECKER_VAR, &checker)
            .output()
            .unwrap();
        assert!(run.status.success(), "{run:?}");
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    let stdout = chain("20", &[]);
    let words = "2 calls had no answer in 20 s (the lowest: the band 32..248)";
    assert!(stdout.contains(words), "{stdout}");
    assert!(
        stdout.contains("the band 32..248: no answer in 20 s; recorded"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 of the 3 rungs it rests on with a checked proof"),
        "{stdout}"
    );
    let rungs = ladder_json(&ladder_path)["rungs"].clone();
    assert!(checked_by_a_drat_checker(&rungs[0]), "{rungs}");
    assert!(rungs[1].get("proof").is_none() && rungs[2].get("proof").is_none());
    for band in &rungs.as_array().unwrap()[1..] {
        let records = band["unanswered"].as_array().unwrap();
        assert_eq!(records.len(), 1, "{band}");
        assert_eq!(records[0]["timeout"], 20.0);
        assert!(records[0]["ended"].is_string(), "{band}");
    }
    let again = std::time::Instant::now();
    let stdout = chain("20", &[]);
    let passed = "2 calls passed over, each with no answer in 20 s before, at least this \
                  --timeout (the band 32..248; the band 248..256)";
    assert!(stdout.contains(passed), "{stdout}");
    assert!(!stdout.contains("to prove"), "{stdout}");
    assert!(again.elapsed().as_secs() < 15, "asked again: {stdout}");
    let plan = chain("40", &["--plan"]);
    assert!(plan.contains("p=27: 2 calls to prove"), "{plan}");
    assert_eq!(
        plan.matches("(no answer in 20 s before)").count(),
        2,
        "{plan}"
    );
}

/// `checker` wrapped (a command for `GRUNDY_DRAT_CHECKER`, its files in `dir`): each call
/// counts the calls running beside it, waits a quarter of a second (long beside a piece of
/// p = 4, which the solver refutes in milliseconds), then hands over to the real checker;
/// and a function that reads the most calls seen running at once.
fn overlap_checker(dir: &Path, checker: &str) -> (String, impl Fn() -> u32) {
    let running = dir.join("running");
    std::fs::create_dir(&running).unwrap();
    let wrapper = dir.join("overlap.sh");
    let script = format!(
        "touch {r}/$$\nls {r} | wc -l >> {r}.counts\nsleep 0.25\nrm {r}/$$\nexec {checker} \"$@\"\n",
        r = running.display()
    );
    std::fs::write(&wrapper, script).unwrap();
    let counts = format!("{}.counts", running.display());
    let most_at_once = move || {
        let counts = std::fs::read_to_string(&counts).unwrap_or_default();
        let seen = counts.lines().filter_map(|l| l.trim().parse::<u32>().ok());
        seen.max().unwrap_or(0)
    };
    (format!("sh {}", wrapper.display()), most_at_once)
}

/// Whether the proof noted on `record` (a rung or a piece) was checked by rate or dratify, the
/// checkers these tests run.
fn checked_by_a_drat_checker(record: &Json) -> bool {
    let by = record["proof"]["checked_by"].as_str().unwrap_or("");
    by.starts_with("rate") || by.starts_with("dratify")
}

/// The values of `s[0]` the proof pieces of a rung were made for (`top` of each piece).
fn piece_tops(rung: &Json) -> Vec<u16> {
    let pieces = rung["pieces"].as_array().map_or(&[][..], Vec::as_slice);
    pieces
        .iter()
        .map(|p| p["top"].as_u64().unwrap() as u16)
        .collect()
}

/// `--prove-chain --proof-format lrat` needs no DRAT checker: every piece of every band the
/// bound rests on (the common values of each band, counted from the definition) gets a binary
/// LRAT proof checked by grundy's LRAT checker, its files removed and its note naming the
/// format, the band's note too; the forged rung over the brute force's pattern is caught as
/// with DRAT.
#[test]
fn a_chain_proved_in_lrat_is_checked_by_grundy_piece_by_piece() {
    use grundy::sat::solve::DRAT_CHECKER_VAR;
    let (dir, out) = p4_ladder_to_64();
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let (_, rungs) = forge_p4_band(&ladder_path);
    let proofs = dir.path().join("proofs").display().to_string();
    let started = chrono::Utc::now();
    let failed = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(P4_BOUNDS)
        .args(["--prove-chain", "--proof-dir", &proofs, "--out", &out])
        .args(["--pieces", "--proof-format", "lrat"])
        .env_remove(DRAT_CHECKER_VAR)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&failed.stderr);
    let said = stderr.trim_end().lines().last().unwrap_or("");
    assert!(!failed.status.success(), "{failed:?}");
    assert!(said.contains("the ladder is wrong"), "{stderr}");
    let proved = ladder_json(&ladder_path);
    let all = proved["rungs"].as_array().unwrap();
    let lrat_checker = grundy::sat::lrat::checker_name();
    for (rung, (from, below, _)) in all[..rungs].iter().zip(rungs_of(&proved)) {
        let in_band: Vec<u16> = (from..below).filter(|&v| is_common(v)).collect();
        assert_eq!(piece_tops(rung), in_band, "{rung}");
        for piece in rung["pieces"].as_array().unwrap() {
            assert_eq!(
                piece["proof"]["checked_by"],
                lrat_checker.as_str(),
                "{piece}"
            );
            let name = piece["proof"]["proof"].as_str().unwrap();
            assert!(!name.contains('/') && name.ends_with(".lrat"), "{piece}");
            assert_eq!(piece["proof"]["format"], "lrat, removed once checked");
            assert!(ended_within(piece, started), "{piece}");
        }
        let format = rung["proof"]["format"].as_str().unwrap();
        assert!(
            format.starts_with("lrat in ") && format.contains("pieces"),
            "{rung}"
        );
        assert!(
            rung["proof"]["proof"]
                .as_str()
                .unwrap()
                .ends_with("-s0-*.lrat")
        );
    }
    assert_eq!(std::fs::read_dir(&proofs).unwrap().count(), 0, "files left");
}

/// Whether a piece record says it ended (`ended`, RFC 3339 in UTC, to the second) between
/// `started` (the test's clock before the run that wrote it) and now: the record says when its
/// call ended, not some other time.
fn ended_within(piece: &Json, started: chrono::DateTime<chrono::Utc>) -> bool {
    let Some(written) = piece["ended"].as_str() else {
        return false;
    };
    let Ok(ended) = chrono::DateTime::parse_from_rfc3339(written) else {
        return false;
    };
    // To the second, so a call that ended in the run's first second may read just before it.
    let second = chrono::TimeDelta::seconds(1);
    written.ends_with('Z') && ended >= started - second && ended <= chrono::Utc::now()
}

/// p = 4's ladder below 40 (bands from 8 by 32) in `dir`, asked in pieces by `sat bounds
/// ... extra` with LRAT proofs in `dir/proofs` and no DRAT checker set: the ladder.
fn p4_pieces_in_lrat(dir: &Path, extra: &[&str]) -> Json {
    let out = dir.join("periods.json").display().to_string();
    let proofs = dir.join("proofs").display().to_string();
    let files = [
        "--proof-dir",
        &proofs,
        "--proof-format",
        "lrat",
        "--out",
        &out,
    ];
    let run = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(P4_BOUNDS)
        .args(["--from", "8", "--step", "32", "--to", "40", "--pieces"])
        .args([&files[..], extra].concat())
        .env_remove(grundy::sat::solve::DRAT_CHECKER_VAR)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    ladder_json(&dir.join("bounds-p4-feasible.json"))
}

/// Every band of `ladder` proved in LRAT pieces, one per common value of the band (counted
/// from the definition), each checked by grundy's checker, its note naming its files alone
/// and ending with `fate`, as the band's note does; the files in `proofs` are exactly those
/// the notes name when `fate` is "kept" (each accepted again by `grundy sat check-lrat`), none
/// otherwise.
fn assert_proofs_settled(ladder: &Json, proofs: &Path, fate: &str) {
    let mut named = HashSet::new();
    let rungs = ladder["rungs"].as_array().unwrap();
    assert_eq!(
        rungs_of(ladder),
        [(0, 8, "unsat".into()), (8, 40, "unsat".into())]
    );
    for (rung, (from, below, _)) in rungs.iter().zip(rungs_of(ladder)) {
        let in_band: Vec<u16> = (from..below).filter(|&v| is_common(v)).collect();
        assert_eq!(piece_tops(rung), in_band, "{rung}");
        for piece in rung["pieces"].as_array().unwrap() {
            let note = &piece["proof"];
            assert_eq!(
                note["checked_by"],
                grundy::sat::lrat::checker_name().as_str()
            );
            assert_eq!(note["format"], format!("lrat, {fate}"), "{piece}");
            let (cnf, proof) = (
                note["cnf"].as_str().unwrap(),
                note["proof"].as_str().unwrap(),
            );
            assert!(!cnf.contains('/') && !proof.contains('/'), "{piece}");
            named.extend([cnf.to_string(), proof.to_string()]);
            if fate == "kept" {
                let (cnf, proof) = (proofs.join(cnf), proofs.join(proof));
                let again = grundy(&["sat", "check-lrat", path_str(&cnf), path_str(&proof)]);
                assert!(again.status.success(), "{piece}: {again:?}");
            }
        }
        let n = in_band.len();
        let words = format!("lrat in {n} pieces, one per value of s[0] (the largest), {fate}");
        assert_eq!(rung["proof"]["format"], words, "{rung}");
    }
    let left: HashSet<String> = std::fs::read_dir(proofs).map_or(HashSet::new(), |d| {
        d.map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    });
    match fate {
        "kept" => assert_eq!(left, named),
        _ => assert!(left.is_empty(), "{left:?}"),
    }
}

/// A checked proof's files are removed, by a climb as by a chain, unless `--keep-proofs`, and
/// the ladder says which: p = 4's bands below 40 climbed in LRAT pieces with and without it,
/// and climbed bare and then proved by a chain that keeps them, and climbed with certified
/// lemmas (`--lemmas` beside the LRAT proofs). (A climb used to keep every file while its
/// band's note said "removed once checked".)
#[test]
fn checked_proofs_are_removed_unless_kept_and_the_ladder_says_which() {
    let removed = tempfile::tempdir().unwrap();
    let ladder = p4_pieces_in_lrat(removed.path(), &[]);
    let fate = "removed once checked";
    assert_proofs_settled(&ladder, &removed.path().join("proofs"), fate);
    let kept = tempfile::tempdir().unwrap();
    let ladder = p4_pieces_in_lrat(kept.path(), &["--keep-proofs"]);
    assert_proofs_settled(&ladder, &kept.path().join("proofs"), "kept");
    // Climbed with certified lemmas (every piece refuted at its first call, given nothing):
    // the same proofs, and the bands closed on them.
    let certified = tempfile::tempdir().unwrap();
    let ladder = p4_pieces_in_lrat(certified.path(), &["--lemmas"]);
    assert_proofs_settled(&ladder, &certified.path().join("proofs"), fate);

    let chained = tempfile::tempdir().unwrap();
    let out = chained.path().join("periods.json").display().to_string();
    let bare = [
        "--from", "8", "--step", "32", "--to", "40", "--pieces", "--out", &out,
    ];
    assert!(grundy(&[&P4_BOUNDS[..], &bare].concat()).status.success());
    let chain = ["--prove-chain", "--keep-proofs"];
    let ladder = p4_pieces_in_lrat(chained.path(), &chain);
    assert_proofs_settled(&ladder, &chained.path().join("proofs"), "kept");
}

/// `--prove-chain --pieces` proves each band one value of its largest value at a time: every
/// rung's pieces are exactly the common values of its band (counted here from the definition,
/// not by the encoding), each checked by rate (or dratify), and only then does the rung get its
/// proof. A rung forged over a pattern is caught by its model at the piece of the least largest
/// value the brute force finds, its pieces below that saved; a piece lost (a run stopped) is
/// the only call the next run makes.
#[test]
fn a_band_proved_in_pieces_is_covered_value_by_value_and_a_false_one_is_caught() {
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let least = Rule::officers(4).least_largest_below(136).unwrap();
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let (_, rungs) = forge_p4_band(&ladder_path);
    let proofs = dir.path().join("proofs").display().to_string();
    let prove = || prove_p4_chain(&proofs, &out, &checker, &["--pieces"]);
    // Its 68 calls take long enough for the display's first line of a log (after 10 s) before the
    // error, which is the last line.
    let failed = prove();
    let stderr = String::from_utf8_lossy(&failed.stderr);
    let said = stderr.trim_end().lines().last().unwrap_or("");
    assert!(!failed.status.success(), "{failed:?}");
    assert!(
        said.starts_with("grundy: ") && said.contains("the ladder is wrong"),
        "{stderr}"
    );
    let proved = ladder_json(&ladder_path);
    let all = proved["rungs"].as_array().unwrap();
    let in_band =
        |from: u16, below: u16| -> Vec<u16> { (from..below).filter(|&v| is_common(v)).collect() };
    for (rung, (from, below, _)) in all[..rungs].iter().zip(rungs_of(&proved)) {
        assert_eq!(piece_tops(rung), in_band(from, below), "{rung}");
        for piece in rung["pieces"].as_array().unwrap() {
            assert!(checked_by_a_drat_checker(piece), "{piece}");
        }
        assert!(
            rung["proof"]["format"].as_str().unwrap().contains("pieces"),
            "{rung}"
        );
    }
    assert_eq!(piece_tops(&all[rungs]), in_band(64, least));
    assert!(all[rungs]["proof"].is_null(), "{}", all[rungs]);
    let summary = grundy(&[&P4_BOUNDS[..], &["--from", "8", "--to", "8", "--out", &out]].concat());
    let pieces = in_band(64, least).len();
    let line = format!(
        "{rungs} of the {} rungs it rests on with a checked proof, and {pieces} pieces of the others",
        rungs + 1
    );
    assert!(
        String::from_utf8_lossy(&summary.stdout).contains(&line),
        "{summary:?}"
    );
    assert_eq!(std::fs::read_dir(&proofs).unwrap().count(), 0);
    // A run stopped after all but one piece of a rung: the next makes that call alone.
    let mut stopped = proved.clone();
    let rungs_left = stopped["rungs"].as_array_mut().unwrap();
    rungs_left.truncate(rungs);
    let last = &mut rungs_left[rungs - 1];
    last["proof"] = Json::Null;
    let lost = last["pieces"].as_array_mut().unwrap().remove(1);
    std::fs::write(&ladder_path, serde_json::to_vec(&stopped).unwrap()).unwrap();
    let again = prove();
    assert!(again.status.success(), "{again:?}");
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(stdout.contains("1 rung proved now (1 piece);"), "{stdout}");
    let done = format!("{rungs} of the {rungs} rungs the bound rests on have a checked proof");
    assert!(stdout.contains(&done), "{stdout}");
    let resumed = ladder_json(&ladder_path);
    let last = &resumed["rungs"][rungs - 1];
    let (from, below, _) = rungs_of(&resumed)[rungs - 1];
    let mut tops = piece_tops(last);
    tops.sort_unstable();
    assert_eq!(tops, in_band(from, below));
    assert_eq!(
        last["pieces"].as_array().unwrap().last().unwrap()["top"],
        lost["top"]
    );
}

/// `--prove-chain --pieces --cut R:V` proves each piece as its two halves (`s[1]` below 64 and
/// at least 64): every rung's pieces are two halves for each common value of its band (counted
/// from the definition), each checked by rate (or dratify), and the rung's proof says it rests
/// on halves. Mutation: the cut ignored (one piece a value), or a half's unit left out (the
/// checker would still accept, but the pieces would not be halves).
#[test]
fn a_chain_proved_in_halves_has_two_checked_halves_for_every_value_of_each_band() {
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let proofs = dir.path().join("proofs").display().to_string();
    let proved = prove_p4_chain(&proofs, &out, &checker, &["--pieces", "--cut", "1:64"]);
    assert!(proved.status.success(), "{proved:?}");
    let ladder = ladder_json(&ladder_path);
    let rungs = rungs_of(&ladder);
    let mut values = 0;
    for (rung, (from, below, _)) in ladder["rungs"].as_array().unwrap().iter().zip(&rungs) {
        let in_band: Vec<u16> = (*from..*below).filter(|&v| is_common(v)).collect();
        values += in_band.len();
        let twice: Vec<u16> = in_band.iter().flat_map(|&v| [v, v]).collect();
        let mut tops = piece_tops(rung);
        tops.sort_unstable();
        assert_eq!(tops, twice, "{rung}");
        for piece in rung["pieces"].as_array().unwrap() {
            assert_eq!(piece["half"]["residue"], 1, "{piece}");
            assert_eq!(piece["half"]["at"], 64, "{piece}");
            assert!(checked_by_a_drat_checker(piece), "{piece}");
        }
        let highs = rung["pieces"].as_array().unwrap().iter();
        let highs = highs.filter(|p| p["half"]["high"] == true).count();
        assert_eq!(highs, in_band.len(), "{rung}");
        let format = rung["proof"]["format"].as_str().unwrap();
        assert!(format.contains("two halves"), "{rung}");
    }
    // Asked whole by the climb, proved in halves: the table says one call all the same. (The
    // summary shows the ladders beside a periods file: p = 4's answer makes one.)
    assert!(
        grundy(&["sat", "officers", "--periods", "4..4", "--out", &out])
            .status
            .success()
    );
    let table = grundy(&["sat", "summary", "--out", &out, "--rungs"]);
    let table = String::from_utf8_lossy(&table.stdout);
    for (rung, (from, below, _)) in ladder["rungs"].as_array().unwrap().iter().zip(&rungs) {
        assert_eq!(rung["in_pieces"], false, "{rung}");
        let row = format!("| {from}..{below} | refuted | one call |");
        assert!(table.contains(&row), "{row} not in {table}");
    }
    let stdout = String::from_utf8_lossy(&proved.stdout);
    let said = format!("{} rungs proved now ({} halves);", rungs.len(), 2 * values);
    assert!(stdout.contains(&said), "{stdout}");
    assert!(
        stdout.contains(", s[1] >= 64: proof checked by"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_dir(&proofs).unwrap().count(), 0);
}

/// `--prove-chain --pieces --cut 1:16,32` proves each piece as its three parts (`s[1]` below
/// 16, from 16 below 32, from 32): every rung's pieces are the three parts of each common value
/// of its band (counted from the definition), each checked by rate (or dratify), and the rung's
/// proof says it rests on the parts of a cut. Mutation: a cut's values after the first ignored
/// (two halves a value).
#[test]
fn a_chain_proved_in_parts_has_every_part_checked_for_every_value_of_each_band() {
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let proofs = dir.path().join("proofs").display().to_string();
    let proved = prove_p4_chain(&proofs, &out, &checker, &["--pieces", "--cut", "1:16,32"]);
    assert!(proved.status.success(), "{proved:?}");
    let ladder = ladder_json(&ladder_path);
    let rungs = rungs_of(&ladder);
    let parts = [
        serde_json::json!({"residue": 1, "at": 16, "high": false}),
        serde_json::json!({"residue": 1, "at": 16, "high": true, "below": 32}),
        serde_json::json!({"residue": 1, "at": 32, "high": true}),
    ];
    let mut values = 0;
    for (rung, (from, below, _)) in ladder["rungs"].as_array().unwrap().iter().zip(&rungs) {
        let in_band: Vec<u16> = (*from..*below).filter(|&v| is_common(v)).collect();
        values += in_band.len();
        let expected: Vec<(u16, Json)> = (in_band.iter())
            .flat_map(|&v| parts.iter().map(move |h| (v, h.clone())))
            .collect();
        let mut got: Vec<(u16, Json)> = (rung["pieces"].as_array().unwrap().iter())
            .map(|p| (p["top"].as_u64().unwrap() as u16, p["half"].clone()))
            .collect();
        let index = |h: &Json| parts.iter().position(|q| q == h);
        got.sort_by_key(|(v, h)| (*v, index(h)));
        assert_eq!(got, expected, "{rung}");
        for piece in rung["pieces"].as_array().unwrap() {
            assert!(checked_by_a_drat_checker(piece), "{piece}");
        }
        let format = rung["proof"]["format"].as_str().unwrap();
        assert!(format.contains("the parts of a cut"), "{rung}");
    }
    let stdout = String::from_utf8_lossy(&proved.stdout);
    let said = format!("{} rungs proved now ({} parts);", rungs.len(), 3 * values);
    assert!(stdout.contains(&said), "{stdout}");
    assert!(
        stdout.contains(", 16 <= s[1] < 32: proof checked by"),
        "{stdout}"
    );
    assert_eq!(std::fs::read_dir(&proofs).unwrap().count(), 0);
}

/// `--prove-chain --to V` proves only the foot of the chain, the rungs below V at most: those
/// get checked proofs and the rungs above keep none, and the run says how many of the chain are
/// proved; a second run without `--to` proves the rest. Mutation: `--to` ignored (every rung
/// proved by the first run), or a rung below V left out.
#[test]
fn prove_chain_to_a_bound_proves_the_rungs_below_it_and_no_others() {
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let proofs = dir.path().join("proofs").display().to_string();
    // No --from: the default (64) is a climb's, and says nothing to a chain proof.
    let foot = prove_p4_chain(&proofs, &out, &checker, &["--to", "40"]);
    assert!(foot.status.success(), "{foot:?}");
    let ladder = ladder_json(&ladder_path);
    let rungs = rungs_of(&ladder);
    let proved = |l: &Json| -> Vec<bool> {
        let all = l["rungs"].as_array().unwrap().iter();
        all.map(|r| r["proof"]["checked_by"].is_string()).collect()
    };
    let below_40: Vec<bool> = rungs.iter().map(|&(_, below, _)| below <= 40).collect();
    assert!(
        below_40.contains(&true) && below_40.contains(&false),
        "{rungs:?}"
    );
    assert_eq!(proved(&ladder), below_40, "{ladder}");
    let n = below_40.iter().filter(|&&b| b).count();
    let said = format!("{n} of the {} rungs the bound rests on have", rungs.len());
    assert!(
        String::from_utf8_lossy(&foot.stdout).contains(&said),
        "{foot:?}"
    );
    // It started by saying what it would ask: those rungs, one call each, one at a time.
    let band = |r: &(u16, u16, String)| format!("{}..{}", r.0, r.1);
    let asked = format!(
        "p=4: {n} calls to prove, in {n} bands from {} to {}; the climb took ",
        band(&rungs[0]),
        band(&rungs[n - 1])
    );
    let first_line = String::from_utf8_lossy(&foot.stdout)
        .lines()
        .next()
        .map(String::from);
    assert!(
        first_line
            .as_ref()
            .is_some_and(|l| l.starts_with(&asked) && l.ends_with("; 1 at a time")),
        "{foot:?}"
    );
    let rest = prove_p4_chain(&proofs, &out, &checker, &[]);
    assert!(rest.status.success(), "{rest:?}");
    assert!(proved(&ladder_json(&ladder_path)).iter().all(|&b| b));
}

/// A chain proof says, before it starts, how long its proofs should take at the pace of the
/// bands below proved in pieces in its format: p = 4 climbed to 64, its rungs below 40 proved
/// in DRAT pieces (whose first line says no pace: none was proved), then 40..48 in LRAT (no
/// pace either: no band below was proved in LRAT), then the rest in DRAT, whose first line gives
/// the ratio of the DRAT bands' checked pieces' seconds to their climb's, summed from the
/// ladder, and their count; its plan of one call (the next band whole) says "over it, its
/// proof". Mutations tried (each fails): every band of the chain counted, proved or not; the
/// climb's seconds over the proofs'; bands of either format counted; "them" for one call.
#[test]
fn a_chain_proof_tells_the_pace_of_the_bands_proved_in_pieces_below() {
    let Some((checker, dir, out)) = p4_ladder_to_64_and_a_checker() else {
        return;
    };
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let proofs = dir.path().join("proofs").display().to_string();
    let first_line = |run: &std::process::Output| {
        let stdout = String::from_utf8_lossy(&run.stdout);
        stdout.lines().next().unwrap_or("").to_string()
    };
    let foot = prove_p4_chain(&proofs, &out, &checker, &["--pieces", "--to", "40"]);
    assert!(foot.status.success(), "{foot:?}");
    assert!(!first_line(&foot).contains("their proofs"), "{foot:?}");
    let lrat = ["--pieces", "--to", "48", "--proof-format", "lrat"];
    let in_lrat = prove_p4_chain(&proofs, &out, &checker, &lrat);
    assert!(in_lrat.status.success(), "{in_lrat:?}");
    assert!(
        !first_line(&in_lrat).contains("their proofs"),
        "{in_lrat:?}"
    );
    // The bands proved now, and their pieces' seconds against the climb's.
    let ladder = ladder_json(&ladder_path);
    let proved: Vec<&Json> = (ladder["rungs"].as_array().unwrap().iter())
        .filter(|r| checked_by_a_drat_checker(r) && r["pieces"].is_array())
        .collect();
    assert!(!proved.is_empty(), "{ladder}");
    // Band by band, then over the bands (floats added in the order the ladder is read).
    let checked_seconds = |r: &&Json| -> f64 {
        (r["pieces"].as_array().unwrap().iter())
            .filter(|p| checked_by_a_drat_checker(p))
            .map(|p| p["seconds"].as_f64().unwrap())
            .sum()
    };
    let pieces_seconds: f64 = proved.iter().map(checked_seconds).sum();
    let climb_seconds: f64 = proved.iter().map(|r| r["seconds"].as_f64().unwrap()).sum();
    let pace = format!(
        "({:.1} times the climb, as in the {} bands proved in pieces below in DRAT)",
        pieces_seconds / climb_seconds,
        proved.len()
    );
    // One call left (the next band whole, up to its top): the line speaks of it, not them.
    let (from, below, _) = (rungs_of(&ladder).into_iter())
        .find(|r| r.0 >= 48 && r.2 == "unsat")
        .expect("a refuted band above 48");
    let to = below.to_string();
    let one = prove_p4_chain(&proofs, &out, &checker, &["--plan", "--to", &to]);
    assert!(one.status.success(), "{one:?}");
    let said = first_line(&one);
    let want = format!("p=4: 1 call to prove, in the band {from}..{below}; the climb took ");
    assert!(said.starts_with(&want), "{said} (wanted {want})");
    assert!(said.contains(" over it, its proof about "), "{said}");
    assert!(said.contains(&pace), "{said} (wanted {pace})");
    let rest = prove_p4_chain(&proofs, &out, &checker, &["--pieces"]);
    assert!(rest.status.success(), "{rest:?}");
    assert!(
        first_line(&rest).contains(&pace),
        "{rest:?} (wanted {pace})"
    );
}

/// A climb in pieces (`sat bounds --pieces`) asks each band one value of its largest value at a
/// time, lowest first: every refuted rung's pieces are the common values of its band, and the
/// first piece with a pattern is the least largest value the brute force finds. A band left
/// unfinished (its last pieces lost) is continued in place by the next run, which asks only
/// the pieces it lacks.
#[test]
fn a_climb_in_pieces_stops_at_the_least_largest_value_and_goes_on_where_it_stopped() {
    let least = Rule::officers(4).least_largest_below(136).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let started = chrono::Utc::now();
    let out = dir.path().join("periods.json").display().to_string();
    let climb = [
        "--from", "8", "--step", "32", "--to", "136", "--pieces", "--out", &out,
    ];
    let args = [&P4_BOUNDS[..], &climb].concat();
    let first = grundy(&args);
    assert!(first.status.success(), "{first:?}");
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let ladder = ladder_json(&ladder_path);
    let in_band =
        |from: u16, below: u16| -> Vec<u16> { (from..below).filter(|&v| is_common(v)).collect() };
    let rungs = rungs_of(&ladder);
    let answers: Vec<&str> = rungs.iter().map(|(_, _, a)| a.as_str()).collect();
    assert_eq!(answers, ["unsat", "unsat", "unsat", "unsat", "sat"]);
    for (rung, (from, below, answer)) in ladder["rungs"].as_array().unwrap().iter().zip(&rungs) {
        let refuted_to = if answer == "sat" { least } else { *below };
        assert_eq!(piece_tops(rung), in_band(*from, refuted_to), "{rung}");
        assert!(rung.get("cut").is_none(), "whole pieces, no cut: {rung}");
        assert_eq!(rung["in_pieces"], true, "{rung}");
        let pieces = rung["pieces"].as_array().unwrap();
        assert!(pieces.iter().all(|p| ended_within(p, started)), "{rung}");
    }
    let pattern: Vec<u64> = (ladder["pattern"].as_array().unwrap().iter())
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(pattern.iter().max(), Some(&u64::from(least)), "{ladder}");
    // The band 72..104 stopped with two pieces to go, and nothing above it tried.
    let mut stopped = ladder.clone();
    let kept = stopped["rungs"].as_array_mut().unwrap();
    kept.truncate(4);
    kept[3]["answer"] = "timeout".into();
    let pieces = kept[3]["pieces"].as_array_mut().unwrap();
    let lost: Vec<Json> = pieces.split_off(pieces.len() - 2);
    stopped.as_object_mut().unwrap().remove("pattern");
    // An earlier whole try of that band, with no answer in 999 s, stays as it was.
    let mut whole = forged_rung(72, 104);
    (whole["answer"], whole["seconds"]) = ("timeout".into(), 999.0.into());
    let kept = stopped["rungs"].as_array_mut().unwrap();
    kept.insert(3, whole.clone());
    std::fs::write(&ladder_path, serde_json::to_vec(&stopped).unwrap()).unwrap();
    let summary = grundy(&[&P4_BOUNDS[..], &["--from", "8", "--to", "8", "--out", &out]].concat());
    let refuted = in_band(72, 104).len() - 2;
    let line = format!(
        "below 104: no answer in 999 s (the longest of 2 tries), {refuted} pieces of it refuted"
    );
    assert!(
        String::from_utf8_lossy(&summary.stdout).contains(&line),
        "{summary:?}"
    );
    let asked = pieces_asked(&args, "from 72 below 104, piece");
    assert_eq!(asked.len(), 2, "{asked:?}");
    for piece in &lost {
        assert!(
            asked
                .iter()
                .any(|l| l.contains(&format!("s[0] = {}:", piece["top"])))
        );
    }
    let resumed = ladder_json(&ladder_path);
    let mut tried = rungs.clone();
    tried.insert(3, (72, 104, "timeout".to_string()));
    assert_eq!(rungs_of(&resumed), tried, "{resumed}");
    assert_eq!(resumed["rungs"][3], whole);
    assert_eq!(piece_tops(&resumed["rungs"][4]), in_band(72, 104));
}

/// p = 4's ladder climbed in `dir` from 8 by 32 with `climb`'s options, every UNSAT call proved
/// in `dir/proofs` and checked by `checker`; the ladder.
fn p4_climb_with_proofs(dir: &Path, climb: &[&str], checker: &str) -> Json {
    let out = dir.join("periods.json").display().to_string();
    let proofs = dir.join("proofs").display().to_string();
    let files = [
        "--from",
        "8",
        "--step",
        "32",
        "--proof-dir",
        &proofs,
        "--out",
        &out,
    ];
    let run = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([&P4_BOUNDS[..], climb, &files].concat())
        .env(grundy::sat::solve::DRAT_CHECKER_VAR, checker)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    ladder_json(&dir.join("bounds-p4-feasible.json"))
}

/// `--pieces --threads 2 --proof-dir`: the pieces of a band asked two at a time, each with a
/// DRAT proof checked by rate (or dratify) as it ends; every refuted rung's pieces are its
/// band's common values and its proof covers them, and the pattern that ends the climb is one
/// the brute force finds.
#[test]
fn the_pieces_of_a_band_are_asked_side_by_side_with_proofs() {
    let Some(checker) = crate::sat::rate_checker().or_else(crate::sat::drat_checker) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (wrapper, most_at_once) = overlap_checker(dir.path(), &checker);
    let climb = ["--to", "136", "--pieces", "--threads", "2"];
    let ladder = p4_climb_with_proofs(dir.path(), &climb, &wrapper);
    let rungs = rungs_of(&ladder);
    let answers: Vec<&str> = rungs.iter().map(|(_, _, a)| a.as_str()).collect();
    assert_eq!(answers, ["unsat", "unsat", "unsat", "unsat", "sat"]);
    for (rung, (from, below, _)) in ladder["rungs"].as_array().unwrap()[..4].iter().zip(&rungs) {
        let mut tops = piece_tops(rung);
        tops.sort_unstable();
        let band: Vec<u16> = (*from..*below).filter(|&v| is_common(v)).collect();
        assert_eq!(tops, band, "{rung}");
        assert!(checked_by_a_drat_checker(rung), "{rung}");
        assert_eq!(rung["threads"], 2, "{rung}");
    }
    let pattern: Vec<u16> = (ladder["pattern"].as_array().unwrap().iter())
        .map(|v| v.as_u64().unwrap() as u16)
        .collect();
    let patterns = Rule::officers(4).fixed_points(&common_below(136));
    assert!(patterns.contains(&pattern), "{pattern:?}");
    assert!(most_at_once() >= 2, "the pieces never ran side by side");
}

/// `--pieces --lemmas` on p = 4: every answer is the brute force's, and since every call is
/// answered (a ladder never asks an answered call again), no lemma file is left, and no piece
/// was given any, or is said to have kept any. `--lemmas` with no folder makes `lemmas/`
/// beside the ladder.
#[test]
fn a_climb_with_lemmas_answers_as_the_brute_force_and_keeps_no_answered_file() {
    let least = Rule::officers(4).least_largest_below(136).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lemmas = dir.path().join("lemmas");
    let out = dir.path().join("periods.json");
    let climb = [
        "--from", "8", "--step", "32", "--to", "136", "--pieces", "--lemmas",
    ];
    let tail = ["--out", path_str(&out)];
    let run = grundy(&[&P4_BOUNDS[..], &climb, &tail].concat());
    assert!(run.status.success(), "{run:?}");
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    let answers: Vec<String> = rungs_of(&ladder).into_iter().map(|(_, _, a)| a).collect();
    assert_eq!(answers, ["unsat", "unsat", "unsat", "unsat", "sat"]);
    for (rung, (from, below, answer)) in ladder["rungs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(rungs_of(&ladder))
    {
        let refuted_to = if answer == "sat" { least } else { below };
        let band: Vec<u16> = (from..refuted_to).filter(|&v| is_common(v)).collect();
        assert_eq!(piece_tops(rung), band, "{rung}");
        assert!(rung.get("lemmas").is_none(), "{rung}");
        assert!(rung.get("kept").is_none(), "{rung}");
        for piece in rung["pieces"].as_array().unwrap() {
            assert!(piece.get("lemmas").is_none(), "nothing to carry: {piece}");
        }
    }
    let left: Vec<_> = std::fs::read_dir(&lemmas).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A piece with no answer in its time keeps what it learned: p = 27's committed ladder
/// (refuted to 256) continued in pieces of the band 256..264, whose pieces take far longer than
/// the 3000 conflicts each is given here (the band had no answer in 1800 s), leaves only the
/// lemma file of the piece it stopped (written when the call ends, not only every 10 minutes),
/// and the ladder names that file and its clauses (`kept`); a run that will not give the piece
/// that file (no `--lemmas`, or another folder) says so before it starts; asked again with it,
/// that piece is given exactly the clauses of that file (counted here from the file), and its
/// file keeps them; a run that asks only another piece (`--only-pieces`) says nothing of it.
#[test]
fn a_piece_out_of_time_keeps_its_lemmas_for_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let lemmas = dir.path().join("lemmas");
    let out = dir.path().join("periods.json");
    let pieces = ["--from", "264", "--to", "264", "--pieces"];
    let pieces = [&pieces[..], &BOUNDED_CALL].concat();
    let files = ["--lemmas", path_str(&lemmas), "--out", path_str(&out)];
    let args = [&P27_BOUNDS[..], &pieces, &files].concat();
    let elsewhere = dir.path().join("elsewhere");
    let other_folder = [&files[..1], &[path_str(&elsewhere)], &files[2..]].concat();
    let other_folder = [&P27_BOUNDS[..], &pieces, &other_folder].concat();
    let without = [&P27_BOUNDS[..], &pieces, &files[2..]].concat();
    let clauses = || -> Vec<(String, usize)> {
        let mut files: Vec<(String, usize)> = (crate::sat::lemma_files(&lemmas).into_iter())
            .map(|f| {
                let text = std::fs::read_to_string(&f).unwrap();
                let count = text.lines().filter(|l| !l.starts_with('c')).count();
                (f.file_name().unwrap().to_str().unwrap().to_string(), count)
            })
            .collect();
        files.sort();
        files
    };
    // The band's common values, from the definition ([`is_common`]): the pieces a run of the
    // band says it starts with.
    let common: Vec<String> = (256..264u16)
        .filter(|&v| is_common(v))
        .map(|v| v.to_string())
        .collect();
    let starts = format!(
        "256..264 in pieces: s[0] = {} left of 4, 1 at once",
        common.join(", ")
    );
    // Runs the climb; the last rung of the ladder after it.
    let climb = || -> Json {
        let run = grundy(&args);
        assert!(run.status.success(), "{run:?}");
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(said.contains(&starts), "{said}");
        last_rung(&ladder)
    };
    let rung = climb();
    assert_eq!(
        (rung["from"].as_u64(), rung["answer"].as_str()),
        (Some(256), Some("timeout"))
    );
    assert!(rung.get("lemmas").is_none(), "nothing to carry yet: {rung}");
    // Stopped by its conflicts, long before the timeout, and the try says so.
    assert_eq!(rung["conflicts"].as_u64(), Some(3000), "{rung}");
    assert!(rung["seconds"].as_f64().unwrap() < 100.0, "{rung}");
    // Only the stopped piece's file: those of pieces refuted are removed.
    let stopped = clauses();
    let stem = "officers-p27-feasible-from256-below264-s0-";
    assert!(
        stopped.len() == 1 && stopped[0].0.starts_with(stem),
        "{stopped:?}"
    );
    let (name, learned) = stopped[0].clone();
    // The ladder says which piece kept what: the band's first common value, 256.
    let kept = &rung["kept"];
    assert_eq!(kept.as_array().map(Vec::len), Some(1), "{rung}");
    assert_eq!(
        (kept[0]["top"].as_u64(), kept[0]["file"].as_str()),
        (Some(256), Some(name.as_str()))
    );
    assert_eq!(kept[0]["clauses"].as_u64(), Some(learned as u64), "{rung}");
    // Runs that will not give the piece its file say so, naming it, before they start.
    for (run, why) in [
        (&without, "this run has no --lemmas".to_string()),
        (
            &other_folder,
            format!("{name} is not in {}", elsewhere.display()),
        ),
    ] {
        let said = grundy(run);
        assert!(said.status.success(), "{said:?}");
        let said = String::from_utf8_lossy(&said.stderr);
        let note = format!("the piece s[0] = 256 of 256..264 had {learned} lemmas kept");
        assert!(said.contains(&note) && said.contains(&why), "{said}");
    }
    // Nor does the run with the folder, which has the file it needs, and says it starts so.
    let run = grundy(&args);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(!said.contains("lemmas kept by an earlier run"), "{said}");
    let said = String::from_utf8_lossy(&run.stdout);
    let given = format!("{starts}; 1 start from lemma files kept by an earlier call");
    assert!(said.contains(&given), "{said}");
    let rung = last_rung(&ladder);
    assert_eq!(
        rung["lemmas"].as_u64().unwrap_or(0),
        learned as u64,
        "{rung}"
    );
    let after = clauses();
    let (_, kept) = after.iter().find(|(n, _)| *n == name).unwrap();
    assert!(*kept >= learned, "{after:?} after {stopped:?}");
    // A run that asks only another piece (`--only-pieces`) says nothing of 256's file: neither
    // that it is missing (no --lemmas) nor that a call starts from it.
    let only = ["--only-pieces", &common[1]];
    let said = grundy(&[&without[..], &only].concat());
    assert!(said.status.success(), "{said:?}");
    let note = String::from_utf8_lossy(&said.stderr);
    assert!(!note.contains("lemmas kept by an earlier run"), "{note}");
    let said = grundy(&[&args[..], &only].concat());
    assert!(said.status.success(), "{said:?}");
    let said = String::from_utf8_lossy(&said.stdout);
    let asks = format!("this run asks only s[0] = {}", common[1]);
    assert!(
        said.contains(&asks) && !said.contains("start from lemma files"),
        "{said}"
    );
    // Another folder with the file's core alone (a fresh machine, the core committed): the run
    // says the piece starts from it, in its note and its first line. Mutation: cores not
    // looked for (the note says "starts afresh", the line nothing).
    let core = name.replace(".lemmas", "-core.lemmas");
    let fresh = dir.path().join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    std::fs::copy(lemmas.join(&core), fresh.join(&core)).unwrap();
    let fresh_folder = [&files[..1], &[path_str(&fresh)], &files[2..]].concat();
    let said = grundy(&[&P27_BOUNDS[..], &pieces, &fresh_folder].concat());
    assert!(said.status.success(), "{said:?}");
    let (note, line) = (
        String::from_utf8_lossy(&said.stderr),
        String::from_utf8_lossy(&said.stdout),
    );
    assert!(note.contains("it starts from its core"), "{note}");
    let from_core = format!("{starts}; 1 from the cores of lemma files");
    assert!(line.contains(&from_core), "{line}");
}

/// A piece cut in parts after it was stopped (`--cut`) gives each part the clauses its whole
/// piece kept: p = 27's band 256..264, its piece 256 stopped by its conflicts with a lemma
/// file, then asked in halves of `s[13]` at 64; the half stopped is given exactly the clauses of
/// the piece's file (counted here from the file), which stays as it was, and the half keeps a
/// file of its own; the run's first line counts both halves as starting from kept files.
/// Then cut finer inside the half that kept a file (`--cut 13:32,64` for the low one), each
/// part of it stopped is given the clauses of the piece's file and of that half's, which holds
/// it, as the files say. The piece's file then lost, the note before the run says the parts
/// still have their own files (counted from the folder), not that the piece starts afresh;
/// asked whole again, that it starts afresh.
/// Mutations: a part given only its own files (none: no `lemmas` on the try); the piece's file
/// counted as one call; a finer part given its piece's file alone; the note's old wording; parts' files
/// named for a piece asked whole.
#[test]
fn a_part_of_a_stopped_piece_starts_from_the_piece_s_lemmas() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let lemmas = dir.path().join("lemmas");
    let out = dir.path().join("periods.json");
    let files = ["--lemmas", path_str(&lemmas), "--out", path_str(&out)];
    let args = [&P27_BOUNDS[..], &P27_PIECE_256, &BOUNDED_CALL, &files].concat();
    assert!(grundy(&args).status.success());
    let piece_files = crate::sat::lemma_files(&lemmas);
    assert_eq!(piece_files.len(), 1, "{piece_files:?}");
    let piece_text = std::fs::read_to_string(&piece_files[0]).unwrap();
    let learned = piece_text.lines().filter(|l| !l.starts_with('c')).count();
    assert!(learned > 0);
    let run = grundy(&[&args[..], &["--cut", "13:64"]].concat());
    assert!(run.status.success(), "{run:?}");
    // Both halves start from the piece's file, and the run's first line counts them.
    let said = String::from_utf8_lossy(&run.stdout);
    let both = "this run asks only s[0] = 256; 2 start from lemma files kept by an earlier call";
    assert!(said.contains(both), "{said}");
    let rung = last_rung(&ladder);
    assert_eq!(rung["answer"], "timeout", "{rung}");
    assert_eq!(rung["lemmas"].as_u64(), Some(learned as u64), "{rung}");
    let kept = rung["kept"].as_array().unwrap();
    assert!(kept.iter().any(|k| k["half"].is_object()), "{rung}");
    assert_eq!(
        std::fs::read_to_string(&piece_files[0]).unwrap(),
        piece_text
    );
    // Cut finer inside the half that kept a file: its parts start from the piece's file and
    // the half's (a half refuted within the conflicts keeps none).
    let half_files = crate::sat::lemma_files(&lemmas);
    let kept_by = |half: &str| {
        half_files
            .iter()
            .find(|f| f.to_string_lossy().contains(half))
    };
    let (half_file, finer_cut, parts) = match kept_by("-s0-256-s13-lt64-") {
        Some(file) => (file, "13:32,64", ["s[13] < 32", "32 <= s[13] < 64"]),
        None => (
            kept_by("-s0-256-s13-ge64-").expect("a half kept a file"),
            "13:64,96",
            ["64 <= s[13] < 96", "s[13] >= 96"],
        ),
    };
    let distinct: std::collections::HashSet<Vec<i32>> = [&piece_files[0], half_file]
        .iter()
        .flat_map(|f| clauses_of(f))
        .collect();
    let finer = grundy(&[&args[..], &["--cut", finer_cut]].concat());
    assert!(finer.status.success(), "{finer:?}");
    let said = String::from_utf8_lossy(&finer.stdout);
    let stopped: Vec<&str> = (said.lines())
        .filter(|l| {
            parts
                .iter()
                .any(|p| l.contains(&format!("s[0] = 256, {p}: no answer")))
        })
        .collect();
    assert!(!stopped.is_empty(), "no part of the half stopped: {said}");
    let given = format!(", {} lemmas of earlier calls given", distinct.len());
    for line in stopped {
        assert!(line.contains(&given), "{line} (wanted {given})");
    }
    // The whole piece's file and core lost (a fresh machine): asked cut again, the note says
    // its parts still have their files, counted here from the folder, not that it starts
    // afresh.
    let piece_core = grundy::sat::lemmas::core_name(&piece_files[0].to_string_lossy());
    std::fs::remove_file(&piece_files[0]).unwrap();
    let _ = std::fs::remove_file(&piece_core);
    let part_files = (crate::sat::lemma_files(&lemmas).into_iter())
        .filter(|f| f.to_string_lossy().contains("-s0-256-s13-"))
        .count();
    assert!(part_files > 0);
    let lost = grundy(&[&args[..], &["--cut", finer_cut]].concat());
    assert!(lost.status.success(), "{lost:?}");
    let note = String::from_utf8_lossy(&lost.stderr);
    let parts_have = format!("its parts asked cut still have their own files ({part_files} found)");
    assert!(note.contains(&parts_have), "{note}");
    assert!(!note.contains("it starts afresh"), "{note}");
    // Asked whole, no part's file is given it: the note says it starts afresh.
    let whole = grundy(&args);
    assert!(whole.status.success(), "{whole:?}");
    let note = String::from_utf8_lossy(&whole.stderr);
    assert!(note.contains("it starts afresh"), "{note}");
    assert!(!note.contains("its parts asked cut"), "{note}");
}

/// `--halve 1` (with `--cut 13:64 --in-turn --lemmas`): p = 27's piece 256 of 256..264 asked
/// in halves, each stopped by its conflicts, then every half that had no answer cut in two at
/// its middle common value and the band asked again in the finer cut. Checked against the
/// common values counted here by Officers' own rule (popcount of `v & !0x11` odd) below 264:
/// the halving's line counts the parts it cut, the next try's first line and the ladder's
/// record name the finer cut, the calls of that try are exactly the halves of the parts that
/// resisted (and the parts of one value, left whole), and each is given the lemmas its larger
/// part kept. Mutations: the cut kept as it was (no new parts asked); a half given no file
/// of the part holding it (no lemmas given), each fail here.
#[test]
fn the_parts_that_resist_are_halved_and_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let (lemmas, out) = (dir.path().join("lemmas"), dir.path().join("periods.json"));
    let halving = ["--cut", "13:64", "--in-turn", "--halve", "1"];
    let files = ["--lemmas", path_str(&lemmas), "--out", path_str(&out)];
    let run = grundy(
        &[
            &P27_BOUNDS[..],
            &P27_PIECE_256,
            &BOUNDED_CALL,
            &halving,
            &files,
        ]
        .concat(),
    );
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout).to_string();
    let (before, after) = said
        .split_once("256..264: halving 1 of 1: ")
        .unwrap_or_else(|| panic!("no halving: {said}"));
    // The parts a try asked, from its lines: (span, whether it had no answer, its line).
    let asked = |lines: &str| -> Vec<((u16, Option<u16>), bool, String)> {
        (lines.lines())
            .filter_map(|l| {
                let (_, rest) = l.split_once("piece s[0] = 256, ")?;
                let (part, answer) = rest.split_once(": ")?;
                Some((
                    part_span(part),
                    answer.starts_with("no answer"),
                    l.to_string(),
                ))
            })
            .collect()
    };
    let common: Vec<u16> = (0..264).filter(|&v| is_common(v)).collect();
    let held = |(from, end): (u16, Option<u16>)| -> Vec<u16> {
        (common.iter().copied())
            .filter(|&v| v >= from && end.is_none_or(|e| v < e))
            .collect()
    };
    let resisted: Vec<(u16, Option<u16>)> = (asked(before).into_iter())
        .filter(|(_, stopped, _)| *stopped)
        .map(|(span, _, _)| span)
        .collect();
    assert!(
        !resisted.is_empty(),
        "no half resisted 3000 conflicts: {said}"
    );
    let (mut cut_at, mut expected) = (vec![64u16], Vec::new());
    for &(from, end) in &resisted {
        let values = held((from, end));
        match values.len() {
            0 | 1 => expected.push((from, end)),
            n => {
                let middle = values[n / 2];
                cut_at.push(middle);
                expected.extend([(from, Some(middle)), (middle, end)]);
            }
        }
    }
    cut_at.sort_unstable();
    let halved = cut_at.len() - 1;
    let parts_cut = match halved {
        1 => "1 part without an answer cut in two".to_string(),
        n => format!("{n} parts without an answer cut in two"),
    };
    assert!(after.starts_with(&parts_cut), "{after}");
    let named: Vec<String> = cut_at.iter().map(u16::to_string).collect();
    let (last, rest) = named.split_last().unwrap();
    let cut_words = match rest {
        [] => format!("s[13] at {last}"),
        rest => format!("s[13] at {} and {last}", rest.join(", ")),
    };
    assert!(
        after.contains(&format!("; parts of {cut_words}\n")),
        "{after}"
    );
    let mut asked_after: Vec<_> = asked(after).into_iter().map(|(s, _, l)| (s, l)).collect();
    asked_after.sort();
    expected.sort();
    let spans: Vec<_> = asked_after.iter().map(|(s, _)| *s).collect();
    assert_eq!(spans, expected, "{said}");
    for (_, line) in &asked_after {
        assert!(line.contains("lemmas of earlier calls given"), "{line}");
    }
    let rung = last_rung(&ladder);
    let above: Vec<u64> = cut_at[1..].iter().map(|&v| u64::from(v)).collect();
    assert_eq!(
        rung["cut"]["at"].as_u64(),
        Some(u64::from(cut_at[0])),
        "{rung}"
    );
    let recorded: Vec<u64> = (rung["cut"]["above"].as_array())
        .map_or(Vec::new(), |a| a.iter().filter_map(Json::as_u64).collect());
    assert_eq!(recorded, above, "{rung}");
}

/// A halving that finds no part without an answer of two common values or more asks the cut
/// again as it is, each part given its own file, rather than end the run (p = 39's 231: every
/// part of one value that had no answer fell within one to three more calls). p = 27's piece
/// 256 with its parts below and above one common value refuted in the ladder (records made
/// here), so that the one part asked holds that value alone (counted by Officers' rule), and
/// 3000 conflicts leave it without an answer. Mutation: the run ended when nothing can be
/// halved (as before 2026-12-07's session 83) fails here.
#[test]
fn a_halving_with_nothing_to_halve_asks_the_cut_again() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let alone = 74u16;
    let next = (alone + 1..).find(|&v| is_common(v)).unwrap();
    assert!(is_common(alone) && next == alone + 1);
    let mut json = ladder_json(&ladder);
    let rung = json["rungs"].as_array_mut().unwrap().last_mut().unwrap();
    rung["cut"] = serde_json::json!({ "residue": 13, "at": alone, "above": [next] });
    let refuted = |at: u16, high: bool| {
        let half = serde_json::json!({ "residue": 13, "at": at, "high": high });
        serde_json::json!({ "top": 256, "seconds": 1.0, "lemmas": 0, "half": half })
    };
    rung["pieces"] = serde_json::json!([refuted(alone, false), refuted(next, true)]);
    std::fs::write(&ladder, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let (lemmas, out) = (dir.path().join("lemmas"), dir.path().join("periods.json"));
    let cut = format!("13:{alone},{next}");
    let halving = ["--cut", &cut, "--in-turn", "--halve", "1"];
    let files = ["--lemmas", path_str(&lemmas), "--out", path_str(&out)];
    let args = [
        &P27_BOUNDS[..],
        &P27_PIECE_256,
        &BOUNDED_CALL,
        &halving,
        &files,
    ]
    .concat();
    let run = grundy(&args);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout).to_string();
    let part = format!("piece s[0] = 256, {alone} <= s[13] < {next}: ");
    let asked: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("piece s[0] = 256, "))
        .collect();
    let (first, again) = (asked.first(), asked.get(1));
    assert!(
        first.is_some_and(|l| l.contains(&format!("{part}no answer"))),
        "the part of one value did not resist 3000 conflicts: {said}"
    );
    let again_words = "256..264: halving 1 of 1: no part without an answer holds two common \
                       values, so the band is asked again in the same cut";
    assert!(said.contains(again_words), "{said}");
    assert_eq!(asked.len(), 2, "{said}");
    let again = again.unwrap();
    assert!(again.contains(&part), "{again}");
    assert!(again.contains("lemmas of earlier calls given"), "{again}");
}

/// `--cut last` goes on with the cut the ladder's last try asked: here one written into the
/// committed p = 27 ladder's open try by the test (s[13] at 100 and 160), so the calls are
/// its three parts and the line names it. Without a try left open, or with --prove-chain, it
/// is refused in one line and the ladder is untouched. Mutation: the ladder's cut read but
/// not used (the pieces asked whole) fails here.
#[test]
fn cut_last_goes_on_with_the_cut_of_the_ladder_s_last_try() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let mut json = ladder_json(&ladder);
    let rung = json["rungs"].as_array_mut().unwrap().last_mut().unwrap();
    rung["cut"] = serde_json::json!({ "residue": 13, "at": 100, "above": [160] });
    std::fs::write(&ladder, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let out = dir.path().join("periods.json");
    let last = ["--cut", "last", "--in-turn", "--out", path_str(&out)];
    let args = [&P27_BOUNDS[..], &P27_PIECE_256, &BOUNDED_CALL, &last].concat();
    let run = grundy(&args);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        said.contains("--cut last: the cut of 256..264's last try, s[13] at 100 and 160"),
        "{said}"
    );
    let mut asked: Vec<(u16, Option<u16>)> = (said.lines())
        .filter_map(|l| l.split_once("piece s[0] = 256, ")?.1.split_once(": "))
        .map(|(part, _)| part_span(part))
        .collect();
    asked.sort_unstable();
    assert_eq!(
        asked,
        [(0, Some(100)), (100, Some(160)), (160, None)],
        "{said}"
    );
    // Refused: the last try answered (a copy of p = 4's ladder, climbed to its end), or with
    // --prove-chain; nothing written.
    let answered = tempfile::tempdir().unwrap();
    let p4 = answered.path().join("bounds-p4-feasible.json");
    let out4 = answered.path().join("periods.json");
    let climb = [
        "sat", "bounds", "officers", "--p", "4", "--from", "8", "--to", "8",
    ];
    assert!(
        grundy(&[&climb[..], &["--out", path_str(&out4)]].concat())
            .status
            .success()
    );
    let before = std::fs::read(&p4).unwrap();
    let with_last = ["--pieces", "--cut", "last", "--out", path_str(&out4)];
    let line = fails_with_one_line(&[&climb[..], &with_last].concat());
    assert!(
        line.contains("has its answer, so there is no cut to go on with"),
        "{line}"
    );
    let chain = ["--prove-chain", "--proof-dir", path_str(answered.path())];
    let line = fails_with_one_line(&[&climb[..], &with_last, &chain].concat());
    assert!(line.contains("not with --prove-chain"), "{line}");
    assert_eq!(std::fs::read(&p4).unwrap(), before);
}

/// The span of a part named as the tool prints it: `s[13] < 64`, `s[13] >= 64` or
/// `64 <= s[13] < 96`, as (from, end).
fn part_span(part: &str) -> (u16, Option<u16>) {
    let number = |s: &str| s.trim().parse::<u16>().unwrap_or_else(|_| panic!("{part}"));
    if let Some((from, rest)) = part.split_once(" <= ") {
        let (_, end) = rest.split_once(" < ").unwrap();
        return (number(from), Some(number(end)));
    }
    match (part.split_once(" >= "), part.split_once(" < ")) {
        (Some((_, from)), _) => (number(from), None),
        (_, Some((_, end))) => (0, Some(number(end))),
        _ => panic!("no part: {part}"),
    }
}

/// The clauses of a lemma file, each with its literals sorted (as a load counts them).
fn clauses_of(file: &std::path::Path) -> Vec<Vec<i32>> {
    let text = std::fs::read_to_string(file).unwrap();
    (text.lines().filter(|l| !l.starts_with('c')))
        .map(|l| {
            let mut c: Vec<i32> = (l.split_whitespace())
                .map(|x| x.parse().unwrap())
                .filter(|&x| x != 0)
                .collect();
            c.sort_unstable();
            c
        })
        .collect()
}

/// Once parts refute a piece, the lemma file kept for the whole piece goes: p = 4 climbed to
/// 56, an earlier try of the band 56..64 forged with a kept file for its first piece (named for
/// another CNF, so no call reads it), and the band asked in halves (`--cut 1:16`, which the
/// brute force says it refutes). The file is removed, and no try keeps a record of it.
/// Mutation: only the answered call's own file removed (the piece's stays).
#[test]
fn a_piece_refuted_in_parts_leaves_no_file_of_the_whole_piece() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let climb = ["--from", "8", "--step", "8", "--to", "56", "--out", &out];
    assert!(grundy(&[&P4_BOUNDS[..], &climb].concat()).status.success());
    assert!(Rule::officers(4).least_largest_below(64).is_none());
    let first = (56..64u16).find(|&v| is_common(v)).unwrap();
    let lemmas = dir.path().join("lemmas");
    std::fs::create_dir(&lemmas).unwrap();
    let name = format!("officers-p4-feasible-from56-below64-s0-{first}-00000000v1c1-seed0.lemmas");
    let kept_file = lemmas.join(&name);
    std::fs::write(
        &kept_file,
        "c grundy lemmas 1 cnf 00000000v1c1 count 0 crc32 00000000\n",
    )
    .unwrap();
    // Its core beside it goes with it.
    let core_file = lemmas.join(name.replace(".lemmas", "-core.lemmas"));
    std::fs::copy(&kept_file, &core_file).unwrap();
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let mut ladder = ladder_json(&ladder_path);
    (ladder["rungs"].as_array_mut().unwrap()).push(serde_json::json!({
        "from": 56, "below": 64, "largest_first": true, "answer": "timeout", "seconds": 1.0,
        "kept": [{"top": first, "clauses": 1, "by_length": [1], "file": name}]
    }));
    std::fs::write(&ladder_path, ladder.to_string()).unwrap();
    let halves = ["--from", "64", "--to", "64", "--pieces", "--cut", "1:16"];
    let files = ["--lemmas", path_str(&lemmas), "--out", &out];
    let run = grundy(&[&P4_BOUNDS[..], &halves, &files].concat());
    assert!(run.status.success(), "{run:?}");
    let rung = last_rung(&ladder_path);
    assert_eq!(
        (rung["from"].as_u64(), rung["answer"].as_str()),
        (Some(56), Some("unsat"))
    );
    assert!(!kept_file.exists() && !core_file.exists(), "{run:?}");
    let ladder = ladder_json(&ladder_path);
    assert!(!ladder.to_string().contains(&name), "{ladder}");
}

/// `--tries 2`: a call with no answer in `--timeout` is asked again in the same run, given the
/// lemmas its first try kept, and then the run ends as before; as pieces (the band's lowest
/// piece, 256) and as a whole band. On p = 27's committed ladder, whose band 256..264 has no
/// answer in seconds. Each try is a rung of its own (neither refuted a piece to go on from).
/// Mutation: no second try (one rung added, no "try 2" line), or a second try not given the
/// first's file (no `lemmas` on it). `--tries 0` and `--tries` without `--lemmas` are refused,
/// as are `--conflicts 0` and `--conflicts` with `--prove-chain` or `--incremental` (calls it
/// does not limit).
#[test]
fn a_call_without_an_answer_is_asked_again_given_its_lemmas() {
    for how in [&["--pieces"][..], &[]] {
        let dir = tempfile::tempdir().unwrap();
        let ladder = committed_p27_ladder(dir.path());
        let before = ladder_json(&ladder)["rungs"].as_array().unwrap().len();
        let out = dir.path().join("periods.json");
        let band = ["--from", "264", "--to", "264", "--lemmas"];
        let tries = ["--tries", "2", "--out", path_str(&out)];
        let run = grundy(&[&P27_BOUNDS[..], &band, &BOUNDED_CALL, how, &tries].concat());
        assert!(run.status.success(), "{how:?}: {run:?}");
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(said.contains("256..264: try 2 of 2"), "{how:?}: {said}");
        let rungs = ladder_json(&ladder)["rungs"].as_array().unwrap().clone();
        assert_eq!(rungs.len(), before + 2, "{how:?}: {said}");
        let (first, second) = (&rungs[before], &rungs[before + 1]);
        for rung in [first, second] {
            assert_eq!(
                band_answer(rung),
                (Some(256), Some(264), Some("timeout")),
                "{how:?}: {rung}"
            );
        }
        // The first try was given nothing; what it kept, its line says (the ladder moves the
        // record of a call's file to the call's latest try), and each try says its limit.
        assert!(first.get("lemmas").is_none(), "{how:?}: {first}");
        let first_line = said.lines().find(|l| l.contains("timeout (")).unwrap();
        assert!(
            first_line.contains("at most 3000 conflicts a call"),
            "{first_line}"
        );
        let (learned, units) = first_line
            .split_once(", ")
            .and_then(|(_, rest)| rest.rsplit_once(", "))
            .and_then(|(_, kept)| kept.split_once(" lemmas kept for the next try ("))
            .and_then(|(n, units)| Some((n, units.strip_suffix(" of them units))")?)))
            .map(|(n, units)| (n.parse::<u64>().unwrap(), units.parse::<u64>().unwrap()))
            .unwrap_or_else(|| panic!("{first_line}"));
        assert!(learned > 0, "{first_line}");
        assert_eq!(
            second["lemmas"].as_u64().unwrap_or(0),
            learned,
            "{how:?}: {second}"
        );
        // The second kept the file for the call it stopped: the lowest common value of the
        // band in pieces, the whole band else.
        let top = (256..264u16).find(|&v| is_common(v)).map(u64::from);
        let call = if how.is_empty() { None } else { top };
        let kept = &second["kept"][0];
        assert_eq!(kept["top"].as_u64(), call, "{how:?}: {second}");
        // Its file's clauses by length, counted here, are what the record says; the units of
        // the first try, which its line gave, are the list of the tries before.
        let file = dir
            .path()
            .join("lemmas")
            .join(kept["file"].as_str().unwrap());
        let text = std::fs::read_to_string(&file).unwrap();
        let mut by_length = Vec::<u64>::new();
        for line in text.lines().skip(1) {
            let len = line.split_whitespace().count() - 1;
            by_length.resize(by_length.len().max(len), 0);
            by_length[len - 1] += 1;
        }
        assert_eq!(kept["by_length"], serde_json::json!(by_length), "{how:?}");
        assert_eq!(kept["units_before"], serde_json::json!([units]), "{how:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let band = ["--from", "264", "--to", "264", "--out", path_str(&out)];
    for (extra, why) in [
        (
            &["--lemmas", "--tries", "0"][..],
            "--tries must be at least 1",
        ),
        (&["--tries", "2"], "--lemmas"),
        (&["--conflicts", "0"], "--conflicts"),
        (&["--conflicts", "9", "--prove-chain"], "--prove-chain"),
        (&["--conflicts", "9", "--incremental"], "--incremental"),
    ] {
        let line = fails_with_one_line(&[&P27_BOUNDS[..], &band, extra].concat());
        assert!(line.contains(why), "{line}");
    }
}

/// `--in-turn`: a piece left without an answer ends no try, so one try asks every piece of p =
/// 27's band 256..264 (each stopped by 3000 conflicts), and the try keeps a lemma file for each
/// common value of the band (counted here from the definition of common), and says each as it
/// stops; without it the try ends at the lowest. The try's run says it asked in turn, and the
/// table's row of the band says "in turn" (not without it). Mutations: the try ended at the
/// first piece without an answer (one file); the run's mark not kept.
#[test]
fn pieces_asked_in_turn_each_get_a_call_in_one_try() {
    let common: Vec<u64> = (256..264u16)
        .filter(|&v| is_common(v))
        .map(u64::from)
        .collect();
    for (how, asked) in [(&["--in-turn"][..], &common[..]), (&[], &common[..1])] {
        let dir = tempfile::tempdir().unwrap();
        let ladder = committed_p27_ladder(dir.path());
        let out = dir.path().join("periods.json");
        let band = ["--from", "264", "--to", "264", "--pieces", "--lemmas"];
        let out = ["--out", path_str(&out)];
        let run = grundy(&[&P27_BOUNDS[..], &band, &BOUNDED_CALL, how, &out].concat());
        assert!(run.status.success(), "{how:?}: {run:?}");
        let said = String::from_utf8_lossy(&run.stdout);
        assert_eq!(
            said.contains("each asked in turn"),
            !how.is_empty(),
            "{said}"
        );
        let rung = last_rung(&ladder);
        assert_eq!(band_answer(&rung), (Some(256), Some(264), Some("timeout")));
        let mut kept: Vec<u64> = (rung["kept"].as_array().unwrap().iter())
            .map(|k| k["top"].as_u64().unwrap())
            .collect();
        kept.sort_unstable();
        assert_eq!(kept, asked, "{how:?}: {said}");
        // Each file's record times the try that kept it.
        for k in rung["kept"].as_array().unwrap() {
            let seconds = k["seconds"].as_array().unwrap();
            assert_eq!(seconds.len(), 1, "{k}");
            assert!(seconds[0].as_f64().unwrap() > 0.0, "{k}");
        }
        // A line for each piece as it stops, with what its file keeps.
        let stopped: Vec<u64> = (said.lines())
            .filter(|l| l.contains(": no answer (") && l.contains("lemmas kept for the next try"))
            .map(|l| {
                let (_, value) = l.split_once("piece s[0] = ").unwrap();
                value.split(':').next().unwrap().parse().unwrap()
            })
            .collect();
        assert_eq!(stopped, asked, "{how:?}: {said}");
        // The try says how its run asked it, in the ladder and in the table's row.
        let runs = rung["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1, "{rung}");
        assert_eq!(
            runs[0]["in_turn"].as_bool(),
            Some(true).filter(|_| !how.is_empty())
        );
        // The committed periods file beside the ladder: a try without an answer writes none.
        let periods = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/officers/periods.json");
        std::fs::copy(periods, out[1]).unwrap();
        let summary = grundy(&["sat", "summary", "--rungs", out[0], out[1]]);
        let table = String::from_utf8_lossy(&summary.stdout);
        let row = (table.lines())
            .find(|l| l.starts_with("| 256..264 |"))
            .unwrap_or_else(|| panic!("{table}"));
        assert_eq!(
            row.contains("in pieces, in turn,"),
            !how.is_empty(),
            "{row}"
        );
    }
}

/// Certified lemmas (`--lemmas --proof-dir --proof-format lrat`): p = 27's piece `s[0]` = 128
/// of the band below 136 (a fresh ladder), stopped after 1000 conflicts, keeps a file (and
/// core) whose header says `certified`; asked again for 3000 it is refuted given that file,
/// and the piece has a checked proof in the ladder, its note counting the clauses given; kept
/// (`--keep-proofs`), the CNF beside the proof holds the piece's clauses (as the file's
/// fingerprint counts them) and the given ones, and `grundy sat check-lrat` accepts the proof
/// again. The same second call on a copy whose file lost its mark (as an uncertified file
/// would be) refutes the piece with no proof. Mutations: the mark not written, or not read
/// (every file given taken as certified); the given clauses left out of the proof's CNF.
#[test]
fn certified_lemmas_carry_a_piece_s_proof_across_its_calls() {
    let dir = tempfile::tempdir().unwrap();
    let (ladder, proofs) = (dir.path().join("l.json"), dir.path().join("proofs"));
    let call = |dir: &Path, conflicts: &str| {
        let (ladder, out) = (dir.join("l.json"), dir.join("periods.json"));
        let (ladder, out, proofs) = (path_str(&ladder), path_str(&out), dir.join("proofs"));
        let run = grundy(
            &[
                &P27_BOUNDS[..],
                &[
                    "--from",
                    "136",
                    "--to",
                    "136",
                    "--pieces",
                    "--only-pieces",
                    "128",
                ],
                &[
                    "--lemmas",
                    "--proof-dir",
                    path_str(&proofs),
                    "--proof-format",
                    "lrat",
                ],
                &[
                    "--keep-proofs",
                    "--conflicts",
                    conflicts,
                    "--timeout",
                    "300",
                ],
                &["--ladder", ladder, "--out", out],
            ]
            .concat(),
        );
        assert!(run.status.success(), "{run:?}");
        last_rung(Path::new(ladder))
    };
    let rung = call(dir.path(), "1000");
    assert_eq!(rung["kept"][0]["certified"], true, "{rung}");
    let name = rung["kept"][0]["file"].as_str().unwrap().to_string();
    let file = dir.path().join("lemmas").join(&name);
    let header = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().next().unwrap().to_string()
    };
    assert!(header(&file).ends_with(" certified"), "{}", header(&file));
    let core = file.with_file_name(name.replace(".lemmas", "-core.lemmas"));
    assert!(header(&core).ends_with(" certified"), "{}", header(&core));
    // A copy whose file is not certified.
    let copy = tempfile::tempdir().unwrap();
    std::fs::copy(&ladder, copy.path().join("l.json")).unwrap();
    std::fs::create_dir(copy.path().join("lemmas")).unwrap();
    for path in [&file, &core] {
        let text = std::fs::read_to_string(path).unwrap();
        let unmarked = text.replacen(" certified\n", "\n", 1);
        let name = path.file_name().unwrap();
        std::fs::write(copy.path().join("lemmas").join(name), unmarked).unwrap();
    }

    let piece = |rung: &Json| rung["pieces"][0].clone();
    let proved = piece(&call(dir.path(), "3000"));
    assert_eq!(proved["top"], 128, "{proved}");
    let given = proved["lemmas"].as_u64().unwrap();
    assert!(given > 0, "{proved}");
    let note = &proved["proof"];
    let words = format!("lrat given {given} clauses of certified lemma files, kept");
    assert_eq!(note["format"].as_str(), Some(words.as_str()), "{proved}");
    assert!(
        note["checked_by"]
            .as_str()
            .unwrap()
            .contains("LRAT checker")
    );
    let cnf = proofs.join(note["cnf"].as_str().unwrap());
    let lrat = proofs.join(note["proof"].as_str().unwrap());
    // The piece's clauses, as the lemma file's fingerprint (`<crc>v<vars>c<clauses>`) has them.
    let (_, counts) = name.split_once('v').unwrap();
    let (vars, rest) = counts.split_once('c').unwrap();
    let clauses: u64 = rest.split('-').next().unwrap().parse().unwrap();
    let text = std::fs::read_to_string(&cnf).unwrap();
    let declared = format!("p cnf {vars} {}", clauses + given);
    assert!(text.lines().any(|l| l == declared), "{declared}");
    let again = grundy(&["sat", "check-lrat", path_str(&cnf), path_str(&lrat)]);
    assert!(again.status.success(), "{again:?}");
    assert!(!file.exists(), "a refuted piece's file is removed");

    let unproved = piece(&call(copy.path(), "3000"));
    assert_eq!(unproved["top"], 128, "{unproved}");
    assert!(unproved["lemmas"].as_u64().unwrap() > 0, "{unproved}");
    assert!(unproved["proof"].is_null(), "{unproved}");
}

/// `--merge` brings the lemma files of the tries it takes: a copy of p = 27's committed ladder
/// "there" stops the band 256..264 after 3000 conflicts with `--lemmas` (its file in `lemmas/`
/// beside it), and merged into the ladder "here" its try comes with that file, byte for byte, into
/// `lemmas/` beside this ladder, so the band asked here starts with it (no note that it starts
/// afresh), and its core with it. A lemma folder that cannot be written fails the merge in one
/// line, the ladder as it was; a file named by the ladder that is in neither folder is said to
/// be missing, or to start from its core where that is there. Mutation: no copy (the file
/// missing here, and the note).
#[test]
fn a_merge_copies_the_lemma_files_of_the_tries_it_takes() {
    let (there, here) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let theirs = committed_p27_ladder(there.path());
    committed_p27_ladder(here.path());
    let out = |dir: &Path| dir.join("periods.json").to_str().unwrap().to_string();
    let band = ["--from", "264", "--to", "264", "--lemmas"];
    let there_out = ["--out", &out(there.path())];
    let run = grundy(&[&P27_BOUNDS[..], &band, &BOUNDED_CALL, &there_out].concat());
    assert!(run.status.success(), "{run:?}");
    let kept = ladder_json(&theirs)["rungs"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()["kept"]
        .clone();
    let name = kept[0]["file"].as_str().unwrap().to_string();
    let file_there = std::fs::read(there.path().join("lemmas").join(&name)).unwrap();
    let core = name.replace(".lemmas", "-core.lemmas");
    let core_there = std::fs::read(there.path().join("lemmas").join(&core)).unwrap();
    let merge = |dir: &Path| {
        let args = ["--out", &out(dir), "--merge", path_str(&theirs)];
        let run = grundy(&[&P27_BOUNDS[..], &args].concat());
        assert!(run.status.success(), "{run:?}");
        String::from_utf8_lossy(&run.stdout).into_owned()
    };
    let said = merge(here.path());
    let copied = format!(
        "1 lemma file and 1 core copied ({:.1} MB)",
        (file_there.len() + core_there.len()) as f64 / 1e6
    );
    assert!(
        said.contains(": 1 try added") && said.contains(&copied),
        "{said}"
    );
    let file_here = here.path().join("lemmas").join(&name);
    assert_eq!(std::fs::read(&file_here).unwrap(), file_there);
    let core_here = here.path().join("lemmas").join(&core);
    assert_eq!(std::fs::read(&core_here).unwrap(), core_there);
    let here_out = ["--out", &out(here.path())];
    let run = grundy(&[&P27_BOUNDS[..], &band, &BOUNDED_CALL, &here_out].concat());
    assert!(run.status.success(), "{run:?}");
    let note = String::from_utf8_lossy(&run.stderr);
    assert!(!note.contains("lemmas kept by an earlier run"), "{note}");
    // A lemma folder that cannot be made (a file in its place, as a full disk would fail the
    // copy): one line, and the ladder as it was, byte for byte.
    let blocked = tempfile::tempdir().unwrap();
    let before = std::fs::read(committed_p27_ladder(blocked.path())).unwrap();
    std::fs::write(blocked.path().join("lemmas"), "not a folder").unwrap();
    let args = ["--out", &out(blocked.path()), "--merge", path_str(&theirs)];
    let line = fails_with_one_line(&[&P27_BOUNDS[..], &args].concat());
    assert!(line.contains("lemmas"), "{line}");
    let after = std::fs::read(blocked.path().join("bounds-p27-feasible.json")).unwrap();
    assert_eq!(after, before);
    // The file gone from there, a merge into a third ladder (no such file) copies its core
    // and says the call starts from it; the core gone too, a fourth says it starts afresh.
    let elsewhere = tempfile::tempdir().unwrap();
    committed_p27_ladder(elsewhere.path());
    std::fs::remove_file(there.path().join("lemmas").join(&name)).unwrap();
    let said = merge(elsewhere.path());
    let from_core = format!(
        "in neither lemma folder but their cores are (those calls start from their units and binaries): {name}"
    );
    assert!(
        said.contains(": 1 core copied") && said.contains(&from_core),
        "{said}"
    );
    let fourth = tempfile::tempdir().unwrap();
    committed_p27_ladder(fourth.path());
    std::fs::remove_file(there.path().join("lemmas").join(&core)).unwrap();
    let said = merge(fourth.path());
    assert!(
        said.contains(&format!(
            "in neither lemma folder (those calls start afresh): {name}"
        )),
        "{said}"
    );
}

/// A whole rung stopped with `--lemmas` is said to have kept its file too (no piece named), and
/// a run without `--lemmas` says before the band starts that it will not be given it: p = 27's
/// committed ladder, the band 256..264 in one call of 3000 conflicts, whose file is counted here.
#[test]
fn a_whole_rung_stopped_keeps_its_lemmas_and_a_run_without_them_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let out = dir.path().join("periods.json");
    let band = ["--from", "264", "--to", "264"];
    let band = [&band[..], &BOUNDED_CALL].concat();
    let files = ["--out", path_str(&out)];
    let run = grundy(&[&P27_BOUNDS[..], &band, &files, &["--lemmas"]].concat());
    assert!(run.status.success(), "{run:?}");
    let mut lemma_files: Vec<_> = std::fs::read_dir(dir.path().join("lemmas"))
        .unwrap()
        .map(|f| f.unwrap().path())
        .collect();
    lemma_files.sort();
    // The file and its core beside it (`-core` sorts first).
    assert_eq!(lemma_files.len(), 2, "{lemma_files:?}");
    let (core, file) = (&lemma_files[0], &lemma_files[1]);
    let clause_lines = |path: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| !l.starts_with('c'))
            .map(String::from)
            .collect()
    };
    let learned = clause_lines(file).len();
    // The core: the file's clauses of one or two literals, counted here from its lines.
    let short: Vec<String> = (clause_lines(file).into_iter())
        .filter(|l| l.split_whitespace().count() <= 3)
        .collect();
    assert!(!short.is_empty() && short.len() < learned, "{learned}");
    assert_eq!(clause_lines(core), short);
    let rung = last_rung(&ladder);
    assert_eq!(rung["answer"].as_str(), Some("timeout"), "{rung}");
    let kept = &rung["kept"][0];
    assert!(kept.get("top").is_none(), "a whole rung: {rung}");
    assert_eq!(kept["clauses"].as_u64(), Some(learned as u64), "{rung}");
    let name = file.file_name().unwrap().to_str().unwrap();
    assert_eq!(kept["file"].as_str(), Some(name), "{rung}");
    let core_name = core.file_name().unwrap().to_str().unwrap();
    assert_eq!(core_name, name.replace(".lemmas", "-core.lemmas"));
    let band = ["--from", "264", "--to", "264", "--timeout", "1"];
    let said = grundy(&[&P27_BOUNDS[..], &band, &files].concat());
    assert!(said.status.success(), "{said:?}");
    let said = String::from_utf8_lossy(&said.stderr);
    let note = format!(
        "the band 256..264 had {learned} lemmas kept by an earlier run, but this run has no --lemmas"
    );
    assert!(said.contains(&note), "{said}");
    // The file lost (a fresh machine, the core committed): the call says it starts from the
    // core (that the core's clauses are given and kept: `lemmas.rs`'s unit tests).
    std::fs::remove_file(file).unwrap();
    let with_lemmas = [&P27_BOUNDS[..], &band, &files, &["--lemmas"]].concat();
    let said = grundy(&with_lemmas);
    assert!(said.status.success(), "{said:?}");
    let note = format!("{name} is not in ");
    let from_core = format!("it starts from its core ({core_name}: units and binary");
    let said = String::from_utf8_lossy(&said.stderr);
    assert!(said.contains(&note) && said.contains(&from_core), "{said}");
}

/// The climb tells its caller where it is ([`grundy::sat::bounds::Step`]), which the progress
/// display of `--pieces` counts on: each band's `PiecesStart` comes first, with the band's
/// rung last in the ladder and none of its pieces refuted yet (a fresh ladder), then one `Piece`
/// per common value of the band as it is refuted (counted here from the definition), then
/// `Rung`; the climb of p = 4 from 8 by 32 ends at the band of the brute force's least largest
/// value. Each band's seconds are named as the run's share. Each piece's start is told to
/// `on_piece_start` (the progress display's note names the pieces being asked), one by one
/// lowest first: every common value up to the least largest value, the piece with the pattern
/// last. Mutations: no share recorded, or no start told.
#[test]
fn a_climb_in_pieces_tells_each_band_start_before_its_pieces() {
    use grundy::sat::bounds::{Climb, Ladder, Step, climb};
    use grundy::{Game, SparseSpace};
    let rule = Rule::officers(4);
    let least = rule.least_largest_below(136).unwrap();
    let rares: Vec<(u64, u16)> = (mvr_rares().into_iter())
        .map(|(n, v)| (n as u64, v))
        .collect();
    let mut e = grundy::sat::encode::PeriodEncoding::new(
        &Game::officers(),
        SparseSpace::OFFICERS,
        &rares,
        4,
    )
    .unwrap();
    e.put_largest_first();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let started = std::sync::Mutex::new(Vec::new());
    let on_start = |top: u16, half| started.lock().unwrap().push((top, half));
    let run = Climb {
        encoding: &e,
        largest_first: true,
        threads: 1,
        timeout: None,
        seed: 0,
        preset: grundy::sat::solve::Preset::Default,
        stop: &stop,
        proof_stem: None,
        proof_format: grundy::sat::solve::ProofFormat::Drat,
        keep_proofs: false,
        incremental: false,
        pieces: true,
        lemma_stem: None,
        lemma_every: std::time::Duration::from_secs(600),
        cut: None,
        only_pieces: Vec::new(),
        in_turn: false,
        halve: 0,
        tries: 1,
        conflicts: None,
        run_name: "this-run".to_string(),
        on_piece_start: Some(&on_start),
    };
    let check = |bytes: &[u8]| -> Result<Vec<u16>, String> {
        let s = e.expand(bytes);
        match (0..4).all(|r| rule.fixed_at(&s, r)) {
            true => Ok(s),
            false => Err(format!("{s:?} is no fixed point")),
        }
    };
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    // (step, the last rung's band, its pieces refuted, its answer)
    let mut steps: Vec<(Step, (u16, u16), usize, String)> = Vec::new();
    let mut after = |l: &Ladder, step: Step| {
        let r = l.rungs.last().unwrap();
        let answer = format!("{:?}", r.answer);
        steps.push((step, (r.from, r.below), r.pieces.len(), answer));
        Ok(())
    };
    climb(
        &run,
        &mut ladder,
        &[8, 40, 72, 104, 136],
        &check,
        &mut after,
    )
    .unwrap();
    let bands = [(0, 8), (8, 40), (40, 72), (72, 104), (104, 136)];
    let mut expected = Vec::new();
    for (from, below) in bands {
        let refuted_to = if below == 136 { least } else { below };
        let pieces = (from..refuted_to).filter(|&v| is_common(v)).count();
        expected.push((Step::PiecesStart, (from, below), 0, "Timeout".to_string()));
        for n in 1..=pieces {
            expected.push((Step::Piece, (from, below), n, "Timeout".to_string()));
        }
        let answer = if below == 136 { "Sat" } else { "Unsat" };
        expected.push((Step::Rung, (from, below), pieces, answer.to_string()));
    }
    assert_eq!(steps, expected);
    let every_piece: Vec<(u16, _)> = (0..=least)
        .filter(|&v| is_common(v))
        .map(|v| (v, None))
        .collect();
    assert_eq!(*started.lock().unwrap(), every_piece);
    // Each band's seconds are this run's share of it, all of them ([`Rung::runs`]).
    for rung in &ladder.rungs {
        let shares: Vec<(&str, f64)> = (rung.runs.iter())
            .map(|share| (share.run.as_str(), share.seconds))
            .collect();
        assert_eq!(shares, [("this-run", rung.seconds)], "{rung:?}");
    }
}

/// `--only-pieces V`: on p = 4's ladder climbed to 40 in pieces, the band 40..72 asked for one
/// common value alone (the second of the band, from the definition) refutes that piece only:
/// the band stays open, with that one piece, and the climb stops there though `--to` is higher;
/// the next run without the flag asks the band's other pieces and not that one, and refutes the
/// band (the brute force has no pattern below 72 with a largest value first). A value that is
/// no piece of the open band (above it, or rare) is refused before anything is asked.
/// Mutation: the filter left out (every piece asked), the band refuted on the pieces asked, or
/// the climb going on to 72..104.
#[test]
fn only_the_pieces_named_are_asked_and_the_band_waits_for_the_rest() {
    let rule = Rule::officers(4);
    assert!(
        rule.least_largest_below(72).is_none(),
        "p = 4 has a pattern below 72"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let out = path_str(&out);
    let climb = |to: &str, extra: &[&str]| {
        let base = [
            "sat", "bounds", "officers", "--p", "4", "--from", "8", "--step", "32",
        ];
        let args = [&base[..], &["--to", to, "--pieces", "--out", out], extra].concat();
        grundy(&args)
    };
    let run = climb("40", &[]);
    assert!(run.status.success(), "{run:?}");
    let common: Vec<u16> = (40..72).filter(|&v| is_common(v)).collect();
    let v = common[1].to_string();
    let run = climb("104", &["--only-pieces", &v]);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        said.contains(&format!("this run asks only s[0] = {v}")),
        "{said}"
    );
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    let rungs = ladder["rungs"].as_array().unwrap();
    let last = rungs.last().unwrap();
    assert_eq!(
        band_answer(last),
        (Some(40), Some(72), Some("timeout")),
        "{said}"
    );
    let tops: Vec<u64> = (last["pieces"].as_array().unwrap().iter())
        .map(|p| p["top"].as_u64().unwrap())
        .collect();
    assert_eq!(tops, [u64::from(common[1])], "{said}");
    assert!(
        rungs.iter().all(|r| r["below"].as_u64() != Some(104)),
        "{said}"
    );
    // The rest of the band, and not the piece refuted.
    let run = climb("72", &[]);
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout);
    let left: Vec<String> = (common.iter())
        .filter(|&&c| c != common[1])
        .map(u16::to_string)
        .collect();
    assert!(
        said.contains(&format!("s[0] = {} left of", left.join(", "))),
        "{said}"
    );
    let ladder = ladder_json(&dir.path().join("bounds-p4-feasible.json"));
    let last = ladder["rungs"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["below"].as_u64(), last["answer"].as_str()),
        (Some(72), Some("unsat")),
        "{said}"
    );
    // The open band is now 72..104: a value of 40..72, or a rare value, is no piece of it.
    let rare = (72..104u16).find(|&v| !is_common(v)).unwrap();
    for bad in [common[0], rare] {
        let run = climb("104", &["--only-pieces", &bad.to_string()]);
        assert_eq!(run.status.code(), Some(2), "{run:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        let why = format!("s[0] = {bad} is no piece of the open band 72..104");
        assert!(err.contains(&why) && err.lines().count() == 1, "{err}");
    }
}

/// The lines of a successful run of `args` that report a piece of `band` ("from F below V,
/// piece"): the pieces it asked and refuted.
fn pieces_asked(args: &[&str], band: &str) -> Vec<String> {
    let run = grundy(args);
    assert!(run.status.success(), "{run:?}");
    (String::from_utf8_lossy(&run.stdout).lines())
        .filter(|l| l.contains(band))
        .map(String::from)
        .collect()
}

/// `--pieces --cut 2:64`: each piece asked as two halves, `s[2]` below 64 and at least 64.
/// Every refuted band's halves are both halves of each of its common values (counted from the
/// definition); at the band of the least largest value, the low half of that value is refuted
/// exactly when the brute force has no pattern with a largest value first there and `s[2]`
/// below 64, and the pattern found lies in a half with one. A half lost is the only call the
/// next run makes.
#[test]
fn a_climb_in_halves_of_pieces_agrees_with_the_brute_force_half_by_half() {
    climb_in_parts_agrees_with_the_brute_force(&[64]);
}

/// `--pieces --cut 2:16,48`: each piece asked as three parts, `s[2]` below 16, from 16 below
/// 48, and from 48; checked as the halves are above. Mutation: a middle part asked without its
/// upper end (so as "at least 16") finds a pattern of the part above it (tried: it fails here,
/// since the brute force's patterns with the least largest value first have `s[2]` from 48 on).
#[test]
fn a_climb_in_parts_of_pieces_agrees_with_the_brute_force_part_by_part() {
    climb_in_parts_agrees_with_the_brute_force(&[16, 48]);
}

/// Climbs p = 4 to 136 in pieces cut on `s[2]` at `cuts` and checks every band's parts (each a
/// value of `s[0]` and the index of its part, lowest first) against the brute force, then
/// loses the last part of a band and checks that the next run asks that part alone.
fn climb_in_parts_agrees_with_the_brute_force(cuts: &[u16]) {
    let rule = Rule::officers(4);
    let least = rule.least_largest_below(136).unwrap();
    let part_of = |v: u16| cuts.iter().filter(|&&c| v >= c).count();
    // The parts of s[2] of every pattern rotated to put `least`, its largest value, first.
    let with_pattern: HashSet<usize> = (rule.fixed_points(&common_below(136)).into_iter())
        .filter(|s| s.iter().max() == Some(&least))
        .flat_map(|s| {
            (0..4)
                .filter(|&k| s[k] == least)
                .map(|k| part_of(s[(k + 2) % 4]))
                .collect::<Vec<_>>()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let values: Vec<String> = cuts.iter().map(u16::to_string).collect();
    let cut_arg = format!("2:{}", values.join(","));
    let climb = [
        "--from", "8", "--step", "32", "--to", "136", "--pieces", "--cut", &cut_arg, "--out", &out,
    ];
    let args = [&P4_BOUNDS[..], &climb].concat();
    let first = grundy(&args);
    assert!(first.status.success(), "{first:?}");
    let ladder_path = dir.path().join("bounds-p4-feasible.json");
    let ladder = ladder_json(&ladder_path);
    // A part's index from its record, which must be one of the cut's.
    let part_index = |half: &Json| -> usize {
        assert_eq!(half["residue"], 2, "{half}");
        let at = half["at"].as_u64().unwrap() as u16;
        let i = cuts.iter().position(|&c| c == at).expect("a cut value");
        let next = cuts.get(i + 1).map(|&c| serde_json::json!(c));
        match half["high"].as_bool().unwrap() {
            false => {
                assert_eq!(i, 0, "{half}");
                0
            }
            true => {
                assert_eq!(half.get("below"), next.as_ref(), "{half}");
                i + 1
            }
        }
    };
    let parts_of = |rung: &Json| -> Vec<(u16, usize)> {
        let pieces = rung["pieces"].as_array().map_or(&[][..], Vec::as_slice);
        (pieces.iter())
            .map(|p| (p["top"].as_u64().unwrap() as u16, part_index(&p["half"])))
            .collect()
    };
    let all = |from: u16, below: u16| -> Vec<(u16, usize)> {
        let values = (from..below).filter(|&v| is_common(v));
        values
            .flat_map(|v| (0..=cuts.len()).map(move |i| (v, i)))
            .collect()
    };
    let rungs = rungs_of(&ladder);
    let answers: Vec<&str> = rungs.iter().map(|(_, _, a)| a.as_str()).collect();
    assert_eq!(answers, ["unsat", "unsat", "unsat", "unsat", "sat"]);
    // Every band says it was asked in parts, and of which cut.
    let cut = match cuts {
        [at] => serde_json::json!({"residue": 2, "at": at}),
        [at, above @ ..] => serde_json::json!({"residue": 2, "at": at, "above": above}),
        [] => unreachable!("a cut has a value"),
    };
    for (rung, (from, below, answer)) in ladder["rungs"].as_array().unwrap().iter().zip(&rungs) {
        assert_eq!(rung["cut"], cut, "{rung}");
        if answer == "unsat" {
            assert_eq!(parts_of(rung), all(*from, *below), "{rung}");
            continue;
        }
        // Parts are asked lowest first, and the first with a pattern ends the climb.
        let mut expected = all(*from, least);
        let first_with = (0..=cuts.len()).find(|i| with_pattern.contains(i)).unwrap();
        expected.extend((0..first_with).map(|i| (least, i)));
        assert_eq!(
            parts_of(rung),
            expected,
            "{rung} (parts with a pattern: {with_pattern:?})"
        );
    }
    let pattern: Vec<u16> = (ladder["pattern"].as_array().unwrap().iter())
        .map(|v| v.as_u64().unwrap() as u16)
        .collect();
    assert!((0..4).all(|r| rule.fixed_at(&pattern, r)), "{pattern:?}");
    assert_eq!(pattern.iter().max(), Some(&least));
    // The band 72..104 stopped with its last part lost, and nothing above it tried.
    let mut stopped = ladder.clone();
    let kept = stopped["rungs"].as_array_mut().unwrap();
    kept.truncate(4);
    kept[3]["answer"] = "timeout".into();
    let lost = kept[3]["pieces"].as_array_mut().unwrap().pop().unwrap();
    stopped.as_object_mut().unwrap().remove("pattern");
    std::fs::write(&ladder_path, serde_json::to_vec(&stopped).unwrap()).unwrap();
    // The summary counts values, not parts: all but the lost part's value, and its other parts.
    let summary = grundy(&[&P4_BOUNDS[..], &["--from", "8", "--to", "8", "--out", &out]].concat());
    let whole = (72..104).filter(|&v| is_common(v)).count() - 1;
    let others = match cuts.len() {
        1 => "1 half of another".to_string(),
        n => format!("{n} parts of another"),
    };
    let line = format!(" s, {whole} pieces of it refuted and {others} (4 rungs");
    assert!(
        String::from_utf8_lossy(&summary.stdout).contains(&line),
        "{line}: {summary:?}"
    );
    let asked = pieces_asked(&args, "from 72 below 104, piece");
    let half = &lost["half"];
    let side = match (half["high"].as_bool().unwrap(), half.get("below")) {
        (false, _) => format!("s[2] < {}", half["at"]),
        (true, None) => format!("s[2] >= {}", half["at"]),
        (true, Some(end)) => format!("{} <= s[2] < {end}", half["at"]),
    };
    let named = format!("s[0] = {}, {side}:", lost["top"]);
    assert!(
        asked.len() == 1 && asked[0].contains(&named),
        "{named}: {asked:?}"
    );
    let resumed = ladder_json(&ladder_path);
    assert_eq!(parts_of(&resumed["rungs"][3]).len(), all(72, 104).len());
    assert_eq!(resumed["rungs"][3]["cut"], cut);
}

/// `--pieces --cut --proof-dir`: the halves of every piece each get a DRAT proof checked by
/// rate (or dratify), and a refuted band whose halves cover its values (counted from the
/// definition) gets its proof from them.
#[test]
fn the_halves_of_pieces_prove_a_band() {
    let Some(checker) = crate::sat::rate_checker().or_else(crate::sat::drat_checker) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let climb = ["--to", "40", "--pieces", "--cut", "1:64"];
    let ladder = p4_climb_with_proofs(dir.path(), &climb, &checker);
    assert_eq!(
        rungs_of(&ladder),
        [(0, 8, "unsat".into()), (8, 40, "unsat".into())]
    );
    for rung in ladder["rungs"].as_array().unwrap() {
        let (from, below) = (
            rung["from"].as_u64().unwrap_or(0),
            rung["below"].as_u64().unwrap(),
        );
        let values = (from as u16..below as u16)
            .filter(|&v| is_common(v))
            .count();
        let pieces = rung["pieces"].as_array().unwrap();
        assert_eq!(pieces.len(), 2 * values, "{rung}");
        for piece in pieces {
            assert!(piece["proof"]["checked_by"].is_string(), "{piece}");
        }
        assert!(checked_by_a_drat_checker(rung), "{rung}");
    }
}

/// [`committed_ladder_path`] read.
fn committed_ladder(p: usize) -> Json {
    ladder_json(&committed_ladder_path(p))
}

/// Writes `ours` and `theirs` as ladders of p = `p` in `dir`, and runs `sat bounds --merge`
/// of theirs into ours: the run, and the path of ours.
fn merge_ladders(
    dir: &Path,
    p: usize,
    ours: &Json,
    theirs: &Json,
) -> (std::process::Output, std::path::PathBuf) {
    let (ours_path, theirs_path) = (dir.join("ours.json"), dir.join("theirs.json"));
    std::fs::write(&ours_path, ours.to_string()).unwrap();
    std::fs::write(&theirs_path, theirs.to_string()).unwrap();
    let out = dir.join("periods.json");
    let p = p.to_string();
    let run = grundy(&[
        "sat",
        "bounds",
        "officers",
        "--p",
        &p,
        "--merge",
        path_str(&theirs_path),
        "--ladder",
        path_str(&ours_path),
        "--out",
        path_str(&out),
    ]);
    (run, ours_path)
}

/// [`merge_ladders`] that must succeed and say `words`: our ladder after it.
fn merged_saying(dir: &Path, p: usize, (ours, theirs): (&Json, &Json), words: &str) -> Json {
    let (run, ours_path) = merge_ladders(dir, p, ours, theirs);
    assert!(run.status.success(), "{run:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains(words), "{stdout}");
    ladder_json(&ours_path)
}

/// [`merge_ladders`] that must fail in one line saying `words`, leaving our ladder as it was
/// written, byte for byte: the path of our ladder.
fn refused_saying(
    dir: &Path,
    p: usize,
    (ours, theirs): (&Json, &Json),
    words: &str,
) -> std::path::PathBuf {
    let (run, ours_path) = merge_ladders(dir, p, ours, theirs);
    let line = failed_in_one_line(&run, &format!("a merge refused for {words:?}"));
    assert!(line.contains(words), "{line}");
    let kept = std::fs::read_to_string(&ours_path).unwrap();
    assert_eq!(kept, ours.to_string());
    ours_path
}

/// The rungs of a ladder as a multiset: each rung's JSON with its pieces in order of value,
/// sorted (a merge may put pieces, and tries taken from the other copy, in another order).
fn rung_multiset(ladder: &Json) -> Vec<String> {
    let mut rungs: Vec<String> = (ladder["rungs"].as_array().unwrap().iter())
        .map(|r| {
            let mut r = r.clone();
            if let Some(pieces) = r.get_mut("pieces").and_then(Json::as_array_mut) {
                pieces.sort_by_key(|piece| (piece["top"].as_u64(), piece["half"].to_string()));
            }
            r.to_string()
        })
        .collect();
    rungs.sort();
    rungs
}

/// Keeps the pieces of every rung whose place in its list has parity `parity`, and drops the
/// proofs of rungs in pieces (and, with `whole`, of whole rungs too).
fn with_half_the_proofs(ladder: &Json, parity: usize, whole: bool) -> Json {
    let mut ladder = ladder.clone();
    for rung in ladder["rungs"].as_array_mut().unwrap() {
        let rung = rung.as_object_mut().unwrap();
        let pieced = rung.contains_key("pieces");
        if let Some(pieces) = rung.get_mut("pieces").and_then(Json::as_array_mut) {
            let mut place = 0;
            pieces.retain(|_| {
                place += 1;
                place % 2 == parity
            });
        }
        if pieced || whole {
            rung.remove("proof");
        }
    }
    ladder
}

/// `--merge`: two copies of p = 27's committed ladder, each with half of the checked proofs of
/// pieces and one with the whole rung's proof, fold into the committed ladder: every rung of
/// the chain proved, by the same pieces and notes (bands closed from the pieces). Mutations:
/// no band closed; a whole rung's proof not taken; pieces not taken.
#[test]
fn a_merge_takes_the_checked_proofs_of_another_copy() {
    let dir = tempfile::tempdir().unwrap();
    let committed = committed_ladder(27);
    let ours = with_half_the_proofs(&committed, 0, true);
    let theirs = with_half_the_proofs(&committed, 1, false);
    assert_ne!(rung_multiset(&ours), rung_multiset(&committed));
    let proved = "6 of the 6 rungs it rests on with a checked proof";
    let merged = merged_saying(dir.path(), 27, (&ours, &theirs), proved);
    assert_eq!(rung_multiset(&merged), rung_multiset(&committed));
}

/// p = 39's committed ladder as it stood while a band was open in pieces: cut after the last
/// rung refuted in pieces of two values of `s[0]` or more, that rung made a try with no answer
/// holding two whole pieces, its first two values, each with the seconds of its records. Built
/// from the committed history, not its live end, so the merge tests keep their shape while the
/// campaign climbs (a band just begun has no pieces yet) and while its chain is proved: a band
/// proved in parts holds no whole piece, only parts (as 216..224 since 2026-12-06, when this
/// fixture, which took a rung's first two records as they were, took two parts of one value,
/// and the band never came out covered).
fn committed_p39_ladder_open_in_pieces() -> Json {
    let mut ladder = committed_ladder(39);
    let rungs = ladder["rungs"].as_array_mut().unwrap();
    let values_of = |r: &Json| -> Vec<u64> {
        let mut tops: Vec<u64> = (r.get("pieces").and_then(Json::as_array).into_iter())
            .flatten()
            .map(|piece| piece["top"].as_u64().unwrap())
            .collect();
        tops.sort_unstable();
        tops.dedup();
        tops
    };
    let open = rungs.iter().rposition(|r| values_of(r).len() >= 2).unwrap();
    rungs.truncate(open + 1);
    let tops = values_of(&rungs[open]);
    let rung = rungs[open].as_object_mut().unwrap();
    let seconds_of = |top: u64| -> f64 {
        (rung["pieces"].as_array().unwrap().iter())
            .filter(|piece| piece["top"] == top)
            .map(|piece| piece["seconds"].as_f64().unwrap())
            .sum()
    };
    let pieces: Vec<Json> = (tops[..2].iter())
        .map(|&top| serde_json::json!({"top": top, "seconds": seconds_of(top)}))
        .collect();
    let seconds: f64 = (pieces.iter())
        .map(|piece| piece["seconds"].as_f64().unwrap())
        .sum();
    rung.insert("pieces".into(), pieces.into());
    rung.insert("answer".into(), "timeout".into());
    rung.insert("seconds".into(), serde_json::json!(seconds));
    rung.remove("proof");
    rung.remove("kept");
    ladder
}

/// `--merge` of tries: p = 39's ladder with a band open in pieces, where ours lacks one try and
/// holds the band at an earlier state (one piece, fewer seconds), becomes theirs: the try
/// appended, the band taken in its later state, nothing counted twice. Merging again changes
/// nothing. Mutations: the earlier state kept beside the later; a try held here appended again.
#[test]
fn a_merge_appends_new_tries_and_takes_a_try_gone_on_with() {
    let dir = tempfile::tempdir().unwrap();
    let theirs = committed_p39_ladder_open_in_pieces();
    let mut ours = theirs.clone();
    let rungs = ours["rungs"].as_array_mut().unwrap();
    let last = rungs.last_mut().unwrap();
    last["pieces"].as_array_mut().unwrap().truncate(1);
    last["seconds"] = serde_json::json!(last["seconds"].as_f64().unwrap() / 2.0);
    // A try of its own (a whole band without an answer), not the last.
    let whole_try = (rungs.iter())
        .rposition(|r| r["answer"] == "timeout" && r.get("pieces").is_none())
        .unwrap();
    rungs.remove(whole_try);
    let words = ": 1 try added, 1 try taken in its later state";
    let merged = merged_saying(dir.path(), 39, (&ours, &theirs), words);
    assert_eq!(rung_multiset(&merged), rung_multiset(&theirs));
    let again = merged_saying(dir.path(), 39, (&merged, &theirs), "nothing new");
    assert_eq!(again, merged);
}

/// p = 39's ladder open in pieces ([`committed_p39_ladder_open_in_pieces`]) with its open try
/// named as run `base` of this build, or with no run named (`base` `None`, a try of a build
/// before 2026-11-28); the band's common values ([`is_common`]) that no piece holds yet,
/// highest first.
fn p39_open_try_with_free_pieces(base: Option<&str>) -> (Json, Vec<u64>) {
    let mut open = committed_p39_ladder_open_in_pieces();
    let last = open["rungs"].as_array_mut().unwrap().last_mut().unwrap();
    if let Some(run) = base {
        last["runs"] = serde_json::json!([{"run": run, "seconds": last["seconds"]}]);
    }
    let held: Vec<u64> = (last["pieces"].as_array().unwrap().iter())
        .map(|piece| piece["top"].as_u64().unwrap())
        .collect();
    let band = last["from"].as_u64().unwrap()..last["below"].as_u64().unwrap();
    let free = band
        .rev()
        .filter(|&top| is_common(top as u16) && !held.contains(&top))
        .collect();
    (open, free)
}

/// `open` gone on with by the run `run` (`None`: a run of an earlier build, which names
/// itself nowhere) for `seconds`, refuting the pieces `tops`.
fn gone_on(open: &Json, run: Option<&str>, seconds: f64, tops: &[u64]) -> Json {
    let mut ladder = open.clone();
    let last = ladder["rungs"].as_array_mut().unwrap().last_mut().unwrap();
    for &top in tops {
        let piece = serde_json::json!({"top": top, "seconds": seconds / tops.len() as f64});
        last["pieces"].as_array_mut().unwrap().push(piece);
    }
    last["seconds"] = serde_json::json!(last["seconds"].as_f64().unwrap() + seconds);
    if let Some(run) = run {
        let share = serde_json::json!({"run": run, "seconds": seconds});
        let runs = last.as_object_mut().unwrap().entry("runs");
        runs.or_insert_with(|| serde_json::json!([]))
            .as_array_mut()
            .unwrap()
            .push(share);
    }
    ladder
}

/// The open try of p = 39's ladder after a merge: its answer, seconds, pieces' values
/// (sorted) and runs' names (sorted).
fn open_try_after(ladder: &Json) -> (String, f64, Vec<u64>, Vec<String>) {
    let last = ladder["rungs"].as_array().unwrap().last().unwrap();
    let mut tops: Vec<u64> = (last["pieces"].as_array().unwrap().iter())
        .map(|piece| piece["top"].as_u64().unwrap())
        .collect();
    tops.sort_unstable();
    let mut runs: Vec<String> = (last["runs"].as_array().into_iter().flatten())
        .map(|share| share["run"].as_str().unwrap().to_string())
        .collect();
    runs.sort_unstable();
    let answer = last["answer"].as_str().unwrap().to_string();
    (answer, last["seconds"].as_f64().unwrap(), tops, runs)
}

/// Two copies that both went on with the same try in pieces since they parted (each asking
/// other pieces of the open band, as two machines with `--only-pieces` do) are joined: the
/// pieces of both, each run's seconds once (the common run `base` counted once, though both
/// copies hold it), and the band left open while a value of it is not covered, refuted once
/// the joined pieces cover every common value of the band (counted here from the definition of
/// common, not from the encoding). Kept lemma files of a piece both stopped are both kept (two
/// seeds' files), those of refuted pieces none. Mutations: a run held by both counted twice;
/// the pieces of the other copy dropped; a covered band left open; a copy that holds all our
/// pieces and more seconds, but not our run, taken as our try gone on with; one file kept of a
/// piece both stopped. The run that asked in turn still says so. Once the band is refuted,
/// the files of our records it drops are removed from our lemma folder, and no other file.
/// Mutation: no removal, or every file of the folder removed.
#[test]
fn a_merge_joins_two_copies_gone_on_with_one_try() {
    let dir = tempfile::tempdir().unwrap();
    let (open, free) = p39_open_try_with_free_pieces(Some("base"));
    assert!(free.len() >= 2, "{free:?}");
    let (_, base_seconds, held, _) = open_try_after(&open);
    // Ours asked a piece and had no answer; theirs refuted one, in a longer run (so theirs
    // holds all that ours refuted, and more seconds, but not ours' run).
    let mut ours = gone_on(&open, Some("ours"), 100.0, &[]);
    let mut theirs = gone_on(&open, Some("theirs"), 200.0, &free[..1]);
    // Both stopped the band's last piece, each keeping a file (runs of two seeds), and theirs
    // a file for the piece it then refuted, which a merge must not keep.
    let top = *free.last().unwrap();
    for (ladder, kept) in [
        (
            &mut ours,
            serde_json::json!([{"top": top, "clauses": 10, "file": "a.lemmas"}]),
        ),
        (
            &mut theirs,
            serde_json::json!([
                {"top": top, "clauses": 20, "file": "b.lemmas"},
                {"top": free[0], "clauses": 30, "file": "c.lemmas"}
            ]),
        ),
    ] {
        ladder["rungs"].as_array_mut().unwrap().last_mut().unwrap()["kept"] = kept;
    }
    // Theirs asked its pieces in turn, which the joined try still says of its run.
    let last = theirs["rungs"].as_array_mut().unwrap().last_mut().unwrap();
    last["runs"].as_array_mut().unwrap().last_mut().unwrap()["in_turn"] = true.into();
    let joined = ": 1 try gone on with by both and joined";
    let merged = merged_saying(dir.path(), 39, (&ours, &theirs), joined);
    let (answer, seconds, tops, runs) = open_try_after(&merged);
    let sorted = |tops: &[u64]| {
        let mut tops: Vec<u64> = held.iter().chain(tops).copied().collect();
        tops.sort_unstable();
        tops
    };
    assert_eq!(tops, sorted(&free[..1]));
    assert_eq!(runs, ["base", "ours", "theirs"]);
    assert!((seconds - (base_seconds + 300.0)).abs() < 1e-6, "{seconds}");
    assert_eq!(answer, "timeout");
    let last = merged["rungs"].as_array().unwrap().last().unwrap();
    let mut files: Vec<&str> = (last["kept"].as_array().unwrap().iter())
        .map(|k| k["file"].as_str().unwrap())
        .collect();
    files.sort_unstable();
    assert_eq!(files, ["a.lemmas", "b.lemmas"]);
    let in_turn: Vec<&str> = (last["runs"].as_array().unwrap().iter())
        .filter(|share| share["in_turn"] == true)
        .map(|share| share["run"].as_str().unwrap())
        .collect();
    assert_eq!(in_turn, ["theirs"], "{last}");
    // The rest of the band by a third copy: the band is refuted, and the files of its kept
    // records here go with them (another file in the folder stays).
    let lemmas = dir.path().join("lemmas");
    std::fs::create_dir_all(&lemmas).unwrap();
    for file in ["a.lemmas", "b.lemmas", "other.lemmas"] {
        std::fs::write(lemmas.join(file), "p cnf 1 0\n").unwrap();
    }
    let rest = gone_on(&open, Some("rest"), 50.0, &free[1..]);
    let (run, _) = merge_ladders(dir.path(), 39, &merged, &rest);
    let said = String::from_utf8_lossy(&run.stdout);
    let removed = "2 lemma files of calls the merge holds refuted (a.lemmas, b.lemmas)";
    assert!(said.contains(removed), "{said}");
    let left: Vec<_> = (std::fs::read_dir(&lemmas).unwrap())
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["other.lemmas"]);
    let merged = merged_saying(
        dir.path(),
        39,
        (&merged, &rest),
        ": 1 try gone on with by both",
    );
    let (answer, seconds, tops, _) = open_try_after(&merged);
    assert_eq!(tops, sorted(&free));
    assert_eq!(answer, "unsat");
    let last = merged["rungs"].as_array().unwrap().last().unwrap();
    assert!(last.get("kept").is_none(), "{last}");
    assert!((seconds - (base_seconds + 350.0)).abs() < 1e-6, "{seconds}");
    let again = merged_saying(dir.path(), 39, (&merged, &rest), "nothing new");
    assert_eq!(again, merged);
}

/// Two copies that both went on with the same try in runs of an earlier build, which name
/// themselves nowhere: the seconds of their common part cannot be told apart, so the merge is
/// refused in one line, and our ladder stays as it was, byte for byte.
#[test]
fn a_merge_of_two_copies_gone_on_with_one_try_in_unnamed_runs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (open, free) = p39_open_try_with_free_pieces(None);
    let ours = gone_on(&open, None, 100.0, &free[..1]);
    let theirs = gone_on(&open, None, 200.0, &free[1..2]);
    refused_saying(
        dir.path(),
        39,
        (&ours, &theirs),
        "went on with the same try",
    );
}

/// Bad input to `--merge`, one line and a non-zero exit each, our ladder unchanged: a ladder of
/// another period, a file that is not there, a pattern that fails the witness check, and
/// `--merge` with options of a climb.
#[test]
fn a_merge_refuses_a_ladder_it_cannot_take() {
    let dir = tempfile::tempdir().unwrap();
    let ours = committed_ladder(39);
    let ours_path = refused_saying(dir.path(), 39, (&ours, &committed_ladder(37)), "p = 37");
    let mut forged = ours.clone();
    forged["pattern"] = serde_json::json!(vec![1; 39]);
    refused_saying(dir.path(), 39, (&ours, &forged), "pattern");
    let ours_arg = path_str(&ours_path);
    let missing = dir.path().join("missing.json");
    let args = [&P39_BOUNDS[..], &["--ladder", ours_arg, "--merge"]].concat();
    let line = fails_with_one_line(&[&args[..], &[path_str(&missing)]].concat());
    assert!(line.contains("missing.json"), "{line}");
    let line = fails_with_one_line(&[&args[..], &[ours_arg, "--pieces"]].concat());
    assert!(line.contains("--pieces"), "{line}");
}

const P39_BOUNDS: [&str; 5] = ["sat", "bounds", "officers", "--p", "39"];

/// A try in pieces continued by a run that stops a piece says what that run gave it, not what
/// an earlier run's calls were given: p = 27's committed ladder with a try of 256..264 whose
/// last piece (263) an earlier run refuted and whose stopped piece had been given 2^20 lemmas (as a
/// run with lemma files leaves it), continued without `--lemmas` for 5 s (the band's pieces
/// take far longer), records its stopped piece 256 as given none. Mutation: the record keeps
/// the most any run gave (as p = 37's ladder said in session 40, its lemma files gone).
#[test]
fn a_continued_try_records_what_its_last_run_gave_the_piece_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = committed_p27_ladder(dir.path());
    let mut json = ladder_json(&ladder);
    // The band's last common value ([`is_common`]), refuted by the earlier try.
    let refuted = (256..264u16).filter(|&v| is_common(v)).max().unwrap();
    let earlier_try = serde_json::json!({
        "from": 256, "below": 264, "largest_first": true, "answer": "timeout",
        "seconds": 10.0, "preset": "unsat", "lemmas": 1048576,
        "pieces": [{"top": refuted, "seconds": 5.0}],
    });
    json["rungs"].as_array_mut().unwrap().push(earlier_try);
    std::fs::write(&ladder, json.to_string()).unwrap();
    let out = dir.path().join("periods.json");
    let pieces = ["--from", "264", "--to", "264", "--pieces", "--timeout", "5"];
    let run = grundy(&[&P27_BOUNDS[..], &pieces, &["--out", path_str(&out)]].concat());
    assert!(run.status.success(), "{run:?}");
    let rung = last_rung(&ladder);
    // The same try, gone on with: its refuted piece kept, more seconds, no answer.
    assert_eq!(rung["answer"].as_str(), Some("timeout"), "{rung}");
    assert_eq!(
        rung["pieces"][0]["top"].as_u64(),
        Some(refuted.into()),
        "{rung}"
    );
    assert!(rung["seconds"].as_f64().unwrap() > 10.0, "{rung}");
    assert!(rung.get("lemmas").is_none(), "given none this run: {rung}");
}

/// The parts `--cut 13:64,96,120,144,152,160` cuts a piece into: the range of `s[13]` of each
/// (`None` above: to the top) and how the chain's calls name it.
const P39_CHAIN_PARTS: [(u64, Option<u64>, &str); 7] = [
    (0, Some(64), "s[13] < 64"),
    (64, Some(96), "64 <= s[13] < 96"),
    (96, Some(120), "96 <= s[13] < 120"),
    (120, Some(144), "120 <= s[13] < 144"),
    (144, Some(152), "144 <= s[13] < 152"),
    (152, Some(160), "152 <= s[13] < 160"),
    (160, None, "s[13] >= 160"),
];

/// The range of `s[13]` a checked piece record of the ladder covers: all of it for a piece
/// proved whole, else its half's (`at`, `high`, `below` as the ladder writes them); `None`
/// for a piece with no checked proof (a climb's piece, refuted without one).
fn checked_range(piece: &Json) -> Option<(u64, Option<u64>)> {
    piece.get("proof")?.get("checked_by")?;
    let Some(half) = piece.get("half") else {
        return Some((0, None));
    };
    let at = half["at"].as_u64().unwrap();
    match half["high"].as_bool().unwrap() {
        false => Some((0, Some(at))),
        true => Some((at, half.get("below").and_then(Json::as_u64))),
    }
}

/// The calls a chain proof of `ladder` in the parts of [`P39_CHAIN_PARTS`] has left, worked
/// out from the JSON alone: for each refuted band with no checked proof (the chain's bands
/// are refuted once each here), each common value of `s[0]` in it, each part with a value of
/// `s[13]` (below 512) that no checked record of that value of `s[0]` holds, named as the
/// chain's calls are. (Value by value: a part of the cut at 160 is held by the finer parts
/// 160..168, ..., >= 200 together.)
fn chain_calls_left(ladder: &Json) -> Vec<String> {
    let holds = |v: u64, (a, b): (u64, Option<u64>)| a <= v && b.is_none_or(|b| v < b);
    let within = |(lo, hi): (u64, Option<u64>), ranges: &[(u64, Option<u64>)]| {
        (lo..hi.unwrap_or(512)).all(|v| ranges.iter().any(|&r| holds(v, r)))
    };
    let mut left = Vec::new();
    for rung in ladder["rungs"].as_array().unwrap() {
        let open = rung["answer"] == "unsat" && rung.get("proof").is_none();
        let (Some(from), Some(below)) = (rung["from"].as_u64(), rung["below"].as_u64()) else {
            continue;
        };
        if !open {
            continue;
        }
        let pieces = rung["pieces"].as_array().map_or(&[][..], Vec::as_slice);
        for top in (from..below).filter(|&v| is_common(v as u16)) {
            let ranges: Vec<_> = (pieces.iter())
                .filter(|p| p["top"] == top)
                .filter_map(checked_range)
                .collect();
            for &(lo, hi, words) in &P39_CHAIN_PARTS {
                if !within((lo, hi), &ranges) {
                    left.push(format!("s[0] = {top}, {words} of the band {from}..{below}"));
                }
            }
        }
    }
    left
}

/// The checked parts proved in LRAT of the pieces of `ladder`'s open bands that have a call
/// `left` (as [`chain_calls_left`] names them), worked out from the JSON alone.
fn lrat_parts_of_pieces_left(ladder: &Json, left: &[String]) -> usize {
    let mut parts = 0;
    for rung in ladder["rungs"].as_array().unwrap() {
        let open = rung["answer"] == "unsat" && rung.get("proof").is_none();
        let (Some(from), Some(below), true) = (rung["from"].as_u64(), rung["below"].as_u64(), open)
        else {
            continue;
        };
        let asked = |top: &Json| {
            let (call, band) = (format!("s[0] = {top}, "), format!(" {from}..{below}"));
            left.iter()
                .any(|c| c.starts_with(&call) && c.ends_with(&band))
        };
        let in_lrat = |p: &&Json| {
            let format = p["proof"]["format"].as_str().unwrap_or("");
            p.get("half").is_some() && checked_range(p).is_some() && format.starts_with("lrat")
        };
        let pieces = rung["pieces"].as_array().map_or(&[][..], Vec::as_slice);
        parts += (pieces.iter().filter(in_lrat))
            .filter(|p| asked(&p["top"]))
            .count();
    }
    parts
}

/// Writes `ladder` as p = 39's in `dir`: its path and the bytes written.
fn write_p39_ladder(dir: &Path, ladder: &Json) -> (std::path::PathBuf, Vec<u8>) {
    let path = dir.join("bounds-p39-feasible.json");
    std::fs::write(&path, ladder.to_string()).unwrap();
    let written = std::fs::read(&path).unwrap();
    (path, written)
}

/// The arguments of `sat bounds --prove-chain --plan --pieces` on p = 39 (bands of 8) beside
/// the periods file `out`, then `extra`.
fn p39_plan_args<'a>(out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let plan = [
        "sat",
        "bounds",
        "officers",
        "--p",
        "39",
        "--step",
        "8",
        "--prove-chain",
        "--plan",
        "--pieces",
        "--out",
        path_str(out),
    ];
    [&plan[..], extra].concat()
}

/// `sat bounds --prove-chain --plan` lists the calls the chain has left and changes nothing:
/// on a copy of p = 39's committed ladder in which the proved bands 200..208 and 216..224 have
/// lost their proofs and the parts of 207 and 222 from `s[13]` = 160 and 120 up (so the test
/// asks for them whatever the committed chain has done), the calls printed are those worked
/// out from the JSON alone ([`chain_calls_left`]), with one job lowest band first, and the
/// ladder is left byte for byte, with no lock or proof file made beside it. A piece given a
/// record of no answer as a whole has each of its parts listed as within it (mutation tried:
/// no part around a call looked for). In LRAT its first line counts, for the pace it gives,
/// the checked LRAT parts of the pieces with calls left (mutations tried: parts of pieces
/// proved whole counted; every part of the band counted for each piece left, 56 where the JSON
/// says 9). Without --plan, --prove-chain still needs --proof-dir.
#[test]
fn the_plan_of_a_chain_lists_the_calls_it_has_left_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut ladder = committed_ladder(39);
    for (from, top, at) in [(200, 207, 160), (216, 222, 120)] {
        let rungs = ladder["rungs"].as_array_mut().unwrap();
        let band = (rungs.iter_mut())
            .find(|r| (r["from"].as_u64(), r["answer"].as_str()) == (Some(from), Some("unsat")))
            .expect("p = 39's bands 200..208 and 216..224 are refuted");
        band.as_object_mut().unwrap().remove("proof");
        let above = |p: &Json| p["half"]["at"].as_u64().is_some_and(|a| a >= at);
        (band["pieces"].as_array_mut().unwrap()).retain(|p| p["top"] != top || !above(p));
    }
    // Calls with no answer before are passed over (the test of that is
    // `a_chain_on_two_jobs_goes_on_past_a_call_out_of_time`): here every call left is listed.
    for rung in ladder["rungs"].as_array_mut().unwrap() {
        rung.as_object_mut().unwrap().remove("unanswered");
    }
    let expected = chain_calls_left(&ladder);
    assert!(expected.len() >= 5, "{expected:?}");
    // The piece of the last call left (222, whose parts the test took away) had no answer as a
    // whole in a million seconds: each of its parts is listed as within it.
    let (piece, band) = expected.last().unwrap().split_once(", ").unwrap();
    let band = band.rsplit(' ').next().unwrap();
    let of_piece = |call: &&str| call.starts_with(piece) && call.ends_with(band);
    let top: u64 = piece.trim_start_matches("s[0] = ").parse().unwrap();
    let from: u64 = band.split("..").next().unwrap().parse().unwrap();
    let open_band = |r: &&mut Json| r["from"] == from && r["answer"] == "unsat";
    let rungs = ladder["rungs"].as_array_mut().unwrap();
    rungs.iter_mut().find(open_band).unwrap()["unanswered"] =
        serde_json::json!([{"top": top, "timeout": 1e6}]);
    let parts_of_piece = expected.iter().map(String::as_str).filter(of_piece).count();
    let (path, written) = write_p39_ladder(dir.path(), &ladder);
    let out = dir.path().join("periods.json");
    let plan = |jobs: &str| {
        let cut = ["--cut", "13:64,96,120,144,152,160", "--jobs", jobs];
        let run = grundy(&p39_plan_args(&out, &cut));
        assert!(run.status.success(), "{run:?}");
        String::from_utf8(run.stdout).unwrap()
    };
    for jobs in ["1", "2"] {
        let printed = plan(jobs);
        let calls: Vec<&str> = (printed.lines())
            .filter_map(|l| l.strip_prefix("  "))
            .map(|l| l.split(" (").next().unwrap())
            .collect();
        let (got, want): (HashSet<_>, HashSet<_>) = (
            calls.iter().copied().collect(),
            expected.iter().map(String::as_str).collect(),
        );
        assert_eq!(got, want, "--jobs {jobs}:\n{printed}");
        assert_eq!(
            calls.len(),
            expected.len(),
            "--jobs {jobs}: a call twice\n{printed}"
        );
        let first = printed.lines().next().unwrap();
        assert!(
            first.starts_with(&format!("p=39: {} calls to prove", expected.len())),
            "{first}"
        );
        let within = "; within the piece, which had no answer in 11.6 days)";
        let in_piece: Vec<&str> = (printed.lines().filter_map(|l| l.strip_prefix("  ")))
            .filter(|l| l.ends_with(within))
            .map(|l| l.split(" (").next().unwrap())
            .collect();
        assert_eq!(in_piece.len(), parts_of_piece, "{printed}");
        assert!(in_piece.iter().all(of_piece), "{printed}");
        if jobs == "1" {
            let bands: Vec<&str> = calls
                .iter()
                .map(|c| c.rsplit(' ').next().unwrap())
                .collect();
            assert!(
                bands.is_sorted_by_key(|b| b[..3].parse::<u16>().unwrap()),
                "{printed}"
            );
        }
    }
    // In LRAT, the first line gives the pace of the parts proved of the pieces with calls left
    // (`parts_pace`), here counted from the JSON: each checked LRAT part of such a piece.
    let lrat = [
        "--cut",
        "13:64,96,120,144,152,160",
        "--proof-format",
        "lrat",
    ];
    let run = grundy(&p39_plan_args(&out, &lrat));
    assert!(run.status.success(), "{run:?}");
    let first = String::from_utf8_lossy(&run.stdout)
        .lines()
        .next()
        .map(String::from);
    let pace = format!(
        "times their shares of the climb, as the {} parts of the same pieces proved in LRAT so far)",
        lrat_parts_of_pieces_left(&ladder, &expected)
    );
    assert!(
        first.as_ref().is_some_and(|l| l.contains(&pace)),
        "{first:?}, wanted {pace}"
    );
    assert!(
        std::fs::read(&path).unwrap() == written,
        "the ladder was changed"
    );
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        files,
        ["bounds-p39-feasible.json"],
        "files made beside the ladder"
    );
    let said = fails_with_one_line(&[
        "sat",
        "bounds",
        "officers",
        "--p",
        "39",
        "--prove-chain",
        "--out",
        path_str(&out),
    ]);
    assert!(said.contains("<--proof-dir <PROOF_DIR>|--plan>"), "{said}");
}

/// A ladder whose piece says it ended at a time that is none ("yesterday") is refused in one
/// line naming the file, and left as it was: the time is read as RFC 3339, not kept as any
/// text.
#[test]
fn a_ladder_with_a_malformed_time_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut ladder = committed_ladder(39);
    let rungs = ladder["rungs"].as_array_mut().unwrap();
    let piece = (rungs.iter_mut())
        .find_map(|r| r["pieces"].as_array_mut()?.first_mut())
        .expect("p = 39's ladder has pieces");
    piece["ended"] = "yesterday".into();
    let (path, written) = write_p39_ladder(dir.path(), &ladder);
    let out = dir.path().join("periods.json");
    let said = fails_with_one_line(&p39_plan_args(&out, &[]));
    assert!(
        said.contains("bounds-p39-feasible.json: not a bounds ladder"),
        "{said}"
    );
    assert!(
        std::fs::read(&path).unwrap() == written,
        "the ladder was changed"
    );
}
