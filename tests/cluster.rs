//! Cluster work: `grundy slurm verify|sat|cubes` and `grundy merge`.
//!
//! The tests without `slurm_` in their name run the tasks with `--run-here` (no Slurm); the
//! `slurm_` tests are ignored by `cargo test` and run by `.ci/slurm-test`, which starts a real
//! one-node Slurm cluster first (Debian's slurm-wlm and munge). Oracles: a single-process
//! `grundy verify` of the same dump, the C baseline's checksum, a local `grundy sat` run, and
//! varisat on the whole question for cube shares.

use std::path::{Path, PathBuf};
use std::process::Output;

use grundy::io::ValuesDump;
use grundy::values::exact_prefix;
use serde_json::Value as Json;

use crate::cli::grundy;
use crate::shared::{baseline_checksum, path_str as s};

fn ok(args: &[&str]) -> String {
    let out = grundy(args);
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Officers `G(0..n)` as a binary dump, with `wrong` (heap, value) claims put in.
fn dump(dir: &Path, name: &str, n: usize, wrong: &[(usize, u16)]) -> PathBuf {
    let mut values = exact_prefix(&grundy::Game::officers(), n)
        .unwrap()
        .into_values();
    for &(heap, v) in wrong {
        values[heap] = v;
    }
    let path = dir.join(name);
    let dump = ValuesDump {
        game: grundy::Game::officers(),
        start: 0,
        exact: wrong.is_empty(),
        values,
    };
    std::fs::write(&path, dump.to_bin()).unwrap();
    path
}

/// `grundy slurm verify --values V --shards K --work W` and then `how` (`--run-here`, `--wait`).
fn slurm_verify<'a>(
    values: &'a Path,
    shards: &'a str,
    work: &'a Path,
    how: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec!["slurm", "verify", "--values", s(values), "--shards", shards];
    args.extend(["--work", s(work)]);
    args.extend(how);
    args
}

/// `grundy verify` of the whole dump in one process: (verified_to, first wrong heap).
fn single_process(values: &Path, n: usize) -> (u64, Option<u64>) {
    let out = grundy(&[
        "verify",
        "--values",
        s(values),
        "--from",
        "0",
        "--to",
        &n.to_string(),
    ]);
    let v: Json = serde_json::from_slice(&out.stdout).unwrap();
    (
        v["verified_to"].as_u64().unwrap(),
        v["first_wrong"]["heap"].as_u64(),
    )
}

/// `grundy merge DIR`: (exit status, merged.json).
fn merged(dir: &Path) -> (Output, Json) {
    let out = grundy(&["merge", s(dir)]);
    (out, json(&dir.join("merged.json")))
}

/// Merges the verdicts in `work` and checks that they verify all `n` values of `values`, as one
/// process does.
fn merged_like_one_process(work: &Path, values: &Path, n: usize) {
    let (out, m) = merged(work);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(frontier(&m), single_process(values, n));
    assert_eq!(m["complete"], true);
}

fn frontier(m: &Json) -> (u64, Option<u64>) {
    (
        m["verified_to"].as_u64().unwrap(),
        m["first_wrong"]["heap"].as_u64(),
    )
}

#[test]
fn sharded_verification_here_equals_one_process_and_resubmits_only_missing_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1 << 16;
    let values = dump(dir.path(), "v.bin", n, &[]);
    let work = dir.path().join("work");
    let said = ok(&slurm_verify(&values, "4", &work, &["--run-here"]));
    assert!(said.contains("4 of 4 tasks to run: 0-3"), "{said}");
    merged_like_one_process(&work, &values, n);

    // A lost verdict: listed as missing, the frontier stops before it, and only it runs again.
    std::fs::remove_file(work.join("verdicts/verify-2.json")).unwrap();
    let (out, m) = merged(&work);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("missing tasks (no verdict; submit again to run only these): 2"),
        "{said}"
    );
    assert_eq!(m["missing"], serde_json::json!([2]));
    assert_eq!(m["verified_to"].as_u64().unwrap(), (n / 2) as u64);
    let said = ok(&slurm_verify(&values, "4", &work, &["--run-here"]));
    assert!(said.contains("1 of 4 tasks to run: 2"), "{said}");
    let (_, again) = merged(&work);
    assert_eq!(frontier(&again), single_process(&values, n));

    // Another plan for the same folder is refused.
    let out = grundy(&slurm_verify(&values, "5", &work, &["--dry-run"]));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("another job"));
}

