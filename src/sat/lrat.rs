/*!
An LRAT checker: a proof of unsatisfiability in which every added clause names the clauses it
follows from, checked in one pass with no search.

Why: a DRAT proof says which clauses the solver learned, not from what, so its checker searches
for every step again (rate's verification was 30 of the 53 s of a rung of Officers p = 27, after
28 s of CaDiCaL; on the chain's pieces a check took about twice the solving). LRAT, which
CaDiCaL 2 writes itself (`ProofFormat::Lrat`), names each step's antecedents in the order unit
propagation uses them, so a check is a walk over the proof. No LRAT checker is published in a
registry this project reaches (drat-trim's `lrat-check` and the verified `cake_lpr` are source
only), so this one is ours. It shares no code with the encoder or the solver (it reads the DIMACS
file and the proof file, nothing else), and it is short on purpose: every rule it applies is below.

# Which number names which clause of the CNF

The CNF's clauses are numbered in the file's order by the numbers that no clause the proof adds
takes: 1, 2, ..., N when the proof's first addition is above N, as LRAT's definition has it.
Why not always 1..N: CaDiCaL numbers the clauses it is given and those it derives with one
counter, and it propagates a unit clause as soon as it is given one, deriving (and numbering)
clauses between the CNF's own; its DIMACS reader reserves 1..N first (`reserve_ids`), which no
API call does. So the checker reads the proof's first additions before the CNF (until every
clause of the CNF has a number), and gives the CNF's clauses the numbers left between them.
Whatever the numbering, it cannot make a wrong proof pass: a hint names either a clause of the
CNF or a clause checked before, and a number taken by both is refused.

# What is accepted

A proof is a sequence of lines (text) or records (binary, detected by its first byte):

- `ID L1 ... Lk 0 H1 ... Hm 0` (binary `a`, then the same numbers): clause `ID` is added, where
  `ID` is above the number of the addition before it, names no live clause, and is at most 2^20
  past every number before it (a damaged file otherwise), and its literals are of the CNF's
  variables. It is accepted when, with every literal of the clause set false, the hints taken in
  order each leave exactly one literal not false (which is then set true, or is true already),
  until one leaves none (a conflict). A clause holding a literal and its negation is a tautology
  and is accepted with no hints. A hint that names no live clause, a hint with two literals not
  false, a negative hint (a RAT step, which CaDiCaL never writes), or hints that end with no
  conflict: the proof is refused.
- `ID d I1 ... Ij 0` (binary `d`, then the ids): those clauses are deleted and can be named no
  more. Deleting a clause that is not live refuses the proof.
- `c ...`: a comment line (text only).

The proof is accepted at the first added clause that is empty; a proof that ends without one is
refused, and so is anything malformed after the last complete step (a truncated file). A
*derivation* ([`check_derivation`]: the proof of a call stopped without an answer) is checked
step by step the same way but may end without the empty clause; what it shows is that each of
its additions follows from the CNF, and it names the clauses asked of it that none of them is.

# Why acceptance means UNSAT

Each accepted clause `C` is implied by the live clauses: with `C` false, unit propagation along
the hints reaches a conflict, and unit propagation only derives what the clauses imply. Deletion
only removes clauses. So by induction every live clause is implied by the CNF, and the empty
clause, implied by the CNF, means the CNF has no model. The checker never adds a clause it has
not checked, and never lets a deleted or unknown number stand for a clause.
*/

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// What a proof accepted here records as its checker (`checked_by`), as rate's records
/// `rate 0.3.0`.
pub fn checker_name() -> String {
    format!("grundy {} LRAT checker", env!("CARGO_PKG_VERSION"))
}

/// What a proof held, once accepted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// The CNF's clauses.
    pub cnf_clauses: u64,
    /// Clauses the proof added and this checker verified (the empty clause among them).
    pub additions: u64,
    /// Clauses it deleted.
    pub deletions: u64,
    /// Hints followed, over every addition.
    pub hints: u64,
    /// Whether the proof was binary LRAT.
    pub binary: bool,
    /// Whether it ended with the empty clause (always, for a proof of UNSAT; a derivation,
    /// [`check_derivation`], may end without it).
    pub refuted: bool,
}

/// Why a proof was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum LratError {
    /// A file could not be read, or the CNF is not DIMACS: no verdict on the proof.
    #[error("{0}")]
    Cannot(String),
    /// The proof does not prove the CNF unsatisfiable.
    #[error("refused: {0}")]
    Refused(String),
    /// A stop request came before the verdict: the proof is neither accepted nor refused.
    #[error("stopped before its verdict")]
    Stopped,
}

fn refuse<T>(why: impl Into<String>) -> Result<T, LratError> {
    Err(LratError::Refused(why.into()))
}

/// Checks the LRAT proof at `proof` (text or binary) against the DIMACS CNF at `cnf`, ending
/// early when `stop` rises.
///
/// # Errors
/// [`LratError::Cannot`] if a file cannot be read or the CNF is malformed,
/// [`LratError::Refused`] if the proof does not prove it unsatisfiable, [`LratError::Stopped`]
/// if `stop` rose first.
pub fn check_files(
    cnf: &Path,
    proof: &Path,
    stop: Option<&AtomicBool>,
) -> Result<Checked, LratError> {
    check_paths((cnf, proof), stop, None)
}

