//! Renderers: pure functions from results to bytes. Each output the CLI
//! prints is made here, so a library user can produce the same bytes.

pub mod describe;
pub mod diff;
mod markdown;
pub mod matrix;
pub mod validation;

use std::borrow::Cow;

use serde::Serialize;

/// The version of every JSON output's shape, its first key
/// (`"format_version"`): raised when a key changes meaning or goes away, not
/// when one is added.
pub const FORMAT_VERSION: u32 = 1;

/// A JSON document with `"format_version"` as its first key.
#[derive(Serialize)]
pub struct Versioned<T: Serialize> {
    /// Always [`FORMAT_VERSION`] when built with [`versioned`].
    pub format_version: u32,
    #[serde(flatten)]
    /// The document; its keys are written after `format_version`, at the same
    /// level (flattened), so `T` must serialize as a map.
    pub doc: T,
}

/// `doc` with the current [`FORMAT_VERSION`] first.
pub fn versioned<T: Serialize>(doc: T) -> Versioned<T> {
    Versioned { format_version: FORMAT_VERSION, doc }
}

/// Free text from a contract (a title, a doc, a kind) made safe for one
/// output line: control characters and the Unicode line separators are
/// written as escapes (`\n`, `\u{1b}`), so no text can start a line of its
/// own (a CI workflow command, a forged `[PASS]`).
pub fn one_line(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn free_text_stays_on_one_line() {
        assert_eq!(one_line("plain text"), "plain text");
        assert_eq!(one_line("a\n::error::x\r\t\u{1b}[31m\u{2028}"), "a\\n::error::x\\r\\t\\u{1b}[31m\\u{2028}");
    }
}
