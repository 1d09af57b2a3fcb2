/*!
Statistics of a computed prefix `G(0..count)`: what `grundy stats` prints and `grundy plot` reads.
*/

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::values::{SparseSpace, Value};

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
        let mut builder = StatsBuilder::new();
        builder.add(0, values);
        let (mut rare_count, mut last_rare) = (0, None);
        for (n, &v) in values.iter().enumerate() {
            if space.is_rare(n, v) {
                rare_count += 1;
                last_rare = Some(n as u64);
            }
        }
        builder.finish(game, space, rare_count, last_rare)
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

/// Statistics gathered value by value, for runs whose values do not stay in memory. Rarity
/// depends on the sparse space, which a run may change: [`StatsBuilder::finish`] takes it from
/// the caller.
#[derive(Clone, Debug)]
pub struct StatsBuilder {
    count: u64,
    counts: Vec<u64>,
    first_appearance: Vec<(Value, u64)>,
    losing_positions: Vec<u64>,
    max_value: Value,
    max_first_at: u64,
}

impl Default for StatsBuilder {
    fn default() -> Self {
        StatsBuilder::new()
    }
}

impl StatsBuilder {
    pub fn new() -> StatsBuilder {
        StatsBuilder {
            count: 0,
            counts: vec![0; 1 << 16],
            first_appearance: Vec::new(),
            losing_positions: Vec::new(),
            max_value: 0,
            max_first_at: 0,
        }
    }

    /// Values added so far: `G(0..count)`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Adds `G(from..from + values.len())`; `from` must be the count so far.
    pub fn add(&mut self, from: u64, values: &[Value]) {
        assert_eq!(from, self.count, "statistics take values in order");
        for (n, &v) in (from..).zip(values) {
            if self.counts[v as usize] == 0 {
                self.first_appearance.push((v, n));
            }
            self.counts[v as usize] += 1;
            if v == 0 {
                self.losing_positions.push(n);
            }
            if v > self.max_value {
                (self.max_value, self.max_first_at) = (v, n);
            }
        }
        self.count += values.len() as u64;
    }

    /// The statistics so far, with the rare count and last rare position under `space`.
    pub fn finish(
        &self,
        game: &Game,
        space: SparseSpace,
        rare_count: u64,
        last_rare: Option<u64>,
    ) -> Stats {
        let histogram: Vec<(Value, u64)> = (0..=self.max_value)
            .filter(|&v| self.counts[v as usize] > 0)
            .map(|v| (v, self.counts[v as usize]))
            .collect();
        Stats {
            game: game.to_string(),
            count: self.count,
            checksum: histogram.iter().map(|&(v, c)| u64::from(v) * c).sum(),
            max_value: self.max_value,
            max_first_at: self.max_first_at,
            losing_positions: self.losing_positions.clone(),
            space: space.to_string(),
            rare_count,
            last_rare,
            histogram,
            first_appearance: self.first_appearance.clone(),
        }
    }
}
