//! The engine of ProtocolArc: everything that reads a contract and judges
//! JSON with it, with no proc-macro, CLI, git or cargo dependency.
//!
//! - [`contract`]: the contract model and its loader ([`ContractSpec::from_path`]);
//! - the validator ([`ContractSpec::validate_json`]) and its [`Report`];
//! - [`diff`]: the compatibility engine, with witnesses; [`chain`]: semver bumps;
//! - [`lock`]: RFC 8785 canonical JSON and SHA-256 digests;
//! - [`envelope`]: envelope documents and the files that hold them;
//! - `codegen` (feature `codegen`): a contract as Rust tokens, for the macro and the CLI.
//!
//! Users depend on the `protocolarc` facade, which re-exports this crate; the
//! `protocolarc-derive` macro, `protocolarc-interop` (import, export, the
//! protocol catalogs' generation, loss) and the `cargo-protocolarc` CLI are
//! built on it.
//! `ARCHITECTURE.md` in the repository maps the modules.

#![deny(missing_docs)]

pub mod chain;
#[cfg(feature = "codegen")]
pub mod codegen;
pub mod contract;
pub mod diff;
pub mod envelope;
mod error;
#[doc(hidden)]
pub mod fast;
mod format;
pub mod input;
#[doc(hidden)]
pub mod json;
mod keywords;
pub mod lock;
pub mod report;
pub mod rules;
pub mod suggest;
mod validate;
mod walk;
#[doc(hidden)]
pub mod written;

pub use contract::{ContractDirection, ContractError, ContractSpec, FieldSpec, JsonType, TypeSet};
pub use envelope::{Envelope, InputError};
pub use json::scan::line_col;
pub use json::text::one_line;
pub use json::MAX_DEPTH;
/// The JSON Schema keywords the product knows: one record each
/// ([`schema_keywords::KEYWORDS`]) and the one spelling of each name
/// ([`schema_keywords::name`]).
pub use keywords::registry as schema_keywords;
pub use report::{Finding, Report, Severity};
pub use validate::{DATA_FIELD, ENVELOPE_FIELD};
#[doc(hidden)]
pub use walk::schema::TopMembers;

#[doc(hidden)]
pub use error::io_reason;