/// Reads the CNF at `cnf` and checks the proof at `proof` against it ([`Checker::check_proof`]).
fn check_paths(
    (cnf, proof): (&Path, &Path),
    stop: Option<&AtomicBool>,
    wanted: Option<&mut HashSet<Vec<i32>>>,
) -> Result<Checked, LratError> {
    let open = |path: &Path| {
        std::fs::File::open(path)
            .map(|f| BufReader::with_capacity(1 << 20, f))
            .map_err(|e| LratError::Cannot(format!("cannot read {}: {e}", path.display())))
    };
    let cnf_clauses = count_cnf_clauses(Bytes::new(open(cnf)?))?;
    let taken = numbers_taken(Bytes::new(open(proof)?), cnf_clauses);
    let mut checker = Checker::default();
    checker.read_cnf(Bytes::new(open(cnf)?), &taken)?;
    checker.check_proof(Bytes::new(open(proof)?), stop, wanted)
}

/// What a derivation proved ([`check_derivation`]): the proof's check, and the wanted clauses
/// it never added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derivation {
    pub checked: Checked,
    /// Wanted clauses (literals sorted) that no checked addition of the proof holds.
    pub missing: Vec<Vec<i32>>,
}

/// Checks the LRAT proof at `proof` against the CNF at `cnf` as a *derivation*: every addition
/// is checked as for [`check_files`], but the proof may end without the empty clause (a call
/// stopped with no answer), and each clause of `wanted` (a set of literals, in any order) must
/// be one of its checked additions. Why: a call that keeps the clauses it learned for the next
/// call on the same CNF ([`crate::sat::lemmas`]) writes them to a file no proof of that next
/// call can check; this one shows each of them follows from the CNF, so a proof given them is
/// a proof from the CNF alone. An addition later deleted still counts: deletion only forgets a
/// clause the CNF implies.
///
/// # Errors
/// As [`check_files`], but a proof that ends without the empty clause is not refused.
pub fn check_derivation(
    cnf: &Path,
    proof: &Path,
    wanted: &[Vec<i32>],
    stop: Option<&AtomicBool>,
) -> Result<Derivation, LratError> {
    derivation(wanted, |left| check_paths((cnf, proof), stop, Some(left)))
}

/// The clauses of `wanted` that `check` (given them as a set, taking out each one it meets)
/// leaves, with its verdict.
fn derivation(
    wanted: &[Vec<i32>],
    check: impl FnOnce(&mut HashSet<Vec<i32>>) -> Result<Checked, LratError>,
) -> Result<Derivation, LratError> {
    let mut left: HashSet<Vec<i32>> = wanted.iter().map(|c| sorted(c)).collect();
    let checked = check(&mut left)?;
    let mut missing: Vec<Vec<i32>> = left.into_iter().collect();
    missing.sort();
    Ok(Derivation { checked, missing })
}

/// A clause's literals sorted, no repeats: the form in which clauses are compared.
pub(crate) fn sorted(clause: &[i32]) -> Vec<i32> {
    let mut clause = clause.to_vec();
    clause.sort_unstable();
    clause.dedup();
    clause
}

/// Checks `proof` against `cnf`, both in memory (the tests' entry).
///
/// # Errors
/// As [`check_files`].
pub fn check_bytes(cnf: &[u8], proof: &[u8]) -> Result<Checked, LratError> {
    check_in_memory((cnf, proof), None)
}

/// [`check_derivation`] in memory (the tests' entry).
///
/// # Errors
/// As [`check_derivation`].
pub fn check_derivation_bytes(
    cnf: &[u8],
    proof: &[u8],
    wanted: &[Vec<i32>],
) -> Result<Derivation, LratError> {
    derivation(wanted, |left| check_in_memory((cnf, proof), Some(left)))
}

fn check_in_memory(
    (cnf, proof): (&[u8], &[u8]),
    wanted: Option<&mut HashSet<Vec<i32>>>,
) -> Result<Checked, LratError> {
    let cnf_clauses = count_cnf_clauses(Bytes::new(cnf))?;
    let taken = numbers_taken(Bytes::new(proof), cnf_clauses);
    let mut checker = Checker::default();
    checker.read_cnf(Bytes::new(cnf), &taken)?;
    checker.check_proof(Bytes::new(proof), None, wanted)
}

/// The clauses the CNF's header declares (the file itself is read by [`Checker::read_cnf`]).
fn count_cnf_clauses<R: Read>(mut input: Bytes<R>) -> Result<u64, LratError> {
    let cannot = |why: String| LratError::Cannot(format!("the CNF: {why}"));
    loop {
        match input.peek_nonblank().map_err(|e| cannot(e.to_string()))? {
            Some(b'c') => input.skip_line().map_err(|e| cannot(e.to_string()))?,
            Some(b'p') => {
                let line = input.line().map_err(|e| cannot(e.to_string()))?;
                return match line.split_whitespace().collect::<Vec<_>>()[..] {
                    ["p", "cnf", _, n] => n
                        .parse()
                        .map_err(|_| cannot(format!("a bad header line {line:?}"))),
                    _ => Err(cannot(format!("a bad header line {line:?}"))),
                };
            }
            _ => return Err(cannot("no `p cnf` header".into())),
        }
    }
}

