/*!
Cube-and-conquer over the value box of one period question, resumable for months.

One CaDiCaL run on a hard period (Officers 27, 29, 37, 39) either answers or, after hours, says
nothing about how far it got. Here the question is cut into *cubes*, boxes of the value space,
each tried by an incremental CaDiCaL under a conflict budget; a cube that outlasts its budget is
split in two and its halves go back in the queue. The refuted share of the box is a measure of
progress that only grows, the queue is written to a ledger from which a later run (or a machine
after a crash) goes on, and the question is answered when a cube has a model (SAT, witness-checked)
or when no cube is left (UNSAT).

Invariants (kept under one lock, written down once here):
- A [`Cube`] gives every residue `r` an interval `lo[r]..=hi[r]` of bytes (compressed common
  values, as in [`super::encode`]); its *share* is the fraction of the full box `[0, 255]^p` it
  covers, the product of `(hi - lo + 1) / 256`.
- The cubes waiting, the cubes being tried and the region already refuted partition the full box:
  a split replaces a cube by two halves of one residue's interval, and a refuted cube leaves the
  queue exactly once, adding its share to `refuted_share`. So `refuted_share` plus the waiting
  shares is 1, which [`Ledger::read`] checks (a ledger that fails it is corrupt).
- A refutation is CaDiCaL's UNSAT under the cube's bounds as assumptions, on the encoding alone
  (the clauses it learned on the way are implied by it). Its failed assumptions name the bounds
  the refutation used; the box of those bounds alone holds the cube, and every waiting or running
  cube inside it is refuted with it (they satisfy the same bounds).
- A model is decoded and checked by [`super::witness`] before it is reported.

Why intervals and binary splits: a bound `s[r] <= c` is one literal of the encoding (the
sequential counter, [`PeriodEncoding::at_most`]), so a cube is a handful of assumptions and one
solver serves every cube, keeping what it learned. Which residue to split: the one with the fewest
live bytes left, counting a byte dead when it conflicts with a residue already fixed (its XOR with
that value is an option of one of them) or lies below `s[0]`'s lower bound when rotation is
broken; the split is at the middle live byte. This is the "smallest domain first" rule of
constraint programming: fixing residues one after another lets the pairwise conflicts prune, where
halving every residue's range once (measured on Officers p = 27, the top bits of 9 residues) leaves
cubes as hard as the question.
*/

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::encode::PeriodEncoding;

/// A box of the value space: residue `r`'s byte lies in `lo[r]..=hi[r]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    pub lo: Vec<u8>,
    pub hi: Vec<u8>,
}

/// A bound of a cube that a refutation may or may not have used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// `s[r] >= lo[r]`.
    Lower(usize),
    /// `s[r] <= hi[r]`.
    Upper(usize),
}

impl Cube {
    /// The whole value space of period `p`.
    pub fn full(p: usize) -> Cube {
        Cube {
            lo: vec![0; p],
            hi: vec![255; p],
        }
    }

