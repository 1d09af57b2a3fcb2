//! Tests of the ladder, its rungs and pieces, and the chain of calls.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::game::Game;
use crate::sat::encode::PeriodEncoding;
use crate::values::ExactGenerator;

/// The two halves of a cut at one value, low first.
fn halves(cut: Cut) -> [Half; 2] {
    cut.parts()
        .try_into()
        .expect("a cut at one value has two halves")
}

fn officers(p: usize) -> PeriodEncoding {
    let mut g = ExactGenerator::new(&Game::officers());
    g.extend_to(1 << 12).unwrap();
    let rares: Vec<(u64, Value)> = g.rares().map(|(n, v)| (n as u64, v)).collect();
    PeriodEncoding::new(&Game::officers(), g.space(), &rares, p).unwrap()
}

#[test]
fn a_rung_bounds_every_residue_by_the_largest_common_value_below_it() {
    let e = officers(4);
    // Officers' common values start 2, 3, 4, 5, 8, 9 (6 and 7 are rare): below 8, or 6,
    // are bytes 0..=3.
    assert_eq!(e.expand(&[3, 4]), vec![5, 8]);
    let units = rung_units(&e, 8).unwrap();
    assert_eq!(units, (0..4).map(|r| e.at_most(r, 3)).collect::<Vec<_>>());
    assert_eq!(rung_units(&e, 6).unwrap(), units);
    assert!(rung_units(&e, WHOLE_QUESTION).unwrap().is_empty());
    assert!(rung_units(&e, 2).is_err());
}

/// A rung of one try with no proof, pieces or lemmas, for ladders built by hand (here and
/// in `report.rs`).
pub(super) fn plain_rung(from: Value, below: Value, answer: RungAnswer) -> Rung {
    Rung {
        largest_first: from > 0,
        ..Rung::asked(Band { from, below }, answer, 1.0)
    }
}

#[test]
fn a_band_counts_only_once_a_chain_of_refuted_rungs_reaches_its_floor() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let rung = plain_rung;
    ladder.rungs = vec![
        rung(0, 64, RungAnswer::Unsat),
        rung(80, 96, RungAnswer::Unsat),
        rung(64, 72, RungAnswer::Unsat),
        rung(72, 80, RungAnswer::Timeout),
    ];
    // 80..96 floats above the gap 72..80, which no rung refuted.
    assert_eq!(ladder.refuted_below(), Some(72));
    ladder.rungs.push(rung(72, 80, RungAnswer::Unsat));
    assert_eq!(ladder.refuted_below(), Some(96));
    assert_eq!(ladder.chain().len(), 4);
    // A band above nothing refuted proves nothing.
    ladder.rungs.retain(|r| r.from > 0);
    assert_eq!(ladder.refuted_below(), None);
}

/// A proof note that rate accepted (its files named only).
fn checked_note() -> ProofNote {
    ProofNote {
        cnf: "c".into(),
        proof: "d".into(),
        format: "drat".into(),
        checked_by: Some("rate".into()),
    }
}

/// A piece (or half) of a second, with no proof or lemmas, of a build that said not when.
pub(super) fn proof_piece(top: Value, half: Option<Half>) -> ProofPiece {
    ProofPiece {
        top,
        seconds: 1.0,
        proof: None,
        lemmas: 0,
        half,
        ended: None,
    }
}

/// A part holds another exactly when every value of the other is one of its own: checked
/// against the values themselves, one by one, for the halves and parts of three cuts of two
/// residues. Mutation tried: the ends compared the other way round, which fails.
#[test]
fn a_part_holds_another_when_it_holds_each_of_its_values() {
    let in_part = |h: &Half, v: Value| match h.high {
        false => v < h.at,
        true => v >= h.at && h.below.is_none_or(|b| v < b),
    };
    let cuts = [
        Cut::new(13, 64),
        Cut {
            above: vec![96, 120],
            ..Cut::new(13, 64)
        },
        Cut {
            above: vec![64],
            ..Cut::new(13, 32)
        },
        Cut::new(12, 64),
    ];
    let parts: Vec<Half> = cuts.iter().flat_map(Cut::parts).collect();
    for a in &parts {
        for b in &parts {
            let by_values =
                a.residue == b.residue && (0..512).all(|v| !in_part(b, v) || in_part(a, v));
            assert_eq!(a.holds(b), by_values, "{a} holds {b}?");
        }
    }
}

/// A cut halved where it resists (`--halve`) keeps every value it had and gains one inside
/// each part named that holds two common values or more, none elsewhere; the two halves of
/// such a part hold its common values between them, the low one half their count (rounded
/// down), each one at least; a part of one common value is left whole, and with nothing to
/// halve there is no new cut. Common values by Officers' own rule (popcount of `v & !0x11`
/// odd), below 232 (p = 39's band 224..232), counted one by one. Mutations: the cut at the
/// part's first value (a low half with none), or at the middle of its span (192..256 cut at
/// 224, halves of unequal counts below 232), each fail here.
#[test]
fn a_part_without_an_answer_is_halved_at_its_middle_common_value() {
    let common: Vec<Value> = (0..232u16)
        .filter(|v| (v & !0x11).count_ones() % 2 == 1)
        .collect();
    let count_in = |h: &Half| {
        let (from, end) = h.span();
        (common.iter())
            .filter(|&&v| v >= from && end.is_none_or(|e| v < e))
            .count()
    };
    let cut = Cut {
        above: vec![
            32, 48, 64, 80, 96, 108, 120, 132, 144, 160, 168, 176, 192, 256,
        ],
        ..Cut::new(13, 16)
    };
    let parts = cut.parts();
    // Every other part resists, and every part from 168 on (among them the one from 256, with
    // no common value below 232).
    let resisting: Vec<Half> = (parts.iter().step_by(2).copied())
        .chain(parts.iter().filter(|h| h.at >= 168).copied())
        .collect();
    let finer = cut.halved(&resisting, &common).expect("parts to halve");
    let old: Vec<Value> = cut.parts().iter().skip(1).map(|h| h.at).collect();
    let new: Vec<Value> = finer.parts().iter().skip(1).map(|h| h.at).collect();
    assert!(old.iter().all(|v| new.contains(v)), "{finer}");
    for part in &parts {
        let inside: Vec<Half> = (finer.parts().into_iter())
            .filter(|h| part.holds(h))
            .collect();
        let (n, resists) = (count_in(part), resisting.contains(part));
        match (resists && n >= 2, inside.as_slice()) {
            (false, [same]) => assert_eq!(same, part),
            (true, [low, high]) => {
                assert_eq!(
                    (count_in(low), count_in(high)),
                    (n / 2, n - n / 2),
                    "{part}"
                );
                assert!(n / 2 >= 1);
            }
            (_, other) => panic!("{part} ({n} common values) became {other:?}"),
        }
    }
    // Nothing left that holds two common values: no new cut.
    let lone = Cut::new(13, 3);
    let one_each: Vec<Half> = vec![lone.parts()[0]];
    assert_eq!(count_in(&one_each[0]), 1);
    assert_eq!(lone.halved(&one_each, &common), None);
}

