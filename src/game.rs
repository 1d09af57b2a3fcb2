/*!
Octal game codes: parsing, canonical printing, and the move set they describe.

An octal game is written `d0.d1d2...dk`. Digit `d_j` (an octal digit) says what may be left after
removing `j` beans from one heap: bit 1 -> nothing (only if the heap had exactly `j` beans), bit 2
-> one nonempty heap, bit 4 -> two nonempty heaps. The digit before the point takes zero beans, so
only its bit 4 (split a heap in two) is a legal move there; `d0` is therefore `0` or `4`.
Officers is `.6`: remove one bean, leave one or two nonempty heaps.

Invariant of [`Game`]: `digits` has no trailing zero digit and at least one nonzero digit, so two
codes denote the same game exactly when their `Game`s are equal.
*/

use std::fmt;
use std::str::FromStr;

/// Most digits after the point that a code may have.
pub const MAX_DIGITS: usize = 32;

/// A finite octal game, stored as its digits with `digits[j]` for removing `j` beans.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    digits: Vec<u8>,
}

/// Why a string is not an octal game code. Positions are 0-based character offsets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameParseError {
    #[error("empty game code (expected something like .6, 0.137 or 4.07)")]
    Empty,
    #[error("game code {code:?} has no point (write .{code} or 0.{code})")]
    MissingPoint { code: String },
    #[error("game code has digit '{ch}' at position {pos}: octal digits are 0-7")]
    NotOctal { pos: usize, ch: char },
    #[error("game code has unexpected text {text:?} at position {pos}")]
    TrailingText { pos: usize, text: String },
    #[error(
        "digit before the point must be 0 or 4 (a move that takes no bean may only split), got '{ch}'"
    )]
    BadZeroDigit { ch: char },
    #[error("game code has {count} digits after the point, at most {MAX_DIGITS} are supported")]
    TooLong { count: usize },
    #[error("game code {code:?} allows no move at all (every digit is 0)")]
    AllZero { code: String },
}

impl Game {
    /// Officers, `.6`.
    pub fn officers() -> Game {
        Game { digits: vec![0, 6] }
    }

    /// Builds a game from its digits (`digits[j]` for removing `j` beans).
    ///
    /// # Errors
    /// The same checks as parsing: octal digits, `d0` in {0, 4}, at most [`MAX_DIGITS`]
    /// digits after the point, not all zero.
    pub fn from_digits(digits: &[u8]) -> Result<Game, GameParseError> {
        let text: String = match digits.split_first() {
            None => String::new(),
            Some((d0, rest)) => {
                let rest: String = rest.iter().map(|d| char::from(b'0' + d.min(&9))).collect();
                format!("{}.{}", char::from(b'0' + d0.min(&9)), rest)
            }
        };
        text.parse()
    }

    /// The digit for removing `j` beans (0 beyond the last digit).
    pub fn digit(&self, j: usize) -> u8 {
        self.digits.get(j).copied().unwrap_or(0)
    }

    /// Largest number of beans any move removes (the `k` of the periodicity theorem).
    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }

    /// Bean counts `j` whose move removes a whole heap of exactly `j` beans.
    pub fn take_all_moves(&self) -> Vec<usize> {
        self.with_bit(1)
    }

    /// Bean counts `j` whose move leaves one nonempty heap (`n -> n - j`).
    pub fn single_heap_moves(&self) -> Vec<usize> {
        self.with_bit(2)
    }

    /// Bean counts `j` whose move leaves two nonempty heaps (`n -> a + b`, `a + b = n - j`).
    pub fn split_moves(&self) -> Vec<usize> {
        self.with_bit(4)
    }

    fn with_bit(&self, bit: u8) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&j| self.digits[j] & bit != 0)
            .collect()
    }

    /// True for `.6`.
    pub fn is_officers(&self) -> bool {
        *self == Game::officers()
    }

    /// A name safe for a folder or file, never hidden (`officers`, `.137` -> `0.137`,
    /// `4.07` -> `4.07`).
    pub fn slug(&self) -> String {
        let code = self.to_string();
        if self.is_officers() {
            "officers".to_string()
        } else if code.starts_with('.') {
            format!("0{code}")
        } else {
            code
        }
    }
}

