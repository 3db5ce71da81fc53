//! `pattern`: an unanchored search.
//!
//! Faces: the check (`is_valid`) and the finding's message.

use super::*;

#[inline]
pub(crate) fn is_valid(p: &Pattern, s: &Str<'_>) -> bool {
    p.matches(s)
}

pub(crate) fn message(p: &Pattern, s: &Str<'_>) -> String {
    format!("value {} does not match pattern {}", quote(&s.decode(), QUOTE_MAX), quote(p.source(), 200))
}
