//! Folding another machine's copy of a ladder into this one (`grundy sat bounds --merge`).
//!
//! Why: the pieces of a band, and their proofs, are independent calls, so a campaign spreads
//! them over machines: a lent machine with 16 cores runs `--prove-chain --pieces --jobs 16` on
//! a copy of the ladder while this one goes on with its own. What a copy learned is of two
//! kinds, merged by different rules.
//!
//! - **Facts**: a checked DRAT proof of a band's CNF, or of a piece of it. The CNF is fixed by
//!   the question's encoding (the two ladders' fingerprints must agree), the band, and where
//!   the largest value sits, so a checked proof from the other copy proves the same band here,
//!   whichever try it came from. It goes into every refuted rung of that band here that lacks
//!   it, and [`Rung::close_pieces`] closes a band whose checked pieces now cover it.
//! - **Tries**: a rung's record of one attempt (answer, seconds, pieces refuted). A try of the
//!   other copy that this one holds (the same record, whatever proofs either added) stays as
//!   it is here; a try the other copy went on with (in pieces: every piece of ours, and more
//!   seconds) replaces ours, moved to the end as a run moves the try it goes on with; a try
//!   this copy went on with stays; any other is appended. When both copies went on with the
//!   same try (a piece in common, and each with something the other lacks: two machines
//!   asking other pieces of one band with `--only-pieces`), the two are joined: the pieces
//!   and kept lemma files of both, and the seconds of each run counted once, by the run's
//!   name ([`Rung::runs`]); the band is refuted once the joined pieces cover it. Seconds that
//!   no run names (runs of builds before 2026-11-28) cannot be told apart, so where the two
//!   copies hold different amounts of them the merge is refused rather than count them twice
//!   or drop some.
//!
//! Nothing is taken on trust beyond what a ladder already records: a pattern of the other copy
//! is witness-checked before it is kept, and proofs carry their checker's name as they did
//! there. A try answered by a cube campaign names its ledger, which goes beside this ladder by
//! hand (`grundy merge` gathers the ledgers of a cluster's shares). Lemma files that a try's
//! stopped calls kept ([`Rung::kept`]) are copied from the other copy's lemma folder
//! ([`copy_kept_lemmas`]): a try taken without them would start its calls afresh, the hours
//! of search behind them lost.

use std::path::Path;

use super::{KeptLemmas, Ladder, ProofPiece, RunShare, Rung, RungAnswer, band_values};
use crate::sat::encode::PeriodEncoding;
use crate::values::Value;

/// What [`Ladder::merge_from`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Merged {
    /// Tries of the other copy appended here.
    pub tries_added: usize,
    /// Tries here replaced by the other copy's later state of them.
    pub tries_went_on: usize,
    /// Tries that both copies went on with since they parted, joined here.
    pub tries_joined: usize,
    /// Checked proofs of whole rungs taken.
    pub rung_proofs: usize,
    /// Checked proofs of pieces (or halves) taken.
    pub piece_proofs: usize,
    /// Rungs whose checked pieces cover their band now, closed by the merge.
    pub rungs_closed: usize,
    /// Records of chain calls with no answer ([`Rung::unanswered`]) taken.
    pub unanswered_taken: usize,
    /// The other copy's pattern was taken (checked, with a smaller largest value or none here).
    pub pattern_taken: bool,
}

impl Merged {
    /// Whether the merge changed nothing.
    pub fn is_empty(&self) -> bool {
        *self == Merged::default()
    }
}

