//! The long-run engine (issue: speculative generator, verifier, rollback, checkpoints) against
//! the exact generator, the naive one and the C baseline's checksum.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use grundy::io::ValuesDump;
use grundy::run::{RunConfig, run};
use grundy::values::checksum;
use grundy::values::naive_values;
use grundy::values::verify::verify_interval;
use grundy::{ExactGenerator, Game};

use crate::shared::{baseline_checksum, path_str, solved_games};

fn exact(game: &Game, n: usize) -> Vec<u16> {
    let mut g = ExactGenerator::new(game);
    g.extend_to(n).unwrap();
    g.into_values()
}

fn first_difference(a: &[u16], b: &[u16]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

#[test]
fn officers_to_2_20_equals_exact_and_the_c_speculative_checksum() {
    let n = 1 << 20;
    for threads in [1, 2] {
        let mut config = RunConfig::new(Game::officers(), n);
        config.threads = threads;
        let (report, values) = run(config, &mut |_| {}).unwrap();
        let values = values.to_vec();
        assert_eq!(report.verified_to, n, "threads {threads}");
        assert!(
            report.speculative_values > n / 2,
            "the speculative path was not used"
        );
        assert_eq!(
            first_difference(&values, &exact(&Game::officers(), n as usize)),
            None,
            "threads {threads}"
        );
        assert_eq!(
            report.checksum,
            baseline_checksum("speculative", n),
            "threads {threads}"
        );
    }
}

#[test]
fn solved_games_equal_exact() {
    for row in solved_games()
        .iter()
        .filter(|r| [".45", ".356", ".16", ".56", ".4", ".17"].contains(&r.code.as_str()))
    {
        let game: Game = row.code.parse().unwrap();
        let n = 1 << 17;
        let mut config = RunConfig::new(game.clone(), n);
        config.chunk = 1 << 14;
        config.period_search = false; // these games are periodic: the search would stop the run
        let (report, values) = run(config, &mut |_| {}).unwrap();
        let values = values.to_vec();
        assert_eq!(report.verified_to, n, "{}", row.code);
        assert_eq!(
            first_difference(&values, &exact(&game, n as usize)),
            None,
            "{}",
            row.code
        );
    }
}

#[test]
fn incomplete_rare_table_is_repaired_by_rollbacks() {
    // Speculate from heap 5000 with only the rares below it: every later rare value (and every
    // value the old table got wrong) must be caught by the verifier and rolled back.
    let n = 1 << 16;
    let mut config = RunConfig::new(Game::officers(), n);
    config.speculate_from = Some(5000);
    config.chunk = 4096;
    let (report, values) = run(config, &mut |_| {}).unwrap();
    let values = values.to_vec();
    let truth = exact(&Game::officers(), n as usize);
    assert_eq!(first_difference(&values, &truth), None);
    assert_eq!(report.verified_to, n);
    assert!(
        report.rollbacks.iter().any(|r| r.new_rare),
        "no new rare value was found"
    );
    for rb in &report.rollbacks {
        assert_eq!(rb.exact, truth[rb.heap as usize]);
        assert_ne!(rb.claimed, rb.exact);
    }
    // The rare table at the end is the true one (checked against the exact generator's).
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(n as usize).unwrap();
    assert_eq!(
        report.rare_table,
        g.rares().map(|(p, v)| (p as u64, v)).collect::<Vec<_>>()
    );
}

#[test]
fn small_memory_runs_spill_to_disk_and_equal_exact() {
    // 2^15 values in memory (the rule's window is 20,628 + 2 blocks + slack): everything older
    // lives in a temporary file, and pair scans that reach behind the tail read it there.
    let dir = tempfile::tempdir().unwrap();
    let n = 1 << 20;
    let truth = exact(&Game::officers(), n as usize);
    let c_checksum = baseline_checksum("speculative", n);
    for (verify, speculate_from) in [(true, None), (true, Some(5000)), (false, None)] {
        let mut config = RunConfig::new(Game::officers(), n);
        config.threads = 2;
        config.memory = 1 << 15;
        config.chunk = 1 << 14;
        config.verify = verify;
        config.speculate_from = speculate_from;
        config.spill_dir = Some(dir.path().to_path_buf());
        let (report, history) = run(config, &mut |_| {}).unwrap();
        let case = format!("verify {verify}, speculate from {speculate_from:?}");
        assert!(
            history.base() > n as usize / 2 && history.in_memory() < 1 << 17,
            "{case}: {} values in memory, tail from {}",
            history.in_memory(),
            history.base()
        );
        assert_eq!(first_difference(&history.to_vec(), &truth), None, "{case}");
        assert_eq!(report.checksum, c_checksum, "{case}");
        assert_eq!(report.stats.count, n, "{case}");
        assert_eq!(report.verified_to == n, verify, "{case}");
        if speculate_from.is_some() {
            assert!(report.rollbacks.iter().any(|r| r.new_rare), "{case}");
        }
    }
}

#[test]
fn small_memory_runs_prove_published_periods() {
    // .16 needs 2 * 105351 + 2 * 149459 + 3 values to prove its period and .56 about 653,000:
    // far more than the 2^15 kept in memory, so the candidate is decided on values from disk.
    for row in solved_games()
        .iter()
        .filter(|r| [".16", ".56"].contains(&r.code.as_str()))
    {
        let game: Game = row.code.parse().unwrap();
        let mut config = RunConfig::new(game, 1 << 21);
        config.memory = 1 << 15;
        config.chunk = 1 << 14;
        let (report, history) = run(config, &mut |_| {}).unwrap();
        let cert = report.period.expect("a period");
        assert_eq!(
            (Some(cert.preperiod), cert.period),
            (row.preperiod, row.period),
            "{}",
            row.code
        );
        assert!(history.in_memory() < 1 << 17, "{}", row.code);
    }
}

#[test]
fn values_beyond_511_fall_back_to_the_exact_rule() {
    let game: Game = ".04".parse().unwrap();
    let n = 40_000;
    let (report, values) = run(RunConfig::new(game.clone(), n), &mut |_| {}).unwrap();
    let values = values.to_vec();
    assert!(*values.iter().max().unwrap() > 511);
    assert_eq!(
        first_difference(&values, &naive_values(&game, n as usize).unwrap()),
        None
    );
    assert_eq!(report.verified_to, n);
}

#[test]
fn unverified_runs_say_so() {
    let mut config = RunConfig::new(Game::officers(), 1 << 17);
    config.verify = false;
    let (report, values) = run(config, &mut |_| {}).unwrap();
    let values = values.to_vec();
    assert!(report.verified_to < report.values);
    assert_eq!(
        checksum(&values),
        checksum(&exact(&Game::officers(), 1 << 17))
    );
}

fn grundy() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
}

