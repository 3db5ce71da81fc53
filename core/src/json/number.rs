//! JSON numbers as exact decimals.
//!
//! A number is never turned into a binary float to be judged: comparisons,
//! "is an integer" and `multipleOf` work on the decimal digits as written, so
//! `19.99` is a multiple of `0.01` and `1.0` is an integer. The
//! borrowed [`Num`] costs nothing to make; [`Decimal`] is its owned twin for
//! values kept in a contract (bounds, enum members).

use std::cmp::Ordering;

/// A number token: the text as written plus its split into parts.
#[derive(Debug, Clone, Copy)]
pub struct Num<'a> {
    raw: &'a str,
    dec: Dec<'a>,
}

/// A read-only view of a decimal: sign, significant digits (no leading or
/// trailing zeros) spread over two slices, and the scientific exponent of the
/// first digit (`d1.d2d3... × 10^sci`). Zero has no digits.
#[derive(Debug, Clone, Copy)]
pub struct Dec<'a> {
    neg: bool,
    a: &'a [u8],
    b: &'a [u8],
    start: usize,
    len: usize,
    sci: i64,
}

/// Exponents beyond this are clamped; no decision below depends on more.
const EXP_CLAMP: i64 = 1 << 40;

impl<'a> Num<'a> {
    /// `raw` is a number that matched the JSON grammar; `int_start..int_end`
    /// is its integer part and `int_end..frac_end` its `.fraction` (if any).
    pub(crate) fn from_parts(raw: &'a str, int_start: usize, int_end: usize, frac_end: usize) -> Self {
        let bytes = raw.as_bytes();
        let neg = int_start == 1;
        let int = &bytes[int_start..int_end];
        let frac = if frac_end > int_end { &bytes[int_end + 1..frac_end] } else { &[][..] };
        let mut exp: i64 = 0;
        if frac_end < bytes.len() {
            let mut i = frac_end + 1;
            let mut neg_exp = false;
            match bytes.get(i) {
                Some(b'-') => {
                    neg_exp = true;
                    i += 1;
                }
                Some(b'+') => i += 1,
                _ => {}
            }
            for &d in &bytes[i..] {
                exp = (exp * 10 + i64::from(d - b'0')).min(EXP_CLAMP);
            }
            if neg_exp {
                exp = -exp;
            }
        }
        Num { raw, dec: Dec::from_digits(neg, int, frac, exp) }
    }

    /// The number exactly as written.
    pub fn raw(&self) -> &'a str {
        self.raw
    }

    /// The exact decimal value.
    pub fn dec(&self) -> Dec<'a> {
        self.dec
    }

    /// Whether the fractional part is zero (`1`, `1.0`, `1e2`).
    pub fn is_integer(&self) -> bool {
        self.dec.is_integer()
    }
}

impl<'a> Dec<'a> {
    /// Builds the view of `int.frac × 10^exp` (digits are ASCII).
    fn from_digits(neg: bool, int: &'a [u8], frac: &'a [u8], exp: i64) -> Self {
        let total = int.len() + frac.len();
        let at = |j: usize| if j < int.len() { int[j] } else { frac[j - int.len()] };
        let first = (0..total).find(|&j| at(j) != b'0');
        let Some(first) = first else {
            return Dec { neg, a: int, b: frac, start: 0, len: 0, sci: 0 };
        };
        let last = (0..total).rev().find(|&j| at(j) != b'0').unwrap_or(first);
        let sci = (int.len() as i64 - 1 - first as i64).saturating_add(exp).clamp(-EXP_CLAMP, EXP_CLAMP);
        Dec { neg, a: int, b: frac, start: first, len: last - first + 1, sci }
    }

    #[inline]
    fn digit(&self, i: usize) -> u8 {
        let j = self.start + i;
        let d = if j < self.a.len() { self.a[j] } else { self.b[j - self.a.len()] };
        d - b'0'
    }

    pub fn is_zero(&self) -> bool {
        self.len == 0
    }

    /// Whether the exponent is well inside the clamp, so that comparisons
    /// with this number are exact. Contract numbers must be; a document's
    /// value beyond it is still ordered correctly against them.
    pub fn is_in_range(&self) -> bool {
        self.sci.abs() < EXP_CLAMP / 2
    }

    pub fn is_negative(&self) -> bool {
        self.neg && self.len > 0
    }