impl std::fmt::Display for Merged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty() {
            return write!(f, "nothing new");
        }
        // What happened, each count with its own noun ("1 try added"); nothing said of what
        // did not (a merge of lemma records alone reads "1 try gone on with by both and
        // joined", not five zeros before it).
        let counts = [
            (self.tries_added, "try added", "tries added"),
            (
                self.tries_went_on,
                "try taken in its later state",
                "tries taken in their later state",
            ),
            (
                self.tries_joined,
                "try gone on with by both and joined",
                "tries gone on with by both and joined",
            ),
            (
                self.rung_proofs,
                "checked proof of a rung taken",
                "checked proofs of rungs taken",
            ),
            (
                self.piece_proofs,
                "checked proof of a piece taken",
                "checked proofs of pieces taken",
            ),
            (
                self.rungs_closed,
                "rung closed by its pieces",
                "rungs closed by their pieces",
            ),
            (
                self.unanswered_taken,
                "record of a chain call with no answer taken",
                "records of chain calls with no answer taken",
            ),
        ];
        let mut said: Vec<String> = (counts.iter())
            .filter(|(n, ..)| *n > 0)
            .map(|&(n, one, many)| super::plural(n, one, many))
            .collect();
        if self.pattern_taken {
            said.push("its pattern taken".to_string());
        }
        write!(f, "{}", said.join(", "))
    }
}

/// How a try of the other copy stands to the tries here ([`Ladder::merge_from`]).
enum TryHere {
    /// Held here already (or here in a later state).
    Held,
    /// Here in an earlier state, at this index.
    Earlier(usize),
    /// Here, at this index, gone on with by both copies since they parted.
    Parted(usize),
    /// Not here.
    New,
}

impl Ladder {
    /// Folds `other`, a copy of this ladder's question from another machine, into this one
    /// (the rules are in this module's doc). `largest_first` is the bands' encoding (to close
    /// bands by their pieces), `proof_stem` names their proof notes as `--prove-chain` would,
    /// and `check` witness-checks the other copy's pattern.
    ///
    /// # Errors
    /// A line, with this ladder unchanged, if `other` is of another question or encoding, if
    /// both copies went on with the same try in runs that do not name themselves, or if its
    /// pattern fails the check.
    pub fn merge_from(
        &mut self,
        other: &Ladder,
        largest_first: &PeriodEncoding,
        proof_stem: &Path,
        check: &dyn Fn(&[Value]) -> Result<(), String>,
    ) -> Result<Merged, String> {
        if let Some(reason) = other.refuses(self) {
            return Err(format!("the other ladder is {reason}"));
        }
        let mut merged = self.clone();
        let mut done = Merged::default();
        for theirs in &other.rungs {
            match merged.try_here(theirs)? {
                TryHere::Held => {}
                TryHere::Earlier(index) => {
                    merged.rungs.remove(index);
                    merged.rungs.push(theirs.clone());
                    done.tries_went_on += 1;
                }
                TryHere::Parted(index) => {
                    merged.rungs[index].join(theirs, largest_first);
                    done.tries_joined += 1;
                }
                TryHere::New => {
                    merged.rungs.push(theirs.clone());
                    done.tries_added += 1;
                }
            }
        }
        for rung in merged.rungs.iter_mut() {
            rung.take_proofs_from(other, largest_first, proof_stem, &mut done);
        }
        done.unanswered_taken = merged.take_unanswered_from(other);
        if let Some(pattern) = &other.pattern {
            let largest = pattern.iter().copied().max();
            if merged
                .largest_in_pattern()
                .is_none_or(|m| Some(m) > largest)
            {
                check(pattern).map_err(|reason| format!("the other ladder's pattern: {reason}"))?;
                merged.pattern = Some(pattern.clone());
                done.pattern_taken = true;
            }
        }
        *self = merged;
        Ok(done)
    }

    /// Takes the other copy's records of chain calls with no answer ([`Rung::unanswered`]) that
    /// are not here, each into the first refuted rung here of its band (a chain records them in
    /// the rung it proves). Returns how many it took. Why: a copy that spent 1.5 h on a call
    /// with no answer spares this one the same 1.5 h ([`super::chain_calls`]).
    fn take_unanswered_from(&mut self, other: &Ladder) -> usize {
        let proved_by_chains = |r: &Rung| r.answer == RungAnswer::Unsat && r.cubes.is_none();
        let mut taken = 0;
        for theirs in other.rungs.iter().filter(|r| proved_by_chains(r)) {
            let here = |r: &Rung| proved_by_chains(r) && r.same_band(theirs);
            for record in &theirs.unanswered {
                if self
                    .rungs
                    .iter()
                    .any(|r| here(r) && r.unanswered.contains(record))
                {
                    continue;
                }
                if let Some(rung) = self.rungs.iter_mut().find(|r| here(r)) {
                    rung.unanswered.push(record.clone());
                    taken += 1;
                }
            }
        }
        taken
    }

