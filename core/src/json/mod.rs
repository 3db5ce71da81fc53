//! JSON reading: a strict pull scanner over bytes, exact decimal numbers,
//! lazily decoded strings, and a small positioned tree for contract files.
//!
//! Nothing here knows what a contract or an envelope is.

pub mod bytes;
pub mod canonical;
pub mod number;
pub mod scan;
pub mod text;
pub mod tree;

/// How deep objects and arrays may nest in a document before it is refused
/// (`json.depth` in a validation report, a structural error in a contract).
/// Deeper documents are refused rather than risk the stack.
pub const MAX_DEPTH: usize = 128;
