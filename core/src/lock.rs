//! Lock hashing: each contract revision is pinned by the SHA-256 of
//! its canonical JSON (RFC 8785: keys sorted by UTF-16 code units, numbers in
//! their ECMAScript form, minimal string escapes), so whitespace and key order
//! never matter and any other edit does, descriptions included (a silently
//! changed tool description is the classic "rug pull").
//!
//! `protocolarc.lock` is a small JSON document, sorted and stable:
//! `{"version": 1, "contracts": [{"name", "revision", "sha256"}]}`.
//! [`compare`] is the one comparison of a lock with the contracts, and
//! [`Drift::message`] its one wording, for `lock --check` and `check` alike.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::chain::CheckRule;

use crate::json::canonical::string;
use crate::json::tree::{parse, Node, TreeError, Value};

/// RFC 8785 canonical JSON of a document. A number beyond IEEE 754 double
/// range has no canonical form: an error, as RFC 8785 requires.
///
/// Keys are sorted, whitespace goes, numbers are written as ECMAScript
/// writes them:
///
/// ```
/// use protocolarc_core::lock::canonical_json;
///
/// let text = canonical_json(br#"{ "c": 1e2, "b": 1.0, "a": [true, null, "x"] }"#).unwrap();
/// assert_eq!(text, r#"{"a":[true,null,"x"],"b":1,"c":100}"#);
/// assert!(canonical_json(b"1e400").is_err());
/// ```
pub fn canonical_json(bytes: &[u8]) -> Result<String, TreeError> {
    let root = parse(bytes)?;
    let mut out = String::with_capacity(bytes.len());
    write(&root, &mut out)?;
    Ok(out)
}

/// The lowercase hex SHA-256 of a document's canonical JSON.
///
/// Layout and key order do not change it:
///
/// ```
/// use protocolarc_core::lock::digest;
///
/// let a = digest(br#"{ "c": 1e2, "b": 1.0, "a": [true, null, "x"] }"#).unwrap();
/// assert_eq!(a, "165aaf007e4a5ef6a349288946ce1f5f50d69687d1dc959ade7fdc9fe58ab1b9");
/// assert_eq!(digest(br#"{"a":[true,null,"x"],"b":1,"c":100}"#).unwrap(), a);
/// ```
pub fn digest(bytes: &[u8]) -> Result<String, TreeError> {
    let canonical = canonical_json(bytes)?;
    let hash = Sha256::digest(canonical.as_bytes());
    let mut hex = String::with_capacity(64);
    for b in hash {
        let _ = write!(hex, "{b:02x}");
    }
    Ok(hex)
}