    /// The fraction of the full box this cube covers.
    pub fn share(&self) -> f64 {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(&l, &h)| (f64::from(h) - f64::from(l) + 1.0) / 256.0)
            .product()
    }

    /// Whether `other` lies inside this cube.
    pub fn contains(&self, other: &Cube) -> bool {
        (0..self.lo.len()).all(|r| self.lo[r] <= other.lo[r] && other.hi[r] <= self.hi[r])
    }

    /// The literals of `e` that say "inside this cube": one a bound that says something.
    pub fn bound_literals(&self, e: &PeriodEncoding) -> Vec<i32> {
        self.bounds(e).into_iter().map(|(l, _)| l).collect()
    }

    /// The bounds that say something (not `0 <=` nor `<= 255`), as literals of `e`.
    fn bounds(&self, e: &PeriodEncoding) -> Vec<(i32, Bound)> {
        let mut out = Vec::new();
        for r in 0..self.lo.len() {
            if self.lo[r] > 0 {
                out.push((-e.at_most(r, self.lo[r] as usize - 1), Bound::Lower(r)));
            }
            if self.hi[r] < 255 {
                out.push((e.at_most(r, self.hi[r] as usize), Bound::Upper(r)));
            }
        }
        out
    }

    /// This cube with only the bounds in `used`: the region a refutation that used them refutes.
    fn keeping(&self, used: &[Bound]) -> Cube {
        let mut wide = Cube::full(self.lo.len());
        for &b in used {
            match b {
                Bound::Lower(r) => wide.lo[r] = self.lo[r],
                Bound::Upper(r) => wide.hi[r] = self.hi[r],
            }
        }
        wide
    }

    /// The pieces of residue `r`'s interval cut before each byte of `cuts` (increasing, each in
    /// `lo[r] + 1..=hi[r]`).
    fn pieces(&self, r: usize, cuts: &[u8]) -> Vec<Cube> {
        let mut out = Vec::with_capacity(cuts.len() + 1);
        let mut from = self.lo[r];
        for &at in cuts
            .iter()
            .chain(std::iter::once(&self.hi[r].wrapping_add(1)))
        {
            let mut piece = self.clone();
            piece.lo[r] = from;
            piece.hi[r] = at.wrapping_sub(1);
            out.push(piece);
            from = at;
        }
        out
    }

    /// The narrowed residues as `r:lo-hi` (`r:v` when fixed), space-separated; `*` for the full
    /// box. The ledger's form, read back by [`Cube::parse`].
    pub fn render(&self) -> String {
        let parts: Vec<String> = (0..self.lo.len())
            .filter(|&r| (self.lo[r], self.hi[r]) != (0, 255))
            .map(|r| match (self.lo[r], self.hi[r]) {
                (l, h) if l == h => format!("{r}:{l}"),
                (l, h) => format!("{r}:{l}-{h}"),
            })
            .collect();
        if parts.is_empty() {
            "*".into()
        } else {
            parts.join(" ")
        }
    }

    /// Reads [`Cube::render`]'s form (also with commas between residues) for period `p`.
    ///
    /// # Errors
    /// A message naming the part that is not `r:v` or `r:lo-hi` with `r < p`, `lo <= hi <= 255`.
    pub fn parse(text: &str, p: usize) -> Result<Cube, String> {
        let mut cube = Cube::full(p);
        for part in text
            .split([' ', ','])
            .filter(|s| !s.is_empty() && *s != "*")
        {
            let bad = || format!("bad cube part {part:?} (want r:v or r:lo-hi, r < {p})");
            let (r, range) = part.split_once(':').ok_or_else(bad)?;
            let r: usize = r.parse().map_err(|_| bad())?;
            let (lo, hi) = range.split_once('-').unwrap_or((range, range));
            let (lo, hi): (u8, u8) = (
                lo.parse().map_err(|_| bad())?,
                hi.parse().map_err(|_| bad())?,
            );
            if r >= p || lo > hi {
                return Err(bad());
            }
            cube.lo[r] = lo;
            cube.hi[r] = hi;
        }
        Ok(cube)
    }
}

/// The summed share of `cubes` (the share they cover when disjoint); 0.0 for none (a float
/// `sum` of nothing is -0.0, which the JSON would show).
pub fn total_share(cubes: &[Cube]) -> f64 {
    cubes.iter().map(Cube::share).fold(0.0, |a, b| a + b)
}

/// How a campaign's encoding breaks rotation symmetry: what residue 0 bounds the others by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rotation {
    /// Every rotation kept.
    Kept,
    /// `s[0]` is a smallest value (the question's own encoding).
    SmallestFirst,
    /// `s[0]` is a largest value (a band of [`super::bounds`]).
    LargestFirst,
}

/// The live bytes of each residue in `cube`, by the pairwise conflicts with fixed residues and
/// the rotation: `s[r] >= lo[0]` with a smallest value first, `s[r] <= hi[0]` with a largest.
/// Sound but weak (the solver knows more); it only chooses splits.
fn live_bytes(shifts: &[Vec<u8>], cube: &Cube, rotation: Rotation) -> Vec<Vec<u8>> {
    let p = cube.lo.len();
    let fixed: Vec<usize> = (0..p).filter(|&q| cube.lo[q] == cube.hi[q]).collect();
    (0..p)
        .map(|r| {
            let (floor, ceiling) = match rotation {
                Rotation::Kept => (0, 255),
                Rotation::SmallestFirst => (cube.lo[0], 255),
                Rotation::LargestFirst => (0, cube.hi[0]),
            };
            let forbidden: Vec<(u8, [bool; 256])> = fixed
                .iter()
                .filter(|&&q| q != r)
                .map(|&q| {
                    let mut f = [false; 256];
                    for &v in shifts[(r + p - q) % p]
                        .iter()
                        .chain(&shifts[(q + p - r) % p])
                    {
                        f[v as usize] = true;
                    }
                    (cube.lo[q], f)
                })
                .collect();
            (cube.lo[r].max(floor)..=cube.hi[r].min(ceiling))
                .filter(|&c| forbidden.iter().all(|(b, f)| !f[(c ^ b) as usize]))
                .collect()
        })
        .collect()
}

