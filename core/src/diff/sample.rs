//! Candidate values for witnesses: for a field, values of each type it accepts
//! near every bound, multiple and length that either revision names, strings
//! drawn from its pattern, its enum members. Candidates are proposals only:
//! `witness.rs` keeps a body only after both validators have judged it.

use regex_syntax::hir::{Class, Hir, HirKind};

use crate::contract::Constraints;
use crate::json::number::Decimal;

/// A JSON value under construction (numbers kept as written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum J {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    /// Compact JSON text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) => out.push_str(n),
            J::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())),
            J::Arr(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write(out);
                }
                out.push(']');
            }
            J::Obj(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).unwrap_or_else(|_| "\"\"".into()));
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Strings the asserted `format` accepts, and strings close to it that it
/// rejects (`format.rs` judges them; a sample is only a proposal).
pub(super) fn format_samples(format: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match format {
        "byte" => (&["AAAA", ""], &["*", "A"]),
        "date" => (&["2024-01-01"], &["2024-13-01", "2024-01-01T00:00:00Z"]),
        "date-time" => (&["2024-01-01T00:00:00Z"], &["2024-01-01", "2024-01-01T00:00:00"]),
        "duration" => (&["P1D"], &["1D", "P"]),
        "email" => (&["a@example.com"], &["a", "a@"]),
        "hostname" => (&["example.com"], &["-example.com", "a..b"]),
        "ipv4" => (&["127.0.0.1"], &["256.0.0.1", "1.2.3"]),
        "ipv6" => (&["::1"], &["1:::2", "127.0.0.1"]),
        "json-pointer" => (&["/a", ""], &["a", "/~2"]),
        "regex" => (&["^a$"], &["(", "[a"]),
        "time" => (&["00:00:00Z"], &["24:00:00Z", "00:00:00"]),
        "uri" => (&["https://example.com"], &["example", "a b"]),
        "uri-reference" => (&["https://example.com", "/a"], &["a b", "\\"]),
        "uri-template" => (&["https://example.com/{id}"], &["{", "}"]),
        "uuid" => (&["00000000-0000-0000-0000-000000000000"], &["x", "00000000-0000-0000-0000-00000000000"]),
        _ => (&[], &[]),
    }
}

/// One value of every JSON type.
pub(super) fn every_type() -> Vec<J> {
    vec![
        J::Str("x".into()),
        J::Num("1".into()),
        J::Num("0.5".into()),
        J::Bool(true),
        J::Null,
        J::Obj(Vec::new()),
        J::Arr(Vec::new()),
    ]
}

/// Strings around every revision's length bounds, and strings drawn from
/// every revision's pattern, padded to each of those lengths.
pub(super) fn strings(all: &[&Constraints]) -> Vec<String> {
    let mut lengths: Vec<u64> = vec![0, 1];
    for c in all {
        lengths.extend(
            [c.min_length, c.min_length.map(|n| n.saturating_sub(1)), c.max_length, c.max_length.map(|n| n + 1)]
                .into_iter()
                .flatten(),
        );
    }
    lengths.sort_unstable();
    lengths.dedup();
    let mut out = Vec::new();
    for c in all {
        if let Some(p) = &c.pattern {
            for s in pattern_samples(p.source()) {
                for &len in &lengths {
                    out.push(fit(&s, len as usize));
                }
                out.push(s);
            }
        }
    }
    for &len in &lengths {
        out.push("x".repeat(len.min(100_000) as usize));
    }
    out.extend(["other".to_string(), "0".to_string(), "A".to_string()]);
    // Last, so that the plainer candidates above are tried first.
    for c in all {
        if let Some(p) = &c.pattern {
            out.extend(pattern_misses(p.source()));
        }
    }
    out
}

/// `s` padded (with its own last character) or cut to `len` characters.
fn fit(s: &str, len: usize) -> String {
    let n = s.chars().count();
    if n >= len {
        return s.to_string();
    }
    let pad = s.chars().last().unwrap_or('x');
    let mut out = s.to_string();
    out.extend(std::iter::repeat_n(pad, (len - n).min(100_000)));
    out
}

