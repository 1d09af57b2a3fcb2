/*!
Progress display: a bar with rate and ETA on a terminal; in a pipe or a log, plain lines further
apart as a run ages (10 s apart at first, a tenth of the run's age later, 10 minutes apart at
most: see `line_gap`), so short runs stay silent and a campaign of days keeps a log a reader can
take in (a line every 10 s would be 8640 lines a day).

Rate and ETA count from the first position reported, not from zero: a run resumed from a
checkpoint or a ledger starts far along, and counting what earlier runs did as this run's work
would show a rate many times too high and an ETA of minutes for a campaign of months.
*/

use std::io::IsTerminal;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Progress over `total` units of work.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// What the plain lines of a log say, shared with the heartbeat thread.
    lines: Arc<Mutex<Lines>>,
    /// In a log, with [`Progress::ticking`]: the thread that writes a line when none came for a
    /// while, and the sender whose drop ends it.
    heartbeat: Option<(Sender<()>, JoinHandle<()>)>,
}

/// The state behind the plain lines of a log.
struct Lines {
    what: String,
    unit: &'static str,
    /// Whether the position is shown as a share of `total` (a percentage) instead of a count.
    percent: bool,
    /// Whether there is no total: the count and its rate are shown, no ETA.
    open_ended: bool,
    total: u64,
    /// When the display was made and when it last wrote a plain line.
    made: Instant,
    last_line: Instant,
    /// The first position reported and when: the origin of rate and ETA.
    base: Option<(u64, Instant)>,
    /// The last position and note reported, for the heartbeat's lines.
    done: u64,
    note: String,
    /// Whether a line says how long the display has run (a ticking one: its lines may be all
    /// that moves for an hour).
    tell_age: bool,
}

/// The least and the most time between plain lines.
const LINE_GAP_LEAST: Duration = Duration::from_secs(10);
const LINE_GAP_MOST: Duration = Duration::from_secs(600);

/// Time between plain lines for a display `age` old: a tenth of its age, within
/// [`LINE_GAP_LEAST`] and [`LINE_GAP_MOST`]. A run of 40 minutes writes about 40 lines (240 at
/// 10 s apart), one of a day about 180, and the log still says every 10 minutes at most that
/// the run is alive.
fn line_gap(age: Duration) -> Duration {
    (age / 10).clamp(LINE_GAP_LEAST, LINE_GAP_MOST)
}

impl Progress {
    pub fn new(total: u64, what: &str) -> Progress {
        Progress::drawn(total, what, std::io::stderr().is_terminal())
    }

