/*!
Long runs: speculate, verify, roll back, checkpoint (`grundy run`).

The engine keeps `history = G(0..len)` (claims) and `verified_to` (every claim below it proven).
It repeats, a chunk at a time:
1. **Generate** the next chunk: speculatively ([`Speculative`]) when the rule allows it (value
   type space with byte compression, every partner heap past the last rare), otherwise with the
   exact rule from the claims so far ("exact mode": the first heaps, heaps shortly after a new rare
   value, windows holding values of 512 or more, position-type spaces).
2. **Verify** it ([`Verifier`], in parallel) unless `--no-verify`. At the first wrong claim `q`:
   replace it by the exact value, add it to the rare table if it is rare, discard every claim after
   it (rollback) and go on from `q + 1`.
3. **Checkpoint** every few seconds ([`Checkpoint`]): only verified values are saved when
   verifying, so a resumed run never has to roll back into saved data.

Invariant: `verified_to <= len`, and every claim below `verified_to` was either checked by the
verifier or computed by the exact rule from verified claims. Nothing is reported as verified
otherwise.

Memory stays bounded ([`RunConfig::memory`] values, but never less than the rule's window): the
history ([`History`]) keeps its first heaps and its recent tail in memory, and the *final* values
(verified ones, or every claim under `--no-verify`: those are never taken back) behind the tail
live only in a values file: the checkpoint's `FILE.values`, or without a checkpoint a temporary
file in `--spill-dir`. Statistics are gathered as values become final; the period search and the
rare rule read through the history and reach the file on the rare occasions they look far back.
*/

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::game::Game;
use crate::io::checkpoint::{Checkpoint, CheckpointError, Rollback, values_path};
use crate::period::proof::preperiod_below;
use crate::period::{Candidate, Certificate, Decision, PeriodSearch, decide, rule_window};
use crate::stats::{Stats, StatsBuilder};
use crate::values::exact::{Rule, Scratch};
use crate::values::history::{History, ValueFile};
use crate::values::speculative::{DEFAULT_BLOCK, SpecError, Speculative};
use crate::values::verify::Verifier;
use crate::values::{ExactGenerator, SparseSpace, Value, ValueError};

/// What to run. Defaults: see [`RunConfig::new`].
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub game: Game,
    /// Compute `G(0..to)`.
    pub to: u64,
    /// Generator threads and verifier threads [default: [`default_threads`] of the cores].
    pub threads: usize,
    /// Verify every value [default: true].
    pub verify: bool,
    /// Stop the exact prefix here and speculate from it (default: as soon as the rule allows).
    pub speculate_from: Option<u64>,
    /// Speculative block size [default: 256].
    pub block: usize,
    /// Values per generate-and-verify round [default: 2^18].
    pub chunk: usize,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    /// Seconds between checkpoints [default: 10].
    pub checkpoint_every: Duration,
    /// Search for a period on the verified values (rolling hash, Guy-Smith proof) [default: true].
    pub period_search: bool,
    /// Values to keep in memory [default: 2^26, 128 MiB]; more only when the rule's window
    /// (last rare position + largest take + 1) or the unverified claims need it.
    pub memory: usize,
    /// Where values spill without a checkpoint [default: the system's temporary directory].
    pub spill_dir: Option<PathBuf>,
}

/// Generator threads by default: every core up to 4, then three in four. The helpers spin, and
/// with a spinning thread on every vCPU one preempted helper stalls the rest: on a 16-core host,
/// 2^24 Officers values ran at 5.1 M/s with 12 threads and 1.7 M/s with 16.
pub fn default_threads(cores: usize) -> usize {
    if cores <= 4 {
        cores.max(1)
    } else {
        cores - cores / 4
    }
}

