//! The units that ask a rung, a band or a piece of the question's encoding: bounds on the
//! bytes of residues (bytes keep the order of values, see [`crate::sat::encode`]).

use super::Band;
use crate::sat::encode::PeriodEncoding;
use crate::values::Value;

/// The box of `band` with a largest value at residue 0 ([`PeriodEncoding::put_largest_first`]):
/// `s[0]` from the byte of the smallest common value of at least `from` to the byte of the
/// largest below `below`, every other residue up to that byte. With a largest value first, "a
/// pattern whose largest value lies in the band" is exactly "a model in this box".
///
/// # Errors
/// A line saying why, if no common value lies in the band.
pub fn band_cube(e: &PeriodEncoding, band: Band) -> Result<crate::sat::cubes::Cube, String> {
    match (floor_byte(e, band.from), top_byte(e, band.below)) {
        (Some(floor), Some(top)) if floor <= top => {
            let mut cube = crate::sat::cubes::Cube::full(e.p);
            cube.hi.iter_mut().for_each(|h| *h = top);
            cube.lo[0] = floor;
            Ok(cube)
        }
        _ => Err(format!("no common value lies in the band {band}")),
    }
}

/// The units of the rung `below`: `s[r] <= c` for every residue, `c` the byte of the largest
/// common value below `below`. None at all for 512 and above (every byte is below 512).
///
/// # Errors
/// A line saying why, if no common value lies below `below`.
pub fn rung_units(e: &PeriodEncoding, below: Value) -> Result<Vec<i32>, String> {
    let Some(top) = top_byte(e, below) else {
        let least = e.expand(&[0])[0];
        return Err(format!(
            "no common value lies below {below} (the least is {least})"
        ));
    };
    if top == 255 {
        return Ok(Vec::new());
    }
    Ok((0..e.p).map(|r| e.at_most(r, usize::from(top))).collect())
}

/// The units of `band`: those of its rung ([`rung_units`]) and, with a largest value first,
/// its floor ([`floor_unit`]); without one (whole rungs of earlier builds) a band has no floor.
///
/// # Errors
/// As [`rung_units`].
pub(super) fn band_units(
    e: &PeriodEncoding,
    band: Band,
    largest_first: bool,
) -> Result<Vec<i32>, String> {
    let mut units = rung_units(e, band.below)?;
    if largest_first {
        units.extend(floor_unit(e, band.from));
    }
    Ok(units)
}

/// The unit of a band's floor, `s[0] >= c` with `c` the byte of the smallest common value of
/// at least `from`: with a largest value at residue 0, "some value is at least `from`". None
/// when every common value is (no floor).
pub fn floor_unit(e: &PeriodEncoding, from: Value) -> Option<i32> {
    let c = floor_byte(e, from)?;
    (c > 0).then(|| -e.at_most(0, usize::from(c) - 1))
}

/// The byte of the largest common value below `below`, if any (bytes keep the order of values).
fn top_byte(e: &PeriodEncoding, below: Value) -> Option<u8> {
    (0..=255u8).rev().find(|&c| e.expand(&[c])[0] < below)
}

/// The byte of the smallest common value of at least `from`, if any.
pub(super) fn floor_byte(e: &PeriodEncoding, from: Value) -> Option<u8> {
    (0..=255u8).find(|&c| e.expand(&[c])[0] >= from)
}

/// The bytes `s[0]` may take in `band` with a largest value first: those of the common values
/// in it, lowest first. One cube each when a band is split over threads, one piece each when
/// its proof is made in pieces.
pub fn band_tops(e: &PeriodEncoding, band: Band) -> Vec<u8> {
    let in_band = |c: &u8| (band.from..band.below).contains(&e.expand(&[*c])[0]);
    (0..=255u8).filter(in_band).collect()
}

/// The values of `s[0]` of [`band_tops`], lowest first: the band's pieces, as the ladder names
/// them.
pub fn band_values(e: &PeriodEncoding, band: Band) -> Vec<Value> {
    let tops = band_tops(e, band);
    tops.iter().map(|&c| e.expand(&[c])[0]).collect()
}

/// The encoding's clauses with `units` added.
pub(super) fn with_units(e: &PeriodEncoding, units: &[i32]) -> crate::sat::Cnf {
    let mut cnf = e.cnf.clone();
    for &unit in units {
        crate::sat::CollectClauses::add_clause(&mut cnf, &[unit]);
    }
    cnf
}
