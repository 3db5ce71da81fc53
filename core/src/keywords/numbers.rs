//! `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`,
//! `multipleOf`: exact decimal arithmetic on the number as written.
//!
//! Faces: the checks (`faults`, in rule order) and the finding's message.

use super::*;

/// The bound and `multipleOf` rules a number breaks, in rule order: the
/// rule, its bound and how a message words it.
pub(crate) fn faults<'c>(c: &'c Constraints, v: &Dec<'_>) -> [Option<(&'static Rule, &'c Decimal, &'static str)>; 5] {
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
