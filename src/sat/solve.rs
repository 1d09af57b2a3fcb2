/*!
SAT solvers behind one call: CaDiCaL (through rustsat), splr and varisat.

Every backend takes the same [`Cnf`] and returns a model indexed by variable, so the caller decodes
and witness-checks models the same way whatever solved them. Timeouts: CaDiCaL through a
terminator callback, splr through its own `c_timeout`; varisat has no way to stop a search, so it
runs to the end (the CLI says so).
*/

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use super::Cnf;

/// Which solver.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    Cadical,
    Splr,
    Varisat,
}

impl SolverKind {
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Cadical => "cadical",
            SolverKind::Splr => "splr",
            SolverKind::Varisat => "varisat",
        }
    }

    /// Can this solver stop at a timeout?
    pub fn has_timeout(self) -> bool {
        !matches!(self, SolverKind::Varisat)
    }
}

/// What a solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A model: `model[v]` is the value of variable `v` (index 0 unused).
    Sat(Vec<bool>),
    Unsat,
    Timeout,
}

/// A solver failed (not a timeout, not an answer).
#[derive(Debug, thiserror::Error)]
#[error("{solver} failed: {reason}")]
pub struct SolveError {
    pub solver: &'static str,
    pub reason: String,
}

/// Solves `cnf` with `kind`, stopping after `timeout` where the solver allows it.
///
/// # Errors
/// [`SolveError`] if the solver reports an internal error.
pub fn solve(kind: SolverKind, cnf: &Cnf, timeout: Option<Duration>) -> Result<Answer, SolveError> {
    let fail = |reason: String| SolveError {
        solver: kind.name(),
        reason,
    };
    match kind {
        SolverKind::Cadical => solve_cadical(cnf, timeout).map_err(|e| fail(e.to_string())),
        SolverKind::Splr => solve_splr(cnf, timeout).map_err(fail),
        SolverKind::Varisat => solve_varisat(cnf).map_err(fail),
    }
}

/// CaDiCaL's configurations. `unsat` (no stabilising phases, no local search) refuted three
/// bands of Officers' bounds ladders 3 to 21% faster than the default (p = 27 240..248: 217 s
/// against 276 s, 248..256: 266 s against 329 s; p = 29 208..216: 303 s against 311 s; the two
/// side by side on a 2-core VM, 2026-11-25, `examples/band_probe.rs`); `sat` leans the other way.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    #[default]
    Default,
    Sat,
    Unsat,
}

impl Preset {
    /// The presets in turn, for the copies of a portfolio.
    pub fn nth(i: usize) -> Preset {
        [Preset::Default, Preset::Sat, Preset::Unsat][i % 3]
    }

    pub fn is_default(&self) -> bool {
        *self == Preset::Default
    }

    /// The name the CLI and the JSON files use.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Default => "default",
            Preset::Sat => "sat",
            Preset::Unsat => "unsat",
        }
    }
}

/// How one CaDiCaL copy runs: its seed and preset, a shared stop flag, and an optional DRAT proof.
#[derive(Clone, Debug, Default)]
pub struct CadicalRun<'a> {
    pub seed: u32,
    pub preset: Preset,
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// Write a proof here, in `proof_format`; it certifies an UNSAT answer.
    pub proof: Option<&'a std::path::Path>,
    /// The format of `proof`: DRAT text unless asked.
    pub proof_format: ProofFormat,
    /// CaDiCaL options set after the preset (name, value), for experiments.
    pub options: &'a [(&'a str, i32)],
    /// Clauses learned by earlier runs to add, and where to keep what this run learns.
    pub carry: Option<&'a super::lemmas::Carry>,
    /// Stop after this many conflicts (answering `Timeout`): a bound on work that, unlike a
    /// timeout, does not depend on how loaded the machine is (tests, probes).
    pub conflicts: Option<u32>,
}

/// The format CaDiCaL writes a proof in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ProofFormat {
    /// DRAT text: the clauses learned, which a checker (rate, dratify) must derive again.
    #[default]
    Drat,
    /// Binary LRAT: each clause with the clauses it follows from, checked with no search by
    /// [`super::lrat`] (CaDiCaL numbers the CNF's clauses its own way through its API, which
    /// that checker reads from the proof and a standard LRAT checker would not).
    Lrat,
}

impl ProofFormat {
    /// The proof file's extension and the name recorded with a proof.
    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Drat => "drat",
            ProofFormat::Lrat => "lrat",
        }
    }
}

/// A fresh CaDiCaL under `preset` and `seed` (0: its default seed), before any clause:
/// CaDiCaL takes a configuration only then. The solvers of `solve_cadical_with`, `sat bounds`
/// (incremental) and `sat cubes` start here.
pub fn fresh_cadical<'t, 'l>(
    preset: Preset,
    seed: u32,
) -> anyhow::Result<rustsat_cadical::CaDiCaL<'t, 'l>> {
    use rustsat_cadical::Config;
    let mut solver = rustsat_cadical::CaDiCaL::default();
    match preset {
        Preset::Sat => solver.set_configuration(Config::Sat)?,
        Preset::Unsat => solver.set_configuration(Config::Unsat)?,
        Preset::Default => {}
    }
    if seed != 0 {
        solver.set_option("seed", seed as i32)?;
    }
    Ok(solver)
}

fn solve_cadical(cnf: &Cnf, timeout: Option<Duration>) -> anyhow::Result<Answer> {
    solve_cadical_with(cnf, timeout, &CadicalRun::default())
}

