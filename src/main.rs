//! `grundy`: the command line. It parses arguments and calls the library; no algorithm lives here.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use grundy::io::{RareTable, TableFormat, ValuesDump, ValuesFormat, write_output};
use grundy::stats::Stats;
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
    /// Benchmarks against the C baselines of ../shared/bench, measured in the same run.
    Bench {
        #[command(subcommand)]
        what: BenchKind,
    },
}

#[derive(Subcommand, Debug)]
enum BenchKind {
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

fn main() -> ExitCode {
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