/// The numbers the proof's additions take below the CNF's last clause (see the module's doc:
/// the CNF's clauses get the others), in order: the additions read until `cnf_clauses` numbers
/// are left between them. A proof malformed there stops the reading; the check proper will
/// refuse it.
fn numbers_taken<R: Read>(mut input: Bytes<R>, cnf_clauses: u64) -> Vec<u64> {
    let binary = matches!(input.peek(), Ok(Some(b'a' | b'd')));
    let (mut clause, mut ids, mut taken) = (Vec::new(), Vec::new(), Vec::new());
    loop {
        let step = if binary {
            input.binary_step(&mut clause, &mut ids)
        } else {
            input.text_step(&mut clause, &mut ids)
        };
        match step {
            Ok(Some(Step::Add(id))) => {
                // Numbers below `id` left to the CNF: `id - 1` less those taken before (a
                // proof whose numbers do not go up is refused by the check proper).
                if id.saturating_sub(1 + taken.len() as u64) >= cnf_clauses {
                    return taken;
                }
                taken.push(id);
            }
            Ok(Some(Step::Delete)) => {}
            Ok(None) | Err(_) => return taken,
        }
    }
}

/// The live clauses and the assignment of one step.
///
/// Invariants: `slots[id]` is 0 for a number that names no live clause, else 1 + the offset in
/// `arena` of the clause's length, followed by its literals; `values[code(l)]` is 1 when `l` is
/// true in the step being checked, -1 when false, 0 otherwise, and every literal set during a
/// step is on `trail`, which is empty between steps.
#[derive(Default)]
struct Checker {
    arena: Vec<i32>,
    slots: Vec<u64>,
    /// Literals of `arena` that belong to deleted clauses (compacted away when they dominate).
    garbage: usize,
    values: Vec<i8>,
    trail: Vec<i32>,
    /// The number of the last addition (0 before the first).
    last_id: u64,
    /// The largest number given to a clause so far (the CNF's last, or the last addition).
    top_id: u64,
    cnf_clauses: u64,
    /// The variables the CNF's header declares; no literal may name another.
    vars: i32,
    /// The literals of the step being checked (a buffer kept from step to step).
    step: Vec<i32>,
}

/// How far past every number before it an addition's number may go (in CaDiCaL's proofs of
/// Officers' pieces the numbers of additions went up by at most 2, 2026-12-01).
const MAX_NUMBER_JUMP: u64 = 1 << 20;

/// A literal's index in `values`: `2v` for `v`, `2v + 1` for `-v`.
fn code(lit: i32) -> usize {
    2 * lit.unsigned_abs() as usize + usize::from(lit < 0)
}

impl Checker {
    /// Reads the CNF, numbering its clauses by the numbers `taken` (ascending) leaves.
    fn read_cnf<R: Read>(&mut self, mut input: Bytes<R>, taken: &[u64]) -> Result<(), LratError> {
        let cannot = |why: String| LratError::Cannot(format!("the CNF: {why}"));
        let mut clause = Vec::new();
        let mut declared = None;
        let (mut next, mut taken) = (0u64, taken.iter().peekable());
        loop {
            match input.peek_nonblank().map_err(|e| cannot(e.to_string()))? {
                None => break,
                Some(b'c') => input.skip_line().map_err(|e| cannot(e.to_string()))?,
                Some(b'p') => {
                    let line = input.line().map_err(|e| cannot(e.to_string()))?;
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words[..] {
                        ["p", "cnf", vars, clauses] => {
                            let header = || cannot(format!("a bad header line {line:?}"));
                            self.vars = vars.parse::<i32>().map_err(|_| header())?;
                            self.values = vec![0; 2 * self.vars.max(0) as usize + 2];
                            declared = Some(clauses.parse::<u64>().map_err(|_| header())?)
                        }
                        _ => return Err(cannot(format!("a bad header line {line:?}"))),
                    }
                }
                Some(_) => {
                    let lit = input
                        .int()
                        .map_err(|e| cannot(e.to_string()))?
                        .ok_or_else(|| cannot("a clause without its 0".into()))?;
                    if declared.is_none() {
                        return Err(cannot("a clause before the `p cnf` header".into()));
                    }
                    if lit == 0 {
                        self.cnf_clauses += 1;
                        next += 1;
                        while taken.next_if_eq(&&next).is_some() {
                            next += 1;
                        }
                        self.insert(next, &clause);
                        self.top_id = next;
                        clause.clear();
                    } else {
                        clause.push(self.literal(lit).map_err(cannot)?);
                    }
                }
            }
        }
        if !clause.is_empty() {
            return Err(cannot("its last clause has no 0".into()));
        }
        match declared {
            Some(n) if n == self.cnf_clauses => Ok(()),
            Some(n) => Err(cannot(format!(
                "the header says {n} clauses, the file holds {}",
                self.cnf_clauses
            ))),
            None => Err(cannot("no `p cnf` header".into())),
        }
    }