/// CaDiCaL on `cnf` as `run` says.
pub fn solve_cadical_with(
    cnf: &Cnf,
    timeout: Option<Duration>,
    run: &CadicalRun<'_>,
) -> anyhow::Result<Answer> {
    use rustsat::solvers::{ControlSignal, Solve, SolverResult, Terminate};
    use rustsat_cadical::CaDiCaL;
    use std::sync::atomic::Ordering;
    let mut solver: CaDiCaL = fresh_cadical(run.preset, run.seed)?;
    for &(name, value) in run.options {
        solver.set_option(name, value)?;
    }
    if let Some(n) = run.conflicts {
        rustsat::solvers::LimitConflicts::limit_conflicts(&mut solver, Some(n))?;
    }
    if let Some(path) = run.proof {
        // Before the first clause: the proof must see every clause added (an LRAT proof
        // numbers them in that order, as the CNF written beside it does).
        let format = match run.proof_format {
            ProofFormat::Drat => rustsat_cadical::ProofFormat::Drat { binary: false },
            ProofFormat::Lrat => rustsat_cadical::ProofFormat::Lrat { binary: true },
        };
        solver.trace_proof(path, format)?;
    }
    let deadline = timeout.map(|t| Instant::now() + t);
    let stop = run.stop;
    let stopped = move || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    if !load_cadical(&mut solver, cnf, &stopped)? {
        return Ok(Answer::Timeout);
    }
    if let Some(carry) = run.carry {
        carry_lemmas(&mut solver, carry)?;
    }
    if deadline.is_some() || stop.is_some() {
        solver.attach_terminator(move || {
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            if late || stopped() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }
    let answer = match solver.solve()? {
        SolverResult::Sat => Answer::Sat(cadical_model(&solver, cnf)?),
        SolverResult::Unsat => Answer::Unsat,
        SolverResult::Interrupted => Answer::Timeout,
    };
    // Dropping the solver closes (and flushes) the proof file.
    drop(solver);
    Ok(answer)
}

/// Adds the clauses of `cnf` to `solver`; `false` if `stopped` said so on the way. Loading millions
/// of clauses takes seconds, and a terminator is only asked once the search runs, so the flag is
/// looked at every 2^16 clauses.
pub(crate) fn load_cadical(
    solver: &mut rustsat_cadical::CaDiCaL<'_, '_>,
    cnf: &Cnf,
    stopped: &dyn Fn() -> bool,
) -> anyhow::Result<bool> {
    for (i, clause) in cnf.clauses().enumerate() {
        if i % (1 << 16) == 0 && stopped() {
            return Ok(false);
        }
        add_ipasir(solver, clause)?;
    }
    Ok(true)
}

/// DIMACS literals (as the encoder writes them) as rustsat's.
pub(crate) fn ipasir_lits(lits: &[i32]) -> anyhow::Result<Vec<rustsat::types::Lit>> {
    use rustsat::types::Lit;
    Ok(lits
        .iter()
        .map(|&l| Lit::from_ipasir(l))
        .collect::<Result<_, _>>()?)
}

/// Adds one clause in DIMACS literals to `solver`.
pub(crate) fn add_ipasir(
    solver: &mut rustsat_cadical::CaDiCaL<'_, '_>,
    clause: &[i32],
) -> anyhow::Result<()> {
    use rustsat::solvers::Solve;
    use rustsat::types::Clause;
    solver.add_clause(ipasir_lits(clause)?.into_iter().collect::<Clause>())
}

/// Adds the clauses `carry` was given to `solver` and sends it what `solver` learns.
pub(crate) fn carry_lemmas<'a>(
    solver: &mut rustsat_cadical::CaDiCaL<'_, 'a>,
    carry: &'a super::lemmas::Carry,
) -> anyhow::Result<()> {
    use rustsat::solvers::Learn;
    use rustsat::types::Clause;
    for lemma in &carry.given {
        add_ipasir(solver, lemma)?;
    }
    solver.attach_learner(
        move |clause: Clause| carry.learn(clause.iter().map(|l| l.to_ipasir()).collect()),
        super::lemmas::MAX_LEN,
    );
    Ok(())
}

/// The model of a CaDiCaL that just answered SAT, indexed by variable as [`Answer::Sat`] wants.
pub(crate) fn cadical_model(
    solver: &rustsat_cadical::CaDiCaL<'_, '_>,
    cnf: &Cnf,
) -> anyhow::Result<Vec<bool>> {
    use rustsat::solvers::Solve;
    use rustsat::types::{Lit, TernaryVal};
    let mut model = vec![false; cnf.num_vars as usize + 1];
    for (v, value) in model.iter_mut().enumerate().skip(1) {
        *value = solver.lit_val(Lit::from_ipasir(v as i32)?)? == TernaryVal::True;
    }
    Ok(model)
}

/// A portfolio: `copies` CaDiCaL runs on their own threads with seeds `first_seed`, `first_seed +
/// 1`, ... and different presets; the first definite answer raises `stop` (its own flag if none is
/// given), which ends the others.
/// Two copies that disagree (SAT against UNSAT) are an error: one solver is wrong, and nothing is
/// reported.
///
/// # Errors
/// [`SolveError`] if a copy fails or the copies disagree.
pub fn solve_portfolio(
    cnf: &Cnf,
    timeout: Option<Duration>,
    copies: usize,
    first_seed: u32,
    stop: Option<&std::sync::atomic::AtomicBool>,
    carry: Option<&super::lemmas::Carry>,
) -> Result<Answer, SolveError> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let fail = |reason: String| SolveError {
        solver: "cadical portfolio",
        reason,
    };
    let own_stop = AtomicBool::new(false);
    let stop = stop.unwrap_or(&own_stop);
    let answers: Vec<anyhow::Result<Answer>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..copies.max(1))
            .map(|i| {
                scope.spawn(move || {
                    let run = CadicalRun {
                        seed: first_seed.wrapping_add(i as u32),
                        preset: Preset::nth(i),
                        stop: Some(stop),
                        carry,
                        ..CadicalRun::default()
                    };
                    let answer = solve_cadical_with(cnf, timeout, &run);
                    if matches!(answer, Ok(Answer::Sat(_) | Answer::Unsat)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    answer
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a copy panicked")))
            })
            .collect()
    });
    let mut result = Answer::Timeout;
    for answer in answers {
        match (answer.map_err(|e| fail(e.to_string()))?, &result) {
            (Answer::Timeout, _) => {}
            (a, Answer::Timeout) => result = a,
            (Answer::Sat(_), Answer::Unsat) | (Answer::Unsat, Answer::Sat(_)) => {
                return Err(fail("copies disagree: one said SAT, another UNSAT".into()));
            }
            _ => {}
        }
    }
    Ok(result)
}

