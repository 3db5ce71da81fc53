//! ProtocolArc's bridges to other formats, kept out of the engine
//! (`protocolarc-core`) because only tools use them: a service that
//! validates messages never imports a schema or projects a tool into a
//! vendor's dialect.
//!
//! - [`import`]: JSON Schema (and `tools/list` answers) into contracts.
//! - [`export`]: contracts as JSON Schema 2020-12.
//! - [`protocols`] and [`proto`]: the MCP and A2A catalogs, one contract per
//!   message, generated from the official schema documents (A2A 1.0 from its
//!   `.proto`).
//! - [`loss`]: what a tool's input contract loses in another tool format.

#![deny(missing_docs)]

pub mod export;
pub mod import;
pub mod loss;
pub mod proto;
pub mod protocols;

// The engine's modules these bridges are written against, under the paths
// the engine itself uses for them.
use protocolarc_core::{chain, contract, diff, json, suggest, written};
