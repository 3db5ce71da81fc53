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
pub mod contract;
pub mod diff;
pub mod envelope;
pub mod json;
pub mod lock;
pub mod matrix;
pub mod render;
pub mod report;
pub mod rules;
mod validate;

pub use catalog::{Catalog, CatalogError};
pub use contract::{ContractError, ContractSpec, FieldSpec, JsonType, TypeSet};
pub use envelope::{Envelope, InputError};
pub use report::{Finding, Report, Severity};
pub use validate::{DATA_FIELD, ENVELOPE_FIELD};

/// An I/O error in words, without the OS error number.
pub(crate) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}
