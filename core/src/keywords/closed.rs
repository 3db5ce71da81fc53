//! `closed`: an object's undeclared key.
//!
//! Faces: the finding's message (the walker judges the key where it reads it).

pub(crate) const MESSAGE: &str = "key is not allowed: the object is closed (additionalProperties: false)";
