//! The ladder of one question as written to disk: the rungs tried, the chain of refuted bands
//! a bound rests on, the lemma files its calls kept, and what it says for the periods file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    Band, Half, KeptLemmas, PiecesRefuted, ProofPiece, Rung, RungAnswer, WHOLE_QUESTION,
    pieces_and_halves, plural, units_kept,
};
use crate::sat::encode::PeriodEncoding;
use crate::sat::solve::{Preset, ProofNote};
use crate::values::Value;

/// The ladder of one question, as written to disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub game: String,
    pub p: usize,
    /// "feasible" or "primitive".
    pub question: String,
    /// Rotation broken: the rungs of this build put a largest value first, those of earlier
    /// builds (without `from`) a smallest; either keeps every answer.
    pub rotation_broken: bool,
    /// [`crate::sat::lemmas::fingerprint`] of the question's encoding (with a smallest value first
    /// when rotation is broken, as `grundy sat` has it): rungs of another rare table or
    /// encoding are not this question's. The rungs run on the same clauses with their own
    /// rotation.
    pub fingerprint: String,
    /// Every rung tried, in the order tried (runs append).
    pub rungs: Vec<Rung>,
    /// A checked pattern (true values) once a rung had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Vec<Value>>,
}

/// Why a ladder file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct LadderError {
    pub path: PathBuf,
    pub reason: String,
}

impl Ladder {
    /// Records the answer of a cube campaign on `band` (its ledger `cubes`, beside the ladder)
    /// as a rung, unless the ladder has that rung already; a pattern is kept unless the ladder
    /// holds one with a smaller largest value. Returns whether the ladder changed.
    pub fn record_band(
        &mut self,
        band: Band,
        answer: RungAnswer,
        seconds: f64,
        cubes: &str,
        pattern: Option<&[Value]>,
        preset: Preset,
    ) -> bool {
        let same = |r: &Rung| {
            (r.from, r.below, r.answer, r.cubes.as_deref())
                == (band.from, band.below, answer, Some(cubes))
        };
        if self.rungs.iter().any(same) {
            return false;
        }
        self.rungs.push(Rung {
            cubes: Some(cubes.to_string()),
            preset,
            ..Rung::asked(band, answer, seconds)
        });
        if let Some(found) = pattern {
            let largest = found.iter().copied().max();
            if self.largest_in_pattern().is_none_or(|m| Some(m) > largest) {
                self.pattern = Some(found.to_vec());
            }
        }
        true
    }

    /// Gives the UNSAT rung of `band` answered by the campaign `cubes` its certificate `note`;
    /// false if there is no such rung or it has that note already.
    pub fn certify_band(&mut self, band: Band, cubes: &str, note: ProofNote) -> bool {
        let rung = self.rungs.iter_mut().find(|r| {
            (r.from, r.below, r.answer, r.cubes.as_deref())
                == (band.from, band.below, RungAnswer::Unsat, Some(cubes))
        });
        match rung {
            Some(rung) if rung.proof.as_ref() != Some(&note) => {
                rung.proof = Some(note);
                true
            }
            _ => false,
        }
    }

    pub fn new(game: &str, e: &PeriodEncoding, question: &str, rotation_broken: bool) -> Ladder {
        Ladder {
            game: game.to_string(),
            p: e.p,
            question: question.to_string(),
            rotation_broken,
            fingerprint: crate::sat::lemmas::fingerprint(&e.cnf),
            rungs: Vec::new(),
            pattern: None,
        }
    }

    /// The files every try's `kept` records name, sorted, each once: what a merge copies
    /// ([`super::copy_kept_lemmas`]) and, named before it and not after, removes
    /// ([`super::remove_spent_lemmas`]).
    pub fn kept_files(&self) -> Vec<String> {
        let mut files: Vec<String> = (self.rungs.iter())
            .flat_map(|r| &r.kept)
            .map(|k| k.file.clone())
            .collect();
        files.sort_unstable();
        files.dedup();
        files
    }