/// A cut at several values makes parts that run from 0 to no end, named by their spans,
/// and a cut at one value its two halves as before (so old ladders read the same). A piece
/// is refuted by parts of one residue whose spans join from 0 to no end, from one cut or
/// several: not with a gap, nor with parts of another residue. Its pieces refuted beyond
/// the whole ones are counted in parts, of how many pieces. Mutations: a gap ignored, or
/// residues mixed (tried: each fails here).
#[test]
fn parts_of_cuts_refute_a_piece_only_when_their_spans_join() {
    let three = Cut {
        residue: 1,
        at: 16,
        above: vec![48],
    }
    .parts();
    let named: Vec<String> = three.iter().map(ToString::to_string).collect();
    assert_eq!(named, ["s[1] < 16", "16 <= s[1] < 48", "s[1] >= 48"]);
    let [low, high] = halves(Cut::new(1, 64));
    assert_eq!(
        (low.below, high.below, low.high, high.high),
        (None, None, false, true)
    );
    let rung_of = |parts: &[Half]| Rung {
        pieces: (parts.iter()).map(|&h| proof_piece(8, Some(h))).collect(),
        ..plain_rung(0, 16, RungAnswer::Timeout)
    };
    assert!(rung_of(&three).covers(8));
    assert!(!rung_of(&[three[0], three[2]]).covers(8));
    assert!(!rung_of(&three[1..]).covers(8));
    assert!(rung_of(&[low, three[2]]).covers(8));
    assert!(rung_of(&[three[0], three[1], halves(Cut::new(1, 48))[1]]).covers(8));
    assert!(!rung_of(&[three[0], three[1], halves(Cut::new(2, 48))[1]]).covers(8));
    let mut two_pieces = rung_of(&three[..2]);
    two_pieces.pieces.push(proof_piece(10, Some(three[2])));
    let refuted = two_pieces.pieces_refuted();
    assert_eq!(
        (refuted.whole, refuted.halves, refuted.finer, refuted.of),
        (0, 3, true, 2)
    );
    assert_eq!(
        refuted.to_string(),
        "0 pieces of it refuted and 3 parts of 2 others"
    );
    // Halves (of a cut at one value): one each of two pieces are of two others, two of one
    // piece (not covering it) of another.
    let (low, high) = (halves(Cut::new(1, 48))[0], halves(Cut::new(1, 48))[1]);
    let mut in_halves = rung_of(&[low]);
    in_halves.pieces.push(proof_piece(10, Some(high)));
    assert_eq!(
        in_halves.pieces_refuted().to_string(),
        "0 pieces of it refuted and 2 halves of 2 others"
    );
    in_halves.pieces.retain(|p| p.top != 8);
    in_halves
        .pieces
        .push(proof_piece(10, Some(Half { at: 40, ..low })));
    assert_eq!(
        in_halves.pieces_refuted().to_string(),
        "0 pieces of it refuted and 2 halves of another"
    );
}

/// A part needs no call once parts refuted hold each of its values, from one cut or
/// several: a part below 32 or from 32 below 64 under a refuted half below 64, a part from 96
/// on under parts from 96 below 128 and from 128 on; not a part reaching over a gap, nor one
/// of another residue or another piece.
#[test]
fn a_part_inside_refuted_parts_needs_no_call() {
    let part = |at, below| Half {
        residue: 1,
        at,
        high: at > 0,
        below,
    };
    let (low, mid, top) = (part(64, None), part(96, Some(128)), part(128, None));
    let low = Half { high: false, ..low };
    let rung = Rung {
        pieces: [low, mid, top].map(|h| proof_piece(8, Some(h))).into(),
        ..plain_rung(0, 16, RungAnswer::Timeout)
    };
    let needs_no_call = |h: Half| rung.has_piece(8, Some(h));
    let below_32 = Half {
        high: false,
        ..part(32, None)
    };
    assert!(needs_no_call(below_32) && needs_no_call(part(32, Some(64))));
    assert!(needs_no_call(low) && needs_no_call(part(96, None)));
    assert!(needs_no_call(part(100, Some(120))) && needs_no_call(part(130, None)));
    assert!(!needs_no_call(part(64, Some(96))) && !needs_no_call(part(32, Some(100))));
    assert!(!needs_no_call(part(64, None)) && !needs_no_call(part(80, Some(97))));
    assert!(!rung.has_piece(
        8,
        Some(Half {
            residue: 2,
            ..below_32
        })
    ));
    assert!(!rung.has_piece(9, Some(below_32)) && !rung.has_piece(8, None));
}

/// The summary counts what `--prove-chain` checked of rungs not proved yet: a value covered
/// by a checked piece or by both checked halves of a cut is one piece, a checked half alone
/// is a half, and an unchecked half (the climb's) is not counted.
#[test]
fn the_summary_counts_checked_pieces_and_halves_of_unproved_rungs() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let checked = Some(checked_note());
    let [low, high] = halves(Cut::new(1, 64));
    let piece = |top, half, proof: &Option<ProofNote>| ProofPiece {
        proof: proof.clone(),
        ..proof_piece(top, half)
    };
    ladder.rungs = vec![Rung {
        pieces: vec![
            piece(2, Some(low), &checked),
            piece(2, Some(high), &checked),
            piece(3, Some(low), &checked),
            piece(4, None, &checked),
            piece(5, Some(high), &None),
        ],
        ..plain_rung(0, 8, RungAnswer::Unsat)
    }];
    let line = ladder.summary_line();
    assert!(
        line.contains("and 2 pieces and 1 half of the others"),
        "{line}"
    );
}

/// The lemmas kept for an open band are the latest record of each call's file over the
/// band's tries, less those of a piece refuted since; certified files are said to be (all, or
/// how many). Mutation: every file counted as certified, or none.
#[test]
fn the_summary_counts_the_lemmas_kept_for_the_open_band() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let kept = |top, clauses, file: &str| KeptLemmas {
        top: Some(top),
        clauses,
        file: file.into(),
        ..KeptLemmas::default()
    };
    let rung = |from, answer, kept| Rung {
        kept,
        ..plain_rung(from, from + 8, answer)
    };
    ladder.rungs = vec![
        rung(0, RungAnswer::Unsat, vec![]),
        rung(8, RungAnswer::Timeout, vec![kept(10, 1000, "a")]),
        rung(
            8,
            RungAnswer::Timeout,
            vec![kept(10, 30, "a"), kept(11, 5, "c")],
        ),
    ];
    let line = ladder.summary_line();
    assert!(line.contains("2 stopped calls kept 35 lemmas"), "{line}");
    assert!(!line.contains("certified"), "{line}");
    // Certified files are counted among the calls', and all of them said as such.
    ladder.rungs[2].kept[1].certified = true;
    let line = ladder.summary_line();
    assert!(
        line.contains("for the next run, 1 of those files certified"),
        "{line}"
    );
    ladder.rungs[2].kept[0].certified = true;
    assert!(
        ladder
            .summary_line()
            .contains("for the next run, certified")
    );
    ladder.rungs[2].kept[0].certified = false;
    ladder.rungs[2].pieces.push(proof_piece(11, None));
    let line = ladder.summary_line();
    assert!(line.contains("1 stopped call kept 30 lemmas"), "{line}");
    ladder.rungs.push(rung(8, RungAnswer::Unsat, vec![]));
    assert!(!ladder.summary_line().contains("kept"));
}

