//! The finding engine: [`ContractSpec::validate_json`] and its relatives, the
//! findings for raw JSON bytes.
//!
//! Both forms are judged by the schema walk (`walk/schema/`) over the
//! contract's schema graph (a fields-form contract's lowered one): its
//! first-fault mode (no finding, no path, no allocation: "no finding" or
//! not) runs first, and its collecting mode, which writes every finding
//! with its path, runs only on a body the first did not pass
//! (`walk::schema::check`, which skips the first mode on a thread where
//! bodies with findings have been common). Envelope-level rules
//! (`contract.match`, `revision.hint`) are added by
//! [`ContractSpec::validate_envelope`].

use crate::contract::ContractSpec;
use crate::envelope::Envelope;
use crate::json::text::quote;
use crate::keywords::QUOTE_MAX;
use crate::report::{Finding, Report};
use crate::rules;
use crate::walk::schema::TopMembers;

pub use crate::report::DATA_FIELD;
/// The field name of envelope-level findings.
pub const ENVELOPE_FIELD: &str = "<envelope>";

impl ContractSpec {
    /// Validates a data body given as raw JSON bytes.
    ///
    /// Every input gives a report: bytes that are not JSON give one
    /// `json.syntax` finding, nesting past [`MAX_DEPTH`](crate::MAX_DEPTH) one `json.depth`.
    ///
    /// ```
    /// use protocolarc_core::{ContractSpec, Severity};
    ///
    /// let contract = ContractSpec::from_slice(br#"{"name": "demo.ping", "revision": "1.0.0",
    ///     "fields": [ { "name": "seq", "type": "integer", "minimum": 0 } ] }"#, "demo.json").unwrap();
    /// assert!(contract.validate_json(br#"{"seq": 3}"#).findings().is_empty());
    ///
    /// let report = contract.validate_json(br#"{"seq": 1.5}"#);
    /// assert!(!report.is_valid());
    /// let f = &report.findings()[0];
    /// assert_eq!((f.severity(), f.rule(), f.field()), (Severity::Error, "field.type", "seq"));
    /// assert_eq!(f.message(), "expected integer, found number");
    ///
    /// // Bytes that are not JSON are a finding too, never a panic or an `Err`.
    /// let report = contract.validate_json(b"{\"seq\": ");
    /// assert_eq!(report.findings()[0].to_string(), "ERROR json.syntax <data>: line 1, column 9: unexpected end of input");
    /// ```
    pub fn validate_json(&self, data: &[u8]) -> Report {
        // Most bodies are valid: the first-fault walk proves that much
        // faster than the finding walk, which then runs only for bodies it
        // did not pass (`walk::schema::check`).
        crate::walk::schema::check(self.walked(), data)
    }

    /// [`ContractSpec::validate_json`] for a schema-form contract, and where
    /// the document's `top` members sit as the walk read them (the report is
    /// the same). `None` for a fields-form contract.
    #[doc(hidden)]
    pub fn validate_json_top(&self, data: &[u8], top: TopMembers) -> Option<(Report, TopMembers)> {
        Some(crate::walk::schema::collect_top(self.schema.as_ref()?, data, top))
    }

    /// [`ContractSpec::validate_json`] for a schema-form contract, and the
    /// (schema node, value) visits the walk made: for tests that hold the
    /// cost linear, counted in steps rather than time. `None` for a
    /// fields-form contract.
    #[doc(hidden)]
    pub fn validate_json_counted(&self, data: &[u8]) -> Option<(Report, usize)> {
        Some(crate::walk::schema::counted(self.schema.as_ref()?, data))
    }

    /// The finding engine alone, without the one-pass check in front: for a
    /// caller that has already run a one-pass check (as
    /// `Contract::validate_json` has), and what every fast path is tested
    /// against. The same report as [`ContractSpec::validate_json`].
    pub fn validate_json_full(&self, data: &[u8]) -> Report {
        crate::walk::schema::collect(self.walked(), data)
    }

    /// Validates a data body that is already a `serde_json::Value` (through
    /// the same engine; a `Value` cannot hold duplicate keys).
    pub fn validate_value(&self, data: &serde_json::Value) -> Report {
        match serde_json::to_vec(data) {
            Ok(bytes) => self.validate_json(&bytes),
            Err(e) => Report::new(vec![Finding::new(rules::JSON_SYNTAX, DATA_FIELD, e.to_string())]),
        }
    }

    /// Validates an envelope: its data body, plus whether it targets this
    /// contract and revision.
    pub fn validate_envelope(&self, envelope: &Envelope) -> Report {
        let mut findings = self.validate_json(envelope.data()).into_findings();
        if envelope.contract() != self.name {
            let msg = format!(
                "envelope targets {}, not {}",
                quote(envelope.contract(), QUOTE_MAX),
                quote(&self.name, QUOTE_MAX)
            );
            findings.push(Finding::new(rules::CONTRACT_MATCH, ENVELOPE_FIELD, msg));
        }
        if let Some(rev) = envelope.revision() {
            if rev != self.revision.to_string() {
                let shown: String = rev.chars().flat_map(char::escape_debug).take(QUOTE_MAX).collect();
                let msg = format!("envelope declares revision {shown}, contract is {}", self.revision);
                findings.push(Finding::new(rules::REVISION_HINT, ENVELOPE_FIELD, msg));
            }
        }
        Report::new(findings)
    }
}
