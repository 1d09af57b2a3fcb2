/*!
Statistics of a computed prefix `G(0..count)`: what `grundy stats` prints and `grundy plot` reads.
*/

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::values::{SparseSpace, Value, checksum};

/// Statistics of `G(0), ..., G(count - 1)`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Stats {
    pub game: String,
    pub count: u64,
    /// Sum of the values (the checksum of the C baselines).
    pub checksum: u64,
    pub max_value: Value,
    pub max_first_at: u64,
    /// Heaps with `G = 0`: the losing positions (P-positions).
    pub losing_positions: Vec<u64>,
    /// Sparse space used to call values rare.
    pub space: String,
    pub rare_count: u64,
    pub last_rare: Option<u64>,
    /// `[value, how many heaps have it]`, by value, only values that occur.
    pub histogram: Vec<(Value, u64)>,
    /// `[value, first heap with it]`, in order of first appearance ("new value" events).
    pub first_appearance: Vec<(Value, u64)>,
}

impl Stats {
    /// Statistics of `values` (heap `n` holds `values[n]`), rarity under `space`.
    pub fn from_values(game: &Game, values: &[Value], space: SparseSpace) -> Stats {
        let mut counts = vec![0u64; 1 << 16];
        let mut first_appearance = Vec::new();
        let mut losing_positions = Vec::new();
        let (mut rare_count, mut last_rare) = (0, None);
        let (mut max_value, mut max_first_at) = (0, 0);
        for (n, &v) in values.iter().enumerate() {
            if counts[v as usize] == 0 {
                first_appearance.push((v, n as u64));
            }
            counts[v as usize] += 1;
            if v == 0 {
                losing_positions.push(n as u64);
            }
            if space.is_rare(n, v) {
                rare_count += 1;
                last_rare = Some(n as u64);
            }
            if v > max_value {
                (max_value, max_first_at) = (v, n as u64);
            }
        }
        let histogram = (0..=max_value)
            .filter(|&v| counts[v as usize] > 0)
            .map(|v| (v, counts[v as usize]))
            .collect();
        Stats {
            game: game.to_string(),
            count: values.len() as u64,
            checksum: checksum(values),
            max_value,
            max_first_at,
            losing_positions,
            space: space.to_string(),
            rare_count,
            last_rare,
            histogram,
            first_appearance,
        }
    }

    /// A short human-readable summary (the histogram is in the JSON form).
    pub fn render_text(&self) -> String {
        let losing: Vec<String> = self.losing_positions.iter().map(u64::to_string).collect();
        let last = self.last_rare.map_or("none".to_string(), |l| l.to_string());
        format!(
            "game            {}\nvalues          {} (G(0) .. G({}))\nchecksum        {}\n\
             largest value   {} (first at {})\ndistinct values {}\nlosing (G=0)    {} : {}\n\
             sparse space    {}\nrare values     {} (last at {})\n",
            self.game,
            self.count,
            self.count.saturating_sub(1),
            self.checksum,
            self.max_value,
            self.max_first_at,
            self.histogram.len(),
            self.losing_positions.len(),
            losing.join(" "),
            self.space,
            self.rare_count,
            last,
        )
    }
}
