//! ProtocolArc: versioned contracts for agent-protocol JSON envelopes.
//!
//! Load a contract ([`ContractSpec::from_path`]), validate envelopes or raw
//! data bodies against it ([`ContractSpec::validate_json`]) and read the
//! [`Report`]. This crate is the facade users and generated code depend on:
//! it re-exports the engine (`protocolarc-core`), the `#[contract]` macro
//! (`protocolarc-derive`, feature `derive`), and adds the layers over many
//! contracts: [`catalog`], [`matrix`] and the [`render`]ers. The README
//! documents the behaviour; `ARCHITECTURE.md` in the repository maps the code.
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

#![deny(missing_docs)]

pub mod catalog;
pub mod matrix;
pub mod render;
pub mod traffic;
pub mod typed;

#[cfg(feature = "codegen")]
pub use protocolarc_core::codegen;
#[doc(hidden)]
pub use protocolarc_core::fast;
#[doc(hidden)]
pub use protocolarc_core::io_reason;
pub use protocolarc_core::{
    chain, contract, diff, envelope, export, import, input, lock, loss, protocols, report, rules, suggest,
};
pub use protocolarc_core::{
    line_col, ContractDirection, ContractError, ContractSpec, Envelope, FieldSpec, Finding, InputError, JsonType,
    Report, Severity, TypeSet, DATA_FIELD, ENVELOPE_FIELD, MAX_DEPTH,
};

pub use catalog::{Catalog, CatalogError};
/// `#[protocolarc::contract("path.json")] pub struct Name;`: typed structs from a contract file.
#[cfg(feature = "derive")]
pub use protocolarc_derive::contract;
/// The JSON values generated types hold (open fields, maps of undeclared
/// keys, numbers), re-exported so a user needs no `serde_json` of their own.
pub use serde_json::{Map, Number, Value};
#[doc(hidden)]
pub use typed::__private;
pub use typed::Contract;
