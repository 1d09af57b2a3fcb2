//! `grundy`: the command line. This file declares the arguments (clap) and sends each command to
//! its runner in [`commands`], which checks the input, calls the library and prints; no
//! algorithm lives in the binary.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use grundy::Game;
use grundy::io::{TableFormat, ValuesFormat};

mod commands;

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
    Values(ValuesArgs),
    /// Print or save the rare table (position, value) found in the first N values.
    Rares(RaresArgs),
    /// Statistics of the first N values: histogram, largest value, losing positions, rare values.
    Stats(StatsArgs),
    /// Long run: speculative values, verified in parallel, rolled back if ever wrong, checkpointed.
    Run(RunArgs),
    /// Verify claimed values [FROM, TO) of a binary dump; writes a JSON verdict. Exit 1 if one is wrong.
    Verify(VerifyArgs),
    /// Find the period of a game from scratch and prove it (Guy-Smith); writes a JSON certificate.
    Period(PeriodArgs),
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

// The arguments of `values` above.
#[derive(clap::Args, Debug)]
struct ValuesArgs {
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
}

// The arguments of `rares` above.
#[derive(clap::Args, Debug)]
struct RaresArgs {
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
}

// The arguments of `stats` above.
#[derive(clap::Args, Debug)]
struct StatsArgs {
    game: String,
    #[arg(long, short = 'n', value_parser = parse_count)]
    count: u64,
    /// Print JSON (with the full histogram) instead of a text summary.
    #[arg(long)]
    json: bool,
    #[arg(long)]
    out: Option<PathBuf>,
}

// The arguments of `run` above.
#[derive(clap::Args, Debug)]
struct RunArgs {
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
}

// The arguments of `verify` above.
#[derive(clap::Args, Debug)]
struct VerifyArgs {
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
}

