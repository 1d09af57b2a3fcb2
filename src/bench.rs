/*!
Benchmarks against the C baselines in `../shared/bench` (run through its `run.sh`), measured in
the same invocation so that the ratio, not the absolute time of a shared machine, is reported.
Each side prints the checksum (sum of the values) as proof that both did the same work.
*/

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde::Serialize;

use crate::game::Game;
use crate::values::{ExactGenerator, checksum};

/// One timed run, ours or a baseline's.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Timing {
    pub name: String,
    pub values: u64,
    pub seconds: f64,
    pub values_per_sec: f64,
    pub checksum: u64,
}

/// Why a baseline could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("cannot run baseline {script}: {source}")]
    Spawn {
        script: String,
        source: std::io::Error,
    },
    #[error("baseline {script} failed: {stderr}")]
    Failed { script: String, stderr: String },
    #[error("baseline output has no {key}=: {line:?}")]
    Parse { key: String, line: String },
}

/// Runs `run.sh KIND N` and reads its `key=value` line.
///
/// # Errors
/// [`BenchError`] if the script cannot run, fails, or prints something unexpected.
pub fn run_baseline(script: &Path, kind: &str, n: u64) -> Result<Timing, BenchError> {
    let shown = script.display().to_string();
    let out = Command::new("bash")
        .arg(script)
        .arg(kind)
        .arg(n.to_string())
        .output()
        .map_err(|source| BenchError::Spawn {
            script: shown.clone(),
            source,
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(BenchError::Failed {
            script: shown,
            stderr,
        });
    }
    parse_baseline(String::from_utf8_lossy(&out.stdout).trim())
}

/// Parses `baseline=NAME n=N ... seconds=S values_per_sec=R checksum=C`.
///
/// # Errors
/// [`BenchError::Parse`] naming the missing key.
pub fn parse_baseline(line: &str) -> Result<Timing, BenchError> {
    let get = |key: &str| -> Result<&str, BenchError> {
        line.split_whitespace()
            .find_map(|kv| kv.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
            .ok_or(BenchError::Parse {
                key: key.into(),
                line: line.into(),
            })
    };
    let num = |key: &str| -> Result<f64, BenchError> {
        get(key)?.parse().map_err(|_| BenchError::Parse {
            key: key.into(),
            line: line.into(),
        })
    };
    let values = get("timed_values").or_else(|_| get("n"))?;
    Ok(Timing {
        name: format!("C {}", get("baseline")?),
        values: values.parse().map_err(|_| BenchError::Parse {
            key: "n".into(),
            line: line.into(),
        })?,
        seconds: num("seconds")?,
        values_per_sec: num("values_per_sec")?,
        checksum: get("checksum")?.parse().map_err(|_| BenchError::Parse {
            key: "checksum".into(),
            line: line.into(),
        })?,
    })
}

/// Times the exact generator on the first `n` values of `game`.
///
/// # Errors
/// If a value does not fit in 16 bits.
pub fn time_exact(game: &Game, n: u64) -> Result<Timing, crate::values::ValueError> {
    let start = Instant::now();
    let mut generator = ExactGenerator::new(game);
    generator.extend_to(n as usize)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(Timing {
        name: "grundy exact".into(),
        values: n,
        seconds,
        values_per_sec: n as f64 / seconds,
        checksum: checksum(generator.values()),
    })
}

/// Ours against a baseline: the ratio of rates and whether the checksums agree.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Comparison {
    pub ours: Timing,
    pub baseline: Timing,
    pub ratio: f64,
    pub checksums_equal: bool,
}

impl Comparison {
    pub fn new(ours: Timing, baseline: Timing) -> Comparison {
        let ratio = ours.values_per_sec / baseline.values_per_sec;
        let checksums_equal = ours.checksum == baseline.checksum;
        Comparison {
            ours,
            baseline,
            ratio,
            checksums_equal,
        }
    }

    pub fn render_text(&self) -> String {
        let row = |t: &Timing| {
            format!(
                "{:<28} {:>12} values {:>9.3} s {:>12.0} values/s  checksum {}\n",
                t.name, t.values, t.seconds, t.values_per_sec, t.checksum
            )
        };
        let verdict = if self.checksums_equal {
            "equal"
        } else {
            "DIFFERENT"
        };
        format!(
            "{}{}ratio {:.2}x, checksums {verdict}\n",
            row(&self.ours),
            row(&self.baseline),
            self.ratio
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_baseline_lines() {
        let t = parse_baseline("baseline=speculative_fig4 n=30000000 timed_values=29958742 seconds=15.281 values_per_sec=1960501 checksum=3424112883").unwrap();
        assert_eq!((t.values, t.checksum), (29958742, 3424112883));
        let t = parse_baseline("baseline=rare_value n=1000 seconds=0.010 values_per_sec=100000 rares=3 last_rare=4 max=9 checksum=77").unwrap();
        assert_eq!((t.values, t.checksum), (1000, 77));
        assert!(parse_baseline("garbage").is_err());
    }
}

/// The exact prefix the speculative timings start from (not timed, as in the C baseline):
/// `2 (last rare + 1) + 2` heaps, like `run.sh speculative`.
fn speculative_start(game: &Game) -> Result<ExactGenerator, crate::values::ValueError> {
    let mut generator = ExactGenerator::new(game);
    generator.extend_to(1 << 15)?;
    let last = generator.rares().last().map_or(0, |r| r.0);
    generator.extend_to(2 * (last + 1) + 2)?;
    Ok(generator)
}

/// Times the speculative generator alone (no verification) on `G(start..n)` with `threads`.
///
/// # Errors
/// A value beyond 16 bits in the prefix, or a game without byte compression.
pub fn time_speculative(
    game: &Game,
    n: u64,
    threads: usize,
    block: usize,
) -> anyhow::Result<Timing> {
    let prefix = speculative_start(game)?;
    let rares: Vec<(u64, crate::values::Value)> =
        prefix.rares().map(|(p, v)| (p as u64, v)).collect();
    let mut values = prefix.values().to_vec();
    let start = values.len();
    let mut spec = crate::values::speculative::Speculative::new(
        game,
        prefix.space(),
        &rares,
        &values,
        threads,
        block,
    )?;
    values.reserve(n as usize);
    let began = Instant::now();
    while values.len() < n as usize {
        let blocks = (n as usize - values.len())
            .div_ceil(block)
            .min((1 << 16) / block);
        spec.generate(blocks, &mut values)
            .map_err(|o| anyhow::anyhow!("no byte value free at heap {}", o.at))?;
    }
    let seconds = began.elapsed().as_secs_f64();
    values.truncate(n as usize);
    let timed = n - start as u64;
    Ok(Timing {
        name: format!("grundy speculative T={threads}"),
        values: timed,
        seconds,
        values_per_sec: timed as f64 / seconds,
        checksum: checksum(&values),
    })
}

/// Times the verifier on one thread over `G(n/2..n)` of true values.
///
/// # Errors
/// A value beyond 16 bits.
pub fn time_verifier(game: &Game, n: u64) -> anyhow::Result<Timing> {
    let mut generator = ExactGenerator::new(game);
    generator.extend_to(n as usize)?;
    let values = generator.values();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let began = Instant::now();
    let verdict = pool.install(|| crate::values::verify::verify_interval(game, values, n / 2, n));
    let seconds = began.elapsed().as_secs_f64();
    anyhow::ensure!(
        verdict.ok(),
        "the verifier rejected a true value: {verdict:?}"
    );
    Ok(Timing {
        name: "grundy verifier T=1".into(),
        values: n - n / 2,
        seconds,
        values_per_sec: (n - n / 2) as f64 / seconds,
        checksum: checksum(values),
    })
}

/// The best (fastest) of `repeat` timings.
///
/// # Errors
/// The first error of `time`.
pub fn best_of<E>(repeat: usize, mut time: impl FnMut() -> Result<Timing, E>) -> Result<Timing, E> {
    let mut best: Option<Timing> = None;
    for _ in 0..repeat.max(1) {
        let t = time()?;
        if best
            .as_ref()
            .is_none_or(|b| t.values_per_sec > b.values_per_sec)
        {
            best = Some(t);
        }
    }
    Ok(best.expect("at least one run"))
}

/// Everything `grundy bench speculative` measured.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct SpeculativeBench {
    pub n: u64,
    pub repeat: usize,
    /// One thread against `run.sh speculative N`.
    pub single: Comparison,
    /// Each thread count against one thread: (threads, timing, ratio to one thread).
    pub scaling: Vec<(usize, Timing, f64)>,
    /// Verifier on one core against `run.sh rare_value` on one core.
    pub verifier: Comparison,
    /// Cores of the machine that measured this (absent in files from before it was recorded).
    #[serde(default)]
    pub cores: Option<usize>,
}

impl SpeculativeBench {
    pub fn render_text(&self) -> String {
        let mut text = format!(
            "speculative generator, one thread, best of {}:\n{}",
            self.repeat,
            self.single.render_text()
        );
        text += "threads:\n";
        for (t, timing, ratio) in &self.scaling {
            text += &format!(
                "  T={t}: {:>12.0} values/s  {ratio:.2}x one thread  checksum {}\n",
                timing.values_per_sec, timing.checksum
            );
        }
        text += &format!("verifier per core:\n{}", self.verifier.render_text());
        text
    }
}

/// One period of `grundy bench sat`: our answer, Riley's, and the time.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct SatBenchRow {
    pub p: u64,
    pub feasible: crate::sat::periods::Status,
    pub primitive: crate::sat::periods::Status,
    pub how: String,
    pub seconds: f64,
    /// Riley's published answer: "pattern", "excluded", or "not listed".
    pub riley: String,
    /// Our `feasible` equals Riley's answer (a timeout never agrees).
    pub agrees: bool,
}

/// `grundy bench sat`: periods decided from scratch, against Riley's published list.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct SatBench {
    pub solver: String,
    pub timeout_seconds: f64,
    pub jobs: usize,
    pub rows: Vec<SatBenchRow>,
    pub total_seconds: f64,
    pub all_agree: bool,
}