    /// The lemma files that calls of `band` left without an answer kept for the next run
    /// ([`KeptLemmas`]): the latest record of each call's file over the band's tries, in the
    /// order kept, less those of pieces a try refuted since (a ladder merged from another
    /// machine). A piece may have several files, one per seed that asked it (copies joined by
    /// a merge), and its next call is given them all ([`crate::sat::lemmas`]).
    pub fn kept_lemmas(&self, band: Band) -> Vec<&KeptLemmas> {
        let tries = || (self.rungs.iter()).filter(|r| r.band() == band);
        let refuted = |k: &KeptLemmas| {
            k.top
                .is_some_and(|top| tries().any(|r| r.has_piece(top, k.half)))
        };
        let mut kept: Vec<&KeptLemmas> = Vec::new();
        for entry in tries().flat_map(|r| &r.kept) {
            kept.retain(|k| !k.same_file(entry));
            kept.push(entry);
        }
        kept.retain(|k| !refuted(k));
        kept
    }

    /// What the calls stopped on the open band below `below` kept for the next run, for
    /// [`Ladder::summary_line`]: empty when nothing.
    fn kept_words(&self, below: Value) -> String {
        let mut floors: Vec<Value> = (self.rungs.iter())
            .filter(|r| r.below == below)
            .map(|r| r.from)
            .collect();
        floors.sort_unstable();
        floors.dedup();
        // The calls left are the kept files' calls on no larger part than another's; the
        // files of the larger parts holding them are given to them, and counted apart.
        let (mut calls, mut larger) = (Vec::new(), Vec::new());
        for from in floors {
            let kept = self.kept_lemmas(Band { from, below });
            let (of_larger, own): (Vec<&KeptLemmas>, _) =
                (kept.iter()).partition(|k| kept.iter().any(|other| k.holds_call_of(other)));
            calls.extend(own);
            larger.extend(of_larger);
        }
        let clauses = |files: &[&KeptLemmas]| -> usize { files.iter().map(|k| k.clauses).sum() };
        let units = units_kept(calls.iter().copied())
            .map_or_else(String::new, |n| format!(" ({n} of them units)"));
        // A file is a call that stopped (two seeds' files of one piece, joined by a merge,
        // are two calls).
        let with_larger = match larger.len() {
            0 => String::new(),
            n => format!(
                " (with {} of the larger parts that hold {}: {} lemmas)",
                plural(n, "file", "files"),
                if calls.len() == 1 { "it" } else { "them" },
                clauses(&larger)
            ),
        };
        // Certified files (`--lemmas --proof-dir`) are the ones whose calls end with a proof.
        let certified = match calls.iter().filter(|k| k.certified).count() {
            0 => String::new(),
            c if c == calls.len() => ", certified".to_string(),
            c => format!(", {c} of those files certified"),
        };
        match calls.len() {
            0 => String::new(),
            n => format!(
                ", {} kept {} lemmas{units} for the next run{with_larger}{certified}",
                plural(n, "stopped call", "stopped calls"),
                clauses(&calls)
            ),
        }
    }

    /// Records in `rung` (a try of `band`) the lemma file the call `which` (a piece, or the whole
    /// rung: `(None, None)`) kept, superseding the earlier record of that file, and those of
    /// files of the call's earlier CNFs (not those of other seeds' files of its CNF, which it
    /// was given). `kept.units_before` holds the units its file had when it started (none for
    /// a call that started afresh); the earlier record's list goes in front of them when it
    /// has one, and its seconds in front of `kept.seconds`, so the lists run over the tries
    /// that built the file, as far back as they were counted.
    pub(super) fn keep_lemmas(
        &mut self,
        band: Band,
        rung: usize,
        (top, half): (Option<Value>, Option<Half>),
        kept: KeptLemmas,
    ) {
        let mut kept = KeptLemmas { top, half, ..kept };
        let earlier = (self.kept_lemmas(band).into_iter()).find(|k| k.same_file(&kept));
        if let Some(earlier) = earlier.filter(|_| !kept.units_before.is_empty()) {
            (kept.units_before).splice(0..0, earlier.units_before.iter().copied());
            (kept.seconds).splice(0..0, earlier.seconds.iter().copied());
        }
        // Other seeds' files of the call stay: it was given them, and so is the next. Files of
        // another CNF (an earlier build's encoding) go: no call of this one is given them.
        let question = crate::sat::lemmas::LemmaStore::question_of;
        let superseded = |k: &KeptLemmas| {
            (k.top, k.half) == (kept.top, kept.half)
                && (k.file == kept.file || question(&k.file) != question(&kept.file))
        };
        for other in (self.rungs.iter_mut()).filter(|r| r.band() == band) {
            other.kept.retain(|k| !superseded(k));
        }
        self.rungs[rung].kept.push(kept);
    }

