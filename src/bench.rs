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
#[derive(Clone, Debug, Serialize)]
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
#[derive(Clone, Debug, Serialize)]
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