impl RunConfig {
    pub fn new(game: Game, to: u64) -> RunConfig {
        RunConfig {
            game,
            to,
            threads: default_threads(std::thread::available_parallelism().map_or(1, |n| n.get())),
            verify: true,
            speculate_from: None,
            block: DEFAULT_BLOCK,
            chunk: 1 << 18,
            checkpoint: None,
            resume: false,
            checkpoint_every: Duration::from_secs(10),
            period_search: true,
            memory: 1 << 26,
            spill_dir: None,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Serialize)]
pub struct RunReport {
    pub game: String,
    pub values: u64,
    /// Every value below this is proven exact.
    pub verified_to: u64,
    pub checksum: u64,
    pub rare_table: Vec<(u64, Value)>,
    pub rollbacks: Vec<Rollback>,
    /// Values produced by the speculative generator (including discarded ones).
    pub speculative_values: u64,
    /// Values produced by the exact rule.
    pub exact_values: u64,
    pub threads: usize,
    pub seconds: f64,
    pub values_per_sec: f64,
    /// A proven period, if the search found one (the run then stops early).
    pub period: Option<Certificate>,
    /// Heaps the period search looked at, its refuted candidates and hash collisions.
    pub period_searched_to: u64,
    pub period_candidates_refuted: u64,
    pub hash_collisions: u64,
    pub stats: Stats,
    /// Stopped short of `--to` by a stop request ([`crate::interrupt`]); the checkpoint, if
    /// any, holds everything up to `values`.
    #[serde(default)]
    pub interrupted: bool,
}

/// Why a run stopped early. Everything already saved stays saved.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error(transparent)]
    Value(#[from] ValueError),
    #[error("checkpoint {path} exists: pass --resume to continue it, or remove it")]
    WouldOverwrite { path: String },
    #[error("checkpoint {path} is for game {found}, not {wanted}")]
    Foreign {
        path: String,
        found: String,
        wanted: String,
    },
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The values file (checkpoint or spill) could not be written; the message names it.
    #[error("cannot store values: {0}")]
    Store(String),
}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Store(e.to_string())
    }
}

/// Progress of a run, for display.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub values: u64,
    pub verified_to: u64,
    pub rollbacks: usize,
}

/// The engine state (see the module docs).
struct Engine {
    config: RunConfig,
    history: History,
    verified_to: u64,
    /// Statistics of the final values `G(0..stats.count())`.
    stats: StatsBuilder,
    space: SparseSpace,
    rares: Vec<(u64, Value)>,
    rollbacks: Vec<Rollback>,
    verifier: Verifier,
    spec: Option<Speculative>,
    /// Values per round now: `config.chunk`, smaller right after a rollback.
    chunk: usize,
    /// The rule under `space`, for generic speculative steps.
    rule: Rule,
    slow_speculation: bool,
    /// Working memory of exact-mode steps, fitted to every value in the history.
    scratch: Scratch,
    /// Re-choose the space at this length, or when the rare table doubles from this size.
    next_review: usize,
    rares_at_review: usize,
    speculative_values: u64,
    exact_values: u64,
    checkpoint: Option<Checkpoint>,
    seconds_before: f64,
    search: PeriodSearch,
    pending: Option<Candidate>,
    /// For the pending candidate: its preperiod in the data below its window, and how far
    /// `G(n) = G(n + p)` was checked since.
    pending_preperiod: usize,
    pending_checked: usize,
    refuted: u64,
    period: Option<Certificate>,
}

/// Runs `config`, calling `progress` after every chunk; returns the report and the values
/// (in memory and on disk: [`History::claims`] reads them all).
///
/// # Errors
/// [`RunError`] for a refused checkpoint, an I/O failure while saving one or spilling values, or
/// a value beyond 16 bits; the last saved checkpoint stays valid.
pub fn run(
    config: RunConfig,
    progress: &mut dyn FnMut(Progress),
) -> Result<(RunReport, History), RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    let started = Instant::now();
    let mut engine = Engine::start(config)?;
    engine.save(started)?; // the exact prefix is worth keeping at once
    let mut last_save = Instant::now();
    let mut interrupted = false;
    while (engine.history.len() as u64) < engine.config.to {
        if crate::interrupt::requested() {
            interrupted = true; // the checkpoint below keeps every value so far
            break;
        }
        pool.install(|| engine.round())?;
        if engine.config.period_search && engine.search_period() {
            break;
        }
        if last_save.elapsed() >= engine.config.checkpoint_every {
            engine.save(started)?;
            last_save = Instant::now();
        }
        engine.trim_memory()?;
        progress(Progress {
            values: engine.history.len() as u64,
            verified_to: engine.verified_to,
            rollbacks: engine.rollbacks.len(),
        });
    }
    engine.save(started)?;
    let (mut report, history) = engine.finish(started);
    report.interrupted = interrupted;
    Ok((report, history))
}

