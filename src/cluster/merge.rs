//! `grundy merge DIR`: what the verdicts of a work folder add up to.
//!
//! Verification: the verified frontier is the end of the longest gap-free run of verified
//! intervals from the start; a wrong value right after that run is the first wrong value, and the
//! merge writes a rollback checkpoint (the verified values, the wrong one replaced by its exact
//! value) that `grundy run --checkpoint FILE --resume` continues from, exactly as the engine does
//! after its own rollbacks. SAT: the per-period files merge into the game's periods file with
//! [`PeriodsFile::merge`], so earlier answers are never lost.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{ClusterError, Manifest, Work, file_fingerprint};
use crate::io::ValuesDump;
use crate::io::checkpoint::{Checkpoint, Rollback};
use crate::sat::periods::{PeriodResult, PeriodsFile};
use crate::values::verify::{Verdict, Wrong};
use crate::values::{SparseSpace, Value};

/// What the verdicts of a verification job say.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyMerge {
    pub game: String,
    pub from: u64,
    pub to: u64,
    pub tasks: usize,
    /// Tasks with no (valid) verdict yet: run them again.
    pub missing: Vec<usize>,
    /// Tasks that found a wrong value, with it.
    pub failed: Vec<(usize, Wrong)>,
    /// Every claim in `[from, verified_to)` is exact.
    pub verified_to: u64,
    /// The wrong value at the frontier, if the interval after the gap-free run found one.
    pub first_wrong: Option<Wrong>,
    /// All of `[from, to)` verified.
    pub complete: bool,
    /// Where the rollback checkpoint was written (when `first_wrong` is set and `from` is 0).
    pub rollback_checkpoint: Option<PathBuf>,
}

/// What the verdicts of a SAT job say, after merging into `out`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SatMerge {
    pub game: String,
    pub tasks: usize,
    /// Tasks with no verdict whose period another task, or the periods file, decides: not
    /// needed (left out by `--open-only`, or still to run but with nothing left to decide).
    pub not_needed: Vec<usize>,
    pub missing: Vec<usize>,
    pub out: PathBuf,
    pub results: Vec<PeriodResult>,
}

/// Where the shares of a cube job stand (before the CLI gathers the finished ones with
/// `gather`, the arguments of `grundy` that do it: the witness check and the periods file are
/// the CLI's).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CubesMerge {
    pub game: String,
    pub p: u64,
    pub ledger: PathBuf,
    pub tasks: usize,
    /// Shares with cubes still open (or no readable ledger): submit again to continue them.
    pub unfinished: Vec<usize>,
    pub gather: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum MergeReport {
    Verify(VerifyMerge),
    Sat(SatMerge),
    Cubes(CubesMerge),
}

/// A share is done when nothing is left open in it (all refuted, or a pattern) or it went back
/// into its campaign's ledger already.
fn share_done(task: &super::Task) -> bool {
    use crate::sat::cubes::{Ledger, Verdict};
    match Ledger::read(Path::new(&task.verdict)) {
        Ok(Some(share)) => share.gathered_into.is_some() || share.verdict() != Verdict::Open,
        _ => false,
    }
}

fn read_verify(dir: &Path, task: &super::Task) -> Option<Verdict> {
    let text = std::fs::read_to_string(dir.join(&task.verdict)).ok()?;
    let v: Verdict = serde_json::from_str(&text).ok()?;
    // The verdict must answer this task's interval.
    (task.what == format!("[{}, {})", v.from, v.to)).then_some(v)
}

pub(super) fn read_sat(dir: &Path, task: &super::Task) -> Option<PeriodResult> {
    let text = std::fs::read_to_string(dir.join(&task.verdict)).ok()?;
    let file: PeriodsFile = serde_json::from_str(&text).ok()?;
    file.results
        .into_iter()
        .find(|r| task.what == super::sat_task(r.p, r.seed))
}

/// Indices of the tasks whose verdict is there and answers them.
pub(super) fn done_tasks(manifest: &Manifest, dir: &Path) -> Vec<usize> {
    manifest
        .tasks
        .iter()
        .filter(|t| match manifest.work {
            Work::Verify { .. } => read_verify(dir, t).is_some(),
            Work::Sat { .. } => read_sat(dir, t).is_some(),
            Work::Cubes { .. } => share_done(t),
        })
        .map(|t| t.index)
        .collect()
}

/// Merges the verdicts of work folder `dir`; for SAT into `sat_out` (default:
/// `results/<game>/periods.json`). Writes `DIR/merged.json`.
pub fn merge(dir: &Path, sat_out: Option<&Path>) -> Result<MergeReport, ClusterError> {
    let manifest = Manifest::load(dir)?;
    let report = match &manifest.work {
        Work::Verify { .. } => MergeReport::Verify(merge_verify(&manifest, dir)?),
        Work::Sat { game, .. } => {
            let out = match (sat_out, game.parse::<crate::Game>()) {
                (Some(out), _) => out.to_path_buf(),
                (None, Ok(game)) => PeriodsFile::default_path(&game),
                (None, Err(_)) => PathBuf::from("results/game/periods.json"),
            };
            MergeReport::Sat(merge_sat(&manifest, dir, &out)?)
        }
        Work::Cubes {
            game,
            p,
            ledger,
            gather,
        } => MergeReport::Cubes(CubesMerge {
            game: game.clone(),
            p: *p,
            ledger: ledger.clone(),
            tasks: manifest.tasks.len(),
            unfinished: manifest.not_done(dir),
            gather: gather.clone(),
        }),
    };
    let json = serde_json::to_string_pretty(&report).expect("a report serializes") + "\n";
    crate::io::write_atomic(&dir.join("merged.json"), |w| w.write_all(json.as_bytes()))?;
    Ok(report)
}