/// The split of a cube the solver could not settle: the residue with the fewest live bytes that
/// is not fixed yet, cut into at most `fanout` pieces with about as many live bytes each (2: at
/// its middle live byte; 256: one live byte a piece, the dead ones riding along), or in two at the
/// middle of its interval when nothing there is live. The pieces partition the cube.
pub fn split(
    shifts: &[Vec<u8>],
    cube: &Cube,
    rotation: Rotation,
    fanout: usize,
) -> Option<Vec<Cube>> {
    let live = live_bytes(shifts, cube, rotation);
    let r = (0..cube.lo.len())
        .filter(|&r| cube.lo[r] < cube.hi[r])
        .min_by_key(|&r| (live[r].len(), r))?;
    let (lo, hi) = (cube.lo[r], cube.hi[r]);
    let live = &live[r];
    let n = live.len();
    let cuts: Vec<u8> = match n {
        0 => vec![lo + (hi - lo).div_ceil(2)],
        // One live byte: cut it off from what lies below it, or from what lies above.
        1 if live[0] > lo => vec![live[0]],
        1 => vec![live[0] + 1],
        _ => {
            let k = fanout.clamp(2, n);
            let mut cuts: Vec<u8> = (1..k).map(|i| live[n * i / k]).collect();
            cuts.dedup();
            cuts
        }
    };
    Some(cube.pieces(r, &cuts))
}

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
    /// A band of [`super::bounds`]: the campaign asks "a pattern whose largest value lies in
    /// `from..below`?" on the encoding with a largest value first, its root the band's box
    /// ([`super::bounds::band_cube`]); its UNSAT is a rung of the question's bounds ladder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<super::bounds::Band>,
    /// [`super::lemmas::fingerprint`] of the encoding: a ledger goes on only on the same clauses.
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
    #[serde(default, skip_serializing_if = "super::solve::Preset::is_default")]
    pub preset: super::solve::Preset,
    /// A checked pattern (true values) once a cube had a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Vec<crate::values::Value>>,
    /// Share of the box that lies in other ledgers: shares this one dealt out, or (in a share)
    /// everything but its portion. See [`super::shares`].
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
    /// Refuted regions written to the region log beside the ledger ([`super::certify`]), and
    /// the log's length in bytes then: a longer log is cut back to it (lines a run wrote before
    /// it died, counted nowhere), a shorter one is corrupt. A ledger begun before regions were
    /// logged has refuted share that no logged region covers.
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub logged_regions: u64,
    #[serde(default, skip_serializing_if = "is_zero_count")]
    pub region_log_bytes: u64,
    /// Share of the box put back among the open cubes after it had been refuted with no
    /// region logged ([`super::certify::reopen_unlogged`]), summed over every such reopening:
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
            fingerprint: super::lemmas::fingerprint(&e.cnf),
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

    /// A new campaign on `band` (the root, [`super::bounds::band_cube`]), on `e` with a largest
    /// value put first.
    pub fn in_band(
        game: &str,
        e: &PeriodEncoding,
        question: &str,
        band: super::bounds::Band,
    ) -> Result<Ledger, String> {
        let root = super::bounds::band_cube(e, band)?;
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
        band: Option<super::bounds::Band>,
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
            let show = |b: &Option<super::bounds::Band>| {
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
            self.region_log_bytes = super::certify::append_regions(path, self).map_err(fail)?;
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
    /// ([`super::shares`]): gathering them tells more.
    PartRefuted,
    /// Cubes remain (time up or stopped).
    Open,
}

/// How a run of a campaign goes.
pub struct Conquer<'a> {
    pub encoding: &'a PeriodEncoding,
    pub threads: usize,
    /// Conflicts a cube gets before it is split.
    pub conflicts: u32,
    /// Pieces a split makes at most ([`split`]).
    pub fanout: usize,
    /// Stop (leaving the rest open) at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this is raised (Ctrl-C, SIGTERM).
    pub stop: &'a AtomicBool,
    /// CaDiCaL's seed (0: its default).
    pub seed: u32,
    /// CaDiCaL's configuration for every worker (see [`super::solve::Preset`]).
    pub preset: super::solve::Preset,
    /// Stop after this many solver calls in this run (a bound on work that does not depend on
    /// the machine: tests, and a share of a campaign for a job of fixed size).
    pub max_calls: Option<u64>,
    /// Clauses of at most this many literals that a worker's CaDiCaL learns go to the other
    /// workers before their next call (0: none). Learned clauses are implied by the encoding
    /// (assumptions are decisions in CaDiCaL, never premises), so sharing them changes no answer.
    pub share_len: usize,
}