/// Starts `grundy ARGS` with its output captured, and returns once `checkpoint` (if given) exists
/// (at most two minutes).
fn spawn_run(args: &[String], checkpoint: Option<&Path>) -> std::process::Child {
    let child = grundy()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while checkpoint.is_some_and(|path| !path.exists())
        && started.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

fn run_args(checkpoint: &Path, n: &str) -> Vec<String> {
    [
        "run",
        "officers",
        "--to",
        n,
        "--threads",
        "2",
        "--chunk",
        "2^15",
        "--checkpoint-every",
        "0.02",
        // Most values live only in the checkpoint's values file: resuming reads them back.
        "--memory",
        "2^16",
        "--checkpoint",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([checkpoint.display().to_string()])
    .collect()
}

fn checksum_line(stdout: &[u8]) -> String {
    String::from_utf8_lossy(stdout)
        .lines()
        .find(|l| l.starts_with("checksum"))
        .expect("checksum line")
        .to_string()
}

#[test]
fn killed_runs_resume_to_the_same_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let n = "2^21";
    let reference_dump = dir.path().join("reference.bin");
    let reference = grundy()
        .args([
            "run",
            "officers",
            "--to",
            n,
            "--threads",
            "2",
            "--values-out",
        ])
        .arg(&reference_dump)
        .output()
        .unwrap();
    assert!(reference.status.success());
    let expected = checksum_line(&reference.stdout);
    let path = dir.path().join("run.ckpt");
    // Start, kill with SIGKILL after a while, resume, kill again... then let it finish.
    let mut finished = None;
    for (round, wait_ms) in [300u64, 400, 250, 600, 350].into_iter().enumerate() {
        let mut args = run_args(&path, n);
        if path.exists() {
            args.push("--resume".into());
        }
        args.push("--values-out".into());
        args.push(dir.path().join("resumed.bin").display().to_string());
        // The first kill waits for the first checkpoint (the exact prefix): under a loaded CI
        // machine a fixed delay may come before it, and nothing would be resumed.
        let mut child = spawn_run(&args, (round == 0).then_some(path.as_path()));
        std::thread::sleep(Duration::from_millis(wait_ms));
        if child.try_wait().unwrap().is_some() {
            finished = Some(child.wait_with_output().unwrap());
            break;
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(path.exists(), "no checkpoint after round {round}");
    }
    let out = match finished {
        Some(out) => out,
        None => {
            let mut args = run_args(&path, n);
            args.push("--resume".into());
            args.push("--values-out".into());
            args.push(dir.path().join("resumed.bin").display().to_string());
            grundy().args(&args).output().unwrap()
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(checksum_line(&out.stdout), expected);
    assert!(String::from_utf8_lossy(&out.stdout).contains("all verified"));
    // Every value, read back from memory and the values file, equals the reference's.
    let resumed = std::fs::read(dir.path().join("resumed.bin")).unwrap();
    assert!(resumed == std::fs::read(reference_dump).unwrap());
}

#[test]
fn a_no_verify_checkpoint_resumes_verified() {
    // Claims from an incomplete rare table, saved unverified, then resumed with verification
    // (and little memory): the saved claims are dropped and regenerated, and every value ends
    // exact.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let n = 1 << 17;
    let mut config = RunConfig::new(Game::officers(), n / 2);
    config.speculate_from = Some(5000);
    config.verify = false;
    config.checkpoint = Some(path.clone());
    let (first, _) = run(config, &mut |_| {}).unwrap();
    assert!(first.verified_to < first.values);
    let mut config = RunConfig::new(Game::officers(), n);
    config.checkpoint = Some(path);
    config.resume = true;
    config.memory = 1 << 14;
    config.chunk = 1 << 13;
    let (report, history) = run(config, &mut |_| {}).unwrap();
    let truth = exact(&Game::officers(), n as usize);
    assert_eq!(first_difference(&history.to_vec(), &truth), None);
    assert_eq!(report.verified_to, n);
    assert_eq!(report.stats.checksum, checksum(&truth));
    assert!(report.rollbacks.iter().any(|r| r.new_rare));
}

#[test]
fn an_unwritable_spill_directory_is_one_clear_error() {
    let out = grundy()
        .args(["run", "officers", "--to", "2^20", "--memory", "2^15"])
        .args(["--spill-dir", "/nonexistent/spill"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cannot store values: /nonexistent/spill"),
        "{stderr}"
    );
}

#[test]
fn corrupt_or_foreign_checkpoints_are_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let first = grundy().args(run_args(&path, "2^17")).output().unwrap();
    assert!(first.status.success());
    // Without --resume an existing checkpoint is never overwritten.
    let again = grundy().args(run_args(&path, "2^17")).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
    // Another game's run refuses it.
    let mut foreign = run_args(&path, "2^17");
    foreign[1] = ".56".into();
    foreign.push("--resume".into());
    let out = grundy().args(&foreign).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not .56"));
    // A damaged checkpoint is refused with one line, and left exactly as it was.
    let text = std::fs::read_to_string(&path).unwrap();
    let damaged = text.replacen("\"verified_to\":", "\"verified_to\":1", 1);
    std::fs::write(&path, &damaged).unwrap();
    let mut resume = run_args(&path, "2^17");
    resume.push("--resume".into());
    let out = grundy().args(&resume).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("corrupt"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), damaged);
}

#[test]
fn verify_command_checks_a_dump_and_names_a_wrong_value() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| grundy().args(args).output().unwrap();
    let (good, bad) = (dir.path().join("good.bin"), dir.path().join("bad.bin"));
    let (good_path, bad_path) = (path_str(&good), path_str(&bad));
    let dump_args = [
        "values", ".6", "-n", "60000", "--format", "bin", "--out", good_path,
    ];
    assert!(run(&dump_args).status.success());
    let verdict_path = dir.path().join("verdict.json");
    let interval = ["--from", "30000", "--to", "60000"];
    let written = ["--out", path_str(&verdict_path)];
    let ok = run(&[&["verify", "--values", good_path], &interval[..], &written].concat());
    assert!(ok.status.success());
    let verdict: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&verdict_path).unwrap()).unwrap();
    assert_eq!(verdict["verified_to"], 60000);
    assert!(verdict["first_wrong"].is_null());
    // Damage one value (a valid dump otherwise): the verdict names exactly that heap.
    let mut dump = ValuesDump::read_bin(&good).unwrap();
    let truth = dump.values[44444];
    dump.values[44444] ^= 1;
    std::fs::write(&bad, dump.to_bin()).unwrap();
    let out = run(&[&["verify", "--values", bad_path], &interval[..]].concat());
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["first_wrong"]["heap"], 44444);
    assert_eq!(verdict["first_wrong"]["exact"], truth);
    // The library call agrees with the process.
    assert_eq!(
        verify_interval(&Game::officers(), &dump.values, 30000, 60000).verified_to,
        44444
    );
    // Bad input: an interval outside the dump, a corrupt file.
    let outside = run(&[
        "verify", "--values", good_path, "--from", "5", "--to", "70000",
    ]);
    assert!(!outside.status.success());
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&bad, bytes).unwrap();
    let out = run(&["verify", "--values", bad_path, "--from", "5", "--to", "50"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("CRC"));
}