    /// A bar on a terminal (`on_terminal`), plain lines else.
    fn drawn(total: u64, what: &str, on_terminal: bool) -> Progress {
        let bar = on_terminal.then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(bar_style(
                "{msg} [{bar:30}] {human_pos}/{human_len} {rate} ETA {eta}",
            ));
            bar.set_message(what.to_string());
            bar
        });
        let now = Instant::now();
        let lines = Lines {
            what: what.to_string(),
            unit: "values",
            percent: false,
            open_ended: false,
            total,
            made: now,
            last_line: now,
            base: None,
            done: 0,
            note: String::new(),
            tell_age: false,
        };
        Progress {
            bar,
            lines: Arc::new(Mutex::new(lines)),
            heartbeat: None,
        }
    }

    /// The plain lines' state; a panic elsewhere while it was held poisons nothing worth
    /// refusing a progress line for.
    fn lines(&self) -> MutexGuard<'_, Lines> {
        self.lines
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Names what is counted in the plain lines (default: "values").
    pub fn counting(self, unit: &'static str) -> Progress {
        self.lines().unit = unit;
        self
    }

    /// Shows the position as a percentage of the total, `what` it is a share of: for work whose
    /// units mean nothing to a reader (a cube campaign counts parts per billion of its box).
    pub fn as_percent(self, of_what: &'static str) -> Progress {
        {
            let mut lines = self.lines();
            lines.unit = of_what;
            lines.percent = true;
        }
        if let Some(bar) = &self.bar {
            bar.set_style(bar_style("{msg} [{bar:30}] {percent_precise}% ETA {eta}"));
        }
        self
    }

    /// For work with no total to reach (the patterns of a period, counted until the solver says
    /// there are no more): the count and its rate, no bar to fill and no ETA, which a made-up
    /// total would turn into a guess. After [`Progress::counting`] and [`Progress::ticking`].
    pub fn open_ended(self) -> Progress {
        let unit = {
            let mut lines = self.lines();
            lines.open_ended = true;
            lines.unit
        };
        if let Some(bar) = &self.bar {
            let template = format!("{{msg}} {{human_pos}} {unit}, {{rate}}, {{elapsed_precise}}");
            bar.set_style(bar_style(&template));
        }
        self
    }

    /// For work whose units end far apart (pieces of an hour): on a terminal the bar redraws
    /// every second with the time elapsed, and in a log a line comes when none came for a while
    /// (the same gaps as the others, see `line_gap`), saying how long the display has run.
    /// Without it the bar would stand still and the log stay silent between units, and a
    /// reader could not tell a search of an hour from a hung one.
    pub fn ticking(mut self) -> Progress {
        if let Some(bar) = &self.bar {
            bar.set_style(bar_style(
                "{msg} [{bar:30}] {human_pos}/{human_len} {elapsed_precise} ETA {eta}",
            ));
            bar.enable_steady_tick(Duration::from_secs(1));
        } else {
            self.lines().tell_age = true;
            let (alive, ended) = channel();
            let lines = Arc::clone(&self.lines);
            let beat = std::thread::spawn(move || heartbeat(&lines, &ended));
            self.heartbeat = Some((alive, beat));
        }
        self
    }

    pub fn set(&mut self, done: u64) {
        self.set_with(done, "");
    }

    /// Sets the position, with a note shown after the bar (e.g. the verified frontier).
    pub fn set_with(&mut self, done: u64, note: &str) {
        let mut lines = self.lines();
        let first = lines.base.is_none();
        lines.base.get_or_insert_with(|| (done, Instant::now()));
        (lines.done, lines.note) = (done, note.to_string());
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            if first {
                bar.reset_eta();
            }
            if !note.is_empty() {
                bar.set_message(format!("{} {note}", lines.what));
            }
        } else {
            lines.write_if_due();
        }
    }

    /// A handle that sets this display's note from another thread ([`NoteSetter`]).
    pub fn note_setter(&self) -> NoteSetter {
        NoteSetter {
            lines: Arc::clone(&self.lines),
            bar: self.bar.clone(),
        }
    }

    /// Writes `line` on standard output, the bar hidden meanwhile and drawn again below it, so
    /// that lines of results and the bar do not tear each other on a terminal.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Sets the note of a [`Progress`] (after the bar; at the end of a log's lines) without moving
/// its position, from any thread. Why: a band's pieces run for hours in worker threads, and
/// the line a log gets every 10 minutes should say which of them is being asked, not only how
/// many ended. The next [`Progress::set`] clears the note.
#[derive(Clone)]
pub struct NoteSetter {
    lines: Arc<Mutex<Lines>>,
    bar: Option<ProgressBar>,
}

impl NoteSetter {
    pub fn set(&self, note: &str) {
        let mut lines = self
            .lines
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        lines.note = note.to_string();
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{} {note}", lines.what).trim_end().to_string());
        }
    }
}

impl Drop for Progress {
    /// Ends the heartbeat before the display goes, so that no line of it follows what the run
    /// writes next.
    fn drop(&mut self) {
        if let Some((alive, beat)) = self.heartbeat.take() {
            drop(alive);
            let _ = beat.join();
        }
    }
}

/// The heartbeat of a ticking display in a log: looks every second whether a line is due and
/// writes it, until the sender of `ended` goes.
fn heartbeat(lines: &Mutex<Lines>, ended: &Receiver<()>) {
    while let Err(RecvTimeoutError::Timeout) = ended.recv_timeout(Duration::from_secs(1)) {
        let mut lines = lines
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        lines.write_if_due();
    }
}

impl Lines {
    /// Writes the line of the last position and note if the gap since the last line is up and
    /// a position was reported (before one, there is no rate to tell).
    fn write_if_due(&mut self) {
        if self.last_line.elapsed() < line_gap(self.made.elapsed()) {
            return;
        }
        let Some((base, started)) = self.base else {
            return;
        };
        self.last_line = Instant::now();
        eprintln!("{}", self.line_now(base, started.elapsed()));
    }