impl Engine {
    /// A fresh engine (exact prefix) or one resumed from its checkpoint.
    fn start(config: RunConfig) -> Result<Engine, RunError> {
        if let (Some(path), true) = (config.checkpoint.clone(), config.resume) {
            return Engine::resume(config, &path);
        }
        let game = config.game.clone();
        let mut checkpoint = None;
        if let Some(path) = &config.checkpoint {
            if path.exists() {
                let shown = path.display().to_string();
                return Err(RunError::WouldOverwrite { path: shown });
            }
            checkpoint = Some((
                Checkpoint::new(&game.to_string(), ""),
                ValueFile::create(&values_path(path))?,
            ));
        }
        let prefix = Engine::exact_prefix(&game, config.speculate_from, config.to)?;
        let space = prefix.space();
        let rares: Vec<(u64, Value)> = prefix.rares().map(|(p, v)| (p as u64, v)).collect();
        let len = prefix.values().len() as u64;
        let history = History::new(prefix.into_values(), head_cap(&config));
        let mut engine = Engine::from_parts(config, history, len, space, rares, Vec::new(), 0.0);
        engine.exact_values = len;
        if let Some((c, file)) = checkpoint {
            engine.history.attach_file(file);
            engine.checkpoint = Some(c);
        }
        Ok(engine)
    }

    /// The run saved in the checkpoint at `path`, to go on with: its values file, rare table,
    /// rollbacks and statistics (claims a `--no-verify` run saved beyond what it verified are
    /// dropped when this run verifies).
    fn resume(config: RunConfig, path: &std::path::Path) -> Result<Engine, RunError> {
        let game = &config.game;
        let shown = path.display().to_string();
        let mut stats = StatsBuilder::new();
        let (mut c, mut file) = Checkpoint::load(path, &mut |at, chunk| stats.add(at, chunk))?;
        if c.game != game.to_string() {
            return Err(RunError::Foreign {
                path: shown,
                found: c.game,
                wanted: game.to_string(),
            });
        }
        let space = c.space.parse().map_err(|reason| CheckpointError::Refused {
            path: shown.clone(),
            reason,
        })?;
        if config.verify && c.verified_to < file.len() {
            // Claims saved by a --no-verify run: a verifying run may take them back,
            // and the values file holds only values never taken back. Drop them; they
            // are generated again, and verified.
            // The statistics start again: the first round gathers them from the file.
            file.truncate(c.verified_to)?;
            c.rares.retain(|r| r.0 < c.verified_to);
            stats = StatsBuilder::new();
        }
        let history = History::from_file(file, head_cap(&config), keep(&config));
        let engine = Engine::from_parts(
            config,
            history,
            c.verified_to,
            space,
            c.rares.clone(),
            c.rollbacks.clone(),
            c.seconds,
        );
        Ok(Engine {
            checkpoint: Some(c),
            stats,
            ..engine
        })
    }

    /// The exact prefix: up to `speculate_from`, or until twice past the last rare seen.
    fn exact_prefix(
        game: &Game,
        speculate_from: Option<u64>,
        to: u64,
    ) -> Result<ExactGenerator, ValueError> {
        let mut generator = ExactGenerator::new(game);
        if let Some(s) = speculate_from {
            generator.extend_to(s.min(to) as usize)?;
            return Ok(generator);
        }
        let mut len = 1024;
        loop {
            generator.extend_to((len as u64).min(to) as usize)?;
            let last = generator.rares().last().map_or(0, |r| r.0);
            let need = 2 * last + game.max_take() + 2;
            if generator.values().len() as u64 >= to || generator.values().len() >= need {
                return Ok(generator);
            }
            len = need.max(2 * len);
        }
    }

