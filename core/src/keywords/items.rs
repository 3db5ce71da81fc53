//! `minItems`, `maxItems`: the number of elements.
//!
//! Faces: the checks (`faults`) and the finding's message.

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
