/*!
Certificates of cube campaigns: an UNSAT answer of [`super::cubes`] checked by DRAT proofs.

A campaign's UNSAT rests on thousands of calls to an incremental CaDiCaL, each refuting one
*region* (a box of bounds) under assumptions, with what earlier calls learned. None of that
leaves a proof. So every refuted region is written, in the order refuted, to an append-only
*region log* beside the ledger (`NAME.regions` for `NAME.json`), and `grundy sat cubes ...
--certify` later proves each region again from scratch, with a proof an independent checker
reads, and checks that the regions cover the campaign's root.

Why this is a proof that the root holds no model of the encoding `F`, region `R_i` being the
conjunction of its bounds (literals of `F`'s order variables):
- For each `i`, the CNF `F ∧ ¬R_0 ∧ … ∧ ¬R_{i-1} ∧ R_i` (earlier regions' clauses as premises,
  the region's bounds as units) is UNSAT by a proof a checker accepted: CaDiCaL's DRAT read by
  the command in `GRUNDY_DRAT_CHECKER` (without the deletions of CNF clauses, when those make
  up the proof: [`super::drat`], 2.5 times faster with rate on Officers' regions, and sound
  since fewer deletions never let a checker accept more), or varisat's own proof re-derived by
  varisat-checker ([`Prover`]). Regions `j..k` proved in one call (`--batch`) are one CNF,
  `F ∧ ¬R_0 ∧ … ∧ ¬R_{j-1} ∧ (R_j ∨ … ∨ R_{k-1})` with a selector variable per region
  ([`batch_cnf`]), whose UNSAT says the same of each region of it without the others'
  clauses. By induction on `i`, `F` implies `¬R_i` for every `i`. The
  premises are what the campaign's own solver had (region clauses of earlier refutations, and
  lemmas implied by them), so a region that solver refuted stays within reach.
- [`uncovered`] finds no point of the root outside every region: box arithmetic alone,
  independent of how the campaign split its cubes or widened its refutations.

Invariants of the region log (the ledger's `logged_regions` and `region_log_bytes` say how much
of it counts): a header line naming game, period, question, band and the encoding's fingerprint,
then one region a line in [`Cube::render`]'s form. Only the first `region_log_bytes` bytes count;
[`append_regions`] cuts any longer tail (a run that died between appending and saving its
ledger) before it writes. A certificate (`NAME.certificate.json`) counts a prefix of the log as
checked, so a certification stopped by `--timeout` goes on where it stopped.
*/

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::cubes::{Cube, Ledger, total_share};
use super::encode::PeriodEncoding;
use super::solve::{Answer, SolverKind};
use super::{Cnf, CollectClauses};

/// The region log of the ledger at `ledger_path`: `NAME.regions` beside `NAME.json`.
pub fn log_path(ledger_path: &Path) -> PathBuf {
    ledger_path.with_extension("regions")
}

/// The certificate beside the ledger at `ledger_path`: `NAME.certificate.json`.
pub fn certificate_path(ledger_path: &Path) -> PathBuf {
    ledger_path.with_extension("certificate.json")
}

/// The first line of `ledger`'s region log: a log of another campaign is refused.
fn header(ledger: &Ledger) -> String {
    let band = ledger
        .band
        .map_or_else(String::new, |b| format!(" band {b}"));
    format!(
        "# grundy region log: {} p={} {}{band}, encoding {}; one refuted box a line, in the order refuted\n",
        ledger.game, ledger.p, ledger.question, ledger.fingerprint
    )
}

