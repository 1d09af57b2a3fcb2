//! The ledger of a campaign as written to disk: its open cubes, the refuted share of its box,
//! its counters, and what it says for the periods file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Cube, Rotation, total_share};
use crate::sat::encode::PeriodEncoding;

/// A cube-and-conquer campaign on one question, as written to disk (cubes in [`Cube::render`]'s
/// form). Counters are totals over every run that added to it. (`Default` is no campaign: only
/// a start for [`Ledger::new`] and for shares.)
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub game: String,
    pub p: usize,
    /// "feasible" or "primitive".
    pub question: String,
    pub rotation_broken: bool,
    /// A band of [`crate::sat::bounds`]: the campaign asks "a pattern whose largest value lies in
    /// `from..below`?" on the encoding with a largest value first, its root the band's box
    /// ([`crate::sat::bounds::band_cube`]); its UNSAT is a rung of the question's bounds ladder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<crate::sat::bounds::Band>,
    /// [`crate::sat::lemmas::fingerprint`] of the encoding: a ledger goes on only on the same clauses.
    pub fingerprint: String,
    /// The box the campaign covers (`*`, the full box, unless started inside a cube).
    pub root: String,
    /// Cubes still to try, those running when the ledger was written among them.
    pub open: Vec<String>,
    /// Share of the full box refuted so far.
    pub refuted_share: f64,
    /// Refutations (each may refute more than its own cube, see the module notes).
    pub refutations: u64,
    /// Cubes split after outlasting their budget.
    pub splits: u64,
    /// Solver calls, and their seconds summed over threads.
    pub calls: u64,
    pub solver_seconds: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Runs that added to this ledger.
    pub runs: u64,
    /// The conflict budget of a call in the latest run.
    pub conflicts_per_call: u32,
    /// CaDiCaL's configuration in the latest run (absent: its default).
    #[serde(default, skip_serializing_if = "crate::sat::solve::Preset::is_default")]
    pub preset: crate::sat::solve::Preset,
    /// A checked pattern (true values) once a cube had a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Vec<crate::values::Value>>,
    /// Share of the box that lies in other ledgers: shares this one dealt out, or (in a share)
    /// everything but its portion. See [`crate::sat::shares`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub elsewhere: f64,
    /// Shares dealt and not yet gathered back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shares: Vec<ShareNote>,
    /// Deals made from this ledger (numbering the share files).
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub deals: u64,
    /// In a share: the deal it came from ([`ShareNote::id`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_of: Option<String>,
    /// In a share already gathered: the ledger it went back into (it runs no more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gathered_into: Option<String>,
    /// Refuted regions written to the region log beside the ledger ([`crate::sat::certify`]), and
    /// the log's length in bytes then: a longer log is cut back to it (lines a run wrote before
    /// it died, counted nowhere), a shorter one is corrupt. A ledger begun before regions were
    /// logged has refuted share that no logged region covers.
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub logged_regions: u64,
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub region_log_bytes: u64,
    /// Share of the box put back among the open cubes after it had been refuted with no
    /// region logged ([`crate::sat::certify::reopen_unlogged`]), summed over every such reopening:
    /// refuted again, it is refuted with its regions logged.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reopened_share: f64,
    /// Regions refuted since the last save ([`Cube::render`] form, in the order refuted), which
    /// [`Ledger::save`] appends to the log before it writes the ledger.
    #[serde(skip)]
    pub new_regions: Vec<String>,
}

/// A share dealt out of a ledger: its file (beside the ledger), the id it carries, its portion
/// of the box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShareNote {
    pub file: String,
    pub id: String,
    pub portion: f64,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero_count(x: &u64) -> bool {
    *x == 0
}

/// A ledger that cannot be read, joined or written.
#[derive(Debug, thiserror::Error)]
#[error("cube ledger {}: {reason}", path.display())]
pub struct LedgerError {
    pub path: PathBuf,
    pub reason: String,
}