// The arguments of `period` above.
#[derive(clap::Args, Debug)]
struct PeriodArgs {
    game: String,
    /// Give up after this many values (exit 1: no period proven).
    #[arg(long, value_parser = parse_count, default_value = "2^26")]
    max: u64,
    /// Write the certificate here (atomically) instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct SatSolveArgs {
    #[command(flatten)]
    solve: SolverArgs,
    game: Option<String>,
    /// Inclusive range of periods, e.g. 1..40.
    #[arg(long)]
    periods: Option<String>,
    /// Periods decided at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Run seed for the local search and CaDiCaL. 0 repeats the default run; give another to
    /// search an open period afresh (the JSON keeps each earlier run under `earlier`).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Enumerate every pattern of one period up to rotation (blocking clauses), written as JSON
    /// to --out [default: results/<game>/patterns-p<P>.json] as classes come. A list already
    /// there is gone on from (checked, then blocked): the same command continues a run stopped
    /// at --timeout, --limit or by Ctrl-C. --timeout is for the whole run.
    #[arg(long)]
    all: bool,
    /// Only the periods of --periods that the --out file does not decide yet (the next run of a
    /// campaign over a range: decided periods are not solved again).
    #[arg(long, conflicts_with = "all")]
    open_only: bool,
    /// With --all: stop once the list holds this many rotation classes.
    #[arg(long, default_value_t = 100_000)]
    limit: usize,
    /// Write a certificate for every UNSAT answer here: the CNF and a DRAT proof (cadical) or a
    /// varisat proof, checked at once by varisat-checker (varisat). With --all, a complete list
    /// is then proved complete from its classes alone (one call, of at most --timeout), and the
    /// list notes the proof.
    #[arg(long)]
    proof_dir: Option<PathBuf>,
    /// CaDiCaL's proof format in --proof-dir: DRAT (checked when GRUNDY_DRAT_CHECKER names a
    /// checker) or LRAT (checked at once by grundy's own LRAT checker).
    #[arg(long, value_enum, default_value = "drat", requires = "proof_dir")]
    proof_format: grundy::sat::solve::ProofFormat,
    /// Merge the results into this JSON file [default: results/<game>/periods.json].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// How `grundy sat` runs a question, and so every task of `grundy slurm sat`.
#[derive(clap::Args, Debug)]
struct SolverArgs {
    #[arg(long, value_enum, default_value = "cadical")]
    solver: grundy::sat::solve::SolverKind,
    /// Seconds per solver call (CaDiCaL and splr; varisat cannot be stopped).
    #[arg(long, default_value_t = 300.0)]
    timeout: f64,
    /// Seconds of local search beside each solver call (0: none) [default: --timeout].
    #[arg(long)]
    local: Option<f64>,
    /// Threads of local search beside the solver, each with its own seed.
    #[arg(long, default_value_t = 1)]
    local_threads: usize,
    /// Break rotation symmetry (s[0] is a smallest value of the pattern).
    #[arg(long)]
    break_rotation: bool,
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
    /// on each other) [DIR default: `lemmas/` beside the --out file; for `slurm sat`, in the
    /// work folder]. Not with --proof-dir: a proof starts from the encoding alone.
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    lemmas: Option<Option<PathBuf>>,
    /// With --lemmas: also save the file this often while a question runs, so a run killed
    /// outright (SIGKILL, a lost machine) loses at most this much learning.
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    lemmas_every: f64,
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
    /// Check an LRAT proof (text or binary, as `--proof-format lrat` writes it) of the DIMACS
    /// CNF's unsatisfiability, with grundy's own LRAT checker (no search; shares no code with
    /// the solver or the encoder). One line; exit 0 when accepted, 1 when refused, 2 when it
    /// cannot check (a file unreadable, a CNF malformed): the protocol of GRUNDY_DRAT_CHECKER.
    CheckLrat {
        cnf: PathBuf,
        proof: PathBuf,
        /// Once the proof is accepted, write it here as text LRAT in LRAT's own numbering (the
        /// CNF's clauses 1..N, the proof's from N + 1), for a third party's LRAT checker
        /// (cake_lpr, drat-trim's lrat-check): CaDiCaL's numbering through its API is read
        /// from the proof by grundy's checker only.
        #[arg(long, value_name = "OUT")]
        standard: Option<PathBuf>,
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
        /// Under each value-bound ladder, a table of its bands: the chain the bound rests on,
        /// then the bands above it tried without an answer (what each cost, how it was asked,
        /// its pieces, its proof or the lemmas kept), as Markdown rows.
        #[arg(long)]
        rungs: bool,
    },
    /// Cube-and-conquer on one question: cubes of the value box tried by an incremental
    /// CaDiCaL per thread under a conflict budget, split when they outlast it. Resumable: the
    /// queue and the refuted share live in a ledger, saved atomically as it goes; an answer for
    /// the whole box is merged into the periods file.
    Cubes(CubesArgs),
    /// Value bounds on one question: "a pattern with every value below V?" for V = --from,
    /// --from + --step, ... up to --to (512: the question itself), each rung one CaDiCaL call. An
    /// UNSAT rung says every pattern has a value >= V; a pattern ends the ladder (and is merged
    /// into the periods file). Each rung asks only about the band above the highest refuted
    /// bound, with a largest value first (with --keep-rotation: every value below V). Kept
    /// beside it as bounds-p<P>-<question>.json; a later run goes on above that bound. Bands
    /// that may outlast their machine: `sat cubes --climb STEP` (resumable cube campaigns).
    // Boxed: its flags are the most of any command, and the enum of commands is as large as
    // its largest variant.
    Bounds(Box<BoundsArgs>),
    /// What lemma files (`--lemmas`) hold: their clauses by length, checked against their
    /// headers, and each unit in words (`s[3] != 40`: true of every pattern of the question the
    /// file was learned on, a piece of a band say), residue by residue.
    Lemmas {
        game: String,
        /// The period of the question the files were learned on.
        #[arg(long)]
        p: usize,
        /// Lemma files, as `--lemmas` keeps them (`results/<game>/lemmas/*.lemmas`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
    },
    /// Check a pattern (true values, comma separated) against the rule, or the one a periods
    /// file holds for period P (its pattern, or the closest state of an open period's campaign):
    /// every residue where the rule fails is named; exit 1 if any does.
    Check {
        game: String,
        #[arg(long, required_unless_present = "p", conflicts_with = "p")]
        pattern: Option<String>,
        /// Take the pattern of period P from the periods file: its checked pattern, or for an
        /// open period the closest state a local search reached (how near misses miss).
        #[arg(long)]
        p: Option<u64>,
        /// With --p: the periods file [default: results/<game>/periods.json].
        #[arg(long, requires = "p")]
        periods_file: Option<PathBuf>,
        #[arg(long, value_parser = parse_count, default_value = "2^16")]
        values: u64,
    },
}

// The arguments of `cubes` above.
#[derive(clap::Args, Debug)]
struct CubesArgs {
    #[command(flatten)]
    ask: PeriodQuestion,
    /// Solver threads, each its own CaDiCaL [default: the cores here].
    #[arg(long)]
    threads: Option<usize>,
    /// Conflicts a cube gets before it is split (2000: on a p = 27 cube, 28 s where 20000
    /// refuted 0.023% in 600 s; see docs/periods-by-sat.md).
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
    /// Ask about one band F..V of the bounds ladder (`sat bounds`): a pattern whose largest
    /// value lies in it, with a largest value first; its UNSAT is recorded in the ladder as a
    /// rung, so a band too hard for one solver call can be cut into cubes and dealt to a
    /// cluster. Ledger: cubes-p<P>-<question>-band<F>-<V>.json.
    #[arg(long, value_parser = parse_band, conflicts_with_all = ["within", "keep_rotation"])]
    band: Option<grundy::sat::bounds::Band>,
    /// Climb the bounds ladder band after band: from its highest refuted bound F, the band
    /// F..F+STEP (a band ledger starting at F is continued, whatever its width),
    /// then the next, until a pattern, the whole question refuted (512), or a band left open
    /// by --timeout (for the whole climb), --calls (for each band) or a stop signal.
    #[arg(
        long,
        value_name = "STEP",
        value_parser = clap::value_parser!(u16).range(1..=512),
        conflicts_with_all = ["band", "within", "keep_rotation", "ledger", "deal", "gather"]
    )]
    climb: Option<u16>,
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
    /// Certify the ledger's refutations instead of solving: prove every region in its region
    /// log again with a DRAT proof, checked by GRUNDY_DRAT_CHECKER's command, and check that
    /// the regions cover the campaign's box. Resumable (NAME.certificate.json); runs beside
    /// the campaign, which may go on meanwhile.
    #[arg(long, conflicts_with_all = ["climb", "deal", "gather"])]
    certify: bool,
    /// Go on although the region log is missing or cut: it is set aside and a new one begun
    /// (the regions it held, and the share they refuted, can then not be certified).
    #[arg(long, conflicts_with_all = ["certify", "deal", "gather"])]
    drop_region_log: bool,
    /// Put the share refuted with no region logged (before logging began, or under a dropped
    /// log) back among the open cubes, to be refuted again with its regions logged, then run
    /// on: the campaign's answer can then be certified.
    #[arg(long, conflicts_with_all = ["climb", "certify", "deal", "gather"])]
    reopen_unlogged: bool,
    /// With --certify: the solver that proves each region. cadical writes DRAT for the
    /// checker in GRUNDY_DRAT_CHECKER (a third party's, such as rate); varisat writes its own
    /// proofs, checked in-process by varisat-checker (its author's), with no external checker.
    #[arg(long, requires = "certify", default_value = "cadical")]
    prover: grundy::sat::solve::SolverKind,
    /// With --certify and --prover cadical: the proofs' format. drat: read by
    /// GRUNDY_DRAT_CHECKER's command; lrat: binary LRAT, checked by grundy's own LRAT checker
    /// with no search (no external checker needed).
    #[arg(long, value_enum, requires = "certify", default_value = "drat")]
    proof_format: grundy::sat::solve::ProofFormat,
    /// With --certify: regions proved by one solver call and one check of its proof (the CNF
    /// loaded and parsed once for all of them: Officers p = 39, 19.4 s a region one at a time,
    /// 11.1 s ten at a time, 9.0 s thirty at a time). A call outlasting the deadline is lost
    /// whole, so a smaller batch wastes less at --timeout.
    #[arg(
        long,
        requires = "certify",
        default_value_t = 16,
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    batch: u64,
    /// CaDiCaL's seed (0: its default).
    #[arg(long, default_value_t = 0)]
    seed: u32,
    /// CaDiCaL's configuration for every thread (see grundy sat bounds --preset).
    #[arg(long, value_enum, default_value = "default")]
    preset: grundy::sat::solve::Preset,
    /// The periods file to merge an answer into [default: results/<game>/periods.json].
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long, value_parser = parse_count, default_value = "2^16")]
    values: u64,
}

