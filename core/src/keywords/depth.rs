//! `json.depth`: nesting past `MAX_DEPTH`.
//!
//! Faces: the finding's message.

use crate::json::MAX_DEPTH;

pub(crate) fn message() -> String {
    format!("objects and arrays nest deeper than {MAX_DEPTH} levels")
}
