//! Cube-and-conquer (`grundy sat cubes`): answers against Riley's list and another solver
//! (varisat), the ledger's partition invariant, resuming, and bad input.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use grundy::sat::certify::{read_regions, uncovered};
use grundy::sat::cubes::{Conquer, ConquerError, Cube, Ledger, Verdict, conquer};
use grundy::sat::encode::PeriodEncoding;
use grundy::sat::solve::Preset;
use grundy::sat::witness::check_pattern;
use grundy::{ExactGenerator, Game};

use crate::cli::{fails_with_one_line, grundy};
use crate::sat::{riley, riley_status};
use crate::shared::path_str;

/// A campaign over the whole box of `e`, `conflicts` per cube, to the end.
fn campaign(problem: &grundy::sat::periods::Problem, e: &PeriodEncoding, conflicts: u32) -> Ledger {
    campaign_under(problem, e, conflicts, Preset::Default)
}

/// [`campaign`] with CaDiCaL's `preset`.
fn campaign_under(
    problem: &grundy::sat::periods::Problem,
    e: &PeriodEncoding,
    conflicts: u32,
    preset: Preset,
) -> Ledger {
    let mut ledger = fresh_ledger(problem, e);
    let verdict = go_on(problem, e, conflicts, preset, &mut ledger).unwrap();
    assert_eq!(verdict, ledger.verdict());
    ledger
}

fn fresh_ledger(problem: &grundy::sat::periods::Problem, e: &PeriodEncoding) -> Ledger {
    let rotation = problem.break_rotation;
    Ledger::new(
        &problem.game.to_string(),
        e,
        "feasible",
        rotation,
        &Cube::full(e.p),
    )
}

/// Runs `ledger`'s campaign, two threads, `conflicts` per cube, to the end.
fn go_on(
    problem: &grundy::sat::periods::Problem,
    e: &PeriodEncoding,
    conflicts: u32,
    preset: Preset,
    ledger: &mut Ledger,
) -> Result<Verdict, ConquerError> {
    let stop = AtomicBool::new(false);
    let run = Conquer {
        encoding: e,
        threads: 2,
        conflicts,
        fanout: 2,
        deadline: None,
        stop: &stop,
        seed: 0,
        preset,
        max_calls: None,
        // Sharing short lemmas between the two workers: the answers must not change.
        share_len: 3,
    };
    let check = |bytes: &[u8]| {
        let s = e.expand(bytes);
        check_pattern(&problem.game, problem.space, &problem.rares, &s)
            .map_err(|e| e.to_string())?;
        Ok(s)
    };
    conquer(
        &run,
        ledger,
        &check,
        std::time::Duration::from_secs(60),
        &mut |_| Ok(()),
    )
}

fn problem(code: &str, rotation: bool) -> grundy::sat::periods::Problem {
    let game: Game = code.parse().unwrap();
    let mut g = ExactGenerator::new(&game);
    g.extend_to(1 << 14).unwrap();
    grundy::sat::periods::Problem {
        break_rotation: rotation,
        ..grundy::sat::periods::Problem::from_prefix(&g)
    }
}