// The arguments of `bounds` above. `proofs`: where proofs go, or a chain's `--plan`, which
// makes none but weighs its calls by the format's pace.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("proofs").multiple(true).args(["proof_dir", "plan"])))]
struct BoundsArgs {
    #[command(flatten)]
    ask: PeriodQuestion,
    /// The first bound (a true value).
    #[arg(long, default_value_t = 64)]
    from: u16,
    /// The rise from one bound to the next.
    #[arg(long, default_value_t = 32)]
    step: u16,
    /// The last bound, at most 512 (Riley's: the whole question). With --prove-chain: prove
    /// only the rungs below it (at most), the foot of the chain, for a short call on a lent
    /// machine.
    #[arg(long, default_value_t = 512)]
    to: u16,
    /// Seconds a rung may take; the ladder stops at the first rung without an answer.
    #[arg(long, default_value_t = 300.0)]
    timeout: f64,
    /// CaDiCaL's seed (0: its default; rungs with --proof-dir keep the default, but for
    /// --lemmas, whose proofs carry them).
    #[arg(long, default_value_t = 0)]
    seed: u32,
    /// CaDiCaL's configuration. `unsat` refuted three of Officers' bands 3-21% faster than
    /// `default` (a proof run keeps the default; with --proof-dir, only with --lemmas).
    #[arg(long, value_enum, default_value = "default")]
    preset: grundy::sat::solve::Preset,
    /// Certify every UNSAT rung here: its CNF and a DRAT proof, checked at once when
    /// GRUNDY_DRAT_CHECKER names a checker.
    #[arg(long)]
    proof_dir: Option<PathBuf>,
    /// Climb no further: give every refuted rung the ladder's bound rests on a DRAT proof in
    /// --proof-dir, checked by GRUNDY_DRAT_CHECKER (rungs proved already, and bands answered by
    /// cube campaigns, which `sat cubes --certify` proves, are skipped). --timeout is per rung.
    #[arg(long, requires = "proofs")]
    prove_chain: bool,
    /// With --prove-chain: print the calls it would make (each with what the climb took over
    /// it, in the order they would run with these --pieces, --cut, --to and --jobs), then stop:
    /// no solver, nothing written, no lock taken, --proof-dir not needed. Why: a chain runs for
    /// days in stops and restarts, and what is left (which parts of which pieces) is otherwise
    /// only found by reading the ladder's JSON; the same command with --plan tells it, also
    /// while a run is at work on the ladder.
    #[arg(long, requires = "prove_chain")]
    plan: bool,
    /// The proofs' format: DRAT (checked by GRUNDY_DRAT_CHECKER, rate or dratify) or LRAT
    /// (binary, checked by grundy's own LRAT checker, `grundy sat check-lrat`; no search, so
    /// a chain's proofs cost about a third of DRAT's with rate).
    #[arg(long, value_enum, default_value = "drat", requires = "proofs")]
    proof_format: grundy::sat::solve::ProofFormat,
    /// Keep each proof's CNF and proof file in --proof-dir once checked (the ladder's note then
    /// says "kept"), for a third party's checker (`sat check-lrat --standard` writes an LRAT
    /// proof in LRAT's own numbering). Without it they are removed once checked: a hard
    /// rung's proof runs to gigabytes, and the check is what counts.
    #[arg(long, requires = "proof_dir")]
    keep_proofs: bool,
    /// With --prove-chain: rungs (or pieces) proved at once, each its own CaDiCaL and checker
    /// (their proofs, gigabytes for hard rungs, lie in --proof-dir side by side until checked).
    #[arg(long, default_value_t = 1, requires = "prove_chain")]
    jobs: usize,
    /// Ask each band in pieces, one fresh CaDiCaL call per value of its largest value, each
    /// piece saved in the ladder as it ends, so a run stopped (or a machine gone) loses one
    /// piece at most and the next run goes on from there; --timeout is then per piece. With
    /// --prove-chain: prove each band so, each piece's proof checked and saved (--jobs: pieces
    /// side by side). --threads J: J pieces of a band at once.
    #[arg(long, conflicts_with = "incremental")]
    pieces: bool,
    /// With --pieces: ask each piece as two halves, s[R] below the value V and at least V
    /// (R:V, as 13:64), each saved as it ends: twice the pieces for a machine with more cores
    /// than a band has values (a cut at 64 halved a piece of p = 27 at no extra cost; at 128,
    /// the top bit of a byte, nearly all the work fell on one side). R:V,W,... cuts at each
    /// value, into parts (13:64,128: below 64, from 64 below 128, and from 128). With
    /// --prove-chain: each piece not proved yet is proved as its halves (or parts), shorter
    /// calls with smaller proofs. `last`: the cut the ladder's last try left without an answer
    /// asked (as --halve left it), so that a run stopped goes on without the cut copied by hand
    /// from the ladder (p = 39's 231 ended at a cut of 68 values).
    #[arg(long, value_name = "R:V[,W...]|last", value_parser = parse_cut, requires = "pieces")]
    cut: Option<CutArg>,
    /// With --pieces: ask only these values of the open band's largest value (V,V,...), then
    /// stop. Why: the climb asks a band's pieces lowest first and stops at the first without
    /// an answer, so a piece that resists for days keeps the others from ever being asked;
    /// this gives a core to the others (or a second machine's run, merged later, to one).
    #[arg(
        long,
        value_name = "V,...",
        value_delimiter = ',',
        requires = "pieces",
        conflicts_with = "prove_chain"
    )]
    only_pieces: Vec<u16>,
    /// With --pieces: a piece left without an answer does not end the try: every open piece of
    /// the band (of --only-pieces, when given) is asked once a try, lowest first, each for
    /// --timeout, and --tries goes round them again. Why: a try ends at its first piece without
    /// an answer, so behind a piece that resists for days the others are never asked, nor a
    /// pattern among them found; in turn, each gets its share, and its lemma file grows.
    #[arg(long, requires = "pieces", conflicts_with = "prove_chain")]
    in_turn: bool,
    /// With --pieces --cut --in-turn: once the tries of the cut end with parts left without
    /// an answer, cut each such part in two at its middle common value and ask the band again
    /// in the finer cut (--tries anew), up to ROUNDS times; each half starts from the lemma
    /// files of the parts that hold it, and the next band starts from --cut again. Why: a
    /// piece that resisted whole for hours fell so in parts of minutes (Officers p = 39's 230,
    /// halved by hand five times, 2026-12-07), where each halving took someone reading which
    /// parts stopped and checking that each half held a common value.
    #[arg(
        long,
        value_name = "ROUNDS",
        requires_all = ["cut", "in_turn"],
        conflicts_with = "prove_chain"
    )]
    halve: Option<usize>,
    /// All rungs in one incremental CaDiCaL: each a call under its bound as assumptions, a
    /// refuted one kept as a clause, and what was learned carried up (no proofs).
    #[arg(long, conflicts_with = "proof_dir")]
    incremental: bool,
    /// Split each band into one cube per byte of its largest value, this many solved at once
    /// (default 1: one call a rung, leaving the other cores to other periods); with --pieces,
    /// each piece saved as it ends (and proved, with --proof-dir).
    #[arg(long, default_value_t = 1, conflicts_with = "incremental")]
    threads: usize,
    /// Keep the short clauses CaDiCaL learns in each call (a rung, or a piece) in this folder,
    /// saved every --lemmas-every and when the call ends, and start the call asked again (a
    /// piece stopped, asked by the next run) with them [DIR default: `lemmas/` beside the
    /// ladder, so they live as long as it does]. Not with --incremental. With --proof-dir and
    /// --proof-format lrat, *certified* lemmas: every call writes an LRAT proof, checked when
    /// it ends, a stopped call's as a derivation of what it learned (its file then saved
    /// `certified`), a refuted one's as a refutation of its CNF and the clauses it was given,
    /// which is a proof of the piece when every file given was certified. With --merge: the
    /// folder the copy's lemma files go to.
    #[arg(
        long,
        value_name = "DIR",
        num_args = 0..=1,
        conflicts_with_all = ["incremental"]
    )]
    lemmas: Option<Option<PathBuf>>,
    /// With --lemmas: save the file this often while a call runs, so a run killed outright
    /// loses at most this much learning.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 600.0,
        requires = "lemmas"
    )]
    lemmas_every: f64,
    /// With --lemmas: ask a call left without an answer in --timeout again, given the lemmas
    /// it kept, up to this many tries in all in this run (a whole rung, or the pieces of a band
    /// left; a stop request ends the run as before). An unattended campaign so restarts its own
    /// calls with what they learned, where before each try waited for the next run.
    #[arg(long, default_value_t = 1, requires = "lemmas")]
    tries: usize,
    /// Conflicts each call of the climb may take (a whole rung, a piece, a half, a cube of a
    /// band split over threads); one that reaches them has no answer, as at --timeout, and the
    /// ladder records the limit with the try. A bound on work, not time: a try of fixed size
    /// whatever else the machine runs (a measure of what lemmas give, tests).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        conflicts_with_all = ["prove_chain", "incremental", "merge"]
    )]
    conflicts: Option<u32>,
    /// Climb nothing: fold this copy of the ladder, from another machine, into the ladder
    /// (its checked proofs into the same bands here, its tries this one lacks appended, a try
    /// it went on with taken in its later state, one both went on with joined, each run's
    /// seconds counted once),
    /// copy the lemma files its tries kept from `lemmas/` beside it into this ladder's lemma
    /// folder (`lemmas/` beside it, or --lemmas DIR), then merge what the ladder answers into
    /// the periods file.
    #[arg(
        long,
        value_name = "LADDER",
        conflicts_with_all = ["prove_chain", "proof_dir", "pieces", "incremental"]
    )]
    merge: Option<PathBuf>,
    /// The ladder file [default: results/<game>/bounds-p<P>-<question>.json beside --out].
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// The periods file [default: results/<game>/periods.json].
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long, value_parser = parse_count, default_value = "2^16")]
    values: u64,
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