impl Ledger {
    /// A new campaign over `root` (the full box: [`Cube::full`]).
    pub fn new(
        game: &str,
        e: &PeriodEncoding,
        question: &str,
        rotation_broken: bool,
        root: &Cube,
    ) -> Ledger {
        let mut ledger = Ledger {
            game: game.to_string(),
            p: e.p,
            question: question.to_string(),
            rotation_broken,
            fingerprint: crate::sat::lemmas::fingerprint(&e.cnf),
            root: root.render(),
            ..Ledger::default()
        };
        ledger.open.push(ledger.root.clone());
        ledger
    }

    /// The share of the box its root covers (1 for the whole box).
    pub fn root_share(&self) -> f64 {
        Cube::parse(&self.root, self.p).map_or(1.0, |c| c.share())
    }

    /// How the campaign's encoding breaks rotation.
    pub fn rotation(&self) -> Rotation {
        match (self.rotation_broken, &self.band) {
            (_, Some(_)) => Rotation::LargestFirst,
            (true, None) => Rotation::SmallestFirst,
            (false, None) => Rotation::Kept,
        }
    }

    /// A new campaign on `band` (the root, [`crate::sat::bounds::band_cube`]), on `e` with a largest
    /// value put first.
    pub fn in_band(
        game: &str,
        e: &PeriodEncoding,
        question: &str,
        band: crate::sat::bounds::Band,
    ) -> Result<Ledger, String> {
        let root = crate::sat::bounds::band_cube(e, band)?;
        Ok(Ledger {
            band: Some(band),
            ..Ledger::new(game, e, question, true, &root)
        })
    }

    /// The share of the box this ledger answers for: its root less what lies elsewhere.
    pub fn held(&self) -> f64 {
        self.root_share() - self.elsewhere
    }

    /// Where the campaign on `p`'s `question` (or on one band of it) keeps its ledger unless
    /// told otherwise: beside the game's periods file, `cubes-p<P>-<question>.json` (with a
    /// band, `...-band<F>-<V>.json`).
    pub fn path_beside(
        periods_file: &Path,
        p: usize,
        question: &str,
        band: Option<crate::sat::bounds::Band>,
    ) -> PathBuf {
        let dir = periods_file.parent().unwrap_or(Path::new(""));
        let band = band.map_or_else(String::new, |b| format!("-band{}-{}", b.from, b.below));
        dir.join(format!("cubes-p{p}-{question}{band}.json"))
    }

    /// Where the campaign stands, in one line: the share refuted (of the box, and of the
    /// campaign's cube or share when it holds only part), cubes open, shares out, work done.
    pub fn progress_line(&self) -> String {
        let share = match (&self.share_of, Cube::parse(&self.root, self.p)) {
            (Some(id), _) => format!(
                "{:.6e} of the box refuted ({:.4}% of {id})",
                self.refuted_share,
                100.0 * self.refuted_share / self.held()
            ),
            // A band's root is the band itself, a cube too long for one line (p residues).
            (None, _) if self.band.is_some() => format!(
                "{:.4}% of the band refuted",
                100.0 * self.refuted_share / self.root_share(),
            ),
            (None, Ok(root)) if self.root != "*" => format!(
                "{:.6e} of the box refuted ({:.4}% of the cube {})",
                self.refuted_share,
                100.0 * self.refuted_share / root.share(),
                self.root
            ),
            // Seven decimals: deep refutations of a long campaign move only the far digits.
            _ => format!("{:.7}% of the box refuted", 100.0 * self.refuted_share),
        };
        let out = match self.shares.len() {
            0 => String::new(),
            n => format!(
                ", {n} share{} dealt out ({:.6e} of the box)",
                if n == 1 { "" } else { "s" },
                self.elsewhere
            ),
        };
        let reopened = match self.reopened_share {
            0.0 => String::new(),
            r => format!(
                " ({:.4}% of the {} reopened to log its regions)",
                100.0 * r / self.root_share(),
                if self.band.is_some() { "band" } else { "box" }
            ),
        };
        format!(
            "{share}{reopened}, {} cubes open{out}; {} refutations, {} splits, {} calls, {:.1} s \
             in {} run{}",
            self.open.len(),
            self.refutations,
            self.splits,
            self.calls,
            self.seconds,
            self.runs,
            if self.runs == 1 { "" } else { "s" }
        )
    }

