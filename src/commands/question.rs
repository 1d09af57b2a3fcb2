//! One question about a period (`feasible` or `primitive`, of one game), set up for a command
//! that runs it outside `grundy sat`'s race (`sat cubes`, `sat bounds`): checked arguments, the
//! encoding, and the periods file its answer goes into.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use grundy::Game;
use grundy::sat::encode::PeriodEncoding;
use grundy::sat::periods::{PeriodResult, PeriodsFile, Problem, Status};
use grundy::values::exact_prefix;

use crate::{PeriodQuestion, parse_game};

/// The question, with the periods file read once, before any work.
pub(crate) struct Question {
    pub game: Game,
    pub p: usize,
    pub primitive: bool,
    pub problem: Problem,
    pub encoding: PeriodEncoding,
    pub out: PathBuf,
    pub header: PeriodsFile,
    pub known: PeriodsFile,
}

impl Question {
    /// Checks the question and reads the periods file (`out`, or the game's default): one of
    /// another game or rare table is refused, and `--primitive` needs a feasible pattern there.
    /// Stop requests (SIGINT, SIGTERM) are handled from here on.
    pub fn set_up(ask: &PeriodQuestion, out: Option<PathBuf>, values: u64) -> Result<Question> {
        let (game, p) = (parse_game(&ask.game)?, ask.p);
        if p == 0 {
            bail!("period must be at least 1");
        }
        grundy::interrupt::install().context("cannot handle SIGINT and SIGTERM")?;
        let problem = Problem {
            break_rotation: !ask.keep_rotation,
            ..Problem::from_prefix(&exact_prefix(&game, values as usize)?)
        };
        let out = out.unwrap_or_else(|| PeriodsFile::default_path(&game));
        let header = PeriodsFile::new(&problem);
        let known = PeriodsFile::read(&out)?.unwrap_or_else(|| header.clone());
        if let Some(reason) = known.refuses(&header) {
            bail!("{}: {reason}", out.display());
        }
        if ask.primitive && known.pattern(p as u64).is_none() {
            bail!(
                "--primitive: {} has no feasible pattern of p = {p}; decide feasible first",
                out.display()
            );
        }
        let encoding = problem.encode_question(p, ask.primitive)?;
        Ok(Question {
            game,
            p,
            primitive: ask.primitive,
            problem,
            encoding,
            out,
            header,
            known,
        })
    }

    /// The question's bounds ladder at `path`, or a fresh one if there is none; a ladder of
    /// another question or encoding is refused.
    pub fn open_ladder(&self, path: &std::path::Path) -> Result<grundy::sat::bounds::Ladder> {
        use grundy::sat::bounds::Ladder;
        let fresh = Ladder::new(
            &self.game.to_string(),
            &self.encoding,
            self.name(),
            self.problem.break_rotation,
        );
        match Ladder::read(path)? {
            Some(old) => match old.refuses(&fresh) {
                Some(reason) => bail!("{}: {reason}", path.display()),
                None => Ok(old),
            },
            None => Ok(fresh),
        }
    }

    /// "feasible" or "primitive".
    pub fn name(&self) -> &'static str {
        grundy::sat::periods::question_name(self.primitive)
    }

    /// Turns a model's bytes into a checked pattern (true values): see [`Self::check_pattern`].
    pub fn check(&self, bytes: &[u8]) -> Result<Vec<grundy::values::Value>, String> {
        let pattern = self.encoding.expand(bytes);
        self.check_pattern(&pattern)?;
        Ok(pattern)
    }

    /// The witness check of a pattern (true values), and for the primitive question its minimal
    /// period.
    pub fn check_pattern(&self, pattern: &[grundy::values::Value]) -> Result<(), String> {
        use grundy::sat::periods::minimal_period;
        self.problem
            .check_witness("cadical", self.p as u64, pattern)
            .map_err(|err| err.to_string())?;
        if self.primitive && minimal_period(pattern) != self.p {
            return Err(format!(
                "minimal period {} in the primitive question",
                minimal_period(pattern)
            ));
        }
        Ok(())
    }

    /// Merges `result`, an answer `by` a command, into the periods file, unless the file has
    /// that answer already, or contradicts it (then a solver is wrong: the file is kept as it
    /// is).
    pub fn merge_answer(&self, result: Option<PeriodResult>, by: &str) -> Result<()> {
        let p = self.p;
        let Some(result) = result else {
            return Ok(());
        };
        if let Some(old) = self.known.result(p as u64) {
            let (was, now) = if self.primitive {
                (old.primitive, result.primitive)
            } else {
                (old.feasible, result.feasible)
            };
            if was.decided() && was == now {
                println!(
                    "{} says {was:?} already; not merged again",
                    self.out.display()
                );
                return Ok(());
            }
            if was.decided() && now.decided() && was != now && was != Status::Excluded {
                bail!(
                    "p = {p} {}: {by} say {now:?}, {} says {was:?}; not merged",
                    self.name(),
                    self.out.display()
                );
            }
        }
        PeriodsFile::merge_into(&self.out, &self.header, vec![result])?;
        println!("merged into {}", self.out.display());
        Ok(())
    }
}

/// The line that shows a witness-checked pattern (true values, by commas), as `sat cubes` and
/// `sat bounds` print it.
pub(crate) fn print_checked_pattern(pattern: &[grundy::values::Value]) {
    let s: Vec<String> = pattern.iter().map(ToString::to_string).collect();
    println!("pattern (checked): {}", s.join(","));
}
