//! The validation keywords, each written once per face, side by side: the
//! runtime check (`is_valid` or `faults`: what every mode of the schema
//! walker in `walk/schema/` calls, and the contract loader for enum members), the message a
//! finding gets (built only when collect mode makes a finding), and, with the
//! feature `codegen`, what the generated check compiles of it (the code
//! `codegen/schema_check.rs` emits calls back into `fast.rs` and the walker,
//! never a copy of the rule).
//!
//! A new keyword is one more module here: its check, its message, its
//! emitter. The walker reads it where the value it judges is read, and a
//! fault is a fault in every mode (a collecting mode writes it, the
//! first-fault mode stops).

use std::borrow::Cow;
use std::cmp::Ordering;

mod values;

use crate::json::number::{Dec, Decimal};
use crate::json::text::{quote, Str};
use crate::rules;
use crate::rules::Rule;
pub(crate) use values::Sparse;
pub use values::{enum_label, Constraints, JsonType, Pattern, Scalar, TypeSet};

/// Longest value quoted in a message, in characters.
pub(crate) const QUOTE_MAX: usize = 80;
/// How many members a message lists of an `enum` (or a union's tags); the
/// rest are counted, so a finding against a 200,000-value enum stays short.
pub(crate) const LIST_MAX: usize = 5;
/// The most bytes one finding's message holds; past it the message is cut
/// at a character boundary and ends with `...`.
pub const MESSAGE_MAX: usize = 1024;

/// `{'a', 'b'}`; past [`LIST_MAX`] members, the first few and the count:
/// `{'a', 'b', 'c', 'd', 'e', ... (200000 values)}`. Each member is shown by
/// `show` and cut to [`QUOTE_MAX`] characters.
pub(crate) fn members_label<T>(values: &[T], show: impl Fn(&T) -> String) -> String {
    let mut inner: Vec<String> = values.iter().take(LIST_MAX).map(|v| cut(show(v), QUOTE_MAX)).collect();
    if values.len() > LIST_MAX {
        inner.push(format!("... ({} values)", values.len()));
    }
    format!("{{{}}}", inner.join(", "))
}

/// `text` cut to at most `max` characters, ending `...` when cut.
pub(crate) fn cut(text: String, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text,
        Some((at, _)) => format!("{}...", &text[..at]),
    }
}

/// A finding's message within [`MESSAGE_MAX`] bytes.
pub(crate) fn bounded(message: std::borrow::Cow<'static, str>) -> std::borrow::Cow<'static, str> {
    if message.len() <= MESSAGE_MAX {
        return message;
    }
    let mut at = MESSAGE_MAX - 3;
    while !message.is_char_boundary(at) {
        at -= 1;
    }
    std::borrow::Cow::Owned(format!("{}...", &message[..at]))
}

/// `type`: the value's own JSON type against the field's types.
pub(crate) mod types {
    use super::*;

    #[inline]
    pub(crate) fn is_valid(types: TypeSet, actual: JsonType) -> bool {
        types.accepts(actual)
    }

    /// `expected string|null, found integer` (the types as
    /// `TypeSet::label` writes them), built without `format!` or the
    /// label's own allocations: a report with one finding is mostly this.
    /// One expected type (the common case) is a fixed sentence, not copied.
    pub(crate) fn message(types: TypeSet, actual: JsonType) -> Cow<'static, str> {
        let mut each = types.iter();
        if let (false, Some(t), None) = (types.is_any(), each.next(), each.next()) {
            return Cow::Borrowed(ONE[t as usize][actual as usize]);
        }
        let mut out = String::with_capacity(48);
        out.push_str("expected ");
        if types.is_any() {
            out.push_str("any");
        } else {
            for (i, t) in types.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                out.push_str(t.name());
            }
        }
        out.push_str(", found ");
        out.push_str(actual.name());
        Cow::Owned(out)
    }

    /// `ONE[expected][found]`, in `JsonType`'s order (`JsonType::ALL`).
    macro_rules! found {
        ($expected:literal) => {
            [
                concat!("expected ", $expected, ", found string"),
                concat!("expected ", $expected, ", found integer"),
                concat!("expected ", $expected, ", found number"),
                concat!("expected ", $expected, ", found boolean"),
                concat!("expected ", $expected, ", found object"),
                concat!("expected ", $expected, ", found array"),
                concat!("expected ", $expected, ", found null"),
            ]
        };
    }
    const ONE: [[&str; 7]; 7] = [
        found!("string"),
        found!("integer"),
        found!("number"),
        found!("boolean"),
        found!("object"),
        found!("array"),
        found!("null"),
    ];

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn one_expected_type_reads_as_the_built_sentence() {
            for t in JsonType::ALL {
                for actual in JsonType::ALL {
                    let text = message(TypeSet::of(t), actual);
                    assert!(matches!(text, Cow::Borrowed(_)));
                    assert_eq!(text, format!("expected {}, found {}", t.name(), actual.name()));
                }
            }
            let two = TypeSet::of(JsonType::String).with(JsonType::Null);
            assert_eq!(message(two, JsonType::Integer), "expected string|null, found integer");
        }
    }
}

