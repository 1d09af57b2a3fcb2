//! `grundy slurm` (plans and job arrays) and `grundy merge` (their verdicts combined).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use grundy::cluster::{Manifest, SubmitOptions, array_spec};

use super::sat::period_line;
use super::values::{check_interval, dump_from_zero};
use crate::{
    PeriodQuestion, SlurmCommand, SlurmCubesArgs, SlurmSatArgs, SlurmVerifyArgs, SolverArgs,
    SubmitArgs, parse_game, parse_periods, parse_seeds, positive_seconds, run_args,
};

/// With `slurm sat --open-only`: the periods file and the periods it decides.
type Decided = Option<(PathBuf, Vec<u64>)>;

/// `grundy slurm ...`: plan the work folder (or take its plan), then submit, run here or just
/// write what is left to do.
pub(crate) fn run_slurm(what: SlurmCommand) -> Result<()> {
    let (manifest, submit, decided) = match what {
        SlurmCommand::Cubes(args) => {
            let (m, submit) = plan_cubes(args)?;
            (m, submit, None)
        }
        SlurmCommand::Verify(args) => {
            let (m, submit) = plan_verify(args)?;
            (m, submit, None)
        }
        SlurmCommand::Sat(args) => plan_sat(args)?,
    };
    submit_plan(manifest, &submit, decided)
}

/// Opens the plan in its work folder and runs the tasks not done yet (less those whose periods
/// are decided, with `--open-only`): submitted, run here, or only written (`--dry-run`).
fn submit_plan(manifest: Manifest, submit: &SubmitArgs, decided: Decided) -> Result<()> {
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

/// `grundy slurm verify`: a plan of `--shards` intervals of the dump, one task each.
fn plan_verify(args: SlurmVerifyArgs) -> Result<(Manifest, SubmitArgs)> {
    let SlurmVerifyArgs {
        values,
        shards,
        from,
        to,
        submit,
    } = args;
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
    Ok((m, submit))
}

/// `grundy slurm sat`: a plan of one task per period and seed, each a `grundy sat` run with the
/// options given here; with `--open-only` also the periods file and the periods it decides.
fn plan_sat(args: SlurmSatArgs) -> Result<(Manifest, SubmitArgs, Decided)> {
    let SlurmSatArgs {
        game,
        periods,
        solve,
        seeds,
        open_only,
        periods_file,
        submit,
    } = args;
    let mut decided = None;
    let game = parse_game(&game)?;
    let range = parse_periods(&periods)?;
    let seeds = parse_seeds(&seeds)?;
    let task_args = solve.task_args(&submit.work)?;
    if open_only {
        use grundy::sat::periods::PeriodsFile;
        let path = periods_file.unwrap_or_else(|| PeriodsFile::default_path(&game));
        let known = PeriodsFile::read(&path)?.map_or_else(Vec::new, |f| {
            let decided = |r: &&grundy::sat::periods::PeriodResult| !r.is_open();
            f.results.iter().filter(decided).map(|r| r.p).collect()
        });
        decided = Some((path, known));
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
        &task_args,
    )?;
    Ok((m, submit, decided))
}

impl SolverArgs {
    /// These options as `grundy sat` arguments for a task, checked here so that a bad one
    /// fails the plan, not every task; defaults are left out (but `--lemmas` with no folder is
    /// `lemmas/` in the `work` folder, which every task reaches).
    fn task_args(&self, work: &std::path::Path) -> Result<Vec<String>> {
        positive_seconds("--timeout", self.timeout)?;
        positive_seconds("--lemmas-every", self.lemmas_every)?;
        let mut args = vec![
            "--solver".to_string(),
            format!("{:?}", self.solver).to_lowercase(),
            "--timeout".into(),
            self.timeout.to_string(),
            "--values".into(),
            self.values.to_string(),
        ];
        if let Some(l) = self.local {
            args.extend(["--local".to_string(), l.to_string()]);
        }
        if self.local_threads > 1 {
            args.extend([
                "--local-threads".to_string(),
                self.local_threads.to_string(),
            ]);
        }
        if self.break_rotation {
            args.push("--break-rotation".into());
        }
        if self.portfolio > 1 {
            args.extend(["--portfolio".to_string(), self.portfolio.to_string()]);
        }
        if self.no_neighbourhoods {
            args.push("--no-neighbourhoods".into());
        }
        let lemma_dir = (self.lemmas.clone()).map(|dir| dir.unwrap_or_else(|| work.join("lemmas")));
        if let Some(dir) = lemma_dir {
            // Tasks may start elsewhere: give them the folder as an absolute path.
            let dir = std::path::absolute(&dir)
                .with_context(|| format!("cannot resolve {}", dir.display()))?;
            args.extend(["--lemmas".to_string(), dir.display().to_string()]);
            args.extend(["--lemmas-every".to_string(), self.lemmas_every.to_string()]);
        }
        Ok(args)
    }
}

/// The flags of `grundy sat cubes` that ask a campaign's question.
pub(crate) fn question_flags(
    primitive: bool,
    keep_rotation: bool,
) -> impl Iterator<Item = &'static str> {
    [
        primitive.then_some("--primitive"),
        keep_rotation.then_some("--keep-rotation"),
    ]
    .into_iter()
    .flatten()
}