/// A piece cut in parts keeps the files of its whole piece and of its coarser parts until every
/// part is refuted, and gives them to the parts still asked: the summary counts as stopped
/// calls only the calls on the finest parts, and the larger parts' files apart.
#[test]
fn the_summary_counts_the_larger_parts_files_apart_from_the_calls_left() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let part = |at, below| Half {
        residue: 1,
        at,
        high: true,
        below,
    };
    let kept = |top, half, clauses, file: &str| KeptLemmas {
        top: Some(top),
        half,
        clauses,
        file: file.into(),
        ..KeptLemmas::default()
    };
    // Piece 10: its whole file, the part s[1] >= 4 and, inside it, 4..6 (asked) and 8..9
    // (asked); piece 11 asked whole, two seeds' files (two calls, joined by a merge). The
    // stopped calls are those of 10's two finest parts and 11's two; 10's whole file and
    // >= 4 are only given to them.
    let files = vec![
        kept(10, None, 1000, "whole"),
        kept(10, Some(part(4, None)), 200, "ge4"),
        kept(10, Some(part(4, Some(6))), 30, "4-6"),
        kept(10, Some(part(8, Some(9))), 5, "8-9"),
        kept(11, None, 7, "eleven-seed0"),
        kept(11, None, 9, "eleven-seed1"),
    ];
    ladder.rungs = vec![
        plain_rung(0, 8, RungAnswer::Unsat),
        Rung {
            kept: files,
            ..plain_rung(8, 16, RungAnswer::Timeout)
        },
    ];
    let line = ladder.summary_line();
    let (calls, larger) = (30 + 5 + 7 + 9, 1000 + 200);
    let words = format!(
        "4 stopped calls kept {calls} lemmas for the next run (with 2 files of the larger \
         parts that hold them: {larger} lemmas)"
    );
    assert!(line.contains(&words), "{line}");
    // Both finest parts refuted: >= 4 (which still holds 6..8 and >= 9, not refuted) is the
    // finest part of 10 left, so it counts as a call, and 10's whole file as a larger part's.
    let refuted = [part(4, Some(6)), part(8, Some(9))];
    (ladder.rungs[1].pieces).extend(refuted.map(|h| proof_piece(10, Some(h))));
    let line = ladder.summary_line();
    let words = "3 stopped calls kept 216 lemmas for the next run (with 1 file of the larger \
                 parts that hold them: 1000 lemmas)";
    assert!(line.contains(words), "{line}");
}

/// A call's file kept try after try: its record moves to the latest try, and lists the
/// units its file held when each try started and the seconds of each try, after those of
/// the record before (one of an earlier build, with no counts, has no list to go on from),
/// which the table and summary show; a call that started afresh (its file lost) starts the
/// lists again, and a piece refuted drops its record. Mutation: a list that drops the
/// earlier record's, or keeps it for a call started afresh, or a record per try (the
/// summary would count more calls); the seconds not chained.
#[test]
fn the_units_of_a_piece_s_file_are_followed_from_try_to_try() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let band = Band { from: 8, below: 16 };
    let file = |start: Option<usize>, units: usize, binary: usize| KeptLemmas {
        clauses: units + binary + 100,
        by_length: vec![units, binary, 100],
        units_before: start.into_iter().collect(),
        seconds: vec![10.0 * units as f64],
        file: "f".into(),
        ..KeptLemmas::default()
    };
    let old_build = KeptLemmas {
        by_length: Vec::new(),
        seconds: Vec::new(),
        ..file(None, 2, 0)
    };
    ladder.rungs = vec![plain_rung(0, 8, RungAnswer::Unsat)];
    let tries = [
        old_build,
        file(Some(2), 4, 50),
        file(Some(4), 9, 70),
        file(Some(9), 12, 80),
    ];
    for (i, kept) in tries.into_iter().enumerate() {
        ladder.rungs.push(plain_rung(8, 16, RungAnswer::Timeout));
        ladder.keep_lemmas(band, i + 1, (Some(10), None), kept);
    }
    let records: Vec<&KeptLemmas> = ladder.rungs.iter().flat_map(|r| &r.kept).collect();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(
        (records[0].units_before.clone(), records[0].clauses),
        (vec![2, 4, 9], 192)
    );
    assert_eq!(
        records[0].growth_words(),
        " (units by try 2, 4, 9, 12; 80 binary; 250 s in the last 3 tries)"
    );
    let line = ladder.summary_line();
    assert!(
        line.contains("1 stopped call kept 192 lemmas (12 of them units) for the next run"),
        "{line}"
    );
    let table = ladder.rung_table().join("\n");
    assert!(
        table.contains("192 lemmas kept for s[0] = 10 (units by try 2, 4, 9, 12; 80 binary;"),
        "{table}"
    );
    // Another piece's first record, and then its file lost: no tries before either time;
    // the summary adds both pieces' units.
    let last = ladder.rungs.len() - 1;
    ladder.keep_lemmas(band, last, (Some(11), None), file(None, 3, 20));
    ladder.keep_lemmas(band, last, (Some(11), None), file(None, 5, 10));
    let cell = ladder.rung_table().join("\n");
    assert!(
        cell.contains("; s[0] = 11 (5 units, 10 binary; 50 s in the last try) |"),
        "{cell}"
    );
    // A certified file says so in its cell.
    let certified = KeptLemmas {
        certified: true,
        ..file(None, 5, 10)
    };
    assert_eq!(
        certified.growth_words(),
        " (5 units, 10 binary; 50 s in the last try; certified)"
    );
    assert!(
        ladder
            .summary_line()
            .contains("2 stopped calls kept 307 lemmas (17 of them")
    );
    ladder.forget_kept(band, Some((Some(10), None)));
    ladder.forget_kept(band, Some((Some(11), None)));
    assert!(!ladder.summary_line().contains("kept"));
}

