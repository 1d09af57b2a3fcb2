/*!
A DRAT proof made lighter for its checker: deletions of clauses the proof never added are dropped.

Why: CaDiCaL logs every clause it deletes, and on a region of a cube campaign (its bounds given
as units) almost all of them are clauses of the CNF that those units satisfy. Region 700 of
Officers p = 39's band 184..192 (2026-11-26): 9.27 million deletions of CNF clauses, 24 thousand
of added ones and 46 thousand additions, 236 MB of proof; rate 0.3.0 took 25.9 s, 17 of them
parsing and preprocessing the deletions. With the CNF deletions dropped the proof is 32 MB and
rate verifies it in 10.1 s; with every deletion dropped, 17 MB and 12.2 s (its verification
slower: the learned clauses CaDiCaL forgot stay in the way).

Why the answer cannot change for the worse: a deletion only takes a clause out of what the checker
may use. With fewer deletions every added clause is checked against a superset of the clauses it
had, so a RUP step stays RUP; a RAT step might fail against the larger set, and then the checker
refuses the proof. A false acceptance cannot come of it, and the checker still reads the CNF
unchanged. Which deletions are kept: those whose clause (as a set of literals) hashes like a
clause the proof added before; a collision keeps a deletion it could have dropped, nothing else.

When: only a proof made mostly of such deletions ([`DROPPED_PER_ADDITION`]) is rewritten. On a
proof of real search the same filter slows the check: a rung of Officers p = 27 (every value
below 160, 22 s of CaDiCaL, 416 MB of proof: 4.6 million CNF deletions, 206 thousand additions)
took rate 38.9-44.5 s as written and 80.3 s without them (verification 23 s against 74 s: the
CNF clauses CaDiCaL had eliminated or found satisfied stay in the checker's way for all the
lemmas that follow), and so did ten regions proved in one call ([`super::certify`]'s batches:
9.1 million CNF deletions, 243 thousand additions), 63.5 s as written against 166.6 s.
Regions have few lemmas to check, so the clauses left in cost little there:
on the regions measured (p = 39's 300, 700, 1000 and p = 37's 3 and 400 of band 192..200)
dropped deletions outnumber additions 200 to 1 or more, on that rung 22 to 1, on the batch 37 to 1.
*/

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;

/// A proof is rewritten when the deletions dropped from it outnumber its additions this many
/// times (see the module's doc: 200 and more on regions, 22 on a rung, where it costs).
pub const DROPPED_PER_ADDITION: u64 = 100;

/// What [`lighten`] found in a proof, and whether it rewrote it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lightened {
    /// Whether the proof was rewritten (else it is left as written).
    pub rewritten: bool,
    /// Additions, all kept.
    pub additions: u64,
    /// Deletions of clauses the proof had added, kept.
    pub kept_deletions: u64,
    /// Deletions of clauses it had not (clauses of the CNF), dropped.
    pub dropped_deletions: u64,
    /// The proof's size as written, and without the dropped deletions.
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// The clause of one text DRAT line (without its `d `), as a hash of its literals' set.
/// `None` when the line is not a clause ending in `0`.
fn clause_hash(line: &[u8], literals: &mut Vec<i64>) -> Option<u64> {
    literals.clear();
    let mut ended = false;
    for word in line
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
    {
        if ended {
            return None;
        }
        let literal: i64 = std::str::from_utf8(word).ok()?.parse().ok()?;
        if literal == 0 {
            ended = true;
        } else {
            literals.push(literal);
        }
    }
    if !ended {
        return None;
    }
    literals.sort_unstable();
    literals.dedup();
    let mut hasher = DefaultHasher::new();
    literals.hash(&mut hasher);
    Some(hasher.finish())
}

/// Rewrites the text DRAT proof at `proof` without the deletions of clauses it never added, when
/// they outnumber its additions [`DROPPED_PER_ADDITION`] times (see the module's doc), through a
/// temporary file beside it renamed over it.
///
/// # Errors
/// The proof cannot be read or written, or a line is not a text DRAT step (a binary proof, a
/// cut file): the proof is then left as it was.
pub fn lighten(proof: &Path) -> Result<Lightened, String> {
    lighten_when(proof, DROPPED_PER_ADDITION)
}