    fn from_parts(
        config: RunConfig,
        history: History,
        verified_to: u64,
        space: SparseSpace,
        rares: Vec<(u64, Value)>,
        rollbacks: Vec<Rollback>,
        seconds_before: f64,
    ) -> Engine {
        let verifier = Verifier::new(&config.game, history.claims());
        let mut scratch = Scratch::new();
        scratch.fit(verifier.max_claim());
        Engine {
            chunk: config.chunk,
            rule: Rule::new(&config.game, space),
            slow_speculation: false,
            scratch,
            next_review: 2 * history.len().max(1024),
            rares_at_review: rares.len(),
            config,
            history,
            verified_to,
            stats: StatsBuilder::new(),
            space,
            rares,
            rollbacks,
            verifier,
            spec: None,
            speculative_values: 0,
            exact_values: 0,
            checkpoint: None,
            seconds_before,
            search: PeriodSearch::new(),
            pending: None,
            pending_preperiod: 0,
            pending_checked: 0,
            refuted: 0,
            period: None,
        }
    }

    /// One chunk: generate, then verify and roll back if needed.
    fn round(&mut self) -> Result<(), RunError> {
        if self.rares.len() > 2 * self.rares_at_review + 64
            || self.history.len() >= self.next_review
        {
            self.review_space();
        }
        let from = self.history.len();
        let count = (self.chunk as u64).min(self.config.to - from as u64) as usize;
        self.generate(count)?;
        self.verifier.extend(self.history.claims());
        if self.config.verify {
            let verdict = self.verifier.check(
                self.history.claims(),
                self.verified_to,
                self.history.len() as u64,
            );
            match verdict.first_wrong {
                None => {
                    self.verified_to = self.history.len() as u64;
                    self.chunk = (2 * self.chunk).min(self.config.chunk);
                }
                Some(wrong) => {
                    self.roll_back(wrong.heap as usize, wrong.exact);
                    // Rollbacks come in bursts (a new rare value changes what follows): keep
                    // the next rounds short so little is discarded, then grow again.
                    self.chunk = 256.min(self.config.chunk);
                }
            }
        }
        self.gather_stats(self.final_to());
        Ok(())
    }

    /// Values that will never be taken back: the verified ones, or every claim without
    /// verification (nothing rolls back then).
    fn final_to(&self) -> usize {
        if self.config.verify {
            self.verified_to as usize
        } else {
            self.history.len()
        }
    }

    fn gather_stats(&mut self, to: usize) {
        let from = self.stats.count() as usize;
        if from < to {
            let stats = &mut self.stats;
            self.history
                .claims()
                .for_each_chunk(from, to, &mut |at, chunk| stats.add(at as u64, chunk));
        }
    }

    /// Moves final values behind the recent tail out of memory, into the values file (the
    /// checkpoint's, or a temporary one), once the tail has grown to twice what it keeps.
    fn trim_memory(&mut self) -> Result<(), RunError> {
        let keep = keep(&self.config).max(self.needed_window());
        let len = self.history.len();
        if len - self.history.base() <= 2 * keep {
            return Ok(());
        }
        let floor = self.final_to().min(len - keep);
        if floor <= self.history.base() {
            return Ok(()); // unverified claims: they stay until checked
        }
        if self.history.file().is_none() {
            let dir = self
                .config
                .spill_dir
                .clone()
                .unwrap_or_else(std::env::temp_dir);
            self.history.attach_file(ValueFile::temporary(&dir)?);
        }
        self.history.store_to(floor)?;
        self.history.evict_below(floor);
        Ok(())
    }

    /// The recent values the next round reads in any case: the rule's window, the speculative
    /// generator's lead and a round of slack.
    fn needed_window(&self) -> usize {
        rule_window(&self.config.game, self.rares.last().map_or(0, |r| r.0))
            + 2 * self.config.block
            + 1024
    }

