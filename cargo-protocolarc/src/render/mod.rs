//! Renderers: pure functions from results to bytes. Each output the CLI
//! prints is made here, so a library user can produce the same bytes.

pub mod describe;
pub mod diff;
pub mod loss;
mod markdown;
pub mod matrix;
pub mod traffic;
pub mod validation;

use serde::Serialize;

pub use protocolarc::report::FORMAT_VERSION;

/// A JSON document with `"format_version"` as its first key.
#[derive(Serialize)]
pub struct Versioned<T: Serialize> {
    /// Always [`FORMAT_VERSION`] when built with [`versioned`].
    pub format_version: u32,
    #[serde(flatten)]
    /// The document; its keys are written after `format_version`, at the same
    /// level (flattened), so `T` must serialize as a map.
    pub doc: T,
}

/// `doc` with the current [`FORMAT_VERSION`] first.
pub fn versioned<T: Serialize>(doc: T) -> Versioned<T> {
    Versioned { format_version: FORMAT_VERSION, doc }
}

/// Free text made safe for one output line (the core's, re-exported for the renderers).
pub use protocolarc::one_line;
