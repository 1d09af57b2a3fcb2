/*!
Learned clauses carried from one run of a period question to the next.

A CaDiCaL run that times out throws its search away. For an open period a campaign is many such
runs (one per Slurm job, one per seed), so each keeps the short clauses it learned in a file and
the next run on the same encoding starts with them. Measured on a cube of Officers p = 27 (three
residues fixed, UNSAT in 303 s in one run): cut after 100 s and restarted, the restart with the
90 thousand learned clauses of at most 8 literals needed 225 s more, without them 284 s; cut after
150 thousand conflicts, 326 s against 351 s, within the machine's noise (the same deterministic
search took 284-351 s); a second cube ran past 600 s both ways (`examples/lemma_probe.rs`). A
likely gain, not an established one. On pieces of a band (`sat bounds --pieces --lemmas`,
p = 27, band 248..256): a piece of 71.4 s stopped at 40 s took 41.7 s more with its 214775
clauses, one of 67.4 s stopped at 30 s took 53.5 s more. On Officers p = 39's band 192..200,
the piece `s[0]` = 194 ran 6792 s without an answer keeping 2^20 clauses, then given them was
refuted in 1385 s (two earlier tries, without lemmas, had run 7169 and 1674 s). On the whole
question short clauses come slowly (p = 27: about 950 in the first minute), and what they are
worth there is not measured.

Invariants:
- A learned clause is implied by the clauses CaDiCaL was given (conflict analysis resolves
  clauses; assumptions are decisions, not clauses), so a store holds clauses implied by one exact
  CNF, named by its [`fingerprint`] in the file name. Adding them changes no answer: SAT stays SAT
  with the same models, UNSAT stays UNSAT. An UNSAT answer that used them rests on CaDiCaL having
  learned them soundly, which no proof checks, unless they are *certified* (below); a run that
  writes a proof from the encoding alone (`--prove-chain`, `sat --proof-dir`) is given none,
  and a result's `how` says when lemmas were carried.
- A file is *certified* (its header ends with `certified`) when every clause in it follows from
  its CNF as checked proofs showed: the run that saved it was given clauses of certified files
  only (none counts), wrote an LRAT proof, and grundy's checker, reading that proof as a
  derivation, found every clause it learned among the proof's checked additions
  ([`Carry::certified`], `solve::solve_carried_with_lrat`). By induction over the runs, a
  certified file's clauses follow from the CNF alone, so a refutation given only certified
  files, its proof checked against the CNF and the clauses given, proves the CNF UNSAT. The
  saves made while a run goes on are never certified (no proof has been read yet), so a run
  killed outright leaves its file uncertified, and every file given from it after.
- A store may also read the files of stores whose CNF its own contains ([`LemmaStore::within`]:
  a piece's, for a part of the piece, whose CNF is the piece's with units added). Their clauses
  are implied by that CNF, so by this one's too. Never the other way: what a part learned may
  rest on its units, and is no lemma of the piece.
- Each run writes its own file (`...-seed<S>.lemmas`): its earlier file plus what it learned.
  Runs on other seeds, at the same time or later, read every file of the encoding, so parallel
  tasks never write one file twice, and each file only grows by its own run.
- Memory and files are bounded: at most [`KEEP`] clauses, the shortest first.
- A run saves its file every few minutes as well as at its end ([`LemmaStore::save_every`]), so
  a run killed outright (a machine lost, a scheduler's SIGKILL, a session ended) loses at most
  that interval of learning. Each save is whole and atomic, so a kill never leaves half a file.

- Beside each file, a *core* (`...-seed<S>-core.lemmas`, [`core_name`]): the same save's units
  and binary clauses, at most [`CORE_KEEP`], in the same format. Why: a file of 2^20 clauses
  (about 30 MB) is too big for the repository, so it lives on the machine that wrote it, and a
  campaign moved to a fresh machine lost every file (session 51: six files of p = 37 and 39,
  over 60,000 s of search, gone with the VM). A core is at most about 400 kB (p = 37's open
  pieces: about 15,000 binaries, 200 kB), small enough to commit (`.gitignore` keeps out the
  lemma folders under `results/` but for their cores), and the units and binaries are what a
  piece's tries gain from try to try. A core is read with the files of its question (its name
  has the same stem), and a run whose own file is gone starts its own from its core, so the
  next save keeps them. Removed with its file ([`remove_with_core`]).

File format (text, DIMACS clause lines, so another solver can read it):
`c grundy lemmas 1 cnf <fingerprint> count <n> crc32 <crc of the clause lines>` (and
` certified` for a certified file), then `n` lines `l1 l2 ... 0`. A wrong header, count or CRC
is an error naming the file, never a silent skip.
*/

