/*!
The naive generator: the oracle every faster generator is tested against.

`G(n)` is the mex of every option of a heap of `n` beans, enumerated straight from the move set:
O(n) options per heap, O(n^2) for a prefix. It shares nothing with the exact generator beyond the
[`Game`] move lists and the mex array, so agreement between the two is real evidence.
*/

use super::{MexMarks, Value, ValueError, to_value};
use crate::game::Game;

/// `G(0), ..., G(count - 1)` of `game`, computed naively.
///
/// # Errors
/// [`ValueError::TooLarge`] if a value does not fit in 16 bits.
pub fn naive_values(game: &Game, count: usize) -> Result<Vec<Value>, ValueError> {
    let take_all = game.take_all_moves();
    let single = game.single_heap_moves();
    let splits = game.split_moves();
    let mut g: Vec<Value> = Vec::with_capacity(count);
    let mut marks = MexMarks::new();
    let mut max = 0;
    for n in 0..count {
        marks.begin();
        for &j in &take_all {
            if n == j {
                marks.mark(0);
            }
        }
        for &j in &single {
            if n > j {
                marks.mark(g[n - j]);
            }
        }
        for &j in &splits {
            // n -> a + b with a, b >= 1 and a + b = n - j; unordered, so a <= b.
            if n >= j + 2 {
                let m = n - j;
                for a in 1..=m / 2 {
                    marks.mark(g[a] ^ g[m - a]);
                }
            }
        }
        let v = to_value(game, n, marks.mex())?;
        g.push(v);
        if v > max {
            max = v;
            marks.fit(max);
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn officers_start() {
        // Riley's post: 0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1.
        let g = naive_values(&Game::officers(), 20).unwrap();
        assert_eq!(
            g,
            [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3, 2, 1]
        );
    }

    #[test]
    fn nim_and_subtraction_games() {
        // .333 (take 1, 2 or 3): G(n) = n mod 4 (Uhlin, ex. 2.3); 4.77.. is not needed here.
        let g = naive_values(&".333".parse().unwrap(), 40).unwrap();
        assert!(g.iter().enumerate().all(|(n, &v)| v as usize == n % 4));
    }
}