fn solve_splr(cnf: &Cnf, timeout: Option<Duration>) -> Result<Answer, String> {
    use splr::{Certificate, Config, SolveIF, Solver, SolverError};
    let clauses: Vec<Vec<i32>> = cnf.clauses().map(<[i32]>::to_vec).collect();
    let mut config = Config::default();
    if let Some(limit) = timeout {
        config.c_timeout = limit.as_secs_f64();
    }
    let certificate = match Solver::try_from((config, clauses.as_slice())) {
        Ok(mut solver) => solver.solve(),
        Err(result) => result,
    };
    let model_of = |lits: Vec<i32>| {
        let mut model = vec![false; cnf.num_vars as usize + 1];
        for l in lits.into_iter().filter(|&l| l > 0 && l <= cnf.num_vars) {
            model[l as usize] = true;
        }
        model
    };
    match certificate {
        Ok(Certificate::SAT(lits)) => Ok(Answer::Sat(model_of(lits))),
        Ok(Certificate::UNSAT) => Ok(Answer::Unsat),
        Err(SolverError::TimeOut) => Ok(Answer::Timeout),
        Err(e) => Err(format!("{e:?}")),
    }
}

fn solve_varisat(cnf: &Cnf) -> Result<Answer, String> {
    run_varisat(cnf, None)
}

/// What became of an UNSAT certificate.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProofNote {
    /// The CNF (DIMACS) the proof refers to.
    pub cnf: String,
    /// The proof file.
    pub proof: String,
    pub format: String,
    /// `Some(checker)` if an independent checker accepted it; `None` if unchecked.
    pub checked_by: Option<String>,
}

impl ProofNote {
    /// The note with its files named alone, not their folder: a note kept in git (a ladder, a
    /// list of patterns) holds no path of the machine it was proved on.
    pub fn named_alone(self) -> ProofNote {
        ProofNote {
            cnf: crate::io::file_name(std::path::Path::new(&self.cnf)),
            proof: crate::io::file_name(std::path::Path::new(&self.proof)),
            ..self
        }
    }

    /// The format the proof was written in, the first word of `format` ("drat", "lrat",
    /// "varisat"; a note of pieces says "drat in 4 pieces, ...", a checked piece's "lrat,
    /// removed once checked").
    pub fn written_in(&self) -> &str {
        self.format.split([',', ' ']).next().unwrap_or("")
    }
}

/// Solves like [`solve`] and, on UNSAT, leaves a certificate at `stem.cnf` plus `stem.drat`
/// (CaDiCaL, DRAT text, checked at once by the command in `GRUNDY_DRAT_CHECKER` when it is set:
/// see [`check_drat_proof`]) or `stem.varisat` (varisat's proof format, checked at once by
/// `varisat-checker`, a crate of its own). splr writes no proofs. Files of SAT and timed-out
/// calls are removed.
///
/// # Errors
/// [`SolveError`] if the solver fails, a file cannot be written, or a varisat proof is refused.
pub fn solve_with_proof(
    kind: SolverKind,
    cnf: &Cnf,
    timeout: Option<Duration>,
    stem: &std::path::Path,
) -> Result<(Answer, Option<ProofNote>), SolveError> {
    let checker = drat_checker_from_env();
    let format = ProofFormat::Drat;
    solve_with_proof_checked_by(kind, cnf, timeout, stem, (format, checker.as_deref()), None)
}

/// The DRAT checker's command that `GRUNDY_DRAT_CHECKER` names, if it names one.
pub fn drat_checker_from_env() -> Option<String> {
    std::env::var(DRAT_CHECKER_VAR)
        .ok()
        .filter(|c| !c.trim().is_empty())
}