    /// Stores clause `id` (its number free, checked by the caller).
    fn insert(&mut self, id: u64, lits: &[i32]) {
        let at = self.arena.len() as u64;
        self.arena.push(lits.len() as i32);
        self.arena.extend_from_slice(lits);
        let index = id as usize;
        if index >= self.slots.len() {
            self.slots.resize((index + 1).max(2 * self.slots.len()), 0);
        }
        self.slots[index] = at + 1;
    }

    /// `lit` as a literal of one of the CNF's variables (a proof may name no other: CaDiCaL's
    /// LRAT introduces none).
    fn literal(&self, lit: i64) -> Result<i32, String> {
        match i32::try_from(lit) {
            Ok(l) if l != 0 && l.unsigned_abs() <= self.vars.max(0) as u32 => Ok(l),
            _ => Err(format!(
                "literal {lit} names no variable of the CNF (it has {})",
                self.vars
            )),
        }
    }

    /// The literals of live clause `id`, if it is one.
    fn clause(&self, id: u64) -> Option<&[i32]> {
        let at = *self.slots.get(usize::try_from(id).ok()?)?;
        if at == 0 {
            return None;
        }
        let at = (at - 1) as usize;
        let len = self.arena[at] as usize;
        Some(&self.arena[at + 1..at + 1 + len])
    }

    fn delete(&mut self, id: u64) -> Result<(), LratError> {
        let Some(len) = self.clause(id).map(<[i32]>::len) else {
            return refuse(format!("deletes clause {id}, which is not live"));
        };
        self.slots[id as usize] = 0;
        self.garbage += len + 1;
        if self.garbage > (1 << 24) && 2 * self.garbage > self.arena.len() {
            self.compact();
        }
        Ok(())
    }

    /// Drops the deleted clauses' literals from `arena` (moving the live ones down in order).
    fn compact(&mut self) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.garbage);
        for slot in self.slots.iter_mut().filter(|s| **s != 0) {
            let at = (*slot - 1) as usize;
            let len = self.arena[at] as usize;
            *slot = arena.len() as u64 + 1;
            arena.extend_from_slice(&self.arena[at..at + 1 + len]);
        }
        self.arena = arena;
        self.garbage = 0;
    }

    fn value(&self, lit: i32) -> i8 {
        self.values[code(lit)]
    }

    fn set_true(&mut self, lit: i32) {
        self.values[code(lit)] = 1;
        self.values[code(-lit)] = -1;
        self.trail.push(lit);
    }

    fn undo(&mut self) {
        for lit in self.trail.drain(..) {
            self.values[code(lit)] = 0;
            self.values[code(-lit)] = 0;
        }
    }

    /// Whether `hints` refute the negation of `clause` by unit propagation, in order. `Err`
    /// says why not.
    fn rup(&mut self, clause: &[i32], hints: &[i64]) -> Result<(), String> {
        for &l in clause {
            match self.value(l) {
                // Its negation was set by another literal of the clause: a tautology.
                1 => return Ok(()),
                -1 => {}
                _ => self.set_true(-l),
            }
        }
        for &hint in hints {
            if hint <= 0 {
                return Err(format!(
                    "hint {hint} is not a clause number (RAT is not accepted)"
                ));
            }
            let Some(lits) = self.clause(hint as u64) else {
                return Err(format!("hint {hint} names no live clause"));
            };
            // The one literal of the hint that is not false, if there is one.
            let mut open = None;
            for &l in lits {
                match self.value(l) {
                    -1 => {}
                    _ if open.is_some_and(|o| o != l) => {
                        return Err(format!("hint {hint} leaves two literals not false"));
                    }
                    _ => open = Some(l),
                }
            }
            match open {
                // A conflict. Before the last hint the rest are not needed, and none of them
                // can undo it (accepted as drat-trim's and cake_lpr's checkers do).
                None => return Ok(()),
                // A unit already true (CaDiCaL writes such hints): nothing new, and nothing
                // wrong, as in cake_lpr's rule (the hint less its false literals is one
                // literal).
                Some(l) if self.value(l) == 1 => {}
                Some(l) => self.set_true(l),
            }
        }
        Err(format!("its {} hints end with no conflict", hints.len()))
    }

    fn add(&mut self, id: u64, clause: &[i64], hints: &[i64]) -> Result<(), LratError> {
        if id <= self.last_id {
            return refuse(format!(
                "adds clause {id}, not above the addition before it ({})",
                self.last_id
            ));
        }
        if self.clause(id).is_some() {
            return refuse(format!("adds clause {id}, a number a live clause has"));
        }
        // CaDiCaL's numbers go up by one or two a clause; a number far past every one before
        // is a damaged file, and would only make the table of numbers huge.
        if id > self.top_id.max(self.last_id) + MAX_NUMBER_JUMP {
            return refuse(format!(
                "adds clause {id}, more than {MAX_NUMBER_JUMP} past every number before it"
            ));
        }
        let mut lits = std::mem::take(&mut self.step);
        lits.clear();
        let mut verdict = Ok(());
        for &l in clause {
            match self.literal(l) {
                Ok(l) => lits.push(l),
                Err(why) => verdict = Err(why),
            }
        }
        if verdict.is_ok() {
            verdict = self.rup(&lits, hints);
        }
        self.undo();
        if verdict.is_ok() {
            self.insert(id, &lits);
            (self.last_id, self.top_id) = (id, self.top_id.max(id));
        }
        self.step = lits;
        verdict.or_else(|why| refuse(format!("clause {id}: {why}")))
    }

    /// Checks every step of the proof; with `wanted` (a derivation), the proof may end without
    /// the empty clause, and each checked addition is taken out of `wanted`.
    fn check_proof<R: Read>(
        &mut self,
        mut input: Bytes<R>,
        stop: Option<&AtomicBool>,
        mut wanted: Option<&mut HashSet<Vec<i32>>>,
    ) -> Result<Checked, LratError> {
        let malformed = |e: std::io::Error| LratError::Refused(format!("malformed proof: {e}"));
        let binary = matches!(input.peek().map_err(malformed)?, Some(b'a' | b'd'));
        let mut done = Checked {
            cnf_clauses: self.cnf_clauses,
            binary,
            ..Checked::default()
        };
        let (mut clause, mut ids) = (Vec::new(), Vec::new());
        for steps in 0u64.. {
            if steps % (1 << 16) == 0 && stop.is_some_and(|s| s.load(Relaxed)) {
                return Err(LratError::Stopped);
            }
            let step = if binary {
                input.binary_step(&mut clause, &mut ids)
            } else {
                input.text_step(&mut clause, &mut ids)
            }
            .map_err(malformed)?;
            match step {
                None if wanted.is_some() => return Ok(done),
                None => return refuse("the proof ends without the empty clause"),
                Some(Step::Delete) => {
                    for &id in &ids {
                        self.delete(u64::try_from(id).unwrap_or(0))?;
                    }
                    done.deletions += ids.len() as u64;
                }
                Some(Step::Add(id)) => {
                    self.add(id, &clause, &ids)?;
                    done.additions += 1;
                    done.hints += ids.len() as u64;
                    if clause.is_empty() {
                        done.refuted = true;
                        return Ok(done);
                    }
                    // `add` accepted its literals as `i32`s of the CNF's variables.
                    if let Some(wanted) = wanted.as_deref_mut().filter(|w| !w.is_empty()) {
                        let lits: Vec<i32> = clause.iter().map(|&l| l as i32).collect();
                        wanted.remove(&sorted(&lits));
                    }
                }
            }
        }
        unreachable!("a step counter of 64 bits does not run out")
    }
}

