//! Access to `../shared` (reference data and C baselines) beside the checkout.

use std::path::{Path, PathBuf};

/// The `shared` folder: `$GRUNDY_SHARED`, else `../shared` from the crate root. Missing data is a
/// failure, not a skip: these are the oracles.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("GRUNDY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    assert!(
        dir.join("reference").is_dir(),
        "reference data not found at {} (set GRUNDY_SHARED)",
        dir.display()
    );
    dir
}

pub fn reference(name: &str) -> PathBuf {
    shared_dir().join("reference").join(name)
}

pub fn read_reference(name: &str) -> String {
    std::fs::read_to_string(reference(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// One row of `solved_octal_games_checked.tsv`.
pub struct SolvedGame {
    pub code: String,
    pub preperiod: Option<u64>,
    pub period: u64,
    pub max_value: Option<u16>,
    /// (rare mask, rare count, last rare) where the table gives them.
    pub sparse: Option<(u32, u64, u64)>,
}

pub fn solved_games() -> Vec<SolvedGame> {
    read_reference("solved_octal_games_checked.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            SolvedGame {
                code: f[0].to_string(),
                preperiod: f[1].parse().ok(),
                period: f[2].parse().expect("period"),
                max_value: f[6].parse().ok(),
                sparse: match (u32::from_str_radix(f[3], 16), f[4].parse(), f[5].parse()) {
                    (Ok(m), Ok(c), Ok(l)) => Some((m, c, l)),
                    _ => None,
                },
            }
        })
        .collect()
}

/// `G(0..98304)` of Officers from mvr's `officers_initial.txt`.
pub fn officers_reference_values() -> Vec<u16> {
    let text = read_reference("officers_first_98304_values_mvr.txt");
    let mut tokens = text
        .split_whitespace()
        .map(|t| t.parse::<u64>().expect("number"));
    let count = tokens.next().expect("count") as usize;
    let values: Vec<u16> = tokens.map(|v| v as u16).collect();
    assert_eq!(values.len(), count);
    values
}

/// Runs `../shared/bench/run.sh KIND N` and returns its `checksum=`.
pub fn baseline_checksum(kind: &str, n: u64) -> u64 {
    let script = shared_dir().join("bench/run.sh");
    // One directory per call: tests run in parallel threads of one process, and one call
    // removing its directory must not pull another's build out from under it.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let base_dir = std::env::temp_dir().join(format!(
        "grundy-test-baselines-{}-{call}",
        std::process::id()
    ));
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg(kind)
        .arg(n.to_string())
        .env("BASELINE_DIR", &base_dir)
        .output()
        .expect("run.sh runs");
    let _ = std::fs::remove_dir_all(&base_dir);
    assert!(
        out.status.success(),
        "run.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    grundy::bench::parse_baseline(String::from_utf8_lossy(&out.stdout).trim())
        .expect("baseline line")
        .checksum
}

/// A path as the `&str` a command line takes (the tests' temporary folders are UTF-8).
pub fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}