/// A refuted part forgets the kept files of the calls the try holds now: its own, those of
/// finer parts inside it, and, once parts cover the piece, the whole piece's (of every try
/// of the band); not those of a part it does not cover, nor another piece's, nor another
/// band's. Mutations: only the refuted call's own record forgotten (the piece's file kept
/// after its parts cover it); a record of a part outside the refuted ones forgotten.
#[test]
fn a_refuted_part_forgets_the_files_of_the_calls_it_holds() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let band = Band { from: 8, below: 16 };
    let file = |name: &str| KeptLemmas {
        clauses: 1,
        by_length: vec![1],
        file: name.into(),
        ..KeptLemmas::default()
    };
    let part = |at, high, below| Half {
        residue: 1,
        at,
        high,
        below,
    };
    let (low, mid, top) = (
        part(16, false, None),
        part(16, true, Some(48)),
        part(48, true, None),
    );
    let inside_low = part(8, false, None);
    ladder.rungs = vec![
        plain_rung(8, 16, RungAnswer::Timeout),
        plain_rung(8, 16, RungAnswer::Timeout),
        plain_rung(16, 24, RungAnswer::Timeout),
    ];
    ladder.keep_lemmas(band, 0, (Some(10), None), file("piece10.lemmas"));
    ladder.keep_lemmas(band, 1, (Some(10), Some(inside_low)), file("low8.lemmas"));
    ladder.keep_lemmas(band, 1, (Some(10), Some(mid)), file("mid.lemmas"));
    ladder.keep_lemmas(band, 1, (Some(11), None), file("piece11.lemmas"));
    let other = Band {
        from: 16,
        below: 24,
    };
    ladder.keep_lemmas(other, 2, (Some(10), None), file("other-band.lemmas"));
    let refute = |ladder: &mut Ladder, half| {
        ladder.rungs[1].pieces.push(proof_piece(10, Some(half)));
        ladder.forget_kept_held(band, 1)
    };
    assert_eq!(refute(&mut ladder, low), ["low8.lemmas"]);
    assert_eq!(refute(&mut ladder, top), Vec::<String>::new());
    assert_eq!(refute(&mut ladder, mid), ["mid.lemmas", "piece10.lemmas"]);
    let left: Vec<&str> = (ladder.rungs.iter())
        .flat_map(|r| r.kept.iter().map(|k| k.file.as_str()))
        .collect();
    assert_eq!(left, ["piece11.lemmas", "other-band.lemmas"]);
}

/// A piece asked on two seeds (copies joined by a merge) has a file of each, both given to
/// its next call: a new save of one supersedes that file's record alone (its units list
/// going on), the table shows the piece once with both files, and the summary counts both
/// calls; a file of another CNF (an earlier encoding, which no call of this one is given)
/// goes at the next save. Mutations: records keyed by piece alone (one file shown); other
/// CNFs' files kept.
#[test]
fn a_piece_keeps_a_file_for_each_seed_of_its_cnf() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let band = Band { from: 8, below: 16 };
    let file = |name: &str, start: Option<usize>, units: usize| KeptLemmas {
        clauses: units + 10,
        by_length: vec![units, 10],
        units_before: start.into_iter().collect(),
        file: name.into(),
        ..KeptLemmas::default()
    };
    ladder.rungs = vec![
        plain_rung(0, 8, RungAnswer::Unsat),
        plain_rung(8, 16, RungAnswer::Timeout),
    ];
    let piece = (Some(10), None);
    ladder.keep_lemmas(band, 1, piece, file("q-v1c2-seed0.lemmas", None, 3));
    ladder.keep_lemmas(band, 1, piece, file("q-v1c2-seed1.lemmas", None, 4));
    ladder.keep_lemmas(band, 1, piece, file("q-v1c2-seed0.lemmas", Some(3), 5));
    let files: Vec<&str> = (ladder.kept_lemmas(band).iter())
        .map(|k| k.file.as_str())
        .collect();
    assert_eq!(files, ["q-v1c2-seed1.lemmas", "q-v1c2-seed0.lemmas"]);
    let table = ladder.rung_table().join("\n");
    assert!(
        table.contains(
            "29 lemmas kept for s[0] = 10, 2 files (4 units, 10 binary) \
             (units by try 3, 5; 10 binary) |"
        ),
        "{table}"
    );
    let line = ladder.summary_line();
    assert!(
        line.contains("2 stopped calls kept 29 lemmas (9 of them units)"),
        "{line}"
    );
    ladder.keep_lemmas(band, 1, piece, file("q-v7c9-seed0.lemmas", None, 1));
    let files: Vec<&str> = (ladder.kept_lemmas(band).iter())
        .map(|k| k.file.as_str())
        .collect();
    assert_eq!(files, ["q-v7c9-seed0.lemmas"]);
}

#[test]
fn an_answer_resting_on_lemmas_says_so() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let rung = |from, below, lemmas| Rung {
        lemmas,
        ..plain_rung(from, below, RungAnswer::Unsat)
    };
    ladder.rungs = vec![rung(0, 256, 0), rung(256, WHOLE_QUESTION, 0)];
    let how = |l: &Ladder| l.period_result(&e, None).unwrap().how;
    assert!(
        how(&ladder).ends_with("(2 rungs; no proof)"),
        "{}",
        how(&ladder)
    );
    // A piece of the last band given lemmas.
    ladder.rungs[1].pieces.push(ProofPiece {
        lemmas: 7,
        ..proof_piece(300, None)
    });
    assert!(how(&ladder).contains("lemmas carried"), "{}", how(&ladder));
    // A whole rung given lemmas, off the chain: nothing the answer rests on.
    ladder.rungs[1].pieces.clear();
    ladder.rungs.push(Rung {
        answer: RungAnswer::Timeout,
        ..rung(256, WHOLE_QUESTION, 9)
    });
    assert!(!how(&ladder).contains("lemmas"), "{}", how(&ladder));
    ladder.rungs[0].lemmas = 9;
    assert!(how(&ladder).contains("lemmas carried"), "{}", how(&ladder));
    // Proofs of every rung make lemmas irrelevant, and say whether they were checked.
    let note = |checked_by: Option<&str>| ProofNote {
        cnf: "r.cnf".into(),
        proof: "r.drat".into(),
        format: "drat".into(),
        checked_by: checked_by.map(String::from),
    };
    ladder.rungs[0].proof = Some(note(Some("rate")));
    ladder.rungs[1].proof = Some(note(None));
    let said = how(&ladder);
    assert!(
        said.ends_with("DRAT proof of every rung, 1 of them unchecked)"),
        "{said}"
    );
    ladder.rungs[1].proof = Some(note(Some("rate")));
    let said = how(&ladder);
    assert!(
        said.ends_with("DRAT proof of every rung, each checked)"),
        "{said}"
    );
}

