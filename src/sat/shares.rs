/*!
Dealing a cube campaign out to several machines, and gathering it back.

A campaign ([`super::cubes`]) is one ledger run by one process. To spread it over a cluster, the
ledger's open cubes are *dealt* into K share ledgers beside it; each is an ordinary ledger that a
job runs (`grundy sat cubes ... --ledger SHARE`) and continues across jobs; *gathering* folds
what each share refuted, its open cubes and its counters back into the parent. Only the parent
answers the question: a share that refutes all it holds says so and merges nothing.

Invariants (besides those of [`super::cubes`]):
- Every ledger's refuted share, its open cubes' shares and `elsewhere` make up its root's share
  (checked by [`Ledger::read`]).
- A parent lists each share it dealt and has not gathered (`shares`), with its portion of the
  box; the portions sum to the parent's `elsewhere`. A share carries its deal's id (`share_of`)
  and `elsewhere` = the root's share less its portion, so its cubes plus what it refuted stay
  exactly its portion.
- The parent is the authority: a share counts while the parent lists it, and only then. Gathering
  writes the parent first and then marks the share `gathered_into`, and a marked share refuses to
  run, so no refutation is counted twice: if the machine stops between the two writes, the share
  is unmarked but no longer listed, and a later gather ignores it.
- A deal splits the largest cubes (as a campaign would) until there are K, and hands them out
  largest first, each to the share holding least so far, so portions come out even where the cubes
  allow.
*/

use std::path::{Path, PathBuf};

use super::cubes::{Cube, Ledger, LedgerError, ShareNote, Verdict, split};

impl Ledger {
    /// Deals this ledger's open cubes into `k` shares (fewer when the cubes cannot be split that
    /// far), named after `file_name` (this ledger's file name); returns each share's file name
    /// and ledger. The caller writes the shares, then this ledger.
    ///
    /// # Errors
    /// A share (shares deal no further), `k = 0`, or nothing open.
    pub fn deal(
        &mut self,
        k: usize,
        shifts: &[Vec<u8>],
        file_name: &str,
    ) -> Result<Vec<(String, Ledger)>, String> {
        if let Some(id) = &self.share_of {
            return Err(format!(
                "it is a share ({id}); deal from the ledger it came from"
            ));
        }
        if k == 0 {
            return Err("cannot deal into 0 shares".into());
        }
        let (_, mut open) = self.cubes()?;
        if open.is_empty() {
            return Err(match self.shares.len() {
                0 => "no cube is open here to deal".into(),
                n => format!("no cube is open here to deal ({n} shares are out: gather them)"),
            });
        }
        self.splits += split_largest(&mut open, k, shifts, self.rotation());
        let hands = deal_hands(&open, k);
        self.deals += 1;
        let stem = file_name.strip_suffix(".json").unwrap_or(file_name);
        let mut dealt = Vec::new();
        for (i, hand) in hands.iter().enumerate() {
            let portion: f64 = hand.iter().map(|&c| open[c].share()).sum();
            let note = ShareNote {
                file: format!("{stem}.deal{}-{}of{}.json", self.deals, i + 1, hands.len()),
                id: format!(
                    "{file_name} deal {} share {}/{}",
                    self.deals,
                    i + 1,
                    hands.len()
                ),
                portion,
            };
            let mut share = self.clone_empty();
            share.open = hand.iter().map(|&c| open[c].render()).collect();
            share.elsewhere = self.root_share() - portion;
            share.share_of = Some(note.id.clone());
            dealt.push((note.file.clone(), share));
            self.shares.push(note);
        }
        self.open.clear();
        self.elsewhere = self.shares.iter().map(|s| s.portion).sum();
        Ok(dealt)
    }

