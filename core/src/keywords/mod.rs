//! The validation keywords, each written once per face, side by side: the
//! runtime check (`is_valid` or `faults`: what both modes of the walker in
//! `walk.rs` call, and the contract loader for enum members), the message a
//! finding gets (built only when collect mode makes a finding), and, with the
//! feature `codegen`, the emitter that compiles the same check into the
//! generated validator (`codegen/validator.rs` calls it; the code it emits
//! calls back into `fast.rs`, never a copy of the rule).
//!
//! A new keyword is one more module here: its check, its message, its
//! emitter. The walker reads it where the value it judges is read, and a
//! fault is a fault in both modes (collect mode writes it, quick mode stops).

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

#[cfg(feature = "codegen")]
use proc_macro2::{Literal, TokenStream};
#[cfg(feature = "codegen")]
use quote::quote;

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
    use super::*;

    /// Whether a string token is a member (decoded character by character
    /// when it has escapes: no allocation either way).
    #[inline]
    pub(crate) fn has_string(values: &[Scalar], s: &Str<'_>) -> bool {
        values.iter().any(|e| match e {
            Scalar::String(t) if !s.is_escaped() => s.raw() == t.as_bytes(),
            Scalar::String(t) => s.chars().eq(t.chars()),
            _ => false,
        })
    }

    /// Whether a number is a member (by exact decimal value).
    #[inline]
    pub(crate) fn has_number(values: &[Scalar], v: &Dec<'_>) -> bool {
        values.iter().any(|e| matches!(e, Scalar::Number(d) if d.dec().compare(v).is_eq()))
    }

    /// Whether `true`/`false` (`Some`) or `null` (`None`) is a member.
    #[inline]
    pub(crate) fn has_literal(values: &[Scalar], v: Option<bool>) -> bool {
        values.iter().any(|e| match (e, v) {
            (Scalar::Bool(a), Some(b)) => *a == b,
            (Scalar::Null, None) => true,
            _ => false,
        })
    }

    /// `field.const` for a field's `const` (a one-value enum), else
    /// `field.enum`.
    #[inline]
    pub(crate) fn rule(is_const: bool) -> &'static Rule {
        if is_const {
            rules::FIELD_CONST
        } else {
            rules::FIELD_ENUM
        }
    }

    /// How an `enum` or `const` finding names the value: a scalar as
    /// written (a string quoted), an object or array by its kind ("an
    /// object"). Both walkers word their findings through [`not_in`] and
    /// [`is_not`].
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

    /// A field's `enum` finding, or its `const` finding (a one-value enum).
    fn say(is_const: bool, values: &[Scalar], shown: Shown<'_>) -> String {
        match values {
            [only] if is_const => is_not(shown, &super::cut(only.display(), super::QUOTE_MAX)),
            _ => not_in(shown, &super::members_label(values, Scalar::display)),
        }
    }

    pub(crate) fn string_message(is_const: bool, values: &[Scalar], s: &Str<'_>) -> String {
        say(is_const, values, Shown::Value(&quote(&s.decode(), QUOTE_MAX)))
    }

    pub(crate) fn number_message(is_const: bool, values: &[Scalar], raw: &str) -> String {
        say(is_const, values, Shown::Value(raw))
    }

    pub(crate) fn literal_message(is_const: bool, values: &[Scalar], v: Option<bool>) -> String {
        say(is_const, values, Shown::Value(&v.map_or("null".to_string(), |b| b.to_string())))
    }

    /// `what` is "an object" or "an array".
    pub(crate) fn container_message(is_const: bool, values: &[Scalar], what: &'static str) -> String {
        say(is_const, values, Shown::Whole(what))
    }

    /// A string `s` outside the enum gives up: members by a compiled
    /// `match` on the raw bytes; escaped text gives up (quick mode does too).
    #[cfg(feature = "codegen")]
    pub(crate) fn emit_string(values: &[Scalar]) -> TokenStream {
        let members: Vec<Literal> = values
            .iter()
            .filter_map(|v| match v {
                Scalar::String(text) => Some(Literal::byte_string(text.as_bytes())),
                _ => None,
            })
            .collect();
        if members.is_empty() {
            return quote! { return None; };
        }
        quote! {
            if s.is_escaped() {
                return None;
            }
            match s.raw() {
                #(#members)|* => {}
                _ => return None,
            }
        }
    }

    /// The members among `true` and `false` (both without an enum).
    #[cfg(feature = "codegen")]
    pub(crate) fn bools(values: Option<&[Scalar]>) -> Vec<bool> {
        match values {
            None => vec![true, false],
            Some(values) => [true, false].into_iter().filter(|&b| has_literal(values, Some(b))).collect(),
        }
    }
}

/// `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`,
/// `multipleOf`: exact decimal arithmetic on the number as written.
pub(crate) mod numbers {
    use super::*;

    /// Whether the field has a number rule at all (an enum counts): without
    /// one a number needs no value, only its type.
    #[inline]
    pub(crate) fn any(enumerated: bool, c: &Constraints) -> bool {
        enumerated
            || c.minimum.is_some()
            || c.exclusive_minimum.is_some()
            || c.maximum.is_some()
            || c.exclusive_maximum.is_some()
            || c.multiple_of.is_some()
    }

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

    pub(crate) fn is_valid(c: &Constraints, v: &Dec<'_>) -> bool {
        faults(c, v).iter().all(Option::is_none)
    }

    pub(crate) fn message(raw: &str, bound: &Decimal, wording: &str) -> String {
        format!("value {raw} {wording} {}", bound.raw())
    }