/// `grundy slurm cubes`: the plan of the work folder if it has one (the shares dealt then), or a
/// new deal of the campaign's open cubes, made by `grundy sat cubes --deal` itself.
fn plan_cubes(args: SlurmCubesArgs) -> Result<(grundy::cluster::Manifest, SubmitArgs)> {
    use grundy::cluster::{Manifest, Work};
    use grundy::sat::cubes::Ledger;
    let SlurmCubesArgs {
        ask,
        shares,
        band,
        conflicts,
        fanout,
        preset,
        timeout,
        calls,
        ledger,
        out,
        values,
        submit,
    } = args;
    let game = parse_game(&ask.game)?;
    if shares == 0 {
        bail!("--shares must be at least 1");
    }
    let absolute = |path: PathBuf| {
        std::path::absolute(&path).with_context(|| format!("cannot resolve {}", path.display()))
    };
    let out =
        absolute(out.unwrap_or_else(|| grundy::sat::periods::PeriodsFile::default_path(&game)))?;
    let question = grundy::sat::periods::question_name(ask.primitive);
    let ledger =
        absolute(ledger.unwrap_or_else(|| Ledger::path_beside(&out, ask.p, question, band)))?;
    let cube_args = cube_question_args(&game, &ask, band, &out, values);
    let on_ledger = |extra: &[&str]| -> Vec<String> {
        let mut args = cube_args.clone();
        args.extend(["--ledger".into(), ledger.display().to_string()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let work = Work::Cubes {
        game: game.to_string(),
        p: ask.p as u64,
        ledger: ledger.clone(),
        gather: on_ledger(&["--gather", "--finished-only"]),
    };
    let mut task_args = cube_args.clone();
    let cpus = submit.cpus_per_task.max(1);
    task_args.extend(solver_flags(
        cpus, conflicts, fanout, preset, timeout, calls,
    ));
    if let Some(manifest) = planned_before(&submit.work, &work, &task_args)? {
        return Ok((manifest, submit));
    }
    let share_files = deal_shares(&on_ledger(&["--deal", &shares.to_string()]), &ledger)?;
    let grundy = submit
        .grundy
        .clone()
        .map_or_else(std::env::current_exe, Ok)?;
    let manifest = Manifest::cubes(&grundy, work, &share_files, &task_args)?;
    Ok((manifest, submit))
}

/// The arguments of `grundy sat cubes` that say what a campaign asks (game, period, question,
/// band) and where its answer goes, the same for every task, its gathering and its dealing.
fn cube_question_args(
    game: &grundy::game::Game,
    ask: &PeriodQuestion,
    band: Option<grundy::sat::bounds::Band>,
    out: &std::path::Path,
    values: u64,
) -> Vec<String> {
    let mut args: Vec<String> = vec!["sat".into(), "cubes".into(), game.to_string()];
    args.extend(["--p".into(), ask.p.to_string()]);
    args.extend(question_flags(ask.primitive, ask.keep_rotation).map(String::from));
    if let Some(band) = band {
        args.extend(["--band".into(), band.to_string()]);
    }
    args.extend(["--out".into(), out.display().to_string()]);
    args.extend(["--values".into(), values.to_string()]);
    args
}

/// The flags of each task's `grundy sat cubes` that say how it works (threads, budget, preset,
/// limits), as opposed to what it asks.
fn solver_flags(
    threads: usize,
    conflicts: u32,
    fanout: usize,
    preset: grundy::sat::solve::Preset,
    timeout: Option<f64>,
    calls: Option<u64>,
) -> Vec<String> {
    let mut flags: Vec<String> = vec!["--threads".into(), threads.to_string()];
    flags.extend(["--conflicts".into(), conflicts.to_string()]);
    flags.extend(["--fanout".into(), fanout.to_string()]);
    if !preset.is_default() {
        flags.extend(["--preset".into(), preset.name().into()]);
    }
    if let Some(t) = timeout {
        flags.extend(["--timeout".into(), t.to_string()]);
    }
    if let Some(n) = calls {
        flags.extend(["--calls".into(), n.to_string()]);
    }
    flags
}

/// The plan of the work folder `dir`, if it has one, made anew with the task options given now
/// (`task_args`); one of other work is refused, and with no plan the shares are to be dealt.
fn planned_before(
    dir: &std::path::Path,
    work: &grundy::cluster::Work,
    task_args: &[String],
) -> Result<Option<Manifest>> {
    if !Manifest::path(dir).exists() {
        return Ok(None);
    }
    let old = Manifest::load(dir)?;
    if old.work != *work {
        bail!(
            "{} holds another job (its manifest.json differs); use another --work folder",
            dir.display()
        );
    }
    println!(
        "{}: the plan made before ({} shares), with the task options given now",
        dir.display(),
        old.tasks.len()
    );
    Ok(Some(Manifest::replan_cubes(dir, old, task_args)?))
}

/// Deals the shares by running `deal` (a `grundy sat cubes --deal` on `ledger`: its lock,
/// checks and atomic writes), then names the share files of that deal.
fn deal_shares(deal: &[String], ledger: &std::path::Path) -> Result<Vec<PathBuf>> {
    use grundy::sat::cubes::Ledger;
    run_args(deal)?;
    let dealt = Ledger::read(ledger)?.with_context(|| format!("{}: gone", ledger.display()))?;
    let name = grundy::io::file_name(ledger);
    let this_deal = format!("{name} deal {} ", dealt.deals);
    Ok(dealt
        .shares
        .iter()
        .filter(|n| n.id.starts_with(&this_deal))
        .map(|n| grundy::sat::shares::share_path(ledger, n))
        .collect())
}

pub(crate) fn run_merge(dir: &std::path::Path, out: Option<&std::path::Path>) -> Result<ExitCode> {
    use grundy::cluster::{MergeReport, merge};
    match merge(dir, out)? {
        MergeReport::Cubes(m) => cubes_merged(&m),
        MergeReport::Verify(m) => Ok(verify_merged(&m)),
        MergeReport::Sat(m) => {
            sat_merged(&m);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// A cube campaign's shares: the finished ones gathered back by `grundy sat cubes --gather`.
fn cubes_merged(m: &grundy::cluster::CubesMerge) -> Result<ExitCode> {
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
    Ok(code)
}

/// A verify job's verdicts: how far the values are verified, and the first wrong one (exit 1)
/// with the rollback made for it.
fn verify_merged(m: &grundy::cluster::VerifyMerge) -> ExitCode {
    println!(
        "{}: verified [{}, {}) of [{}, {}){}",
        m.game,
        m.from,
        m.verified_to,
        m.from,
        m.to,
        if m.complete { ": complete" } else { "" }
    );
    missing_line(&m.missing);
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
    let Some(w) = &m.first_wrong else {
        return ExitCode::SUCCESS;
    };
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
    ExitCode::from(1)
}

/// A period race's verdicts, merged into the periods file.
fn sat_merged(m: &grundy::cluster::SatMerge) {
    for r in &m.results {
        println!("{}", period_line(r, false));
    }
    if !m.not_needed.is_empty() {
        println!(
            "tasks not needed (no verdict, their period decided): {}",
            array_spec(&m.not_needed)
        );
    }
    missing_line(&m.missing);
    println!(
        "merged {} answers into {}",
        m.results.len(),
        m.out.display()
    );
}

/// The tasks that left no verdict, if any.
fn missing_line(missing: &[usize]) {
    if !missing.is_empty() {
        println!(
            "missing tasks (no verdict; submit again to run only these): {}",
            array_spec(missing)
        );
    }
}