/// Numbers at, inside and outside every bound, and multiples of `multipleOf`,
/// spelled at the bounds' decimal scale so the text is exact.
pub(super) fn numbers(c: &Constraints) -> Vec<String> {
    let bounds: Vec<&Decimal> =
        [&c.minimum, &c.maximum, &c.exclusive_minimum, &c.exclusive_maximum].into_iter().flatten().collect();
    let step = c.multiple_of.as_ref();
    let scale = bounds.iter().chain(step.iter()).map(|d| fraction_digits(d)).max().unwrap_or(0).min(17);
    let unit = step.map_or(1.0, |m| m.raw().parse::<f64>().unwrap_or(1.0));
    let mut raw: Vec<f64> = vec![0.0, 1.0, -1.0, 2.0, 0.5, -0.5, 100.0, unit, 2.0 * unit, 3.0 * unit, unit / 2.0];
    for b in &bounds {
        let v: f64 = b.raw().parse().unwrap_or(0.0);
        for delta in [0.0, 1.0, -1.0, 0.5, -0.5, unit, -unit] {
            raw.push(v + delta);
        }
        if step.is_some() && unit != 0.0 {
            let k = (v / unit).floor();
            for j in -1..=2 {
                raw.push((k + f64::from(j)) * unit);
            }
        }
    }
    let mut out: Vec<String> =
        raw.into_iter().filter(|v| v.is_finite()).map(|v| tidy(format!("{v:.scale$}"))).collect();
    out.extend(bounds.iter().map(|b| b.raw().to_string()));
    // Values off every grid the scale allows: half a step, and a few plain fractions.
    let fine = (scale + 1).min(18);
    out.push(tidy(format!("{:.fine$}", unit / 2.0)));
    for b in &bounds {
        let v: f64 = b.raw().parse().unwrap_or(0.0);
        out.push(tidy(format!("{:.fine$}", v + unit / 2.0)));
        out.push(tidy(format!("{:.fine$}", v - unit / 2.0)));
    }
    out.extend(["1.5", "0.25", "0.001", "-1.5"].map(String::from));
    out
}

/// `1.50` -> `1.5`, `2.00` -> `2`, `-0.0` -> `0`: the same value, plainly.
fn tidy(text: String) -> String {
    let mut t = text;
    if t.contains('.') {
        let keep = t.trim_end_matches('0').trim_end_matches('.').len();
        t.truncate(keep);
    }
    if t == "-0" {
        t = "0".into();
    }
    t
}

/// Digits after the decimal point a decimal needs.
fn fraction_digits(d: &Decimal) -> usize {
    let mut canon = String::new();
    d.dec().canonical(&mut canon);
    let Some((digits, exp)) = canon.trim_start_matches('-').split_once('e') else { return 0 };
    let exp: i64 = exp.parse().unwrap_or(0);
    (digits.len() as i64 - 1 - exp).max(0) as usize
}

/// A few strings matching a pattern (up to look-arounds and anchors, which
/// the validator settles): the shortest, and variants taking other branches,
/// characters and repetition counts.
pub(super) fn pattern_samples(pattern: &str) -> Vec<String> {
    let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else { return Vec::new() };
    (0..4).map(|variant| draw(&hir, variant)).collect()
}

/// Strings that come close to a pattern but miss it: each drawn like a
/// match, but with one character class answered from its complement (`a`
/// for `[^a]`, a space for `\w`, a line break for `.`), and the plain
/// matches with a character before or after (which breaks an anchor). A
/// new pattern rejects some of them while the old revision accepted them:
/// that is the witness of a pattern added or tightened.
pub(super) fn pattern_misses(pattern: &str) -> Vec<String> {
    let Ok(hir) = regex_syntax::Parser::new().parse(pattern) else { return Vec::new() };
    let mut out = Vec::new();
    for k in 0..8 {
        let mut draw = Draw { variant: 0, miss: Some(k), classes: 0, out: String::new() };
        draw.emit(&hir, 0);
        let reached = draw.classes > k;
        out.push(draw.out);
        if !reached {
            break;
        }
    }
    for s in [draw(&hir, 0), draw(&hir, 2)] {
        out.push(format!(" {s}"));
        out.push(format!("{s}\n"));
    }
    out
}

fn draw(hir: &Hir, variant: usize) -> String {
    let mut d = Draw { variant, miss: None, classes: 0, out: String::new() };
    d.emit(hir, 0);
    d.out
}

/// One string being drawn from a pattern.
struct Draw {
    /// Which branch, range end and repetition count to take.
    variant: usize,
    /// The character class (counted in drawing order) to answer from its
    /// complement; repetitions then run at least once, so it is reached.
    miss: Option<usize>,
    /// Character classes drawn so far.
    classes: usize,
    out: String,
}