    /// Forgets, in every try of `band`, the lemma files kept for calls that the try at `rung`
    /// holds refuted now ([`Rung::has_piece`]): a piece whose parts refuted cover it, a part
    /// inside parts refuted. Returns their file names, for the climb to remove. Why: such a
    /// call is never asked again, and a piece cut in parts after weeks keeps a file of 2^20
    /// clauses (about 30 MB) per seed that only the parts read.
    pub(super) fn forget_kept_held(&mut self, band: Band, rung: usize) -> Vec<String> {
        let holder = self.rungs[rung].clone();
        let held = |k: &KeptLemmas| k.top.is_some_and(|top| holder.has_piece(top, k.half));
        let mut gone = Vec::new();
        for r in (self.rungs.iter_mut()).filter(|r| r.band() == band) {
            gone.extend(r.kept.iter().filter(|k| held(k)).map(|k| k.file.clone()));
            r.kept.retain(|k| !held(k));
        }
        gone.sort_unstable();
        gone.dedup();
        gone
    }

    /// Forgets, in every try of `band`, the lemma files kept for the call `which` (a piece, or
    /// the whole rung: `(None, None)`), or for every call with `which` `None`: answered calls
    /// are never asked again, and the climb removes their files.
    pub(super) fn forget_kept(&mut self, band: Band, which: Option<(Option<Value>, Option<Half>)>) {
        for rung in (self.rungs.iter_mut()).filter(|r| r.band() == band) {
            rung.kept
                .retain(|k| which.is_some_and(|w| w != (k.top, k.half)));
        }
    }

    /// `bounds-p<P>-<question>.json` in the folder of the periods file.
    pub fn path_beside(periods_file: &Path, p: usize, question: &str) -> PathBuf {
        let dir = periods_file.parent().unwrap_or(Path::new(""));
        dir.join(format!("bounds-p{p}-{question}.json"))
    }

    /// The refuted rungs that together say "no pattern below `V`" for the highest such `V`: a
    /// rung without floor, then bands each starting at or below where the one before ended.
    /// A band whose floor no chain reaches proves nothing yet and is left out.
    pub fn chain(&self) -> Vec<&Rung> {
        self.chain_indices()
            .into_iter()
            .map(|i| &self.rungs[i])
            .collect()
    }