    /// Folds the share that `self.shares[index]` lists back into this ledger: its refuted share,
    /// open cubes, counters and pattern (which the caller checks again before reporting it).
    ///
    /// # Errors
    /// The share is not the one dealt (another id, question, encoding or root, another
    /// portion, or already gathered); nothing changes then.
    pub fn gather(&mut self, index: usize, share: &Ledger) -> Result<(), String> {
        let note = &self.shares[index];
        if share.share_of.as_deref() != Some(&note.id) {
            return Err(format!(
                "{} is not {} (it says {})",
                note.file,
                note.id,
                share.share_of.as_deref().unwrap_or("it is no share")
            ));
        }
        if let Some(parent) = &share.gathered_into {
            return Err(format!("{} was gathered into {parent} already", note.file));
        }
        if let Some(reason) = share.refuses(self).or_else(|| {
            (share.root != self.root).then(|| format!("root {}, not {}", share.root, self.root))
        }) {
            return Err(format!("{}: {reason}", note.file));
        }
        if (share.held() - note.portion).abs() > 1e-9 {
            return Err(format!(
                "{} holds {:e} of the box, not the {:e} dealt to it",
                note.file,
                share.held(),
                note.portion
            ));
        }
        self.refuted_share += share.refuted_share;
        self.open.extend(share.open.iter().cloned());
        self.refutations += share.refutations;
        self.splits += share.splits;
        self.calls += share.calls;
        self.solver_seconds += share.solver_seconds;
        self.seconds += share.seconds;
        self.runs += share.runs;
        if share.runs > 0 {
            self.conflicts_per_call = share.conflicts_per_call;
            self.preset = share.preset;
        }
        if self.pattern.is_none() {
            self.pattern.clone_from(&share.pattern);
        }
        self.shares.remove(index);
        // Summed afresh, not subtracted: exactly 0 once every share is back.
        self.elsewhere = self.shares.iter().map(|s| s.portion).sum();
        Ok(())
    }

    /// A ledger of the same question and root with nothing in it yet.
    fn clone_empty(&self) -> Ledger {
        Ledger {
            game: self.game.clone(),
            p: self.p,
            question: self.question.clone(),
            rotation_broken: self.rotation_broken,
            band: self.band,
            fingerprint: self.fingerprint.clone(),
            root: self.root.clone(),
            ..Ledger::default()
        }
    }
}

/// Splits the largest cube until there are `k` (or none can be split); returns the splits made.
fn split_largest(
    open: &mut Vec<Cube>,
    k: usize,
    shifts: &[Vec<u8>],
    rotation: super::cubes::Rotation,
) -> u64 {
    let mut splits = 0;
    // Cubes that cannot be split (every residue fixed) are set aside, not tried again.
    let mut whole = Vec::new();
    while open.len() + whole.len() < k && !open.is_empty() {
        let largest = (0..open.len())
            .max_by(|&a, &b| open[a].share().total_cmp(&open[b].share()))
            .expect("open is not empty");
        let cube = open.remove(largest);
        match split(shifts, &cube, rotation, 2) {
            Some(pieces) => {
                splits += 1;
                open.splice(largest..largest, pieces);
            }
            None => whole.push(cube),
        }
    }
    open.extend(whole);
    splits
}

/// Indices of `open` for each of at most `k` hands: largest cube first to the hand holding the
/// least share so far; within a hand, the ledger's order (the queue is a stack).
fn deal_hands(open: &[Cube], k: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..open.len()).collect();
    order.sort_by(|&a, &b| open[b].share().total_cmp(&open[a].share()));
    let mut hands: Vec<(f64, Vec<usize>)> = vec![(0.0, Vec::new()); k.min(open.len())];
    for c in order {
        let least = (0..hands.len())
            .min_by(|&a, &b| hands[a].0.total_cmp(&hands[b].0))
            .expect("at least one hand");
        hands[least].0 += open[c].share();
        hands[least].1.push(c);
    }
    hands
        .into_iter()
        .map(|(_, mut hand)| {
            hand.sort_unstable();
            hand
        })
        .collect()
}