#[test]
fn a_floor_is_a_unit_on_residue_0_from_the_smallest_common_value_at_or_above_it() {
    let e = officers(4);
    // Common values 2, 3, 4, 5, 8: at least 6 is byte 4 (8) or more.
    assert_eq!(floor_unit(&e, 6), Some(-e.at_most(0, 3)));
    assert_eq!(floor_unit(&e, 8), Some(-e.at_most(0, 3)));
    assert_eq!(floor_unit(&e, 0), None);
    assert_eq!(floor_unit(&e, 2), None);
}

/// `--prove-chain` with more than one job starts the longest calls first: a piece the climb
/// took long over, then the rest of its band by share, then the cheap rungs below. With one
/// job the chain goes from its foot up. A piece refuted given lemmas is expected to take at
/// least its share of the band. Mutation: no sort (the foot first with two jobs).
/// A chain over `e` in pieces (cut by `cut`), `jobs` at once, only to list its calls: no proof
/// is written, so its stem and checker are never used.
fn listing_chain<'a>(
    e: &'a PeriodEncoding,
    stop: &'a AtomicBool,
    jobs: usize,
    cut: Option<Cut>,
) -> chain::ProveChain<'a> {
    chain::ProveChain {
        largest_first: e,
        question: e,
        timeout: None,
        proof_stem: Path::new("unused"),
        proof: (crate::sat::solve::ProofFormat::Drat, Some("unused")),
        keep_proofs: false,
        jobs,
        pieces: true,
        cut,
        up_to: WHOLE_QUESTION,
        stop,
        on_call: None,
    }
}

#[test]
fn the_chain_s_calls_go_longest_first_on_more_than_one_job() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let rung = |from, seconds| Rung {
        seconds,
        ..plain_rung(from, from + 8, RungAnswer::Unsat)
    };
    ladder.rungs = vec![rung(0, 1.0), rung(8, 5.0), rung(16, 300.0)];
    // Officers' common values in 16..24 are 18 to 21: the climb refuted s[0] = 19 alone.
    ladder.rungs[2].pieces.push(ProofPiece {
        seconds: 1000.0,
        ..proof_piece(19, None)
    });
    let stop = AtomicBool::new(false);
    let run = |jobs| listing_chain(&e, &stop, jobs, None);
    let order = |jobs, ladder: &Ladder| {
        let calls = chain::chain_calls(&run(jobs), ladder);
        let top = |c: &chain::ChainCall| c.top.map(|b| e.expand(&[b])[0]);
        (calls.iter())
            .map(|c| (c.band.from, top(c), c.estimated_seconds))
            .collect::<Vec<_>>()
    };
    let longest_first = order(2, &ladder);
    assert_eq!(longest_first.len(), 1 + 4 + 4, "{longest_first:?}");
    assert_eq!(longest_first[0], (16, Some(19), 1000.0));
    let rest_of_band: Vec<_> = longest_first[1..4].iter().map(|c| (c.0, c.2)).collect();
    assert_eq!(rest_of_band, vec![(16, 75.0); 3]);
    assert!(longest_first[4..8].iter().all(|c| c.0 == 8 && c.2 == 1.25));
    assert_eq!(longest_first[8], (0, None, 1.0));
    let foot_first = order(1, &ladder);
    assert_eq!(foot_first[0], (0, None, 1.0));
    let froms: Vec<_> = foot_first.iter().map(|c| c.0).collect();
    assert!(froms.is_sorted(), "{froms:?}");
    // Refuted in 10 s given lemmas (earlier tries did the work), 19 counts as its share of
    // the band, 300 / 4, as do the band's other pieces; given none, its own 10 s. Mutation:
    // lemmas ignored (10 s either way).
    let piece = &mut ladder.rungs[2].pieces[0];
    (piece.seconds, piece.lemmas) = (10.0, 1 << 20);
    assert!(order(1, &ladder).contains(&(16, Some(19), 75.0)));
    ladder.rungs[2].pieces[0].lemmas = 0;
    assert!(order(1, &ladder).contains(&(16, Some(19), 10.0)));
}

/// `--prove-chain --pieces --cut R:V` asks two halves for each piece not proved, and none
/// for a half proved already or a piece proved whole; each half is expected to take half
/// the piece's time. Mutation: halves ignored (4 calls for the band), or a proved half
/// asked again (8).
#[test]
fn the_chain_s_pieces_go_in_halves_under_a_cut() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let checked = Some(checked_note());
    let cut = Cut::new(1, 8);
    let [low, high] = halves(cut.clone());
    let piece = |top, half| ProofPiece {
        seconds: 10.0,
        proof: checked.clone(),
        ..proof_piece(top, half)
    };
    // The chain's foot proved; of its band 16..24 (Officers' common values there are 18 to
    // 21) 18 proved whole, 19's low half proved, 20 refuted by the climb (no proof) in
    // 40 s, 21 not yet.
    let proved = |from| Rung {
        proof: checked.clone(),
        ..plain_rung(from, from + 8, RungAnswer::Unsat)
    };
    ladder.rungs = vec![
        proved(0),
        proved(8),
        Rung {
            seconds: 100.0,
            pieces: vec![
                piece(18, None),
                piece(19, Some(low)),
                ProofPiece {
                    proof: None,
                    seconds: 40.0,
                    ..piece(20, None)
                },
            ],
            ..plain_rung(16, 24, RungAnswer::Unsat)
        },
    ];
    let stop = AtomicBool::new(false);
    let run = listing_chain(&e, &stop, 1, Some(cut));
    let calls = chain::chain_calls(&run, &ladder);
    let asked: Vec<_> = (calls.iter())
        .map(|c| (e.expand(&[c.top.unwrap()])[0], c.half, c.estimated_seconds))
        .collect();
    let share = 100.0 / 4.0 / 2.0;
    assert_eq!(
        asked,
        vec![
            (19, Some(high), share),
            (20, Some(low), 20.0),
            (20, Some(high), 20.0),
            (21, Some(low), share),
            (21, Some(high), share),
        ]
    );
    // A finer cut (below 4, from 4 below 8, from 8 on) asks nothing below 8 of 19, whose
    // half below 8 is proved. Mutation: only a part equal to a proved one skipped (3 calls).
    let finer = chain::ProveChain {
        cut: Some(Cut {
            residue: 1,
            at: 4,
            above: vec![8],
        }),
        ..run
    };
    let parts_of_19 = (chain::chain_calls(&finer, &ladder).into_iter())
        .filter(|c| e.expand(&[c.top.unwrap()])[0] == 19)
        .map(|c| c.half.map(|h| h.to_string()));
    assert_eq!(parts_of_19.collect::<Vec<_>>(), [Some("s[1] >= 8".into())]);
}

