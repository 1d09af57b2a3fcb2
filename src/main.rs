//! `grundy`: the command line. It parses arguments and calls the library; no algorithm lives here.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use grundy::io::values_file::write_bin;
use grundy::io::{RareTable, TableFormat, ValuesDump, ValuesFormat, write_output};
use grundy::progress::Progress;
use grundy::run::RunConfig;
use grundy::stats::Stats;
use grundy::values::verify::verify_interval;
use grundy::values::{exact_prefix, naive_values};
use grundy::{Game, bench};

/// Grundy values of octal games, built for Officers (.6).
#[derive(Parser, Debug)]
#[command(name = "grundy", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print or save G(0), ..., G(N-1) of a game.
    Values {
        /// Game code: .6, 0.137, 4.07, or `officers`.
        game: String,
        /// How many values (accepts 98304, 2^21, 1e6).
        #[arg(long, short = 'n', value_parser = parse_count)]
        count: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: ValuesFormat,
        /// Write here (atomically) instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Use the O(n^2) naive generator (the oracle) instead of the exact rare-value one.
        #[arg(long)]
        naive: bool,
    },
    /// Print or save the rare table (position, value) found in the first N values.
    Rares {
        game: String,
        #[arg(long, short = 'n', value_parser = parse_count)]
        count: u64,
        #[arg(long, value_enum, default_value = "tsv")]
        format: TableFormat,
        #[arg(long)]
        out: Option<PathBuf>,
        /// Compare with this table (ours, JSON or mvr's format) instead of printing; exit 1 if they differ.
        #[arg(long)]
        check: Option<PathBuf>,
    },
    /// Statistics of the first N values: histogram, largest value, losing positions, rare values.
    Stats {
        game: String,
        #[arg(long, short = 'n', value_parser = parse_count)]
        count: u64,
        /// Print JSON (with the full histogram) instead of a text summary.
        #[arg(long)]
        json: bool,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Long run: speculative values, verified in parallel, rolled back if ever wrong, checkpointed.
    Run {
        game: String,
        /// Compute G(0) .. G(N-1).
        #[arg(long, value_parser = parse_count)]
        to: u64,
        /// Generator and verifier threads [default: all cores up to 4, then three in four].
        #[arg(long)]
        threads: Option<usize>,
        /// Do not verify: values past the exact prefix stay claims (reported as unverified).
        #[arg(long)]
        no_verify: bool,
        /// Do not search for a period (to measure the search's cost).
        #[arg(long)]
        no_period: bool,
        /// End the exact prefix here and speculate from it (default: as early as the rule allows).
        #[arg(long, value_parser = parse_count)]
        speculate_from: Option<u64>,
        /// Values per generate-and-verify round.
        #[arg(long, value_parser = parse_count, default_value = "2^18")]
        chunk: u64,
        /// Speculative block size (heaps per step of the threaded generator).
        #[arg(long, default_value_t = grundy::values::speculative::DEFAULT_BLOCK)]
        block: usize,
        /// Save state here every --checkpoint-every seconds (and FILE.values beside it).
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Continue the run saved in --checkpoint.
        #[arg(long, requires = "checkpoint")]
        resume: bool,
        #[arg(long, default_value_t = 10.0)]
        checkpoint_every: f64,
        /// Write all values as a binary dump (see README) here.
        #[arg(long)]
        values_out: Option<PathBuf>,
        /// Write the full report (statistics, rare table, rollbacks) as JSON here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Values to keep in memory (2 bytes each); older verified values live only in the
        /// checkpoint's FILE.values, or in a temporary file in --spill-dir.
        #[arg(long, value_parser = parse_count, default_value = "2^26")]
        memory: u64,
        /// Where values beyond --memory go when there is no --checkpoint [default: $TMPDIR].
        #[arg(long)]
        spill_dir: Option<PathBuf>,
    },
    /// Verify claimed values [FROM, TO) of a binary dump; writes a JSON verdict. Exit 1 if one is wrong.
    Verify {
        /// Binary values dump (grundy values/run --format bin) starting at heap 0.
        #[arg(long)]
        values: PathBuf,
        #[arg(long, value_parser = parse_count)]
        from: u64,
        #[arg(long, value_parser = parse_count)]
        to: u64,
        #[arg(long)]
        threads: Option<usize>,
        /// Write the verdict here (atomically) instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Find the period of a game from scratch and prove it (Guy-Smith); writes a JSON certificate.
    Period {
        game: String,
        /// Give up after this many values (exit 1: no period proven).
        #[arg(long, value_parser = parse_count, default_value = "2^26")]
        max: u64,
        /// Write the certificate here (atomically) instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Periods by SAT: `grundy sat GAME --periods A..B` decides each period (feasible, primitive)
    /// and merges the results into a JSON file; `export`, `excluded`, `check` below.
    #[command(args_conflicts_with_subcommands = true)]
    Sat {
        #[command(subcommand)]
        what: Option<SatCommand>,
        #[command(flatten)]
        solve: SatSolveArgs,
    },
    /// Verification or SAT as a Slurm job array (or `--run-here`); combine with `grundy merge DIR`.
    Slurm {
        #[command(subcommand)]
        what: SlurmCommand,
    },
    /// Combine the verdicts of a work folder: verified frontier, first wrong value (and a rollback
    /// checkpoint to resume from), missing tasks; SAT answers merged into the periods file.
    Merge {
        /// Work folder of `grundy slurm`.
        dir: PathBuf,
        /// SAT only: periods file to merge into [default: results/<game>/periods.json].
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Figures as SVG and PNG (OUT.svg, OUT.png) from the files the other commands write.
    Plot {
        #[command(subcommand)]
        kind: PlotKind,
    },
    /// Benchmarks against the C baselines of ../shared/bench, measured in the same run.
    Bench {
        #[command(subcommand)]
        what: BenchKind,
    },
}

#[derive(clap::Args, Debug)]
struct SatSolveArgs {
    game: Option<String>,
    /// Inclusive range of periods, e.g. 1..40.
    #[arg(long)]
    periods: Option<String>,
    #[arg(long, value_enum, default_value = "cadical")]
    solver: grundy::sat::solve::SolverKind,
    /// Seconds per solver call (CaDiCaL and splr; varisat cannot be stopped).
    #[arg(long, default_value_t = 300.0)]
    timeout: f64,
    /// Periods decided at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Seconds of local search beside each solver call (0: none) [default: --timeout].
    #[arg(long)]
    local: Option<f64>,
    /// Threads of local search beside the solver, each with its own seed.
    #[arg(long, default_value_t = 1)]
    local_threads: usize,
    /// Run seed for the local search and CaDiCaL. 0 repeats the default run; give another to
    /// search an open period afresh (the JSON keeps each run that decided nothing under `earlier`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Enumerate every pattern of one period up to rotation (blocking clauses), written as JSON
    /// to --out [default: results/<game>/patterns-p<P>.json].
    #[arg(long)]
    all: bool,
    /// Only the periods of --periods that the --out file does not decide yet (the next run of a
    /// campaign over a range: decided periods are not solved again).
    #[arg(long, conflicts_with = "all")]
    open_only: bool,
    /// With --all: stop after this many rotation classes.
    #[arg(long, default_value_t = 100_000)]
    limit: usize,
    /// Break rotation symmetry (s[0] is a smallest value of the pattern).
    #[arg(long)]
    break_rotation: bool,
    /// Write a certificate for every UNSAT answer here: the CNF and a DRAT proof (cadical) or a
    /// varisat proof, checked at once by varisat-checker (varisat).
    #[arg(long)]
    proof_dir: Option<PathBuf>,
    /// Run this many CaDiCaL copies (different seeds and presets) per solver call; the first
    /// answer wins. 1: one solver.
    #[arg(long, default_value_t = 1)]
    portfolio: usize,
    /// Run CaDiCaL alone: without rounds of exact neighbourhoods around tabu near misses (the
    /// default for one CaDiCaL; see src/sat/lns.rs).
    #[arg(long)]
    no_neighbourhoods: bool,
    /// Keep the short clauses CaDiCaL learns in this folder, one file per question and run seed,
    /// and start every later run of the same encoding with all of them (a campaign's runs build
    /// on each other). Not with --proof-dir: a proof starts from the encoding alone.
    #[arg(long, value_name = "DIR")]
    lemmas: Option<PathBuf>,
    /// With --lemmas: also save the file this often while a question runs, so a run killed
    /// outright (SIGKILL, a lost machine) loses at most this much learning.
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    lemmas_every: f64,
    /// Merge the results into this JSON file [default: results/<game>/periods.json].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Values computed exactly for the rare table and the losing positions.
    #[arg(long, value_parser = parse_count, default_value = "2^16")]
    values: u64,
}

#[derive(Subcommand, Debug)]
enum SatCommand {
    /// Write the one-hot CNF of period P as DIMACS.
    Export {
        game: String,
        #[arg(long)]
        p: usize,
        /// Values computed exactly for the rare table.
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
        /// Forbid every smaller period (the `primitive` question).
        #[arg(long)]
        primitive: bool,
        /// Add rotation symmetry breaking (s[0] is a smallest value).
        #[arg(long)]
        break_rotation: bool,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Periods excluded without solving (p divides l + 1 for a losing position l).
    Excluded {
        game: String,
        /// Inclusive range, e.g. 1..40.
        #[arg(long)]
        periods: String,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
    },
    /// What a periods file knows: each period's answers, and for the open ones the campaign so
    /// far (runs, seeds, seconds in all), then the open periods and the gaps of its range.
    Summary {
        /// The game whose default file to read, results/<game>/periods.json.
        game: Option<String>,
        /// The periods file to read instead (the --out of grundy sat).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Cube-and-conquer on one question: cubes of the value box tried by an incremental
    /// CaDiCaL per thread under a conflict budget, split when they outlast it. Resumable: the
    /// queue and the refuted share live in a ledger, saved atomically as it goes; an answer for
    /// the whole box is merged into the periods file.
    Cubes {
        #[command(flatten)]
        ask: CubeQuestion,
        /// Solver threads, each its own CaDiCaL [default: the cores here].
        #[arg(long)]
        threads: Option<usize>,
        /// Conflicts a cube gets before it is split (2000: on a p = 27 cube, 28 s where 20000
        /// refuted 0.023% in 600 s; see the README).
        #[arg(long, default_value_t = 2000)]
        conflicts: u32,
        /// Pieces a split makes at most: the residue with the fewest live values is cut into
        /// this many ranges with about as many live values each (256: one value a piece).
        #[arg(long, default_value_t = 2)]
        fanout: usize,
        /// Learned clauses of at most this many literals go from each thread's solver to the
        /// others (0: none).
        #[arg(long, default_value_t = 0)]
        share_len: usize,
        /// Stop after this many seconds, leaving the rest open in the ledger [default: until
        /// answered].
        #[arg(long)]
        timeout: Option<f64>,
        /// Stop after this many solver calls (a job of fixed size, whatever the machine).
        #[arg(long)]
        calls: Option<u64>,
        /// Start the campaign inside this cube ("0:12 1:40-47": residue:byte or
        /// residue:lo-hi, bytes of compressed values): an experiment, or a share of the box for
        /// one machine. Its UNSAT answers nothing about p and is not merged.
        #[arg(long)]
        within: Option<String>,
        /// The ledger [default: results/<game>/cubes-p<P>-<feasible|primitive>.json]; an
        /// existing one is continued.
        #[arg(long)]
        ledger: Option<PathBuf>,
        /// Seconds between saves of the ledger (and progress lines in a log).
        #[arg(long, default_value_t = 60.0)]
        save_every: f64,
        /// Deal the ledger's open cubes into K share ledgers beside it, for K jobs (each runs
        /// this command with `--ledger SHARE`), and exit.
        #[arg(long, conflicts_with = "gather")]
        deal: Option<usize>,
        /// Fold the shares dealt earlier (those not running now) back into the ledger, merge
        /// an answer into the periods file, and exit.
        #[arg(long)]
        gather: bool,
        /// With --gather: only the shares with nothing left open; the rest keep running.
        #[arg(long, requires = "gather")]
        finished_only: bool,
        /// CaDiCaL's seed (0: its default).
        #[arg(long, default_value_t = 0)]
        seed: u32,
        /// The periods file to merge an answer into [default: results/<game>/periods.json].
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
    },
    /// Check a pattern (true values, comma separated) against the rule; exit 1 if it fails.
    Check {
        game: String,
        #[arg(long)]
        pattern: String,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
    },
}

#[derive(clap::Args, Debug)]
struct SubmitArgs {
    /// Work folder: manifest, job script, verdicts, logs (created if missing).
    #[arg(long)]
    work: PathBuf,
    /// Extra #SBATCH option for the script, e.g. --sbatch-arg=--partition=short (repeatable).
    #[arg(long, allow_hyphen_values = true)]
    sbatch_arg: Vec<String>,
    /// CPUs per task (the verifier's threads).
    #[arg(long, default_value_t = 1)]
    cpus_per_task: usize,
    /// At most this many tasks at once (--array=...%K).
    #[arg(long)]
    max_running: Option<usize>,
    /// Write the manifest and job script only; submit nothing.
    #[arg(long)]
    dry_run: bool,
    /// Wait for the job to end (sbatch --wait).
    #[arg(long)]
    wait: bool,
    /// No Slurm: run the tasks here, one after another.
    #[arg(long, conflicts_with_all = ["wait", "dry_run"])]
    run_here: bool,
    /// The grundy binary the tasks run [default: this one].
    #[arg(long)]
    grundy: Option<PathBuf>,
}

/// The question a cube campaign asks (`grundy sat cubes`, `grundy slurm cubes`).
#[derive(clap::Args, Debug)]
struct CubeQuestion {
    game: String,
    #[arg(long)]
    p: usize,
    /// Ask whether p can be the minimal period (every smaller period forbidden); needs a
    /// feasible pattern of p in the periods file.
    #[arg(long)]
    primitive: bool,
    /// Keep rotation symmetry (by default s[0] is a smallest value: 1/p of the box to refute).
    #[arg(long)]
    keep_rotation: bool,
}

#[derive(Subcommand, Debug)]
enum SlurmCommand {
    /// Deal a cube campaign (`grundy sat cubes`) into --shares share ledgers, one task each;
    /// `grundy merge DIR` gathers the finished ones back. Run again to continue the others.
    Cubes {
        #[command(flatten)]
        ask: CubeQuestion,
        /// Shares to deal, one task each (at the first submission; later ones reuse the plan).
        #[arg(long)]
        shares: usize,
        /// Conflicts a cube gets (see grundy sat cubes --conflicts).
        #[arg(long, default_value_t = 2000)]
        conflicts: u32,
        /// Pieces a split makes at most (see grundy sat cubes --fanout).
        #[arg(long, default_value_t = 2)]
        fanout: usize,
        /// Seconds a task runs before it saves and stops: a little under the job's --time
        /// (SIGTERM at the time limit saves too) [default: until its share is done].
        #[arg(long)]
        timeout: Option<f64>,
        /// Solver calls a task makes at most before it saves and stops (a task of fixed size).
        #[arg(long)]
        calls: Option<u64>,
        /// The campaign's ledger [default: results/<game>/cubes-p<P>-<question>.json].
        #[arg(long)]
        ledger: Option<PathBuf>,
        /// The periods file [default: results/<game>/periods.json].
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
        #[command(flatten)]
        submit: SubmitArgs,
    },
    /// Verify a binary values dump in --shards intervals, one task each.
    Verify {
        #[arg(long)]
        values: PathBuf,
        #[arg(long)]
        shards: usize,
        /// First heap to check [default: 0].
        #[arg(long, value_parser = parse_count)]
        from: Option<u64>,
        /// End of the range [default: the end of the dump].
        #[arg(long, value_parser = parse_count)]
        to: Option<u64>,
        #[command(flatten)]
        submit: SubmitArgs,
    },
    /// Decide periods A..B, one task per p (each a `grundy sat GAME --periods p..p`).
    Sat {
        game: String,
        #[arg(long)]
        periods: String,
        #[arg(long, value_enum, default_value = "cadical")]
        solver: grundy::sat::solve::SolverKind,
        #[arg(long, default_value_t = 300.0)]
        timeout: f64,
        /// Seconds of local search beside each solver call (see grundy sat --local).
        #[arg(long)]
        local_search: Option<f64>,
        /// Threads of local search per task (see grundy sat --local-threads).
        #[arg(long, default_value_t = 1)]
        local_threads: usize,
        /// Rotation symmetry breaking in every task (see grundy sat --break-rotation).
        #[arg(long)]
        break_rotation: bool,
        /// CaDiCaL copies per task (see grundy sat --portfolio); give --cpus-per-task for these
        /// and the local search threads together.
        #[arg(long, default_value_t = 1)]
        portfolio: usize,
        /// CaDiCaL alone in every task (see grundy sat --no-neighbourhoods).
        #[arg(long)]
        no_neighbourhoods: bool,
        /// Learned clauses carried across tasks in this shared folder (see grundy sat --lemmas).
        #[arg(long, value_name = "DIR")]
        lemmas: Option<PathBuf>,
        /// With --lemmas: each task also saves its file this often (a task killed outright,
        /// past Slurm's grace time or with its node, keeps what it learned until then).
        #[arg(long, value_name = "SECS", default_value_t = 600.0)]
        lemmas_every: f64,
        /// Run seeds A..B: one task per period and seed (see grundy sat --seed), so that an open
        /// period's search spreads over the array; `grundy merge` keeps every undecided run.
        #[arg(long, default_value = "0..0")]
        seeds: String,
        /// Submit only the tasks of periods that are still open: not decided in the periods file
        /// (--periods-file) nor by a verdict of this work folder. The plan keeps every period, so
        /// the same command, run again after `grundy merge`, submits what is left.
        #[arg(long)]
        open_only: bool,
        /// With --open-only: the periods file to read [default: results/<game>/periods.json].
        #[arg(long, requires = "open_only")]
        periods_file: Option<PathBuf>,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
        #[command(flatten)]
        submit: SubmitArgs,
    },
}

#[derive(Subcommand, Debug)]
enum PlotKind {
    /// How often each value occurs (log scale), common and rare apart.
    Histogram {
        /// `grundy stats --json` output or a `grundy run --out` report.
        stats: PathBuf,
        /// Output stem: writes STEM.svg and STEM.png [default: histogram].
        #[arg(long, default_value = "histogram")]
        out: PathBuf,
    },
    /// Rare values against their positions.
    Rares {
        /// Rare table (ours, JSON, or mvr's format).
        table: PathBuf,
        #[arg(long, default_value = "rares")]
        out: PathBuf,
    },
    /// G(n) against n: computed exactly for GAME, or read from a binary dump (--values).
    Values {
        /// Game code (ignored with --values).
        game: Option<String>,
        #[arg(long, value_parser = parse_count, default_value = "0")]
        from: u64,
        #[arg(long, value_parser = parse_count, default_value = "2^12")]
        to: u64,
        /// Binary values dump to read instead of computing.
        #[arg(long)]
        values: Option<PathBuf>,
        #[arg(long, default_value = "values")]
        out: PathBuf,
    },
    /// SAT frontier: status and seconds per period p.
    Sat {
        /// Periods JSON (`grundy sat`, results/<game>/periods.json).
        periods: PathBuf,
        #[arg(long, default_value = "sat")]
        out: PathBuf,
    },
    /// Values per second against threads, C baselines as reference lines.
    Scaling {
        /// `grundy bench speculative --json` output.
        bench: PathBuf,
        #[arg(long, default_value = "scaling")]
        out: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum BenchKind {
    /// Speculative generator on Officers against `run.sh speculative N`, thread scaling, and the
    /// verifier per core against `run.sh rare_value`.
    Speculative {
        #[arg(long, short = 'n', value_parser = parse_count, default_value = "2^24")]
        count: u64,
        /// Thread counts to measure.
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        threads: Vec<usize>,
        /// Take the best of this many runs of each (shared machines are noisy).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Values for the verifier comparison.
        #[arg(long, value_parser = parse_count, default_value = "2^20")]
        verify_count: u64,
        #[arg(long, default_value = "../shared/bench/run.sh")]
        baseline: PathBuf,
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// SAT periods from scratch against Riley's published statuses (the tests stop at 12).
    Sat {
        #[arg(long, default_value = "13..20")]
        periods: String,
        #[arg(long, value_enum, default_value = "cadical")]
        solver: grundy::sat::solve::SolverKind,
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        /// Periods decided at once; each takes two threads (local search beside the solver).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        #[arg(
            long,
            default_value = "../shared/reference/mvr_sat_feasible_period_patterns.txt"
        )]
        reference: PathBuf,
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Exact generator on Officers against `run.sh rare_value N`.
    Exact {
        #[arg(long, short = 'n', value_parser = parse_count, default_value = "2^21")]
        count: u64,
        /// The baselines' run.sh.
        #[arg(long, default_value = "../shared/bench/run.sh")]
        baseline: PathBuf,
        /// Also write the comparison as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
    },
}

/// Parses a count: `98304`, `2^21`, `1e6`, `1_000_000`.
fn parse_count(s: &str) -> Result<u64, String> {
    let t = s.replace('_', "");
    let parsed = if let Some((b, e)) = t.split_once('^') {
        b.parse::<u64>()
            .ok()
            .zip(e.parse::<u32>().ok())
            .and_then(|(b, e)| b.checked_pow(e))
    } else if let Some((m, e)) = t.split_once(['e', 'E']) {
        m.parse::<u64>()
            .ok()
            .zip(e.parse::<u32>().ok())
            .and_then(|(m, e)| 10u64.checked_pow(e).and_then(|p| p.checked_mul(m)))
    } else {
        t.parse().ok()
    };
    parsed.ok_or_else(|| format!("{s:?} is not a count (examples: 98304, 2^21, 1e6)"))
}

fn parse_game(code: &str) -> Result<Game> {
    code.parse::<Game>()
        .with_context(|| format!("bad game code {code:?}"))
}

/// Parses an inclusive range `A..B` of periods (A >= 1, A <= B).
fn parse_periods(s: &str) -> Result<std::ops::RangeInclusive<u64>> {
    let (a, b) = s
        .split_once("..")
        .with_context(|| format!("bad range {s:?} (expected A..B, e.g. 1..40)"))?;
    let (a, b): (u64, u64) = (a.trim().parse()?, b.trim().parse()?);
    if a == 0 || a > b {
        bail!("bad range {s:?}: need 1 <= A <= B");
    }
    Ok(a..=b)
}

/// `A..B` run seeds (0 allowed: the plain run).
fn parse_seeds(s: &str) -> Result<(u64, u64)> {
    let bad = || format!("bad seed range {s:?} (expected A..B with A <= B, e.g. 0..99)");
    let (a, b) = s.split_once("..").with_context(bad)?;
    let (a, b): (u64, u64) = (
        a.trim().parse().with_context(bad)?,
        b.trim().parse().with_context(bad)?,
    );
    if a > b {
        bail!(bad());
    }
    Ok((a, b))
}

/// `grundy sat ...`: the exact prefix gives the rare table, the space and the losing positions.
fn run_sat(what: SatCommand) -> Result<ExitCode> {
    use grundy::sat::{exclusions::excluded_by, witness::check_pattern};
    let (game, values) = match &what {
        SatCommand::Export { game, values, .. }
        | SatCommand::Excluded { game, values, .. }
        | SatCommand::Check { game, values, .. } => (parse_game(game)?, *values),
        SatCommand::Summary { game, out } => {
            return run_sat_summary(game.as_deref(), out.as_deref());
        }
        SatCommand::Cubes { .. } => return run_sat_cubes(what),
    };
    let prefix = exact_prefix(&game, values as usize)?;
    let rares: Vec<(u64, u16)> = prefix.rares().map(|(p, v)| (p as u64, v)).collect();
    match what {
        SatCommand::Export {
            p,
            out,
            primitive,
            break_rotation,
            ..
        } => {
            let problem = grundy::sat::periods::Problem {
                break_rotation,
                ..grundy::sat::periods::Problem::from_prefix(&prefix)
            };
            let e = problem.encode_question(p, primitive)?;
            let mut question = "feasible".to_string();
            if primitive {
                question = "primitive (every smaller period forbidden)".into();
            }
            if break_rotation {
                question += ", rotation symmetry broken (s[0] is a minimum)";
            }
            let comments = vec![
                format!(
                    "grundy: period {p} of {game}, {question}, sparse space {}, {} rare values from {values} exact values",
                    prefix.space(),
                    rares.len()
                ),
                "x(r,c) = 1 + 256 r + c: s[r] has compressed byte c (see src/sat/encode.rs)"
                    .to_string(),
            ];
            write_output(out.as_deref(), |w| e.cnf.write_dimacs(&comments, w))?;
        }
        SatCommand::Excluded { periods, .. } => {
            let range = parse_periods(&periods)?;
            let losing = grundy::sat::exclusions::losing_positions(prefix.values());
            for p in range {
                match excluded_by(p, &losing) {
                    Some(l) => println!("p={p} excluded: divides {} (losing position {l})", l + 1),
                    None => println!("p={p} open"),
                }
            }
        }
        SatCommand::Summary { .. } | SatCommand::Cubes { .. } => {
            unreachable!("answered above")
        }
        SatCommand::Check { pattern, .. } => {
            let s: Vec<u16> = pattern
                .split([',', ' '])
                .filter(|w| !w.is_empty())
                .map(str::parse)
                .collect::<Result<_, _>>()
                .context("bad pattern")?;
            match check_pattern(&game, prefix.space(), &rares, &s) {
                Ok(()) => println!(
                    "fixed point: period {} pattern of {game} is consistent with the rule",
                    s.len()
                ),
                Err(e) => {
                    eprintln!("grundy: not a fixed point: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `grundy sat cubes`: a cube-and-conquer campaign on one question, continued from its ledger.
fn run_sat_cubes(what: SatCommand) -> Result<ExitCode> {
    use grundy::sat::cubes::{Conquer, Cube, Ledger, Verdict, conquer};
    use grundy::sat::periods::{PeriodsFile, Problem, Status, minimal_period};
    let SatCommand::Cubes {
        ask:
            CubeQuestion {
                game,
                p,
                primitive,
                keep_rotation,
            },
        threads,
        conflicts,
        fanout,
        share_len,
        timeout,
        calls,
        within,
        ledger,
        save_every,
        deal,
        gather,
        finished_only,
        seed,
        out,
        values,
    } = what
    else {
        unreachable!("called for sat cubes only")
    };
    let game = parse_game(&game)?;
    if p == 0 {
        bail!("period must be at least 1");
    }
    if conflicts == 0 || conflicts > i32::MAX as u32 {
        bail!("--conflicts must be between 1 and {}", i32::MAX);
    }
    if !(2..=256).contains(&fanout) {
        bail!("--fanout must be between 2 and 256");
    }
    let root = within
        .as_deref()
        .map_or(Ok(Cube::full(p)), |w| Cube::parse(w, p))
        .map_err(|e| anyhow::anyhow!("--within: {e}"))?;
    grundy::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
    let prefix = exact_prefix(&game, values as usize)?;
    let problem = Problem {
        break_rotation: !keep_rotation,
        ..Problem::from_prefix(&prefix)
    };
    // The periods file first: refused before any work if it belongs to another game or table.
    let out = out.unwrap_or_else(|| PeriodsFile::default_path(&game));
    let header = PeriodsFile::new(&problem);
    let known = PeriodsFile::read(&out)?.unwrap_or_else(|| header.clone());
    if let Some(reason) = known.refuses(&header) {
        bail!("{}: {reason}", out.display());
    }
    let feasible = known.pattern(p as u64);
    if primitive && feasible.is_none() {
        bail!(
            "--primitive: {} has no feasible pattern of p = {p}; decide feasible first",
            out.display()
        );
    }
    let question = if primitive { "primitive" } else { "feasible" };
    let e = problem.encode_question(p, primitive)?;
    let fresh = Ledger::new(&game.to_string(), &e, question, !keep_rotation, &root);
    let path = ledger.unwrap_or_else(|| Ledger::path_beside(&out, p, question));
    let _lock = Ledger::lock(&path)?;
    let mut ledger = match Ledger::read(&path)? {
        Some(old) => {
            if let Some(reason) = old.refuses(&fresh) {
                bail!("{}: {reason}", path.display());
            }
            if within.is_some() && old.root != fresh.root {
                bail!(
                    "{}: a campaign inside {} already, not {}",
                    path.display(),
                    old.root,
                    fresh.root
                );
            }
            if let Some(parent) = &old.gathered_into {
                bail!(
                    "{}: this share was gathered into {parent}; run that ledger (or deal it again)",
                    path.display()
                );
            }
            if deal.is_none() && !gather {
                eprintln!(
                    "grundy: continuing {} ({} runs, {:.3e} of the box refuted, {} cubes open)",
                    path.display(),
                    old.runs,
                    old.refuted_share,
                    old.open.len()
                );
            }
            old
        }
        None if gather => bail!("{}: no cube ledger here to gather into", path.display()),
        None => fresh,
    };
    if let Some(k) = deal {
        return deal_cubes(&path, &mut ledger, k, &e, &game, p);
    }
    if gather {
        if ledger.shares.is_empty() && !finished_only {
            bail!("{}: no shares dealt out to gather", path.display());
        }
        for line in grundy::sat::shares::gather_shares(&path, &mut ledger, finished_only) {
            println!("  {line}");
        }
        if let Some(pattern) = &ledger.pattern {
            problem
                .check_witness("cadical", p as u64, pattern)
                .context("a gathered share's pattern")?;
        }
        ledger.save(&path)?;
        grundy::sat::shares::mark_gathered(&path, &ledger)?;
    }
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let run = Conquer {
        encoding: &e,
        threads,
        conflicts,
        fanout,
        deadline: timeout
            .map(|t| std::time::Instant::now() + std::time::Duration::from_secs_f64(t)),
        stop: &stop,
        seed,
        max_calls: calls,
        share_len,
    };
    let check = |bytes: &[u8]| {
        let pattern = e.expand(bytes);
        problem
            .check_witness("cadical", p as u64, &pattern)
            .map_err(|err| err.to_string())?;
        if primitive && minimal_period(&pattern) != p {
            return Err(format!(
                "minimal period {} in the primitive question",
                minimal_period(&pattern)
            ));
        }
        Ok(pattern)
    };
    // Progress in parts per billion of what this ledger holds (its box, less shares dealt out):
    // a share only grows, so its rate gives an ETA (a guess: the cubes left may be harder than
    // those refuted).
    let held = ledger.held();
    let mut display = grundy::progress::Progress::new(1_000_000_000, &format!("cubes p={p}"))
        .counting("ppb of the part held refuted");
    let mut report = |l: &Ledger| {
        l.save(&path).map_err(|e| e.to_string())?;
        let note = format!(
            "{} open, {} refutations, {} splits",
            l.open.len(),
            l.refutations,
            l.splits
        );
        display.set_with((l.refuted_share / held * 1e9) as u64, &note);
        Ok(())
    };
    let verdict = if ledger.verdict() == Verdict::Open && !gather {
        std::thread::scope(|scope| {
            scope.spawn(|| grundy::interrupt::relay(&stop));
            let verdict = conquer(
                &run,
                &mut ledger,
                &check,
                std::time::Duration::from_secs_f64(save_every.max(0.1)),
                &mut report,
            );
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            verdict
        })?
    } else {
        ledger.verdict()
    };
    display.finish();
    println!(
        "p={p} {question}: {} ({}; ledger {})",
        match &verdict {
            Verdict::Sat(_) => "SAT",
            Verdict::Unsat if ledger.root == "*" => "UNSAT",
            Verdict::Unsat => "UNSAT inside the cube (answers nothing about p)",
            Verdict::PartRefuted if ledger.share_of.is_some() => {
                "every cube of this share refuted (gather it into its ledger)"
            }
            Verdict::PartRefuted => "every cube here refuted, the rest is dealt out (gather it)",
            Verdict::Open => "open",
        },
        ledger.progress_line(),
        path.display()
    );
    if let Verdict::Sat(pattern) = &verdict {
        let s: Vec<String> = pattern.iter().map(ToString::to_string).collect();
        println!("pattern (checked): {}", s.join(","));
    }
    if let Some(result) = ledger.period_result(&e, feasible) {
        // An answer against a decided one means a solver is wrong: keep the file as it is.
        if let Some(old) = known.result(p as u64) {
            let (was, now) = if primitive {
                (old.primitive, result.primitive)
            } else {
                (old.feasible, result.feasible)
            };
            if was.decided() && now.decided() && was != now && was != Status::Excluded {
                bail!(
                    "p = {p} {question}: cubes say {now:?}, {} says {was:?}; not merged",
                    out.display()
                );
            }
        }
        PeriodsFile::merge_into(&out, &header, vec![result])?;
        println!("merged into {}", out.display());
    }
    if verdict == Verdict::Open && grundy::interrupt::requested() {
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// `grundy sat cubes --deal K`: the shares are written (each under its lock), then the ledger.
fn deal_cubes(
    path: &std::path::Path,
    ledger: &mut grundy::sat::cubes::Ledger,
    k: usize,
    e: &grundy::sat::encode::PeriodEncoding,
    game: &Game,
    p: usize,
) -> Result<ExitCode> {
    use grundy::sat::cubes::Ledger;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{}: not a file name", path.display()))?;
    let shares = ledger
        .deal(k, e.shifts(), name)
        .map_err(|reason| anyhow::anyhow!("{}: cannot deal: {reason}", path.display()))?;
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    let mut locks = Vec::new();
    for (file, share) in &shares {
        let share_path = dir.join(file);
        locks.push(Ledger::lock(&share_path)?);
        share.save(&share_path)?;
    }
    ledger.save(path)?;
    println!(
        "dealt into {} shares ({:.6e} of the box in all); {}",
        shares.len(),
        ledger.elsewhere,
        ledger.progress_line()
    );
    for (file, share) in &shares {
        let share_path = dir.join(file);
        println!(
            "  {}: {} cubes, {:.6e} of the box",
            share_path.display(),
            share.open.len(),
            share.held()
        );
    }
    let flags = question_flags(ledger.question == "primitive", !ledger.rotation_broken);
    let question: String = flags.map(|f| format!(" {f}")).collect();
    println!(
        "run each share (its cubes, under its lock) with: grundy sat cubes {game} --p {p}{question} \
         --ledger SHARE [--threads T --timeout S ...]; then gather them with the same command \
         and --ledger {} --gather",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `grundy sat summary`: the periods file as a table, open periods with their campaign so far.
fn run_sat_summary(game: Option<&str>, out: Option<&std::path::Path>) -> Result<ExitCode> {
    use grundy::sat::periods::PeriodsFile;
    let path = match (out, game) {
        (Some(out), _) => out.to_path_buf(),
        (None, Some(game)) => PeriodsFile::default_path(&parse_game(game)?),
        (None, None) => bail!("grundy sat summary needs GAME or --out FILE"),
    };
    let file = PeriodsFile::read(&path)?
        .with_context(|| format!("{}: no such periods file", path.display()))?;
    if let Some(game) = game
        && parse_game(game)?.to_string() != file.game
    {
        bail!(
            "{}: holds results for {}, not {game}",
            path.display(),
            file.game
        );
    }
    println!(
        "{}: {} periods of {} (rare table: {} values, the last at {}; {})",
        path.display(),
        file.results.len(),
        file.game,
        file.rare_values,
        file.last_rare,
        file.assumptions
    );
    let mut open = Vec::new();
    for r in &file.results {
        println!("{}", campaign_line(r));
        if r.is_open() {
            open.push(format!("{} ({:.0} s)", r.p, r.campaign_seconds()));
            cube_campaign_lines(&path, r);
        }
    }
    let decided = file.results.len() - open.len();
    let count = |f: &dyn Fn(&grundy::sat::periods::PeriodResult) -> bool| {
        file.results.iter().filter(|r| f(r)).count()
    };
    use grundy::sat::periods::Status;
    println!(
        "decided {decided}: {} can be the minimal period, {} feasible only by repeating a divisor, {} excluded by a losing position, {} unsat",
        count(&|r| r.primitive == Status::Sat),
        count(&|r| r.feasible == Status::Sat && r.primitive == Status::Unsat),
        count(&|r| r.feasible == Status::Excluded),
        count(&|r| r.feasible == Status::Unsat),
    );
    println!(
        "open {}: {}",
        open.len(),
        if open.is_empty() {
            "none".into()
        } else {
            open.join(", ")
        }
    );
    let last = file.results.last().map_or(0, |r| r.p);
    let gaps: Vec<String> = (1..=last)
        .filter(|&p| file.result(p).is_none())
        .map(|p| p.to_string())
        .collect();
    if !gaps.is_empty() {
        println!("not in the file (below {last}): {}", gaps.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}

/// The cube-and-conquer campaigns of an open period whose ledgers lie beside the periods file.
fn cube_campaign_lines(periods: &std::path::Path, r: &grundy::sat::periods::PeriodResult) {
    use grundy::sat::cubes::Ledger;
    for question in ["feasible", "primitive"] {
        let path = Ledger::path_beside(periods, r.p as usize, question);
        match Ledger::read(&path) {
            Ok(Some(l)) => {
                println!("      cubes ({question}): {}", l.progress_line());
                for line in grundy::sat::shares::share_lines(&path, &l) {
                    println!("        {line}");
                }
            }
            Ok(None) => {}
            Err(e) => println!("      cubes ({question}): {e}"),
        }
    }
}

/// One period of `grundy sat summary`: a decided one as `grundy sat` prints it (with the open
/// runs before the answer, if any); an open one with its campaign so far.
fn campaign_line(r: &grundy::sat::periods::PeriodResult) -> String {
    let c = r.campaign();
    if !r.is_open() {
        return match c.runs {
            1 => period_line(r, false),
            n => format!(
                "{} (after {} open runs, {:.0} s in all)",
                period_line(r, false),
                n - 1,
                c.seconds
            ),
        };
    }
    let seeds: Vec<String> = c.seeds.iter().map(u64::to_string).collect();
    let closest = c.closest.map_or(String::new(), |(bad, seed)| {
        format!("; closest: {bad} of {} residues bad (seed {seed})", r.p)
    });
    format!(
        "p={:<3} OPEN after {} run{} (seeds {}), {:.0} s in all, the longest {:.0} s{closest}; last: {}",
        r.p,
        c.runs,
        if c.runs == 1 { "" } else { "s" },
        seeds.join(" "),
        c.seconds,
        c.longest,
        r.how
    )
}

/// `grundy sat GAME --periods A..B`: decide each period and merge into the results file.
fn run_sat_periods(args: SatSolveArgs) -> Result<ExitCode> {
    use grundy::sat::periods::{Event, PeriodsFile, Problem, decide_all};
    let (Some(game), Some(periods)) = (&args.game, &args.periods) else {
        bail!(
            "grundy sat needs GAME and --periods A..B (or a subcommand: export, excluded, check)"
        );
    };
    let game = parse_game(game)?;
    let range = parse_periods(periods)?;
    let timeout = positive_seconds("--timeout", args.timeout)?;
    let lemma_every = positive_seconds("--lemmas-every", args.lemmas_every)?;
    if args.lemmas.is_some() && args.proof_dir.is_some() {
        bail!(
            "--lemmas and --proof-dir exclude each other: a proof must start from the encoding alone"
        );
    }
    for dir in [&args.proof_dir, &args.lemmas].into_iter().flatten() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    if args.all && range.start() != range.end() {
        bail!("--all enumerates one period: give --periods P..P");
    }
    let out = args.out.clone().unwrap_or_else(|| match args.all {
        true => PathBuf::from(format!(
            "results/{}/patterns-p{}.json",
            game.slug(),
            range.start()
        )),
        false => PeriodsFile::default_path(&game),
    });
    grundy::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
    let prefix = exact_prefix(&game, args.values as usize)?;
    let problem = Problem {
        local_search: args
            .local
            .filter(|s| *s >= 0.0 && s.is_finite())
            .map(std::time::Duration::from_secs_f64),
        local_threads: args.local_threads.max(1),
        break_rotation: args.break_rotation,
        portfolio: args.portfolio.max(1),
        proof_dir: args.proof_dir.clone(),
        seed: args.seed,
        neighbourhoods: !args.no_neighbourhoods,
        lemma_dir: args.lemmas.clone(),
        lemma_every,
        ..Problem::from_prefix(&prefix)
    };
    if args.all {
        let p = *range.start();
        if let Some(l) = grundy::sat::exclusions::excluded_by(p, &problem.losing) {
            bail!("p = {p} is excluded (p divides l + 1 for the losing position {l}): no pattern");
        }
        let found =
            grundy::sat::enumerate::enumerate(&problem, p as usize, Some(timeout), args.limit)?;
        let json = serde_json::to_string_pretty(&found)? + "\n";
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        write_output(Some(&out), |w| w.write_all(json.as_bytes()))?;
        println!(
            "p={p}: {} patterns up to rotation{} in {:.1} s ({} solver calls); by minimal period: {:?}; written to {}",
            found.classes.len(),
            if found.complete {
                ", all of them"
            } else if grundy::interrupt::requested() {
                " (interrupted: a lower bound)"
            } else {
                " (stopped at --timeout or --limit: a lower bound)"
            },
            found.seconds,
            found.solver_calls,
            found.by_minimal_period,
            out.display()
        );
        if grundy::interrupt::requested() {
            return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Refused before any work: a file that is not a periods file, or holds another game or
    // another rare table (its answers rest on other assumptions).
    let header = PeriodsFile::new(&problem);
    let known = PeriodsFile::read(&out)?.unwrap_or_else(|| header.clone());
    if let Some(reason) = known.refuses(&header) {
        bail!("{}: {reason}", out.display());
    }
    if args.solver == grundy::sat::solve::SolverKind::Varisat {
        eprintln!("grundy: note: varisat cannot be stopped, --timeout does not apply to it");
    }
    let periods: Vec<u64> = range
        .clone()
        .filter(|&p| !args.open_only || known.result(p).is_none_or(|r| r.is_open()))
        .collect();
    if args.open_only {
        eprintln!(
            "grundy: --open-only: {} of {} periods are decided in {}; {} to run",
            range.clone().count() - periods.len(),
            range.clone().count(),
            out.display(),
            periods.len()
        );
    }
    let display = SatDisplay::new(periods.len() as u64, timeout);
    // Each period goes into the file as it ends (read, merged and written under a lock, so
    // other runs on the same file keep theirs): a failure, a kill or a stop request later on
    // loses nothing already decided.
    let file = std::sync::Mutex::new(known.clone());
    let finished = std::sync::atomic::AtomicBool::new(false);
    let results = std::thread::scope(|scope| {
        scope.spawn(|| display.tick_until(&finished));
        let results = decide_all(
            &problem,
            periods,
            args.solver,
            Some(timeout),
            args.jobs,
            &known,
            &|event| {
                match event {
                    Event::Started(p) => display.started(p),
                    Event::Ended(r) => {
                        display.ended(r);
                        let merged = PeriodsFile::merge_into(&out, &header, vec![r.clone()])?;
                        *file
                            .lock()
                            .expect("no panic while the periods file is held") = merged;
                    }
                }
                Ok(())
            },
        );
        finished.store(true, std::sync::atomic::Ordering::Relaxed);
        results
    })?;
    display.finish();
    for r in &results {
        println!("{}", period_line(r, true));
    }
    let file = file
        .into_inner()
        .expect("no panic while the periods file is held");
    // An open period's campaign so far, as the file now records it.
    for r in file
        .results
        .iter()
        .filter(|r| results.iter().any(|x| x.p == r.p))
    {
        if r.is_open() && !r.earlier.is_empty() {
            let (runs, seconds) = (r.earlier.len() + 1, r.campaign_seconds());
            println!(
                "p={}: still open after {runs} runs, {seconds:.0} s in all",
                r.p
            );
        }
    }
    if grundy::interrupt::requested() {
        eprintln!(
            "grundy: interrupted: {} of {} periods ended and are in {} (the rest not started)",
            results.len(),
            display.total,
            out.display()
        );
        return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
    }
    Ok(ExitCode::SUCCESS)
}

/// The progress display of `grundy sat`: periods done, and those running with their seconds so
/// far, refreshed every second (a plain line every 10 s in a log), so a campaign of one period
/// for a day still shows it is alive.
struct SatDisplay {
    progress: std::sync::Mutex<Progress>,
    running: std::sync::Mutex<Vec<(u64, std::time::Instant)>>,
    done: std::sync::atomic::AtomicU64,
    total: u64,
    timeout: std::time::Duration,
}

impl SatDisplay {
    fn new(total: u64, timeout: std::time::Duration) -> SatDisplay {
        SatDisplay {
            progress: std::sync::Mutex::new(Progress::new(total, "sat").counting("periods")),
            running: std::sync::Mutex::new(Vec::new()),
            done: std::sync::atomic::AtomicU64::new(0),
            total,
            timeout,
        }
    }

    fn started(&self, p: u64) {
        if let Ok(mut running) = self.running.lock() {
            running.push((p, std::time::Instant::now()));
        }
    }

    fn ended(&self, r: &grundy::sat::periods::PeriodResult) {
        if let Ok(mut running) = self.running.lock() {
            running.retain(|(p, _)| *p != r.p);
        }
        self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.show(&format!("p={} {:?}", r.p, r.feasible));
    }

    /// Refreshes the display every second until `finished` is up (looked at every 50 ms, so
    /// the run does not wait for the display at its end).
    fn tick_until(&self, finished: &std::sync::atomic::AtomicBool) {
        let mut last = std::time::Instant::now();
        while !finished.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(50));
            if last.elapsed() < std::time::Duration::from_secs(1) {
                continue;
            }
            last = std::time::Instant::now();
            let running: Vec<String> = match self.running.lock() {
                Ok(running) => running
                    .iter()
                    .map(|(p, t)| format!("p={p} {:.0} s", t.elapsed().as_secs_f64()))
                    .collect(),
                Err(_) => return,
            };
            if !running.is_empty() {
                let limit = self.timeout.as_secs_f64();
                self.show(&format!(
                    "running {} (limit {limit:.0} s a question)",
                    running.join(", ")
                ));
            }
        }
    }

    fn show(&self, note: &str) {
        let done = self.done.load(std::sync::atomic::Ordering::Relaxed);
        if let Ok(mut progress) = self.progress.lock() {
            progress.set_with(done, note);
        }
    }

    fn finish(&self) {
        if let Ok(progress) = self.progress.lock() {
            progress.finish();
        }
    }
}

/// `secs` of option `flag` as a duration, if it is a positive number a duration can hold.
fn positive_seconds(flag: &str, secs: f64) -> Result<std::time::Duration> {
    match std::time::Duration::try_from_secs_f64(secs) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => bail!("{flag} must be a positive number of seconds"),
    }
}

/// The text summary of `grundy run`.
fn render_run(r: &grundy::run::RunReport) -> String {
    let verified = if r.verified_to == r.values {
        "all verified".to_string()
    } else {
        format!(
            "verified to {} (the rest are unverified claims)",
            r.verified_to
        )
    };
    let period = match &r.period {
        Some(c) => format!(
            "period {} from heap {} (proven: checked to {})",
            c.period, c.preperiod, c.checked_to
        ),
        None => format!(
            "no period in the first {} verified values ({} hash collisions)",
            r.period_searched_to, r.hash_collisions
        ),
    };
    let mut text = format!(
        "{}{period}\nvalues {} ({verified})\nrate {:.0} values/s over {:.1} s with {} threads ({} speculative, {} exact)\nrollbacks {}\n",
        r.stats.render_text(),
        r.values,
        r.values_per_sec,
        r.seconds,
        r.threads,
        r.speculative_values,
        r.exact_values,
        r.rollbacks.len(),
    );
    for rb in r.rollbacks.iter().take(5) {
        text += &format!(
            "  heap {}: claimed {}, exact {}{}\n",
            rb.heap,
            rb.claimed,
            rb.exact,
            if rb.new_rare { " (new rare value)" } else { "" }
        );
    }
    text
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Values {
            game,
            count,
            format,
            out,
            naive,
        } => {
            let game = parse_game(&game)?;
            let values = if naive {
                naive_values(&game, count as usize)?
            } else {
                exact_prefix(&game, count as usize)?.into_values()
            };
            let dump = ValuesDump {
                game,
                start: 0,
                exact: true,
                values,
            };
            write_output(out.as_deref(), |w| dump.write(format, w))?;
        }
        Command::Rares {
            game,
            count,
            format,
            out,
            check,
        } => {
            let game = parse_game(&game)?;
            let table = RareTable::from_generator(&exact_prefix(&game, count as usize)?);
            if let Some(path) = check {
                let other = RareTable::read(&path)?;
                if let Some(diff) = table.first_difference(&other) {
                    eprintln!(
                        "grundy: rare tables differ at {diff} (computed against {})",
                        path.display()
                    );
                    return Ok(ExitCode::from(1));
                }
                println!(
                    "rare tables agree: {} rows, last at {}",
                    table.rares.len(),
                    table.rares.last().map_or(0, |r| r.0)
                );
            } else {
                write_output(out.as_deref(), |w| {
                    w.write_all(table.render(format).as_bytes())
                })?;
            }
        }
        Command::Stats {
            game,
            count,
            json,
            out,
        } => {
            let game = parse_game(&game)?;
            let generator = exact_prefix(&game, count as usize)?;
            let stats = Stats::from_values(&game, generator.values(), generator.space());
            let text = if json {
                serde_json::to_string_pretty(&stats)? + "\n"
            } else {
                stats.render_text()
            };
            write_output(out.as_deref(), |w| w.write_all(text.as_bytes()))?;
        }
        Command::Run {
            game,
            to,
            threads,
            no_verify,
            speculate_from,
            chunk,
            block,
            checkpoint,
            resume,
            checkpoint_every,
            values_out,
            out,
            no_period,
            memory,
            spill_dir,
        } => {
            let game = parse_game(&game)?;
            positive_seconds("--checkpoint-every", checkpoint_every)?;
            let mut config = RunConfig::new(game.clone(), to);
            config.threads = threads.unwrap_or(config.threads).max(1);
            config.verify = !no_verify;
            config.period_search = !no_period;
            config.speculate_from = speculate_from;
            config.chunk = chunk.max(1) as usize;
            config.block = block.max(8);
            let checkpoint_path = checkpoint.clone();
            config.checkpoint = checkpoint;
            config.resume = resume;
            config.checkpoint_every = std::time::Duration::from_secs_f64(checkpoint_every);
            config.memory = memory.max(1) as usize;
            config.spill_dir = spill_dir;
            grundy::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
            let mut progress = Progress::new(to, "run");
            let (report, values) = grundy::run::run(config, &mut |p| {
                progress.set_with(
                    p.values,
                    &format!("verified to {} rollbacks {}", p.verified_to, p.rollbacks),
                );
            })?;
            progress.finish();
            if let Some(path) = values_out {
                let exact = report.verified_to == report.values;
                write_output(Some(&path), |w| {
                    write_bin(&game, 0, exact, values.claims(), w)
                })?;
            }
            if let Some(path) = out {
                write_output(Some(&path), |w| {
                    serde_json::to_writer_pretty(w, &report).map_err(std::io::Error::other)
                })?;
            }
            print!("{}", render_run(&report));
            if report.interrupted {
                let resume = match &checkpoint_path {
                    Some(c) => format!("{} holds them; add --resume to go on", c.display()),
                    None => "no --checkpoint was given, so a new run starts over".into(),
                };
                eprintln!(
                    "grundy: interrupted at {} of {to} values: {resume}",
                    report.values
                );
                return Ok(ExitCode::from(grundy::interrupt::EXIT_STATUS));
            }
        }
        Command::Verify {
            values,
            from,
            to,
            threads,
            out,
        } => {
            let dump = dump_from_zero(&values)?;
            check_interval(from, to, dump.values.len() as u64)?;
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads.unwrap_or(0))
                .build()?;
            let verdict = pool.install(|| verify_interval(&dump.game, &dump.values, from, to));
            let json = serde_json::to_string_pretty(&verdict)? + "\n";
            write_output(out.as_deref(), |w| w.write_all(json.as_bytes()))?;
            if !verdict.ok() {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Period { game, max, out } => {
            let game = parse_game(&game)?;
            let mut progress = Progress::new(max, "period");
            let outcome = grundy::period::find_period(&game, max, &mut |n| progress.set(n))?;
            progress.finish();
            match outcome {
                grundy::period::Outcome::Proven(cert) => {
                    let json = serde_json::to_string_pretty(&cert)? + "\n";
                    write_output(out.as_deref(), |w| w.write_all(json.as_bytes()))?;
                    eprintln!(
                        "{game}: period {} from heap {} (checked to {}, {:.3} s)",
                        cert.period, cert.preperiod, cert.checked_to, cert.seconds
                    );
                }
                grundy::period::Outcome::NotFound {
                    searched,
                    candidates_refuted,
                    hash_collisions,
                } => {
                    eprintln!(
                        "{game}: no period proven in the first {searched} values ({candidates_refuted} candidates refuted, {hash_collisions} hash collisions)"
                    );
                    return Ok(ExitCode::from(1));
                }
            }
        }
        Command::Sat {
            what: Some(what), ..
        } => return run_sat(what),
        Command::Sat { what: None, solve } => return run_sat_periods(solve),
        Command::Plot { kind } => run_plot(kind)?,
        Command::Slurm { what } => run_slurm(what)?,
        Command::Merge { dir, out } => return run_merge(&dir, out.as_deref()),
        Command::Bench {
            what:
                BenchKind::Speculative {
                    count,
                    threads,
                    repeat,
                    verify_count,
                    baseline,
                    json,
                },
        } => {
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
            let verifier =
                bench::best_of(repeat, || bench::time_verifier(&officers, verify_count))?;
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
        }
        Command::Bench {
            what:
                BenchKind::Sat {
                    periods,
                    solver,
                    timeout,
                    jobs,
                    reference,
                    json,
                },
        } => {
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
        }
        Command::Bench {
            what:
                BenchKind::Exact {
                    count,
                    baseline,
                    json,
                },
        } => {
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
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A binary dump that starts at heap 0, as the verifier needs.
fn dump_from_zero(path: &std::path::Path) -> Result<ValuesDump> {
    let dump = ValuesDump::read_bin(path)?;
    if dump.start != 0 {
        bail!(
            "{} starts at heap {}; the verifier needs the values from heap 0",
            path.display(),
            dump.start
        );
    }
    Ok(dump)
}

/// `[from, to)` must be non-empty and inside a dump of `len` heaps.
fn check_interval(from: u64, to: u64, len: u64) -> Result<()> {
    if from >= to || to > len {
        bail!("bad interval [{from}, {to}): the dump holds heaps 0..{len}");
    }
    Ok(())
}

/// One line per decided period: statuses, seconds, how, and the pattern if `with_pattern`.
fn period_line(r: &grundy::sat::periods::PeriodResult, with_pattern: bool) -> String {
    let pattern = match (&r.pattern, &r.closest) {
        (Some(s), _) if with_pattern => format!(" {s:?}"),
        (None, Some(near)) => format!(" (closest: {} of {} residues bad)", near.bad, r.p),
        _ => String::new(),
    };
    format!(
        "p={:<3} feasible {:<8} primitive {:<8} {:.1} s  {}{pattern}",
        r.p,
        format!("{:?}", r.feasible).to_lowercase(),
        format!("{:?}", r.primitive).to_lowercase(),
        r.seconds,
        r.how
    )
}

fn run_slurm(what: SlurmCommand) -> Result<()> {
    use grundy::cluster::{Manifest, SubmitOptions, array_spec};
    // With `slurm sat --open-only`: the periods file and the periods it decides.
    let mut decided: Option<(PathBuf, Vec<u64>)> = None;
    let (manifest, submit) = match what {
        what @ SlurmCommand::Cubes { .. } => plan_cubes(what)?,
        SlurmCommand::Verify {
            values,
            shards,
            from,
            to,
            submit,
        } => {
            let dump = dump_from_zero(&values)?;
            let len = dump.values.len() as u64;
            let (from, to) = (from.unwrap_or(0), to.unwrap_or(len));
            check_interval(from, to, len)?;
            if shards == 0 {
                bail!("--shards must be at least 1");
            }
            let grundy = submit
                .grundy
                .clone()
                .map_or_else(std::env::current_exe, Ok)?;
            let game = dump.game.to_string();
            let m = Manifest::verify(
                &submit.work,
                &grundy,
                &game,
                &values,
                (from, to),
                shards,
                submit.cpus_per_task.max(1),
            )?;
            (m, submit)
        }
        SlurmCommand::Sat {
            game,
            periods,
            solver,
            timeout,
            local_search,
            local_threads,
            values,
            break_rotation,
            portfolio,
            no_neighbourhoods,
            lemmas,
            lemmas_every,
            seeds,
            open_only,
            periods_file,
            submit,
        } => {
            let game = parse_game(&game)?;
            let range = parse_periods(&periods)?;
            let seeds = parse_seeds(&seeds)?;
            positive_seconds("--timeout", timeout)?;
            positive_seconds("--lemmas-every", lemmas_every)?;
            if open_only {
                use grundy::sat::periods::PeriodsFile;
                let path = periods_file.unwrap_or_else(|| PeriodsFile::default_path(&game));
                let known = PeriodsFile::read(&path)?.map_or_else(Vec::new, |f| {
                    let decided = |r: &&grundy::sat::periods::PeriodResult| !r.is_open();
                    f.results.iter().filter(decided).map(|r| r.p).collect()
                });
                decided = Some((path, known));
            }
            let mut args = vec![
                "--solver".to_string(),
                format!("{solver:?}").to_lowercase(),
                "--timeout".into(),
                timeout.to_string(),
                "--values".into(),
                values.to_string(),
            ];
            if let Some(l) = local_search {
                args.extend(["--local".to_string(), l.to_string()]);
            }
            if local_threads > 1 {
                args.extend(["--local-threads".to_string(), local_threads.to_string()]);
            }
            if break_rotation {
                args.push("--break-rotation".into());
            }
            if portfolio > 1 {
                args.extend(["--portfolio".to_string(), portfolio.to_string()]);
            }
            if no_neighbourhoods {
                args.push("--no-neighbourhoods".into());
            }
            if let Some(dir) = lemmas {
                // Tasks may start elsewhere: give them the folder as an absolute path.
                let dir = std::path::absolute(&dir)
                    .with_context(|| format!("cannot resolve {}", dir.display()))?;
                args.extend(["--lemmas".to_string(), dir.display().to_string()]);
                args.extend(["--lemmas-every".to_string(), lemmas_every.to_string()]);
            }
            let grundy = submit
                .grundy
                .clone()
                .map_or_else(std::env::current_exe, Ok)?;
            let m = Manifest::sat(
                &submit.work,
                &grundy,
                &game.to_string(),
                (*range.start(), *range.end()),
                seeds,
                &args,
            )?;
            (m, submit)
        }
    };
    let options = SubmitOptions {
        sbatch_args: submit.sbatch_arg.clone(),
        cpus_per_task: submit.cpus_per_task.max(1),
        max_running: submit.max_running,
        wait: submit.wait,
    };
    let work = &submit.work;
    let mut manifest = manifest.open(work, &options)?;
    let mut todo = manifest.not_done(work);
    let total = manifest.tasks.len();
    let mut done = format!("all {total} tasks of {} are done", work.display());
    if let Some((path, known)) = decided {
        let skip = manifest.decided_tasks(work, &known);
        let before = todo.len();
        todo.retain(|i| !skip.contains(i));
        println!(
            "--open-only: {} tasks left out, their periods decided in {} or by this folder's verdicts",
            before - todo.len(),
            path.display()
        );
        done = format!("every task of {} is done or not needed", work.display());
    }
    if todo.is_empty() {
        println!("{done}; combine them with: grundy merge {}", work.display());
        return Ok(());
    }
    println!(
        "{} of {total} tasks to run: {}",
        todo.len(),
        array_spec(&todo)
    );
    if submit.dry_run {
        println!(
            "wrote {} (not submitted)",
            work.join("job.sbatch").display()
        );
    } else if submit.run_here {
        manifest.run_here(&todo)?;
        println!(
            "ran {} tasks here; combine them with: grundy merge {}",
            todo.len(),
            work.display()
        );
    } else {
        let id = manifest.submit(work, &todo, &options)?;
        let state = if submit.wait { "ended" } else { "submitted" };
        println!(
            "job {id} {state}; combine the verdicts with: grundy merge {}",
            work.display()
        );
    }
    Ok(())
}

/// The flags of `grundy sat cubes` that ask a campaign's question.
fn question_flags(primitive: bool, keep_rotation: bool) -> impl Iterator<Item = &'static str> {
    [
        primitive.then_some("--primitive"),
        keep_rotation.then_some("--keep-rotation"),
    ]
    .into_iter()
    .flatten()
}

/// `grundy slurm cubes`: the plan of the work folder if it has one (the shares dealt then), or a
/// new deal of the campaign's open cubes, made by `grundy sat cubes --deal` itself.
fn plan_cubes(what: SlurmCommand) -> Result<(grundy::cluster::Manifest, SubmitArgs)> {
    use grundy::cluster::{Manifest, Work};
    use grundy::sat::cubes::Ledger;
    let SlurmCommand::Cubes {
        ask:
            CubeQuestion {
                game,
                p,
                primitive,
                keep_rotation,
            },
        shares,
        conflicts,
        fanout,
        timeout,
        calls,
        ledger,
        out,
        values,
        submit,
    } = what
    else {
        unreachable!("called for slurm cubes only")
    };
    let game = parse_game(&game)?;
    if shares == 0 {
        bail!("--shares must be at least 1");
    }
    let absolute = |path: PathBuf| {
        std::path::absolute(&path).with_context(|| format!("cannot resolve {}", path.display()))
    };
    let out =
        absolute(out.unwrap_or_else(|| grundy::sat::periods::PeriodsFile::default_path(&game)))?;
    let question = if primitive { "primitive" } else { "feasible" };
    let ledger = absolute(ledger.unwrap_or_else(|| Ledger::path_beside(&out, p, question)))?;
    let mut cube_args: Vec<String> = vec!["sat".into(), "cubes".into(), game.to_string()];
    cube_args.extend(["--p".into(), p.to_string()]);
    cube_args.extend(question_flags(primitive, keep_rotation).map(String::from));
    cube_args.extend(["--out".into(), out.display().to_string()]);
    cube_args.extend(["--values".into(), values.to_string()]);
    let on_ledger = |extra: &[&str]| -> Vec<String> {
        let mut args = cube_args.clone();
        args.extend(["--ledger".into(), ledger.display().to_string()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let work = Work::Cubes {
        game: game.to_string(),
        p: p as u64,
        ledger: ledger.clone(),
        gather: on_ledger(&["--gather", "--finished-only"]),
    };
    let mut task_args = cube_args.clone();
    task_args.extend(["--threads".into(), submit.cpus_per_task.max(1).to_string()]);
    task_args.extend(["--conflicts".into(), conflicts.to_string()]);
    task_args.extend(["--fanout".into(), fanout.to_string()]);
    if let Some(t) = timeout {
        task_args.extend(["--timeout".into(), t.to_string()]);
    }
    if let Some(n) = calls {
        task_args.extend(["--calls".into(), n.to_string()]);
    }
    if Manifest::path(&submit.work).exists() {
        let old = Manifest::load(&submit.work)?;
        if old.work != work {
            bail!(
                "{} holds another job (its manifest.json differs); use another --work folder",
                submit.work.display()
            );
        }
        println!(
            "{}: the plan made before ({} shares), with the task options given now",
            submit.work.display(),
            old.tasks.len()
        );
        let manifest = Manifest::replan_cubes(&submit.work, old, &task_args)?;
        return Ok((manifest, submit));
    }
    // The deal goes through `grundy sat cubes --deal` itself: its lock, checks and atomic writes.
    run_args(&on_ledger(&["--deal", &shares.to_string()]))?;
    let dealt = Ledger::read(&ledger)?.with_context(|| format!("{}: gone", ledger.display()))?;
    let name = ledger
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let this_deal = format!("{name} deal {} ", dealt.deals);
    let share_files: Vec<PathBuf> = dealt
        .shares
        .iter()
        .filter(|n| n.id.starts_with(&this_deal))
        .map(|n| grundy::sat::shares::share_path(&ledger, n))
        .collect();
    let grundy = submit
        .grundy
        .clone()
        .map_or_else(std::env::current_exe, Ok)?;
    let manifest = Manifest::cubes(&grundy, work, &share_files, &task_args)?;
    Ok((manifest, submit))
}

/// Runs `grundy ARGS` in this process (the cluster commands reuse `sat cubes` this way).
fn run_args(args: &[String]) -> Result<ExitCode> {
    let cli =
        Cli::try_parse_from(std::iter::once("grundy".to_string()).chain(args.iter().cloned()))
            .map_err(|e| {
                anyhow::anyhow!(
                    "grundy {}: {}",
                    args.join(" "),
                    e.to_string().lines().next().unwrap_or("bad arguments")
                )
            })?;
    run(cli)
}

fn run_merge(dir: &std::path::Path, out: Option<&std::path::Path>) -> Result<ExitCode> {
    use grundy::cluster::{MergeReport, array_spec, merge};
    match merge(dir, out)? {
        MergeReport::Cubes(m) => {
            println!(
                "{} p={}: {} shares, gathering the finished ones into {}",
                m.game,
                m.p,
                m.tasks,
                m.ledger.display()
            );
            let code = run_args(&m.gather)?;
            if !m.unfinished.is_empty() {
                println!(
                    "tasks with shares unfinished (submit again to continue them): {}",
                    array_spec(&m.unfinished)
                );
            }
            return Ok(code);
        }
        MergeReport::Verify(m) => {
            println!(
                "{}: verified [{}, {}) of [{}, {}){}",
                m.game,
                m.from,
                m.verified_to,
                m.from,
                m.to,
                if m.complete { ": complete" } else { "" }
            );
            if !m.missing.is_empty() {
                println!(
                    "missing tasks (no verdict; submit again to run only these): {}",
                    array_spec(&m.missing)
                );
            }
            for (task, w) in &m.failed {
                println!(
                    "task {task}: heap {} claimed {} but is {}",
                    w.heap, w.claimed, w.exact
                );
            }
            if m.failed.len() > 1 {
                println!(
                    "(each interval is checked against the claims before it: failures after the first may follow from it)"
                );
            }
            if let Some(w) = m.first_wrong {
                println!(
                    "first wrong value: heap {} (claimed {}, exact {})",
                    w.heap, w.claimed, w.exact
                );
                if let Some(c) = &m.rollback_checkpoint {
                    println!(
                        "rolled back: continue with grundy run {} --to {} --checkpoint {} --resume",
                        m.game,
                        m.to,
                        c.display()
                    );
                }
                return Ok(ExitCode::from(1));
            }
        }
        MergeReport::Sat(m) => {
            for r in &m.results {
                println!("{}", period_line(r, false));
            }
            if !m.not_needed.is_empty() {
                println!(
                    "tasks not needed (no verdict, their period decided): {}",
                    array_spec(&m.not_needed)
                );
            }
            if !m.missing.is_empty() {
                println!(
                    "missing tasks (no verdict; submit again to run only these): {}",
                    array_spec(&m.missing)
                );
            }
            println!(
                "merged {} answers into {}",
                m.results.len(),
                m.out.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_plot(kind: PlotKind) -> Result<()> {
    use grundy::plot::{self, Histogram, RarePoints, SatFrontier, Scaling, ValueCloud};
    let written = match kind {
        PlotKind::Histogram { stats, out } => plot::render(&Histogram::read(&stats)?, &out)?,
        PlotKind::Rares { table, out } => plot::render(&RarePoints::read(&table)?, &out)?,
        PlotKind::Sat { periods, out } => plot::render(&SatFrontier::read(&periods)?, &out)?,
        PlotKind::Scaling { bench, out } => plot::render(&Scaling::read(&bench)?, &out)?,
        PlotKind::Values {
            game,
            from,
            to,
            values,
            out,
        } => {
            if from >= to {
                bail!("bad range: --from {from} must be below --to {to}");
            }
            let cloud = match (values, game) {
                (Some(path), _) => ValueCloud::from_dump(&ValuesDump::read_bin(&path)?, from, to),
                (None, Some(game)) => ValueCloud::compute(&parse_game(&game)?, from, to)?,
                (None, None) => bail!("plot values needs a GAME or --values DUMP"),
            };
            if cloud.points.is_empty() {
                bail!("no heaps in [{from}, {to}) to draw");
            }
            plot::render(&cloud, &out)?
        }
    };
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so a print into a closed pipe (`grundy sat excluded ... | head`)
    // panics with a backtrace. Like any Unix filter, die of the signal instead: quietly, with the
    // usual status. Files are written atomically, so nothing half-written is left; a long run
    // keeps its last checkpoint.
    #[cfg(unix)]
    // SAFETY: called first thing, before any thread exists, with the default disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line: clap's first line, without its usage block.
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ");
            eprintln!("grundy: error: {first} (see grundy --help)");
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            let broken_pipe = e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("grundy: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("98304"), Ok(98304));
        assert_eq!(parse_count("2^21"), Ok(2097152));
        assert_eq!(parse_count("1e6"), Ok(1_000_000));
        assert_eq!(parse_count("1_000"), Ok(1000));
        assert!(parse_count("lots").is_err());
        assert!(parse_count("2^99").is_err());
    }
}