    /// The root and the open cubes, parsed.
    pub(crate) fn cubes(&self) -> Result<(Cube, Vec<Cube>), String> {
        let root = Cube::parse(&self.root, self.p)?;
        let open = self
            .open
            .iter()
            .map(|c| Cube::parse(c, self.p))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((root, open))
    }

    /// Whether the campaign has its answer: a pattern, or nothing left open here nor elsewhere.
    pub fn verdict(&self) -> Verdict {
        match (&self.pattern, self.open.is_empty()) {
            (Some(pattern), _) => Verdict::Sat(pattern.clone()),
            (None, true)
                if self.elsewhere == 0.0 && self.shares.is_empty() && self.share_of.is_none() =>
            {
                Verdict::Unsat
            }
            (None, true) => Verdict::PartRefuted,
            (None, false) => Verdict::Open,
        }
    }

    /// Why this ledger cannot go on with `fresh` (a new ledger of the question asked now), if it
    /// cannot: another game, period, question, symmetry breaking or encoding.
    pub fn refuses(&self, fresh: &Ledger) -> Option<String> {
        let differs = |what: &str, old: &dyn std::fmt::Display, new: &dyn std::fmt::Display| {
            Some(format!("made for {what} {old}, not {new}"))
        };
        if self.game != fresh.game {
            return differs("game", &self.game, &fresh.game);
        }
        if (self.p, &self.question) != (fresh.p, &fresh.question) {
            let (old, new) = (
                format!("p = {} {}", self.p, self.question),
                format!("p = {} {}", fresh.p, fresh.question),
            );
            return differs("the question", &old, &new);
        }
        if self.band != fresh.band {
            let show = |b: &Option<crate::sat::bounds::Band>| {
                b.map_or_else(
                    || "the whole question".to_string(),
                    |b| format!("the band {b}"),
                )
            };
            let (old, new) = (show(&self.band), show(&fresh.band));
            return Some(format!("made for {old}, not {new}"));
        }
        if self.rotation_broken != fresh.rotation_broken {
            return differs(
                "rotation broken =",
                &self.rotation_broken,
                &fresh.rotation_broken,
            );
        }
        if self.fingerprint != fresh.fingerprint {
            return differs(
                "the encoding",
                &self.fingerprint,
                &format!("{} (another rare table or encoding)", fresh.fingerprint),
            );
        }
        None
    }

    /// Reads a ledger; `None` if there is no file. Checks the partition invariant: the refuted
    /// share and the open cubes' shares make up the root's share, every open cube inside the root.
    ///
    /// # Errors
    /// [`LedgerError`] for a file that cannot be read, is not a ledger, or breaks the invariant.
    pub fn read(path: &Path) -> Result<Option<Ledger>, LedgerError> {
        let fail = |reason: String| LedgerError {
            path: path.to_path_buf(),
            reason,
        };
        let Some(ledger): Option<Ledger> =
            crate::io::read_json_if_present(path, "a cube ledger").map_err(&fail)?
        else {
            return Ok(None);
        };
        ledger.check_partition().map_err(fail)?;
        Ok(Some(ledger))
    }

    /// Checks the partition invariant (module notes): every open cube inside the root, the
    /// refuted share, the open cubes' and the share dealt out making up the root's share, and
    /// the shares dealt out holding what the ledger says.
    fn check_partition(&self) -> Result<(), String> {
        let (root, open) = self.cubes()?;
        if let Some(c) = open.iter().find(|c| !root.contains(c)) {
            return Err(format!("open cube {} lies outside the root", c.render()));
        }
        let open_share = total_share(&open);
        let covered = self.refuted_share + open_share + self.elsewhere;
        if (covered - root.share()).abs() > 1e-9 * root.share().max(1e-300) {
            return Err(format!(
                "corrupt: refuted {}, open {} and dealt out {} do not make up the root's share {}",
                self.refuted_share,
                open_share,
                self.elsewhere,
                root.share()
            ));
        }
        let dealt: f64 = self.shares.iter().map(|s| s.portion).sum();
        if self.share_of.is_none() && (dealt - self.elsewhere).abs() > 1e-9 {
            return Err(format!(
                "corrupt: its shares hold {dealt} of the box, not the {} it dealt out",
                self.elsewhere
            ));
        }
        Ok(())
    }