/// What [`write_standard`] wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Renumbered {
    /// The CNF's clauses, numbered 1..N in the file's order.
    pub cnf_clauses: u64,
    /// Additions and deletions written, numbered from N + 1.
    pub additions: u64,
    pub deletions: u64,
}

/// Writes `proof` to `out` as text LRAT in LRAT's own numbering: the CNF's clauses 1..N in the
/// file's order, the proof's additions N + 1, N + 2, ... in turn, every hint and deletion
/// renumbered to match, up to the empty clause. Why: a proof CaDiCaL wrote through its API
/// numbers the CNF its own way (see the module's doc), which only this module reads; so
/// renumbered, a third party's LRAT checker (cake_lpr, verified in CakeML, or drat-trim's
/// `lrat-check`) can check it too. It checks nothing itself: check the proof first
/// ([`check_files`]), as `grundy sat check-lrat --standard` does. Written atomically.
///
/// # Errors
/// [`LratError::Cannot`] if a file cannot be read or written, [`LratError::Refused`] if a
/// step names a number no clause had or the proof is malformed.
pub fn write_standard(cnf: &Path, proof: &Path, out: &Path) -> Result<Renumbered, LratError> {
    let open = |path: &Path| {
        std::fs::File::open(path)
            .map_err(|e| LratError::Cannot(format!("cannot read {}: {e}", path.display())))
    };
    let cnf_clauses = count_cnf_clauses(Bytes::new(open(cnf)?))?;
    let taken = numbers_taken(Bytes::new(open(proof)?), cnf_clauses);
    let mut renumber = Renumbering::of_cnf(cnf_clauses, &taken);
    let mut input = Bytes::new(open(proof)?);
    let mut failed = None;
    crate::io::write_atomic(out, |w| {
        renumber.write(&mut input, w).map_err(|e| {
            let text = e.to_string();
            failed = Some(e);
            std::io::Error::other(text)
        })
    })
    .map_err(|e| {
        failed
            .take()
            .unwrap_or_else(|| LratError::Cannot(e.to_string()))
    })?;
    Ok(renumber.done)
}

/// CaDiCaL's number of each clause (the index) to LRAT's (0: none).
struct Renumbering {
    to_standard: Vec<u64>,
    /// The largest of CaDiCaL's numbers so far, for the same bound on jumps as the checker's.
    top: u64,
    done: Renumbered,
}