/// A run could not go on: a solver failed or a model failed the witness check.
#[derive(Debug, thiserror::Error)]
pub enum ConquerError {
    #[error("CaDiCaL failed: {0}")]
    Solver(String),
    /// The ledger handed in holds a cube that does not parse (the CLI reads ledgers with
    /// [`Ledger::read`], which refuses such a file before any solving).
    #[error("the ledger holds a malformed cube: {0}")]
    BadLedger(String),
    #[error("a model in cube {cube} fails the witness check: {reason}")]
    BadModel { cube: String, reason: String },
    #[error("{0}")]
    Report(String),
}

/// Turns a model's bytes into a checked pattern (true values), or says why it is not one.
pub type WitnessCheck<'a> = dyn Fn(&[u8]) -> Result<Vec<crate::values::Value>, String> + Sync + 'a;

/// One solver call's outcome on a cube.
enum Tried {
    /// UNSAT under the bounds of this region (the cube or a box holding it), with the clause
    /// that says so (the negated bounds used).
    Refuted(Cube, Vec<i32>),
    Model(Vec<u8>),
    Undecided,
}

/// The queue and counters the workers share; see the module notes for the invariant.
struct Frontier {
    open: Vec<Cube>,
    running: HashMap<u64, Cube>,
    next_ticket: u64,
    ledger: Ledger,
    found: Option<Result<Vec<crate::values::Value>, ConquerError>>,
    /// Workers still looking for work.
    workers: usize,
    /// Cubes taken in this run.
    taken: u64,
    /// The clause of every refutation so far (implied by the encoding): each worker adds those
    /// it has not seen before its next call, so a region one solver refuted is known to all.
    region_clauses: Vec<Vec<i32>>,
}

impl Frontier {
    /// Ends the run with `outcome` (the first one kept) and tells every worker to halt.
    fn end(&mut self, outcome: Result<Vec<crate::values::Value>, ConquerError>, halt: &AtomicBool) {
        self.found.get_or_insert(outcome);
        halt.store(true, Ordering::Relaxed);
    }

    /// The queue of a new run of the campaign in `ledger`, counted as one more run, with the
    /// conflict budget and preset of `run`.
    fn start(ledger: &Ledger, run: &Conquer<'_>) -> Result<Frontier, ConquerError> {
        let (_, open) = ledger.cubes().map_err(ConquerError::BadLedger)?;
        let mut base = ledger.clone();
        base.runs += 1;
        base.conflicts_per_call = run.conflicts;
        base.preset = run.preset;
        Ok(Frontier {
            open,
            running: HashMap::new(),
            next_ticket: 0,
            ledger: base,
            found: None,
            workers: run.threads.max(1),
            taken: 0,
            region_clauses: Vec::new(),
        })
    }

    /// The end of a run, the workers gone: `ledger` becomes the final state (with the pattern,
    /// if one was found), and what ended the run early, if anything, is returned.
    fn finish(
        &mut self,
        ledger: &mut Ledger,
    ) -> Option<Result<Vec<crate::values::Value>, ConquerError>> {
        let found = self.found.take();
        if let Some(Ok(pattern)) = &found {
            self.ledger.pattern = Some(pattern.clone());
        }
        *ledger = self.snapshot();
        found
    }

    /// Removes every waiting or running cube inside `region` and counts it refuted; `ticket`'s
    /// own cube (if still running) among them.
    fn refute(&mut self, ticket: u64, region: &Cube) {
        let mut share = 0.0;
        self.open.retain(|c| {
            let inside = region.contains(c);
            if inside {
                share += c.share();
            }
            !inside
        });
        let gone: Vec<u64> = self
            .running
            .iter()
            .filter(|(t, c)| **t == ticket || region.contains(c))
            .map(|(t, _)| *t)
            .collect();
        for t in gone {
            share += self.running.remove(&t).map_or(0.0, |c| c.share());
        }
        self.ledger.refuted_share += share;
        self.ledger.refutations += 1;
        self.ledger.new_regions.push(region.render());
    }

    /// Puts back the `pieces` of `ticket`'s undecided `cube`, unless a wider refutation by
    /// another worker removed the cube meanwhile (then there is nothing left to split).
    fn put_back(&mut self, ticket: u64, cube: Cube, pieces: Option<Vec<Cube>>) {
        if self.running.remove(&ticket).is_none() {
            return;
        }
        match pieces {
            Some(pieces) => {
                // Reversed: the queue is a stack, so the lowest piece goes first.
                self.open.extend(pieces.into_iter().rev());
                self.ledger.splits += 1;
            }
            // Every residue fixed and still undecided cannot happen (propagation settles a full
            // assignment); keep it open rather than lose it.
            None => self.open.insert(0, cube),
        }
    }

