/*!
Periods: an online hash search proposes candidates ([`search`]), the Guy-Smith theorem on exact
values decides them ([`proof`]), and [`find_period`] runs both from scratch for any game.
*/

pub mod hash;
pub mod proof;
pub mod search;

pub use proof::{Certificate, Decision, decide};
pub use search::{Candidate, PeriodSearch, rule_window};

use crate::game::Game;
use crate::values::{ExactGenerator, ValueError};

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Proven(Certificate),
    /// No period proven among the first `searched` values.
    NotFound {
        searched: u64,
        candidates_refuted: u64,
        hash_collisions: u64,
    },
}

/// Searches `game` from scratch, up to `max` values, for a proven period; `progress(values)`
/// after each step.
///
/// # Errors
/// A value beyond 16 bits.
pub fn find_period(
    game: &Game,
    max: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<Outcome, ValueError> {
    let started = std::time::Instant::now();
    let mut generator = ExactGenerator::new(game);
    let mut search = PeriodSearch::new();
    let mut pending: Option<Candidate> = None;
    let mut refuted = 0;
    let mut len = 1usize << 12;
    loop {
        generator.extend_to(len.min(max as usize))?;
        progress(generator.values().len() as u64);
        let g = generator.values();
        if pending.is_none() {
            pending = search.feed(
                g,
                rule_window(game, generator.rares().last().map_or(0, |r| r.0 as u64)),
            );
        }
        match pending {
            Some(c) => match decide(game, g, c.period, c.n0 + 1 - c.window) {
                Decision::Proven(mut cert) => {
                    cert.candidate_at = (c.n0 + c.period) as u64;
                    cert.hash_collisions = search.collisions;
                    cert.seconds = started.elapsed().as_secs_f64();
                    return Ok(Outcome::Proven(cert));
                }
                Decision::NeedValues(need) if (need as u64) <= max => len = len.max(need),
                Decision::NeedValues(_) | Decision::Refuted { .. } => {
                    refuted += 1;
                    pending = None;
                }
            },
            None if g.len() as u64 >= max => {
                return Ok(Outcome::NotFound {
                    searched: g.len() as u64,
                    candidates_refuted: refuted,
                    hash_collisions: search.collisions,
                });
            }
            // Small steps: a candidate is seen soon after it appears, little is computed past it.
            None => len += (len / 8).max(1 << 12),
        }
    }
}