/// Appends `ledger.new_regions` to the region log beside `ledger_path` after cutting it back to
/// the `region_log_bytes` the ledger counts (writing the header into an empty log), and syncs
/// it. Returns the log's new length in bytes.
///
/// # Errors
/// The log is shorter than the ledger says ([`check_log`]), or cannot be written.
pub fn append_regions(ledger_path: &Path, ledger: &Ledger) -> Result<u64, String> {
    check_log(ledger_path, ledger)?;
    let path = log_path(ledger_path);
    let fail = |e: std::io::Error| format!("region log {}: {e}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(fail)?;
    let counted = ledger.region_log_bytes;
    file.set_len(counted).map_err(fail)?;
    file.seek(SeekFrom::End(0)).map_err(fail)?;
    let mut text = String::new();
    if counted == 0 {
        text.push_str(&header(ledger));
    }
    for region in &ledger.new_regions {
        text.push_str(region);
        text.push('\n');
    }
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_data().map_err(fail)?;
    Ok(counted + text.len() as u64)
}

/// Checks that the region log beside `ledger_path` holds at least what `ledger` counts: before
/// each append, and before a campaign solves (else it would fail at its first save, a minute of
/// work lost).
///
/// # Errors
/// The log is missing or shorter than counted.
pub fn check_log(ledger_path: &Path, ledger: &Ledger) -> Result<(), String> {
    if ledger.region_log_bytes == 0 {
        return Ok(());
    }
    let path = log_path(ledger_path);
    let len = std::fs::metadata(&path).map_or(0, |m| m.len());
    if len < ledger.region_log_bytes {
        return Err(format!(
            "region log {}: {len} bytes where the ledger counts {} (missing or cut)",
            path.display(),
            ledger.region_log_bytes
        ));
    }
    Ok(())
}

/// Sets the region log beside `ledger_path` aside (renamed `NAME.regions.dropped`, numbered if
/// that exists), and its certificate with it (`NAME.certificate.json.dropped`), and makes
/// `ledger` count none, so regions from now on go to a new log; the refuted share the old one
/// held can then no longer be certified (unless reopened: [`reopen_unlogged`]). Returns where
/// the log went.
///
/// # Errors
/// The log or the certificate cannot be renamed.
pub fn drop_log(ledger_path: &Path, ledger: &mut Ledger) -> Result<Option<PathBuf>, String> {
    ledger.logged_regions = 0;
    ledger.region_log_bytes = 0;
    // The certificate of the old log goes with it (it would be refused on the new one).
    set_aside(&certificate_path(ledger_path), "certificate")?;
    set_aside(&log_path(ledger_path), "region log")
}

/// Renames `path`, if it exists, to `PATH.dropped` (numbered if that exists); returns where.
fn set_aside(path: &Path, what: &str) -> Result<Option<PathBuf>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let aside = (0..)
        .map(|i| match i {
            0 => PathBuf::from(format!("{}.dropped", path.display())),
            i => PathBuf::from(format!("{}.dropped{i}", path.display())),
        })
        .find(|p| !p.exists())
        .expect("a free name");
    std::fs::rename(path, &aside).map_err(|e| format!("{what} {}: {e}", path.display()))?;
    Ok(Some(aside))
}

