//! Typed contracts: what `#[protocolarc::contract("...json")]`
//! generates implements [`Contract`]: the contract's identity, its
//! validator, and a typed parse that succeeds exactly when the validator
//! finds no error.

use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::report::{Finding, Report};
use crate::ContractSpec;

/// A Rust type generated from a contract file.
pub trait Contract: Sized + Serialize + DeserializeOwned {
    /// The contract's name, such as `mcp.tool_call`.
    const NAME: &'static str;
    /// The contract's revision, such as `1.0.0`.
    const REVISION: &'static str;

    /// The contract, loaded once from the text compiled into the program.
    fn spec() -> &'static ContractSpec;

    /// The one-pass check on its own: `true` only when the body has no
    /// finding at all (no error, no warning); `false` when it could not be
    /// sure, and [`Contract::validate_json`] asks the finding engine. The
    /// macro generates it for the contract; the default, for hand-written
    /// implementations, interprets the loaded contract
    /// ([`ContractSpec::passes`]).
    fn fast_path(bytes: &[u8]) -> bool {
        Self::spec().passes(bytes)
    }

    /// Validates a data body: the same findings as
    /// `ContractSpec::from_path(path)?.validate_json(bytes)`. A body the
    /// one-pass check passes has none; any other goes to the finding engine
    /// directly, without checking it a second time.
    fn validate_json(bytes: &[u8]) -> Report {
        if Self::fast_path(bytes) {
            Report::default()
        } else {
            Self::spec().validate_json_full(bytes)
        }
    }

    /// Parses a data body into the typed value; `Err` with the findings
    /// exactly when the report has an error.
    fn from_json(bytes: &[u8]) -> Result<Self, Report> {
        let report = Self::validate_json(bytes);
        if !report.is_valid() {
            return Err(with_envelope_hint(Self::spec(), bytes, report));
        }
        // The validator has bounded the nesting at `MAX_DEPTH` (128 levels),
        // deeper than serde_json's own limit: lift that limit so that every
        // accepted body parses.
        let mut de = serde_json::Deserializer::from_slice(bytes);
        de.disable_recursion_limit();
        Self::deserialize(&mut de).and_then(|value| de.end().map(|()| value)).map_err(|e| {
            // A body the contract accepts always has a typed form, but for
            // numbers beyond a double, which serde_json cannot hold.
            let msg = format!("the typed parse failed: {e}");
            Report::new(vec![Finding::new(crate::rules::JSON_SYNTAX, crate::DATA_FIELD, msg)])
        })
    }

    /// The value as JSON: every field, undeclared ones included. Unchecked:
    /// a value built or edited by hand may break the contract (a string past
    /// its `maxLength`); [`Contract::validate`] says whether it does.
    fn to_json(&self) -> Vec<u8> {
        // Generated types hold strings, numbers, booleans, `Value`s and maps
        // with string keys, none of which can fail to serialise.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// Validates the value as the contract validates its JSON: the report of
    /// `validate_json(&self.to_json())`. Use it before sending a value built
    /// or edited by hand.
    fn validate(&self) -> Report {
        Self::validate_json(&self.to_json())
    }
}

/// `report`, plus a `data.envelope` hint when `bytes` is an envelope
/// (`contract` and `data` keys) and the contract declares neither key.
fn with_envelope_hint(spec: &ContractSpec, bytes: &[u8], report: Report) -> Report {
    let declares = |key: &str| spec.fields().iter().any(|f| f.path().root_key() == key);
    if declares("contract") || declares("data") {
        return report;
    }
    let Ok(serde_json::Value::Object(body)) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return report;
    };
    if !(body.get("contract").is_some_and(serde_json::Value::is_string) && body.contains_key("data")) {
        return report;
    }
    let mut findings = report.into_findings();
    let msg = "this is an envelope ({\"contract\", \"data\"}), not a data body: pass its `data`";
    findings.push(Finding::new(crate::rules::DATA_ENVELOPE, crate::DATA_FIELD, msg));
    Report::new(findings)
}

/// Support for generated code; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use serde;
    pub use serde_json;

    pub use crate::fast;

    use super::*;

    /// Deserializes an integer field: any JSON number with a zero fraction
    /// that fits `T` (`7`, `7.0`, `7e0`, `1e2`). A number written with a
    /// fraction or an exponent is read through a double, exact up to 2^53.
    pub fn integer<'de, D, T>(d: D) -> Result<T, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: TryFrom<i64> + TryFrom<u64>,
    {
        let n = <serde_json::Number as serde::Deserialize>::deserialize(d)?;
        whole(&n).ok_or_else(|| {
            <D::Error as serde::de::Error>::custom(format!("{n} is not an integer in the field's Rust type"))
        })
    }

    /// [`integer`] for an optional field: present means `Some`.
    pub fn present_integer<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: TryFrom<i64> + TryFrom<u64>,
    {
        integer(d).map(Some)
    }

    fn whole<T: TryFrom<i64> + TryFrom<u64>>(n: &serde_json::Number) -> Option<T> {
        if let Some(u) = n.as_u64() {
            return T::try_from(u).ok();
        }
        if let Some(i) = n.as_i64() {
            return T::try_from(i).ok();
        }
        let f = n.as_f64().filter(|f| f.fract() == 0.0)?;
        // 2^64 and -2^63 are exact doubles: inside them the casts are exact.
        if (0.0..18_446_744_073_709_551_616.0).contains(&f) {
            T::try_from(f as u64).ok()
        } else if (-9_223_372_036_854_775_808.0..0.0).contains(&f) {
            T::try_from(f as i64).ok()
        } else {
            None
        }
    }

    /// Deserializes a present field as `Some`, even when it is `null`.
    pub fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
    where
        D: serde::Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        T::deserialize(d).map(Some)
    }

    /// The contract compiled into a generated type, loaded on first use. The
    /// macro has already checked the text, so loading cannot fail.
    pub fn spec(
        cell: &'static OnceLock<ContractSpec>,
        text: &'static str,
        origin: &'static str,
    ) -> &'static ContractSpec {
        cell.get_or_init(|| match ContractSpec::from_slice(text.as_bytes(), origin) {
            Ok(spec) => spec,
            Err(e) => panic!("contract {origin} was checked at compile time and no longer loads: {e}"),
        })
    }
}