/// A question about one period, asked outside `grundy sat`'s race (`grundy sat cubes`, `sat bounds`,
/// `slurm cubes`).
#[derive(clap::Args, Debug)]
struct PeriodQuestion {
    game: String,
    #[arg(long)]
    p: usize,
    /// Ask whether p can be the minimal period (every smaller period forbidden); needs a
    /// feasible pattern of p in the periods file.
    #[arg(long)]
    primitive: bool,
    /// Keep rotation symmetry (by default s[0] is a smallest value, in `sat bounds` a largest:
    /// 1/p of the box to refute).
    #[arg(long)]
    keep_rotation: bool,
}

#[derive(Subcommand, Debug)]
enum SlurmCommand {
    /// Deal a cube campaign (`grundy sat cubes`) into --shares share ledgers, one task each;
    /// `grundy merge DIR` gathers the finished ones back. Run again to continue the others.
    Cubes(SlurmCubesArgs),
    /// Verify a binary values dump in --shards intervals, one task each.
    Verify(SlurmVerifyArgs),
    /// Decide periods A..B, one task per p (each a `grundy sat GAME --periods p..p`).
    Sat(SlurmSatArgs),
}

// The arguments of `cubes` above.
#[derive(clap::Args, Debug)]
struct SlurmCubesArgs {
    #[command(flatten)]
    ask: PeriodQuestion,
    /// Shares to deal, one task each (at the first submission; later ones reuse the plan).
    #[arg(long)]
    shares: usize,
    /// The campaign on one band F..V of the bounds ladder (see grundy sat cubes --band).
    #[arg(long, value_parser = parse_band, conflicts_with = "keep_rotation")]
    band: Option<grundy::sat::bounds::Band>,
    /// Conflicts a cube gets (see grundy sat cubes --conflicts).
    #[arg(long, default_value_t = 2000)]
    conflicts: u32,
    /// Pieces a split makes at most (see grundy sat cubes --fanout).
    #[arg(long, default_value_t = 2)]
    fanout: usize,
    /// CaDiCaL's configuration in every task (see grundy sat bounds --preset).
    #[arg(long, value_enum, default_value = "default")]
    preset: grundy::sat::solve::Preset,
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
}