#[test]
fn a_wrong_value_is_named_and_the_rollback_checkpoint_resumes_to_the_c_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1 << 18;
    let truth = dump(dir.path(), "true.bin", n, &[]);
    let exact = ValuesDump::read_bin(&truth).unwrap().values[200_001];
    let values = dump(
        dir.path(),
        "v.bin",
        n,
        &[(200_001, exact ^ 4), (250_000, 7)],
    );
    let work = dir.path().join("work");
    ok(&slurm_verify(&values, "4", &work, &["--run-here"]));
    let (out, m) = merged(&work);
    assert_eq!(out.status.code(), Some(1), "a wrong value exits 1");
    assert_eq!(frontier(&m), single_process(&values, n));
    assert_eq!(m["first_wrong"]["heap"], 200_001);
    assert_eq!(m["first_wrong"]["exact"], exact);

    // The engine takes it from there: resume, and the values are the true ones.
    let checkpoint = work.join("rollback.checkpoint");
    let report = dir.path().join("report.json");
    ok(&[
        "run",
        "officers",
        "--to",
        &n.to_string(),
        "--checkpoint",
        s(&checkpoint),
        "--resume",
        "--out",
        s(&report),
    ]);
    let r = json(&report);
    assert_eq!(r["verified_to"].as_u64().unwrap(), n as u64);
    assert_eq!(
        r["checksum"].as_u64().unwrap(),
        baseline_checksum("speculative", n as u64)
    );
    assert_eq!(r["rollbacks"][0]["heap"], 200_001);
}