/// A chain call that had no answer in at least the run's timeout is passed over, one given
/// less is asked and expected to take at least what it had, and a record of another part (or
/// of a call proved since) changes nothing. Worked by hand on the band 16..24 of p = 4
/// (Officers' common values there are 18 to 21; the climb's 100 s make 12.5 s a half under the
/// cut `s[1]` at 8), 18 proved whole: records of 19's high half (10 s, then 30 s), 21's low
/// half (20 s), the part `s[1]` < 4 of 21 (100 s) and 18 (50 s). At a timeout of 30 s, 19's
/// high half is passed over; 21's low half is asked, expected to take 20 s. Without a timeout,
/// nothing is passed over. The table's proof cell counts the calls with no answer and no proof
/// since: 19's high half, 21's low half and 21's part below 4. Mutations tried: `>` for `>=`
/// against the timeout (19's high half asked), records matched by `s[0]` alone (21's high half
/// passed over), records of proved calls kept as open (18's among them).
#[test]
fn a_chain_call_with_no_answer_in_its_time_is_passed_over_until_given_more() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let checked = Some(checked_note());
    let cut = Cut::new(1, 8);
    let [low, high] = halves(cut.clone());
    let proved = |from| Rung {
        proof: checked.clone(),
        ..plain_rung(from, from + 8, RungAnswer::Unsat)
    };
    let record = |top, half, timeout| UnansweredCall {
        top: Some(top),
        half,
        timeout,
        ended: None,
    };
    let finer = Cut::new(1, 4).parts()[0];
    let band = Rung {
        seconds: 100.0,
        pieces: vec![ProofPiece {
            proof: checked.clone(),
            ..proof_piece(18, None)
        }],
        unanswered: vec![
            record(19, Some(high), 10.0),
            record(21, Some(low), 20.0),
            record(19, Some(high), 30.0),
            record(21, Some(finer), 100.0),
            record(18, None, 50.0),
        ],
        ..plain_rung(16, 24, RungAnswer::Unsat)
    };
    ladder.rungs = vec![proved(0), proved(8), band];
    let stop = AtomicBool::new(false);
    let run = chain::ProveChain {
        timeout: Some(std::time::Duration::from_secs(30)),
        ..listing_chain(&e, &stop, 1, Some(cut))
    };
    let named = |calls: Vec<chain::ChainCall>| -> Vec<(Value, Option<Half>, f64, f64)> {
        (calls.into_iter())
            .map(|c| {
                let top = e.expand(&[c.top.unwrap()])[0];
                (top, c.half, c.estimated_seconds, c.had_before)
            })
            .collect()
    };
    let share = 100.0 / 4.0 / 2.0;
    assert_eq!(
        named(chain::chain_calls(&run, &ladder)),
        vec![
            (19, Some(low), share, 0.0),
            (20, Some(low), share, 0.0),
            (20, Some(high), share, 0.0),
            (21, Some(low), 20.0, 20.0),
            (21, Some(high), share, 0.0),
        ]
    );
    assert_eq!(
        named(chain::passed_over(&run, &ladder)),
        vec![(19, Some(high), 30.0, 30.0)]
    );
    let untimed = chain::ProveChain {
        timeout: None,
        ..run
    };
    assert!(chain::passed_over(&untimed, &ladder).is_empty());
    assert_eq!(chain::chain_calls(&untimed, &ladder).len(), 6);
    let open: Vec<_> = (ladder.rungs[2].unanswered_unproved().into_iter())
        .map(|u| (u.top, u.half, u.timeout))
        .collect();
    assert_eq!(
        open,
        [
            (Some(19), Some(high), 30.0),
            (Some(21), Some(low), 20.0),
            (Some(21), Some(finer), 100.0)
        ]
    );
    let table = ladder.rung_table();
    let row = table.iter().find(|r| r.starts_with("| 16..24 |")).unwrap();
    assert!(
        row.ends_with("| 1 piece checked; 3 calls with no answer in up to 100 s |"),
        "{row}"
    );
}

/// A merge takes the other copy's records of chain calls with no answer into the refuted rung
/// of their band, once: merged again, nothing is new. Mutation tried: records not taken.
#[test]
fn a_merge_takes_the_other_copy_s_calls_with_no_answer_once() {
    let e = officers(4);
    let mut ours = Ladder::new("officers", &e, "feasible", true);
    ours.rungs = vec![
        plain_rung(0, 16, RungAnswer::Unsat),
        plain_rung(16, 24, RungAnswer::Unsat),
    ];
    let mut theirs = ours.clone();
    theirs.rungs[1].unanswered.push(UnansweredCall {
        top: Some(19),
        half: None,
        timeout: 5400.0,
        ended: Some("2026-12-06T20:00:00Z".parse().unwrap()),
    });
    let stem = Path::new("unused");
    let check = |_: &[Value]| Ok(());
    let merged = ours.merge_from(&theirs, &e, stem, &check).unwrap();
    assert_eq!(
        merged.to_string(),
        "1 record of a chain call with no answer taken"
    );
    assert_eq!(ours.rungs[1].unanswered, theirs.rungs[1].unanswered);
    assert!(ours.rungs[0].unanswered.is_empty());
    let again = ours.merge_from(&theirs, &e, stem, &check).unwrap();
    assert_eq!(again.to_string(), "nothing new");
    assert_eq!(ours.rungs[1].unanswered.len(), 1);
}

