/*!
A ladder as a table (`grundy sat summary --rungs`): one row per band of the chain the bound rests
on, lowest first, then one row per band above it that was tried without an answer.

Why: [`Ladder::summary_line`] says in one line where a climb stands, but a campaign of weeks is
read band by band: what each band cost, how it was asked (one call, threads, pieces, a cube
campaign, a preset), which tries came to nothing before it, what rests on lemmas of earlier
calls, and which bands have a checked proof. Before this table the README carried that as prose
written by hand from the ladder files; now the files say it themselves.

The rows are Markdown table rows, so a table can be pasted into notes as it is. Whole rungs that
a higher whole rung supersedes (below 128, below 136, ... under a rung below 160) are not rows:
the chain goes from 0 straight to the highest of them.
*/

use super::{KeptLemmas, Ladder, ProofPiece, Rung, RungAnswer, pieces_and_halves, plural};
use crate::values::Value;

/// The header and the separator of [`Ladder::rung_table`].
const HEADER: [&str; 2] = [
    "| band | answer | how | seconds | other tries, no answer | pieces | proof |",
    "|---|---|---|---|---|---|---|",
];

impl Ladder {
    /// The ladder as Markdown table rows after a header: the chain's bands, then each band
    /// above the bound with a try (its latest try the row, the others counted). Empty when the
    /// ladder has no rung.
    pub fn rung_table(&self) -> Vec<String> {
        if self.rungs.is_empty() {
            return Vec::new();
        }
        let mut rows: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
        for rung in self.chain() {
            rows.push(self.row(rung, "refuted".to_string(), proof_cell(rung)));
        }
        let bound = self.refuted_below().unwrap_or(0);
        let mut open: Vec<Value> = (self.rungs.iter())
            .map(|r| r.below)
            .filter(|&below| below > bound)
            .collect();
        open.sort_unstable();
        open.dedup();
        for below in open {
            // The latest try: the one a later run goes on with.
            let Some(rung) = self.rungs.iter().rev().find(|r| r.below == below) else {
                continue;
            };
            let (answer, last) = match rung.answer {
                RungAnswer::Sat => {
                    let m = self
                        .largest_in_pattern()
                        .map_or(String::new(), |m| format!(", values up to {m}"));
                    (format!("pattern{m}"), "witness-checked".to_string())
                }
                RungAnswer::Unsat => ("refuted, off the chain".to_string(), proof_cell(rung)),
                RungAnswer::Timeout => ("no answer".to_string(), self.kept_cell(rung)),
            };
            rows.push(self.row(rung, answer, last));
        }
        rows
    }

    /// One row: `rung`'s band, `answer`, how it was asked, its seconds, the other tries of its
    /// bound without an answer, its pieces, and the `last` cell.
    fn row(&self, rung: &Rung, answer: String, last: String) -> String {
        let others = (self.rungs.iter())
            .filter(|r| r.below == rung.below && r.answer == RungAnswer::Timeout)
            .filter(|r| !std::ptr::eq(*r, rung));
        let (count, seconds) = others.fold((0, 0.0), |(n, s), r| (n + 1, s + r.seconds));
        let others = match count {
            0 => String::new(),
            n => format!("{n} ({seconds:.0} s)"),
        };
        format!(
            "| {}..{} | {answer} | {} | {:.0} | {others} | {} | {last} |",
            rung.from,
            rung.below,
            how_cell(rung),
            rung.seconds,
            pieces_cell(rung)
        )
    }

