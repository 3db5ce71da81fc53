//! ProtocolArc: versioned contracts for agent-protocol JSON envelopes.
//!
//! Load a contract ([`ContractSpec::from_path`]), validate envelopes or raw
//! data bodies against it ([`ContractSpec::validate_json`]) and read the
//! [`Report`]. The behaviour is pinned by SPEC.md; `ARCHITECTURE.md` maps the
//! modules.
//!
//! ```
//! use protocolarc::ContractSpec;
//!
//! let contract = ContractSpec::from_slice(br#"{
//!     "name": "demo.ping", "revision": "1.0.0",
//!     "fields": [ { "name": "seq", "type": "integer", "minimum": 0 } ] }"#, "demo.json").unwrap();
//! let report = contract.validate_json(br#"{"seq": -1}"#);
//! assert!(!report.is_valid());
//! assert_eq!(report.findings()[0].to_string(), "ERROR field.minimum seq: value -1 is less than minimum 0");
//! ```

pub mod catalog;
pub mod chain;
#[cfg(feature = "codegen")]
pub mod codegen;
pub mod contract;
pub mod diff;
pub mod envelope;
mod error;
#[doc(hidden)]
pub mod fast;
pub mod json;
pub mod lock;
pub mod matrix;
pub mod render;
pub mod report;
pub mod rules;
pub mod typed;
mod validate;

pub use catalog::{Catalog, CatalogError};
pub use contract::{ContractError, ContractSpec, FieldSpec, JsonType, TypeSet};
pub use envelope::{Envelope, InputError};
/// `#[protocolarc::contract("path.json")] pub struct Name;`: typed structs from a contract file.
#[cfg(feature = "derive")]
pub use protocolarc_derive::contract;
pub use report::{Finding, Report, Severity};
#[doc(hidden)]
pub use typed::__private;
pub use typed::Contract;
pub use validate::{DATA_FIELD, ENVELOPE_FIELD};

pub(crate) use error::io_reason;