/// [`solve_with_proof`] with CaDiCaL's proof format and the DRAT checker's command given
/// (`None`: a DRAT proof stays unchecked), and CaDiCaL stopped (answering `Timeout`) when
/// `stop` rises. An LRAT proof (`stem.lrat`) is checked at once by [`super::lrat`], whatever
/// the DRAT checker.
///
/// # Errors
/// As [`solve_with_proof`], and the checker's refusal.
pub fn solve_with_proof_checked_by(
    kind: SolverKind,
    cnf: &Cnf,
    timeout: Option<Duration>,
    stem: &std::path::Path,
    (format, drat_checker): (ProofFormat, Option<&str>),
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<(Answer, Option<ProofNote>), SolveError> {
    let fail = |reason: String| SolveError {
        solver: kind.name(),
        reason,
    };
    if kind == SolverKind::Splr {
        return Ok((solve(kind, cnf, timeout)?, None));
    }
    let cnf_path = with_extension(stem, ".cnf");
    let (answer, proof_path, format, checked_by) =
        run_writing_proof(kind, (cnf, format), timeout, stem, stop).map_err(fail)?;
    if answer != Answer::Unsat {
        let _ = std::fs::remove_file(&proof_path);
        return Ok((answer, None));
    }
    crate::io::write_atomic(&cnf_path, |w| {
        cnf.write_dimacs(&["the CNF of the UNSAT proof beside this file".into()], w)
    })
    .map_err(|e| fail(e.to_string()))?;
    let checked_by = match (format, drat_checker) {
        ("lrat", _) => match super::lrat::check_files(&cnf_path, &proof_path, stop) {
            Ok(_) => Some(super::lrat::checker_name()),
            Err(super::lrat::LratError::Stopped) => {
                let _ = std::fs::remove_file(&proof_path);
                let _ = std::fs::remove_file(&cnf_path);
                return Ok((Answer::Timeout, None));
            }
            Err(e) => {
                return Err(fail(format!(
                    "the LRAT proof {}: {e}",
                    proof_path.display()
                )));
            }
        },
        ("drat", Some(command)) => {
            let checked = check_drat_proof_unless_stopped(command, &cnf_path, &proof_path, stop)
                .map_err(|e| fail(e.to_string()))?;
            if checked.is_none() {
                // No answer, as a solver stopped would give; the files would only take disk
                // (gigabytes for a hard call).
                let _ = std::fs::remove_file(&proof_path);
                let _ = std::fs::remove_file(&cnf_path);
                return Ok((Answer::Timeout, None));
            }
            checked
        }
        _ => checked_by,
    };
    Ok((
        answer,
        Some(ProofNote {
            cnf: cnf_path.display().to_string(),
            proof: proof_path.display().to_string(),
            format: format.into(),
            checked_by,
        }),
    ))
}

/// What a CaDiCaL call given lemmas and writing an LRAT proof ended with
/// ([`solve_carried_with_lrat`]).
#[derive(Debug)]
pub struct CarriedProof {
    pub answer: Answer,
    /// For an UNSAT answer given clauses of certified files only: its proof, checked against
    /// the CNF and those clauses, so a proof from the CNF alone.
    pub proof: Option<ProofNote>,
    /// For a call stopped without an answer: the check of its proof as a derivation of what
    /// it learned ([`super::lrat::check_derivation`]); `None` when it was given a clause of an
    /// uncertified file (its file cannot be certified, so its proof is not read).
    pub derivation: Option<super::lrat::Derivation>,
}

/// CaDiCaL on `cnf` as `run` says, given `carry`'s clauses and keeping what it learns, writing
/// an LRAT proof at `stem.lrat` (with `stem.cnf`: the CNF and the given clauses, in the order the
/// solver had them), checked when the call ends by [`super::lrat`]: an UNSAT proof as a
/// refutation, a stopped call's as a derivation of every clause it learned, which then marks
/// `carry` derived ([`super::lemmas::Carry::derived`]), so its lemma file is saved certified.
/// Why: a piece refuted given lemma files rests on CaDiCaL having learned them soundly, and
/// proving it again from its CNF alone costs its whole search again (hours for the pieces at
/// Officers' frontier); checked step by step, the files become part of its proof. The checks are
/// not cut short by `stop`: minutes at most, against the hours of search they certify. The
/// proof's files are removed once read, unless an UNSAT proof's note names them.
///
/// # Errors
/// The solver's failure, a file that cannot be written, or a proof the checker refuses.
pub fn solve_carried_with_lrat(
    cnf: &Cnf,
    timeout: Option<Duration>,
    run: &CadicalRun,
    stem: &std::path::Path,
) -> Result<CarriedProof, String> {
    let carry = run.carry.ok_or("a carried proof needs lemmas to carry")?;
    let (cnf_path, proof_path) = (with_extension(stem, ".cnf"), with_extension(stem, ".lrat"));
    // Given a clause of an uncertified file, no proof of this call proves anything: none is
    // written, and the call costs what it would without.
    let proving = match carry.given_certified {
        true => CadicalRun {
            proof: Some(&proof_path),
            proof_format: ProofFormat::Lrat,
            ..run.clone()
        },
        false => run.clone(),
    };
    let answer = solve_cadical_with(cnf, timeout, &proving).map_err(|e| e.to_string())?;
    let remove = || {
        let _ = std::fs::remove_file(&proof_path);
        let _ = std::fs::remove_file(&cnf_path);
    };
    let read_proof = match answer {
        Answer::Unsat | Answer::Timeout => carry.given_certified,
        Answer::Sat(_) => false,
    };
    if !read_proof {
        remove();
        let (proof, derivation) = (None, None);
        return Ok(CarriedProof {
            answer,
            proof,
            derivation,
        });
    }
    use super::CollectClauses;
    let mut given = cnf.clone();
    for clause in &carry.given {
        given.add_clause(clause);
    }
    let comment = "a CNF and the lemmas given with it, of the LRAT proof beside this file";
    crate::io::write_atomic(&cnf_path, |w| given.write_dimacs(&[comment.into()], w))
        .map_err(|e| e.to_string())?;
    drop(given);
    let refused =
        |e: super::lrat::LratError| format!("the LRAT proof {}: {e}", proof_path.display());
    if answer == Answer::Timeout {
        let derivation = derive_learned(cnf, carry, (&cnf_path, &proof_path));
        remove();
        let derivation = Some(derivation.map_err(refused)?);
        return Ok(CarriedProof {
            answer,
            proof: None,
            derivation,
        });
    }
    super::lrat::check_files(&cnf_path, &proof_path, None).map_err(refused)?;
    let note = ProofNote {
        cnf: cnf_path.display().to_string(),
        proof: proof_path.display().to_string(),
        // Given nothing, it is a proof from the CNF alone, and says so as one does.
        format: match carry.given.len() {
            0 => "lrat".into(),
            n => format!("lrat given {n} clauses of certified lemma files"),
        },
        checked_by: Some(super::lrat::checker_name()),
    };
    Ok(CarriedProof {
        answer,
        proof: Some(note),
        derivation: None,
    })
}

/// The check of a stopped call's LRAT proof (at `paths`: its CNF and the given clauses, and the
/// proof) as a derivation of every clause `carry` learned, marking `carry` derived when none
/// is missing. A clause learned again that the CNF or the given clauses hold (the proof adds
/// no such clause) is no new claim, and not missing.
fn derive_learned(
    cnf: &Cnf,
    carry: &super::lemmas::Carry,
    (cnf_path, proof_path): (&std::path::Path, &std::path::Path),
) -> Result<super::lrat::Derivation, super::lrat::LratError> {
    use super::lrat::sorted;
    let learned = carry.learned();
    let mut derivation = super::lrat::check_derivation(cnf_path, proof_path, &learned, None)?;
    if !derivation.missing.is_empty() {
        let held: std::collections::HashSet<Vec<i32>> =
            (cnf.clauses().chain(carry.given.iter().map(Vec::as_slice)))
                .map(sorted)
                .collect();
        derivation.missing.retain(|c| !held.contains(c));
    }
    if derivation.missing.is_empty() {
        carry.derived();
    }
    Ok(derivation)
}

/// `stem` with `ext` appended (`stem` may hold dots of its own).
fn with_extension(stem: &std::path::Path, ext: &str) -> std::path::PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(ext);
    std::path::PathBuf::from(s)
}

