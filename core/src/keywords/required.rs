//! `required`: a declared (or implied, required) key missing from its object.
//!
//! Faces: the finding's message (the walker judges the key where it reads the
//! object).

pub(crate) const MESSAGE: &str = "required field is missing";