/// The regions `ledger` counts in its log beside `ledger_path`, in the order refuted.
///
/// # Errors
/// The log is missing, shorter than counted, of another campaign, or holds a bad line.
pub fn read_regions(ledger_path: &Path, ledger: &Ledger) -> Result<Vec<Cube>, String> {
    if ledger.logged_regions == 0 {
        return Ok(Vec::new());
    }
    let path = log_path(ledger_path);
    let fail = |reason: String| format!("region log {}: {reason}", path.display());
    let bytes = std::fs::read(&path).map_err(|e| fail(e.to_string()))?;
    let counted = usize::try_from(ledger.region_log_bytes).unwrap_or(usize::MAX);
    let text = bytes.get(..counted).ok_or_else(|| {
        fail(format!(
            "shorter than the {counted} bytes the ledger counts"
        ))
    })?;
    let text = std::str::from_utf8(text).map_err(|_| fail("not text".into()))?;
    let mut lines = text.lines();
    let expected = header(ledger);
    if lines.next() != Some(expected.trim_end()) {
        return Err(fail(format!(
            "not the log of this campaign (want {expected:?})"
        )));
    }
    let regions = lines
        .enumerate()
        .map(|(i, line)| {
            Cube::parse(line, ledger.p).map_err(|e| fail(format!("line {}: {e}", i + 2)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if regions.len() as u64 != ledger.logged_regions {
        return Err(fail(format!(
            "{} regions, not the {} the ledger counts",
            regions.len(),
            ledger.logged_regions
        )));
    }
    Ok(regions)
}

fn intersects(a: &Cube, b: &Cube) -> bool {
    (0..a.lo.len()).all(|r| a.lo[r] <= b.hi[r] && b.lo[r] <= a.hi[r])
}

/// The part of `root` that no box of `regions` covers, as disjoint boxes (none: covered), or
/// `None` past `max_pieces` pieces examined.
///
/// Box arithmetic only: a piece is covered when a region holds it; otherwise the first region
/// that meets it is cut out of it (at most two slabs a residue, each disjoint from that region)
/// and the slabs are examined against the regions that meet them.
pub fn uncovered(root: &Cube, regions: &[Cube], max_pieces: usize) -> Option<Vec<Cube>> {
    let meeting: Vec<usize> = (0..regions.len())
        .filter(|&i| intersects(&regions[i], root))
        .collect();
    let mut stack = vec![(root.clone(), meeting)];
    let mut out = Vec::new();
    let mut examined = 0;
    while let Some((piece, candidates)) = stack.pop() {
        examined += 1;
        if examined > max_pieces {
            return None;
        }
        let candidates: Vec<usize> = candidates
            .into_iter()
            .filter(|&i| intersects(&regions[i], &piece))
            .collect();
        if candidates.iter().any(|&i| regions[i].contains(&piece)) {
            continue;
        }
        let Some((&first, rest)) = candidates.split_first() else {
            out.push(piece);
            continue;
        };
        let cut = &regions[first];
        let mut core = piece;
        for r in 0..core.lo.len() {
            if cut.lo[r] > core.lo[r] {
                let mut below = core.clone();
                below.hi[r] = cut.lo[r] - 1;
                core.lo[r] = cut.lo[r];
                stack.push((below, rest.to_vec()));
            }
            if cut.hi[r] < core.hi[r] {
                let mut above = core.clone();
                above.lo[r] = cut.hi[r] + 1;
                core.hi[r] = cut.hi[r];
                stack.push((above, rest.to_vec()));
            }
        }
        // What is left of the piece lies inside `cut`: covered.
    }
    Some(out)
}

/// Where the certification of one campaign stands, written beside its ledger.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Certificate {
    /// The ledger's file name, and the encoding's fingerprint the proofs were made on.
    pub ledger: String,
    pub fingerprint: String,
    /// Regions in the log at the last run.
    pub regions: u64,
    /// The first `checked` regions of the log each have a proof a checker accepted.
    pub checked: u64,
    /// [`checked_digest`] of those regions: a log dropped or rewritten since no longer matches,
    /// and its certificate is refused. (Absent in certificates made before it was kept.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_digest: Option<String>,
    /// The checkers that accepted them, as each names itself (one per kind of proof used).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checked_by: Vec<String>,
    /// Bytes of the proofs as the solver wrote them (each removed once checked), and seconds
    /// spent proving (the solver writing its proof; varisat's in-process check included) and
    /// checking (lightening a DRAT proof and the external checker), summed over regions.
    pub proof_bytes: u64,
    /// Of the checked regions, those whose DRAT proof the checker read without the deletions of
    /// CNF clauses ([`super::drat`]; absent in certificates made before).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lightened: u64,
    /// Solver calls that proved them, several regions a call with `--batch` (absent in
    /// certificates made before, which proved one a call).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub calls: u64,
    pub solve_seconds: f64,
    pub check_seconds: f64,
    /// The share of the full box inside the root that no logged region covers, and in how many
    /// boxes (0: covered); `None` until examined, or when the examination was too large.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncovered_share: Option<f64>,
    #[serde(default)]
    pub uncovered_pieces: u64,
    /// The share in neither a logged region nor an open cube: refuted before regions were
    /// logged, or by shares gathered without their logs (`None` as above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unlogged_share: Option<f64>,
    /// Every region checked, the root covered, the ledger UNSAT: the campaign's answer is
    /// certified.
    pub certified: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Certificate {
    /// Counts the `regions` one call proved and `note` tells of.
    fn count(&mut self, note: Checked, regions: u64) {
        self.checked += regions;
        self.calls += 1;
        self.proof_bytes += note.proof_bytes;
        self.solve_seconds += note.solve_seconds;
        self.check_seconds += note.check_seconds;
        if note.lightened {
            self.lightened += regions;
        }
        if !self.checked_by.contains(&note.checked_by) {
            self.checked_by.push(note.checked_by);
        }
    }
}

/// What proves the regions, and what checks the proofs.
#[derive(Clone, Copy, Debug)]
pub enum Prover<'a> {
    /// CaDiCaL writes DRAT; the external checker command (`GRUNDY_DRAT_CHECKER`) reads it.
    CadicalDrat { checker: &'a str },
    /// CaDiCaL writes binary LRAT; [`super::lrat`] checks it in the call, with no search (on
    /// the chain's calls its checks took 1.4-9.8 s where rate took 39.7-664.5 s).
    CadicalLrat,
    /// varisat writes its own proof; varisat-checker (a crate of its own) re-derives it.
    Varisat,
}

/// How a certification runs.
pub struct Certify<'a> {
    /// The encoding the campaign ran on (its fingerprint is the ledger's).
    pub encoding: &'a PeriodEncoding,
    /// The solver that proves each region: CaDiCaL (a DRAT proof for `checker`) or varisat
    /// (its own proof format, checked in-process by varisat-checker, its author's checker; it
    /// cannot stop mid-call at the deadline). On Officers p = 39's regions one at a time they
    /// cost about the same (29-33 s a region, CaDiCaL with rate, 2026-11-25), before lightened
    /// proofs and batches made CaDiCaL's route 2-3 times cheaper.
    pub prover: Prover<'a>,
    /// Proof calls at once (one solver each).
    pub threads: usize,
    /// Regions proved by one call ([`batch_cnf`]): one load of the CNF and one check of the
    /// proof for all of them.
    pub batch: usize,
    /// Leave the rest for a later run at this instant.
    pub deadline: Option<Instant>,
    /// Where the proofs are written (and removed once checked).
    pub work_dir: &'a Path,
    /// Leave the rest for a later run when this rises (a stop request): CaDiCaL stops at once,
    /// varisat at the end of its region.
    pub stop: &'a std::sync::atomic::AtomicBool,
}

/// A region's proof failed: the checker refused it, the solver failed, or the region has a
/// model (the log, or the campaign that wrote it, is wrong).
#[derive(Debug, thiserror::Error)]
#[error("region {index} ({region}) of the log: {reason}")]
pub struct RegionError {
    pub index: u64,
    pub region: String,
    pub reason: String,
}

/// Proves the regions of the log from `cert.checked` on, `run.batch` regions a call and
/// `run.threads` calls at once, each on `F`, the earlier regions' clauses and its regions
/// ([`batch_cnf`]); `cert` advances over each round proved (and `save` gets it after each). Stops
/// at the deadline, leaving the rest.
///
/// # Errors
/// [`RegionError`] for the first region whose proof is refused or that is not refuted; the
/// certificate keeps the regions checked before its call.
pub fn prove_regions(
    run: &Certify<'_>,
    regions: &[Cube],
    cert: &mut Certificate,
    save: &mut dyn FnMut(&Certificate) -> Result<(), String>,
) -> Result<(), RegionError> {
    use rayon::prelude::*;
    let e = run.encoding;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads.max(1))
        .build()
        .map_err(|err| RegionError {
            index: cert.checked,
            region: String::new(),
            reason: err.to_string(),
        })?;
    let mut premises = e.cnf.clone();
    for region in &regions[..cert.checked as usize] {
        premises.add_clause(&negated(&region.bound_literals(e)));
    }
    cert.regions = regions.len() as u64;
    let batch = run.batch.max(1);
    while (cert.checked as usize) < regions.len() {
        let stopped = run.stop.load(std::sync::atomic::Ordering::Relaxed);
        if stopped || run.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let start = cert.checked as usize;
        let end = (start + run.threads.max(1) * batch).min(regions.len());
        let calls: Vec<std::ops::Range<usize>> = (start..end)
            .step_by(batch)
            .map(|first| first..(first + batch).min(end))
            .collect();
        let proved: Vec<Result<Proved, RegionError>> = pool.install(|| {
            calls
                .par_iter()
                .map(|call| prove_batch(run, &premises, regions, start, call.clone()))
                .collect()
        });
        for (call, outcome) in calls.into_iter().zip(proved) {
            match outcome? {
                Proved::Checked(note) => {
                    cert.count(note, call.len() as u64);
                    for region in &regions[call] {
                        premises.add_clause(&negated(&region.bound_literals(e)));
                    }
                }
                // Out of time inside the call: the rest waits for the next run.
                Proved::Timeout => {
                    save_stamped(cert, regions, save)?;
                    return Ok(());
                }
            }
        }
        save_stamped(cert, regions, save)?;
    }
    Ok(())
}

/// Gives `save` the certificate with the digest of the regions it has checked.
fn save_stamped(
    cert: &mut Certificate,
    regions: &[Cube],
    save: &mut dyn FnMut(&Certificate) -> Result<(), String>,
) -> Result<(), RegionError> {
    cert.checked_digest = Some(checked_digest(&regions[..cert.checked as usize]));
    save(cert).map_err(|reason| region_error(cert.checked, regions, reason))
}

fn region_error(index: u64, regions: &[Cube], reason: String) -> RegionError {
    RegionError {
        index,
        region: regions
            .get(index as usize)
            .map_or_else(String::new, Cube::render),
        reason,
    }
}

fn negated(lits: &[i32]) -> Vec<i32> {
    lits.iter().map(|&l| -l).collect()
}

/// The regions of one call proved and checked.
struct Checked {
    checked_by: String,
    proof_bytes: u64,
    /// Checked without the deletions of CNF clauses ([`super::drat::lighten`]).
    lightened: bool,
    solve_seconds: f64,
    check_seconds: f64,
}

enum Proved {
    Checked(Checked),
    Timeout,
}

/// The CNF that refutes the regions `call` at once: `premises` (the encoding and the regions
/// before `start`), the regions from `start` up to `call` negated, and "one of `call` holds".
/// One region: its bounds as units. Several: a fresh selector variable per region, the clause
/// "some selector", and "selector implies each bound of its region". Why that is enough: a
/// model of the premises inside region `k` of `call`, with `k`'s selector true and the others
/// false, would satisfy it (the selectors occur nowhere else), so UNSAT refutes every region of
/// `call`. Returns the CNF and the first selector (0 for one region).
pub fn batch_cnf(
    e: &PeriodEncoding,
    premises: &Cnf,
    regions: &[Cube],
    start: usize,
    call: std::ops::Range<usize>,
) -> (Cnf, i32) {
    let mut cnf = premises.clone();
    for region in &regions[start..call.start] {
        cnf.add_clause(&negated(&region.bound_literals(e)));
    }
    if call.len() == 1 {
        for l in regions[call.start].bound_literals(e) {
            cnf.add_clause(&[l]);
        }
        return (cnf, 0);
    }
    let first = cnf.num_vars + 1;
    cnf.num_vars += call.len() as i32;
    let selectors: Vec<i32> = (first..cnf.num_vars + 1).collect();
    cnf.add_clause(&selectors);
    for (selector, region) in selectors.iter().zip(&regions[call]) {
        for l in region.bound_literals(e) {
            cnf.add_clause(&[-selector, l]);
        }
    }
    (cnf, first)
}

/// The regions `call` proved by one solver call on [`batch_cnf`] (a DRAT proof checked, or
/// varisat's), then the proof and CNF removed.
///
/// Measured on Officers p = 39's band 184..192 from region 700, CaDiCaL and rate, seconds a
/// region: 19.4 one at a time (6.6 solving, 12.8 lightening and checking), 11.1 ten at a time
/// (4.8 and 6.4), 9.0 thirty at a time (3.7 and 5.3): each call loads and each check parses the
/// 188 MB CNF once for all its regions (2026-11-26, `examples/batch_probe.rs`).
fn prove_batch(
    run: &Certify<'_>,
    premises: &Cnf,
    regions: &[Cube],
    start: usize,
    call: std::ops::Range<usize>,
) -> Result<Proved, RegionError> {
    let first = call.start;
    let fail = |reason: String| {
        let together = match call.len() {
            1 => String::new(),
            n => format!(" (proved with the {} after it in one call)", n - 1),
        };
        region_error(first as u64, regions, format!("{reason}{together}"))
    };
    let (cnf, first_selector) = batch_cnf(run.encoding, premises, regions, start, call.clone());
    let stem = run.work_dir.join(format!("regions-{first}-{}", call.end));
    let timeout = run.deadline.map(|d| {
        d.saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1))
    });
    use super::solve::ProofFormat;
    let (kind, format) = match run.prover {
        Prover::CadicalDrat { .. } => (SolverKind::Cadical, ProofFormat::Drat),
        Prover::CadicalLrat => (SolverKind::Cadical, ProofFormat::Lrat),
        Prover::Varisat => (SolverKind::Varisat, ProofFormat::Drat),
    };
    let started = Instant::now();
    let (answer, note) = super::solve::solve_with_proof_checked_by(
        kind,
        &cnf,
        timeout,
        &stem,
        (format, None),
        Some(run.stop),
    )
    .map_err(|err| fail(err.to_string()))?;
    let solve_seconds = started.elapsed().as_secs_f64();
    let note = match (answer, note) {
        (Answer::Timeout, _) => return Ok(Proved::Timeout),
        (Answer::Sat(model), _) => {
            // The region whose selector the model sets (the only one, with one region).
            let k = (0..call.len())
                .find(|&k| first_selector != 0 && model[(first_selector as usize) + k])
                .unwrap_or(0);
            return Err(region_error(
                (first + k) as u64,
                regions,
                format!("{} finds a model: the region is not refuted", kind.name()),
            ));
        }
        (Answer::Unsat, None) => return Err(fail("UNSAT without a proof".into())),
        (Answer::Unsat, Some(note)) => note,
    };
    match check_and_remove(run.prover, &note, solve_seconds, run.stop) {
        Ok(Some(checked)) => Ok(Proved::Checked(checked)),
        // Stopped before the checker's verdict: left for a later run, as a solver stopped.
        Ok(None) => Ok(Proved::Timeout),
        Err(reason) => Err(fail(reason)),
    }
}