// The arguments of `verify` above.
#[derive(clap::Args, Debug)]
struct SlurmVerifyArgs {
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
}

// The arguments of `sat` above.
#[derive(clap::Args, Debug)]
struct SlurmSatArgs {
    game: String,
    #[arg(long)]
    periods: String,
    /// How each task runs its question (the options of grundy sat; give --cpus-per-task for
    /// a portfolio and the local search threads together).
    #[command(flatten)]
    solve: SolverArgs,
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
    #[command(flatten)]
    submit: SubmitArgs,
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
    /// Where patterns live: the largest value of each period's pattern, and the range still
    /// open (from the bounds ladder up to 512) for each undecided period.
    Maxima {
        /// Periods JSON (`grundy sat`, results/<game>/periods.json), ladders beside it.
        periods: PathBuf,
        #[arg(long, default_value = "maxima")]
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
    Speculative(BenchSpeculativeArgs),
    /// SAT periods from scratch against Riley's published statuses (the tests stop at 12).
    Sat(BenchSatArgs),
    /// Exact generator on Officers against `run.sh rare_value N`.
    Exact(BenchExactArgs),
}

// The arguments of `speculative` above.
#[derive(clap::Args, Debug)]
struct BenchSpeculativeArgs {
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
}

// The arguments of `sat` above.
#[derive(clap::Args, Debug)]
struct BenchSatArgs {
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
}

// The arguments of `exact` above.
#[derive(clap::Args, Debug)]
struct BenchExactArgs {
    #[arg(long, short = 'n', value_parser = parse_count, default_value = "2^21")]
    count: u64,
    /// The baselines' run.sh.
    #[arg(long, default_value = "../shared/bench/run.sh")]
    baseline: PathBuf,
    /// Also write the comparison as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Parses a band `F..V` (true values, `F < V <= 512`).
fn parse_band(s: &str) -> Result<grundy::sat::bounds::Band, String> {
    s.parse()
}

/// `--cut`: a cut given, or `last`, the cut of the ladder's last try (read once the ladder is).
#[derive(Clone, Debug)]
enum CutArg {
    Given(grundy::sat::bounds::Cut),
    Last,
}

/// Parses a cut `R:V` (residue `R`, value `V`), or `R:V,W,...` (cut at each of the values,
/// ascending), or `last`.
fn parse_cut(s: &str) -> Result<CutArg, String> {
    if s == "last" {
        return Ok(CutArg::Last);
    }
    parse_cut_values(s).map(CutArg::Given)
}

/// Parses a cut `R:V` or `R:V,W,...`.
fn parse_cut_values(s: &str) -> Result<grundy::sat::bounds::Cut, String> {
    let bad = || {
        format!("bad cut {s:?}: expected RESIDUE:VALUE[,VALUE...] or last, as 13:64 or 13:64,128")
    };
    let (r, v) = s.split_once(':').ok_or_else(bad)?;
    let values: Vec<u16> = (v.split(',').map(str::parse))
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    if values.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!(
            "bad cut {s:?}: the values must go up (as 13:64,128,192)"
        ));
    }
    Ok(grundy::sat::bounds::Cut {
        residue: r.parse().map_err(|_| bad())?,
        at: values[0],
        above: values[1..].to_vec(),
    })
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

/// `secs` of option `flag` as a duration, if it is a positive number a duration can hold.
fn positive_seconds(flag: &str, secs: f64) -> Result<std::time::Duration> {
    match std::time::Duration::try_from_secs_f64(secs) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => bail!("{flag} must be a positive number of seconds"),
    }
}