/// CaDiCaL (writing `format`) or varisat on `cnf`, writing its proof beside `stem`: the
/// answer, the proof's path and format, and (varisat) the in-process checker that accepted it.
fn run_writing_proof(
    kind: SolverKind,
    (cnf, format): (&Cnf, ProofFormat),
    timeout: Option<Duration>,
    stem: &std::path::Path,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<(Answer, std::path::PathBuf, &'static str, Option<String>), String> {
    match kind {
        SolverKind::Cadical => {
            let path = with_extension(stem, &format!(".{}", format.name()));
            let run = CadicalRun {
                proof: Some(&path),
                proof_format: format,
                stop,
                ..CadicalRun::default()
            };
            let answer = solve_cadical_with(cnf, timeout, &run).map_err(|e| e.to_string())?;
            Ok((answer, path, format.name(), None))
        }
        SolverKind::Varisat => {
            let path = with_extension(stem, ".varisat");
            let answer = run_varisat(cnf, Some(&path))?;
            let checked = match answer {
                Answer::Unsat => Some(check_varisat_proof(cnf, &path)?),
                _ => None,
            };
            Ok((answer, path, "varisat", checked))
        }
        SolverKind::Splr => Err("splr writes no proofs".into()),
    }
}

/// The environment variable naming an external DRAT checker (a command and its arguments,
/// separated by spaces), such as `sh encodings/check_drat_rate.sh` (rate, from crates.io) or
/// `python3 encodings/check_drat.py` (dratify, from PyPI).
pub const DRAT_CHECKER_VAR: &str = "GRUNDY_DRAT_CHECKER";

/// Why a DRAT checker did not accept a proof.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// It ran to its verdict and refused the proof (exit 1).
    #[error("the UNSAT proof {proof} was refused: {said}")]
    Refused { proof: String, said: String },
    /// It ended before a verdict: stopped by the caller, killed by a signal (a stop request
    /// sent to the process group, the out-of-memory killer), or exit 3 (its wrapper saw the
    /// checker killed). The proof is neither accepted nor refused.
    #[error(
        "the DRAT checker ended without a verdict on {proof} ({how}): the proof is neither accepted nor refused"
    )]
    NoVerdict { proof: String, how: String },
    /// It could not check at all: not found, exit 2 (missing checker, bad usage, no verdict),
    /// or an exit outside the protocol.
    #[error("the DRAT checker could not check {proof}: {said}")]
    Cannot { proof: String, said: String },
}