#[test]
fn cubes_answer_as_varisat_does_and_unsat_refutes_the_whole_box() {
    use grundy::sat::solve::{Answer, SolverKind, solve};
    // .56: p = 7 is UNSAT but not at once (varisat's proof is 4 MB); 20 conflicts a cube forces
    // hundreds of splits. p = 5 is excluded by units, 6 has patterns.
    // Every CaDiCaL configuration gives the same answers (each ledger notes its own).
    let problem = problem(".56", true);
    for (p, preset) in [5, 6, 7]
        .into_iter()
        .flat_map(|p| [Preset::Default, Preset::Unsat, Preset::Sat].map(|c| (p, c)))
    {
        let e = problem.encode_question(p, false).unwrap();
        let ledger = campaign_under(&problem, &e, 20, preset);
        assert_eq!(ledger.preset, preset);
        let varisat = solve(SolverKind::Varisat, &e.cnf, None).unwrap();
        match ledger.verdict() {
            Verdict::Sat(s) => {
                assert!(matches!(varisat, Answer::Sat(_)), ".56 p={p}");
                // The witness check again, and rotation broken: s[0] is a minimum.
                check_pattern(&problem.game, problem.space, &problem.rares, &s).unwrap();
                assert_eq!(s[0], *s.iter().min().unwrap());
            }
            Verdict::Unsat => {
                assert_eq!(varisat, Answer::Unsat, ".56 p={p}");
                // Every bit of the box accounted for, and (for 7) by real splitting.
                assert!(
                    (ledger.refuted_share - 1.0).abs() < 1e-12,
                    "{}",
                    ledger.refuted_share
                );
                assert!(ledger.open.is_empty());
                if p == 7 {
                    assert!(ledger.splits > 20, "only {} splits", ledger.splits);
                }
            }
            Verdict::Open | Verdict::PartRefuted => panic!(".56 p={p} left open"),
        }
    }
}

#[test]
fn a_library_caller_handing_in_a_malformed_cube_gets_a_ledger_error() {
    // The CLI reads ledgers with `Ledger::read`, which refuses this; a library caller who builds
    // one by hand hears that the ledger is at fault, not the solver, and nothing is solved.
    let problem = problem(".56", true);
    let e = problem.encode_question(6, false).unwrap();
    let mut ledger = fresh_ledger(&problem, &e);
    ledger.open = vec!["0:9-3".to_string()];
    let err = go_on(&problem, &e, 20, Preset::Default, &mut ledger).unwrap_err();
    assert!(matches!(err, ConquerError::BadLedger(_)), "{err}");
    assert!(err.to_string().contains("malformed cube"), "{err}");
    assert_eq!(ledger.calls, 0);
}

#[test]
fn cubes_give_rileys_statuses_for_small_officers_periods() {
    let problem = grundy::sat::periods::Problem {
        break_rotation: true,
        ..crate::sat::officers_problem()
    };
    for (p, published) in riley().into_iter().filter(|(p, _)| *p <= 10) {
        let e = problem.encode_question(p, false).unwrap();
        let ledger = campaign(&problem, &e, 50);
        let got = match ledger.verdict() {
            Verdict::Sat(_) => grundy::sat::periods::Status::Sat,
            // Riley's excluded periods are UNSAT (the encoding has their units).
            Verdict::Unsat => grundy::sat::periods::Status::Excluded,
            Verdict::Open | Verdict::PartRefuted => panic!("p={p} left open"),
        };
        assert_eq!(got, riley_status(&published), "p={p}");
    }
}