use super::Cnf;
use super::solve::Answer;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// Clauses as DIMACS literals.
pub type Clauses = Vec<Vec<i32>>;

/// Learned clauses of more literals than this are not kept (short clauses prune most).
pub const MAX_LEN: usize = 8;
/// Clauses kept per run and loaded per question, at most.
pub const KEEP: usize = 1 << 20;
/// The last word of a certified file's header.
const CERTIFIED: &str = "certified";
/// Clauses in a core file (units and binaries of a save, shortest first), at most: 2^15 lines
/// of about 12 bytes, under 400 kB a file.
pub const CORE_KEEP: usize = 1 << 15;

/// The core file beside the lemma file `name` (`q-seed0.lemmas`: `q-seed0-core.lemmas`).
pub fn core_name(name: &str) -> String {
    format!(
        "{}-core.lemmas",
        name.strip_suffix(".lemmas").unwrap_or(name)
    )
}

/// Removes the lemma file at `path` and its core; what was not there is no error (a call
/// answered removes files that may never have been written).
pub fn remove_with_core(path: &Path) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(name) = name {
        let _ = std::fs::remove_file(path.with_file_name(core_name(&name)));
    }
    let _ = std::fs::remove_file(path);
}

/// A bad lemma file.
#[derive(Debug, thiserror::Error)]
#[error("lemma file {}: {reason}", path.display())]
pub struct LemmaError {
    pub path: PathBuf,
    pub reason: String,
}

/// A lemma file's contents: the fingerprint of the CNF it was learned from, and its clauses.
#[derive(Clone, Debug)]
pub struct LemmaFile {
    pub fingerprint: String,
    pub clauses: Clauses,
    /// Whether its header says it is certified (`certified` after the CRC): every clause
    /// follows from the CNF, as checked proofs showed ([`Carry::certified`]).
    pub certified: bool,
}

impl LemmaFile {
    /// The variables of the CNF it was learned from, as its fingerprint says ([`fingerprint`]).
    pub fn cnf_vars(&self) -> Option<i32> {
        let (_, rest) = self.fingerprint.split_once('v')?;
        rest.split_once('c')?.0.parse().ok()
    }
}