    /// How the other copy's try `theirs` stands to the tries here.
    fn try_here(&self, theirs: &Rung) -> Result<TryHere, String> {
        let same_band = || (self.rungs.iter().enumerate()).filter(|(_, r)| r.same_band(theirs));
        if same_band().any(|(_, r)| r.same_record(theirs) || theirs.went_on_into(r)) {
            return Ok(TryHere::Held);
        }
        if let Some((index, _)) = same_band().find(|(_, r)| r.went_on_into(theirs)) {
            return Ok(TryHere::Earlier(index));
        }
        let Some((index, r)) = same_band().find(|(_, r)| r.shares_a_piece(theirs)) else {
            return Ok(TryHere::New);
        };
        let (here, there) = (r.unnamed_seconds(), theirs.unnamed_seconds());
        // Sums of the same shares in another order differ in the last bits only.
        if (here - there).abs() > 1e-3 * here.abs().max(1.0) {
            return Err(format!(
                "both ladders went on with the same try of the band {}..{} in runs of builds \
                 before 2026-11-28, which do not name themselves ({:.0} s here, {:.0} s there): \
                 its seconds would count twice; merge that rung by hand",
                r.from, r.below, here, there
            ));
        }
        Ok(TryHere::Parted(index))
    }
}

impl Rung {
    /// The same band, asked with the same rotation: the same CNF.
    fn same_band(&self, other: &Rung) -> bool {
        (self.from, self.below, self.largest_first)
            == (other.from, other.below, other.largest_first)
    }

    /// The same record of a try, whatever proofs either copy gave it since: proofs change
    /// nothing but `proof` and `pieces` (a proof of a piece replaces the piece), and a try
    /// that went on has more seconds. (Every field is named, so that a field added to [`Rung`]
    /// must be placed.)
    fn same_record(&self, other: &Rung) -> bool {
        let record = |r: &Rung| {
            let Rung {
                from,
                below,
                largest_first,
                threads,
                answer,
                seconds,
                proof: _,
                cubes,
                preset,
                pieces: _,
                lemmas,
                cut,
                // Files on the machine that kept them: no part of what was tried.
                kept: _,
                conflicts,
                // What a copy of an earlier build lacks (None) for the same try.
                in_pieces: _,
                // Shares of `seconds`, which the record holds.
                runs: _,
                // Calls of a chain on the try, as proofs are: taken apart.
                unanswered: _,
            } = r.clone();
            let tried = (from, below, largest_first, threads, answer);
            (
                tried,
                seconds.to_bits(),
                (cubes, preset, lemmas, cut, conflicts),
            )
        };
        record(self) == record(other)
    }

    /// Whether `later` is this try gone on with: this one had no answer, with pieces refuted
    /// (only such a try is gone on with), and `later` refutes each of them, ran longer, and
    /// holds each of its runs with at least the seconds it has here.
    fn went_on_into(&self, later: &Rung) -> bool {
        let run_held = |mine: &RunShare| {
            (later.runs.iter()).any(|r| r.run == mine.run && r.seconds >= mine.seconds)
        };
        self.same_band(later)
            && self.answer == RungAnswer::Timeout
            && !self.pieces.is_empty()
            && later.seconds > self.seconds
            && (self.pieces.iter()).all(|p| later.has_piece(p.top, p.half))
            && self.runs.iter().all(run_held)
    }

    /// The seconds of this try that no run names: those of runs of builds before 2026-11-28.
    fn unnamed_seconds(&self) -> f64 {
        self.seconds - self.runs.iter().map(|r| r.seconds).sum::<f64>()
    }

