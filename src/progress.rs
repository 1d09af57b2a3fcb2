/*!
Progress display: a bar with rate and ETA on a terminal, nothing in a pipe (indicatif hides its
bar when standard error is not a terminal), so scripted runs keep clean logs.
*/

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `total` units of work.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub fn new(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template(
            "{msg} [{bar:30}] {human_pos}/{human_len} {per_sec} ETA {eta}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_message(what.to_string());
        Progress { bar }
    }

    pub fn set(&self, done: u64) {
        self.bar.set_position(done);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