/// Riley's list (`mvr_sat_feasible_period_patterns.txt`): `p=N None` or `p=N v v v ...`.
/// Returns `(p, has a pattern)`.
pub fn parse_riley(text: &str) -> Vec<(u64, bool)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("p=")?;
            let (p, tail) = rest.split_once(' ')?;
            Some((p.parse().ok()?, tail.trim() != "None"))
        })
        .collect()
}

impl SatBench {
    /// Compares `results` with Riley's list.
    pub fn new(
        results: &[crate::sat::periods::PeriodResult],
        riley: &[(u64, bool)],
        solver: &str,
        timeout_seconds: f64,
        jobs: usize,
        total_seconds: f64,
    ) -> SatBench {
        use crate::sat::periods::Status;
        let rows: Vec<SatBenchRow> = results
            .iter()
            .map(|r| {
                let published = riley.iter().find(|(p, _)| *p == r.p).map(|x| x.1);
                let (riley, agrees) = match published {
                    Some(true) => ("pattern", r.feasible == Status::Sat),
                    Some(false) => ("excluded", r.feasible == Status::Excluded),
                    None => ("not listed", false),
                };
                SatBenchRow {
                    p: r.p,
                    feasible: r.feasible,
                    primitive: r.primitive,
                    how: r.how.clone(),
                    seconds: r.seconds,
                    riley: riley.into(),
                    agrees,
                }
            })
            .collect();
        SatBench {
            solver: solver.into(),
            timeout_seconds,
            jobs,
            all_agree: rows.iter().all(|r| r.agrees),
            rows,
            total_seconds,
        }
    }

    pub fn render_text(&self) -> String {
        let mut text = format!(
            "periods from scratch, {} beside a tabu search (one thread each), timeout {} s, {} at once:\n",
            self.solver, self.timeout_seconds, self.jobs
        );
        for r in &self.rows {
            text += &format!(
                "  p={:<3} feasible {:<8} primitive {:<8} {:>7.1} s  Riley: {:<10} {}  ({})\n",
                r.p,
                r.feasible,
                r.primitive,
                r.seconds,
                r.riley,
                if r.agrees {
                    "agrees"
                } else {
                    "DIFFERS/undecided"
                },
                r.how
            );
        }
        text += &format!(
            "total {:.1} s; {}\n",
            self.total_seconds,
            if self.all_agree {
                "every answer equals Riley's"
            } else {
                "not every answer equals Riley's (see above)"
            }
        );
        text
    }
}
