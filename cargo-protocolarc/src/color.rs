//! Colour on a terminal: `--color auto|always|never`, `CARGO_TERM_COLOR`
//! (the default for `--color`, as cargo reads it) and `NO_COLOR` (no colour
//! unless `--color always`). `auto` colours only a terminal, never redirected
//! output.
//!
//! The renderers stay pure (the same bytes for every run); colour is added
//! here, line by line, to the few line starts that carry a verdict (`[PASS]`,
//! `[FAIL]`, `ERROR`, `WARNING`, `compatibility: ...`, a change's impact).
//! JSON, Markdown and annotations never start a line that way.

use std::io::{self, Write};

use clap::ValueEnum;

/// When to colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always, even into a file or pipe.
    Always,
    /// Never.
    Never,
}

/// Whether to colour, from the flag (if given), the environment and whether
/// stdout is a terminal.
pub(crate) fn enabled(flag: Option<ColorChoice>, env: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    let from_cargo = env("CARGO_TERM_COLOR").and_then(|v| ColorChoice::from_str(v.trim(), true).ok());
    match flag.or(from_cargo).unwrap_or(ColorChoice::Auto) {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && env("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

const RED: &str = "\x1b[31m";
const BOLD_RED: &str = "\x1b[1;31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// Line starts that carry a verdict, and their colour.
const STARTS: &[(&str, &str)] = &[
    ("[PASS]", GREEN),
    ("[FAIL]", BOLD_RED),
    ("  ERROR ", RED),
    ("  WARNING ", YELLOW),
    ("compatibility: BREAKING", BOLD_RED),
    ("compatibility: FORWARD", YELLOW),
    ("compatibility: COMPATIBLE", GREEN),
    ("  breaking ", RED),
    ("  forward ", YELLOW),
    ("  compatible ", GREEN),
];

/// A writer that colours verdict line starts; bytes pass through otherwise.
pub(crate) struct Colored<'w> {
    inner: &'w mut dyn Write,
    line: Vec<u8>,
}

impl<'w> Colored<'w> {
    pub(crate) fn new(inner: &'w mut dyn Write) -> Self {
        Colored { inner, line: Vec::new() }
    }

    fn emit_line(&mut self) -> io::Result<()> {
        let line = std::mem::take(&mut self.line);
        let hit = STARTS.iter().find(|(start, _)| line.starts_with(start.as_bytes()));
        match hit {
            Some((start, color)) => {
                // Keep leading spaces uncoloured; colour the word.
                let word_at = start.len() - start.trim_start().len();
                let word_end = start.trim_end().len();
                self.inner.write_all(&line[..word_at])?;
                self.inner.write_all(color.as_bytes())?;
                self.inner.write_all(&line[word_at..word_end])?;
                self.inner.write_all(RESET.as_bytes())?;
                self.inner.write_all(&line[word_end..])
            }
            None => self.inner.write_all(&line),
        }?;
        self.line = line;
        self.line.clear();
        Ok(())
    }
}

impl Write for Colored<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for chunk in buf.split_inclusive(|&b| b == b'\n') {
            self.line.extend_from_slice(chunk);
            if chunk.ends_with(b"\n") {
                self.emit_line()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.emit_line()?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn the_choice_follows_flag_then_cargo_then_terminal_and_no_color() {
        assert!(enabled(None, env(&[]), true));
        assert!(!enabled(None, env(&[]), false));
        assert!(!enabled(None, env(&[("NO_COLOR", "1")]), true));
        assert!(enabled(None, env(&[("NO_COLOR", "")]), true));
        assert!(enabled(Some(ColorChoice::Always), env(&[("NO_COLOR", "1")]), false));
        assert!(!enabled(Some(ColorChoice::Never), env(&[]), true));
        assert!(enabled(None, env(&[("CARGO_TERM_COLOR", "always")]), false));
        assert!(!enabled(None, env(&[("CARGO_TERM_COLOR", "never")]), true));
        assert!(!enabled(Some(ColorChoice::Never), env(&[("CARGO_TERM_COLOR", "always")]), true));
    }

    #[test]
    fn verdict_words_are_coloured_and_nothing_else_changes() {
        let mut out = Vec::new();
        let mut w = Colored::new(&mut out);
        w.write_all(b"[PASS] a@1.0.0 <- f:1\n[FAIL] a@1.0.0 <- f:2\n  ERROR field.type x: m\n  WARN").unwrap();
        w.write_all(b"ING revision.hint <envelope>: m\n{\"status\":\"fail\"}\n  breaking field.type.narrowed id: x")
            .unwrap();
        w.flush().unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\x1b[32m[PASS]\x1b[0m a@1.0.0 <- f:1\n\x1b[1;31m[FAIL]\x1b[0m a@1.0.0 <- f:2\n  \x1b[31mERROR\x1b[0m \
             field.type x: m\n  \x1b[33mWARNING\x1b[0m revision.hint <envelope>: m\n{\"status\":\"fail\"}\n  \
             \x1b[31mbreaking\x1b[0m field.type.narrowed id: x"
        );
    }
}
