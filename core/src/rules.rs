//! The validation rules of SPEC §4, as one table: the validator emits these
//! ids, and `--help`, the docs and the tests read their descriptions here.

use crate::report::Severity;

/// A validation rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
}

macro_rules! rules {
    ($($name:ident = $id:literal, $sev:ident, $summary:literal;)*) => {
        $(pub const $name: &str = $id;)*
        /// Every validation rule, in the order SPEC §4 lists them.
        pub const VALIDATION_RULES: &[Rule] = &[
            $(Rule { id: $id, severity: Severity::$sev, summary: $summary },)*
        ];
    };
}

rules! {
    CONTRACT_MATCH = "contract.match", Error, "the envelope names another contract";
    REVISION_HINT = "revision.hint", Warning, "the envelope's revision differs from the contract's";
    FIELD_REQUIRED = "field.required", Error, "a required field is missing";
    FIELD_TYPE = "field.type", Error, "a value is of no accepted type (or a parent is not an object or array)";
    FIELD_ENUM = "field.enum", Error, "a value is outside the field's enum (an object or array never is in it)";
    FIELD_MINIMUM = "field.minimum", Error, "a number is below `minimum`";
    FIELD_MAXIMUM = "field.maximum", Error, "a number is above `maximum`";
    FIELD_EXCLUSIVE_MINIMUM = "field.exclusiveMinimum", Error, "a number is not above `exclusiveMinimum`";
    FIELD_EXCLUSIVE_MAXIMUM = "field.exclusiveMaximum", Error, "a number is not below `exclusiveMaximum`";
    FIELD_MULTIPLE_OF = "field.multipleOf", Error, "a number is not a multiple of `multipleOf`";
    FIELD_MIN_LENGTH = "field.minLength", Error, "a string has fewer code points than `minLength`";
    FIELD_MAX_LENGTH = "field.maxLength", Error, "a string has more code points than `maxLength`";
    FIELD_PATTERN = "field.pattern", Error, "a string does not match `pattern` (unanchored search)";
    FIELD_MIN_ITEMS = "field.minItems", Error, "an array has fewer elements than `minItems`";
    FIELD_MAX_ITEMS = "field.maxItems", Error, "an array has more elements than `maxItems`";
    FIELD_UNIQUE_ITEMS = "field.uniqueItems", Error, "an array repeats an element under `uniqueItems`";
    FIELD_UNKNOWN = "field.unknown", Warning, "a strict contract does not declare this top-level key";
    JSON_DUPLICATE_KEY = "json.duplicate_key", Error, "an object repeats a key";
    JSON_SYNTAX = "json.syntax", Error, "the document is not JSON (validate_json on raw bytes only)";
    JSON_DEPTH = "json.depth", Error, "objects and arrays nest deeper than the limit (128)";
}

/// The rule with this id.
pub fn find(id: &str) -> Option<&'static Rule> {
    VALIDATION_RULES.iter().find(|r| r.id == id)
}