    /// Number of significant digits.
    pub fn significant_digits(&self) -> usize {
        self.len
    }

    pub fn is_integer(&self) -> bool {
        self.len == 0 || self.sci >= self.len as i64 - 1
    }

    /// `self × 10^scale` as an integer, when that is exact and fits in an
    /// `i128`.
    pub fn scaled(&self, scale: u32) -> Option<i128> {
        let mut acc: i128 = 0;
        for i in 0..self.len {
            acc = acc.checked_mul(10)?.checked_add(i128::from(self.digit(i)))?;
        }
        // `acc` holds the digits d1d2...dn, worth acc × 10^(sci - n + 1).
        let exp = self.sci.checked_sub(self.len as i64)?.checked_add(1 + i64::from(scale))?;
        if exp >= 0 {
            acc = acc.checked_mul(10i128.checked_pow(u32::try_from(exp).ok()?)?)?;
        } else {
            let div = 10i128.checked_pow(u32::try_from(-exp).ok()?)?;
            if acc % div != 0 {
                return None;
            }
            acc /= div;
        }
        Some(if self.neg { -acc } else { acc })
    }

    fn sign(&self) -> i8 {
        if self.len == 0 {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    /// Exact numeric comparison.
    pub fn compare(&self, other: &Dec<'_>) -> Ordering {
        let (s, t) = (self.sign(), other.sign());
        if s != t {
            return s.cmp(&t);
        }
        if s == 0 {
            return Ordering::Equal;
        }
        let magnitude = self.sci.cmp(&other.sci).then_with(|| {
            for i in 0..self.len.max(other.len) {
                let x = if i < self.len { self.digit(i) } else { 0 };
                let y = if i < other.len { other.digit(i) } else { 0 };
                if x != y {
                    return x.cmp(&y);
                }
            }
            Ordering::Equal
        });
        if s < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }

    /// Whether `self` is an integer multiple of `divisor`, decided exactly on
    /// the decimal digits. `divisor` must be positive with at most
    /// [`MAX_DIVISOR_DIGITS`] significant digits (the contract loader checks).
    pub fn is_multiple_of(&self, divisor: &Dec<'_>) -> bool {
        if self.len == 0 {
            return true;
        }
        if divisor.len == 0 || divisor.len > MAX_DIVISOR_DIGITS {
            return false;
        }
        // self = A × 10^p, divisor = B × 10^q, with A and B free of trailing
        // zeros. If p < q, B × 10^(q-p) would have to divide A, whose last
        // digit is not 0: impossible. Otherwise test B | A × 10^(p-q).
        let p = self.sci - (self.len as i64 - 1);
        let q = divisor.sci - (divisor.len as i64 - 1);
        if p < q {
            return false;
        }
        let b: u128 = (0..divisor.len).fold(0u128, |v, i| v * 10 + u128::from(divisor.digit(i)));
        let mut r: u128 = 0;
        for i in 0..self.len {
            r = (r * 10 + u128::from(self.digit(i))) % b;
        }
        let shift = pow_mod(10, (p - q) as u64, b);
        (r * shift).is_multiple_of(b)
    }

    /// The value as an unsigned integer, if it is one that fits.
    pub fn to_u128(self) -> Option<u128> {
        if self.len == 0 {
            return Some(0);
        }
        if self.neg || !self.is_integer() || self.sci > 38 {
            return None;
        }
        let digits = (0..self.len).try_fold(0u128, |v, i| v.checked_mul(10)?.checked_add(u128::from(self.digit(i))))?;
        let zeros = u32::try_from(self.sci - (self.len as i64 - 1)).ok()?;
        digits.checked_mul(10u128.checked_pow(zeros)?)
    }

    /// A spelling that is equal for equal values (`1`, `1.0`, `10e-1` all
    /// give `1e0`), for equality tests such as `uniqueItems`.
    pub fn canonical(&self, out: &mut String) {
        if self.len == 0 {
            out.push('0');
            return;
        }
        if self.neg {
            out.push('-');
        }
        for i in 0..self.len {
            out.push(char::from(b'0' + self.digit(i)));
        }
        out.push('e');
        out.push_str(&self.sci.to_string());
    }

    /// An owned copy.
    pub fn to_decimal(self, raw: &str) -> Decimal {
        Decimal {
            neg: self.neg && self.len > 0,
            digits: (0..self.len).map(|i| b'0' + self.digit(i)).collect(),
            sci: self.sci,
            raw: raw.into(),
        }
    }
}

/// `multipleOf` divisors may have at most this many significant digits, so
/// that the exact test fits in 128-bit arithmetic.
pub const MAX_DIVISOR_DIGITS: usize = 18;

fn pow_mod(mut base: u128, mut exp: u64, m: u128) -> u128 {
    let mut acc = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * base % m;
        }
        base = base * base % m;
        exp >>= 1;
    }
    acc
}