    /// For a band left without an answer: the calls that kept lemma files for the next run.
    fn kept_cell(&self, rung: &Rung) -> String {
        let band = rung.band();
        let mut kept: Vec<&KeptLemmas> = self.kept_lemmas(band);
        if kept.is_empty() {
            return String::new();
        }
        let call = |k: &KeptLemmas| (k.top, k.half);
        kept.sort_by_key(|k| call(k));
        let whole = || "the whole band".to_string();
        // One entry a call, its files (one per seed that asked it) side by side.
        let which: Vec<String> = kept
            .chunk_by(|a, b| call(a) == call(b))
            .map(|files| {
                let growth: String = files.iter().map(|k| k.growth_words()).collect();
                let piece = files[0].piece().unwrap_or_else(whole);
                match files.len() {
                    1 => piece + &growth,
                    n => format!("{piece}, {n} files{growth}"),
                }
            })
            .collect();
        let clauses: usize = kept.iter().map(|k| k.clauses).sum();
        format!("{clauses} lemmas kept for {}", which.join("; "))
    }
}

/// How a rung was asked: a cube campaign, in pieces, calls at once, a preset, a cut, lemmas
/// given; "one call" for one CaDiCaL call with its default. The rung says whether the climb
/// asked it in pieces ([`Rung::in_pieces`]). A ladder of an earlier build does not, and there a
/// piece without a proof (refuted by the climb), a cut or a lemma file kept for one value of
/// `s[0]` says the band was asked in pieces, but pieces that all have proofs may be the climb's
/// (with `--proof-dir`) or those of `--prove-chain --pieces` after a whole call, so neither is
/// claimed. Calls at once are pieces, or one call per byte of `s[0]` of a whole band split over
/// threads.
fn how_cell(rung: &Rung) -> String {
    let mut how = Vec::new();
    if let Some(ledger) = &rung.cubes {
        how.push(format!("cubes, `{ledger}`"));
    }
    let in_pieces = rung.in_pieces.unwrap_or_else(|| {
        rung.pieces.iter().any(|p| p.proof.is_none())
            || rung.cut.is_some()
            || rung.kept.iter().any(|k| k.top.is_some())
    });
    if in_pieces {
        how.push("in pieces".to_string());
    }
    how.extend(in_turn_words(rung));
    // Pieces at once, or a whole band split one call per byte of `s[0]`: calls either way.
    if rung.threads > 1 {
        how.push(format!("{} calls at once", rung.threads));
    }
    if !rung.preset.is_default() {
        how.push(format!("preset {}", rung.preset.name()));
    }
    if let Some(cut) = &rung.cut {
        how.push(format!("cut {cut}"));
    }
    if rung.lemmas > 0 {
        how.push(format!("given {} lemmas", rung.lemmas));
    }
    if let Some(n) = rung.conflicts {
        how.push(format!("{n} conflicts a call"));
    }
    let whole = rung.in_pieces == Some(false) || rung.pieces.is_empty();
    if how.is_empty() && whole {
        how.push("one call".to_string());
    }
    how.join(", ")
}

/// Whether the runs that went on with a try in pieces asked its pieces in turn ([`super::RunShare`]
/// `in_turn`): "in turn" when all did, "in turn in K of N runs" when some; nothing when none
/// did, or none said (runs of earlier builds).
fn in_turn_words(rung: &Rung) -> Option<String> {
    let in_turn = rung.runs.iter().filter(|r| r.in_turn).count();
    match (in_turn, rung.runs.len()) {
        (0, _) => None,
        (k, n) if k == n => Some("in turn".to_string()),
        (k, n) => Some(format!("in turn in {k} of {n} runs")),
    }
}

/// The pieces a rung records (refuted in the climb, or proved afterwards): how many, their
/// seconds, and how many were given lemmas. For a band without an answer, which values of
/// `s[0]` are refuted.
fn pieces_cell(rung: &Rung) -> String {
    if rung.pieces.is_empty() {
        return String::new();
    }
    let what = pieces_in_words(rung.pieces.iter());
    let seconds = rung.pieces.iter().map(|p| p.seconds);
    let least = seconds.clone().fold(f64::INFINITY, f64::min);
    let most = seconds.fold(0.0, f64::max);
    let mut cell = match (format!("{least:.0}"), format!("{most:.0}")) {
        (least, most) if least == most => format!("{what} of {least} s"),
        (least, most) => format!("{what} of {least}-{most} s"),
    };
    let given = rung.pieces.iter().filter(|p| p.lemmas > 0).count();
    if given > 0 {
        cell += &format!(", {given} of them given lemmas");
    }
    if rung.answer != RungAnswer::Unsat {
        let mut tops: Vec<Value> = rung.pieces.iter().map(|p| p.top).collect();
        tops.sort_unstable();
        tops.dedup();
        let refuted: Vec<String> = (tops.into_iter())
            .filter(|&t| rung.covers(t))
            .map(|t| t.to_string())
            .collect();
        if !refuted.is_empty() {
            cell += &format!("; s[0] = {} refuted", refuted.join(", "));
        }
    }
    cell
}

