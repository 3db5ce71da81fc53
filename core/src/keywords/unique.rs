//! `uniqueItems`: JSON equality between the elements, recorded as byte
//! spans while the array is read.
//!
//! Faces: the allocation-free check (`is_valid`), the exact one
//! (`first_repeat`) and the finding's message.

use std::collections::HashMap;

use super::*;
use crate::json::canonical::canonical;
use crate::json::number::Num;
use crate::json::scan::{Kind, Scanner, SyntaxError};

/// Elements compared pairwise without allocating up to this many.
pub(crate) const MAX_PAIRWISE: usize = 32;

/// `Some(true)` when the elements are pairwise distinct,
/// `Some(false)` on a repeat, `None` when it cannot tell without
/// allocating (an object or array among two or more elements, or more
/// than [`MAX_PAIRWISE`] elements).
pub(crate) fn is_valid(bytes: &[u8], spans: &[(usize, usize)]) -> Option<bool> {
    if spans.len() > MAX_PAIRWISE {
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

/// The first pair of equal elements, in element order.
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
