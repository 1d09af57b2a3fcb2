//! The `grundy` binary: outputs checked against the naive oracle and reference data, bad input
//! refused with one line, a non-zero exit and no file left behind.

use std::path::Path;
use std::process::{Command, Output};

use grundy::Game;
use grundy::io::{RareTable, ValuesDump};
use grundy::values::naive_values;

use crate::shared::{path_str, reference};

pub fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // `grundy sat excluded ... | head -1`: about 4 MB of lines into a reader that stops after
    // the first. Before SIGPIPE had its default back, this panicked with a backtrace (exit 101).
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["sat", "excluded", "officers", "--periods", "1..100000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("p=1 "), "{first}");
    drop(out);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(done.status.code(), Some(101));
}

/// Asserts failure with exactly one line on standard error, and returns that line.
pub fn fails_with_one_line(args: &[&str]) -> String {
    failed_in_one_line(&grundy(args), &format!("{args:?}"))
}

/// The one line of stderr of a run (`what` names it) that must have failed with one. Progress
/// lines before it (`..., ETA ...`) are no part of the error: a run that works for more than 10
/// s before it fails (a busy machine) writes one in a pipe, as a log of hours should.
pub fn failed_in_one_line(out: &Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{what} succeeded");
    let lines: Vec<&str> = (stderr.trim_end().lines())
        .filter(|l| !l.contains(", ETA "))
        .collect();
    assert_eq!(lines.len(), 1, "{what} printed {stderr:?}");
    assert!(lines[0].starts_with("grundy: "), "{stderr:?}");
    format!("{}\n", lines[0])
}

/// Writes an executable shell script, `#!/bin/sh` then `body`, at `path` (stand-ins for
/// programs grundy runs, such as rate).
pub fn write_script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(path, mode).unwrap();
}

pub fn files_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn malformed_codes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("values.txt");
    let out = path_str(&out);
    for (code, says) in [
        ("", "empty"),
        (".68", "octal digits"),
        ("6", "no point"),
        (".6x", "unexpected text"),
        ("0.000", "no move"),
        ("3.6", "before the point"),
    ] {
        let line = fails_with_one_line(&["values", code, "-n", "10", "--out", out]);
        assert!(line.contains(says), "{code:?}: {line}");
    }
    assert!(files_in(dir.path()).is_empty(), "a file was left behind");
    fails_with_one_line(&["values", ".6", "-n", "lots"]);
}

#[test]
fn text_and_binary_values_equal_naive() {
    let dir = tempfile::tempdir().unwrap();
    let game: Game = ".137".parse().unwrap();
    let naive = naive_values(&game, 3000).unwrap();
    let text = grundy(&["values", "0.137", "-n", "3000"]);
    assert!(text.status.success());
    let parsed: Vec<u16> = String::from_utf8_lossy(&text.stdout)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(parsed, naive);
    let bin = dir.path().join("v.bin");
    assert!(
        grundy(&[
            "values",
            ".137",
            "-n",
            "3000",
            "--format",
            "bin",
            "--out",
            path_str(&bin)
        ])
        .status
        .success()
    );
    let dump = ValuesDump::read_bin(&bin).unwrap();
    assert_eq!((dump.game, dump.values, dump.exact), (game, naive, true));
    assert_eq!(
        files_in(dir.path()),
        vec!["v.bin".to_string()],
        "temporary files left"
    );
}

#[test]
fn rares_command_writes_a_table_equal_to_mvr() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rares.tsv");
    let out = grundy(&["rares", "officers", "-n", "30000", "--out", path_str(&path)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours = RareTable::read(&path).unwrap();
    let theirs = RareTable::read(&reference("officers_rare_values_mvr.txt")).unwrap();
    assert_eq!(ours.first_difference(&theirs), None);
    let mvr = reference("officers_rare_values_mvr.txt");
    let check = grundy(&["rares", ".6", "-n", "30000", "--check", path_str(&mvr)]);
    assert!(check.status.success());
    // Too few values: the table is short, and the check says where.
    let short = grundy(&["rares", ".6", "-n", "20000", "--check", path_str(&mvr)]);
    assert_eq!(short.status.code(), Some(1));
}

#[test]
fn corrupt_and_truncated_rare_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.tsv");
    assert!(
        grundy(&["rares", ".6", "-n", "25000", "--out", path_str(&good)])
            .status
            .success()
    );
    let text = std::fs::read_to_string(&good).unwrap();
    let mvr = std::fs::read_to_string(reference("officers_rare_values_mvr.txt")).unwrap();
    let cases = [
        (
            "truncated.tsv",
            text[..text.len() / 2].to_string(),
            "truncated",
        ),
        (
            "edited.tsv",
            text.replacen("20627\t277", "20627\t279", 1),
            "corrupt",
        ),
        (
            "mvr-truncated.txt",
            mvr[..mvr.len() / 2].to_string(),
            "line",
        ),
        (
            "garbage.txt",
            "hello world\n".to_string(),
            "not a rare table",
        ),
    ];
    for (name, content, says) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let line = fails_with_one_line(&["rares", ".6", "-n", "100", "--check", path_str(&path)]);
        assert!(line.contains(says), "{name}: {line}");
    }
    fails_with_one_line(&[
        "rares",
        ".6",
        "-n",
        "100",
        "--check",
        "/nonexistent/table.tsv",
    ]);
}