impl Renumbering {
    /// The CNF's `k`-th clause had the `k`-th number that no addition of `taken` took.
    fn of_cnf(cnf_clauses: u64, taken: &[u64]) -> Self {
        let mut r = Renumbering {
            to_standard: vec![0],
            top: 0,
            done: Renumbered {
                cnf_clauses,
                ..Renumbered::default()
            },
        };
        let (mut next, mut taken) = (0u64, taken.iter().peekable());
        for k in 1..=cnf_clauses {
            next += 1;
            while taken.next_if_eq(&&next).is_some() {
                next += 1;
            }
            r.name(next, k);
        }
        r
    }

    fn name(&mut self, cadical: u64, standard: u64) {
        let index = cadical as usize;
        if index >= self.to_standard.len() {
            self.to_standard
                .resize((index + 1).max(2 * self.to_standard.len()), 0);
        }
        self.to_standard[index] = standard;
        self.top = self.top.max(cadical);
    }

    fn standard(&self, cadical: i64) -> Result<u64, LratError> {
        let found = usize::try_from(cadical)
            .ok()
            .and_then(|i| self.to_standard.get(i).copied());
        match found {
            Some(n) if n > 0 => Ok(n),
            _ => refuse(format!(
                "a step names clause {cadical}, which no clause had"
            )),
        }
    }

    fn write<R: Read>(
        &mut self,
        input: &mut Bytes<R>,
        w: &mut dyn std::io::Write,
    ) -> Result<(), LratError> {
        use std::io::Write as _;
        let malformed = |e: std::io::Error| LratError::Refused(format!("malformed proof: {e}"));
        let io = |e: std::io::Error| LratError::Cannot(format!("cannot write: {e}"));
        let mut w = std::io::BufWriter::with_capacity(1 << 20, w);
        let binary = matches!(input.peek().map_err(malformed)?, Some(b'a' | b'd'));
        let (mut clause, mut ids) = (Vec::new(), Vec::new());
        loop {
            let step = if binary {
                input.binary_step(&mut clause, &mut ids)
            } else {
                input.text_step(&mut clause, &mut ids)
            }
            .map_err(malformed)?;
            let last = self.done.cnf_clauses + self.done.additions;
            match step {
                None => return refuse("the proof ends without the empty clause"),
                Some(Step::Delete) => {
                    write!(w, "{last} d").map_err(io)?;
                    for &id in &ids {
                        write!(w, " {}", self.standard(id)?).map_err(io)?;
                    }
                    writeln!(w, " 0").map_err(io)?;
                    self.done.deletions += ids.len() as u64;
                }
                Some(Step::Add(id)) => {
                    if id > self.top + MAX_NUMBER_JUMP {
                        return refuse(format!(
                            "adds clause {id}, far past every number before it"
                        ));
                    }
                    write!(w, "{}", last + 1).map_err(io)?;
                    for &l in &clause {
                        write!(w, " {l}").map_err(io)?;
                    }
                    write!(w, " 0").map_err(io)?;
                    for &h in &ids {
                        write!(w, " {}", self.standard(h)?).map_err(io)?;
                    }
                    writeln!(w, " 0").map_err(io)?;
                    self.name(id, last + 1);
                    self.done.additions += 1;
                    if clause.is_empty() {
                        return w.flush().map_err(io);
                    }
                }
            }
        }
    }
}

/// One step of a proof: clause `id` added (its literals and hints in the caller's buffers), or
/// the clauses in the id buffer deleted.
enum Step {
    Add(u64),
    Delete,
}

/// A byte reader with the few tokens DIMACS and LRAT need.
struct Bytes<R> {
    inner: BufReader<R>,
}

fn bad(why: impl Into<String>) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, why.into())
}

