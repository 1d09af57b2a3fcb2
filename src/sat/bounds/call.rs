//! One fresh CaDiCaL call of a rung or a piece, as the climb and the chain proof both make it:
//! its outcome, and the files of its CNF and proof.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Half, KeptLemmas};
use crate::sat::solve::{Answer, ProofFormat, ProofNote, SolverKind};
use crate::values::Value;

/// What one fresh CaDiCaL call of a rung or piece answered, with the note of its proof when it
/// wrote one and the count of lemmas it was given when it carried them.
pub(super) struct Asked {
    pub(super) answer: Answer,
    pub(super) proof: Option<ProofNote>,
    pub(super) lemmas: usize,
    /// For a call left without an answer: what its lemma file holds now, and the file (the
    /// piece and the tries before filled in by the climb, [`Ladder::keep_lemmas`]).
    pub(super) kept: Option<KeptLemmas>,
}

impl Asked {
    /// An answer with no proof and no lemmas.
    pub(super) fn plain(answer: Answer) -> Asked {
        Asked {
            answer,
            proof: None,
            lemmas: 0,
            kept: None,
        }
    }
}

/// What a solver call of a band's piece or a chain's rung ends with, or the line of its failure.
pub(super) type PieceOutcome = Result<Asked, String>;

/// Whether a call's outcome keeps further calls from starting: anything but a refutation (no
/// answer in time, a model, a failure).
pub(super) fn not_refuted(outcome: &PieceOutcome) -> bool {
    !matches!(
        outcome,
        Ok(Asked {
            answer: Answer::Unsat,
            ..
        })
    )
}

/// Whether a call's outcome ends a try that asks its pieces in turn ([`Climb::in_turn`]): a
/// model (which answers the band) or a failure.
pub(super) fn model_or_failure(outcome: &PieceOutcome) -> bool {
    !matches!(
        outcome,
        Ok(Asked {
            answer: Answer::Unsat | Answer::Timeout,
            ..
        })
    )
}

/// The band of a rung and, for a piece of it, the value of `s[0]` it fixes (and its half).
pub(super) type RungOrPiece = ((Value, Value), Option<(Value, Option<Half>)>);

/// The files of a rung, or of its piece ([`RungOrPiece`]), named from a climb's `stem` (of
/// proofs or lemmas).
pub(super) fn rung_stem_of(stem: &Path, ((from, below), piece): RungOrPiece) -> PathBuf {
    let stem = rung_stem(stem, from, below);
    match piece {
        Some((top, half)) => piece_stem(&stem, top, half),
        None => stem,
    }
}

/// The stem of a piece's files (or its half's: `-s<R>-lt<V>`, `-s<R>-ge<V>`; a part's
/// `-s<R>-ge<V>-lt<W>`) beside its rung's.
fn piece_stem(rung_stem: &Path, top: Value, half: Option<Half>) -> PathBuf {
    let half = half.map_or(String::new(), |h| {
        let side = if h.high { "ge" } else { "lt" };
        let end = h.below.map_or(String::new(), |b| format!("-lt{b}"));
        format!("-s{}-{side}{}{end}", h.residue, h.at)
    });
    PathBuf::from(format!("{}-s0-{top}{half}", rung_stem.display()))
}

/// Where the CNF and proof of the rung `from..below` go: `<stem>-below<V>` or
/// `<stem>-from<F>-below<V>`.
pub(super) fn rung_stem(stem: &Path, from: Value, below: Value) -> PathBuf {
    let band = match from {
        0 => format!("below{below}"),
        _ => format!("from{from}-below{below}"),
    };
    PathBuf::from(format!("{}-{band}", stem.display()))
}

/// A fresh CaDiCaL on `cnf` writing a proof at `stem` (`.cnf`, and `.drat` or `.lrat`),
/// checked by the DRAT checker's command when there is one (an LRAT proof always, by
/// [`crate::sat::lrat`]), ending with no answer when `stop` rises. A checked proof's files
/// are then settled as `keep_files` says ([`settle_checked_files`]).
pub(super) fn asked_with_proof(
    cnf: &crate::sat::Cnf,
    timeout: Option<Duration>,
    stem: &Path,
    (proof, keep_files): ((ProofFormat, Option<&str>), bool),
    stop: &AtomicBool,
) -> PieceOutcome {
    let (answer, proof) = crate::sat::solve::solve_with_proof_checked_by(
        SolverKind::Cadical,
        cnf,
        timeout,
        stem,
        proof,
        Some(stop),
    )
    .map_err(|e| e.to_string())?;
    Ok(Asked {
        proof: proof.map(|note| settle_checked_files(note, keep_files)),
        ..Asked::plain(answer)
    })
}

/// What a checked proof's note says of its files, which are removed unless `keep_files`
/// (`--keep-proofs`). Why removed: proofs of hard rungs run to gigabytes and the check is what
/// counts (`--prove-chain` makes them again); why kept on request: a third party's checker
/// (`sat check-lrat --standard` writes an LRAT proof in its numbering) can then read them. The
/// note names the files alone, not the folder, so a ladder in git holds no path of the machine
/// it ran on; its format says which it was ("lrat, removed once checked", "lrat, kept"). An
/// unchecked proof's files stay, for a checker later, and its note names them alone too, its
/// format as it was.
pub(super) fn settle_checked_files(note: ProofNote, keep_files: bool) -> ProofNote {
    let checked = note.checked_by.is_some();
    if checked && !keep_files {
        let _ = std::fs::remove_file(&note.cnf);
        let _ = std::fs::remove_file(&note.proof);
    }
    let note = note.named_alone();
    ProofNote {
        format: match checked {
            true => format!("{}, {}", note.format, files_fate(keep_files)),
            false => note.format,
        },
        ..note
    }
}

/// The words a checked proof's note ends with: what became of its files.
fn files_fate(kept: bool) -> &'static str {
    match kept {
        true => KEPT,
        false => REMOVED,
    }
}

const KEPT: &str = "kept";
const REMOVED: &str = "removed once checked";

/// What a band's note proved in pieces says of their files, from its pieces' formats: each
/// piece's own fate ([`settle_checked_files`]), or both when runs differed. A format with no
/// fate is an older climb's note, whose files were left where they were.
pub(super) fn pieces_files_fate<'a>(formats: impl Iterator<Item = &'a str>) -> &'static str {
    let (mut kept, mut removed) = (false, false);
    for format in formats {
        kept |= !format.ends_with(REMOVED);
        removed |= format.ends_with(REMOVED);
    }
    match (kept, removed) {
        (true, false) => KEPT,
        (true, true) => "some kept, the rest removed once checked",
        _ => REMOVED,
    }
}