/// `enum`: scalar members; an object or array is never a member.
pub(crate) mod enums {
    /// How an `enum` or `const` finding names the value: a scalar as
    /// written (a string quoted), an object or array by its kind ("an
    /// object"). Findings are worded through [`not_in`] and [`is_not`].
    #[derive(Clone, Copy)]
    pub(crate) enum Shown<'s> {
        Value(&'s str),
        Whole(&'static str),
    }

    /// `value 'x' not in {'a', 'b'}`, `an object is not in {'a', 'b'}`:
    /// `label` is the members as the contract writes them.
    pub(crate) fn not_in(shown: Shown<'_>, label: &str) -> String {
        match shown {
            Shown::Value(text) => format!("value {text} not in {label}"),
            Shown::Whole(what) => format!("{what} is not in {label}"),
        }
    }

    /// `value 'x' is not 'a'`, `an array is not {"x":1}`: `member` is the
    /// `const` as the contract writes it.
    pub(crate) fn is_not(shown: Shown<'_>, member: &str) -> String {
        match shown {
            Shown::Value(text) => format!("value {text} is not {member}"),
            Shown::Whole(what) => format!("{what} is not {member}"),
        }
    }
}

/// `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`,
/// `multipleOf`: exact decimal arithmetic on the number as written.
pub(crate) mod numbers {
    use super::*;

    /// The bound and `multipleOf` rules a number breaks, in rule order: the
    /// rule, its bound and how a message words it.
    pub(crate) fn faults<'c>(
        c: &'c Constraints,
        v: &Dec<'_>,
    ) -> [Option<(&'static Rule, &'c Decimal, &'static str)>; 5] {
        let bound = |b: &'c Option<Decimal>, breaks: fn(Ordering) -> bool, rule, wording| {
            b.as_ref().filter(|m| breaks(v.compare(&m.dec()))).map(|m| (rule, m, wording))
        };
        [
            bound(&c.minimum, Ordering::is_lt, rules::FIELD_MINIMUM, "is less than minimum"),
            bound(
                &c.exclusive_minimum,
                Ordering::is_le,
                rules::FIELD_EXCLUSIVE_MINIMUM,
                "is not greater than exclusiveMinimum",
            ),
            bound(&c.maximum, Ordering::is_gt, rules::FIELD_MAXIMUM, "is greater than maximum"),
            bound(
                &c.exclusive_maximum,
                Ordering::is_ge,
                rules::FIELD_EXCLUSIVE_MAXIMUM,
                "is not less than exclusiveMaximum",
            ),
            c.multiple_of
                .as_ref()
                .filter(|m| !v.is_multiple_of(&m.dec()))
                .map(|m| (rules::FIELD_MULTIPLE_OF, m, "is not a multiple of")),
        ]
    }

    pub(crate) fn message(raw: &str, bound: &Decimal, wording: &str) -> String {
        format!("value {raw} {wording} {}", bound.raw())
    }
}

/// `minLength`, `maxLength`: Unicode code points.
pub(crate) mod lengths {
    use super::*;