/// Sends `signal` (a name `kill` knows: TERM, INT) to a child process.
/// Waits until `path` exists, failing after `secs` with `what`.
pub fn wait_for_file(path: &std::path::Path, secs: u64, what: &str) {
    let started = std::time::Instant::now();
    while !path.exists() {
        assert!(started.elapsed().as_secs() < secs, "{what} within {secs} s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The output of `child` once it ends after a stop request; killed, and the test failed, when
/// it is still running `secs` later.
pub fn output_within(mut child: std::process::Child, secs: u64) -> std::process::Output {
    let signalled = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if signalled.elapsed().as_secs() > secs {
            send_signal(&child, "KILL");
            panic!("still running {secs} s after the stop request");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

pub fn send_signal(child: &std::process::Child, signal: &str) {
    let sent = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal} failed");
}

#[test]
fn a_stop_request_checkpoints_every_value_and_exits_130() {
    // Checkpoints every 1000 s: without the stop request's own save, the checkpoint would hold
    // the exact prefix (2^16 values) only.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let mut args = run_args(&path, "2^30");
    let every = args.iter().position(|a| a == "--checkpoint-every").unwrap();
    args[every + 1] = "1000".into();
    let child = spawn_run(&args, Some(&path));
    std::thread::sleep(Duration::from_millis(1500));
    send_signal(&child, "INT");
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted at") && stderr.contains("--resume"),
        "{stderr}"
    );
    let reported: u64 = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("values "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a values line");
    let json = std::fs::read_to_string(&path).unwrap();
    let head: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let saved = head["values"].as_u64().unwrap();
    assert_eq!(saved, reported);
    assert!(saved > 1 << 16, "only the exact prefix was saved ({saved})");
    // What was saved is right: the values file against mvr's published values.
    let bytes = std::fs::read(dir.path().join("run.ckpt.values")).unwrap();
    let reference = crate::shared::officers_reference_values();
    let saved_values: Vec<u16> = bytes
        .chunks_exact(2)
        .take(reference.len())
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert!(saved_values == reference[..saved_values.len()]);
    assert!(saved_values.len() == reference.len().min(saved as usize));
}