    /// Takes the ledger at `path` for this process (a lock file beside it, `.NAME.lock`, held
    /// while the returned file lives; its folder is created if missing): two runs on one ledger
    /// would each save their own queue over the other's.
    ///
    /// # Errors
    /// [`LedgerError`] if another run holds it or the lock file cannot be made.
    pub fn lock(path: &Path) -> Result<std::fs::File, LedgerError> {
        crate::io::take_lock_beside(path).map_err(|reason| LedgerError {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Puts `pieces` (disjoint boxes inside the root, refuted and in no open cube) back among
    /// the open cubes, last in the queue; their share moves from refuted to open, so the
    /// partition of the root is kept.
    pub fn reopen(&mut self, pieces: &[Cube]) {
        let share = total_share(pieces);
        let mut open: Vec<String> = pieces.iter().map(Cube::render).collect();
        open.append(&mut self.open);
        self.open = open;
        self.refuted_share -= share;
        self.reopened_share += share;
    }

    /// Appends the regions refuted since the last save to the region log beside `path`
    /// (synced), then writes the ledger atomically. A crash between the two leaves a log longer
    /// than the ledger says, cut back at the next save.
    ///
    /// A ledger that breaks the partition invariant is not written (a bug would otherwise
    /// overwrite the last good state with one no later run can read).
    ///
    /// # Errors
    /// [`LedgerError`] if either cannot be written, or the ledger is corrupt (the old ledger
    /// file stays as it was).
    pub fn save(&mut self, path: &Path) -> Result<(), LedgerError> {
        let fail = |reason: String| LedgerError {
            path: path.to_path_buf(),
            reason,
        };
        self.check_partition()
            .map_err(|e| fail(format!("not saved: {e}")))?;
        if !self.new_regions.is_empty() {
            self.region_log_bytes =
                crate::sat::certify::append_regions(path, self).map_err(fail)?;
            self.logged_regions += self.new_regions.len() as u64;
            self.new_regions.clear();
        }
        crate::io::write_json_atomic(path, self).map_err(|e| fail(e.source.to_string()))
    }
}

/// What the whole campaign has found.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// A checked pattern (true values).
    Sat(Vec<crate::values::Value>),
    /// Every cube refuted.
    Unsat,
    /// Every cube this ledger holds is refuted, and the rest of its box lies in shares
    /// ([`crate::sat::shares`]): gathering them tells more.
    PartRefuted,
    /// Cubes remain (time up or stopped).
    Open,
}

impl Ledger {
    /// The periods-file result of a finished campaign over the full box; `None` while cubes are
    /// open or when the campaign covers only part of the box (an UNSAT there answers nothing
    /// about `p`). `feasible` is the checked feasible pattern the file holds, which the
    /// `primitive` question needs (the caller makes sure there is one).
    pub fn period_result(
        &self,
        e: &PeriodEncoding,
        feasible: Option<Vec<crate::values::Value>>,
    ) -> Option<crate::sat::periods::PeriodResult> {
        use crate::sat::periods::{PeriodResult, Status};
        let verdict = self.verdict();
        let whole = self.root == "*";
        let (status, pattern) = match verdict {
            Verdict::Open | Verdict::PartRefuted => return None,
            Verdict::Unsat if !whole => return None,
            Verdict::Unsat => (Status::Unsat, feasible),
            Verdict::Sat(pattern) => (Status::Sat, Some(pattern)),
        };
        let rotation = if self.rotation_broken {
            ", rotation broken"
        } else {
            ""
        };
        let preset = match self.preset {
            crate::sat::solve::Preset::Default => String::new(),
            preset => format!(", preset {}", preset.name()),
        };
        let how = format!(
            "cube-and-conquer: {} refutations, {} splits, {} calls of incremental CaDiCaL ({} \
             conflicts a call{preset}{rotation}) in {} runs; no proof",
            self.refutations, self.splits, self.calls, self.conflicts_per_call, self.runs,
        );
        let question = (self.p as u64, self.question == "primitive");
        Some(PeriodResult::of_campaign_answer(
            e,
            question,
            (status, pattern),
            &how,
            self.seconds,
        ))
    }
}
