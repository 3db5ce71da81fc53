//! `format`: the asserted formats (`format.rs`), on strings.
//!
//! Faces: the check (`is_valid`, through `crate::format`) and the finding's
//! message.

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