    /// Feeds the verified values to the period search and decides a pending candidate on them.
    /// True when a period is proven.
    fn search_period(&mut self) -> bool {
        let verified = self.history.claims().upto(self.verified_to as usize);
        if self.pending.is_none() {
            let window = rule_window(&self.config.game, self.rares.last().map_or(0, |r| r.0));
            self.pending = self.search.feed(verified, window);
            if let Some(c) = self.pending {
                // Every pair (n, n + p) below the window is verified already: its preperiod
                // there is fixed, and any later mismatch refutes the candidate (see `decide`).
                let earliest = c.n0 + 1 - c.window;
                self.pending_preperiod = preperiod_below(verified, c.period, earliest);
                self.pending_checked = earliest;
            }
        }
        let Some(c) = self.pending else { return false };
        let earliest = c.n0 + 1 - c.window;
        let end = verified.len().saturating_sub(c.period);
        if self.pending_checked < end {
            let from = self.pending_checked;
            self.pending_checked = end;
            if preperiod_below(verified, c.period, end) > from {
                self.refute();
                return false;
            }
        }
        // The theorem needs 2d + 2p + k + 1 values; decide once they are verified (or at the
        // end of the run), on every value.
        let need = 2 * self.pending_preperiod + 2 * c.period + self.config.game.max_take() + 1;
        if verified.len() < need && (verified.len() as u64) < self.config.to {
            return false;
        }
        match decide(&self.config.game, &verified.to_vec(), c.period, earliest) {
            Decision::Proven(mut cert) => {
                cert.candidate_at = (c.n0 + c.period) as u64;
                cert.hash_collisions = self.search.collisions;
                self.period = Some(cert);
                true
            }
            Decision::NeedValues(need) if need as u64 <= self.config.to => false,
            Decision::NeedValues(_) | Decision::Refuted { .. } => {
                self.refute();
                false
            }
        }
    }

    fn refute(&mut self) {
        self.refuted += 1;
        self.pending = None;
    }

