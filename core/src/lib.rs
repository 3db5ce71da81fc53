//! The engine of ProtocolArc: everything that reads a contract and judges
//! JSON with it, with no proc-macro, CLI, git or cargo dependency.
//!
//! - [`contract`]: the contract model and its loader ([`ContractSpec::from_path`]);
//! - the validator ([`ContractSpec::validate_json`]) and its [`Report`];
//! - [`diff`]: the compatibility engine, with witnesses; [`chain`]: semver bumps;
//! - [`lock`]: RFC 8785 canonical JSON and SHA-256 digests;
//! - [`loss`]: what a tool contract loses on its way into OpenAI, Anthropic, Gemini or A2A;
//! - [`protocols`]: the catalogs of MCP and A2A, generated from their official schemas;
//! - [`envelope`]: envelope documents and the files that hold them;
//! - `codegen` (feature `codegen`): a contract as Rust tokens, for the macro and the CLI.
//!
//! Users depend on the `protocolarc` facade, which re-exports this crate; the
//! `protocolarc-derive` macro and the `cargo-protocolarc` CLI are built on it.
//! `ARCHITECTURE.md` in the repository maps the modules.

#![deny(missing_docs)]

pub mod chain;
#[cfg(feature = "codegen")]
pub mod codegen;
pub mod contract;
pub mod diff;
pub mod envelope;
mod error;
pub mod export;
#[doc(hidden)]
pub mod fast;
mod format;
pub mod import;
pub mod input;
mod json;
mod keywords;
pub mod lock;
pub mod loss;
pub mod proto;
pub mod protocols;
pub mod report;
pub mod rules;
pub mod suggest;
mod validate;
mod walk;
mod walk_schema;
mod written;

pub use contract::{ContractDirection, ContractError, ContractSpec, FieldSpec, JsonType, TypeSet};
pub use envelope::{Envelope, InputError};
pub use json::scan::line_col;
pub use json::text::one_line;
pub use json::MAX_DEPTH;
pub use report::{Finding, Report, Severity};
pub use validate::{DATA_FIELD, ENVELOPE_FIELD};
#[doc(hidden)]
pub use walk_schema::TopMembers;

#[doc(hidden)]
pub use error::io_reason;
