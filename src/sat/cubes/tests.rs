//! Tests of cubes, their splits, the ledger and a campaign's runs.

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
    let [a, b] = <[Cube; 2]>::try_from(split(&shifts, &cube, Rotation::Kept, 2).unwrap()).unwrap();
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