impl<R: Read> Bytes<R> {
    fn new(reader: R) -> Self {
        Bytes {
            inner: BufReader::with_capacity(1 << 20, reader),
        }
    }

    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        Ok(self.inner.fill_buf()?.first().copied())
    }

    fn byte(&mut self) -> std::io::Result<Option<u8>> {
        let b = self.peek()?;
        if b.is_some() {
            self.inner.consume(1);
        }
        Ok(b)
    }

    /// The next byte that is not white space, left unread.
    fn peek_nonblank(&mut self) -> std::io::Result<Option<u8>> {
        while let Some(b) = self.peek()? {
            if !b.is_ascii_whitespace() {
                return Ok(Some(b));
            }
            self.inner.consume(1);
        }
        Ok(None)
    }

    fn skip_line(&mut self) -> std::io::Result<()> {
        let mut sink = Vec::new();
        self.inner.read_until(b'\n', &mut sink)?;
        Ok(())
    }

    fn line(&mut self) -> std::io::Result<String> {
        let mut line = String::new();
        self.inner.read_line(&mut line)?;
        Ok(line.trim().to_string())
    }

    /// The next decimal integer, after white space; `None` at the end of the input.
    fn int(&mut self) -> std::io::Result<Option<i64>> {
        let Some(first) = self.peek_nonblank()? else {
            return Ok(None);
        };
        let negative = first == b'-';
        if negative {
            self.inner.consume(1);
        }
        let (mut value, mut digits) = (0i64, 0);
        while let Some(b @ b'0'..=b'9') = self.peek()? {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(i64::from(b - b'0')))
                .ok_or_else(|| bad("a number too large"))?;
            digits += 1;
            self.inner.consume(1);
        }
        match self.peek()? {
            _ if digits == 0 => Err(bad(format!("{:?} where a number was due", first as char))),
            Some(b) if !b.is_ascii_whitespace() => {
                Err(bad(format!("{:?} inside a number", b as char)))
            }
            _ => Ok(Some(if negative { -value } else { value })),
        }
    }

    /// Numbers up to their 0, into `out`.
    fn ints_to_zero(&mut self, out: &mut Vec<i64>) -> std::io::Result<()> {
        out.clear();
        loop {
            match self.int()? {
                None => return Err(bad("the file ends inside a step")),
                Some(0) => return Ok(()),
                Some(n) => out.push(n),
            }
        }
    }

    fn text_step(
        &mut self,
        clause: &mut Vec<i64>,
        ids: &mut Vec<i64>,
    ) -> std::io::Result<Option<Step>> {
        loop {
            match self.peek_nonblank()? {
                None => return Ok(None),
                Some(b'c') => self.skip_line()?,
                Some(_) => break,
            }
        }
        let id = self
            .int()?
            .ok_or_else(|| bad("a step without its number"))?;
        let id = u64::try_from(id).map_err(|_| bad(format!("step number {id}")))?;
        if self.peek_nonblank()? == Some(b'd') {
            self.inner.consume(1);
            self.ints_to_zero(ids)?;
            return Ok(Some(Step::Delete));
        }
        self.ints_to_zero(clause)?;
        self.ints_to_zero(ids)?;
        Ok(Some(Step::Add(id)))
    }

    /// A binary number (7 bits a byte, low first) mapped back from `2|x| + (x < 0)`; `None`
    /// for 0.
    fn varint(&mut self) -> std::io::Result<Option<i64>> {
        let (mut x, mut shift) = (0u64, 0);
        loop {
            let b = self
                .byte()?
                .ok_or_else(|| bad("the file ends inside a number"))?;
            if shift > 56 {
                return Err(bad("a number too large"));
            }
            x |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        let magnitude = i64::try_from(x >> 1).map_err(|_| bad("a number too large"))?;
        Ok((x != 0).then_some(if x & 1 == 1 { -magnitude } else { magnitude }))
    }

    fn varints_to_zero(&mut self, out: &mut Vec<i64>) -> std::io::Result<()> {
        out.clear();
        while let Some(n) = self.varint()? {
            out.push(n);
        }
        Ok(())
    }

    fn binary_step(
        &mut self,
        clause: &mut Vec<i64>,
        ids: &mut Vec<i64>,
    ) -> std::io::Result<Option<Step>> {
        match self.byte()? {
            None => Ok(None),
            Some(b'd') => {
                self.varints_to_zero(ids)?;
                Ok(Some(Step::Delete))
            }
            Some(b'a') => {
                let id = match self.varint()? {
                    Some(id) if id > 0 => id as u64,
                    other => return Err(bad(format!("an addition numbered {other:?}"))),
                };
                self.varints_to_zero(clause)?;
                self.varints_to_zero(ids)?;
                Ok(Some(Step::Add(id)))
            }
            Some(b) => Err(bad(format!("byte {b:#04x} where a step was due"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every clause over two variables: unsatisfiable, with a three-step refutation.
    const FOUR: &[u8] = b"p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";

    fn refused(cnf: &[u8], proof: &[u8]) -> String {
        match check_bytes(cnf, proof) {
            Err(LratError::Refused(why)) => why,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_refutation_of_the_four_clauses_is_accepted_in_text_and_binary() {
        let text = b"5 2 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n";
        let done = check_bytes(FOUR, text).unwrap();
        assert_eq!((done.additions, done.deletions, done.hints), (2, 2, 5));
        assert!(!done.binary);
        // The same steps in binary: `a` 2*id, literals 2v(+1), 0, hints 2*id, 0; `d` ids 0.
        let binary = [
            b'a', 10, 4, 0, 2, 4, 0, b'd', 2, 4, 0, b'a', 12, 0, 10, 6, 8, 0,
        ];
        assert!(check_bytes(FOUR, &binary).unwrap().binary);
    }

    /// A derivation (a stopped call's proof) may end without the empty clause, and names the
    /// wanted clauses it never added: here `2` is added (and deleted: it still counts), `1` is
    /// implied but never added, and a wrong step is refused as in a refutation. Mutation: the
    /// wanted set not updated, or a proof without the empty clause refused.
    #[test]
    fn a_derivation_names_the_wanted_clauses_it_never_added() {
        let wanted = [vec![2], vec![1, -1, 1], vec![1]];
        let proof = b"5 2 0 1 2 0\n5 d 1 2 0\n";
        let derived = check_derivation_bytes(FOUR, proof, &wanted).unwrap();
        assert!(!derived.checked.refuted);
        assert_eq!(derived.missing, vec![vec![-1, 1], vec![1]]);
        let with_tautology = b"5 2 0 1 2 0\n6 -1 1 0 0\n";
        let derived = check_derivation_bytes(FOUR, with_tautology, &wanted).unwrap();
        assert_eq!(derived.missing, vec![vec![1]]);
        // A refutation is a derivation too, and says so.
        let all = check_derivation_bytes(FOUR, b"5 2 0 1 2 0\n6 0 5 3 4 0\n", &wanted[..1]);
        assert!(all.unwrap().checked.refuted);
        let wrong = check_derivation_bytes(FOUR, b"5 -2 0 1 2 0\n", &wanted);
        assert!(matches!(wrong, Err(LratError::Refused(_))));
        // Without `wanted` the same proof is no refutation.
        assert!(refused(FOUR, proof).contains("without the empty clause"));
    }

    #[test]
    fn a_wrong_step_is_refused() {
        // A clause that does not follow from its hints (`-2` is no consequence of clauses 1, 2).
        assert!(refused(FOUR, b"5 -2 0 1 2 0\n6 0 5 3 4 0\n").contains("clause 5"));
        // Hints in an order that does not propagate: clause 3 first leaves two literals open.
        assert!(refused(FOUR, b"5 0 1 2 0\n").contains("two literals not false"));
        // A literal beyond the CNF's variables.
        assert!(refused(FOUR, b"5 3 0 1 2 0\n").contains("variable"));
        // A hint that names a deleted clause.
        assert!(refused(FOUR, b"5 2 0 1 2 0\n5 d 3 0\n6 0 5 3 4 0\n").contains("no live"));
        // The empty clause never reached; a truncated last step.
        assert!(refused(FOUR, b"5 2 0 1 2 0\n").contains("without the empty clause"));
        assert!(refused(FOUR, b"5 2 0 1 2 0\n6 0 5 3").contains("malformed"));
        // A number far past every number before it (a damaged file).
        assert!(refused(FOUR, b"99999999 2 0 1 2 0\n").contains("past every number"));
        // A number not above the addition before it; a RAT hint; a clause never added.
        assert!(refused(FOUR, b"5 2 0 1 2 0\n5 0 5 3 4 0\n").contains("not above"));
        assert!(refused(FOUR, b"5 2 0 -1 2 0\n").contains("RAT"));
        assert!(refused(FOUR, b"5 2 0 9 2 0\n").contains("no live"));
    }

    #[test]
    fn the_cnf_takes_the_numbers_between_the_proof_s_additions() {
        // As CaDiCaL numbers it when given these clauses in turn: the unit `1` (1) propagates
        // at once, so `-1 2` (2) is strengthened to `2`, derived as 3, and the next clauses
        // are 4 and 5; the empty clause comes from 1, 3 and the last clause, 5.
        let cnf = b"p cnf 2 4\n1 0\n-1 2 0\n1 -2 0\n-1 -2 0\n";
        let proof = b"3 2 0 1 2 0\n3 d 2 0\n6 0 1 3 5 0\n";
        assert_eq!(check_bytes(cnf, proof).unwrap().additions, 2);
        // Numbered 1..4 instead, the last clause would be 4 and hint 5 would name nothing;
        // here 4 is the third clause, `1 -2`, true through 1, and after it nothing conflicts.
        assert!(refused(cnf, b"3 2 0 1 2 0\n6 0 1 3 4 0\n").contains("no conflict"));
    }

    #[test]
    fn a_hint_already_true_is_no_step_and_no_fault() {
        // Clause 5 = `2`: with 2 false, clause 1 (`1 2`) sets 1; named again it is true
        // through 1 and adds nothing; clause 2 (`-1 2`) conflicts.
        assert!(check_bytes(FOUR, b"5 2 0 1 1 2 0\n6 0 5 3 4 0\n").is_ok());
        // But a hint true through one literal and open in another is refused: clause 3
        // (`1 -2`) with 2 false is true through -2, and 1 is open.
        assert!(refused(FOUR, b"5 2 0 3 1 2 0\n").contains("two literals not false"));
    }

    #[test]
    fn a_satisfiable_cnf_admits_no_empty_clause() {
        // Without `-1 -2` the four clauses have the model 1, 2: the same steps cannot close.
        let three = b"p cnf 2 3\n1 2 0\n-1 2 0\n1 -2 0\n";
        assert!(refused(three, b"4 2 0 1 2 0\n5 0 4 3 0\n").contains("clause 5"));
    }

    #[test]
    fn a_bad_cnf_gives_no_verdict() {
        let cannot =
            |cnf: &[u8]| matches!(check_bytes(cnf, b"5 0 1 0\n"), Err(LratError::Cannot(_)));
        assert!(cannot(b"p cnf 2 5\n1 2 0\n"));
        assert!(cannot(b"1 2 0\n"));
        assert!(cannot(b"p cnf 2 1\n1 2\n"));
    }
}