/// An owned exact decimal, with the text it was written as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    neg: bool,
    digits: Box<[u8]>,
    sci: i64,
    raw: Box<str>,
}

impl Decimal {
    /// The view used for comparisons.
    pub fn dec(&self) -> Dec<'_> {
        Dec { neg: self.neg, a: &self.digits, b: &[], start: 0, len: self.digits.len(), sci: self.sci }
    }

    /// The number as written in the contract.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// Parses a JSON number; `None` if `text` is not one.
    pub fn parse(text: &str) -> Option<Decimal> {
        if text.trim() != text {
            return None;
        }
        let mut s = crate::json::scan::Scanner::new(text.as_bytes());
        if s.peek_kind().ok()? != crate::json::scan::Kind::Number {
            return None;
        }
        let n = s.number().ok()?;
        s.finish().ok()?;
        Some(n.dec().to_decimal(n.raw()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::parse(s).unwrap_or_else(|| panic!("not a number: {s}"))
    }

    #[test]
    fn integers_follow_json_schema() {
        for s in ["1", "1.0", "1e2", "-0", "0.0", "1.5e1", "100e-2"] {
            assert!(d(s).dec().is_integer(), "{s}");
        }
        for s in ["1.5", "1e-1", "0.1e1000000000000000000000000001", "123456789e-9"] {
            let want = s.starts_with("0.1e1");
            assert_eq!(d(s).dec().is_integer(), want, "{s}");
        }
    }

    #[test]
    fn scales_exactly_or_not_at_all() {
        let d = |s: &str| Decimal::parse(s).unwrap();
        assert_eq!(d("1.25").dec().scaled(2), Some(125));
        assert_eq!(d("1.25").dec().scaled(1), None);
        assert_eq!(d("-3e2").dec().scaled(0), Some(-300));
        assert_eq!(d("0").dec().scaled(5), Some(0));
        assert_eq!(d("0.0075").dec().scaled(4), Some(75));
        assert_eq!(d("1e40").dec().scaled(0), None);
    }

    #[test]
    fn compares_exactly() {
        let pairs = [
            ("1", "1.0", Ordering::Equal),
            ("-0", "0", Ordering::Equal),
            ("0.1", "0.10000000000000001", Ordering::Less),
            ("9007199254740993", "9007199254740992", Ordering::Greater),
            ("-2", "-10", Ordering::Greater),
            ("1e400", "1e399", Ordering::Greater),
            ("-1e-400", "0", Ordering::Less),
        ];
        for (x, y, want) in pairs {
            assert_eq!(d(x).dec().compare(&d(y).dec()), want, "{x} vs {y}");
        }
    }

    #[test]
    fn multiple_of_uses_decimal_digits() {
        let cases = [
            ("19.99", "0.01", true),
            ("0.0075", "0.0001", true),
            ("0.00751", "0.0001", false),
            ("4.5", "1.5", true),
            ("35", "1.5", false),
            ("10", "2", true),
            ("7", "2", false),
            ("1e308", "0.123456789", false),
            ("12391239123", "1e-8", true),
            ("0", "7", true),
            ("-8", "4", true),
            ("0.5", "0.25", true),
            ("0.3", "0.2", false),
            ("1e30", "3", false),
            ("3e30", "3", true),
        ];
        for (v, m, want) in cases {
            assert_eq!(d(v).dec().is_multiple_of(&d(m).dec()), want, "{v} multipleOf {m}");
        }
    }

    #[test]
    fn canonical_spelling_is_equal_for_equal_values() {
        let canon = |s: &str| {
            let mut out = String::new();
            d(s).dec().canonical(&mut out);
            out
        };
        assert_eq!(canon("1"), canon("1.0"));
        assert_eq!(canon("1"), canon("10e-1"));
        assert_eq!(canon("-0.0"), "0");
        assert_ne!(canon("1"), canon("-1"));
    }
}
