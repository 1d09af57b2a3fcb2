/*!
Cluster work: one job (verify a values dump, decide a range of periods, or run the shares of a
cube campaign) split into independent tasks, run as a Slurm job array, and merged back.

A work folder `DIR` holds one job:
- `DIR/manifest.json`: the plan (what, which tasks, each task's command line) and every submission
  so far. Written once; a second plan for the same folder must be identical or is refused.
- `DIR/job.sbatch`: the job-array script. Task `K` runs the `K`-th command of the plan; the script
  is the same for every submission, the tasks to run go on `sbatch --array=...`.
- `DIR/verdicts/`: one JSON per task, written atomically by the task itself (`grundy verify --out`,
  `grundy sat --out`). A cube task's verdict is its share ledger, beside the campaign's ledger
  ([`crate::sat::shares`]): done when nothing is left open in it, gathered by the merge.
- `DIR/logs/`: Slurm's output, one file per task.
- `DIR/merged.json`: what `grundy merge` concluded.

Invariants: a task is done exactly when its verdict file parses and answers the task's own question
(same interval, same period); tasks are idempotent (a re-run writes the same verdict), so re-running
the submit command submits only the tasks that are not done. Slurm does the scheduling; nothing here
is a scheduler. `--run-here` runs the same commands one after another on this machine instead.
*/

pub mod merge;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::io::write_atomic;

pub use merge::{CubesMerge, MergeReport, SatMerge, VerifyMerge, merge};

const FORMAT: &str = "grundy-cluster-v1";

/// What the job computes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Work {
    /// Check the claims `[from, to)` of a binary dump.
    Verify {
        game: String,
        values: PathBuf,
        /// Size and CRC-32 of the dump when planned: `merge` refuses a dump that changed.
        values_bytes: u64,
        values_crc32: u32,
        from: u64,
        to: u64,
    },
    /// Decide periods `first..=last`, one per task.
    Sat { game: String, first: u64, last: u64 },
    /// Run the shares dealt from a cube campaign's ledger, one per task (`grundy sat cubes
    /// --ledger SHARE`); `grundy merge` gathers the finished ones back with `gather`, the
    /// arguments of `grundy` that do it.
    Cubes {
        game: String,
        p: u64,
        ledger: PathBuf,
        gather: Vec<String>,
    },
}

/// One task: a command line and the file it answers in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub index: usize,
    /// What it does, for people: `[0, 524288)` or `p=27`.
    pub what: String,
    /// Verdict file, relative to the work folder.
    pub verdict: String,
    /// Arguments of `grundy` (the verdict path among them, absolute).
    pub args: Vec<String>,
}

/// One `sbatch` call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    pub job_id: String,
    pub tasks: Vec<usize>,
}

/// The plan of one job and its submissions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub work: Work,
    /// The `grundy` binary the tasks run (absolute; must exist on the compute nodes).
    pub grundy: PathBuf,
    pub tasks: Vec<Task>,
    pub submissions: Vec<Submission>,
}

/// Why cluster work could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("{path}: {reason}")]
    Bad { path: String, reason: String },
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
    #[error("{0}")]
    Slurm(String),
    #[error("{0}")]
    Plan(String),
}

/// How tasks are submitted.
#[derive(Clone, Debug, Default)]
pub struct SubmitOptions {
    /// Extra `#SBATCH` lines (partition, account, time limit...), passed through as given.
    pub sbatch_args: Vec<String>,
    pub cpus_per_task: usize,
    /// At most this many tasks at once (`--array=...%K`).
    pub max_running: Option<usize>,
    /// Block until the job ends (`sbatch --wait`).
    pub wait: bool,
}

/// Splits `[from, to)` into `shards` intervals of nearly equal length (none empty).
pub fn split(from: u64, to: u64, shards: usize) -> Vec<(u64, u64)> {
    let shards = (shards as u64).clamp(1, (to - from).max(1));
    (0..shards)
        .map(|k| {
            let a = from + (to - from) * k / shards;
            let b = from + (to - from) * (k + 1) / shards;
            (a, b)
        })
        .collect()
}