fn write(node: &Node, out: &mut String) -> Result<(), TreeError> {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(d) => match d.raw().parse::<f64>() {
            Ok(v) if v.is_finite() => out.push_str(&es_number(d.raw())),
            _ => {
                let message =
                    format!("number {} is beyond IEEE 754 double range: RFC 8785 has no form for it", d.raw());
                return Err(TreeError { offset: node.offset, message });
            }
        },
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out)?;
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<&(crate::json::tree::Key, Node)> = members.iter().collect();
            sorted.sort_by(|a, b| a.0.name.encode_utf16().cmp(b.0.name.encode_utf16()));
            out.push('{');
            for (i, (k, v)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(&k.name, out);
                out.push(':');
                write(v, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A JSON number in its ECMAScript `Number.prototype.toString` form (RFC 8785
/// §3.2.2.3): the shortest digits that read back as the same double.
pub fn es_number(raw: &str) -> String {
    let v: f64 = raw.parse().unwrap_or(0.0);
    if !v.is_finite() {
        // Beyond a double (I-JSON forbids it): kept as written.
        return raw.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    // `{:e}` gives the shortest round-trip digits: `d.ddde±x`.
    let sci = format!("{:e}", v.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let mut digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    // When the double lies exactly halfway between two shortest spellings,
    // ECMAScript takes the one whose last digit is even; Rust may not.
    if let Some(even) = even_tie(v.abs(), &digits, exp) {
        digits = even;
    }
    let k = digits.len() as i32;
    let n = exp + 1;
    let mut out = String::new();
    if v < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.push_str(&"0".repeat((n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let e = n - 1;
        let _ = write!(out, "e{}{}", if e >= 0 { "+" } else { "-" }, e.abs());
    }
    out
}

/// The even neighbour of `digits` (shortest round-trip digits of `v`, first
/// digit at 10^`exp`) when `v` is exactly halfway between the two.
fn even_tie(v: f64, digits: &str, exp: i32) -> Option<String> {
    let last = digits.bytes().last()? - b'0';
    if last.is_multiple_of(2) {
        return None;
    }
    // The exact decimal expansion of the double (Rust prints it exactly
    // given enough precision), trailing zeros dropped.
    let exact = format!("{v:.1100e}");
    let (mantissa, e) = exact.split_once('e')?;
    if e.parse::<i32>().ok()? != exp {
        return None;
    }
    let exact_digits = mantissa.replace('.', "");
    let exact_digits = exact_digits.trim_end_matches('0');
    // Halfway above the lower neighbour means: lower digits, then a 5.
    let lower = format!("{}{}", &digits[..digits.len() - 1], last - 1);
    let halfway_above_lower = format!("{lower}5");
    let reads_back = |d: &str| format!("{}.{}0e{exp}", &d[..1], &d[1..]).parse::<f64>().ok() == Some(v);
    if exact_digits == halfway_above_lower && reads_back(&lower) {
        return Some(lower);
    }
    // Or halfway below the upper neighbour.
    if last < 9 && exact_digits == format!("{digits}5") {
        let upper = format!("{}{}", &digits[..digits.len() - 1], last + 1);
        if reads_back(&upper) {
            return Some(upper);
        }
    }
    None
}

/// One pinned revision.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pin {
    /// The contract name.
    pub name: String,
    /// The pinned revision, as its contract file writes it.
    pub revision: String,
    /// The SHA-256 of the revision's canonical JSON (RFC 8785), as 64
    /// lowercase hex digits.
    pub sha256: String,
}

/// The lock file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// The lock file format; `1`, the only version this tool reads and
    /// writes.
    pub version: u32,
    /// The pins, sorted by name then semver revision.
    pub contracts: Vec<Pin>,
}

impl Lock {
    /// A lock of these pins, sorted by name then semver revision.
    pub fn new(mut pins: Vec<Pin>) -> Lock {
        pins.sort_by(|a, b| {
            let ver = |p: &Pin| semver::Version::parse(&p.revision).ok();
            a.name.cmp(&b.name).then_with(|| ver(a).cmp(&ver(b))).then_with(|| a.revision.cmp(&b.revision))
        });
        Lock { version: 1, contracts: pins }
    }

    /// The file's text: pretty JSON, one pin per line, trailing newline.
    pub fn to_text(&self) -> String {
        let mut out = String::from("{\n  \"version\": 1,\n  \"contracts\": [\n");
        for (i, p) in self.contracts.iter().enumerate() {
            let line = serde_json::to_string(p).unwrap_or_default();
            out.push_str("    ");
            out.push_str(&line);
            out.push_str(if i + 1 < self.contracts.len() { ",\n" } else { "\n" });
        }
        out.push_str("  ]\n}\n");
        out
    }

    /// Reads a lock file's text.
    pub fn parse(text: &str) -> Result<Lock, String> {
        let lock: Lock = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if lock.version != 1 {
            return Err(format!("unsupported lock version {} (this tool writes version 1)", lock.version));
        }
        Ok(lock)
    }

    /// The pin of `name` at `revision` (compared as text); `None` when the
    /// lock does not pin it.
    pub fn find(&self, name: &str, revision: &str) -> Option<&Pin> {
        self.contracts.iter().find(|p| p.name == name && p.revision == revision)
    }
}

/// A revision the lock does not pin (or no lock file at all).
pub const LOCK_MISSING: &CheckRule = &CheckRule {
    id: "lock.missing",
    summary: "a revision is not pinned in the lock file (or there is no lock file)",
    explanation: "The lock pins the SHA-256 of every revision's canonical JSON (RFC 8785), so that any edit to a \
                  revision, descriptions included, shows up in review. A revision without a pin has never been \
                  through that review.",
    example: "contracts/t_1.1.0.json is added and the lock still lists only t.call 1.0.0",
    fix: "Run `cargo protocolarc lock` and commit the lock file with the contract.",
};

/// A revision whose content is not what its pin says, or a pin with no revision.
pub const LOCK_MISMATCH: &CheckRule = &CheckRule {
    id: "lock.mismatch",
    summary: "a revision's canonical content no longer has its pinned SHA-256, or a pin has no contract",
    explanation: "Whitespace and key order never change the digest (it is taken over canonical JSON); any other \
                  edit does, descriptions included: a silently changed tool description (the \"rug pull\") fails \
                  here. A pin whose revision no contract file defines any more fails too.",
    example: "the `doc` of t.call 1.0.0 is edited after `cargo protocolarc lock` pinned it",
    fix: "If the revision is unpublished, run `cargo protocolarc lock` and commit the lock; if it is published, \
          undo the edit and publish a new revision instead.",
};

/// One way the pins and the contracts disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift<'a> {
    /// A revision the lock does not pin.
    Unpinned(&'a Pin),
    /// A revision whose content is not the pinned one.
    Changed {
        /// The pin the lock holds.
        pinned: &'a Pin,
        /// The pin of the revision as it is now (same name and revision, another
        /// digest).
        now: &'a Pin,
    },
    /// A pin that no contract defines any more.
    Orphan(&'a Pin),
}

impl Drift<'_> {
    /// `lock.missing` or `lock.mismatch`.
    pub fn rule(&self) -> &'static CheckRule {
        match self {
            Drift::Unpinned(_) => LOCK_MISSING,
            Drift::Changed { .. } | Drift::Orphan(_) => LOCK_MISMATCH,
        }
    }

    /// The revision it is about: the contracts' pin, or the orphan pin.
    pub fn pin(&self) -> &Pin {
        match self {
            Drift::Unpinned(p) | Drift::Orphan(p) => p,
            Drift::Changed { now, .. } => now,
        }
    }

    /// What is wrong, naming the lock file as the user knows it.
    pub fn message(&self, lock_file: &str) -> String {
        match self {
            Drift::Unpinned(_) => format!("not pinned in {lock_file}: run `cargo protocolarc lock`"),
            Drift::Changed { pinned, now } => format!(
                "content changed since it was pinned in {lock_file} (sha256 {} pinned, {} now)",
                short(&pinned.sha256),
                short(&now.sha256)
            ),
            Drift::Orphan(_) => "pinned, but no contract file defines it any more".to_string(),
        }
    }
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// How a lock differs from the contracts' current pins: each current revision
/// unpinned or changed, in the order of `current`, then each orphan pin in the
/// order of `lock`.
pub fn compare<'a>(lock: &'a Lock, current: &'a [Pin]) -> Vec<Drift<'a>> {
    let mut out = Vec::new();
    for now in current {
        match lock.find(&now.name, &now.revision) {
            None => out.push(Drift::Unpinned(now)),
            Some(pinned) if pinned.sha256 != now.sha256 => out.push(Drift::Changed { pinned, now }),
            Some(_) => {}
        }
    }
    for pin in &lock.contracts {
        if !current.iter().any(|c| c.name == pin.name && c.revision == pin.revision) {
            out.push(Drift::Orphan(pin));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_take_their_ecmascript_form() {
        let cases = [
            ("0", "0"),
            ("-0", "0"),
            ("1.0", "1"),
            ("1e2", "100"),
            ("0.5", "0.5"),
            ("-1.25", "-1.25"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("123456789012345678901234", "1.2345678901234569e+23"),
            ("0.000001", "0.000001"),
            ("0.0000001", "1e-7"),
            ("4.5e-7", "4.5e-7"),
            ("19.99", "19.99"),
            ("1E400", "1E400"),
            // Halfway between two shortest spellings: the even digit.
            ("852325852412319.2", "852325852412319.2"),
            ("797297771533269.2", "797297771533269.2"),
            ("94614632987514.12", "94614632987514.12"),
        ];
        for (raw, want) in cases {
            assert_eq!(es_number(raw), want, "{raw}");
        }
    }

    #[test]
    fn canonical_json_follows_rfc_8785() {
        // RFC 8785 §3.2.3 sorts by UTF-16 code units: "\u{e9}" (0xE9) before
        // "\u{1F600}" (0xD83D) although its code point is lower, and after "z".
        let doc = "{\"z\": 1, \"\u{1F600}\": 2, \"\u{e9}\": 3, \"a\": [1.50, \"x\\u0041\\n\"]}";
        assert_eq!(
            canonical_json(doc.as_bytes()).unwrap(),
            "{\"a\":[1.5,\"xA\\n\"],\"z\":1,\"\u{e9}\":3,\"\u{1F600}\":2}"
        );
        assert_eq!(digest(b"{ \"b\": 1,\n \"a\": true }").unwrap(), digest(br#"{"a":true,"b":1}"#).unwrap());
        assert_ne!(digest(br#"{"a":true}"#).unwrap(), digest(br#"{"a":false}"#).unwrap());
        let beyond = canonical_json(br#"{"a": 1E400}"#).unwrap_err();
        assert_eq!(beyond.message, "number 1E400 is beyond IEEE 754 double range: RFC 8785 has no form for it");
        assert_eq!(
            digest(b"{}").unwrap(),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
            "sha256 of \"{{}}\""
        );
    }

    #[test]
    fn lock_text_round_trips_sorted() {
        let pin = |n: &str, r: &str| Pin { name: n.into(), revision: r.into(), sha256: "ab".into() };
        let lock = Lock::new(vec![pin("b", "1.0.0"), pin("a", "10.0.0"), pin("a", "2.0.0")]);
        let text = lock.to_text();
        assert_eq!(
            text,
            "{\n  \"version\": 1,\n  \"contracts\": [\n    \
             {\"name\":\"a\",\"revision\":\"2.0.0\",\"sha256\":\"ab\"},\n    \
             {\"name\":\"a\",\"revision\":\"10.0.0\",\"sha256\":\"ab\"},\n    \
             {\"name\":\"b\",\"revision\":\"1.0.0\",\"sha256\":\"ab\"}\n  ]\n}\n"
        );
        assert_eq!(Lock::parse(&text).unwrap(), lock);
        assert!(Lock::parse("{\"version\": 2, \"contracts\": []}").unwrap_err().contains("unsupported lock version 2"));
    }

    #[test]
    fn compare_finds_unpinned_changed_and_orphan_pins() {
        let pin = |n: &str, r: &str, h: &str| Pin { name: n.into(), revision: r.into(), sha256: h.into() };
        let lock =
            Lock::new(vec![pin("a", "1.0.0", "0123456789abcdef"), pin("a", "2.0.0", "ff"), pin("z", "1.0.0", "aa")]);
        let current = [pin("a", "1.0.0", "fedcba9876543210"), pin("a", "2.0.0", "ff"), pin("b", "1.0.0", "cc")];
        let drift = compare(&lock, &current);
        let shown: Vec<String> = drift
            .iter()
            .map(|d| format!("{} {}@{}: {}", d.rule(), d.pin().name, d.pin().revision, d.message("x.lock")))
            .collect();
        assert_eq!(
            shown,
            [
                "lock.mismatch a@1.0.0: content changed since it was pinned in x.lock (sha256 0123456789ab pinned, \
                 fedcba987654 now)",
                "lock.missing b@1.0.0: not pinned in x.lock: run `cargo protocolarc lock`",
                "lock.mismatch z@1.0.0: pinned, but no contract file defines it any more",
            ]
        );
    }
}