/// Runs `command CNF PROOF`, a DRAT checker that exits 0 and prints its name on one line when it
/// accepts the proof, 1 when it refuses it, 2 when it cannot check, 3 when it was stopped before
/// its verdict (any other exit is outside this protocol, and read as "cannot check"). Returns
/// that line. When `stop` rises the checker is ended (its whole process group, so a wrapper's
/// checker too) and the answer is [`CheckError::NoVerdict`]. Why this
/// care: a checker killed by the signal that stops a run (a terminal's Ctrl-C, `timeout`, a
/// scheduler's SIGTERM reach the whole process group) must never be read as a refusal, which
/// would say that a solver's UNSAT proof is wrong.
///
/// # Errors
/// [`CheckError`]: a refusal (with the checker's own line), no verdict, or why it could not run.
pub fn check_drat_proof(
    command: &str,
    cnf: &std::path::Path,
    proof: &std::path::Path,
    stop: Option<&AtomicBool>,
) -> Result<String, CheckError> {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let proof_name = proof.display().to_string();
    let cannot = |said: String| CheckError::Cannot {
        proof: proof_name.clone(),
        said,
    };
    let mut words = command.split_whitespace();
    let program = words
        .next()
        .ok_or_else(|| cannot("empty DRAT checker command".into()))?;
    let mut run = std::process::Command::new(program);
    run.args(words).arg(cnf).arg(proof);
    if stop.is_some() {
        // A group of its own, ended by us when `stop` rises; without a stop to watch it stays
        // in ours, so an interrupt reaches it.
        run.process_group(0);
    }
    end_with_this_thread(&mut run);
    let child = run
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| cannot(format!("cannot run {command:?}: {e}")))?;
    let (status, stdout, stderr, stopped) = wait_for_checker(child, stop)
        .map_err(|e| cannot(format!("lost the checker {command:?}: {e}")))?;
    let said = |bytes: &[u8]| String::from_utf8_lossy(bytes).trim().to_string();
    let (out, err) = (said(&stdout), said(&stderr));
    let no_verdict = |how: String| CheckError::NoVerdict {
        proof: proof_name.clone(),
        how,
    };
    match (status.code(), status.signal()) {
        // Accepted just before the stop reached it: a verdict all the same.
        (Some(0), _) => Ok(out),
        _ if stopped => Err(no_verdict("stopped by a stop request".into())),
        (_, Some(signal)) => Err(no_verdict(format!("killed by signal {signal}"))),
        (Some(3), _) => Err(no_verdict(format!("{out}{err}"))),
        (Some(2), _) => Err(cannot(format!("{out}{err}"))),
        (Some(1), _) => Err(CheckError::Refused {
            proof: proof_name.clone(),
            said: format!("{out}{err}"),
        }),
        // Outside the protocol (a crash, a shell's 126/127, another checker's codes): no claim
        // about the proof can be read from it, least of all a refusal.
        (code, _) => Err(cannot(format!(
            "exit {}, outside the checker protocol (0 accepted, 1 refused): {out}{err}",
            code.map_or("without a code".into(), |c| c.to_string())
        ))),
    }
}