    #[inline]
    pub(crate) fn any(c: &Constraints) -> bool {
        c.min_length.is_some() || c.max_length.is_some()
    }

    /// The length rules a string of `len` characters breaks: rule, bound, wording.
    #[inline]
    pub(crate) fn faults(c: &Constraints, len: u64) -> [Option<(&'static Rule, u64, &'static str)>; 2] {
        [
            c.min_length.filter(|&m| len < m).map(|m| (rules::FIELD_MIN_LENGTH, m, "is less than minLength")),
            c.max_length.filter(|&m| len > m).map(|m| (rules::FIELD_MAX_LENGTH, m, "is greater than maxLength")),
        ]
    }

    pub(crate) fn message(len: u64, bound: u64, wording: &str) -> String {
        format!("length {len} {wording} {bound}")
    }
}

/// `pattern`: an unanchored search.
pub(crate) mod pattern {
    use super::*;

    #[inline]
    pub(crate) fn is_valid(p: &Pattern, s: &Str<'_>) -> bool {
        p.matches(s)
    }

    pub(crate) fn message(p: &Pattern, s: &Str<'_>) -> String {
        format!("value {} does not match pattern {}", quote(&s.decode(), QUOTE_MAX), quote(p.source(), 200))
    }
}

/// `minItems`, `maxItems`: the number of elements.
pub(crate) mod items {
    use super::*;

    #[inline]
    pub(crate) fn faults(c: &Constraints, count: u64) -> [Option<(&'static Rule, u64, &'static str)>; 2] {
        [
            c.min_items.filter(|&m| count < m).map(|m| (rules::FIELD_MIN_ITEMS, m, "fewer than minItems")),
            c.max_items.filter(|&m| count > m).map(|m| (rules::FIELD_MAX_ITEMS, m, "more than maxItems")),
        ]
    }

    pub(crate) fn message(count: u64, bound: u64, wording: &str) -> String {
        format!("array has {count} items, {wording} {bound}")
    }
}

/// `uniqueItems`: JSON equality between the elements, recorded as byte
/// spans while the array is read.
pub(crate) mod unique {
    use std::collections::HashMap;

    use super::*;
    use crate::json::canonical::canonical;
    use crate::json::number::Num;
    use crate::json::scan::{Kind, Scanner, SyntaxError};

    /// Elements compared pairwise without allocating up to this many.
    pub(crate) const MAX_PAIRWISE: usize = 32;

    /// `Some(true)` when the elements are pairwise distinct,
    /// `Some(false)` on a repeat, `None` when it cannot tell without
    /// allocating (an object or array among two or more elements, or more
    /// than [`MAX_PAIRWISE`] elements).
    pub(crate) fn is_valid(bytes: &[u8], spans: &[(usize, usize)]) -> Option<bool> {
        if spans.len() > MAX_PAIRWISE {
            return None;
        }
        for (i, &span) in spans.iter().enumerate().skip(1) {
            let item = scalar(bytes, span)?;
            for &earlier in &spans[..i] {
                if same(&scalar(bytes, earlier)?, &item) {
                    return Some(false);
                }
            }
        }
        Some(true)
    }

    /// The first pair of equal elements, in element order.
    pub(crate) fn first_repeat(bytes: &[u8], spans: &[(usize, usize)]) -> Result<Option<(usize, usize)>, SyntaxError> {
        let mut first: HashMap<String, usize> = HashMap::with_capacity(spans.len());
        for (j, &(start, end)) in spans.iter().enumerate() {
            let mut canon = String::new();
            canonical(&mut Scanner::new(&bytes[start..end]), &mut canon)?;
            if let Some(&i) = first.get(&canon) {
                return Ok(Some((i, j)));
            }
            first.insert(canon, j);
        }
        Ok(None)
    }

    pub(crate) fn message(i: usize, j: usize) -> String {
        format!("items {i} and {j} are equal")
    }