/// Folds every share that `ledger` (read from `parent`) lists and no run holds back into it, in
/// memory: the caller checks a pattern, saves the ledger, then calls [`mark_gathered`]. With
/// `finished_only`, only shares with nothing left open (all refuted, or a pattern): the others
/// keep running (a job array resubmitted). Returns a line per share: gathered, or left out and
/// why (running, unfinished, missing, not the share dealt).
pub fn gather_shares(parent: &Path, ledger: &mut Ledger, finished_only: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for note in ledger.shares.clone() {
        let path = share_path(parent, &note);
        // Held until the share is folded in, so no job starts on it meanwhile.
        let lock = Ledger::lock(&path);
        let share = match (&lock, Ledger::read(&path)) {
            (Err(e), _) => Err(e.reason.clone()),
            (Ok(_), Ok(Some(share))) if finished_only && share.verdict() == Verdict::Open => {
                Err(format!("unfinished: {}", share.progress_line()))
            }
            (Ok(_), Ok(Some(share))) => Ok(share),
            (Ok(_), Ok(None)) => Err("missing: its cubes stay dealt".to_string()),
            (Ok(_), Err(e)) => Err(e.reason),
        };
        let index = ledger.shares.iter().position(|n| n.id == note.id);
        let outcome = share.and_then(|share| {
            let index = index.expect("listed until gathered");
            // Its regions join the parent's log after the parent's own: each was refuted with
            // only regions before it in hand, as the certificate assumes.
            let regions = super::certify::read_regions(&path, &share);
            ledger.gather(index, &share)?;
            let progress = share.progress_line();
            match regions {
                Ok(regions) => {
                    (ledger.new_regions).extend(regions.iter().map(Cube::render));
                    Ok(progress)
                }
                Err(e) => Ok(format!(
                    "{progress}; its regions are lost to certificates: {e}"
                )),
            }
        });
        lines.push(match outcome {
            Ok(progress) => format!("{}: gathered ({progress})", note.file),
            Err(reason) => format!("{}: left out ({reason})", note.file),
        });
    }
    lines
}

/// After the parent at `parent` is saved: every share file of its deals that it no longer lists
/// is marked `gathered_into`, so a job started on it again refuses to run. (A share written by a
/// deal whose parent was never saved is marked too: it was never counted.)
///
/// # Errors
/// The folder cannot be listed or a share cannot be written.
pub fn mark_gathered(parent: &Path, ledger: &Ledger) -> Result<(), LedgerError> {
    let fail = |reason: String| LedgerError {
        path: parent.to_path_buf(),
        reason,
    };
    let name = parent.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let stem = name.strip_suffix(".json").unwrap_or(name);
    let dir = match parent.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let entries =
        std::fs::read_dir(dir).map_err(|e| fail(format!("cannot list its folder: {e}")))?;
    for entry in entries {
        let file = entry.map_err(|e| fail(e.to_string()))?.file_name();
        let Some(file) = file.to_str() else { continue };
        if !file.starts_with(&format!("{stem}.deal"))
            || ledger.shares.iter().any(|n| n.file == file)
        {
            continue;
        }
        let path = dir.join(file);
        // A share some job holds now is left alone: it is not counted, and its run ends.
        let Ok(_lock) = Ledger::lock(&path) else {
            continue;
        };
        if let Ok(Some(mut share)) = Ledger::read(&path)
            && share.gathered_into.is_none()
            && (share.share_of.as_deref())
                .is_some_and(|id| id.starts_with(&format!("{name} deal ")))
        {
            share.gathered_into = Some(name.to_string());
            share.save(&path)?;
        }
    }
    Ok(())
}

/// Where the shares of the ledger at `parent` stand, read from their files: one line each
/// (missing, unreadable, running elsewhere, or its progress).
pub fn share_lines(parent: &Path, ledger: &Ledger) -> Vec<String> {
    ledger
        .shares
        .iter()
        .map(|note| {
            let path = share_path(parent, note);
            let state = match Ledger::read(&path) {
                Ok(Some(share)) => share.progress_line(),
                Ok(None) => "missing".to_string(),
                Err(e) => e.to_string(),
            };
            format!("{}: {state}", note.file)
        })
        .collect()
}

/// The file of a share, beside its parent.
pub fn share_path(parent: &Path, note: &ShareNote) -> PathBuf {
    parent.parent().unwrap_or(Path::new("")).join(&note.file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_balance_the_share_and_keep_every_cube_once() {
        // Shares 1/2, 1/4, 1/8, 1/8 (residue 0 of p = 1 cut into ranges) into 2 and 3 hands.
        let cube = |lo: u8, hi: u8| Cube {
            lo: vec![lo],
            hi: vec![hi],
        };
        let open = vec![cube(0, 127), cube(128, 191), cube(192, 223), cube(224, 255)];
        let two = deal_hands(&open, 2);
        let portions: Vec<f64> = two
            .iter()
            .map(|h| h.iter().map(|&c| open[c].share()).sum())
            .collect();
        assert_eq!(portions, vec![0.5, 0.5]);
        assert_eq!(two[1], vec![1, 2, 3]);
        let three = deal_hands(&open, 3);
        let mut all: Vec<usize> = three.concat();
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3]);
        assert_eq!(deal_hands(&open, 9).len(), 4);
    }
}