fn absolute(path: &Path) -> Result<PathBuf, ClusterError> {
    std::path::absolute(path).map_err(|source| ClusterError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Size and CRC-32 of a file.
pub fn file_fingerprint(path: &Path) -> Result<(u64, u32), ClusterError> {
    let bytes = std::fs::read(path).map_err(|source| ClusterError::Read {
        path: path.display().to_string(),
        source,
    })?;
    Ok((bytes.len() as u64, crc32fast::hash(&bytes)))
}

/// What a SAT task answers, as the manifest names it: `p=27`, or `p=27 seed=3` for a run seed.
pub(crate) fn sat_task(p: u64, seed: u64) -> String {
    if seed == 0 {
        format!("p={p}")
    } else {
        format!("p={p} seed={seed}")
    }
}

/// The period a SAT task decides (from its name, [`sat_task`]); `None` for other tasks.
pub(crate) fn task_period(task: &Task) -> Option<u64> {
    task.what
        .strip_prefix("p=")?
        .split(' ')
        .next()?
        .parse()
        .ok()
}

impl Manifest {
    /// Plans the verification of claims `[from, to)` of `values` in `shards` tasks.
    pub fn verify(
        dir: &Path,
        grundy: &Path,
        game: &str,
        values: &Path,
        (from, to): (u64, u64),
        shards: usize,
        threads: usize,
    ) -> Result<Manifest, ClusterError> {
        let values = absolute(values)?;
        let (values_bytes, values_crc32) = file_fingerprint(&values)?;
        let dir = absolute(dir)?;
        let tasks = split(from, to, shards)
            .into_iter()
            .enumerate()
            .map(|(index, (a, b))| {
                let verdict = format!("verdicts/verify-{index}.json");
                let args = [
                    "verify",
                    "--values",
                    &values.display().to_string(),
                    "--from",
                    &a.to_string(),
                    "--to",
                    &b.to_string(),
                    "--threads",
                    &threads.to_string(),
                    "--out",
                    &dir.join(&verdict).display().to_string(),
                ];
                Task {
                    index,
                    what: format!("[{a}, {b})"),
                    verdict,
                    args: args.iter().map(|s| s.to_string()).collect(),
                }
            })
            .collect();
        Ok(Manifest {
            format: FORMAT.into(),
            work: Work::Verify {
                game: game.into(),
                values,
                values_bytes,
                values_crc32,
                from,
                to,
            },
            grundy: absolute(grundy)?,
            tasks,
            submissions: Vec::new(),
        })
    }

    /// Plans periods `first..=last`, one task for each period and run seed of `seeds` (see
    /// `grundy sat --seed`: many seeds of one open period spread its search over the array);
    /// `sat_args` are passed to every `grundy sat`. Seed 0 is the plain run, with no `--seed`.
    pub fn sat(
        dir: &Path,
        grundy: &Path,
        game: &str,
        (first, last): (u64, u64),
        seeds: (u64, u64),
        sat_args: &[String],
    ) -> Result<Manifest, ClusterError> {
        let dir = absolute(dir)?;
        let runs = (first..=last).flat_map(|p| (seeds.0..=seeds.1).map(move |seed| (p, seed)));
        let tasks = runs
            .enumerate()
            .map(|(index, (p, seed))| {
                let verdict = if seed == 0 {
                    format!("verdicts/sat-{p}.json")
                } else {
                    format!("verdicts/sat-{p}-seed{seed}.json")
                };
                let mut args: Vec<String> = ["sat", game, "--periods", &format!("{p}..{p}")]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                if seed != 0 {
                    args.extend(["--seed".to_string(), seed.to_string()]);
                }
                args.extend(sat_args.iter().cloned());
                args.push("--out".into());
                args.push(dir.join(&verdict).display().to_string());
                Task {
                    index,
                    what: sat_task(p, seed),
                    verdict,
                    args,
                }
            })
            .collect();
        Ok(Manifest {
            format: FORMAT.into(),
            work: Work::Sat {
                game: game.into(),
                first,
                last,
            },
            grundy: absolute(grundy)?,
            tasks,
            submissions: Vec::new(),
        })
    }

    /// Plans one task per share ledger of `shares` (absolute paths), each running `grundy
    /// sat cubes` with `cube_args` (game, period, question and budget options) on its share.
    pub fn cubes(
        grundy: &Path,
        work: Work,
        shares: &[PathBuf],
        cube_args: &[String],
    ) -> Result<Manifest, ClusterError> {
        let tasks = shares
            .iter()
            .enumerate()
            .map(|(index, share)| {
                let mut args = cube_args.to_vec();
                args.extend(["--ledger".to_string(), share.display().to_string()]);
                let name = crate::io::file_name(share);
                Task {
                    index,
                    what: format!("share {name}"),
                    // Absolute: the share lies beside its campaign's ledger, not in the folder.
                    verdict: share.display().to_string(),
                    args,
                }
            })
            .collect();
        Ok(Manifest {
            format: FORMAT.into(),
            work,
            grundy: absolute(grundy)?,
            tasks,
            submissions: Vec::new(),
        })
    }

    /// A cube job planned again: the same shares (the deal is made once), the options given
    /// now for the tasks still to run, the submissions so far; written to `dir`.
    pub fn replan_cubes(
        dir: &Path,
        old: Manifest,
        cube_args: &[String],
    ) -> Result<Manifest, ClusterError> {
        let shares: Vec<PathBuf> = old
            .tasks
            .iter()
            .map(|t| PathBuf::from(&t.verdict))
            .collect();
        let mut manifest = Manifest::cubes(&old.grundy, old.work, &shares, cube_args)?;
        manifest.submissions = old.submissions;
        manifest.save(dir)?;
        Ok(manifest)
    }

    pub fn path(dir: &Path) -> PathBuf {
        dir.join("manifest.json")
    }

    pub fn load(dir: &Path) -> Result<Manifest, ClusterError> {
        let path = Manifest::path(dir);
        let text = std::fs::read_to_string(&path).map_err(|source| ClusterError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| ClusterError::Bad {
            path: path.display().to_string(),
            reason: format!("not a grundy work manifest ({e})"),
        })?;
        if manifest.format != FORMAT {
            return Err(ClusterError::Bad {
                path: path.display().to_string(),
                reason: format!("format {:?}, expected {FORMAT:?}", manifest.format),
            });
        }
        Ok(manifest)
    }

    fn save(&self, dir: &Path) -> Result<(), ClusterError> {
        let json = serde_json::to_string_pretty(self).expect("a manifest serializes") + "\n";
        write_atomic(&Manifest::path(dir), |w| w.write_all(json.as_bytes()))?;
        Ok(())
    }

    /// Creates the work folder with this plan, or reopens it if it holds the same plan (keeping
    /// its submissions). A folder with another plan is refused and left untouched.
    pub fn open(self, dir: &Path, options: &SubmitOptions) -> Result<Manifest, ClusterError> {
        let manifest = if Manifest::path(dir).exists() {
            let old = Manifest::load(dir)?;
            if old.work != self.work || old.tasks != self.tasks || old.grundy != self.grundy {
                return Err(ClusterError::Plan(format!(
                    "{} holds another job (its manifest.json differs); use another --work folder",
                    dir.display()
                )));
            }
            old
        } else {
            self
        };
        for sub in ["verdicts", "logs"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|source| ClusterError::Read {
                path: dir.join(sub).display().to_string(),
                source,
            })?;
        }
        manifest.save(dir)?;
        let script = manifest.script(&absolute(dir)?, options);
        write_atomic(&dir.join("job.sbatch"), |w| w.write_all(script.as_bytes()))?;
        Ok(manifest)
    }

    /// The job-array script.
    pub fn script(&self, dir: &Path, options: &SubmitOptions) -> String {
        let name = match &self.work {
            Work::Verify { .. } => "grundy-verify",
            Work::Sat { .. } => "grundy-sat",
            Work::Cubes { .. } => "grundy-cubes",
        };
        let mut s = format!(
            "#!/bin/bash\n\
             # Written by grundy; task K runs the K-th command of manifest.json.\n\
             # Submit with: sbatch --array=0-{} {}\n\
             #SBATCH --job-name={name}\n\
             #SBATCH --output={}/logs/%A_%a.out\n\
             #SBATCH --cpus-per-task={}\n",
            self.tasks.len().saturating_sub(1),
            dir.join("job.sbatch").display(),
            dir.display(),
            options.cpus_per_task.max(1),
        );
        for arg in &options.sbatch_args {
            s += &format!("#SBATCH {arg}\n");
        }
        s += "set -u\ncase \"$SLURM_ARRAY_TASK_ID\" in\n";
        for task in &self.tasks {
            let words: Vec<String> = std::iter::once(self.grundy.display().to_string())
                .chain(task.args.iter().cloned())
                .map(|w| shell_quote(&w))
                .collect();
            s += &format!("  {}) exec {} ;;\n", task.index, words.join(" "));
        }
        s += "  *) echo \"no task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
        s
    }

    /// Tasks whose verdict is missing or does not answer the task (not done yet).
    pub fn not_done(&self, dir: &Path) -> Vec<usize> {
        let done = merge::done_tasks(self, dir);
        self.tasks
            .iter()
            .map(|t| t.index)
            .filter(|i| !done.contains(i))
            .collect()
    }

    /// SAT work: the tasks whose period is among `decided`, and the periods that a task's own
    /// verdict in `dir` decides (another seed of the same period, say), so that a campaign's next
    /// submission runs only the open periods (`grundy slurm sat --open-only`).
    pub fn decided_tasks(&self, dir: &Path, decided: &[u64]) -> Vec<usize> {
        let mut decided = decided.to_vec();
        decided.extend(
            self.tasks
                .iter()
                .filter_map(|t| merge::read_sat(dir, t))
                .filter(|r| !r.is_open())
                .map(|r| r.p),
        );
        self.tasks
            .iter()
            .filter(|t| task_period(t).is_some_and(|p| decided.contains(&p)))
            .map(|t| t.index)
            .collect()
    }

    /// Submits `tasks` as one job array; returns the job id.
    pub fn submit(
        &mut self,
        dir: &Path,
        tasks: &[usize],
        options: &SubmitOptions,
    ) -> Result<String, ClusterError> {
        self.refuse_if_active()?;
        let mut array = array_spec(tasks);
        if let Some(k) = options.max_running {
            array += &format!("%{}", k.max(1));
        }
        let mut cmd = Command::new("sbatch");
        cmd.arg("--parsable").arg(format!("--array={array}"));
        if options.wait {
            cmd.arg("--wait");
        }
        cmd.arg(dir.join("job.sbatch"));
        let out = cmd.output().map_err(|e| {
            ClusterError::Slurm(format!("cannot run sbatch: {e} (is Slurm installed?)"))
        })?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        let job_id = stdout
            .lines()
            .next()
            .and_then(|l| l.split(';').next())
            .map(str::trim)
            .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| {
                let err = String::from_utf8_lossy(&out.stderr);
                ClusterError::Slurm(format!(
                    "sbatch failed: {}",
                    err.lines().next().unwrap_or("no job id printed")
                ))
            })?
            .to_string();
        // With --wait, a non-zero exit only says some task exited non-zero (a wrong value is
        // one): `grundy merge` reads the verdicts and decides.
        self.submissions.push(Submission {
            job_id: job_id.clone(),
            tasks: tasks.to_vec(),
        });
        self.save(dir)?;
        Ok(job_id)
    }

    /// Refuses to submit while an earlier submission still has tasks queued or running, so a task
    /// never runs twice at once.
    fn refuse_if_active(&self) -> Result<(), ClusterError> {
        if self.submissions.is_empty() {
            return Ok(());
        }
        let ids: Vec<&str> = self.submissions.iter().map(|s| s.job_id.as_str()).collect();
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i", "-j", &ids.join(",")])
            .output()
            .map_err(|e| ClusterError::Slurm(format!("cannot run squeue: {e}")))?;
        let active = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !active.is_empty() {
            let first = active.lines().next().unwrap_or_default();
            return Err(ClusterError::Slurm(format!(
                "job {first} of this folder is still queued or running; wait for it (or scancel it) and submit again"
            )));
        }
        Ok(())
    }

    /// Runs `tasks` on this machine, one after another (the single-machine equivalent of a
    /// submission). A task that exits non-zero is not an error here: its verdict says why.
    pub fn run_here(&self, tasks: &[usize]) -> Result<(), ClusterError> {
        for &i in tasks {
            let task = &self.tasks[i];
            Command::new(&self.grundy)
                .args(&task.args)
                .stdout(std::process::Stdio::null())
                .status()
                .map_err(|e| {
                    ClusterError::Slurm(format!("cannot run {}: {e}", self.grundy.display()))
                })?;
        }
        Ok(())
    }
}

