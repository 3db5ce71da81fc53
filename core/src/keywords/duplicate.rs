//! `json.duplicate_key`: a key repeated in one object.
//!
//! Faces: the finding's message.

pub(crate) const MESSAGE: &str = "key appears more than once in its object";