    /// [`Ladder::chain`] as indices into `rungs`.
    fn chain_indices(&self) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut reached = 0;
        loop {
            let next = (0..self.rungs.len())
                .filter(|&i| self.rungs[i].answer == RungAnswer::Unsat)
                .filter(|&i| self.rungs[i].from <= reached && self.rungs[i].below > reached)
                .max_by_key(|&i| self.rungs[i].below);
            match next {
                Some(i) => {
                    reached = self.rungs[i].below;
                    chain.push(i);
                }
                None => return chain,
            }
        }
    }

    /// The rungs of the chain that [`prove_chain`] proves, as indices into `rungs`: those with
    /// no checked proof, less bands answered by cube campaigns (`sat cubes --certify` proves
    /// those); lowest first.
    pub(super) fn chain_indices_to_prove(&self) -> Vec<usize> {
        let needs_proof = |r: &Rung| !r.has_checked_proof() && r.cubes.is_none();
        let chain = self.chain_indices().into_iter();
        chain.filter(|&i| needs_proof(&self.rungs[i])).collect()
    }

    /// Rungs of the chain, and those of them whose proof a checker accepted.
    pub fn chain_proved(&self) -> (usize, usize) {
        let chain = self.chain();
        let checked = chain.iter().filter(|r| r.has_checked_proof()).count();
        (chain.len(), checked)
    }

    /// How the proofs of the chain's bands proved in pieces in `format` went against their
    /// climb: how many bands, and their pieces' checked seconds (proving and checking) over the
    /// climb's seconds. Only bands climbed on one thread count (the climb's seconds are then one
    /// core's, as a proof's are), and only those whose checked pieces were all proved in
    /// `format` (an LRAT proof costs about a third of a DRAT proof checked by rate). None when
    /// there is no such band. Why: a chain proof runs for days, and the climb's hours alone say
    /// little of how long; what the proofs below took says more.
    pub fn proof_pace(&self, format: crate::sat::solve::ProofFormat) -> Option<(usize, f64)> {
        let in_format =
            |p: &ProofPiece| p.proof.as_ref().map(|n| n.written_in()) == Some(format.name());
        let proved: Vec<&Rung> = (self.chain().into_iter())
            .filter(|r| r.has_checked_proof() && r.threads <= 1 && r.seconds > 0.0)
            .filter(|r| r.pieces.iter().any(ProofPiece::is_checked))
            .filter(|r| r.pieces.iter().filter(|p| p.is_checked()).all(in_format))
            .collect();
        let checked = |r: &&Rung| -> f64 {
            (r.pieces.iter().filter(|p| p.is_checked()))
                .map(|p| p.seconds)
                .sum()
        };
        let proofs: f64 = proved.iter().map(checked).sum();
        let climbs: f64 = proved.iter().map(|r| r.seconds).sum();
        (!proved.is_empty()).then(|| (proved.len(), proofs / climbs))
    }

    /// The highest refuted bound: every pattern has a value at least this.
    pub fn refuted_below(&self) -> Option<Value> {
        self.chain().last().map(|r| r.below)
    }

    /// Whether the rung of 512, the question itself, is refuted.
    pub fn answered_unsat(&self) -> bool {
        self.refuted_below() >= Some(WHOLE_QUESTION)
    }

    /// The largest value of the pattern found, if any: every rung above it has that pattern.
    pub fn largest_in_pattern(&self) -> Option<Value> {
        self.pattern.as_ref().and_then(|s| s.iter().copied().max())
    }

    /// One line for `grundy sat summary`: the highest refuted bound and the first rung above it
    /// that is still open.
    pub fn summary_line(&self) -> String {
        let seconds: f64 = self.rungs.iter().map(|r| r.seconds).sum();
        let refuted = self.refuted_below().map_or_else(
            || "no rung refuted".to_string(),
            |v| format!("every pattern has a value >= {v} (no pattern below it)"),
        );
        let found = self.largest_in_pattern().map_or(String::new(), |m| {
            format!("; a pattern with values up to {m}")
        });
        // The lowest rung above the refuted ones that had no answer, with its longest try.
        let unanswered =
            |r: &&Rung| r.answer == RungAnswer::Timeout && Some(r.below) > self.refuted_below();
        let open = self.rungs.iter().filter(unanswered).map(|r| r.below).min();
        let open = open.map_or(String::new(), |below| {
            let tries = || self.rungs.iter().filter(|r| r.below == below);
            let longest = tries().map(|r| r.seconds).fold(0.0, f64::max);
            let of = match tries().count() {
                1 => String::new(),
                n => format!(" (the longest of {n} tries)"),
            };
            // A band climbed in pieces: how far its furthest try got.
            let pieces = match tries().map(Rung::pieces_refuted).max().unwrap_or_default() {
                none if none == PiecesRefuted::default() => String::new(),
                pieces => format!(", {pieces}"),
            };
            format!(
                "; below {below}: no answer in {longest:.0} s{of}{pieces}{}",
                self.kept_words(below)
            )
        });
        let proved = match self.chain_proved() {
            (0, _) => String::new(),
            (n, k) => format!("; {k} of the {n} rungs it rests on with a checked proof"),
        };
        // Checked pieces (values covered) and halves of pieces of rungs not proved yet
        // (`--prove-chain --pieces [--cut]`).
        let unclosed = self.chain().into_iter().filter(|r| !r.has_checked_proof());
        let checked = unclosed.map(Rung::pieces_checked);
        let (whole, halves, finer) = checked.fold((0, 0, false), |(w, h, f), c| {
            (w + c.whole, h + c.halves, f || c.finer)
        });
        let proved = match pieces_and_halves(whole, halves, finer) {
            what if what.is_empty() => proved,
            what => format!("{proved}, and {what} of the others"),
        };
        format!(
            "{refuted}{found}{open} ({}, {seconds:.0} s{proved})",
            plural(self.rungs.len(), "rung", "rungs")
        )
    }

    /// Why `self` (read from a file) is not the ladder of `fresh`'s question, if it is not.
    pub fn refuses(&self, fresh: &Ladder) -> Option<String> {
        let old = (&self.game, self.p, &self.question, self.rotation_broken);
        let new = (&fresh.game, fresh.p, &fresh.question, fresh.rotation_broken);
        if old != new {
            return Some(format!(
                "made for {} p = {} {} (rotation broken = {}), not {} p = {} {} ({})",
                old.0, old.1, old.2, old.3, new.0, new.1, new.2, new.3
            ));
        }
        (self.fingerprint != fresh.fingerprint).then(|| {
            format!(
                "made for the encoding {}, not {} (another rare table or encoding)",
                self.fingerprint, fresh.fingerprint
            )
        })
    }

    /// Reads a ladder; `None` if there is no file.
    ///
    /// # Errors
    /// [`LadderError`] for a file that cannot be read or is not a ladder.
    pub fn read(path: &Path) -> Result<Option<Ladder>, LadderError> {
        crate::io::read_json_if_present(path, "a bounds ladder").map_err(|reason| LadderError {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Takes the ladder at `path` for this process while the returned file lives (see
    /// [`crate::io::take_lock_beside`]).
    ///
    /// # Errors
    /// [`LadderError`] if another run holds it or the lock file cannot be made.
    pub fn lock(path: &Path) -> Result<std::fs::File, LadderError> {
        crate::io::take_lock_beside(path).map_err(|reason| LadderError {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Writes the ladder atomically.
    ///
    /// # Errors
    /// [`LadderError`] if it cannot be written (the old file stays as it was).
    pub fn save(&self, path: &Path) -> Result<(), LadderError> {
        crate::io::write_json_atomic(path, self).map_err(|e| LadderError {
            path: path.to_path_buf(),
            reason: e.source.to_string(),
        })
    }
}

impl Ladder {
    /// What the ladder says about `p` for the periods file: a pattern, or UNSAT at the rung of
    /// 512 (the whole question); `None` otherwise (a lower rung refuted decides nothing).
    /// `feasible` is the periods file's feasible pattern, kept with a primitive UNSAT.
    pub fn period_result(
        &self,
        e: &PeriodEncoding,
        feasible: Option<Vec<Value>>,
    ) -> Option<crate::sat::periods::PeriodResult> {
        use crate::sat::periods::{PeriodResult, Status};
        let (status, pattern) = match &self.pattern {
            Some(s) => (Status::Sat, Some(s.clone())),
            None if self.answered_unsat() => (Status::Unsat, feasible),
            None => return None,
        };
        // The rungs the answer rests on: the pattern's, or the whole chain of refutations.
        let rests_on: Vec<&Rung> = match status {
            Status::Sat => self
                .rungs
                .iter()
                .rev()
                .find(|r| r.answer == RungAnswer::Sat),
            _ => None,
        }
        .map_or_else(|| self.chain(), |r| vec![r]);
        let last = rests_on.last()?;
        let proofs: Vec<ProofNote> = rests_on.iter().filter_map(|r| r.proof.clone()).collect();
        // An UNSAT without proofs that used clauses learned by earlier calls says so (a proof
        // starts from the CNF alone, so one of every rung makes them irrelevant).
        let carried =
            (rests_on.iter()).any(|r| r.lemmas > 0 || r.pieces.iter().any(|p| p.lemmas > 0));
        let unchecked = proofs.iter().filter(|n| n.checked_by.is_none()).count();
        let proof = match status {
            Status::Sat => "witness-checked".to_string(),
            _ if proofs.len() == rests_on.len() && unchecked == 0 => {
                "DRAT proof of every rung, each checked".into()
            }
            _ if proofs.len() == rests_on.len() => {
                format!("DRAT proof of every rung, {unchecked} of them unchecked")
            }
            _ if carried => "no proof; lemmas carried across calls".into(),
            _ => "no proof".into(),
        };
        let how = format!(
            "bounds ladder: rung below {} answered by CaDiCaL ({} rungs; {proof})",
            last.below,
            self.rungs.len()
        );
        let seconds = self.rungs.iter().map(|r| r.seconds).sum();
        let question = (self.p as u64, self.question == "primitive");
        Some(PeriodResult {
            proofs,
            ..PeriodResult::of_campaign_answer(e, question, (status, pattern), &how, seconds)
        })
    }
}