/// Has the child `run` starts sent SIGTERM when this thread ends (Linux: `PR_SET_PDEATHSIG`),
/// above all when grundy is killed outright (SIGKILL, the out-of-memory killer), where no stop
/// reaches it: a checker left behind would run on for an hour, holding a CPU and gigabytes of
/// proof on disk. The thread that starts a checker waits for it, so it never ends first. A
/// wrapper passes the signal on (`encodings/check_drat_rate.sh` ends rate).
fn end_with_this_thread(run: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: prctl(2) and getppid(2) are async-signal-safe, and the closure touches no
        // memory of the parent beyond a copied integer.
        unsafe {
            run.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Ended between the fork and the prctl: the signal will never come.
                if libc::getppid() != parent {
                    return Err(std::io::Error::other(
                        "grundy ended before its checker started",
                    ));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = run;
}

/// [`check_drat_proof`], with a check that `stop` ended (or that died while `stop` was raised:
/// the signal of a stop request can reach the checker first) as `None`: the call it checks is
/// then unanswered, to be asked again, and never refused.
///
/// # Errors
/// As [`check_drat_proof`], less the no-verdict of a stop.
pub fn check_drat_proof_unless_stopped(
    command: &str,
    cnf: &std::path::Path,
    proof: &std::path::Path,
    stop: Option<&AtomicBool>,
) -> Result<Option<String>, CheckError> {
    match check_drat_proof(command, cnf, proof, stop) {
        Ok(by) => Ok(Some(by)),
        Err(CheckError::NoVerdict { .. }) if stop.is_some_and(|s| s.load(Relaxed)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Waits for a checker, reading its output as it runs (a full pipe would stall it), and ends
/// its process group when `stop` rises. Returns its status, output, and whether it was ended.
fn wait_for_checker(
    mut child: std::process::Child,
    stop: Option<&AtomicBool>,
) -> std::io::Result<(std::process::ExitStatus, Vec<u8>, Vec<u8>, bool)> {
    use std::io::Read;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let group = child.id() as libc::pid_t;
    let mut ended = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if !ended && stop.is_some_and(|s| s.load(Relaxed)) {
            // SIGTERM to the group (the checker may be a wrapper's child), then SIGKILL to
            // whatever is left of it after a grace period.
            // SAFETY: kill(2) with a negative pid signals a process group, our child's own.
            unsafe { libc::kill(-group, libc::SIGTERM) };
            ended = true;
            let grace = Instant::now() + Duration::from_secs(5);
            while child.try_wait()?.is_none() && Instant::now() < grace {
                std::thread::sleep(Duration::from_millis(20));
            }
            unsafe { libc::kill(-group, libc::SIGKILL) };
            continue;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    Ok((status, out, err, ended))
}

fn varisat_lits(clause: &[i32]) -> Vec<varisat::Lit> {
    clause
        .iter()
        .map(|&l| varisat::Lit::from_dimacs(l as isize))
        .collect()
}

/// varisat on `cnf`, writing its native proof to `proof` when given.
fn run_varisat(cnf: &Cnf, proof: Option<&std::path::Path>) -> Result<Answer, String> {
    use varisat::ExtendFormula;
    let mut solver = varisat::Solver::new();
    if let Some(path) = proof {
        let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        solver.write_proof(std::io::BufWriter::new(file), varisat::ProofFormat::Varisat);
    }
    for clause in cnf.clauses() {
        solver.add_clause(&varisat_lits(clause));
    }
    let answer = if solver.solve().map_err(|e| e.to_string())? {
        let mut model = vec![false; cnf.num_vars as usize + 1];
        for l in solver.model().unwrap_or_default() {
            let v = l.var().to_dimacs() as usize;
            if v < model.len() {
                model[v] = l.is_positive();
            }
        }
        Answer::Sat(model)
    } else {
        Answer::Unsat
    };
    if proof.is_some() {
        solver.close_proof().map_err(|e| e.to_string())?;
    }
    Ok(answer)
}

/// Checks a varisat proof of `cnf` with `varisat-checker` (re-exported as `varisat::checker`): it
/// re-derives every step by unit propagation from the clauses given here, not from the solver.
pub fn check_varisat_proof(cnf: &Cnf, path: &std::path::Path) -> Result<String, String> {
    let mut checker = varisat::checker::Checker::new();
    for clause in cnf.clauses() {
        checker
            .add_clause(&varisat_lits(clause))
            .map_err(|e| e.to_string())?;
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    checker
        .check_proof(std::io::BufReader::new(file))
        .map_err(|e| format!("the UNSAT proof was refused: {e}"))?;
    Ok("varisat-checker".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checker command running the shell script `body` (which gets CNF and PROOF as $1 $2).
    fn script(dir: &std::path::Path, body: &str) -> String {
        let path = dir.join(format!("checker-{}.sh", body.len()));
        std::fs::write(&path, body).unwrap();
        format!("sh {}", path.display())
    }

    /// What a checker's exit says: 0 accepted (its line), 1 refused, 2 cannot check, 3 or a
    /// signal no verdict. Why it matters: a checker killed by the signal that stops a run
    /// read as a refusal would say a sound proof is wrong.
    #[test]
    fn a_checker_killed_or_stopped_gives_no_verdict_never_a_refusal() {
        let dir = tempfile::tempdir().unwrap();
        let (cnf, proof) = (dir.path().join("x.cnf"), dir.path().join("x.drat"));
        let check = |body: &str| check_drat_proof(&script(dir.path(), body), &cnf, &proof, None);
        assert_eq!(check("echo accepted by me").unwrap(), "accepted by me");
        assert!(matches!(
            check("echo no; exit 1"),
            Err(CheckError::Refused { .. })
        ));
        assert!(matches!(check("exit 2"), Err(CheckError::Cannot { .. })));
        assert!(matches!(
            check("echo killed; exit 3"),
            Err(CheckError::NoVerdict { .. })
        ));
        let killed = check("kill -TERM $$");
        assert!(
            matches!(&killed, Err(CheckError::NoVerdict { how, .. }) if how.contains("signal 15")),
            "{killed:?}"
        );
        // Outside the protocol: a crash or a shell's "not found" is no refusal.
        for code in [101, 127] {
            let odd = check(&format!("echo panicked; exit {code}"));
            assert!(
                matches!(&odd, Err(CheckError::Cannot { said, .. }) if said.contains(&format!("exit {code}"))),
                "{odd:?}"
            );
        }
        // Output beyond a pipe's buffer does not stall it.
        let long = check("head -c 1000000 /dev/zero | tr '\\0' x; echo; echo done >&2; exit 1");
        assert!(matches!(long, Err(CheckError::Refused { .. })));
    }

    /// A stop ends a checker at once, with the child its wrapper started (a process group of
    /// its own), and says so: no verdict.
    #[test]
    fn a_stop_ends_the_checker_and_its_children() {
        let dir = tempfile::tempdir().unwrap();
        let (cnf, proof) = (dir.path().join("x.cnf"), dir.path().join("x.drat"));
        let pid_file = dir.path().join("sleeper.pid");
        let body = format!(
            "sleep 60 & echo $! > {}; wait; echo accepted",
            pid_file.display()
        );
        let command = script(dir.path(), &body);
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let checked = std::thread::scope(|s| {
            s.spawn(|| {
                while !pid_file.exists() {
                    std::thread::sleep(Duration::from_millis(10));
                }
                stop.store(true, Relaxed);
            });
            check_drat_proof(&command, &cnf, &proof, Some(&stop))
        });
        assert!(
            matches!(&checked, Err(CheckError::NoVerdict { how, .. }) if how.contains("stop")),
            "{checked:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(20));
        // The wrapper's child is gone too: no process, or a zombie waiting to be reaped, within
        // a few seconds (its own 60 would be far longer).
        let sleeper = std::fs::read_to_string(&pid_file).unwrap();
        let stat = format!("/proc/{}/stat", sleeper.trim());
        let running = || {
            std::fs::read_to_string(&stat).is_ok_and(|s| {
                s.rsplit(')')
                    .next()
                    .is_some_and(|rest| !rest.starts_with(" Z"))
            })
        };
        let waited = Instant::now();
        while running() && waited.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!running(), "the sleep {} outlived the stop", sleeper.trim());
    }
}

#[cfg(test)]
mod carried_proof_tests {
    use super::*;
    use crate::sat::CollectClauses;
    use crate::sat::lemmas::Carry;
    use std::path::Path;

    /// Pigeons into holes, one fewer hole than pigeons: UNSAT, and past a few hundred
    /// conflicts for CaDiCaL at 9 pigeons.
    fn pigeonhole(pigeons: i32) -> Cnf {
        let mut cnf = Cnf::default();
        let holes = pigeons - 1;
        let var = |p: i32, h: i32| p * holes + h + 1;
        cnf.num_vars = pigeons * holes;
        for p in 0..pigeons {
            cnf.add_clause(&(0..holes).map(|h| var(p, h)).collect::<Vec<_>>());
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    cnf.add_clause(&[-var(p, h), -var(q, h)]);
                }
            }
        }
        cnf
    }

    fn stopped_call(cnf: &Cnf, carry: &Carry, stem: &std::path::Path) -> CarriedProof {
        let run = CadicalRun {
            carry: Some(carry),
            conflicts: Some(300),
            ..CadicalRun::default()
        };
        solve_carried_with_lrat(cnf, None, &run, stem).unwrap()
    }

    /// A stopped call's proof, checked as a derivation, certifies what it learned (the carry
    /// then saves its file certified) when it was given certified clauses, and names a clause
    /// it never derived (one put among the learned by hand, as a solver's unsound export would
    /// be): then nothing is certified. Given an uncertified clause, its proof is not read.
    /// Its proof's files are removed either way. Mutations: `derived` set without the check,
    /// the learned clauses not asked of the derivation, `given_certified` ignored.
    #[test]
    fn a_stopped_call_certifies_exactly_what_its_proof_derived() {
        let dir = tempfile::tempdir().unwrap();
        let stem = dir.path().join("php");
        let cnf = pigeonhole(9);
        let certified_given = |given| Carry::given_certified(given, true);
        let carry = certified_given(vec![vec![1, 2, 3]]);
        let called = stopped_call(&cnf, &carry, &stem);
        assert_eq!(called.answer, Answer::Timeout);
        let derivation = called.derivation.expect("a derivation");
        assert!(derivation.missing.is_empty(), "{derivation:?}");
        assert!(!carry.learned().is_empty() && carry.certified());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

        // A clause it was given, put among the learned, is no new claim.
        let carry = certified_given(vec![vec![1, 2, 3]]);
        carry.learn(vec![3, 2, 1]);
        let called = stopped_call(&cnf, &carry, &stem);
        assert!(called.derivation.unwrap().missing.is_empty() && carry.certified());

        let forged = vec![-1, -2, -3, 80];
        let carry = certified_given(vec![]);
        carry.learn(forged.clone());
        let called = stopped_call(&cnf, &carry, &stem);
        assert_eq!(
            called.derivation.unwrap().missing,
            vec![vec![-3, -2, -1, 80]]
        );
        assert!(!carry.certified());

        let uncertified = Carry::new(vec![vec![1, 2, 3]]);
        let called = stopped_call(&cnf, &uncertified, &stem);
        assert!(called.derivation.is_none() && !uncertified.certified());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Refuted given certified clauses, the call's proof is checked against the CNF and them
    /// (in the order the solver had them) and its note says how many; given uncertified ones,
    /// no proof. The CNF beside the proof is the CNF and the given clauses, and the proof is
    /// accepted again there by the checker alone. Mutation: the given clauses left out of the
    /// CNF beside the proof (the check refuses it), a note with uncertified clauses given.
    #[test]
    fn a_refutation_given_certified_clauses_is_a_checked_proof() {
        let dir = tempfile::tempdir().unwrap();
        let stem = dir.path().join("php");
        let cnf = pigeonhole(6);
        let given = vec![vec![-1, -2], vec![3, 4, 5, 6, 7]];
        let carry = Carry::given_certified(given.clone(), true);
        let run = CadicalRun {
            carry: Some(&carry),
            ..CadicalRun::default()
        };
        let called = solve_carried_with_lrat(&cnf, None, &run, &stem).unwrap();
        assert_eq!(called.answer, Answer::Unsat);
        let note = called.proof.expect("a proof");
        assert!(note.format.starts_with("lrat given 2 clauses"), "{note:?}");
        let text = std::fs::read_to_string(&note.cnf).unwrap();
        let header = format!("p cnf {} {}", cnf.num_vars, cnf.num_clauses + 2);
        assert!(text.lines().any(|l| l == header), "{text}");
        assert!(text.ends_with("-1 -2 0\n3 4 5 6 7 0\n"), "{text}");
        let paths = (Path::new(&note.cnf), Path::new(&note.proof));
        assert!(
            crate::sat::lrat::check_files(paths.0, paths.1, None)
                .unwrap()
                .refuted
        );

        let uncertified = Carry::new(given);
        let run = CadicalRun {
            carry: Some(&uncertified),
            ..CadicalRun::default()
        };
        let called = solve_carried_with_lrat(&cnf, None, &run, &stem).unwrap();
        assert_eq!(
            (called.answer, called.proof.is_none()),
            (Answer::Unsat, true)
        );
    }
}