    /// The checks on a number `n`: bounds that are plain integers compiled
    /// in for plain integer values, anything else (and an enum) decided by
    /// the runtime check, `fast::number`.
    #[cfg(feature = "codegen")]
    pub(crate) fn emit(enumerated: bool, c: &Constraints, field: &TokenStream) -> TokenStream {
        if !any(enumerated, c) {
            return TokenStream::new();
        }
        let exact = quote! {
            if !fast::number(#field, &n) {
                return None;
            }
        };
        match compiled(enumerated, c) {
            None => exact,
            Some(outside) => quote! {
                match fast::small_int(&n) {
                    Some(v) => {
                        if #outside {
                            return None;
                        }
                    }
                    None => { #exact }
                }
            },
        }
    }

    /// The test "an integer `v` is outside the bounds", when every bound is
    /// a plain `i64` and there is no enum or `multipleOf`.
    #[cfg(feature = "codegen")]
    fn compiled(enumerated: bool, c: &Constraints) -> Option<TokenStream> {
        if enumerated || c.multiple_of.is_some() {
            return None;
        }
        let int = |b: &Option<Decimal>| -> Result<Option<i64>, ()> {
            match b {
                None => Ok(None),
                Some(d) => d.raw().parse::<i64>().map(Some).map_err(drop),
            }
        };
        let (min, xmin) = (int(&c.minimum).ok()?, int(&c.exclusive_minimum).ok()?);
        let (max, xmax) = (int(&c.maximum).ok()?, int(&c.exclusive_maximum).ok()?);
        // The integers allowed: `lo..=hi`, exclusive bounds moved in by one.
        let lo = match (min, xmin) {
            (a, Some(x)) => Some(a.unwrap_or(i64::MIN).max(x.checked_add(1)?)),
            (a, None) => a,
        };
        let hi = match (max, xmax) {
            (a, Some(x)) => Some(a.unwrap_or(i64::MAX).min(x.checked_sub(1)?)),
            (a, None) => a,
        };
        let (lo, hi) = (lo.map(Literal::i64_unsuffixed), hi.map(Literal::i64_unsuffixed));
        match (lo, hi) {
            (Some(lo), Some(hi)) => Some(quote! { !(#lo..=#hi).contains(&v) }),
            (Some(lo), None) => Some(quote! { v < #lo }),
            (None, Some(hi)) => Some(quote! { v > #hi }),
            (None, None) => None,
        }
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

    #[inline]
    pub(crate) fn is_valid(c: &Constraints, len: u64) -> bool {
        c.min_length.is_none_or(|m| len >= m) && c.max_length.is_none_or(|m| len <= m)
    }

    pub(crate) fn message(len: u64, bound: u64, wording: &str) -> String {
        format!("length {len} {wording} {bound}")
    }

    #[cfg(feature = "codegen")]
    pub(crate) fn emit(c: &Constraints) -> TokenStream {
        let (min, max) = (c.min_length.map(Literal::u64_unsuffixed), c.max_length.map(Literal::u64_unsuffixed));
        let test = match (min, max) {
            (None, None) => return TokenStream::new(),
            (Some(lo), Some(hi)) => quote! { !(#lo..=#hi).contains(&len) },
            (Some(lo), None) => quote! { len < #lo },
            (None, Some(hi)) => quote! { len > #hi },
        };
        quote! {
            let len = fast::chars(&s);
            if #test {
                return None;
            }
        }
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

    #[cfg(feature = "codegen")]
    pub(crate) fn emit(c: &Constraints, field: &TokenStream) -> TokenStream {
        if c.pattern.is_none() {
            return TokenStream::new();
        }
        quote! {
            if !fast::pattern(#field, &s) {
                return None;
            }
        }
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

    /// After the loop over the elements, which counts them in `count`.
    #[cfg(feature = "codegen")]
    pub(crate) fn emit(c: &Constraints) -> TokenStream {
        let min = c.min_items.map(Literal::u64_unsuffixed).map(|m| quote! { if (count as u64) < #m { return None; } });
        let max = c.max_items.map(Literal::u64_unsuffixed).map(|m| quote! { if (count as u64) > #m { return None; } });
        quote! { #min #max }
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

    /// Elements compared pairwise by quick mode up to this many.
    pub(crate) const MAX_QUICK: usize = 32;

    /// Quick mode: `Some(true)` when the elements are pairwise distinct,
    /// `Some(false)` on a repeat, `None` when it cannot tell without
    /// allocating (an object or array among two or more elements, or more
    /// than [`MAX_QUICK`] elements).
    pub(crate) fn is_valid(bytes: &[u8], spans: &[(usize, usize)]) -> Option<bool> {
        if spans.len() > MAX_QUICK {
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

    /// Collect mode: the first pair of equal elements, in element order.
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

    /// Around the loop over the elements: (before the loop, before an
    /// element, after an element, after the loop).
    #[cfg(feature = "codegen")]
    pub(crate) fn emit(c: &Constraints) -> [TokenStream; 4] {
        if !c.unique_items {
            return Default::default();
        }
        [
            quote! { let base = c.spans(); },
            quote! { let at = c.at()?; },
            quote! { c.span(at); },
            quote! { c.distinct(base)?; },
        ]
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

    /// The check in the generated validator: the runtime's, through `fast`.
    #[cfg(feature = "codegen")]
    pub(crate) fn emit(asserted: bool, field: &TokenStream) -> TokenStream {
        if !asserted {
            return TokenStream::new();
        }
        quote! {
            if !fast::format(#field, &s) {
                return None;
            }
        }
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
