//! The numbers a node's keywords let through, judged together rather than
//! keyword by keyword: on integers, `exclusiveMinimum: 4` and `minimum: 5`
//! (or `minimum: 4.5`) are one bound, a `multipleOf` that divides 1 rejects
//! nothing, and `multipleOf: 0.4` is `multipleOf: 2`; a `number` whose
//! `multipleOf` is an integer (or whose bounds pin one integer) holds
//! integers only, and bounds that cross hold no number at all.
//!
//! Everything here is exact on the decimal digits; a value too large for
//! 128-bit arithmetic is left to the keyword-by-keyword comparison (`None`).

use std::cmp::Ordering;

use crate::contract::Constraints;
use crate::json::number::{Dec, Decimal};

/// The classes (as `detect::classes`) of integers and of other numbers.
pub(super) const INTEGERS: u8 = 2;
pub(super) const NUMBERS: u8 = 2 | 4;

/// Decimal places tried to write a bound as an integer over a power of ten.
const MAX_SCALE: u32 = 36;

/// `v` as `n / 10^scale` with the least scale, when that fits an `i128`.
fn fraction(v: &Dec<'_>) -> Option<(i128, u32)> {
    (0..=MAX_SCALE).find_map(|scale| v.scaled(scale).map(|n| (n, scale)))
}

/// The greatest integer at most `v`.
fn floor(v: &Dec<'_>) -> Option<i128> {
    let (n, scale) = fraction(v)?;
    Some(n.div_euclid(10i128.checked_pow(scale)?))
}

/// The least (`lower`) or greatest integer a bound lets through: `value`,
/// exclusive or not.
pub(super) fn integer_bound(value: &Decimal, exclusive: bool, lower: bool) -> Option<i128> {
    let d = value.dec();
    let f = floor(&d)?;
    let whole = d.is_integer();
    match (lower, exclusive, whole) {
        (true, false, true) | (false, false, _) | (false, true, false) => Some(f),
        (true, _, _) => f.checked_add(1),
        (false, true, true) => f.checked_sub(1),
    }
}

/// The integers `multipleOf: m` lets through are the multiples of this
/// one: `m = p/q` in lowest terms gives `p` (`0.5` gives 1, `0.4` gives 2).
pub(super) fn integer_divisor(m: &Decimal) -> Option<i128> {
    let (n, scale) = fraction(&m.dec())?;
    let g = gcd(n.unsigned_abs(), 10u128.checked_pow(scale)?);
    i128::try_from(n.unsigned_abs() / g).ok()
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

/// The tighter lower (or upper) bound of a node: value and exclusiveness.
fn side(c: &Constraints, lower: bool) -> Option<(&Decimal, bool)> {
    let (incl, excl) = if lower { (&c.minimum, &c.exclusive_minimum) } else { (&c.maximum, &c.exclusive_maximum) };
    match (incl.as_ref(), excl.as_ref()) {
        (Some(i), Some(e)) => {
            let ord = e.dec().compare(&i.dec());
            let e_tighter = if lower { ord.is_ge() } else { ord.is_le() };
            Some(if e_tighter { (e, true) } else { (i, false) })
        }
        (Some(i), None) => Some((i, false)),
        (None, Some(e)) => Some((e, true)),
        (None, None) => None,
    }
}

/// Which number classes a node whose types allow them can hold, given its
/// numeric keywords (`integers`: its types allow integers only): integers
/// alone when a `multipleOf` is an integer or the bounds pin one integer,
/// nothing when the bounds cross.
pub(super) fn number_classes(c: &Constraints, integers: bool) -> u8 {
    let (lo, hi) = (side(c, true), side(c, false));
    if let (Some((l, le)), Some((h, he))) = (lo, hi) {
        let ord = l.dec().compare(&h.dec());
        if ord == Ordering::Greater || (ord == Ordering::Equal && (le || he)) {
            return 0;
        }
        let pinned = ord == Ordering::Equal && l.dec().is_integer();
        let crossed = integers
            && matches!((integer_bound(l, le, true), integer_bound(h, he, false)), (Some(a), Some(b)) if a > b);
        if crossed {
            return 0;
        }
        if pinned {
            return INTEGERS;
        }
    }
    let whole_step = c.multiple_of.as_ref().is_some_and(|m| m.dec().is_integer());
    if integers || whole_step {
        INTEGERS
    } else {
        NUMBERS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        Decimal::parse(text).expect("a number")
    }

    #[test]
    fn bounds_on_integers() {
        assert_eq!(integer_bound(&d("4"), true, true), Some(5));
        assert_eq!(integer_bound(&d("5"), false, true), Some(5));
        assert_eq!(integer_bound(&d("4.5"), false, true), Some(5));
        assert_eq!(integer_bound(&d("4.5"), true, true), Some(5));
        assert_eq!(integer_bound(&d("-4.5"), false, true), Some(-4));
        assert_eq!(integer_bound(&d("10"), true, false), Some(9));
        assert_eq!(integer_bound(&d("9.5"), true, false), Some(9));
        assert_eq!(integer_bound(&d("-9.5"), false, false), Some(-10));
        assert_eq!(integer_bound(&d("45e-1"), false, true), Some(5));
        assert_eq!(integer_bound(&d("1e400"), false, true), None);
    }

    #[test]
    fn divisors_on_integers() {
        assert_eq!(integer_divisor(&d("0.5")), Some(1));
        assert_eq!(integer_divisor(&d("0.4")), Some(2));
        assert_eq!(integer_divisor(&d("1.5")), Some(3));
        assert_eq!(integer_divisor(&d("6")), Some(6));
        assert_eq!(integer_divisor(&d("2e1")), Some(20));
    }
}