#[test]
fn unwritable_output_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/folder/values.txt");
    let line = fails_with_one_line(&["values", ".6", "-n", "100", "--out", path_str(&missing)]);
    assert!(line.contains("cannot write"), "{line}");
    // A full disk: /dev/full accepts no byte. Writing there must fail cleanly too.
    if Path::new("/dev/full").exists() {
        let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["values", ".6", "-n", "100000"])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr)
                .trim_end()
                .lines()
                .count(),
            1
        );
    }
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn stats_json_matches_the_reference_facts() {
    let out = grundy(&["stats", "officers", "-n", "98304", "--json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reference_values = crate::shared::officers_reference_values();
    let sum: u64 = reference_values.iter().map(|&v| u64::from(v)).sum();
    assert_eq!(json["checksum"], sum);
    assert_eq!(json["rare_count"], 1584);
    assert_eq!(json["space"], "0x1ee");
    let zeros: Vec<u64> = (0..reference_values.len())
        .filter(|&i| reference_values[i] == 0)
        .map(|i| i as u64)
        .collect();
    assert_eq!(json["losing_positions"], serde_json::json!(zeros));
}

#[test]
fn seconds_that_are_not_a_positive_duration_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let work = dir.path().join("work");
    let (out, work) = (path_str(&out), path_str(&work));
    for (flag, secs) in [
        ("--timeout", "0"),
        ("--timeout", "1e300"),
        ("--lemmas-every", "-1"),
        ("--lemmas-every", "NaN"),
    ] {
        let given = format!("{flag}={secs}"); // `=`: clap would read "-1" as a flag
        let sat = ["sat", "officers", "--periods", "4..4", &given, "--out", out];
        let line = fails_with_one_line(&sat);
        assert!(line.contains(flag) && line.contains("positive"), "{line}");
        let slurm = ["slurm", "sat", "officers", "--periods", "4..4", &given];
        let line = fails_with_one_line(&[&slurm[..], &["--work", work, "--dry-run"]].concat());
        assert!(line.contains(flag) && line.contains("positive"), "{line}");
    }
    assert!(files_in(dir.path()).is_empty(), "nothing written");
}

/// A climb's bounds out of order or past 512 fail in one line naming them, writing nothing; a
/// chain proof (`--prove-chain`) has no `--from`, so `--to` below the default `--from` is no
/// error there (it fails only for want of a checker, or of a ladder).
#[test]
fn bounds_out_of_order_are_refused_for_a_climb_only() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json").display().to_string();
    let bounds = ["sat", "bounds", "officers", "--p", "4", "--out", &out];
    for (from, to) in [("100", "50"), ("64", "600")] {
        let line = fails_with_one_line(&[&bounds[..], &["--from", from, "--to", to]].concat());
        assert!(line.contains("bad bounds") && line.contains(to), "{line}");
    }
    assert!(files_in(dir.path()).is_empty(), "nothing written");
    let proofs = dir.path().join("proofs").display().to_string();
    let chain = ["--prove-chain", "--proof-dir", &proofs, "--to", "40"];
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([&bounds[..], &chain[..]].concat())
        .env_remove(grundy::sat::solve::DRAT_CHECKER_VAR)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && !stderr.contains("bad bounds"),
        "{stderr}"
    );
    assert!(stderr.contains("DRAT checker"), "{stderr}");
}

/// An argument missing, or one given without the one it needs, is named in the one line: clap
/// lists such arguments on the lines after its first, which the line must keep.
#[test]
fn a_missing_argument_is_named_in_the_one_line() {
    let line = fails_with_one_line(&["sat", "bounds", "officers", "--p", "4", "--prove-chain"]);
    assert!(line.contains("--proof-dir"), "{line}");
    let line = fails_with_one_line(&["sat", "bounds", "officers", "--p", "4", "--jobs", "2"]);
    assert!(line.contains("--prove-chain"), "{line}");
    let bounds = ["sat", "bounds", "officers", "--p", "4"];
    let line = fails_with_one_line(&[&bounds[..], &["--pieces", "--incremental"]].concat());
    assert!(line.contains("--incremental"), "{line}");
    let line = fails_with_one_line(&[&bounds[..], &["--pieces", "--keep-rotation"]].concat());
    assert!(line.contains("--keep-rotation"), "{line}");
    let line = fails_with_one_line(&["sat", "cubes", "officers"]);
    assert!(line.contains("--p"), "{line}");
    let cubes = ["sat", "cubes", "officers", "--p", "4", "--band", "0..40"];
    let line = fails_with_one_line(&[&cubes[..], &["--batch", "2"]].concat());
    assert!(line.contains("--certify"), "{line}");
    let line = fails_with_one_line(&[&cubes[..], &["--certify", "--batch", "0"]].concat());
    assert!(
        line.contains("--batch") && line.contains("0 is not in 1.."),
        "{line}"
    );
}