/// Reads a lemma file, checked against its header (format, CRC of the clause lines, count).
///
/// # Errors
/// [`LemmaError`] naming the file: unreadable, not a lemma file, or damaged.
pub fn read_file(path: &Path) -> Result<LemmaFile, LemmaError> {
    let bad = |reason: &str| LemmaError {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(&e.to_string()))?;
    let (header, body) = text.split_once('\n').unwrap_or((&text, ""));
    let fields: Vec<&str> = header.split_whitespace().collect();
    let (fields, certified) = match fields[..] {
        [ref head @ .., CERTIFIED] => (head, true),
        _ => (&fields[..], false),
    };
    let [
        "c",
        "grundy",
        "lemmas",
        "1",
        "cnf",
        fingerprint,
        "count",
        count,
        "crc32",
        crc,
    ] = fields[..]
    else {
        return Err(bad("not a grundy lemma file (bad header)"));
    };
    if format!("{:08x}", crc32fast::hash(body.as_bytes())) != crc {
        return Err(bad("damaged (CRC mismatch)"));
    }
    let clauses = body
        .lines()
        .map(|line| {
            let lits: Result<Vec<i32>, _> = line.split_whitespace().map(str::parse).collect();
            match lits.as_deref() {
                Ok([body @ .., 0]) if !body.contains(&0) => Ok(body.to_vec()),
                _ => Err(bad("damaged (a clause line is not `l1 ... 0`)")),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if count.parse() != Ok(clauses.len()) {
        return Err(bad("damaged (clause count differs from the header)"));
    }
    Ok(LemmaFile {
        fingerprint: fingerprint.to_string(),
        clauses,
        certified,
    })
}

/// The identity of a CNF: CRC-32 of its clause stream, its variable and clause counts.
pub fn fingerprint(cnf: &Cnf) -> String {
    let mut crc = crc32fast::Hasher::new();
    for clause in cnf.clauses() {
        for &l in clause {
            crc.update(&l.to_le_bytes());
        }
        crc.update(&0i32.to_le_bytes());
    }
    format!(
        "{:08x}v{}c{}",
        crc.finalize(),
        cnf.num_vars,
        cnf.num_clauses
    )
}

/// Clauses given to a solver run and those it learns (shared by a portfolio's copies).
#[derive(Debug, Default)]
pub struct Carry {
    /// From earlier runs: added to the solver after the encoding.
    pub given: Vec<Vec<i32>>,
    /// Whether every file `given` came from is certified (none given: true).
    pub given_certified: bool,
    learned: Mutex<Vec<Vec<i32>>>,
    /// Set once a checked proof of this run derived every clause it learned ([`Self::derived`]).
    derived: std::sync::atomic::AtomicBool,
}

impl Carry {
    pub fn new(given: Vec<Vec<i32>>) -> Carry {
        Carry::given_certified(given, false)
    }

    /// A carry of `given`, whose files were all certified or not, as `certified` says.
    pub fn given_certified(given: Vec<Vec<i32>>, certified: bool) -> Carry {
        Carry {
            given,
            given_certified: certified,
            learned: Mutex::default(),
            derived: Default::default(),
        }
    }

    /// Records that a checked proof of this run (on its CNF and `given`) added every clause of
    /// [`Self::learned`] (as it was then: the run has ended, so nothing is learned after).
    pub fn derived(&self) {
        self.derived
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether what this run keeps follows from its CNF, checked: it was given clauses of
    /// certified files only, and a checked proof derived every clause it learned. Its file is
    /// then saved certified. Why it holds: the given clauses follow from the CNF (their files'
    /// certificates, by induction), and the proof shows the learned ones follow from the CNF
    /// and the given clauses.
    pub fn certified(&self) -> bool {
        self.given_certified && self.derived.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Takes one learned clause (the solver's callback), compacting when too many are held.
    pub fn learn(&self, clause: Vec<i32>) {
        let mut learned = self.learned.lock().expect("lemma lock");
        learned.push(clause);
        if learned.len() >= 2 * KEEP {
            let all = std::mem::take(&mut *learned);
            *learned = shortest_distinct(all);
        }
    }

    /// What was learned so far.
    pub fn learned(&self) -> Vec<Vec<i32>> {
        self.learned.lock().expect("lemma lock").clone()
    }
}

/// What a call that carried lemmas was given and kept ([`carrying`]).
#[derive(Debug)]
pub struct Carried {
    /// Clauses of earlier runs given to it.
    pub given: usize,
    /// Clauses in its file after it (its earlier file and what it learned, at most [`KEEP`]);
    /// 0 when the save after the call failed.
    pub kept: usize,
    /// Those clauses by length ([`by_length`]); empty when the save failed.
    pub by_length: Vec<usize>,
    /// The units its own file held when it started (what the call before it kept); `None`
    /// when it had no file and started afresh.
    pub units_at_start: Option<usize>,
    /// Its file.
    pub file: PathBuf,
    /// Why the save after an answered call failed (a full disk, say), its earlier file left as
    /// it was.
    pub unsaved: Option<crate::io::WriteError>,
    /// Whether its file was saved certified ([`Carry::certified`]).
    pub certified: bool,
}

/// A lemma file that could not be read before a call, or written after it.
#[derive(Debug, thiserror::Error)]
pub enum CarryError {
    #[error(transparent)]
    Read(#[from] LemmaError),
    #[error(transparent)]
    Write(#[from] crate::io::WriteError),
}

/// Runs `solve` with the clauses of every file of `store` given, and what it learns saved to
/// seed `seed`'s file every `every` while it runs and once more when it ends (a timeout or a
/// stop request included: that is when keeping them matters). The one way every caller
/// carries lemmas (a period question, a rung or piece of a ladder).
///
/// # Errors
/// A damaged file of the store (nothing is solved), or the last save of a call left without an
/// answer (a timeout), whose lemmas are all it has to keep. After an answer (or a solver's
/// failure, reported as such) a failed save is no error: the answer comes back with it
/// ([`Carried::unsaved`]), since the clauses lost are ones no one needs again, and hours of
/// solving are never thrown away for them.
pub fn carrying<E>(
    store: &LemmaStore,
    seed: u64,
    every: Duration,
    solve: impl FnOnce(&Carry) -> Result<Answer, E>,
) -> Result<(Result<Answer, E>, Carried), CarryError> {
    let (given, own, given_certified) = store.load(seed)?;
    let units_at_start = (!own.is_empty()).then(|| own.iter().filter(|c| c.len() == 1).count());
    let carry = Carry::given_certified(given, given_certified);
    let answer = std::thread::scope(|scope| {
        let (running, done) = std::sync::mpsc::channel::<()>();
        let (own, carry) = (&own, &carry);
        scope.spawn(move || store.save_every(seed, own, carry, every, &done));
        let answer = solve(carry);
        drop(running);
        answer
    });
    let certified = carry.certified();
    let (by_length, unsaved) = match store.save(seed, (own, carry.learned()), certified) {
        Ok(by_length) => (by_length, None),
        Err(error) if matches!(answer, Ok(Answer::Timeout)) => return Err(error.into()),
        Err(error) => (Vec::new(), Some(error)),
    };
    let carried = Carried {
        given: carry.given.len(),
        kept: by_length.iter().sum(),
        by_length,
        units_at_start,
        file: store.path(seed),
        unsaved,
        certified,
    };
    Ok((answer, carried))
}

/// How many of `clauses` have 1, 2, ... literals (`[0]`: units), up to the longest. Why it is
/// recorded: a call stopped without an answer says nothing else of what it achieved, and the
/// units and binary clauses a piece's file gains from try to try are the one sign that a
/// campaign of months is getting somewhere (a unit is a value some residue can never take, or
/// another fact the solver settled for good).
pub fn by_length(clauses: &[Vec<i32>]) -> Vec<usize> {
    let mut counts = vec![0; clauses.iter().map(Vec::len).max().unwrap_or(0)];
    for clause in clauses.iter().filter(|c| !c.is_empty()) {
        counts[clause.len() - 1] += 1;
    }
    counts
}

/// Sorted literals per clause, no repeats, at most [`KEEP`] clauses, shortest first (stable, so
/// older clauses of a length stay ahead of newer ones).
fn shortest_distinct(clauses: Vec<Vec<i32>>) -> Vec<Vec<i32>> {
    let mut seen = HashSet::new();
    let mut out: Vec<Vec<i32>> = clauses
        .into_iter()
        .map(|mut c| {
            c.sort_unstable();
            c
        })
        .filter(|c| seen.insert(c.clone()))
        .collect();
    out.sort_by_key(Vec::len);
    out.truncate(KEEP);
    out
}

/// The lemma files of one question in a folder.
#[derive(Clone, Debug)]
pub struct LemmaStore {
    dir: PathBuf,
    /// `<game>-p<P>-<question>-<fingerprint>`.
    stem: String,
    fingerprint: String,
    /// Stores of CNFs this one's implies, whose files are read too (never written).
    outer: Vec<LemmaStore>,
}

impl LemmaStore {
    pub fn new(dir: &Path, question: &str, cnf: &Cnf) -> LemmaStore {
        let fingerprint = fingerprint(cnf);
        LemmaStore {
            dir: dir.to_path_buf(),
            stem: format!("{question}-{fingerprint}"),
            fingerprint,
            outer: Vec::new(),
        }
    }

    /// This store, reading the files of `outer` too: a store of a CNF that this store's CNF
    /// implies (every clause of it follows: a piece's for a part of it, whose CNF contains it,
    /// or a larger part's, whose units the part's imply). Why: a piece that resisted for weeks
    /// is cut in parts to share it among cores, and the clauses it learned (2^20 a file) hold
    /// for each part; without them each part starts from nothing.
    #[must_use]
    pub fn within(mut self, outer: LemmaStore) -> LemmaStore {
        self.outer.push(outer);
        self
    }

    /// The file run seed `seed` writes.
    pub fn path(&self, seed: u64) -> PathBuf {
        self.dir.join(format!("{}-seed{seed}.lemmas", self.stem))
    }

    /// The core beside [`Self::path`] ([`core_name`]).
    pub fn core_path(&self, seed: u64) -> PathBuf {
        let path = self.path(seed);
        path.with_file_name(core_name(&crate::io::file_name(&path)))
    }

    /// The question and CNF fingerprint a file of [`LemmaStore::path`] is of, whatever its
    /// seed: the part of its name before `-seed`. Files with the same part are loaded together.
    pub fn question_of(file_name: &str) -> Option<&str> {
        let name = file_name.strip_suffix(".lemmas")?;
        name.rsplit_once("-seed").map(|(question, _)| question)
    }

    /// Every clause in every file of this question (all seeds, cores too), and of the stores
    /// it is [`Self::within`], shortest first, at most [`KEEP`]; and the clauses of seed
    /// `seed`'s own file and core, which its next save keeps (the outer stores' clauses are
    /// read afresh each time). The core is in both files of a machine that kept them; read on
    /// one that has only the core (the file lost with a machine), it is what the save keeps.
    /// Last, whether every file read is certified.
    ///
    /// # Errors
    /// [`LemmaError`] for an unreadable folder or a damaged file.
    pub fn load(&self, seed: u64) -> Result<(Clauses, Clauses, bool), LemmaError> {
        let mut all = Vec::new();
        let mut own = Vec::new();
        let mut certified = true;
        let own_files = [self.path(seed), self.core_path(seed)];
        for path in self.files()? {
            let file = self.read(&path)?;
            if own_files.contains(&path) {
                own.extend(file.clauses.iter().cloned());
            }
            certified &= file.certified;
            all.extend(file.clauses);
        }
        let own = shortest_distinct(own);
        for outer in &self.outer {
            let (clauses, _, outer_certified) = outer.load(seed)?;
            all.extend(clauses);
            certified &= outer_certified;
        }
        Ok((shortest_distinct(all), own, certified))
    }

    /// The files of this question (all seeds) in the store's folder, sorted; none when the
    /// folder is not there yet.
    fn files(&self) -> Result<Vec<PathBuf>, LemmaError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(self.error(&self.dir, e.to_string())),
        };
        let prefix = format!("{}-seed", self.stem);
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                name.is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".lemmas"))
            })
            .collect();
        paths.sort();
        Ok(paths)
    }

    fn error(&self, path: &Path, reason: String) -> LemmaError {
        LemmaError {
            path: path.to_path_buf(),
            reason,
        }
    }

    /// One file, checked against its header and this store's encoding.
    fn read(&self, path: &Path) -> Result<LemmaFile, LemmaError> {
        let file = read_file(path)?;
        if file.fingerprint != self.fingerprint {
            return Err(self.error(path, "written for another encoding".into()));
        }
        Ok(file)
    }

    /// Saves `own` and what `carry` has learned every `every` until `done` hangs up (the run
    /// ended; its caller then makes the final save). A failed save is left to the next one and
    /// to the final save, which reports its error: a save in passing must not end a search that
    /// is still running.
    pub fn save_every(
        &self,
        seed: u64,
        own: &[Vec<i32>],
        carry: &Carry,
        every: Duration,
        done: &Receiver<()>,
    ) {
        // Never certified: no proof has been checked while the run goes on.
        while let Err(RecvTimeoutError::Timeout) = done.recv_timeout(every) {
            let _ = self.save(seed, (own.to_vec(), carry.learned()), false);
        }
    }

    /// Writes seed `seed`'s file atomically: `own` (its earlier file) and `learned`, at most
    /// [`KEEP`] clauses, its header saying `certified` when asked ([`Carry::certified`]).
    /// Returns how many were written, by length ([`by_length`]).
    ///
    /// # Errors
    /// [`crate::io::WriteError`]; the old file is kept.
    pub fn save(
        &self,
        seed: u64,
        (own, learned): (Vec<Vec<i32>>, Vec<Vec<i32>>),
        certified: bool,
    ) -> Result<Vec<usize>, crate::io::WriteError> {
        let mut clauses = own;
        clauses.extend(learned);
        let clauses = shortest_distinct(clauses);
        // The core first: a kill between the two saves leaves a core no older than the file.
        let core: Vec<Vec<i32>> = (clauses.iter())
            .take_while(|c| c.len() <= 2)
            .take(CORE_KEEP)
            .cloned()
            .collect();
        self.write(&self.core_path(seed), &core, certified)?;
        self.write(&self.path(seed), &clauses, certified)?;
        Ok(by_length(&clauses))
    }

    /// Writes `clauses` (shortest first, distinct) to `path` atomically, with its header.
    fn write(
        &self,
        path: &Path,
        clauses: &[Vec<i32>],
        certified: bool,
    ) -> Result<(), crate::io::WriteError> {
        let mut body = String::new();
        for clause in clauses {
            for l in clause {
                body.push_str(&l.to_string());
                body.push(' ');
            }
            body.push_str("0\n");
        }
        let header = format!(
            "c grundy lemmas 1 cnf {} count {} crc32 {:08x}{}\n",
            self.fingerprint,
            clauses.len(),
            crc32fast::hash(body.as_bytes()),
            if certified { " certified" } else { "" },
        );
        crate::io::write_atomic(path, |out| {
            out.write_all(header.as_bytes())?;
            out.write_all(body.as_bytes())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::CollectClauses;

    /// Counts by length, units first, up to the longest clause, and what a save returns is that
    /// of the file it wrote (read back and counted here by hand: 2 units, no binary, 1 of three
    /// after duplicates go). Mutation: counts off by one place, or of the clauses given rather
    /// than those written.
    #[test]
    fn a_save_counts_its_clauses_by_length() {
        assert_eq!(by_length(&[]), Vec::<usize>::new());
        assert_eq!(by_length(&[vec![1, 2], vec![3], vec![4, 5]]), [1, 2]);
        let dir = tempfile::tempdir().unwrap();
        let mut cnf = crate::sat::Cnf::default();
        cnf.add_clause(&[1, 2, 3]);
        let store = LemmaStore::new(dir.path(), "q", &cnf);
        let own = vec![vec![-1], vec![2, 1, 3]];
        let learned = vec![vec![3, 1, 2], vec![-2], vec![-1]];
        assert_eq!(store.save(0, (own, learned), false).unwrap(), [2, 0, 1]);
        let text = std::fs::read_to_string(store.path(0)).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(lines, ["-1 0", "-2 0", "1 2 3 0"]);
    }

    /// A save writes beside its file a core of its units and binary clauses only; with the
    /// file gone (a fresh machine), a load gives the core's clauses, as the call's own, so the
    /// next save keeps them in a new file. A core's removal goes with its file's. Mutations:
    /// a core of every clause, or the core read but not kept (the new file without it).
    #[test]
    fn a_core_of_units_and_binaries_outlives_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut cnf = Cnf::default();
        cnf.add_clause(&[1, 2, 3, 4]);
        let store = LemmaStore::new(dir.path(), "q", &cnf);
        let learned = vec![vec![1, 2, 3], vec![-4], vec![2, -3], vec![1, 2, 3, 4]];
        store.save(0, (vec![], learned), false).unwrap();
        let core = read_file(&store.core_path(0)).unwrap();
        assert_eq!(core.clauses, [vec![-4], vec![-3, 2]]);
        assert_eq!(core.fingerprint, fingerprint(&cnf));
        std::fs::remove_file(store.path(0)).unwrap();
        let (given, own, _) = store.load(0).unwrap();
        assert_eq!((given.len(), &own), (2, &core.clauses));
        store.save(0, (own, vec![vec![1, 4]]), false).unwrap();
        let kept = read_file(&store.path(0)).unwrap().clauses;
        assert_eq!(kept, [vec![-4], vec![-3, 2], vec![1, 4]]);
        // Read with its file, the core's clauses are given once.
        assert_eq!(store.load(0).unwrap().0.len(), 3);
        remove_with_core(&store.path(0));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert_eq!(
            core_name("q-1234v5c6-seed0.lemmas"),
            "q-1234v5c6-seed0-core.lemmas"
        );
    }

    /// A piece's CNF of one clause, and a part's: the piece's with a unit added.
    fn piece_and_part_cnfs() -> (Cnf, Cnf) {
        let mut piece_cnf = Cnf::default();
        piece_cnf.add_clause(&[1, 2, 3]);
        let mut part_cnf = piece_cnf.clone();
        part_cnf.add_clause(&[-3]);
        (piece_cnf, part_cnf)
    }

    /// A store [`LemmaStore::within`] another (a part's within its piece's) is given the outer
    /// store's clauses beside its own, of every seed, but keeps only its own: its save writes
    /// none of the outer ones, and the outer file is left as it was. Mutation: the outer store
    /// not read (its clauses not given), or read as the store's own (written into its file).
    #[test]
    fn a_store_within_another_is_given_its_clauses_and_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let (piece_cnf, part_cnf) = piece_and_part_cnfs();
        let piece = LemmaStore::new(dir.path(), "piece", &piece_cnf);
        piece.save(0, (vec![vec![1, 2]], vec![]), true).unwrap();
        piece.save(1, (vec![vec![-4, 5]], vec![]), true).unwrap();
        let outer_file = std::fs::read_to_string(piece.path(0)).unwrap();
        let part = LemmaStore::new(dir.path(), "part", &part_cnf).within(piece.clone());
        part.save(0, (vec![vec![6]], vec![]), false).unwrap();
        let (mut given, own, _) = part.load(0).unwrap();
        given.sort();
        assert_eq!(given, [vec![-4, 5], vec![1, 2], vec![6]]);
        assert_eq!(own, [vec![6]]);
        part.save(0, (own, vec![vec![7, 8]]), false).unwrap();
        let kept = read_file(&part.path(0)).unwrap().clauses;
        assert_eq!(kept, [vec![6], vec![7, 8]]);
        assert_eq!(std::fs::read_to_string(piece.path(0)).unwrap(), outer_file);
    }

    /// A call's file is saved certified only when a checked proof derived what it learned
    /// (`Carry::derived`, which the caller sets after its check) and every file it was given
    /// (its own, another seed's, an outer store's) was certified; the periodic saves never
    /// are. Mutation: `certified` true without the proof, or without looking at the files
    /// given; an outer store's files not counted.
    #[test]
    fn a_file_is_certified_only_by_a_derivation_from_certified_files() {
        let dir = tempfile::tempdir().unwrap();
        let (piece_cnf, part_cnf) = piece_and_part_cnfs();
        let piece = LemmaStore::new(dir.path(), "piece", &piece_cnf);
        let part = || LemmaStore::new(dir.path(), "part", &part_cnf).within(piece.clone());
        let every = Duration::from_secs(600);
        let run = |derived: bool| {
            move |carry: &Carry| {
                carry.learn(vec![1, 2]);
                if derived {
                    carry.derived();
                }
                Ok::<Answer, ()>(Answer::Timeout)
            }
        };
        let certified = |store: &LemmaStore| {
            let file = read_file(&store.path(0)).unwrap().certified;
            assert_eq!(read_file(&store.core_path(0)).unwrap().certified, file);
            file
        };
        // Nothing given: a derivation certifies it, and no derivation leaves it uncertified.
        let (_, carried) = carrying(&piece, 0, every, run(false)).unwrap();
        assert!(!carried.certified && !certified(&piece));
        std::fs::remove_file(piece.path(0)).unwrap();
        std::fs::remove_file(piece.core_path(0)).unwrap();
        let (_, carried) = carrying(&piece, 0, every, run(true)).unwrap();
        assert!(carried.certified && certified(&piece));
        // A part given the piece's certified file: certified by its derivation.
        let (_, carried) = carrying(&part(), 0, every, run(true)).unwrap();
        assert!(carried.certified && certified(&part()));
        // Another seed of the piece uncertified: the part's next file is not, derivation or not.
        piece.save(1, (vec![vec![-1, 2]], vec![]), false).unwrap();
        let (_, carried) = carrying(&part(), 0, every, run(true)).unwrap();
        assert!(!carried.certified && !certified(&part()));
        // A header with another last word is no lemma file.
        let text = std::fs::read_to_string(piece.path(0)).unwrap();
        let forged = text.replacen(" certified", " checked", 1);
        std::fs::write(piece.path(0), forged).unwrap();
        assert!(read_file(&piece.path(0)).is_err());
    }

    /// A save that fails after the call (its folder gone, as a full disk would fail it) loses
    /// no answer: `carrying` returns it with the failure, which is an error only for a call
    /// that left none. The clauses learned are ones handed to the carry, so the oracle is the
    /// file a save leaves when it can write.
    #[test]
    fn a_failed_last_save_keeps_the_answer_and_fails_only_a_call_without_one() {
        let mut cnf = Cnf::default();
        let (a, b) = (cnf.new_var(), cnf.new_var());
        cnf.add_clause(&[a, b]);
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("lemmas");
        std::fs::create_dir(&dir).unwrap();
        let store = LemmaStore::new(&dir, "toy", &cnf);
        let every = Duration::from_secs(600);
        let learn = |carry: &Carry| {
            carry.learn(vec![a]);
            Ok::<Answer, ()>(Answer::Unsat)
        };
        // The folder kept: the file holds the clause, and nothing failed.
        let (_, carried) = carrying(&store, 0, every, learn).unwrap();
        assert_eq!((carried.kept, carried.unsaved.is_none()), (1, true));
        assert_eq!(store.load(1).unwrap().0, vec![vec![a]]);
        // The folder removed while the call runs: the answer comes back, the save's failure
        // with it; a call without one fails on it.
        let gone = |answer: Answer| {
            let dir = &dir;
            move |carry: &Carry| {
                std::fs::remove_dir_all(dir).unwrap();
                carry.learn(vec![b]);
                Ok::<Answer, ()>(answer)
            }
        };
        let (answer, carried) = carrying(&store, 0, every, gone(Answer::Unsat)).unwrap();
        assert_eq!((answer, carried.kept), (Ok(Answer::Unsat), 0));
        assert!(carried.unsaved.is_some(), "{carried:?}");
        std::fs::create_dir(&dir).unwrap();
        let timed_out = carrying(&store, 0, every, gone(Answer::Timeout));
        assert!(matches!(timed_out, Err(CarryError::Write(_))));
    }
}
