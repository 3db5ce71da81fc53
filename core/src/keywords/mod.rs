//! The validation keywords, one file per keyword or tight family, each
//! holding every face of it that is written once: the runtime check
//! (`is_valid` or `faults`: what every mode of the schema walker in
//! `walk/schema/` calls, and the contract loader for enum members) and the
//! message a finding gets (built only when collect mode makes a finding).
//! With the feature `codegen`, the generated check calls back into
//! `fast.rs` and the walker, never a copy of the rule.
//!
//! [`registry`] is the one list of the JSON Schema keywords the product
//! knows: each keyword's name (the one place it is spelled), the JSON types
//! it applies to, what it is (assertion, annotation, applicator), and the
//! rules its findings and changes carry. Import, export, describe and the
//! loss dialects read it.
//!
//! A new keyword is one more file here and one more record in the registry:
//! its check, its message. The walker reads it where the value it judges
//! is read, and a fault is a fault in every mode (a collecting mode writes
//! it, the first-fault mode stops).

use std::borrow::Cow;
use std::cmp::Ordering;

pub(crate) mod closed;
pub(crate) mod depth;
pub(crate) mod duplicate;
pub(crate) mod enums;
pub(crate) mod format;
pub(crate) mod items;
pub(crate) mod lengths;
pub(crate) mod numbers;
pub(crate) mod pattern;
pub mod registry;
pub(crate) mod required;
pub(crate) mod types;
pub(crate) mod unique;
pub(crate) mod unknown;
mod values;

use crate::json::number::{Dec, Decimal};
use crate::json::text::{quote, Str};
use crate::rules;
use crate::rules::Rule;
pub use registry::name;
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
