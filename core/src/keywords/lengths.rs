//! `minLength`, `maxLength`: Unicode code points.
//!
//! Faces: the checks (`any`, `faults`) and the finding's message.

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