#[test]
fn sat_shards_here_equal_a_local_run_and_merge_into_the_periods_file() {
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("local.json");
    ok(&[
        "sat",
        "officers",
        "--periods",
        "4..7",
        "--timeout",
        "60",
        "--out",
        s(&local),
    ]);
    let work = dir.path().join("work");
    let lemmas = dir.path().join("lemmas");
    ok(&[
        "slurm",
        "sat",
        "officers",
        "--periods",
        "4..7",
        "--timeout",
        "60",
        "--local-threads",
        "2",
        "--no-neighbourhoods",
        "--lemmas",
        s(&lemmas),
        "--lemmas-every",
        "30",
        "--work",
        s(&work),
        "--run-here",
    ]);
    // The tasks ran CaDiCaL alone (carrying lemmas), the local run steered: the same statuses.
    let manifest = std::fs::read_to_string(work.join("manifest.json")).unwrap();
    assert!(manifest.contains("--local-threads"), "{manifest}");
    assert!(manifest.contains("--no-neighbourhoods"), "{manifest}");
    assert!(
        manifest.contains("--lemmas") && manifest.contains(s(&lemmas)),
        "{manifest}"
    );
    let flat: String = manifest.split_whitespace().collect();
    assert!(flat.contains(r#""--lemmas-every","30""#), "{manifest}");
    let out = dir.path().join("merged.json");
    std::fs::copy(&local, &out).unwrap();
    ok(&["merge", s(&work), "--out", s(&out)]);
    assert_eq!(period_statuses(&json(&out)), period_statuses(&json(&local)));
    assert_eq!(period_statuses(&json(&out)).len(), 4);
}

/// `slurm sat --lemmas` with no folder gives every task `lemmas/` in the work folder, which
/// they all reach, as an absolute path (tasks may start elsewhere).
#[test]
fn slurm_sat_lemmas_with_no_folder_go_in_the_work_folder() {
    let dir = tempfile::tempdir().unwrap();
    let work = std::path::absolute(dir.path().join("work")).unwrap();
    let plan = ["slurm", "sat", "officers", "--periods", "4..5", "--lemmas"];
    ok(&[&plan[..], &["--work", s(&work), "--dry-run"]].concat());
    let manifest = json(&work.join("manifest.json"));
    let folder = serde_json::to_string(&work.join("lemmas")).unwrap();
    let tasks = manifest["tasks"].as_array().unwrap();
    assert!(!tasks.is_empty(), "{manifest}");
    for task in tasks {
        let args = task["args"].to_string();
        assert!(args.contains(&format!(r#""--lemmas",{folder}"#)), "{args}");
    }
}

#[test]
fn sat_seeds_spread_one_open_period_and_merge_keeps_each_run() {
    // p = 27 is open: three seeds of a one-second race each time out, and the merged file keeps
    // one result with the other two runs under `earlier`.
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let args = |how: &'static str| {
        let periods = [
            "slurm",
            "sat",
            "officers",
            "--periods",
            "27..27",
            "--timeout",
            "1",
        ];
        let mut a = periods.to_vec();
        a.extend(["--seeds", "0..2", "--work", s(&work), how]);
        a
    };
    ok(&args("--dry-run"));
    let manifest = json(&work.join("manifest.json"));
    let tasks: Vec<String> = manifest["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["args"].to_string())
        .collect();
    assert_eq!(tasks.len(), 3, "{tasks:?}");
    assert!(!tasks[0].contains("--seed"), "{}", tasks[0]);
    assert!(tasks[1].contains(r#""--seed","1""#), "{}", tasks[1]);
    assert!(tasks[2].contains(r#""--seed","2""#), "{}", tasks[2]);
    std::fs::remove_dir_all(&work).unwrap();
    ok(&args("--run-here"));
    let out = dir.path().join("merged.json");
    ok(&["merge", s(&work), "--out", s(&out)]);
    let merged = json(&out);
    let results = merged["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["feasible"], "timeout");
    let mut seeds: Vec<u64> = results[0]["earlier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["seed"].as_u64().unwrap())
        .collect();
    seeds.push(results[0]["seed"].as_u64().unwrap());
    seeds.sort();
    assert_eq!(seeds, [0, 1, 2]);
}

#[test]
fn sat_open_only_submits_just_the_open_periods_and_merge_calls_the_rest_not_needed() {
    // The periods file decides 4..6; a plan of 4..8 with two seeds each has 10 tasks, of which
    // --open-only runs the 4 of periods 7 and 8.
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known.json");
    let periods_4_6 = ["sat", "officers", "--periods", "4..6", "--timeout", "60"];
    ok(&[&periods_4_6[..], &["--out", s(&known)]].concat());
    let work = dir.path().join("work");
    let submit = [
        "slurm",
        "sat",
        "officers",
        "--periods",
        "4..8",
        "--seeds",
        "0..1",
        "--timeout",
        "60",
        "--open-only",
        "--periods-file",
        s(&known),
        "--work",
        s(&work),
        "--run-here",
    ];
    let said = ok(&submit);
    assert!(said.contains("--open-only: 6 tasks left out"), "{said}");
    let mut verdicts: Vec<String> = std::fs::read_dir(work.join("verdicts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json") && !name.starts_with('.'))
        .collect();
    verdicts.sort();
    let expected = [
        "sat-7-seed1.json",
        "sat-7.json",
        "sat-8-seed1.json",
        "sat-8.json",
    ];
    assert_eq!(verdicts, expected);
    // A lost verdict of p = 8 is not run again: the other seed's verdict decides 8.
    std::fs::remove_file(work.join("verdicts/sat-8-seed1.json")).unwrap();
    let said = ok(&submit);
    assert!(said.contains("--open-only: 7 tasks left out"), "{said}");
    assert!(said.contains("is done or not needed"), "{said}");
    // The merge names the seven tasks without a verdict as not needed, none as missing, and the
    // file holds 4..8 as Riley published them.
    let said = ok(&["merge", s(&work), "--out", s(&known)]);
    assert!(
        said.contains("not needed (no verdict, their period decided): 0-5,9"),
        "{said}"
    );
    assert!(!said.contains("missing tasks"), "{said}");
    let published = crate::sat::riley();
    let statuses = period_statuses(&json(&known));
    let ps: Vec<u64> = statuses.iter().map(|r| r.0).collect();
    assert_eq!(ps, [4, 5, 6, 7, 8]);
    for (p, feasible, _) in statuses {
        let riley = crate::sat::riley_status(&published[p as usize - 1].1);
        assert_eq!(
            feasible,
            format!("\"{}\"", format!("{riley:?}").to_lowercase())
        );
    }
}

// ---- real Slurm (run by .ci/slurm-test) ----

fn squeue_empty(job: &str) -> bool {
    let out = std::process::Command::new("squeue")
        .args(["-h", "-j", job])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().is_empty()
}

fn job_id(said: &str) -> String {
    said.split_whitespace()
        .skip_while(|w| *w != "job")
        .nth(1)
        .expect("a job id")
        .to_string()
}

#[test]
#[ignore = "needs Slurm: run by .ci/slurm-test"]
fn slurm_verify_in_8_shards_equals_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1 << 22;
    let values = dump(dir.path(), "v.bin", n, &[]);
    let work = dir.path().join("work");
    let said = ok(&slurm_verify(&values, "8", &work, &["--wait"]));
    assert!(said.contains("8 of 8 tasks"), "{said}");
    merged_like_one_process(&work, &values, n);
    let logs = std::fs::read_dir(work.join("logs")).unwrap().count();
    assert_eq!(logs, 8, "one Slurm log per task");
}

#[test]
#[ignore = "needs Slurm: run by .ci/slurm-test"]
fn slurm_names_the_one_corrupted_value() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1 << 22;
    let values = dump(dir.path(), "v.bin", n, &[(3_000_017, 1)]);
    let work = dir.path().join("work");
    ok(&slurm_verify(&values, "8", &work, &["--wait"]));
    let (out, m) = merged(&work);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(m["first_wrong"]["heap"], 3_000_017);
    assert_eq!(frontier(&m), single_process(&values, n));
    // Later shards may fail too: they check against the claims before them, the corrupted one
    // among them. The first failure is the corrupted heap itself.
    assert_eq!(m["failed"][0][1]["heap"], 3_000_017, "{m}");
}

#[test]
#[ignore = "needs Slurm: run by .ci/slurm-test"]
fn slurm_cancelled_task_alone_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1 << 21;
    let values = dump(dir.path(), "v.bin", n, &[]);
    let work = dir.path().join("work");
    let args = slurm_verify(&values, "8", &work, &[]);
    // One task at a time, so task 5 is still pending while the job runs; cancel it.
    let said = ok(&[&args[..], &["--max-running", "1"]].concat());
    let job = job_id(&said);
    let cancel = std::process::Command::new("scancel")
        .arg(format!("{job}_5"))
        .status()
        .unwrap();
    assert!(cancel.success());
    // Re-submitting while the job still runs is refused: a task never runs twice at once.
    let busy = grundy(&args);
    if !squeue_empty(&job) {
        assert!(!busy.status.success());
        assert!(String::from_utf8_lossy(&busy.stderr).contains("still queued or running"));
    }
    while !squeue_empty(&job) {
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let (_, m) = merged(&work);
    assert_eq!(m["missing"], serde_json::json!([5]), "{m}");
    assert_eq!(m["verified_to"].as_u64().unwrap(), split_start(n, 8, 5));
    let said = ok(&[&args[..], &["--wait"]].concat());
    assert!(said.contains("1 of 8 tasks to run: 5"), "{said}");
    let again = job_id(&said);
    let reruns: Vec<String> = std::fs::read_dir(work.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with(&format!("{again}_")))
        .collect();
    assert_eq!(reruns, vec![format!("{again}_5.out")]);
    let (out, m) = merged(&work);
    assert!(out.status.success());
    assert_eq!(frontier(&m), single_process(&values, n));
}

fn split_start(n: usize, shards: u64, k: u64) -> u64 {
    n as u64 * k / shards
}

#[test]
#[ignore = "needs Slurm: run by .ci/slurm-test"]
fn slurm_sat_4_to_12_equals_local() {
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("local.json");
    ok(&[
        "sat",
        "officers",
        "--periods",
        "4..12",
        "--timeout",
        "120",
        "--out",
        s(&local),
    ]);
    let work = dir.path().join("work");
    ok(&[
        "slurm",
        "sat",
        "officers",
        "--periods",
        "4..12",
        "--timeout",
        "120",
        "--work",
        s(&work),
        "--wait",
    ]);
    let out = dir.path().join("slurm.json");
    ok(&["merge", s(&work), "--out", s(&out)]);
    assert_eq!(period_statuses(&json(&out)), period_statuses(&json(&local)));
    assert_eq!(period_statuses(&json(&out)).len(), 9);
}

/// `grundy slurm cubes .56 --p 7` into `dir` (3 shares, 20 conflicts a cube, `extra`).
fn slurm_cubes(dir: &Path, extra: &[&str]) -> String {
    let (work, out) = (dir.join("work"), dir.join("periods.json"));
    let mut args = vec!["slurm", "cubes", ".56", "--p", "7", "--shares", "3"];
    args.extend(["--conflicts", "20", "--values", "2^14", "--out", s(&out)]);
    args.extend(["--work", s(&work)]);
    args.extend_from_slice(extra);
    ok(&args)
}

/// .56 p = 7 is UNSAT by varisat, with no cubes (the independent answer).
fn varisat_says_56_p7_is_unsat() {
    use grundy::sat::solve::{Answer, SolverKind, solve};
    let game: grundy::Game = ".56".parse().unwrap();
    let mut g = grundy::ExactGenerator::new(&game);
    g.extend_to(1 << 14).unwrap();
    let problem = grundy::sat::periods::Problem {
        break_rotation: true,
        ..grundy::sat::periods::Problem::from_prefix(&g)
    };
    let e = problem.encode_question(7, false).unwrap();
    assert!(matches!(
        solve(SolverKind::Varisat, &e.cnf, None).unwrap(),
        Answer::Unsat
    ));
}

#[test]
fn cube_shares_here_continue_across_submissions_and_merge_to_the_answer() {
    use grundy::sat::cubes::Ledger;
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("cubes-p7-feasible.json");
    // Tasks of 15 calls: a first submission leaves shares unfinished; each later one (the same
    // command) continues only those, and each merge gathers the finished ones.
    let first = slurm_cubes(dir.path(), &["--calls", "15", "--run-here"]);
    assert!(first.contains("3 of 3 tasks to run"), "{first}");
    let manifest = std::fs::read_to_string(dir.path().join("work/manifest.json")).unwrap();
    assert!(
        manifest.contains("cubes-p7-feasible.deal1-3of3.json"),
        "{manifest}"
    );
    let merged = ok(&["merge", s(&dir.path().join("work"))]);
    assert!(merged.contains("shares unfinished"), "{merged}");
    // Again with the same tasks: only the shares not finished and gathered run.
    let work = dir.path().join("work");
    let again = slurm_cubes(dir.path(), &["--calls", "15", "--run-here"]);
    assert!(again.contains("the plan made before (3 shares)"), "{again}");
    let merged = ok(&["merge", s(&work)]);
    assert!(merged.contains("p=7"), "{merged}");
    let todo = |said: &str| -> usize {
        let line = said
            .lines()
            .find(|l| l.contains("tasks to run"))
            .unwrap_or("0 of");
        line.split(' ').next().unwrap().parse().unwrap()
    };
    // The options given now hold for the tasks still to run: no call limit, so they finish, and
    // CaDiCaL's unsat configuration, which the gathered ledger and the answer note.
    let unlimited = slurm_cubes(dir.path(), &["--run-here", "--preset", "unsat"]);
    assert!(todo(&unlimited) >= 1, "{unlimited}");
    let manifest = std::fs::read_to_string(work.join("manifest.json")).unwrap();
    assert!(!manifest.contains("--calls"), "{manifest}");
    let task: Json = serde_json::from_str(&manifest).unwrap();
    let first_task = task["tasks"][0]["args"].to_string();
    assert!(first_task.contains(r#""--preset","unsat""#), "{first_task}");
    let done = slurm_cubes(dir.path(), &["--run-here", "--preset", "unsat"]);
    assert!(done.contains("are done"), "{done}");
    let last = ok(&["merge", s(&dir.path().join("work"))]);
    assert!(last.contains("feasible: UNSAT ("), "{last}");
    let campaign = Ledger::read(&ledger).unwrap().unwrap();
    assert!(campaign.shares.is_empty() && campaign.open.is_empty());
    assert!((campaign.refuted_share - 1.0).abs() < 1e-12);
    assert_eq!(campaign.preset, grundy::sat::solve::Preset::Unsat);
    varisat_says_56_p7_is_unsat();
    let periods = grundy::sat::periods::PeriodsFile::read(&dir.path().join("periods.json"))
        .unwrap()
        .unwrap();
    let p7 = periods.result(7).unwrap();
    assert_eq!(p7.feasible, grundy::sat::periods::Status::Unsat);
    assert!(p7.how.contains(", preset unsat"), "{}", p7.how);
}

#[test]
#[ignore = "needs Slurm: run by .ci/slurm-test"]
fn slurm_cube_shares_merge_to_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    slurm_cubes(dir.path(), &["--wait"]);
    let merged = ok(&["merge", s(&dir.path().join("work"))]);
    assert!(merged.contains("feasible: UNSAT ("), "{merged}");
    varisat_says_56_p7_is_unsat();
}

/// (p, feasible, primitive) of every result in a periods file.
fn period_statuses(f: &Json) -> Vec<(u64, String, String)> {
    f["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["p"].as_u64().unwrap(),
                r["feasible"].to_string(),
                r["primitive"].to_string(),
            )
        })
        .collect()
}
