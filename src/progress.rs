/*!
Progress display: a bar with rate and ETA on a terminal; in a pipe or a log, a plain line at most
every 10 seconds, so scripted runs keep readable logs and short runs stay silent.

Rate and ETA count from the first position reported, not from zero: a run resumed from a
checkpoint or a ledger starts far along, and counting what earlier runs did as this run's work
would show a rate many times too high and an ETA of minutes for a campaign of months.
*/

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// Progress over `total` units of work.
pub struct Progress {
    bar: Option<ProgressBar>,
    what: String,
    unit: &'static str,
    total: u64,
    last_line: Instant,
    /// The first position reported and when: the origin of rate and ETA.
    base: Option<(u64, Instant)>,
}

const LINE_EVERY: Duration = Duration::from_secs(10);

impl Progress {
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            let style = ProgressStyle::with_template(
                "{msg} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(what.to_string());
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            what: what.to_string(),
            unit: "values",
            total,
            last_line: now,
            base: None,
        }
    }

    /// Names what is counted in the plain lines (default: "values").
    pub fn counting(mut self, unit: &'static str) -> Progress {
        self.unit = unit;
        self
    }

    pub fn set(&mut self, done: u64) {
        self.set_with(done, "");
    }

    /// Sets the position, with a note shown after the bar (e.g. the verified frontier).
    pub fn set_with(&mut self, done: u64, note: &str) {
        let (base, started) = *self.base.get_or_insert_with(|| {
            if let Some(bar) = &self.bar {
                bar.set_position(done);
                bar.reset_eta();
            }
            (done, Instant::now())
        });
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            if !note.is_empty() {
                bar.set_message(format!("{} {note}", self.what));
            }
        } else if self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            let (rate, eta) = rate_and_eta(base, done, self.total, started.elapsed());
            eprintln!(
                "{}: {done}/{} {unit}, {rate:.prec$}/s, ETA {eta} s {note}",
                self.what,
                self.total,
                unit = self.unit,
                prec = if rate >= 100.0 { 0 } else { 2 }
            );
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Units a second since `base` and the seconds left at that rate ("?" while nothing is done).
fn rate_and_eta(base: u64, done: u64, total: u64, since: Duration) -> (f64, String) {
    let rate = done.saturating_sub(base) as f64 / since.as_secs_f64().max(1e-9);
    // Nothing done yet in this run: no rate to guess from.
    let eta = if done <= base {
        "?".to_string()
    } else {
        format!("{:.0}", total.saturating_sub(done) as f64 / rate)
    };
    (rate, eta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_run_counts_its_rate_from_where_it_started() {
        // Resumed at half of 10^9, 10^6 more in 10 s: 10^5 a second, 4990 s left (not the
        // 501 * 10^5 a second and 100 s of counting from zero).
        let ten = Duration::from_secs(10);
        let (rate, eta) = rate_and_eta(500_000_000, 501_000_000, 1_000_000_000, ten);
        assert_eq!((rate, eta.as_str()), (100_000.0, "4990"));
        assert_eq!(
            rate_and_eta(500_000_000, 500_000_000, 1_000_000_000, ten).1,
            "?"
        );
        assert_eq!(rate_and_eta(0, 250, 1000, ten), (25.0, "30".to_string()));
    }
}