    /// The line [`Self::write_if_due`] writes: position, rate and ETA, the display's age when
    /// it ticks, then the note ("..., ETA ? (106 min so far); asking s[0] = 231 since 22:13
    /// UTC"). Why the age before the note: a note may tell a time of its own (when a piece
    /// started), and an age after it read as that piece's.
    fn line_now(&self, base: u64, since: Duration) -> String {
        let mut line = self.plain_line(base, self.done, since, "");
        if self.tell_age {
            let age = human_time(self.made.elapsed().as_secs_f64());
            line.push_str(&format!(" ({age} so far)"));
        }
        if !self.note.is_empty() {
            line.push_str(&format!("; {}", self.note));
        }
        line
    }

    /// The line written in a pipe: position, rate and ETA, then the note.
    fn plain_line(&self, base: u64, done: u64, since: Duration, note: &str) -> String {
        let (rate, eta) = rate_and_eta(base, done, self.total, since);
        let (what, unit) = (&self.what, self.unit);
        let told = if self.percent {
            let share = |units: f64| 100.0 * units / self.total.max(1) as f64;
            format!(
                "{what}: {:.4}% {unit}, {:.3}%/h, ETA {eta}",
                share(done as f64),
                share(rate * 3600.0)
            )
        } else if self.open_ended {
            format!("{what}: {done} {unit}, {}", human_rate(rate))
        } else {
            format!(
                "{what}: {done}/{} {unit}, {}, ETA {eta}",
                self.total,
                human_rate(rate)
            )
        };
        if note.is_empty() {
            told
        } else {
            format!("{told}; {note}")
        }
    }
}

/// The bar drawn by `template` (indicatif's default bar if the template does not parse), with
/// a key `{rate}` that tells the rate as the plain lines do ([`human_rate`]), not as
/// indicatif's `{per_sec}` ("0.0008/s").
fn bar_style(template: &str) -> ProgressStyle {
    let rate = |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = w.write_str(&human_rate(state.per_sec()));
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", rate)
        .progress_chars("=> ")
}

/// Units a second since `base` and the time left at that rate ("?" while nothing is done).
fn rate_and_eta(base: u64, done: u64, total: u64, since: Duration) -> (f64, String) {
    let rate = done.saturating_sub(base) as f64 / since.as_secs_f64().max(1e-9);
    // Nothing done yet in this run: no rate to guess from.
    let eta = if done <= base {
        "?".to_string()
    } else {
        human_time(total.saturating_sub(done) as f64 / rate)
    };
    (rate, eta)
}

/// A rate of units a second in a unit of time that shows its digits: "25.00/s", "1234/s",
/// "0.77/min", "2.50/h". Why: a question of 20 minutes, or a chain's call of an hour, moves on
/// at 0.0008/s, which two decimals per second print as "0.00/s", as if nothing moved.
pub fn human_rate(per_sec: f64) -> String {
    match per_sec {
        r if r <= 0.0 => "0/s".to_string(),
        r if r >= 100.0 => format!("{r:.0}/s"),
        r if r >= 0.1 => format!("{r:.2}/s"),
        r if r * 60.0 >= 0.1 => format!("{:.2}/min", r * 60.0),
        r => format!("{:.2}/h", r * 3600.0),
    }
}

