//! The value commands: `values`, `rares`, `stats`, `run` (the long run), `verify`, `period`.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use grundy::io::values_file::write_bin;
use grundy::io::{RareTable, ValuesDump, write_output};
use grundy::progress::Progress;
use grundy::run::RunConfig;
use grundy::stats::Stats;
use grundy::values::verify::verify_interval;
use grundy::values::{exact_prefix, naive_values};

use crate::{
    PeriodArgs, RaresArgs, RunArgs, StatsArgs, ValuesArgs, VerifyArgs, parse_game, positive_seconds,
};

/// `grundy values`: G(0), ..., G(N-1), exact (or naive) values.
pub(crate) fn run_values(args: ValuesArgs) -> Result<ExitCode> {
    let ValuesArgs {
        game,
        count,
        format,
        out,
        naive,
    } = args;
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
    Ok(ExitCode::SUCCESS)
}

/// `grundy rares`: the rare table of the exact prefix, printed or compared with another.
pub(crate) fn run_rares(args: RaresArgs) -> Result<ExitCode> {
    let RaresArgs {
        game,
        count,
        format,
        out,
        check,
    } = args;
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
    Ok(ExitCode::SUCCESS)
}

/// `grundy stats`: statistics of the exact prefix.
pub(crate) fn run_stats(args: StatsArgs) -> Result<ExitCode> {
    let StatsArgs {
        game,
        count,
        json,
        out,
    } = args;
    let game = parse_game(&game)?;
    let generator = exact_prefix(&game, count as usize)?;
    let stats = Stats::from_values(&game, generator.values(), generator.space());
    let text = if json {
        serde_json::to_string_pretty(&stats)? + "\n"
    } else {
        stats.render_text()
    };
    write_output(out.as_deref(), |w| w.write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

/// The run `grundy run` asks for, from its flags; sizes below what can work are raised to it
/// (one thread, a chunk of one value, blocks of 8 values, one value in memory).
fn run_config(game: &grundy::Game, args: &RunArgs) -> Result<RunConfig> {
    positive_seconds("--checkpoint-every", args.checkpoint_every)?;
    let mut config = RunConfig::new(game.clone(), args.to);
    config.threads = args.threads.unwrap_or(config.threads).max(1);
    config.verify = !args.no_verify;
    config.period_search = !args.no_period;
    config.speculate_from = args.speculate_from;
    config.chunk = args.chunk.max(1) as usize;
    config.block = args.block.max(8);
    config.checkpoint = args.checkpoint.clone();
    config.resume = args.resume;
    config.checkpoint_every = std::time::Duration::from_secs_f64(args.checkpoint_every);
    config.memory = args.memory.max(1) as usize;
    config.spill_dir = args.spill_dir.clone();
    Ok(config)
}

/// `grundy run`: the long run (speculative values, verified, checkpointed), its report and dumps.
pub(crate) fn run_long(args: RunArgs) -> Result<ExitCode> {
    let game = parse_game(&args.game)?;
    let config = run_config(&game, &args)?;
    let RunArgs {
        to,
        checkpoint: checkpoint_path,
        values_out,
        out,
        ..
    } = args;
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
    Ok(ExitCode::SUCCESS)
}

/// `grundy verify`: one interval of a dump checked with the exact rule; exit 1 if a claim is wrong.
pub(crate) fn run_verify(args: VerifyArgs) -> Result<ExitCode> {
    let VerifyArgs {
        values,
        from,
        to,
        threads,
        out,
    } = args;
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
    Ok(ExitCode::SUCCESS)
}

/// `grundy period`: a proven period of the exact values, or exit 1.
pub(crate) fn run_period(args: PeriodArgs) -> Result<ExitCode> {
    let PeriodArgs { game, max, out } = args;
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
    Ok(ExitCode::SUCCESS)
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

/// A binary dump that starts at heap 0, as the verifier needs.
pub(crate) fn dump_from_zero(path: &std::path::Path) -> Result<ValuesDump> {
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
pub(crate) fn check_interval(from: u64, to: u64, len: u64) -> Result<()> {
    if from >= to || to > len {
        bail!("bad interval [{from}, {to}): the dump holds heaps 0..{len}");
    }
    Ok(())
}