/// The proof of a refuted rung: its checker, or how many of its pieces (and halves of pieces)
/// have a checked proof.
///
/// Where pieces say when they were proved ([`ProofPiece::ended`]), the cell ends with the day of
/// the last (", the last on 2026-12-06"): a band proved in parts over weeks and machines then
/// says in its row how recent its proof is, with no notes to look it up in.
fn proof_cell(rung: &Rung) -> String {
    let checked = || rung.pieces.iter().filter(|p| p.is_checked());
    let some_checked = checked().next().is_some();
    let last = checked().filter_map(|p| p.ended).max();
    let last = last.map_or(String::new(), |t| {
        format!(", the last on {}", t.format("%Y-%m-%d"))
    });
    match &rung.proof {
        Some(note) => match &note.checked_by {
            Some(by) if some_checked => {
                format!("checked by {by}, in {}{last}", pieces_in_words(checked()))
            }
            Some(by) => format!("checked by {by}"),
            None => "unchecked".to_string(),
        },
        None if some_checked => format!(
            "{} checked{last}{}",
            pieces_in_words(checked()),
            unanswered_words(rung)
        ),
        None => format!("none{}", unanswered_words(rung)),
    }
}

/// The calls of a chain on a band not yet proved that had no answer in their time and have no
/// proof since ([`Rung::unanswered_unproved`]), for the end of its proof cell: "; 2 calls with
/// no answer in 1.5 h" ("in up to 2 h" where they were given different times); empty if none.
fn unanswered_words(rung: &Rung) -> String {
    let open = rung.unanswered_unproved();
    let longest = open.iter().map(|u| u.timeout).fold(0.0, f64::max);
    let up_to = match open.iter().all(|u| u.timeout == longest) {
        true => "",
        false => "up to ",
    };
    match open.len() {
        0 => String::new(),
        n => format!(
            "; {} with no answer in {up_to}{}",
            plural(n, "call", "calls"),
            crate::progress::human_time(longest)
        ),
    }
}