/// [`lighten`] when dropped deletions outnumber additions `dropped_per_addition` times (0:
/// always), for tests and probes on proofs smaller than Officers' regions.
///
/// # Errors
/// As [`lighten`].
pub fn lighten_when(proof: &Path, dropped_per_addition: u64) -> Result<Lightened, String> {
    let fail = |e: String| format!("proof {}: {e}", proof.display());
    let input = std::fs::File::open(proof).map_err(|e| fail(e.to_string()))?;
    let bytes_before = input.metadata().map_or(0, |m| m.len());
    let mut reader = BufReader::with_capacity(1 << 20, input);
    let lighter = tempfile::NamedTempFile::new_in(proof.parent().unwrap_or(Path::new(".")))
        .map_err(|e| fail(e.to_string()))?;
    let mut out = BufWriter::with_capacity(1 << 20, lighter.as_file());
    let mut added = HashSet::new();
    let mut done = Lightened {
        bytes_before,
        ..Lightened::default()
    };
    let (mut line, mut literals) = (Vec::new(), Vec::new());
    let mut number = 0u64;
    loop {
        line.clear();
        if reader
            .read_until(b'\n', &mut line)
            .map_err(|e| fail(e.to_string()))?
            == 0
        {
            break;
        }
        number += 1;
        let (deletion, clause) = match line.strip_prefix(b"d ") {
            Some(rest) => (true, rest),
            None => (false, &line[..]),
        };
        let hash = clause_hash(clause, &mut literals)
            .ok_or_else(|| fail(format!("line {number} is not a text DRAT step")))?;
        let keep = if deletion {
            added.contains(&hash)
        } else {
            added.insert(hash);
            true
        };
        match (deletion, keep) {
            (false, _) => done.additions += 1,
            (true, true) => done.kept_deletions += 1,
            (true, false) => {
                done.dropped_deletions += 1;
                continue;
            }
        }
        out.write_all(&line).map_err(|e| fail(e.to_string()))?;
        done.bytes_after += line.len() as u64;
    }
    out.flush().map_err(|e| fail(e.to_string()))?;
    drop(out);
    done.rewritten = done.dropped_deletions >= dropped_per_addition * done.additions.max(1);
    if done.rewritten {
        lighter.persist(proof).map_err(|e| fail(e.to_string()))?;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lightened(text: &str, dropped_per_addition: u64) -> (String, Lightened) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.drat");
        std::fs::write(&path, text).unwrap();
        let done = lighten_when(&path, dropped_per_addition).unwrap();
        (std::fs::read_to_string(&path).unwrap(), done)
    }

    #[test]
    fn deletions_of_added_clauses_stay_and_others_go() {
        // `1 2` is a CNF clause (never added); `-3 1` is added, then deleted with its literals in
        // another order; `4` is deleted before it is added, so that deletion is of the CNF's.
        let proof = "d 1 2 0\n-3 1 0\nd 4 0\n4 0\nd 1 -3 0\nd  2  1 0\n0\n";
        let (left, done) = lightened(proof, 1);
        assert!(done.rewritten);
        assert_eq!(left, "-3 1 0\n4 0\nd 1 -3 0\n0\n");
        assert_eq!(
            (done.additions, done.kept_deletions, done.dropped_deletions),
            (3, 1, 3)
        );
        assert_eq!(done.bytes_before, proof.len() as u64);
        assert_eq!(done.bytes_after, left.len() as u64);
    }

    #[test]
    fn only_a_proof_made_mostly_of_cnf_deletions_is_rewritten() {
        let proof = |deletions: usize| {
            let mut text: String = (1..=deletions).map(|v| format!("d {v} -{v} 0\n")).collect();
            text.push_str("0\n");
            text
        };
        let many = proof(DROPPED_PER_ADDITION as usize);
        let (left, done) = lightened(&many, DROPPED_PER_ADDITION);
        assert!(done.rewritten);
        assert_eq!(left, "0\n");
        let few = proof(DROPPED_PER_ADDITION as usize - 1);
        let (left, done) = lightened(&few, DROPPED_PER_ADDITION);
        assert!(!done.rewritten);
        assert_eq!(done.dropped_deletions, DROPPED_PER_ADDITION - 1);
        assert_eq!(left, few);
    }

    #[test]
    fn a_line_that_is_no_drat_step_leaves_the_proof_alone() {
        for bad in ["1 2 0\nd 1 2\n", "1 x 0\n", "1 0 2\n", "a\u{1}\u{2}\n"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("p.drat");
            std::fs::write(&path, bad).unwrap();
            let err = lighten_when(&path, 0).unwrap_err();
            assert!(err.contains("is not a text DRAT step"), "{err}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
        }
    }
}
