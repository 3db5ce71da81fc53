//! Progress of a long run on stderr: only when stderr is a terminal (never
//! in a pipe, a file or CI logs), only once the run has taken a second, at
//! most four times a second, on one line rewritten in place, erased before
//! each batch of output is written (and that output flushed) and at the end.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a run goes before it shows progress.
const QUIET_FOR: Duration = Duration::from_secs(1);
/// The least time between two updates.
const EVERY: Duration = Duration::from_millis(250);

/// Lines and bytes read so far by a command (`traffic`, `validate`).
pub(crate) struct Progress {
    verb: &'static str,
    /// Whether stderr is a terminal.
    on: bool,
    started: Instant,
    next: Instant,
    lines: u64,
    bytes: u64,
    /// Whether a progress line is on screen.
    shown: bool,
}

impl Progress {
    /// Progress for `verb` (`traffic`), shown only if stderr is a terminal.
    pub(crate) fn new(verb: &'static str) -> Self {
        Progress::with(verb, std::io::stderr().is_terminal())
    }

    fn with(verb: &'static str, on: bool) -> Self {
        let now = Instant::now();
        Progress { verb, on, started: now, next: now + QUIET_FOR, lines: 0, bytes: 0, shown: false }
    }

    /// Counts `lines` more lines of `bytes` bytes; redraws if it is time.
    pub(crate) fn add(&mut self, lines: usize, bytes: usize) {
        self.lines += lines as u64;
        self.bytes += bytes as u64;
        if !self.on {
            return;
        }
        let now = Instant::now();
        if now < self.next {
            return;
        }
        self.next = now + EVERY;
        let secs = now.duration_since(self.started).as_secs_f64();
        let mb = self.bytes as f64 / 1e6;
        let line =
            format!("\r{}: {} lines, {mb:.1} MB read ({:.1} MB/s)\x1b[K", self.verb, self.lines, mb / secs.max(1e-9));
        let mut err = std::io::stderr().lock();
        // Progress is a courtesy: a closed stderr does not stop the run.
        let _ = err.write_all(line.as_bytes()).and_then(|()| err.flush());
        self.shown = true;
    }

    /// Whether progress may be drawn (stderr is a terminal).
    pub(crate) fn on(&self) -> bool {
        self.on
    }

    /// Erases the progress line, if one is shown, before output that may
    /// share its terminal (the next [`Progress::add`] draws it again).
    pub(crate) fn hide(&mut self) {
        self.finish();
    }

    /// Erases the progress line, if one is shown.
    pub(crate) fn finish(&mut self) {
        if self.shown {
            self.shown = false;
            let _ = std::io::stderr().write_all(b"\r\x1b[K");
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_the_terminal_nothing_is_drawn() {
        let mut p = Progress::with("traffic", false);
        p.next = Instant::now() - Duration::from_secs(1);
        p.add(10, 100);
        assert!(!p.shown);
        assert_eq!((p.lines, p.bytes), (10, 100));
    }
}