impl Draw {
    /// Whether this class is the one to miss.
    fn missing(&mut self) -> bool {
        self.classes += 1;
        self.miss == Some(self.classes - 1)
    }

    fn emit(&mut self, hir: &Hir, depth: usize) {
        if depth > 64 || self.out.len() > 4096 {
            return;
        }
        let variant = self.variant;
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Literal(lit) => self.out.push_str(&String::from_utf8_lossy(&lit.0)),
            HirKind::Class(Class::Unicode(class)) => {
                if self.missing() {
                    let mut other = class.clone();
                    other.negate();
                    // A printable character where the complement has one.
                    let printable = other
                        .ranges()
                        .iter()
                        .find_map(|r| (r.start()..=r.end()).find(|c| !c.is_control()).filter(|_| r.end() >= ' '));
                    if let Some(c) = printable.or_else(|| other.ranges().first().map(|r| r.start())) {
                        self.out.push(c);
                    }
                    return;
                }
                let ranges = class.ranges();
                if let Some(r) = ranges.get(variant % ranges.len().max(1)) {
                    let c = if variant.is_multiple_of(2) { r.start() } else { r.end() };
                    self.out.push(c);
                }
            }
            HirKind::Class(Class::Bytes(class)) => {
                if self.missing() {
                    let mut other = class.clone();
                    other.negate();
                    if let Some(r) = other.ranges().iter().find(|r| r.start() < 0x80) {
                        self.out.push(char::from(r.start().max(b' ').min(r.end())));
                    }
                    return;
                }
                let ranges = class.ranges();
                if let Some(r) = ranges.get(variant % ranges.len().max(1)) {
                    let b = if variant.is_multiple_of(2) { r.start() } else { r.end() };
                    self.out.push(char::from(b.min(0x7f)));
                }
            }
            HirKind::Repetition(rep) => {
                let extra = u32::from(variant >= 2 || self.miss.is_some());
                let n = rep.max.map_or(rep.min + extra, |max| (rep.min + extra).min(max)).min(64);
                for _ in 0..n {
                    self.emit(&rep.sub, depth + 1);
                }
            }
            HirKind::Capture(cap) => self.emit(&cap.sub, depth + 1),
            HirKind::Concat(parts) => {
                for p in parts {
                    self.emit(p, depth + 1);
                }
            }
            HirKind::Alternation(branches) => {
                if let Some(b) = branches.get(variant % branches.len().max(1)) {
                    self.emit(b, depth + 1);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_samples_match_their_pattern() {
        for p in ["^[0-9a-f]{8}-[0-9a-f]{4}$", "^(user|agent)$", "b+c", "^[a-z]+/[a-z0-9.+-]+$", "\\d{3}"] {
            let re = regex::Regex::new(p).unwrap();
            let samples = pattern_samples(p);
            assert!(samples.iter().any(|s| re.is_match(s)), "{p}: {samples:?}");
        }
    }

    #[test]
    fn pattern_misses_include_a_string_each_pattern_rejects() {
        // Each of these, added to a plain string field, once had no
        // witness although an obvious one exists.
        for p in ["^[^a]*$", "^\\w*$", "^\\S*$", "^.*$", "^(?:[^b]|b[^c])*$", "^[a-z]+$", "^abc$"] {
            let re = regex::Regex::new(p).unwrap();
            let misses = pattern_misses(p);
            assert!(misses.iter().any(|s| !re.is_match(s)), "{p}: {misses:?}");
        }
    }

    #[test]
    fn format_samples_are_judged_as_labelled() {
        for &name in crate::format::ASSERTED {
            let (good, bad) = format_samples(name);
            assert!(!good.is_empty() && !bad.is_empty(), "{name}");
            for s in good {
                assert_eq!(crate::format::check(name, s), Some(true), "{name}: {s:?}");
            }
            for s in bad {
                assert_eq!(crate::format::check(name, s), Some(false), "{name}: {s:?}");
            }
        }
    }

    #[test]
    fn numbers_are_spelled_at_the_bound_scale() {
        let c = Constraints {
            minimum: Decimal::parse("0.0075"),
            multiple_of: Decimal::parse("0.0001"),
            ..Constraints::default()
        };
        let n = numbers(&c);
        assert!(n.contains(&"0.0075".to_string()), "{n:?}");
        assert!(n.contains(&"0.0074".to_string()), "{n:?}");
        assert!(n.iter().all(|s| Decimal::parse(s).is_some()), "{n:?}");
    }
}