fn merge_verify(manifest: &Manifest, dir: &Path) -> Result<VerifyMerge, ClusterError> {
    let Work::Verify {
        game,
        values,
        values_bytes,
        values_crc32,
        from,
        to,
    } = &manifest.work
    else {
        unreachable!("called for verification work only")
    };
    if file_fingerprint(values)? != (*values_bytes, *values_crc32) {
        return Err(ClusterError::Bad {
            path: values.display().to_string(),
            reason: "changed since the job was planned; its verdicts do not apply".into(),
        });
    }
    let verdicts: Vec<Option<Verdict>> =
        manifest.tasks.iter().map(|t| read_verify(dir, t)).collect();
    let missing = (0..verdicts.len())
        .filter(|&i| verdicts[i].is_none())
        .collect();
    let failed: Vec<(usize, Wrong)> = verdicts
        .iter()
        .enumerate()
        .filter_map(|(i, v)| Some((i, v.as_ref()?.first_wrong?)))
        .collect();
    // The gap-free run from the start, then the first interval that is missing or failed.
    let mut verified_to = *from;
    let mut first_wrong = None;
    for v in &verdicts {
        match v {
            Some(v) if v.ok() => verified_to = v.to,
            Some(v) => {
                verified_to = v.verified_to;
                first_wrong = v.first_wrong;
                break;
            }
            None => break,
        }
    }
    let mut report = VerifyMerge {
        game: game.clone(),
        from: *from,
        to: *to,
        tasks: verdicts.len(),
        missing,
        failed,
        verified_to,
        first_wrong,
        complete: verified_to == *to,
        rollback_checkpoint: None,
    };
    if let (Some(wrong), 0) = (first_wrong, *from) {
        let path = dir.join("rollback.checkpoint");
        write_rollback(values, wrong, &path)?;
        report.rollback_checkpoint = Some(path);
    }
    Ok(report)
}

/// A checkpoint of the verified values `G(0..heap)` and the exact value at `heap`, as the engine's
/// own rollback leaves it.
fn write_rollback(values: &Path, wrong: Wrong, path: &Path) -> Result<(), ClusterError> {
    let bad = |reason: String| ClusterError::Bad {
        path: values.display().to_string(),
        reason,
    };
    let dump = ValuesDump::read_bin(values).map_err(|e| bad(e.to_string()))?;
    let heap = wrong.heap as usize;
    let mut history: Vec<Value> = dump.values[..heap].to_vec();
    history.push(wrong.exact);
    let allow = SparseSpace::position_type_allowed(&dump.game);
    let space = SparseSpace::best_for(&history, allow).map_or_else(Default::default, |s| s.0);
    let mut checkpoint = Checkpoint::new(&dump.game.to_string(), &space.to_string());
    checkpoint.verified_to = history.len() as u64;
    checkpoint.rares = history
        .iter()
        .enumerate()
        .filter(|&(n, &v)| space.is_rare(n, v))
        .map(|(n, &v)| (n as u64, v))
        .collect();
    checkpoint.rollbacks = vec![Rollback {
        heap: wrong.heap,
        claimed: wrong.claimed,
        exact: wrong.exact,
        new_rare: space.is_rare(heap, wrong.exact),
        discarded: dump.values.len() as u64 - wrong.heap,
    }];
    checkpoint
        .save_new(path, &history)
        .map_err(|e| bad(e.to_string()))
}

fn merge_sat(manifest: &Manifest, dir: &Path, out: &Path) -> Result<SatMerge, ClusterError> {
    let Work::Sat { game, .. } = &manifest.work else {
        unreachable!("called for SAT work only")
    };
    let mut results = Vec::new();
    let mut missing = Vec::new();
    let mut base: Option<PeriodsFile> = None;
    for task in &manifest.tasks {
        match read_sat(dir, task) {
            Some(r) => results.push(r),
            None => missing.push(task.index),
        }
        if base.is_none()
            && let Ok(text) = std::fs::read_to_string(dir.join(&task.verdict))
        {
            base = serde_json::from_str(&text).ok();
        }
    }
    let Some(header) = base else {
        return Err(ClusterError::Plan(format!(
            "no task of {} has a verdict yet; nothing to merge",
            dir.display()
        )));
    };
    // The same locked read-merge-write as `grundy sat` itself, with the same refusals (another
    // game, another rare table).
    let merged =
        PeriodsFile::merge_into(out, &header, results.clone()).map_err(|e| ClusterError::Bad {
            path: out.display().to_string(),
            reason: e.reason,
        })?;
    let (not_needed, missing) = missing.into_iter().partition(|&i| {
        super::task_period(&manifest.tasks[i])
            .and_then(|p| merged.result(p))
            .is_some_and(|r| !r.is_open())
    });
    Ok(SatMerge {
        game: game.clone(),
        tasks: manifest.tasks.len(),
        not_needed,
        missing,
        out: out.to_path_buf(),
        results,
    })
}
