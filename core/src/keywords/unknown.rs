//! `strict`: an undeclared top-level key (a warning).
//!
//! Faces: the warning's message.

pub(crate) const MESSAGE: &str = "key is not declared by the strict contract";
