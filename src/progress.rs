/*!
Progress display: a bar with rate and ETA on a terminal; in a pipe or a log, a plain line at most
every 10 seconds, so scripted runs keep readable logs and short runs stay silent.
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
    started: Instant,
    last_line: Instant,
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
            started: now,
            last_line: now,
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
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            if !note.is_empty() {
                bar.set_message(format!("{} {note}", self.what));
            }
        } else if self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            let secs = self.started.elapsed().as_secs_f64();
            let rate = done as f64 / secs.max(1e-9);
            // Nothing done yet: no rate to guess from.
            let eta = match done {
                0 => "?".to_string(),
                _ => format!("{:.0}", self.total.saturating_sub(done) as f64 / rate),
            };
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