fn succeeded(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `grundy sat summary` of a periods file at `periods` written anew with .56 p = 7 open.
fn summary_with_p7_open(periods: &Path) -> String {
    let mut open = grundy::sat::periods::PeriodsFile::new(&problem(".56", true));
    open.merge(vec![crate::sat::bare_result(
        7,
        grundy::sat::periods::Status::Timeout,
    )]);
    std::fs::write(periods, serde_json::to_vec(&open).unwrap()).unwrap();
    let summary = grundy(&["sat", "summary", "--out", path_str(periods)]);
    String::from_utf8_lossy(&summary.stdout).into_owned()
}

/// `grundy sat cubes` on .56 p = 7 (20 conflicts a cube, 2 threads) with its ledger and periods
/// file in `dir`, then `extra`.
fn sat_cubes_args(dir: &Path, extra: &[&str]) -> Vec<String> {
    sat_cubes_args_on(dir, "ledger.json", extra)
}

/// [`sat_cubes_args`] with the ledger `dir/ledger`.
fn sat_cubes_args_on(dir: &Path, ledger: &str, extra: &[&str]) -> Vec<String> {
    let ledger = dir.join(ledger);
    let out = dir.join("periods.json");
    let mut args = vec![
        "sat",
        "cubes",
        ".56",
        "--p",
        "7",
        "--threads",
        "2",
        "--conflicts",
        "20",
        "--values",
        "2^14",
        "--ledger",
        path_str(&ledger),
        "--out",
        path_str(&out),
    ];
    args.extend_from_slice(extra);
    args.into_iter().map(String::from).collect()
}

fn sat_cubes(dir: &Path, extra: &[&str]) -> std::process::Output {
    sat_cubes_on(dir, "ledger.json", extra)
}

fn sat_cubes_on(dir: &Path, ledger: &str, extra: &[&str]) -> std::process::Output {
    let args = sat_cubes_args_on(dir, ledger, extra);
    grundy(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn cubes_fail_on(dir: &Path, ledger: &str, extra: &[&str]) -> String {
    let args = sat_cubes_args_on(dir, ledger, extra);
    fails_with_one_line(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn a_campaign_dealt_into_shares_and_gathered_back_answers_as_varisat_does() {
    use grundy::sat::solve::{Answer, SolverKind, solve};
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str| Ledger::read(&dir.path().join(name)).unwrap().unwrap();
    let periods = dir.path().join("periods.json");
    // One call: the whole box split in two, so the deal must split again to make 3 shares.
    succeeded(&sat_cubes_on(dir.path(), MAIN, &["--calls", "1"]));
    let started = read(MAIN);
    assert!(
        started.open.len() < 3,
        "the deal must split to reach 3 shares"
    );
    succeeded(&sat_cubes_on(dir.path(), MAIN, &["--deal", "3"]));
    let shares = [1, 2, 3].map(|i| format!("cubes-p7-feasible.deal1-{i}of3.json"));
    let parent = read(MAIN);
    assert!(parent.open.is_empty() && parent.shares.len() == 3);
    let dealt: Vec<Ledger> = shares.iter().map(|f| read(f)).collect();
    assert_dealt_whole(&started, &parent, &dealt);
    // The parent holds nothing to run: it says so, exits 0, merges nothing.
    let idle = sat_cubes_on(dir.path(), MAIN, &[]);
    succeeded(&idle);
    assert!(String::from_utf8_lossy(&idle.stdout).contains("the rest is dealt out"));
    // Share 1 runs to its end, share 2 part way (twice, continuing), share 3 not at all; a
    // share refuted to its end answers nothing about p.
    let one = sat_cubes_on(dir.path(), &shares[0], &[]);
    succeeded(&one);
    assert!(String::from_utf8_lossy(&one.stdout).contains("every cube of this share refuted"));
    succeeded(&sat_cubes_on(dir.path(), &shares[1], &["--calls", "3"]));
    succeeded(&sat_cubes_on(dir.path(), &shares[1], &["--calls", "3"]));
    assert!(!periods.exists());
    // `sat summary` lists the shares under the open period's campaign, each as its file says.
    let text = summary_with_p7_open(&periods);
    assert!(text.contains("3 shares dealt out"), "{text}");
    for share in &shares {
        let line = format!("{share}: {}", read(share).progress_line());
        assert!(text.contains(&line), "{text}\nwant: {line}");
    }
    // Share 3 is held by a running job: gathering leaves it out.
    let lock = std::fs::File::create(dir.path().join(format!(".{}.lock", shares[2]))).unwrap();
    lock.lock().unwrap();
    let before: Vec<Ledger> = shares.iter().map(|f| read(f)).collect();
    let gathered = sat_cubes_on(dir.path(), MAIN, &["--gather"]);
    succeeded(&gathered);
    assert!(String::from_utf8_lossy(&gathered.stdout).contains("left out"));
    drop(lock);
    assert_gathered(&read(MAIN), &parent, &before[..2]);
    refusals_after_a_gather(dir.path(), &shares);
    // The parent's open cubes and share 3 run to the end; the gather that brings the last share
    // back answers for the whole box, as varisat does, and merges it.
    succeeded(&sat_cubes_on(dir.path(), &shares[2], &[]));
    succeeded(&sat_cubes_on(dir.path(), MAIN, &[]));
    let last = sat_cubes_on(dir.path(), MAIN, &["--gather"]);
    succeeded(&last);
    assert!(String::from_utf8_lossy(&last.stdout).contains("feasible: UNSAT ("));
    assert!(cubes_fail_on(dir.path(), MAIN, &["--gather"]).contains("no shares"));
    // The shares' region logs came back with them: one region a refutation, covering the box.
    let answered = read(MAIN);
    let regions = read_regions(&dir.path().join(MAIN), &answered).unwrap();
    assert_eq!(regions.len() as u64, answered.refutations);
    assert_eq!(uncovered(&Cube::full(7), &regions, 1 << 24), Some(vec![]));
    let problem = problem(".56", true);
    let e = problem.encode_question(7, false).unwrap();
    assert!(matches!(
        solve(SolverKind::Varisat, &e.cnf, None).unwrap(),
        Answer::Unsat
    ));
    let file = grundy::sat::periods::PeriodsFile::read(&periods)
        .unwrap()
        .unwrap();
    assert_eq!(
        file.result(7).unwrap().feasible,
        grundy::sat::periods::Status::Unsat
    );
}

/// The ledger of .56 p = 7's campaign, named as `sat summary` looks for it beside the periods file.
const MAIN: &str = "cubes-p7-feasible.json";

/// The share of the box the cubes `open` (rendered) cover, for p = 7.
fn open_share(open: &[String]) -> f64 {
    open.iter()
        .map(|c| Cube::parse(c, 7).unwrap().share())
        .sum()
}

/// Every cube `started` had open went to exactly one of the `dealt` shares (splits made up the
/// count), and each share's portion, as the `parent` notes it, is what its cubes cover.
fn assert_dealt_whole(started: &Ledger, parent: &Ledger, dealt: &[Ledger]) {
    let portions: f64 = dealt.iter().map(Ledger::held).sum();
    assert!((portions - open_share(&started.open)).abs() < 1e-12);
    for (note, share) in parent.shares.iter().zip(dealt) {
        let cubes = open_share(&share.open);
        assert!((cubes - note.portion).abs() < 1e-12 && share.refuted_share == 0.0);
    }
}

/// `back`, the parent after gathering the shares `gathered`, holds their calls, refuted share
/// and open cubes besides its own, and lists only the share left out.
fn assert_gathered(back: &Ledger, parent: &Ledger, gathered: &[Ledger]) {
    assert_eq!(back.shares.len(), parent.shares.len() - gathered.len());
    let calls: u64 = gathered.iter().map(|l| l.calls).sum();
    assert_eq!(back.calls, parent.calls + calls);
    let refuted: f64 = gathered.iter().map(|l| l.refuted_share).sum();
    assert!((back.refuted_share - parent.refuted_share - refuted).abs() < 1e-12);
    let mut want: Vec<&String> = gathered.iter().flat_map(|l| &l.open).collect();
    let mut got: Vec<&String> = back.open.iter().collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
}

/// After share 1 was gathered into `cubes-p7-feasible.json` in `dir`: it refuses to run again;
/// a tampered share 3 is left out of a gather and stays listed; a parent whose portions do not
/// add up is corrupt; dealing from a share, into 0 shares or from no ledger is refused.
fn refusals_after_a_gather(dir: &Path, shares: &[String; 3]) {
    let read = |name: &str| Ledger::read(&dir.join(name)).unwrap().unwrap();
    let again = cubes_fail_on(dir, &shares[0], &[]);
    assert!(
        again.contains("gathered into cubes-p7-feasible.json"),
        "{again}"
    );
    let third = dir.join(&shares[2]);
    let kept = std::fs::read(&third).unwrap();
    let mut forged: serde_json::Value = serde_json::from_slice(&kept).unwrap();
    forged["share_of"] = serde_json::json!("cubes-p7-feasible.json deal 1 share 1/3");
    std::fs::write(&third, serde_json::to_vec(&forged).unwrap()).unwrap();
    let refused = sat_cubes_on(dir, MAIN, &["--gather"]);
    assert!(
        String::from_utf8_lossy(&refused.stdout)
            .contains("is not cubes-p7-feasible.json deal 1 share 3/3")
    );
    assert_eq!(read(MAIN).shares.len(), 1);
    std::fs::write(&third, kept).unwrap();
    // A parent whose listed portions do not make up what it dealt out is corrupt.
    let text = std::fs::read(dir.join(MAIN)).unwrap();
    let mut halved: serde_json::Value = serde_json::from_slice(&text).unwrap();
    let portion = halved["shares"][0]["portion"].as_f64().unwrap();
    halved["shares"][0]["portion"] = serde_json::json!(portion / 2.0);
    std::fs::write(dir.join("bad.json"), serde_json::to_vec(&halved).unwrap()).unwrap();
    assert!(cubes_fail_on(dir, "bad.json", &["--gather"]).contains("corrupt"));
    // Dealing from a share, or into 0 shares, is refused in one line.
    assert!(cubes_fail_on(dir, &shares[2], &["--deal", "2"]).contains("it is a share"));
    assert!(cubes_fail_on(dir, MAIN, &["--deal", "0"]).contains("0 shares"));
    assert!(cubes_fail_on(dir, "none.json", &["--gather"]).contains("no cube ledger"));
}

#[test]
fn a_cube_campaign_resumes_from_its_ledger_and_refuses_a_corrupt_or_foreign_one() {
    let dir = tempfile::tempdir().unwrap();
    let ledger_path = dir.path().join("ledger.json");
    // A first run of 40 calls leaves cubes open, a consistent ledger and no answer in the file.
    let first = sat_cubes(dir.path(), &["--calls", "40"]);
    succeeded(&first);
    assert!(String::from_utf8_lossy(&first.stdout).contains("feasible: open"));
    let ledger = Ledger::read(&ledger_path).unwrap().unwrap();
    assert_eq!((ledger.runs, ledger.calls), (1, 40));
    assert!(!ledger.open.is_empty() && ledger.refuted_share < 1.0);
    assert!(!dir.path().join("periods.json").exists());
    // `sat summary` shows the campaign of the open period beside it (ledger named as the
    // default path would name it), with the ledger's own share and counts.
    let periods = dir.path().join("periods.json");
    let beside = dir.path().join("cubes-p7-feasible.json");
    std::fs::copy(&ledger_path, &beside).unwrap();
    let text = summary_with_p7_open(&periods);
    let line = format!(
        "cubes (feasible): {:.7}% of the box refuted, {} cubes open; {} refutations",
        100.0 * ledger.refuted_share,
        ledger.open.len(),
        ledger.refutations
    );
    assert!(text.contains(&line), "{text}\nwant: {line}");
    std::fs::remove_file(&beside).unwrap();
    // Another run goes on from there to the end, and the answer lands in the periods file.
    let second = sat_cubes(dir.path(), &[]);
    succeeded(&second);
    assert!(String::from_utf8_lossy(&second.stderr).contains("continuing"));
    let done = Ledger::read(&ledger_path).unwrap().unwrap();
    assert!(String::from_utf8_lossy(&second.stdout).contains("feasible: UNSAT ("));
    assert_eq!(done.verdict(), Verdict::Unsat);
    assert_eq!(done.runs, 2);
    assert!(done.calls > 40 && done.refutations > ledger.refutations);
    let file = grundy::sat::periods::PeriodsFile::read(&dir.path().join("periods.json"))
        .unwrap()
        .unwrap();
    let r = file.result(7).unwrap();
    assert_eq!(r.feasible, grundy::sat::periods::Status::Unsat);
    assert!(r.how.contains("cube-and-conquer"), "{}", r.how);
    // While another run holds the ledger, a second one is refused and changes nothing.
    let lock = std::fs::File::open(dir.path().join(".ledger.json.lock")).unwrap();
    lock.lock().unwrap();
    let before = std::fs::read(&ledger_path).unwrap();
    let mut args = vec!["sat", "cubes", ".56", "--p", "7", "--values", "2^14"];
    args.extend(["--ledger", path_str(&ledger_path)]);
    assert!(fails_with_one_line(&args).contains("in use by another run"));
    assert_eq!(std::fs::read(&ledger_path).unwrap(), before);
    drop(lock);
    // The same question without rotation breaking is another encoding: refused, file kept.
    let before = std::fs::read(&ledger_path).unwrap();
    let mut args = vec![
        "sat",
        "cubes",
        ".56",
        "--p",
        "7",
        "--keep-rotation",
        "--values",
        "2^14",
    ];
    args.extend(["--ledger", path_str(&ledger_path)]);
    assert!(fails_with_one_line(&args).contains("rotation broken"));
    assert_eq!(std::fs::read(&ledger_path).unwrap(), before);
    // A ledger whose shares do not add up is corrupt.
    let mut bad: serde_json::Value = serde_json::from_slice(&before).unwrap();
    bad["refuted_share"] = serde_json::json!(0.5);
    std::fs::write(&ledger_path, serde_json::to_vec(&bad).unwrap()).unwrap();
    assert!(fails_with_one_line(&args).contains("corrupt"));
    std::fs::write(&ledger_path, b"{ not json").unwrap();
    assert!(fails_with_one_line(&args).contains("not a cube ledger"));
}

#[test]
fn cubes_refuse_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.json");
    let ledger = path_str(&ledger);
    let out = dir.path().join("periods.json");
    let out = path_str(&out);
    let base = [
        "sat", "cubes", ".56", "--values", "2^14", "--ledger", ledger, "--out", out,
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(ToString::to_string).collect()
    };
    for (extra, says) in [
        (&["--p", "0"][..], "at least 1"),
        (&["--p", "7", "--conflicts", "0"], "--conflicts"),
        (&["--p", "7", "--within", "9:3"], "bad cube part"),
        (&["--p", "7", "--within", "1:9-3"], "bad cube part"),
        (&["--p", "7", "--primitive"], "decide feasible first"),
        (&["--p", "7", "--preset", "fast"], "--preset"),
    ] {
        let args = with(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let line = fails_with_one_line(&args);
        assert!(line.contains(says), "{extra:?}: {line}");
    }
    assert!(!Path::new(ledger).exists());
}

#[test]
fn a_pattern_found_inside_a_cube_is_checked_and_merged() {
    // Officers p = 17 inside the cube that fixes 9 residues to Riley's pattern (compressed):
    // the cubes find a pattern there (Riley's or another), and a pattern anywhere answers p.
    let (_, published) = riley().into_iter().find(|(p, _)| *p == 17).unwrap();
    let published = published.unwrap();
    let problem = crate::sat::officers_problem();
    let e = problem.encode_question(17, false).unwrap();
    let bytes = e.compress(&published).unwrap();
    let within: Vec<String> = (0..9).map(|r| format!("{r}:{}", bytes[r])).collect();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("periods.json");
    let ledger = dir.path().join("l.json");
    let run = grundy(&[
        "sat",
        "cubes",
        "officers",
        "--p",
        "17",
        "--keep-rotation",
        "--within",
        &within.join(" "),
        "--conflicts",
        "2000",
        "--ledger",
        path_str(&ledger),
        "--out",
        path_str(&out),
    ]);
    succeeded(&run);
    let file = grundy::sat::periods::PeriodsFile::read(&out)
        .unwrap()
        .unwrap();
    let r = file.result(17).unwrap();
    let pattern = r.pattern.clone().unwrap();
    check_pattern(&problem.game, problem.space, &problem.rares, &pattern).unwrap();
    assert_eq!(e.compress(&pattern).unwrap()[..9], bytes[..9]);
    assert_eq!(r.primitive, grundy::sat::periods::Status::Sat);
}

#[test]
fn sigterm_saves_the_ledger_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.json");
    // Rotation kept: .56 p = 7 then takes thousands of calls, far more than the test waits.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(sat_cubes_args(
            dir.path(),
            &["--keep-rotation", "--save-every", "0.2"],
        ))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    crate::engine::wait_for_file(&ledger, 120, "a ledger written");
    std::thread::sleep(std::time::Duration::from_millis(300));
    crate::engine::send_signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("feasible: open"), "{stdout}");
    // The final save is consistent (read checks the shares) and holds this run's calls.
    let stopped = Ledger::read(&ledger).unwrap().unwrap();
    assert_eq!(stopped.runs, 1);
    assert!(stopped.calls > 0 && !stopped.open.is_empty());
    // The next run goes on from it.
    let next = sat_cubes(dir.path(), &["--keep-rotation", "--calls", "5"]);
    succeeded(&next);
    let after = Ledger::read(&ledger).unwrap().unwrap();
    assert_eq!((after.runs, after.calls), (2, stopped.calls + 5));
}

#[test]
fn a_model_the_witness_check_refuses_ends_the_run_and_keeps_its_cube_open() {
    // .56 p = 6 has patterns, so some cube gives a model; a check that refuses every model must
    // stop the campaign with that cube named, report nothing as found, and lose no part of the box.
    let problem = problem(".56", true);
    let e = problem.encode_question(6, false).unwrap();
    let mut ledger = fresh_ledger(&problem, &e);
    let stop = AtomicBool::new(false);
    let run = twenty_conflicts_a_cube(&e, 1, &stop);
    let refuse = |_: &[u8]| Err("refused by the test".to_string());
    let mut reports = 0;
    let err = conquer(
        &run,
        &mut ledger,
        &refuse,
        std::time::Duration::from_secs(60),
        &mut |_| {
            reports += 1;
            Ok(())
        },
    )
    .unwrap_err();
    assert!(matches!(err, ConquerError::BadModel { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("refused by the test"), "{text}");
    assert!(text.contains("a model in cube "), "{text}");
    assert!(reports >= 1, "the final ledger was not reported");
    assert_eq!(ledger.verdict(), Verdict::Open);
    assert!(ledger.pattern.is_none());
    let open: f64 = ledger
        .open
        .iter()
        .map(|c| Cube::parse(c, 6).unwrap().share())
        .sum();
    let whole = ledger.root_share();
    assert!(
        (open + ledger.refuted_share - whole).abs() < 1e-12 * whole,
        "open {open} + refuted {} != {whole}",
        ledger.refuted_share
    );
}

/// A run that saves its ledger again and again logs every region it refutes once, in one log
/// that ends covering the box (each save appends after the last; a save that started the log
/// over would lose the regions before it).
#[test]
fn every_save_of_a_run_appends_its_regions_to_one_log() {
    let problem = problem(".56", true);
    let e = problem.encode_question(7, false).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cubes-p7-feasible.json");
    let mut ledger = Ledger::new(".56", &e, "feasible", true, &Cube::full(7));
    let stop = AtomicBool::new(false);
    let run = twenty_conflicts_a_cube(&e, 2, &stop);
    let mut saves = 0;
    let verdict = conquer(
        &run,
        &mut ledger,
        &|_: &[u8]| Err("no model expected".to_string()),
        std::time::Duration::ZERO,
        &mut |l| {
            saves += 1;
            l.save(&path).map_err(|e| e.to_string())
        },
    )
    .unwrap();
    assert_eq!(verdict, Verdict::Unsat);
    let saved = Ledger::read(&path).unwrap().unwrap();
    assert!(saves >= 3, "{saves} saves");
    let regions = read_regions(&path, &saved).unwrap();
    assert_eq!(regions.len() as u64, saved.refutations);
    assert_eq!(uncovered(&Cube::full(7), &regions, 1 << 24), Some(vec![]));
}

/// A run of `threads` workers, 20 conflicts a cube, CaDiCaL's defaults, no limit.
fn twenty_conflicts_a_cube<'a>(
    e: &'a PeriodEncoding,
    threads: usize,
    stop: &'a AtomicBool,
) -> Conquer<'a> {
    Conquer {
        encoding: e,
        threads,
        conflicts: 20,
        fanout: 2,
        deadline: None,
        stop,
        seed: 0,
        preset: Preset::Default,
        max_calls: None,
        share_len: 0,
    }
}
