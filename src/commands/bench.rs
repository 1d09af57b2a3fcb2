//! `grundy bench`: speed against the C baselines, timed in the same run, and the SAT bench.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use grundy::io::write_output;
use grundy::values::exact_prefix;
use grundy::{Game, bench};

use crate::{BenchExactArgs, BenchSatArgs, BenchSpeculativeArgs, parse_periods};

/// `grundy bench speculative`: generator and verifier against the C baselines, timed in the same run.
pub(crate) fn bench_speculative(args: BenchSpeculativeArgs) -> Result<ExitCode> {
    let BenchSpeculativeArgs {
        count,
        threads,
        repeat,
        verify_count,
        baseline,
        json,
    } = args;
    let officers = Game::officers();
    let block = grundy::values::speculative::DEFAULT_BLOCK;
    let single = bench::best_of(repeat, || {
        bench::time_speculative(&officers, count, 1, block)
    })?;
    let base = bench::best_of(repeat, || {
        bench::run_baseline(&baseline, "speculative", count)
    })?;
    let mut scaling = Vec::new();
    for &t in &threads {
        let timing = bench::best_of(repeat, || {
            bench::time_speculative(&officers, count, t.max(1), block)
        })?;
        let ratio = timing.values_per_sec / single.values_per_sec;
        scaling.push((t, timing, ratio));
    }
    let verifier = bench::best_of(repeat, || bench::time_verifier(&officers, verify_count))?;
    let rare_value = bench::best_of(repeat, || {
        bench::run_baseline(&baseline, "rare_value", verify_count)
    })?;
    let report = bench::SpeculativeBench {
        n: count,
        repeat,
        single: bench::Comparison::new(single, base),
        scaling,
        verifier: bench::Comparison::new(verifier, rare_value),
        cores: std::thread::available_parallelism().ok().map(|n| n.get()),
    };
    print!("{}", report.render_text());
    if let Some(path) = json {
        write_output(Some(&path), |w| {
            serde_json::to_writer_pretty(w, &report).map_err(std::io::Error::other)
        })?;
    }
    if !report.single.checksums_equal || !report.verifier.checksums_equal {
        bail!("checksums differ: the programs did not compute the same values");
    }
    Ok(ExitCode::SUCCESS)
}

/// `grundy bench sat`: Officers periods decided from scratch, against Riley's list.
pub(crate) fn bench_sat(args: BenchSatArgs) -> Result<ExitCode> {
    let BenchSatArgs {
        periods,
        solver,
        timeout,
        jobs,
        reference,
        json,
    } = args;
    use grundy::sat::periods::{PeriodsFile, Problem, decide_all};
    let range = parse_periods(&periods)?;
    let text = std::fs::read_to_string(&reference)
        .with_context(|| format!("cannot read {}", reference.display()))?;
    let riley = bench::parse_riley(&text);
    let problem = Problem::from_prefix(&exact_prefix(&Game::officers(), 1 << 16)?);
    let started = std::time::Instant::now();
    let results = decide_all(
        &problem,
        range,
        solver,
        Some(std::time::Duration::from_secs_f64(timeout)),
        jobs,
        &PeriodsFile::new(&problem),
        &|_| Ok(()),
    )?;
    let report = bench::SatBench::new(
        &results,
        &riley,
        solver.name(),
        timeout,
        jobs,
        started.elapsed().as_secs_f64(),
    );
    print!("{}", report.render_text());
    if let Some(path) = json {
        write_output(Some(&path), |w| {
            serde_json::to_writer_pretty(w, &report).map_err(std::io::Error::other)
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `grundy bench exact`: the exact generator against the C `rare_value` baseline.
pub(crate) fn bench_exact(args: BenchExactArgs) -> Result<ExitCode> {
    let BenchExactArgs {
        count,
        baseline,
        json,
    } = args;
    let ours = bench::time_exact(&Game::officers(), count)?;
    let base = bench::run_baseline(&baseline, "rare_value", count)?;
    let comparison = bench::Comparison::new(ours, base);
    print!("{}", comparison.render_text());
    if let Some(path) = json {
        write_output(Some(&path), |w| {
            serde_json::to_writer_pretty(w, &comparison).map_err(std::io::Error::other)
        })?;
    }
    if !comparison.checksums_equal {
        bail!("checksums differ: the two programs did not compute the same values");
    }
    Ok(ExitCode::SUCCESS)
}
