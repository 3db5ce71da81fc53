//! Renderers: pure functions from results to bytes. Each output the CLI
//! prints is made here, so a library user can produce the same bytes.

pub mod describe;
pub mod diff;
mod markdown;
pub mod matrix;
pub mod validation;