    /// A scalar array element.
    enum Item<'a> {
        Text(Str<'a>),
        Number(Num<'a>),
        Literal(&'a [u8]),
    }

    /// The element at `span` (already read, so known to be well formed).
    fn scalar(bytes: &[u8], (start, end): (usize, usize)) -> Option<Item<'_>> {
        let mut s = Scanner::new(&bytes[start..end]);
        Some(match s.peek_kind().ok()? {
            Kind::String => Item::Text(s.string().ok()?),
            Kind::Number => Item::Number(s.number().ok()?),
            Kind::Bool | Kind::Null => Item::Literal(&bytes[start..end]),
            Kind::Object | Kind::Array => return None,
        })
    }

    fn same(a: &Item<'_>, b: &Item<'_>) -> bool {
        match (a, b) {
            (Item::Text(a), Item::Text(b)) if !a.is_escaped() && !b.is_escaped() => a.raw() == b.raw(),
            (Item::Text(a), Item::Text(b)) => a.chars().eq(b.chars()),
            (Item::Number(a), Item::Number(b)) => a.dec().compare(&b.dec()).is_eq(),
            (Item::Literal(a), Item::Literal(b)) => a == b,
            _ => false,
        }
    }
}

/// `required`: a declared (or implied, required) key missing from its object.
/// `format`: the asserted formats (`format.rs`), on strings.
pub(crate) mod format {
    use super::*;

    /// Whether a string is valid for the format `name` (always, for a
    /// format that is only an annotation). Decodes only an escaped string.
    #[inline]
    pub(crate) fn is_valid(name: &str, s: &Str<'_>) -> bool {
        // An unescaped string's raw bytes are its text (the scanner has
        // checked their UTF-8): no second pass for the byte-level formats.
        if !s.is_escaped() && name != "regex" && name != "uri-template" {
            return crate::format::check_bytes(name, s.raw()) != Some(false);
        }
        crate::format::check(name, &s.decode()) != Some(false)
    }

    pub(crate) fn message(name: &str, s: &Str<'_>) -> String {
        format!("value {} is not a valid {name}", quote(&s.decode(), QUOTE_MAX))
    }
}

/// `closed`: an object's undeclared key.
pub(crate) mod closed {
    pub(crate) const MESSAGE: &str = "key is not allowed: the object is closed (additionalProperties: false)";
}

pub(crate) mod required {
    pub(crate) const MESSAGE: &str = "required field is missing";
}

/// `strict`: an undeclared top-level key (a warning).
pub(crate) mod unknown {
    pub(crate) const MESSAGE: &str = "key is not declared by the strict contract";
}

/// `json.duplicate_key`: a key repeated in one object.
pub(crate) mod duplicate {
    pub(crate) const MESSAGE: &str = "key appears more than once in its object";
}

/// `json.depth`: nesting past `MAX_DEPTH`.
pub(crate) mod depth {
    use crate::json::MAX_DEPTH;

    pub(crate) fn message() -> String {
        format!("objects and arrays nest deeper than {MAX_DEPTH} levels")
    }
}

/// Why an enum member can never pass its field's own constraints: the
/// first failing rule as a report would sort it (by rule id), with its
/// message, as the finding engine would word it for `{"v": member}`.
pub(crate) fn member_fault(c: &Constraints, member: &Scalar) -> Option<(&'static Rule, String)> {
    let mut faults: Vec<(&'static Rule, String)> = Vec::new();
    match member {
        Scalar::String(text) => {
            let s = Str::new(text.as_bytes(), false, 0);
            let len = s.char_count() as u64;
            for (rule, bound, wording) in lengths::faults(c, len).into_iter().flatten() {
                faults.push((rule, lengths::message(len, bound, wording)));
            }
            if let Some(p) = c.pattern.as_ref().filter(|p| !pattern::is_valid(p, &s)) {
                faults.push((rules::FIELD_PATTERN, pattern::message(p, &s)));
            }
        }
        Scalar::Number(d) => {
            for (rule, bound, wording) in numbers::faults(c, &d.dec()).into_iter().flatten() {
                faults.push((rule, numbers::message(d.raw(), bound, wording)));
            }
        }
        Scalar::Bool(_) | Scalar::Null => {}
    }
    // A stable sort keeps the walker's order among equal ids, as `Report` does.
    faults.sort_by_key(|(rule, _)| rule.id);
    faults.into_iter().next()
}