    /// Joins `theirs`, this try as the other copy went on with it since they parted: each run
    /// counted once (with the most seconds either copy saw of it, a copy taken mid-run seeing
    /// fewer), the pieces and kept lemma files of both (ours where both name the same file),
    /// the most lemmas given, and the answer of the joined pieces: a pattern if either found
    /// one, refuted once they cover the band (of `e`'s bytes), else none.
    fn join(&mut self, theirs: &Rung, e: &PeriodEncoding) {
        let unnamed = self.unnamed_seconds();
        for share in &theirs.runs {
            match self.runs.iter_mut().find(|r| r.run == share.run) {
                Some(mine) => {
                    mine.seconds = mine.seconds.max(share.seconds);
                    mine.in_turn |= share.in_turn;
                }
                None => self.runs.push(share.clone()),
            }
        }
        self.seconds = unnamed + self.runs.iter().map(|r| r.seconds).sum::<f64>();
        for piece in &theirs.pieces {
            if !(self.pieces.iter()).any(|p| (p.top, p.half) == (piece.top, piece.half)) {
                self.pieces.push(piece.clone());
            }
        }
        // A piece both asked keeps both files when their names differ (runs of other seeds):
        // each holds clauses of the piece's CNF, and its next call is given every seed's file.
        for kept in &theirs.kept {
            if !self.kept.iter().any(|k| k.same_file(kept)) {
                self.kept.push(kept.clone());
            }
        }
        let kept = std::mem::take(&mut self.kept);
        let refuted = |k: &KeptLemmas| k.top.is_some_and(|top| self.has_piece(top, k.half));
        self.kept = kept.into_iter().filter(|k| !refuted(k)).collect();
        self.lemmas = self.lemmas.max(theirs.lemmas);
        let covered = (band_values(e, self.band()).iter()).all(|&v| self.covers(v));
        if self.answer == RungAnswer::Sat || theirs.answer == RungAnswer::Sat {
            self.answer = RungAnswer::Sat;
        } else if covered {
            // The band rests on its pieces, as a climb leaves a band it refuted.
            self.answer = RungAnswer::Unsat;
            self.lemmas = 0;
            self.kept.clear();
        }
    }

    /// Whether the two tries hold one piece exactly alike: a try they both went on from.
    fn shares_a_piece(&self, other: &Rung) -> bool {
        (self.pieces.iter()).any(|p| other.pieces.contains(p))
    }

    /// Takes the other copy's checked proofs of this rung's band, if this rung is refuted and
    /// has none: pieces first (closing the band once they cover it), then a whole rung's proof.
    /// Bands answered by cube campaigns are left (their certificate is a file of its own).
    fn take_proofs_from(
        &mut self,
        other: &Ladder,
        largest_first: &PeriodEncoding,
        proof_stem: &Path,
        done: &mut Merged,
    ) {
        if self.answer != RungAnswer::Unsat || self.has_checked_proof() || self.cubes.is_some() {
            return;
        }
        let theirs: Vec<&Rung> = (other.rungs.iter())
            .filter(|t| t.answer == RungAnswer::Unsat && t.cubes.is_none() && t.same_band(self))
            .collect();
        for piece in theirs.iter().flat_map(|t| &t.pieces) {
            if self.take_checked_piece(piece) {
                done.piece_proofs += 1;
            }
        }
        if self.largest_first && self.close_pieces(largest_first, proof_stem) {
            done.rungs_closed += 1;
            return;
        }
        if let Some(t) = theirs.iter().find(|t| t.has_checked_proof()) {
            self.proof = t.proof.clone();
            done.rung_proofs += 1;
        }
    }

    /// Takes `piece` if it has a checked proof that this rung lacks; a whole piece replaces
    /// every piece of its value here, as `--prove-chain` does, a half replaces that half.
    fn take_checked_piece(&mut self, piece: &ProofPiece) -> bool {
        let held = |p: &ProofPiece| p.top == piece.top && p.half == piece.half && p.is_checked();
        if !piece.is_checked() || self.has_checked_piece(piece.top) || self.pieces.iter().any(held)
        {
            return false;
        }
        let replaced =
            |p: &ProofPiece| p.top == piece.top && (piece.half.is_none() || p.half == piece.half);
        self.pieces.retain(|p| !replaced(p));
        self.pieces.push(piece.clone());
        true
    }
}