impl fmt::Display for Game {
    /// Canonical form: `.d1d2..dk` when `d0 = 0`, else `4.d1..dk`; trailing zeros dropped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits[0] != 0 {
            write!(f, "{}", self.digits[0])?;
        }
        f.write_str(".")?;
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl FromStr for Game {
    type Err = GameParseError;

    fn from_str(input: &str) -> Result<Game, GameParseError> {
        let code = input.trim();
        if code.is_empty() {
            return Err(GameParseError::Empty);
        }
        if code.eq_ignore_ascii_case("officers") {
            return Ok(Game::officers());
        }
        let offset = input.len() - input.trim_start().len();
        let Some(point) = code.find('.') else {
            if let Some((pos, _)) = code.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
                return Err(GameParseError::TrailingText {
                    pos: offset + pos,
                    text: code[pos..].to_string(),
                });
            }
            return Err(GameParseError::MissingPoint {
                code: code.to_string(),
            });
        };
        let d0 = match &code[..point] {
            "" | "0" => 0,
            "4" => 4,
            p if p.len() == 1 => {
                let ch = p.chars().next().unwrap_or('?');
                return Err(GameParseError::BadZeroDigit { ch });
            }
            p => {
                return Err(GameParseError::TrailingText {
                    pos: offset,
                    text: p.to_string(),
                });
            }
        };
        let mut digits = vec![d0];
        for (i, ch) in code[point + 1..].char_indices() {
            let pos = offset + point + 1 + i;
            match ch {
                '0'..='7' => digits.push(ch as u8 - b'0'),
                '8' | '9' => return Err(GameParseError::NotOctal { pos, ch }),
                _ => {
                    let text = code[point + 1 + i..].to_string();
                    return Err(GameParseError::TrailingText { pos, text });
                }
            }
        }
        if digits.len() - 1 > MAX_DIGITS {
            return Err(GameParseError::TooLong {
                count: digits.len() - 1,
            });
        }
        while digits.len() > 1 && *digits.last().unwrap_or(&0) == 0 {
            digits.pop();
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(GameParseError::AllZero {
                code: code.to_string(),
            });
        }
        Ok(Game { digits })
    }
}

/// Every distinct game with at most `max_digits` digits after the point: `d0 = 0` only, or
/// also `d0 = 4` when `with_split_prefix` is set.
pub fn all_games(max_digits: usize, with_split_prefix: bool) -> Vec<Game> {
    let prefixes: &[u8] = if with_split_prefix { &[0, 4] } else { &[0] };
    let mut games = Vec::new();
    for &d0 in prefixes {
        for code in 0..8u32.pow(max_digits as u32) {
            let mut digits = vec![d0];
            digits.extend(
                (0..max_digits)
                    .rev()
                    .map(|place| ((code >> (3 * place)) & 7) as u8),
            );
            // Codes with trailing zeros normalise to a shorter code; dedup below drops them.
            games.extend(Game::from_digits(&digits));
        }
    }
    games.sort_by_key(|g| (g.digit(0), g.digits.len(), g.to_string()));
    games.dedup();
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_round_trip() {
        let table = [
            (".6", ".6"),
            ("0.6", ".6"),
            ("officers", ".6"),
            ("OFFICERS", ".6"),
            ("0.137", ".137"),
            ("0.13700", ".137"),
            ("4.07", "4.07"),
            ("4.", "4."),
            (" .56 ", ".56"),
            (
                ".00000000000000000000000000000007",
                ".00000000000000000000000000000007",
            ),
        ];
        for (input, canonical) in table {
            let game: Game = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(game.to_string(), canonical, "{input}");
            assert_eq!(canonical.parse::<Game>().unwrap(), game);
        }
    }

    #[test]
    fn invalid_codes_say_why() {
        use GameParseError::*;
        let table: [(&str, GameParseError); 9] = [
            ("", Empty),
            ("   ", Empty),
            ("6", MissingPoint { code: "6".into() }),
            (".68", NotOctal { pos: 2, ch: '8' }),
            (".9", NotOctal { pos: 1, ch: '9' }),
            (
                ".6x",
                TrailingText {
                    pos: 2,
                    text: "x".into(),
                },
            ),
            (
                "0.000",
                AllZero {
                    code: "0.000".into(),
                },
            ),
            ("2.6", BadZeroDigit { ch: '2' }),
            (".000000000000000000000000000000001", TooLong { count: 33 }),
        ];
        for (input, expected) in table {
            assert_eq!(input.parse::<Game>(), Err(expected), "{input:?}");
        }
        assert!(matches!("12.6".parse::<Game>(), Err(TrailingText { .. })));
        assert!(matches!(".6 .7".parse::<Game>(), Err(TrailingText { .. })));
        assert!(matches!("abc".parse::<Game>(), Err(TrailingText { .. })));
    }

    #[test]
    fn officers_moves() {
        let g = Game::officers();
        assert_eq!(g.single_heap_moves(), vec![1]);
        assert_eq!(g.split_moves(), vec![1]);
        assert!(g.take_all_moves().is_empty());
        assert_eq!(g.max_take(), 1);
        let dawson: Game = ".137".parse().unwrap();
        assert_eq!(dawson.take_all_moves(), vec![1, 2, 3]);
        assert_eq!(dawson.single_heap_moves(), vec![2, 3]);
        assert_eq!(dawson.split_moves(), vec![3]);
    }

    #[test]
    fn all_three_digit_codes() {
        // 8^3 - 1 codes with d0 = 0 (all zero is not a game), plus 8^2 with d0 = 4.
        assert_eq!(all_games(3, false).len(), 511);
        assert_eq!(all_games(2, true).len(), 63 + 64);
    }
}