    /// After `snapshot` was reported: how much of the region log it wrote, and the regions it
    /// did not log (a save that failed) back ahead of those refuted since.
    fn logged(&mut self, mut snapshot: Ledger) {
        self.ledger.logged_regions = snapshot.logged_regions;
        self.ledger.region_log_bytes = snapshot.region_log_bytes;
        snapshot.new_regions.append(&mut self.ledger.new_regions);
        self.ledger.new_regions = snapshot.new_regions;
    }

    /// The ledger as it stands, the running cubes written back as open; the regions refuted
    /// since the last snapshot move into it (saving it logs them).
    fn snapshot(&mut self) -> Ledger {
        let regions = std::mem::take(&mut self.ledger.new_regions);
        let mut ledger = Ledger {
            new_regions: regions,
            ..self.ledger.clone()
        };
        ledger.open = self
            .open
            .iter()
            .chain(self.running.values())
            .map(Cube::render)
            .collect();
        ledger
    }
}

/// Runs the campaign in `ledger` on: `run.threads` workers, each an incremental CaDiCaL, take cubes
/// from the queue (last in, first out: depth first, so the queue stays short) until a model is
/// found, no cube is left, or the run is stopped. `check` turns a model's bytes into a checked
/// pattern (the witness check) or says why it is not one. `report` gets a snapshot of the ledger
/// every `report_every` (to save it and show progress) and once at the end; an error from it stops
/// the run. The ledger passed in is left as the final snapshot.
///
/// # Errors
/// [`ConquerError`] if a solver fails or a model fails the check; the ledger is still the last
/// consistent state (the cube of a failed call stays open).
pub fn conquer(
    run: &Conquer<'_>,
    ledger: &mut Ledger,
    check: &WitnessCheck<'_>,
    report_every: Duration,
    report: &mut dyn FnMut(&mut Ledger) -> Result<(), String>,
) -> Result<Verdict, ConquerError> {
    let started = Instant::now();
    let frontier = Mutex::new(Frontier::start(ledger, run)?);
    let changed = Condvar::new();
    let halt = AtomicBool::new(false);
    let learned = Mutex::new(Vec::new());
    let seconds_before = ledger.seconds;
    let outcome = std::thread::scope(|scope| {
        for id in 0..run.threads.max(1) {
            let pool = Pool {
                id,
                learned: &learned,
            };
            let (frontier, changed, halt) = (&frontier, &changed, &halt);
            scope.spawn(move || worker(run, frontier, changed, halt, check, pool));
        }
        let mut last_report = Instant::now();
        loop {
            let state = frontier.lock().expect("cube frontier lock");
            let (mut state, _) = changed
                .wait_timeout(state, Duration::from_millis(200))
                .expect("cube frontier lock");
            let late = run.deadline.is_some_and(|d| Instant::now() >= d);
            if late || run.stop.load(Ordering::Relaxed) || state.found.is_some() {
                halt.store(true, Ordering::Relaxed);
            }
            if state.workers == 0 {
                break;
            }
            if last_report.elapsed() >= report_every {
                let mut snapshot = state.snapshot();
                drop(state);
                snapshot.seconds = seconds_before + started.elapsed().as_secs_f64();
                let reported = report(&mut snapshot);
                let mut state = frontier.lock().expect("cube frontier lock");
                state.logged(snapshot);
                if let Err(reason) = reported {
                    // The last report that went through stays the state on disk.
                    state.end(Err(ConquerError::Report(reason)), &halt);
                }
                last_report = Instant::now();
            }
        }
        let mut state = frontier.lock().expect("cube frontier lock");
        state.ledger.seconds = seconds_before + started.elapsed().as_secs_f64();
        state.finish(ledger)
    });
    // Saved even after a failure: everything refuted so far stays refuted.
    let saved = report(ledger).map_err(ConquerError::Report);
    if let Some(Err(e)) = outcome {
        return Err(e);
    }
    saved?;
    Ok(ledger.verdict())
}

/// The short learned clauses of every worker, each with the worker that learned it.
struct Pool<'p> {
    id: usize,
    learned: &'p Mutex<Vec<(usize, Vec<i32>)>>,
}

impl Pool<'_> {
    /// The clauses other workers pooled after the first `seen` (which then counts them all).
    fn learned_by_others(&self, seen: &mut usize) -> Vec<Vec<i32>> {
        let learned = self.learned.lock().expect("lemma pool lock");
        let others = learned[*seen..].iter().filter(|(by, _)| *by != self.id);
        let news = others.map(|(_, c)| c.clone()).collect();
        *seen = learned.len();
        news
    }
}