/// Under a cut, a piece's estimate is shared among its parts as the ladder's pieces proved in
/// parts spent their seconds, value by value of the cut's residue, not equally. Worked by hand:
/// 18 of the band 16..24 (Officers' common values there are 18 to 21; the climb's 100 s make
/// 25 s a piece) proved as `s[1] < 4`, `4 <= s[1] < 8` and `s[1] >= 8` in 10, 10 and 80 s, so
/// each of the values 0..8 holds 10 / 100 / 4 of a piece and each of 8..=18 holds 0.8 / 11
/// (19..=21, above every learned value, take 18's). A piece of 21 then holds
/// 0.2 + 14 * 0.8 / 11 in all, of which `s[1] >= 8` takes 14 * 0.8 / 11. Parts of two cuts
/// that overlap, or of another residue, teach nothing: equal shares again. Mutations tried:
/// equal shares always, the highest value's density for values above it taken as 0 (21's parts
/// then share as 18's did).
#[test]
fn a_piece_s_estimate_is_shared_among_its_parts_as_proved_parts_spent_theirs() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let checked = Some(checked_note());
    let cut = Cut {
        residue: 1,
        at: 4,
        above: vec![8],
    };
    let [low, middle, high] = cut.parts()[..] else {
        panic!("three parts")
    };
    let part = |half, seconds| ProofPiece {
        seconds,
        proof: checked.clone(),
        ..proof_piece(18, Some(half))
    };
    let proved = |from| Rung {
        proof: checked.clone(),
        ..plain_rung(from, from + 8, RungAnswer::Unsat)
    };
    let band = |pieces| Rung {
        seconds: 100.0,
        pieces,
        ..plain_rung(16, 24, RungAnswer::Unsat)
    };
    let learned = vec![part(low, 10.0), part(middle, 10.0), part(high, 80.0)];
    ladder.rungs = vec![proved(0), proved(8), band(learned.clone())];
    let stop = AtomicBool::new(false);
    let run = listing_chain(&e, &stop, 2, Some(cut));
    let estimates = |ladder: &Ladder, top: Value| -> Vec<f64> {
        (chain::chain_calls(&run, ladder).iter())
            .filter(|c| e.expand(&[c.top.unwrap()])[0] == top)
            .map(|c| c.estimated_seconds)
            .collect()
    };
    let close = |got: &[f64], want: &[f64]| {
        got.len() == want.len() && got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9)
    };
    let high_of_21 = 14.0 * 0.8 / 11.0;
    let whole_of_21 = 0.2 + high_of_21;
    let want = [
        25.0 * high_of_21 / whole_of_21,
        25.0 * 0.1 / whole_of_21,
        25.0 * 0.1 / whole_of_21,
    ];
    let got = estimates(&ladder, 21);
    assert!(close(&got, &want), "{got:?} against {want:?}");
    // Longest first on two jobs: the three pieces' high parts lead.
    let calls = chain::chain_calls(&run, &ladder);
    assert!(calls[..3].iter().all(|c| c.half == Some(high)), "{calls:?}");
    let equal = [25.0 / 3.0; 3];
    let overlapping = ProofPiece {
        half: Some(Cut::new(1, 6).parts()[0]),
        ..learned[0].clone()
    };
    let mut overlap = learned.clone();
    overlap.push(overlapping);
    ladder.rungs[2] = band(overlap);
    assert!(close(&estimates(&ladder, 21), &equal));
    let mut elsewhere = learned;
    for piece in &mut elsewhere {
        piece.half.as_mut().unwrap().residue = 2;
    }
    ladder.rungs[2] = band(elsewhere);
    assert!(close(&estimates(&ladder, 21), &equal));
}

/// A chain's pace ([`chain::parts_pace`]) is what the parts already proved of the pieces it
/// still asks spent, over what the chain expected of them. Worked by hand on the band of the test
/// above, whose piece 18, proved in parts in 10, 10 and 80 s, teaches the shares: 21's
/// `s[1] >= 8` proved in 6 s was expected to take 25 * high_of_21 / whole_of_21, and 20's
/// `s[1] < 4` in 3 s, 25 * 0.1 / whole_of_20 (whole_of_20 = 0.2 + 13 * 0.8 / 11). Not counted:
/// 18's own parts (it is proved whole, so asked no more), a part of 19 proved in LRAT (the run
/// proves DRAT), one whose DRAT proof no checker accepted, and one of another residue. No cut,
/// or no part proved: no pace. Mutations tried (each fails): parts of every format counted,
/// unchecked parts counted, the ratio upside down, parts of pieces proved whole counted.
#[test]
fn a_chain_s_pace_is_what_the_parts_proved_of_its_pieces_spent_over_their_shares() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let checked = Some(checked_note());
    let cut = Cut {
        residue: 1,
        at: 4,
        above: vec![8],
    };
    let [low, middle, high] = cut.parts()[..] else {
        panic!("three parts")
    };
    let part = |top, half, seconds| ProofPiece {
        seconds,
        proof: checked.clone(),
        ..proof_piece(top, Some(half))
    };
    let proved = |from| Rung {
        proof: checked.clone(),
        ..plain_rung(from, from + 8, RungAnswer::Unsat)
    };
    let mut in_lrat = part(19, low, 50.0);
    in_lrat.proof.as_mut().unwrap().format = "lrat, removed once checked".into();
    let unchecked = ProofPiece {
        proof: Some(ProofNote {
            checked_by: None,
            ..checked_note()
        }),
        ..part(19, middle, 70.0)
    };
    let mut elsewhere = part(19, high, 90.0);
    elsewhere.half.as_mut().unwrap().residue = 2;
    let band = Rung {
        seconds: 100.0,
        pieces: vec![
            part(18, low, 10.0),
            part(18, middle, 10.0),
            part(18, high, 80.0),
            part(21, high, 6.0),
            part(20, low, 3.0),
            in_lrat,
            unchecked,
            elsewhere,
        ],
        ..plain_rung(16, 24, RungAnswer::Unsat)
    };
    ladder.rungs = vec![proved(0), proved(8), band];
    let stop = AtomicBool::new(false);
    let run = listing_chain(&e, &stop, 1, Some(cut));
    let high_of_21 = 14.0 * 0.8 / 11.0;
    let whole_of_21 = 0.2 + high_of_21;
    let whole_of_20 = 0.2 + 13.0 * 0.8 / 11.0;
    let expected = 25.0 * high_of_21 / whole_of_21 + 25.0 * 0.1 / whole_of_20;
    let (parts, times) = chain::parts_pace(&run, &ladder).expect("a pace");
    assert_eq!(parts, 2);
    assert!(
        (times - 9.0 / expected).abs() < 1e-9,
        "{times} against {}",
        9.0 / expected
    );
    let uncut = listing_chain(&e, &stop, 1, None);
    assert_eq!(chain::parts_pace(&uncut, &ladder), None);
    ladder.rungs[2].pieces.truncate(3);
    assert_eq!(chain::parts_pace(&run, &ladder), None);
}