/// Piece records in words, whole pieces and halves (`--cut`) counted apart.
fn pieces_in_words<'a>(pieces: impl Iterator<Item = &'a ProofPiece>) -> String {
    let (halves, whole): (Vec<_>, Vec<_>) = pieces.partition(|p| p.half.is_some());
    let finer = halves.iter().any(|p| p.is_between_cuts());
    pieces_and_halves(whole.len(), halves.len(), finer)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{plain_rung, proof_piece};
    use super::super::{Cut, Half};
    use super::*;
    use crate::sat::solve::{Preset, ProofNote};

    fn rung(from: Value, below: Value, answer: RungAnswer, seconds: f64) -> Rung {
        Rung {
            seconds,
            ..plain_rung(from, below, answer)
        }
    }

    fn piece(top: Value, seconds: f64, lemmas: usize, half: Option<Half>) -> ProofPiece {
        ProofPiece {
            seconds,
            lemmas,
            ..proof_piece(top, half)
        }
    }

    fn ladder(rungs: Vec<Rung>) -> Ladder {
        Ladder {
            game: "officers".into(),
            p: 4,
            question: "feasible".into(),
            rotation_broken: true,
            fingerprint: "f".into(),
            rungs,
            pattern: None,
        }
    }

    /// The rows of a ladder built by hand, written out by hand: a whole rung superseded by a
    /// higher one is no row, a band in pieces says so and counts the try before it, and the
    /// open band above says which pieces are refuted and which calls kept lemmas (a kept file
    /// of a piece refuted since is not counted).
    #[test]
    fn the_table_has_a_row_per_band_of_the_chain_then_the_open_band() {
        let checked = ProofNote {
            cnf: "r.cnf".into(),
            proof: "r.drat".into(),
            format: "drat".into(),
            checked_by: Some("rate".into()),
        };
        let kept = |top, clauses| KeptLemmas {
            top: Some(top),
            clauses,
            file: format!("k{top}"),
            ..KeptLemmas::default()
        };
        let half = Some(Cut::new(3, 40).parts()[0]);
        let mut l = ladder(vec![
            rung(0, 56, RungAnswer::Unsat, 4.0),
            Rung {
                proof: Some(checked),
                ..rung(0, 64, RungAnswer::Unsat, 10.0)
            },
            rung(0, 72, RungAnswer::Timeout, 50.0),
            Rung {
                preset: Preset::Unsat,
                pieces: vec![piece(66, 10.4, 5, None), piece(67, 19.6, 0, None)],
                ..rung(64, 72, RungAnswer::Unsat, 30.2)
            },
            rung(72, 80, RungAnswer::Timeout, 60.0),
            Rung {
                threads: 2,
                conflicts: Some(3000),
                pieces: vec![piece(74, 40.0, 0, None)],
                kept: vec![
                    kept(75, 7),
                    kept(74, 3),
                    KeptLemmas {
                        half,
                        ..kept(73, 2)
                    },
                ],
                ..rung(72, 80, RungAnswer::Timeout, 100.0)
            },
        ]);
        let rows = l.rung_table();
        assert_eq!(rows[..2], HEADER);
        assert_eq!(
            rows[2..],
            [
                "| 0..64 | refuted | one call | 10 |  |  | checked by rate |",
                "| 64..72 | refuted | in pieces, preset unsat | 30 | 1 (50 s) | 2 pieces of 10-20 s, \
                 1 of them given lemmas | none |",
                "| 72..80 | no answer | in pieces, 2 calls at once, 3000 conflicts a call | 100 | \
                 1 (60 s) | 1 piece of 40 s; s[0] = 74 refuted | 9 lemmas kept for s[0] = 73, s[3] < 40; s[0] = 75 |",
            ]
        );
        // The open band answered by a pattern, its try the row.
        l.rungs.push(rung(72, 80, RungAnswer::Sat, 5.0));
        l.pattern = Some(vec![79, 2, 3, 4]);
        let rows = l.rung_table();
        assert_eq!(
            rows.last().unwrap(),
            "| 72..80 | pattern, values up to 79 | one call | 5 | 2 (160 s) |  | witness-checked |"
        );
    }

    /// Halves of a cut are counted as halves, a band split over threads says so, and a band
    /// answered by a cube campaign names its ledger; pieces that all have a checked proof make
    /// no claim of how the band was asked unless the rung says how the climb asked it.
    #[test]
    fn the_table_says_how_each_band_was_asked_and_proved() {
        let checked = |by: &str| ProofNote {
            cnf: "r.cnf".into(),
            proof: "r.drat".into(),
            format: "drat".into(),
            checked_by: Some(by.into()),
        };
        let low = Cut::new(2, 64).parts()[0];
        let proved = |top| ProofPiece {
            proof: Some(checked("rate")),
            ..piece(top, 8.0, 0, None)
        };
        let high = Half { high: true, ..low };
        let half_proved = |top, half| ProofPiece {
            half: Some(half),
            ..proved(top)
        };
        let l = ladder(vec![
            Rung {
                threads: 4,
                ..rung(0, 64, RungAnswer::Unsat, 9.0)
            },
            Rung {
                cubes: Some("cubes-p4-feasible-band64-72.json".into()),
                proof: Some(checked("varisat-checker")),
                ..rung(64, 72, RungAnswer::Unsat, 700.0)
            },
            Rung {
                pieces: vec![proved(74), half_proved(75, low), half_proved(75, high)],
                proof: Some(checked("rate")),
                ..rung(72, 80, RungAnswer::Unsat, 12.0)
            },
            Rung {
                pieces: vec![half_proved(81, low), half_proved(82, low)],
                ..rung(80, 88, RungAnswer::Unsat, 16.0)
            },
            Rung {
                pieces: vec![half_proved(89, low), proved(90)],
                in_pieces: Some(false),
                ..rung(88, 96, RungAnswer::Unsat, 24.0)
            },
            Rung {
                pieces: vec![proved(97)],
                in_pieces: Some(true),
                ..rung(96, 104, RungAnswer::Unsat, 28.0)
            },
            Rung {
                cut: Some(Cut::new(2, 64)),
                pieces: vec![piece(106, 3.0, 0, Some(low))],
                ..rung(104, 112, RungAnswer::Timeout, 20.0)
            },
        ]);
        assert_eq!(
            l.rung_table()[2..],
            [
                "| 0..64 | refuted | 4 calls at once | 9 |  |  | none |",
                "| 64..72 | refuted | cubes, `cubes-p4-feasible-band64-72.json` | 700 |  |  | \
                 checked by varisat-checker |",
                "| 72..80 | refuted |  | 12 |  | 1 piece and 2 halves of 8 s | checked by rate, \
                 in 1 piece and 2 halves |",
                "| 80..88 | refuted |  | 16 |  | 2 halves of 8 s | 2 halves checked |",
                "| 88..96 | refuted | one call | 24 |  | 1 piece and 1 half of 8 s | 1 piece and 1 half checked |",
                "| 96..104 | refuted | in pieces | 28 |  | 1 piece of 8 s | 1 piece checked |",
                "| 104..112 | no answer | in pieces, cut s[2] at 64 | 20 |  | 1 half of 3 s |  |",
            ]
        );
        assert!(ladder(Vec::new()).rung_table().is_empty());
    }

    /// A band whose checked pieces say when they ended gives the day of the last in its proof
    /// cell, whatever their order in the file; a piece without a proof, however late, does not
    /// count, nor does a band of pieces that say nothing. Mutations tried: the first piece's
    /// day, or the unchecked piece's, fail it.
    #[test]
    fn the_proof_cell_gives_the_day_of_the_last_checked_piece() {
        let at = |day: &str| Some(format!("{day}T12:00:00Z").parse().unwrap());
        let checked = Some(ProofNote {
            cnf: "r.cnf".into(),
            proof: "r.lrat".into(),
            format: "lrat".into(),
            checked_by: Some("grundy".into()),
        });
        let part = |top, day: &str| ProofPiece {
            proof: checked.clone(),
            ended: at(day),
            ..piece(top, 5.0, 0, Some(Cut::new(2, 64).parts()[0]))
        };
        let unchecked = ProofPiece {
            ended: at("2027-01-01"),
            ..piece(75, 5.0, 0, None)
        };
        let l = ladder(vec![
            rung(0, 72, RungAnswer::Unsat, 1.0),
            Rung {
                pieces: vec![
                    part(73, "2026-12-06"),
                    part(74, "2026-12-07"),
                    part(75, "2026-12-05"),
                    unchecked,
                ],
                ..rung(72, 80, RungAnswer::Unsat, 12.0)
            },
        ]);
        let table = l.rung_table();
        assert!(
            table[3].ends_with("| 3 halves checked, the last on 2026-12-07 |"),
            "{table:?}"
        );
        let mut undated = l.clone();
        undated.rungs[1]
            .pieces
            .iter_mut()
            .for_each(|p| p.ended = None);
        assert!(undated.rung_table()[3].ends_with("| 3 halves checked |"));
    }
}