/// One worker: its own CaDiCaL, cubes from the queue until there are none or the run halts.
fn worker<'h>(
    run: &Conquer<'_>,
    frontier: &Mutex<Frontier>,
    changed: &Condvar,
    halt: &'h AtomicBool,
    check: &WitnessCheck<'_>,
    pool: Pool<'h>,
) {
    let mut solver = match new_solver(run, halt, &pool) {
        Ok(s) => s,
        Err(e) => {
            let mut state = frontier.lock().expect("cube frontier lock");
            state.end(Err(ConquerError::Solver(e.to_string())), halt);
            state.workers -= 1;
            changed.notify_all();
            return;
        }
    };
    let e = run.encoding;
    let rotation = frontier
        .lock()
        .expect("cube frontier lock")
        .ledger
        .rotation();
    // Region clauses and pooled lemmas already added to this solver.
    let (mut seen, mut seen_learned) = (0, 0);
    loop {
        let mut news = pool.learned_by_others(&mut seen_learned);
        // Take a cube, or wait while others run (their splits may bring more).
        let Some((ticket, cube)) = next_cube(run, frontier, changed, halt, &mut seen, &mut news)
        else {
            return;
        };
        let started = Instant::now();
        let tried = add_clauses(&mut solver, &news)
            .and_then(|()| attempt(&mut solver, e, &cube, run.conflicts));
        let seconds = started.elapsed().as_secs_f64();
        let mut state = frontier.lock().expect("cube frontier lock");
        state.ledger.calls += 1;
        state.ledger.solver_seconds += seconds;
        match tried {
            Err(err) => state.end(Err(ConquerError::Solver(err.to_string())), halt),
            Ok(Tried::Refuted(region, clause)) => {
                state.refute(ticket, &region);
                state.region_clauses.push(clause);
            }
            Ok(Tried::Model(bytes)) => {
                let checked = check(&bytes).map_err(|reason| ConquerError::BadModel {
                    cube: cube.render(),
                    reason,
                });
                state.end(checked, halt);
            }
            // Stopped from outside: the cube stays running, so the snapshot keeps it open.
            Ok(Tried::Undecided) if halt.load(Ordering::Relaxed) => {}
            Ok(Tried::Undecided) => {
                let pieces = split(e.shifts(), &cube, rotation, run.fanout);
                state.put_back(ticket, cube, pieces);
            }
        }
        changed.notify_all();
    }
}

/// Waits for a cube to take and takes it (with a fresh ticket), after moving the region
/// clauses this worker has not yet seen into `news`. `None` when the worker is done: the run
/// halted, reached its `max_calls`, or has no cube waiting or running; the worker is then
/// counted out.
fn next_cube(
    run: &Conquer<'_>,
    frontier: &Mutex<Frontier>,
    changed: &Condvar,
    halt: &AtomicBool,
    seen: &mut usize,
    news: &mut Vec<Vec<i32>>,
) -> Option<(u64, Cube)> {
    let mut state = frontier.lock().expect("cube frontier lock");
    news.extend_from_slice(&state.region_clauses[*seen..]);
    *seen = state.region_clauses.len();
    loop {
        if run.max_calls.is_some_and(|m| state.taken >= m) {
            halt.store(true, Ordering::Relaxed);
        }
        if halt.load(Ordering::Relaxed) || (state.open.is_empty() && state.running.is_empty()) {
            state.workers -= 1;
            changed.notify_all();
            return None;
        }
        if let Some(cube) = state.open.pop() {
            let ticket = state.next_ticket;
            state.next_ticket += 1;
            state.taken += 1;
            state.running.insert(ticket, cube.clone());
            return Some((ticket, cube));
        }
        state = changed
            .wait_timeout(state, Duration::from_millis(100))
            .expect("cube frontier lock")
            .0;
    }
}

/// A CaDiCaL with the encoding loaded, stopping when `halt` rises, its short lemmas going to
/// `pool`.
fn new_solver<'h>(
    run: &Conquer<'_>,
    halt: &'h AtomicBool,
    pool: &Pool<'h>,
) -> anyhow::Result<rustsat_cadical::CaDiCaL<'h, 'h>> {
    use rustsat::solvers::{ControlSignal, Learn, Terminate};
    let mut solver = super::solve::fresh_cadical(run.preset, run.seed)?;
    let stopped = || halt.load(Ordering::Relaxed);
    super::solve::load_cadical(&mut solver, &run.encoding.cnf, &stopped)?;
    solver.attach_terminator(move || {
        if halt.load(Ordering::Relaxed) {
            ControlSignal::Terminate
        } else {
            ControlSignal::Continue
        }
    });
    if run.share_len > 0 && run.threads > 1 {
        let (id, learned) = (pool.id, pool.learned);
        solver.attach_learner(
            move |clause: rustsat::types::Clause| {
                let lits = clause.iter().map(|l| l.to_ipasir()).collect();
                learned.lock().expect("lemma pool lock").push((id, lits));
            },
            run.share_len,
        );
    }
    Ok(solver)
}