    /// Appends `count` claims: speculative where possible, else by the exact rule.
    fn generate(&mut self, count: usize) -> Result<(), RunError> {
        let target = self.history.len() + count;
        while self.history.len() < target {
            if self.spec.is_none() {
                self.spec = self.new_speculative();
            }
            let before = self.history.len();
            match &mut self.spec {
                Some(spec) => {
                    let blocks = (target - before).div_ceil(self.config.block);
                    let result = spec.generate(blocks, self.history.tail_mut());
                    self.speculative_values += (self.history.len() - before) as u64;
                    // Whole blocks may run past the chunk; the generator is rebuilt from the
                    // history for the next chunk (cheap: one window).
                    self.history.truncate(target);
                    self.spec = None;
                    if result.is_err() && self.history.len() < target {
                        self.exact_step()?; // the heap where no byte value was free
                    }
                }
                None => {
                    let until = target.min(before + self.config.block.max(1024));
                    if self.slow_speculation {
                        self.slow_speculative_steps(until)?;
                    } else {
                        while self.history.len() < until {
                            self.exact_step()?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Claims by the generic speculative rule (16-bit values, no compression): used where the
    /// byte path is not safe yet because partners of rare heaps may be rare themselves.
    fn slow_speculative_steps(&mut self, until: usize) -> Result<(), RunError> {
        let pos: Vec<u32> = self.rares.iter().map(|r| r.0 as u32).collect();
        let val: Vec<Value> = self.rares.iter().map(|r| r.1).collect();
        while self.history.len() < until {
            let n = self.history.len();
            match self
                .rule
                .speculate(self.history.claims(), n, &pos, &val, &mut self.scratch)
            {
                Some(v) if v < u32::from(Value::MAX) => {
                    self.history.push(v as Value);
                    self.scratch.fit(v as Value);
                    self.speculative_values += 1;
                }
                _ => self.exact_step()?,
            }
        }
        Ok(())
    }

    /// A speculative generator continuing the history, if the byte path allows one now. If not,
    /// `slow_speculation` says whether the generic speculative rule may stand in (the byte path
    /// is only too early) or the exact rule must (no compression, or a value too wide).
    fn new_speculative(&mut self) -> Option<Speculative> {
        match Speculative::new(
            &self.config.game,
            self.space,
            &self.rares,
            self.history.claims(),
            self.config.threads,
            self.config.block,
        ) {
            Ok(spec) => Some(spec),
            Err(e) => {
                self.slow_speculation = matches!(e, SpecError::TooEarly { .. });
                None
            }
        }
    }

    /// Appends the exact value of the next heap, computed from the claims so far.
    fn exact_step(&mut self) -> Result<(), RunError> {
        let n = self.history.len();
        let v = self
            .verifier
            .exact_value(self.history.claims(), n, &mut self.scratch);
        let v = crate::values::to_value(&self.config.game, n, v)?;
        self.push_exact(n, v);
        if !self.config.verify && self.verified_to == n as u64 {
            self.verified_to += 1; // exact rule on verified claims
        }
        self.exact_values += 1;
        Ok(())
    }

    fn push_exact(&mut self, n: usize, v: Value) {
        self.history.push(v);
        self.scratch.fit(v);
        self.verifier.extend(self.history.claims());
        if self.space.is_rare(n, v) {
            self.rares.push((n as u64, v));
        }
    }

    /// Replaces the claim at `heap` by `exact` and discards everything after it.
    fn roll_back(&mut self, heap: usize, exact: Value) {
        let claimed = self.history.get(heap);
        let discarded = (self.history.len() - heap) as u64;
        self.history.truncate(heap);
        self.verifier.truncate(heap);
        self.rares.retain(|r| (r.0 as usize) < heap);
        self.push_exact(heap, exact);
        self.verified_to = heap as u64 + 1;
        self.spec = None;
        let new_rare = self.space.is_rare(heap, exact);
        self.rollbacks.push(Rollback {
            heap: heap as u64,
            claimed,
            exact,
            new_rare,
            discarded,
        });
        self.review_space();
    }

    /// After a rollback the data may call for another sparse space (a short exact prefix may have
    /// chosen a mask that agrees only on small values): re-choose it and rebuild the rare table.
    fn review_space(&mut self) {
        self.next_review = 2 * self.history.len().max(1024);
        let allow = SparseSpace::position_type_allowed(&self.config.game);
        let claims = self.history.claims();
        if let Some((best, count)) = SparseSpace::best_for(claims, allow)
            && count < self.rares.len()
        {
            self.space = best;
            self.rule = Rule::new(&self.config.game, best);
            self.verifier = Verifier::new(&self.config.game, claims);
            let mut rares = Vec::new();
            claims.for_each_chunk(0, claims.len(), &mut |at, chunk| {
                for (n, &v) in (at..).zip(chunk) {
                    if best.is_rare(n, v) {
                        rares.push((n as u64, v));
                    }
                }
            });
            self.rares = rares;
            self.spec = None;
        }
        self.rares_at_review = self.rares.len();
    }

    /// Writes the checkpoint, if one was asked for: verified values only when verifying.
    fn save(&mut self, started: Instant) -> Result<(), RunError> {
        let (Some(path), Some(_)) = (&self.config.checkpoint, &self.checkpoint) else {
            return Ok(());
        };
        let keep = self.final_to();
        self.history.store_to(keep)?;
        let c = self.checkpoint.as_mut().expect("checked above");
        c.space = self.space.to_string();
        c.verified_to = self.verified_to.min(keep as u64);
        c.rares = self
            .rares
            .iter()
            .copied()
            .filter(|r| (r.0 as usize) < keep)
            .collect();
        c.rollbacks = self.rollbacks.clone();
        c.seconds = self.seconds_before + started.elapsed().as_secs_f64();
        c.save(
            path,
            self.history.file().expect("a checkpoint has a values file"),
        )?;
        Ok(())
    }

    fn finish(mut self, started: Instant) -> (RunReport, History) {
        let seconds = self.seconds_before + started.elapsed().as_secs_f64();
        let len = self.history.len();
        self.gather_stats(len);
        let last_rare = self.rares.last().map(|r| r.0);
        let stats = self.stats.finish(
            &self.config.game,
            self.space,
            self.rares.len() as u64,
            last_rare,
        );
        let report = RunReport {
            game: self.config.game.to_string(),
            values: len as u64,
            verified_to: self.verified_to,
            checksum: stats.checksum,
            rare_table: self.rares,
            rollbacks: self.rollbacks,
            speculative_values: self.speculative_values,
            exact_values: self.exact_values,
            threads: self.config.threads,
            seconds,
            values_per_sec: len as f64 / seconds.max(1e-9),
            period: self.period,
            period_searched_to: self.search.position() as u64,
            period_candidates_refuted: self.refuted,
            hash_collisions: self.search.collisions,
            stats,
            interrupted: false,
        };
        (report, self.history)
    }
}

/// Values of the first heaps kept in memory for good: the pair scans read them all the time.
fn head_cap(config: &RunConfig) -> usize {
    (config.memory / 4).min(1 << 22)
}

/// Values the tail keeps after a trim (it grows to twice this before the next).
fn keep(config: &RunConfig) -> usize {
    config.memory.saturating_sub(head_cap(config)) / 2
}