/// A call within a part of its piece that had no answer before (under a coarser cut) is told
/// the narrowest such part, and its estimate is not raised. Worked by hand on the band 16..24:
/// 21 had no answer in 100 s as `s[1] >= 4`, in 50 s as `s[1] >= 8`, in 30 s as 8..12, and as
/// a whole in 1000 s. Under the cut at 4, 8 and 12: `s[1] < 4` lies within the whole piece
/// alone; 4..8 within `s[1] >= 4`; 8..12 within `s[1] >= 8` (8..12 is itself: that is its
/// `had_before`); `s[1] >= 12` within `s[1] >= 8`, whose 50 s are less than 100 s but whose
/// values are fewer. Records of another piece, or of another residue, count for nothing.
/// Mutations tried (each fails): the call's own record taken as around it, `holds` the other
/// way round, the widest taken, the longest given taken.
#[test]
fn a_part_of_a_part_with_no_answer_is_told_the_narrowest_such_part() {
    let e = officers(4);
    let mut ladder = Ladder::new("officers", &e, "feasible", true);
    let checked = Some(checked_note());
    let cut = Cut {
        residue: 1,
        at: 4,
        above: vec![8, 12],
    };
    let [low, middle, eight, twelve] = cut.parts()[..] else {
        panic!("four parts")
    };
    let record = |top, half, timeout| UnansweredCall {
        top: Some(top),
        half,
        timeout,
        ended: None,
    };
    let four_up = Cut::new(1, 4).parts()[1];
    let eight_up = Cut::new(1, 8).parts()[1];
    let mut elsewhere = eight;
    elsewhere.residue = 2;
    let proved = |from| Rung {
        proof: checked.clone(),
        ..plain_rung(from, from + 8, RungAnswer::Unsat)
    };
    let band = Rung {
        seconds: 100.0,
        unanswered: vec![
            record(21, Some(four_up), 100.0),
            record(21, Some(eight_up), 50.0),
            record(21, Some(eight), 30.0),
            record(21, None, 1000.0),
            record(21, Some(elsewhere), 1e6),
            record(20, Some(eight), 1e6),
        ],
        ..plain_rung(16, 24, RungAnswer::Unsat)
    };
    ladder.rungs = vec![proved(0), proved(8), band];
    let stop = AtomicBool::new(false);
    let run = listing_chain(&e, &stop, 1, Some(cut));
    let calls = chain::chain_calls(&run, &ladder);
    let of_21: Vec<_> = (calls.iter())
        .filter(|c| c.top_value(&e) == Some(21))
        .map(|c| (c.half.unwrap(), c.around, c.had_before))
        .collect();
    let around = |half, timeout| Some(AroundUnanswered { half, timeout });
    let want = vec![
        (low, around(None, 1000.0), 0.0),
        (middle, around(Some(four_up), 100.0), 0.0),
        (eight, around(Some(eight_up), 50.0), 30.0),
        (twelve, around(Some(eight_up), 50.0), 0.0),
    ];
    assert_eq!(of_21, want);
    // Told, not expected: each estimate is its share of the climb, or what it had itself.
    for call in &calls {
        assert_eq!(
            call.estimated_seconds,
            call.climb_seconds.max(call.had_before),
            "{call:?}"
        );
    }
}

/// A try in pieces asks each part of each piece named (all, when none is) that the rung's
/// refuted pieces do not hold, lowest first; a progress display counts these. Worked by hand
/// on the band 16..24, whose common values are 18 to 21, under the cut of `s[1]` at 4, 8 and
/// 12 (4 parts): 21 refuted whole, 20's `s[1] < 4` refuted, so 4 + 4 + 3 = 11 calls, 3 of
/// them when only 20 is named, and with no cut, 19 alone of 19 and 21. Mutations tried (each
/// fails): the named pieces ignored; refuted parts asked again.
#[test]
fn a_try_in_pieces_asks_the_parts_of_the_named_pieces_not_refuted() {
    let e = officers(4);
    let cut = Cut {
        residue: 1,
        at: 4,
        above: vec![8, 12],
    };
    let parts = cut.parts();
    let rung = Rung {
        pieces: vec![proof_piece(21, None), proof_piece(20, Some(parts[0]))],
        ..plain_rung(16, 24, RungAnswer::Timeout)
    };
    let asked = |cut: Option<&Cut>, only: &[Value]| -> Vec<(Value, Option<Half>)> {
        (calls_to_ask(&e, &rung, cut, only).into_iter())
            .map(|(c, h)| (e.expand(&[c])[0], h))
            .collect()
    };
    let all = asked(Some(&cut), &[]);
    assert_eq!(all.len(), 11, "{all:?}");
    let tops: Vec<Value> = all.iter().map(|&(top, _)| top).collect();
    assert_eq!(tops, [18, 18, 18, 18, 19, 19, 19, 19, 20, 20, 20]);
    let of_20: Vec<_> = parts[1..].iter().map(|&h| (20, Some(h))).collect();
    assert_eq!(asked(Some(&cut), &[20]), of_20);
    assert_eq!(asked(None, &[19, 21]), [(19, None)]);
}

/// A merge says what it did, each count with its noun in number, and nothing of what it
/// did not. Mutation: "1 rungs closed", or zeros listed.
#[test]
fn a_merge_says_what_it_did_in_words() {
    let merged = Merged {
        tries_added: 1,
        piece_proofs: 13,
        rungs_closed: 1,
        ..Merged::default()
    };
    assert_eq!(
        merged.to_string(),
        "1 try added, 13 checked proofs of pieces taken, 1 rung closed by its pieces"
    );
    let pattern = Merged {
        tries_went_on: 2,
        pattern_taken: true,
        ..Merged::default()
    };
    assert_eq!(
        pattern.to_string(),
        "2 tries taken in their later state, its pattern taken"
    );
    assert_eq!(Merged::default().to_string(), "nothing new");
}

/// A band's note says what became of its pieces' files: all removed, all kept, or both when
/// runs with and without `--keep-proofs` proved it; an older climb's notes, which said
/// nothing, left their files.
#[test]
fn a_band_proved_in_pieces_says_what_became_of_their_files() {
    use super::call::pieces_files_fate;
    let fate = |formats: &[&str]| pieces_files_fate(formats.iter().copied());
    let removed = "lrat, removed once checked";
    assert_eq!(
        fate(&[removed, "drat, removed once checked"]),
        "removed once checked"
    );
    assert_eq!(fate(&["lrat, kept", "drat, kept"]), "kept");
    let both = "some kept, the rest removed once checked";
    assert_eq!(fate(&[removed, "lrat, kept"]), both);
    assert_eq!(fate(&["drat", removed]), both);
}

/// A checked proof's files go unless kept, an unchecked one's stay (for a checker later), and
/// every note names its files without their folder, its format saying what became of them.
#[test]
fn a_proof_note_names_its_files_alone_and_says_whether_they_were_kept() {
    use super::call::settle_checked_files;
    let dir = tempfile::tempdir().unwrap();
    let note = |name: &str, checked_by: Option<&str>| {
        let (cnf, proof) = (
            dir.path().join(format!("{name}.cnf")),
            dir.path().join(format!("{name}.lrat")),
        );
        std::fs::write(&cnf, "p cnf 0 0\n").unwrap();
        std::fs::write(&proof, "").unwrap();
        let note = ProofNote {
            cnf: cnf.display().to_string(),
            proof: proof.display().to_string(),
            format: "lrat".into(),
            checked_by: checked_by.map(String::from),
        };
        (note, [cnf, proof])
    };
    for (checked_by, keep, fate, stay) in [
        (
            Some("a checker"),
            false,
            "lrat, removed once checked",
            false,
        ),
        (Some("a checker"), true, "lrat, kept", true),
        (None, false, "lrat", true),
    ] {
        let (written, files) = note("a", checked_by);
        let settled = settle_checked_files(written, keep);
        assert_eq!(
            (settled.cnf.as_str(), settled.proof.as_str()),
            ("a.cnf", "a.lrat")
        );
        assert_eq!(settled.format, fate);
        assert_eq!(settled.checked_by.as_deref(), checked_by);
        assert!(
            files.iter().all(|f| f.exists() == stay),
            "{fate}: {files:?}"
        );
    }
}