/// Adds clauses (implied by the encoding) to `solver`.
fn add_clauses(
    solver: &mut rustsat_cadical::CaDiCaL<'_, '_>,
    clauses: &[Vec<i32>],
) -> anyhow::Result<()> {
    for c in clauses {
        super::solve::add_ipasir(solver, c)?;
    }
    Ok(())
}

/// One call on `cube`: its bounds as assumptions, at most `conflicts` conflicts.
fn attempt(
    solver: &mut rustsat_cadical::CaDiCaL<'_, '_>,
    e: &PeriodEncoding,
    cube: &Cube,
    conflicts: u32,
) -> anyhow::Result<Tried> {
    use rustsat::solvers::{LimitConflicts, SolveIncremental, SolverResult};
    use rustsat::types::Lit;
    let bounds = cube.bounds(e);
    let assumptions: Vec<Lit> = bounds
        .iter()
        .map(|&(l, _)| Lit::from_ipasir(l))
        .collect::<Result<_, _>>()?;
    // CaDiCaL forgets a limit after each call.
    solver.limit_conflicts(Some(conflicts))?;
    Ok(match solver.solve_assumps(&assumptions)? {
        SolverResult::Unsat => {
            // The core is a clause of negated assumptions: the bounds the refutation used.
            let core: Vec<i32> = solver.core()?.iter().map(|l| l.to_ipasir()).collect();
            let used: Vec<Bound> = bounds
                .iter()
                .filter(|(l, _)| core.contains(&-l))
                .map(|&(_, b)| b)
                .collect();
            Tried::Refuted(cube.keeping(&used), core)
        }
        SolverResult::Sat => {
            let model = super::solve::cadical_model(solver, &e.cnf)?;
            Tried::Model(e.bytes(&model))
        }
        SolverResult::Interrupted => Tried::Undecided,
    })
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
    ) -> Option<super::periods::PeriodResult> {
        use super::periods::{PeriodResult, Status, minimal_period};
        let verdict = self.verdict();
        let whole = self.root == "*";
        let (status, pattern) = match verdict {
            Verdict::Open | Verdict::PartRefuted => return None,
            Verdict::Unsat if !whole => return None,
            Verdict::Unsat => (Status::Unsat, feasible),
            Verdict::Sat(pattern) => (Status::Sat, Some(pattern)),
        };
        let primitive_question = self.question == "primitive";
        let period = pattern.as_ref().map(|s| minimal_period(s) as u64);
        let (feasible_status, primitive_status) =
            super::periods::question_statuses(primitive_question, status, period, self.p as u64);
        let rotation = if self.rotation_broken {
            ", rotation broken"
        } else {
            ""
        };
        let preset = match self.preset {
            super::solve::Preset::Default => String::new(),
            preset => format!(", preset {}", preset.name()),
        };
        let how = format!(
            "{}cube-and-conquer: {} refutations, {} splits, {} calls of incremental CaDiCaL \
             ({} conflicts a call{preset}{rotation}) in {} runs; no proof",
            if primitive_question {
                "primitive by "
            } else {
                ""
            },
            self.refutations,
            self.splits,
            self.calls,
            self.conflicts_per_call,
            self.runs,
        );
        Some(PeriodResult {
            pattern_period: period,
            pattern,
            how,
            solver: Some(super::solve::SolverKind::Cadical),
            seconds: self.seconds,
            variables: e.cnf.num_vars as u64,
            clauses: e.cnf.num_clauses as u64,
            ..PeriodResult::bare(self.p as u64, feasible_status, primitive_status)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_cube(p: usize, x: &mut u64) -> Cube {
        let mut next = || {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            (*x % 256) as u8
        };
        let mut c = Cube::full(p);
        for r in 0..p {
            if next() < 128 {
                let (a, b) = (next(), next());
                (c.lo[r], c.hi[r]) = (a.min(b), a.max(b));
            }
        }
        c
    }

    #[test]
    fn a_split_partitions_its_cube_and_render_reads_back() {
        // Shifts of a made-up game: residue pairs forbid a few XORs.
        let shifts: Vec<Vec<u8>> = (0..5u8).map(|t| vec![t * 3 + 1, t * 7 + 2]).collect();
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..500 {
            let cube = random_cube(5, &mut x);
            assert_eq!(Cube::parse(&cube.render(), 5).unwrap(), cube);
            let (kept, smallest, largest) = (
                Rotation::Kept,
                Rotation::SmallestFirst,
                Rotation::LargestFirst,
            );
            for (rotation, fanout) in [(kept, 2), (smallest, 2), (kept, 5), (largest, 256)] {
                let Some(pieces) = split(&shifts, &cube, rotation, fanout) else {
                    assert!((0..5).all(|r| cube.lo[r] == cube.hi[r]));
                    continue;
                };
                // At most `fanout`, inside, one residue cut into intervals that meet end to end
                // from lo to hi, shares adding up.
                assert!(pieces.len() >= 2 && pieces.len() <= fanout.max(2));
                assert!(pieces.iter().all(|c| cube.contains(c)));
                let cut: Vec<usize> = (0..5).filter(|&r| pieces[0].hi[r] != cube.hi[r]).collect();
                assert_eq!(cut.len(), 1, "{}", pieces[0].render());
                let r = cut[0];
                assert_eq!(pieces[0].lo[r], cube.lo[r]);
                assert_eq!(pieces.last().unwrap().hi[r], cube.hi[r]);
                for w in pieces.windows(2) {
                    assert_eq!(u16::from(w[0].hi[r]) + 1, u16::from(w[1].lo[r]));
                }
                let total: f64 = pieces.iter().map(Cube::share).sum();
                assert!((total - cube.share()).abs() < 1e-15);
            }
        }
        assert_eq!(Cube::full(3).render(), "*");
        assert_eq!(Cube::full(3).share(), 1.0);
        assert!(Cube::parse("3:1", 3).is_err() && Cube::parse("0:5-4", 3).is_err());
    }

    #[test]
    fn the_split_takes_the_residue_with_fewest_live_bytes() {
        // p = 4, residue 0 fixed to 10; pairs (0, 1) and (0, 3) forbid XOR 1..=200 (offsets 1
        // and 3), (0, 2) nothing: residues 1 and 3 keep 56 live bytes (XOR 0 or above 200),
        // residue 2 all 256, so residue 1 is cut (the lower of a tie), at its middle live byte.
        let shifts = vec![vec![], (1..=200).collect(), vec![], vec![]];
        let mut cube = Cube::full(4);
        (cube.lo[0], cube.hi[0]) = (10, 10);
        let live = live_bytes(&shifts, &cube, Rotation::Kept);
        assert_eq!((live[1].len(), live[2].len(), live[3].len()), (56, 256, 56));
        assert!(live[1].iter().all(|&c| c == 10 || (c ^ 10) > 200));
        let [a, b] =
            <[Cube; 2]>::try_from(split(&shifts, &cube, Rotation::Kept, 2).unwrap()).unwrap();
        // Fanout 256: a piece per live byte of residue 1.
        let all = split(&shifts, &cube, Rotation::Kept, 256).unwrap();
        assert_eq!(all.len(), 56);
        assert!(all.iter().all(|c| {
            live[1]
                .iter()
                .filter(|&&v| c.lo[1] <= v && v <= c.hi[1])
                .count()
                == 1
        }));
        // With rotation broken, nothing below s[0]'s lower bound lives.
        assert!(
            live_bytes(&shifts, &cube, Rotation::SmallestFirst)[2]
                .iter()
                .all(|&c| c >= 10)
        );
        // With a largest value first, nothing above s[0]'s upper bound lives.
        let largest = live_bytes(&shifts, &cube, Rotation::LargestFirst);
        assert_eq!(largest[2], (0..=10).collect::<Vec<u8>>());
        assert_eq!((a.hi[1], b.lo[1]), (live[1][28] - 1, live[1][28]));
    }

    /// A ledger that breaks the partition is not written over the last good one; a reopening
    /// keeps the partition (the pieces move from refuted to open).
    #[test]
    fn a_corrupt_ledger_is_not_saved_and_a_reopening_keeps_the_partition() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("l.json");
        let half = Cube::parse("0:0-127", 2).unwrap();
        let mut ledger = Ledger {
            p: 2,
            root: "*".into(),
            open: vec![half.render()],
            refuted_share: 0.5,
            ..Ledger::default()
        };
        ledger.save(&path).unwrap();
        let good = std::fs::read(&path).unwrap();
        let mut lost = ledger.clone();
        lost.refuted_share = 0.25;
        let err = lost.save(&path).unwrap_err().to_string();
        assert!(err.contains("not saved: corrupt"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), good);
        // The refuted half, reopened in two pieces, last in the queue.
        let pieces = [
            Cube::parse("0:128-200", 2).unwrap(),
            Cube::parse("0:201-255", 2).unwrap(),
        ];
        ledger.reopen(&pieces);
        ledger.save(&path).unwrap();
        let back = Ledger::read(&path).unwrap().unwrap();
        assert_eq!(back.open, ["0:128-200", "0:201-255", "0:0-127"]);
        assert!(back.refuted_share.abs() < 1e-15 && back.reopened_share == 0.5);
    }
}
