//! `type`: the value's own JSON type against the field's types.
//!
//! Faces: the check (`is_valid`) and the finding's message (`message`, one
//! fixed sentence per pair of types).

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
