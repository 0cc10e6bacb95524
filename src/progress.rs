//! Progress of long work (solving nana shogi, generating training data), on standard error: a bar
//! when standard error is a terminal, cleared at the end so that the result starts on a line of
//! its own; otherwise (a log file, a pipe) plain lines: one when a phase starts, one about every
//! minute while it runs, and one when it ends.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use crate::core::clock::Instant;

#[cfg(target_arch = "wasm32")]
use hidden::{ProgressBar, ProgressStyle};
#[cfg(not(target_arch = "wasm32"))]
use indicatif::{ProgressBar, ProgressStyle};

/// The browser build's bar: indicatif needs wasm-bindgen there, and a Web Worker has no terminal
/// to draw on, so the bar is always hidden and only counts (what [`Progress::status`] reads).
#[cfg(target_arch = "wasm32")]
mod hidden {
    use std::borrow::Cow;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    /// A hidden bar: its count, length and note.
    #[derive(Default)]
    pub struct ProgressBar {
        pos: AtomicU64,
        len: AtomicU64,
        msg: Mutex<String>,
    }

    /// No style to draw with.
    pub struct ProgressStyle;

    impl ProgressStyle {
        /// Any template.
        pub fn with_template(_: &str) -> Result<ProgressStyle, std::convert::Infallible> {
            Ok(ProgressStyle)
        }
    }

    impl ProgressBar {
        /// A bar of `len` steps (hidden).
        pub fn new(len: u64) -> ProgressBar {
            let bar = ProgressBar::default();
            bar.set_length(len);
            bar
        }
        /// A hidden bar.
        pub fn hidden() -> ProgressBar {
            ProgressBar::default()
        }
        /// Nothing to draw.
        pub fn set_style(&self, _: ProgressStyle) {}
        /// Nothing to draw.
        pub fn set_prefix(&self, _: String) {}
        /// Nothing to draw.
        pub fn enable_steady_tick(&self, _: Duration) {}
        /// Sets the number of steps.
        pub fn set_length(&self, len: u64) {
            self.len.store(len, Ordering::Relaxed);
        }
        /// Counts `n` steps.
        pub fn inc(&self, n: u64) {
            self.pos.fetch_add(n, Ordering::Relaxed);
        }
        /// Sets the note.
        pub fn set_message(&self, msg: String) {
            *self.msg.lock().unwrap_or_else(|e| e.into_inner()) = msg;
        }
        /// Steps counted.
        pub fn position(&self) -> u64 {
            self.pos.load(Ordering::Relaxed)
        }
        /// The number of steps.
        pub fn length(&self) -> Option<u64> {
            Some(self.len.load(Ordering::Relaxed))
        }
        /// The note.
        pub fn message(&self) -> Cow<'static, str> {
            Cow::Owned(self.msg.lock().unwrap_or_else(|e| e.into_inner()).clone())
        }
        /// Always.
        pub fn is_hidden(&self) -> bool {
            true
        }
        /// Nothing to clear.
        pub fn finish_and_clear(&self) {}
    }
}

/// Peak resident memory of this process in MiB (Linux), if known: the figure long work reports
/// with its result.
pub fn peak_memory_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// How often a phase that is not shown as a bar prints a line.
const LINE_EVERY: Duration = Duration::from_secs(60);

/// The progress of one phase of `len` steps.
pub struct Progress {
    what: String,
    start: Instant,
    /// The bar, when drawn on a terminal (hidden otherwise: it still counts the steps).
    bar: ProgressBar,
    /// True when progress is printed as lines (standard error is not a terminal).
    lines: bool,
    /// When the last line was printed.
    last_line: Mutex<Instant>,
}

impl Progress {
    /// Starts a phase called `what` of `len` steps; `unit` names a step in the lines (`games`,
    /// `positions`). With `show` false nothing is printed at all (tests, library use).
    pub fn new(show: bool, what: &str, len: u64, unit: &str) -> Progress {
        Progress::with_stream(show, std::io::stderr().is_terminal(), what, len, unit)
    }

    /// As [`Progress::new`], with `terminal` telling whether standard error is a terminal.
    fn with_stream(show: bool, terminal: bool, what: &str, len: u64, unit: &str) -> Progress {
        let bar = if show && terminal {
            let bar = ProgressBar::new(len);
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{prefix:>10}} [{{elapsed_precise}}] {{wide_bar}} {{percent:>3}}% \
                     {{pos}}/{{len}} {unit} eta {{eta}} {{msg}}"
                ))
                .expect("the progress template is valid"),
            );
            bar.set_prefix(what.to_string());
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        } else {
            ProgressBar::hidden()
        };
        bar.set_length(len);
        let lines = show && !terminal;
        if lines {
            eprintln!("{what}: started, {len} {unit}");
        }
        let start = Instant::now();
        Progress {
            what: what.to_string(),
            start,
            bar,
            lines,
            last_line: Mutex::new(start),
        }
    }

    /// Counts `n` more steps done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if !self.lines {
            return;
        }
        let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= LINE_EVERY {
            *last = Instant::now();
            eprintln!("{}", self.status());
        }
    }

    /// Sets the note shown after the count (on the bar, and in the lines).
    pub fn set_message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// The line that tells how far the phase is.
    fn status(&self) -> String {
        let (pos, len) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let percent = (pos * 100).checked_div(len).unwrap_or(100);
        let msg = self.bar.message();
        let sep = if msg.is_empty() { "" } else { ", " };
        format!(
            "{}: {pos}/{len} ({percent}%) after {:.0} s{sep}{msg}",
            self.what,
            self.start.elapsed().as_secs_f64()
        )
    }

    /// Ends the phase: the bar is cleared, and (bar or lines) one line says what was done and in
    /// how long.
    pub fn finish(&self) {
        let shown = self.lines || !self.bar.is_hidden();
        self.bar.finish_and_clear();
        if shown {
            eprintln!(
                "{}: done, {} in {:.1} s",
                self.what,
                self.bar.position(),
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_tell_the_phase_the_count_and_the_note() {
        let p = Progress::with_stream(true, false, "verify", 200, "positions");
        p.inc(50);
        p.set_message("retro d=3".into());
        let line = p.status();
        assert!(
            line.starts_with("verify: 50/200 (25%) after ") && line.ends_with(" s, retro d=3"),
            "{line}"
        );
        p.finish();
    }

    #[test]
    fn hidden_progress_still_counts() {
        let p = Progress::with_stream(false, false, "count", 10, "positions");
        p.inc(10);
        assert!(p.status().starts_with("count: 10/10 (100%)"));
        p.finish();
    }
}
