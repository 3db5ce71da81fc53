//! Dotted field paths: `params.name`, `params.messages[].role`, `tags[]`,
//! `capabilities.experimental{}` (every value of a map), `a["k.y"]`.

use std::fmt;

/// One step of a path: an object key, then the `[]` and `{}` steps that
/// follow it (`[]` steps into the elements of an array, `{}` into the values
/// of an object used as a map).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Segment {
    /// The object key, without its steps.
    pub key: String,
    /// The steps after the key, in order: none for a plain key, `[Items]`
    /// for `tags[]`, `[Values, Items]` for `m{}[]`.
    pub steps: Vec<Step>,
}

/// A step into a container's members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// `[]`: every element of an array.
    Items,
    /// `{}`: every value of an object used as a map.
    Values,
}

impl Step {
    /// `[]` or `{}`.
    pub fn text(self) -> &'static str {
        match self {
            Step::Items => "[]",
            Step::Values => "{}",
        }
    }
}

/// A parsed field path, with its text as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldPath {
    text: String,
    segments: Vec<Segment>,
}

impl FieldPath {
    /// Parses a dotted path; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<FieldPath, String> {
        if text.is_empty() {
            return Err("empty field path".into());
        }
        if text.chars().any(crate::json::text::is_unprintable) {
            let shown = crate::json::text::quote(text, 80);
            return Err(format!("path {shown} contains a control character (a line break would forge output lines)"));
        }
        let mut segments = Vec::new();
        let mut depth = 0;
        let mut rest = text;
        loop {
            let (key, after) = if rest.starts_with("[\"") {
                bracketed(text, rest)?
            } else {
                let end = rest.find(['.', '[', '{']).unwrap_or(rest.len());
                let (key, after) = rest.split_at(end);
                if key.is_empty() {
                    return Err(if after.starts_with("[]") || after.starts_with("{}") {
                        format!("path '{text}': '{}' must follow a key", &after[..2])
                    } else {
                        format!("path '{text}' has an empty segment")
                    });
                }
                if key.contains([']', '{', '}', '"', '\\']) {
                    return Err(format!(
                        "path '{text}': key '{key}' must be written [\"...\"] (it holds ], {{, }}, \" or \\)"
                    ));
                }
                (key.to_string(), after)
            };
            let mut steps = Vec::new();
            let mut after = after;
            loop {
                if let Some(next) = after.strip_prefix("[]") {
                    steps.push(Step::Items);
                    after = next;
                } else if let Some(next) = after.strip_prefix("{}") {
                    steps.push(Step::Values);
                    after = next;
                } else {
                    break;
                }
            }
            depth += 1 + steps.len();
            if depth > crate::json::MAX_DEPTH {
                let shown = crate::json::text::quote(text, 40);
                return Err(format!("path {shown} nests deeper than {} levels", crate::json::MAX_DEPTH));
            }
            segments.push(Segment { key, steps });
            if after.is_empty() {
                break;
            }
            if let Some(next) = after.strip_prefix('.') {
                if next.is_empty() {
                    return Err(format!("path '{text}' has an empty segment"));
                }
                rest = next;
            } else if after.starts_with("[\"") {
                rest = after;
            } else {
                let part = rest.split('.').next().unwrap_or(rest);
                if !after.starts_with('[') {
                    return Err(format!(
                        "path '{text}': key '{part}' must be written [\"...\"] (it holds ], {{, }}, \" or \\)"
                    ));
                }
                return Err(format!("path '{text}': segment '{part}' may hold '[]' and '{{}}' only at its end"));
            }
        }
        segments.shrink_to_fit();
        // The text as findings write it: `["key"]` only where a key needs it.
        let mut canonical = String::with_capacity(text.len());
        for (i, seg) in segments.iter().enumerate() {
            super::push_key(&mut canonical, i == 0, &seg.key);
            seg.steps.iter().for_each(|s| canonical.push_str(s.text()));
        }
        Ok(FieldPath { text: canonical, segments })
    }

    /// The path as written (`params.messages[].role`).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The path's steps, outermost first; never empty.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The top-level key this path starts with.
    pub fn root_key(&self) -> &str {
        &self.segments[0].key
    }
}

/// A `["key"]` segment at the start of `rest`: the decoded key and what
/// follows the closing `]`.
fn bracketed<'t>(text: &str, rest: &'t str) -> Result<(String, &'t str), String> {
    // The JSON string runs from the quote to the first unescaped quote.
    let body = &rest[1..];
    let mut escaped = false;
    let mut end = None;
    for (i, c) in body.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                end = Some(i + 1);
                break;
            }
            _ => {}
        }
    }
    let bad = || format!("path '{text}': a [\"...\"] key must be a JSON string followed by ']'");
    let end = end.ok_or_else(bad)?;
    let key: String = serde_json::from_str(&body[..end]).map_err(|_| bad())?;
    let after = body[end..].strip_prefix(']').ok_or_else(bad)?;
    Ok((key, after))
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_and_array_steps() {
        let p = FieldPath::parse("params.messages[].role").unwrap();
        assert_eq!(
            p.segments(),
            &[
                Segment { key: "params".into(), steps: vec![] },
                Segment { key: "messages".into(), steps: vec![Step::Items] },
                Segment { key: "role".into(), steps: vec![] },
            ]
        );
        assert_eq!(FieldPath::parse("grid[][]").unwrap().segments()[0].steps, [Step::Items, Step::Items]);
        let map = FieldPath::parse("caps.experimental{}.on").unwrap();
        assert_eq!(map.segments()[1].steps, [Step::Values]);
        assert_eq!(map.as_str(), "caps.experimental{}.on");
    }

    #[test]
    fn rejects_malformed_paths() {
        assert_eq!(FieldPath::parse("").unwrap_err(), "empty field path");
        assert_eq!(
            FieldPath::parse("zz\n::error::x").unwrap_err(),
            "path 'zz\\n::error::x' contains a control character (a line break would forge output lines)"
        );
        assert!(FieldPath::parse("a\u{2028}b").is_err());
        assert_eq!(FieldPath::parse("a..b").unwrap_err(), "path 'a..b' has an empty segment");
        assert_eq!(FieldPath::parse("a.").unwrap_err(), "path 'a.' has an empty segment");
        assert_eq!(FieldPath::parse("[].a").unwrap_err(), "path '[].a': '[]' must follow a key");
        assert_eq!(
            FieldPath::parse("a[0]").unwrap_err(),
            "path 'a[0]': segment 'a[0]' may hold '[]' and '{}' only at its end"
        );
        assert_eq!(FieldPath::parse("{}.a").unwrap_err(), "path '{}.a': '{}' must follow a key");
        let deep = vec!["a"; 129].join(".");
        assert_eq!(
            FieldPath::parse(&deep).unwrap_err(),
            format!("path '{}...' nests deeper than 128 levels", "a.".repeat(20))
        );
        assert!(FieldPath::parse(&vec!["a"; 128].join(".")).is_ok());
        assert!(FieldPath::parse(&format!("a{}", "[]".repeat(200_000))).is_err());
    }
}
