//! `enum`: scalar members; an object or array is never a member.
//!
//! Faces: how an `enum` or `const` finding words the value it judges (`not_in`,
//! `is_not`); the members themselves are `values.rs`'s `Scalar`.

/// How an `enum` or `const` finding names the value: a scalar as
/// written (a string quoted), an object or array by its kind ("an
/// object"). Findings are worded through [`not_in`] and [`is_not`].
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