/// What [`copy_kept_lemmas`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LemmaFilesCopied {
    /// Lemma files and cores ([`crate::sat::lemmas::core_name`]) copied here, and the bytes
    /// of both (not the clauses their records name: a file may have been rewritten since, by
    /// the same call run again).
    pub copied: usize,
    pub cores: usize,
    pub bytes: u64,
    /// Files the ladder names that are in neither folder, nor their cores (their calls will
    /// start afresh).
    pub missing: Vec<String>,
    /// Files the ladder names that are in neither folder, but whose cores are (their calls
    /// will start from the cores' units and binaries).
    pub cores_only: Vec<String>,
}

impl std::fmt::Display for LemmaFilesCopied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let files = super::plural(self.copied, "lemma file", "lemma files");
        let cores = super::plural(self.cores, "core", "cores");
        let what = match (self.copied, self.cores) {
            (_, 0) => files,
            (0, _) => cores,
            _ => format!("{files} and {cores}"),
        };
        write!(f, "{what} copied ({:.1} MB)", self.bytes as f64 / 1e6)?;
        if !self.missing.is_empty() {
            write!(
                f,
                "; {} named by the ladder are in neither lemma folder (those calls start \
                 afresh): {}",
                self.missing.len(),
                self.missing.join(", ")
            )?;
        }
        if !self.cores_only.is_empty() {
            write!(
                f,
                "; {} named by the ladder are in neither lemma folder but their cores are \
                 (those calls start from their units and binaries): {}",
                self.cores_only.len(),
                self.cores_only.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Copies each lemma file that `ladder` (merged) names in a `kept` record, and its core, that
/// `ours` (this ladder's lemma folder) lacks, from `theirs` (the lemma folder of the copy
/// merged in), each written atomically. A file here already is left as it is: either file
/// serves the same call.
///
/// # Errors
/// A line naming the file that could not be read or written (a full disk): the files copied
/// before it stay, and nothing else is changed.
pub fn copy_kept_lemmas(
    ladder: &Ladder,
    theirs: &Path,
    ours: &Path,
) -> Result<LemmaFilesCopied, String> {
    let mut done = LemmaFilesCopied::default();
    for file in ladder.kept_files() {
        let file = file.as_str();
        let core = crate::sat::lemmas::core_name(file);
        for name in [file, core.as_str()] {
            if ours.join(name).exists() || !theirs.join(name).exists() {
                continue;
            }
            done.bytes += copy_lemma_file(&theirs.join(name), &ours.join(name))?;
            match name == file {
                true => done.copied += 1,
                false => done.cores += 1,
            }
        }
        if !ours.join(file).exists() {
            match ours.join(&core).exists() {
                true => done.cores_only.push(file.to_string()),
                false => done.missing.push(file.to_string()),
            }
        }
    }
    Ok(done)
}

/// Copies the file `from` to `to` atomically (its folder made if need be); returns its bytes.
fn copy_lemma_file(from: &Path, to: &Path) -> Result<u64, String> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut source = std::fs::File::open(from).map_err(|e| format!("{}: {e}", from.display()))?;
    let mut bytes = 0;
    crate::io::write_atomic(to, |out| {
        bytes = std::io::copy(&mut source, out)?;
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// The lemma files of `ours` (this ladder's lemma folder) that `before` (the files this
/// ladder's records named before a merge, [`Ladder::kept_files`]) named and `ladder` (merged)
/// names no more, removed with their cores; returns those removed (either file there), sorted.
/// Why: the merge brought a refutation of their calls (a piece refuted, or covered by parts
/// refuted, on another machine), which are never asked again, and each file holds 2^20
/// clauses (about 30 MB) that nothing will read. Called once the merged ladder is saved: a
/// save that fails leaves every file.
pub fn remove_spent_lemmas(before: &[String], ladder: &Ladder, ours: &Path) -> Vec<String> {
    let named = ladder.kept_files();
    let there = |name: &str| ours.join(name).exists();
    let mut removed = Vec::new();
    for file in before.iter().filter(|f| named.binary_search(f).is_err()) {
        if there(file) || there(&crate::sat::lemmas::core_name(file)) {
            crate::sat::lemmas::remove_with_core(&ours.join(file));
            removed.push(file.clone());
        }
    }
    removed
}