/// `0-3,7,9-10` for the indices given (sorted, deduplicated).
pub fn array_spec(tasks: &[usize]) -> String {
    let mut sorted = tasks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            sorted[i].to_string()
        } else {
            format!("{}-{}", sorted[i], sorted[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Quotes a word for bash (single quotes).
fn shell_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=,:+%^".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_range_exactly() {
        for (from, to, n) in [(0, 100, 8), (5, 6, 4), (0, 1 << 22, 8), (10, 17, 7)] {
            let s = split(from, to, n);
            assert_eq!(s.first().unwrap().0, from);
            assert_eq!(s.last().unwrap().1, to);
            assert!(s.windows(2).all(|w| w[0].1 == w[1].0));
            assert!(s.iter().all(|(a, b)| a < b));
            assert!(s.len() <= n);
        }
    }

    #[test]
    fn array_specs_compress_runs() {
        assert_eq!(array_spec(&[0, 1, 2, 3]), "0-3");
        assert_eq!(array_spec(&[7, 3, 9, 10, 3]), "3,7,9-10");
        assert_eq!(array_spec(&[5]), "5");
    }

    #[test]
    fn quoting_survives_spaces_and_quotes() {
        assert_eq!(shell_quote("/a/b-c.json"), "/a/b-c.json");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