/// Seconds in the unit a reader takes in at once: "45 s", "83 min", "5.2 h", "12.5 days",
/// "37.1 years". Why: a cube campaign's ETA runs from minutes to centuries, and "1170887647 s"
/// says neither.
pub fn human_time(secs: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 60.0 * MINUTE;
    const DAY: f64 = 24.0 * HOUR;
    const YEAR: f64 = 365.25 * DAY;
    match secs {
        s if s < 2.0 * MINUTE => format!("{s:.0} s"),
        s if s < 2.0 * HOUR => format!("{:.0} min", s / MINUTE),
        s if s < 2.0 * DAY => format!("{:.1} h", s / HOUR),
        s if s < YEAR => format!("{:.1} days", s / DAY),
        s => format!("{:.1} years", s / YEAR),
    }
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
        assert_eq!((rate, eta.as_str()), (100_000.0, "83 min"));
        assert_eq!(
            rate_and_eta(500_000_000, 500_000_000, 1_000_000_000, ten).1,
            "?"
        );
        assert_eq!(rate_and_eta(0, 250, 1000, ten), (25.0, "30 s".to_string()));
    }

    #[test]
    fn plain_lines_tell_a_count_or_a_share_and_keep_the_note_apart() {
        let ten = Duration::from_secs(10);
        let count = Progress::new(1000, "run");
        assert_eq!(
            count.lines().plain_line(0, 250, ten, "verified to 200"),
            "run: 250/1000 values, 25.00/s, ETA 30 s; verified to 200"
        );
        assert_eq!(
            count.lines().plain_line(0, 250, ten, ""),
            "run: 250/1000 values, 25.00/s, ETA 30 s"
        );
        // 10^6 ppb more in 10 s: 0.1 % of the box in 10 s, 36 % an hour, 83 min left.
        let share = Progress::new(1_000_000_000, "cubes p=37").as_percent("of the band refuted");
        assert_eq!(
            share
                .lines()
                .plain_line(500_000_000, 501_000_000, ten, "6 open"),
            "cubes p=37: 50.1000% of the band refuted, 36.000%/h, ETA 83 min; 6 open"
        );
    }

    /// An open-ended count has no total, so its line tells no ETA and no "/0". Mutation: the
    /// counted line for it ("all p=17: 12/0 classes, ..., ETA ?").
    #[test]
    fn an_open_ended_line_tells_the_count_and_its_rate_only() {
        let all = Progress::drawn(0, "all p=17", false)
            .counting("classes")
            .open_ended();
        assert_eq!(
            all.lines()
                .plain_line(2, 12, Duration::from_secs(3600), "40 solver calls"),
            "all p=17: 12 classes, 0.17/min; 40 solver calls"
        );
    }

    #[test]
    fn plain_lines_grow_apart_as_a_run_ages() {
        let secs = Duration::from_secs;
        let gaps = [5, 60, 100, 1000, 6000, 86_400].map(|age| line_gap(secs(age)));
        assert_eq!(gaps, [10, 10, 10, 100, 600, 600].map(secs));
        // Lines written over a day, each at the first second its gap allows.
        let (mut lines, mut last) = (0, 0);
        for age in 1..=86_400 {
            if secs(age - last) >= line_gap(secs(age)) {
                (lines, last) = (lines + 1, age);
            }
        }
        assert!((150..200).contains(&lines), "{lines} lines in a day");
    }

    /// A ticking display in a log writes a line once the first gap is up though nothing more was
    /// reported; one that does not tick stays silent.
    #[test]
    fn a_ticking_display_in_a_log_says_it_is_alive_between_units() {
        let mut ticking = Progress::drawn(4, "band", false)
            .counting("pieces")
            .ticking();
        let mut still = Progress::drawn(4, "band", false).counting("pieces");
        ticking.set(0);
        still.set(0);
        std::thread::sleep(LINE_GAP_LEAST + Duration::from_millis(1500));
        // A line written moved `last_line` on from when the display was made.
        let wrote = |p: &Progress| {
            let lines = p.lines();
            lines.last_line > lines.made
        };
        assert!(wrote(&ticking) && !wrote(&still));
        drop(ticking);
    }

    /// A ticking display's age comes before its note, which may tell a time of its own. Mutation:
    /// the age after the note (as it was, where "since 22:13 UTC (106 min so far)" read as the
    /// piece's age).
    #[test]
    fn a_ticking_line_tells_its_age_before_the_note() {
        let mut band = Progress::drawn(4, "band", false)
            .counting("pieces")
            .ticking();
        band.set_with(1, "asking s[0] = 231 since 22:13 UTC");
        let line = band.lines().line_now(0, Duration::from_secs(10));
        let (told, note) = line.split_once("; ").unwrap();
        assert!(
            told.starts_with("band: 1/4 pieces, 0.10/s, ETA 30 s ("),
            "{line}"
        );
        assert!(told.ends_with(" so far)"), "{line}");
        assert_eq!(note, "asking s[0] = 231 since 22:13 UTC");
        drop(band);
    }

    /// Mutation: per second with two decimals whatever the rate (a period of 20 minutes read
    /// "0.00/s").
    #[test]
    fn a_rate_is_told_in_a_unit_that_shows_its_digits() {
        let told: Vec<String> = [0.0, 1234.4, 25.0, 1.0 / 120.0, 1.0 / 1300.0, 1.0 / 7200.0]
            .map(human_rate)
            .to_vec();
        assert_eq!(
            told,
            ["0/s", "1234/s", "25.00/s", "0.50/min", "2.77/h", "0.50/h"]
        );
    }

    #[test]
    fn an_eta_is_told_in_a_unit_that_fits_it() {
        let told: Vec<String> = [45.0, 4990.0, 18_720.0, 1_080_000.0, 1_170_887_647.0]
            .map(human_time)
            .to_vec();
        assert_eq!(told, ["45 s", "83 min", "5.2 h", "12.5 days", "37.1 years"]);
    }
}