/// Sends each command to its runner in [`commands`].
fn run(cli: Cli) -> Result<ExitCode> {
    use commands::{bench, plot, sat, slurm, values};
    match cli.command {
        Command::Values(args) => values::run_values(args),
        Command::Rares(args) => values::run_rares(args),
        Command::Stats(args) => values::run_stats(args),
        Command::Run(args) => values::run_long(args),
        Command::Verify(args) => values::run_verify(args),
        Command::Period(args) => values::run_period(args),
        Command::Sat {
            what: Some(what), ..
        } => sat::run_sat(what),
        Command::Sat { what: None, solve } => sat::run_sat_periods(solve),
        Command::Plot { kind } => plot::run_plot(kind).map(|()| ExitCode::SUCCESS),
        Command::Slurm { what } => slurm::run_slurm(what).map(|()| ExitCode::SUCCESS),
        Command::Merge { dir, out } => slurm::run_merge(&dir, out.as_deref()),
        Command::Bench { what } => match what {
            BenchKind::Speculative(args) => bench::bench_speculative(args),
            BenchKind::Sat(args) => bench::bench_sat(args),
            BenchKind::Exact(args) => bench::bench_exact(args),
        },
    }
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
            // One line: clap's message without its usage block. Some messages go on past
            // their first line (the arguments missing, one a line), and those lines count.
            let text = e.to_string();
            let message: Vec<&str> = (text.lines())
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            let first = message.join(" ");
            let first = first.trim_start_matches("error: ");
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