/// The check of a proof `note` names (varisat's and CaDiCaL's LRAT were checked inside their
/// call; CaDiCaL's DRAT is lightened, then read by the external checker), then the proof and its
/// CNF removed. `None`
/// when `stop` rose before the checker's verdict.
fn check_and_remove(
    prover: Prover<'_>,
    note: &super::solve::ProofNote,
    solve_seconds: f64,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Option<Checked>, String> {
    let (cnf_path, proof_path) = (Path::new(&note.cnf), Path::new(&note.proof));
    let proof_bytes = std::fs::metadata(proof_path).map_or(0, |m| m.len());
    let started = Instant::now();
    let mut lightened = false;
    // Lightening counts as checking: the checker then verifies the proof as it is.
    let checked = match (prover, &note.checked_by) {
        (Prover::CadicalDrat { checker }, _) => super::drat::lighten(proof_path).and_then(|l| {
            lightened = l.rewritten;
            super::solve::check_drat_proof_unless_stopped(checker, cnf_path, proof_path, Some(stop))
                .map_err(|e| e.to_string())
        }),
        // Checked inside the call, the proof as CaDiCaL wrote it.
        (Prover::Varisat | Prover::CadicalLrat, Some(by)) => Ok(Some(by.clone())),
        (Prover::Varisat, None) => Err("varisat's proof was not checked".into()),
        (Prover::CadicalLrat, None) => Err("the LRAT proof was not checked".into()),
    };
    let check_seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_file(proof_path);
    let _ = std::fs::remove_file(cnf_path);
    // None: stopped before the checker's verdict.
    let Some(checked_by) = checked? else {
        return Ok(None);
    };
    Ok(Some(Checked {
        checked_by,
        proof_bytes,
        lightened,
        solve_seconds,
        check_seconds,
    }))
}

/// The CRC-32 of `regions` as the log writes them (one a line), in hex: what a certificate's
/// checked prefix was proved on.
pub fn checked_digest(regions: &[Cube]) -> String {
    let mut crc = crc32fast::Hasher::new();
    for region in regions {
        crc.update(region.render().as_bytes());
        crc.update(b"\n");
    }
    format!("{:08x}", crc.finalize())
}

/// The certificate beside `ledger_path` if it belongs to `ledger` and its logged `regions`,
/// else a fresh one when there is none.
///
/// # Errors
/// The file cannot be read, or was made for another encoding, a longer log, or a log whose
/// first regions differ from those it checked (dropped or rewritten since).
pub fn read_certificate(
    ledger_path: &Path,
    ledger: &Ledger,
    regions: &[Cube],
) -> Result<Certificate, String> {
    let path = certificate_path(ledger_path);
    let fresh = Certificate {
        ledger: crate::io::file_name(ledger_path),
        fingerprint: ledger.fingerprint.clone(),
        ..Certificate::default()
    };
    let Some(old): Option<Certificate> =
        crate::io::read_json_if_present(&path, "a cube certificate")
            .map_err(|e| format!("{}: {e}", path.display()))?
    else {
        return Ok(fresh);
    };
    let checked = usize::try_from(old.checked).unwrap_or(usize::MAX);
    let same_log = regions.get(..checked).is_some_and(|prefix| {
        (old.checked_digest.as_ref()).is_none_or(|d| *d == checked_digest(prefix))
    });
    if old.fingerprint != ledger.fingerprint || !same_log {
        return Err(format!(
            "{}: made for another encoding, or a region log other than this one (longer, \
             dropped or rewritten); remove it to start again",
            path.display()
        ));
    }
    Ok(old)
}

/// Enough for every campaign measured (a few thousand regions); past it, say so.
const MAX_PIECES: usize = 50_000_000;

/// What the logged `regions` leave of `ledger`'s root: the pieces no region covers, and of
/// those the parts in no open cube either (refuted before regions were logged, or by shares
/// gathered without their logs). `None` where the examination grew past 50 million pieces examined.
pub struct Cover {
    pub uncovered: Option<Vec<Cube>>,
    pub unlogged: Option<Vec<Cube>>,
}

/// Examines what the logged `regions` leave of `ledger`'s root ([`Cover`]).
///
/// # Errors
/// The ledger holds a cube that does not parse.
pub fn cover(ledger: &Ledger, regions: &[Cube]) -> Result<Cover, String> {
    let (root, open) = ledger.cubes()?;
    let pieces = uncovered(&root, regions, MAX_PIECES);
    // What no region covers, less the open cubes: the regions are not walked a second time.
    let unlogged = pieces.as_ref().and_then(|pieces| {
        let parts: Option<Vec<Vec<Cube>>> = (pieces.iter())
            .map(|piece| uncovered(piece, &open, MAX_PIECES))
            .collect();
        parts.map(|parts| parts.into_iter().flatten().collect())
    });
    Ok(Cover {
        uncovered: pieces,
        unlogged,
    })
}

/// Examines whether the logged `regions` cover `ledger`'s root, into `cert`, and whether the
/// campaign is then certified (UNSAT, every region checked, nothing uncovered).
///
/// # Errors
/// The ledger holds a cube that does not parse.
pub fn examine_cover(
    ledger: &Ledger,
    regions: &[Cube],
    cert: &mut Certificate,
) -> Result<(), String> {
    let Cover {
        uncovered,
        unlogged,
    } = cover(ledger, regions)?;
    cert.uncovered_share = uncovered.as_deref().map(total_share);
    cert.uncovered_pieces = uncovered.as_ref().map_or(0, |p| p.len() as u64);
    cert.unlogged_share = unlogged.as_deref().map(total_share);
    cert.certified = ledger.verdict() == super::cubes::Verdict::Unsat
        && cert.checked == regions.len() as u64
        && cert.uncovered_pieces == 0
        && cert.uncovered_share.is_some();
    Ok(())
}

/// `--reopen-unlogged`: puts the part of `ledger`'s root that was refuted with no logged region
/// back among its open cubes (last in the queue, so the cubes open now go first), to be refuted
/// again with its regions logged; a campaign begun before regions were logged, or one whose log
/// was dropped, can then be certified. Returns the pieces reopened.
///
/// # Errors
/// The ledger has shares out or is a share (their part of the box is in no cube here), holds
/// a pattern (nothing to certify), or its cover is too large to examine.
pub fn reopen_unlogged(ledger: &mut Ledger, regions: &[Cube]) -> Result<Vec<Cube>, String> {
    if ledger.share_of.is_some() || !ledger.shares.is_empty() {
        return Err("shares are dealt out of it, or it is one: gather them first".into());
    }
    if ledger.pattern.is_some() {
        return Err("it holds a pattern: there is no refutation to certify".into());
    }
    let pieces = cover(ledger, regions)?
        .unlogged
        .ok_or("the part no logged region covers is too fragmented to examine")?;
    ledger.reopen(&pieces);
    Ok(pieces)
}
