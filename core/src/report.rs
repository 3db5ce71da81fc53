//! Findings and reports: what validation says about one document.
//!
//! A [`Report`] is the sorted list of [`Finding`]s for one document
//! (severity, error first, then field, then rule). It is plain data; rendering
//! lives in `render`.

/// The most bytes one finding's message holds.
pub use crate::keywords::MESSAGE_MAX;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use serde::Serialize;

use crate::rules::Rule;

/// The field name of findings about the data body as a whole.
pub const DATA_FIELD: &str = "<data>";

pub use crate::rules::Severity;

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The version of every JSON output's shape, its first key
/// (`"format_version"`): raised when a key changes meaning or goes away, not
/// when one is added.
pub const FORMAT_VERSION: u32 = 1;

/// One observation about a document.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Finding {
    severity: Severity,
    rule: &'static str,
    field: String,
    /// A fixed sentence (`required field is missing`) is not copied.
    message: Cow<'static, str>,
}

impl Finding {
    /// A finding of `rule`, with the rule's severity.
    pub fn new(rule: &'static Rule, field: impl Into<String>, message: impl Into<Cow<'static, str>>) -> Self {
        let message = crate::keywords::bounded(message.into());
        Finding { severity: rule.severity, rule: rule.id, field: field.into(), message }
    }

    /// Whether the finding fails the document; every finding of a rule has
    /// the rule's severity.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The rule id, such as `field.enum`.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// The field path (`params.messages[2].role`), a top-level key, or
    /// `<envelope>` / `<data>` for document-level findings.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong, in one sentence (`value 'x' not in {'y'}`).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same finding about a value found at `prefix` inside a larger
    /// document: its field becomes `prefix.field` (`prefix[0]` for an array
    /// element, `prefix` alone for the value itself, [`crate::DATA_FIELD`]).
    /// An empty prefix leaves the field as it is.
    pub fn under(mut self, prefix: &str) -> Finding {
        if prefix.is_empty() {
            return self;
        }
        self.field = if self.field == crate::DATA_FIELD {
            prefix.to_string()
        } else if self.field.starts_with('[') {
            format!("{prefix}{}", self.field)
        } else {
            format!("{prefix}.{}", self.field)
        };
        self
    }

    /// Report order: severity (errors first), field, rule (SPEC §4), then
    /// the message, so that the order is total and equal findings meet.
    fn order(&self, other: &Finding) -> Ordering {
        (self.severity.rank(), self.field.as_str(), self.rule, &*self.message).cmp(&(
            other.severity.rank(),
            other.field.as_str(),
            other.rule,
            &*other.message,
        ))
    }
}

impl fmt::Display for Finding {
    /// `ERROR field.enum method: value 'x' not in {'y'}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}: {}", self.severity.label(), self.rule, self.field, self.message)
    }
}

/// The findings for one document, sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Report {
    findings: Vec<Finding>,
}

impl Report {
    /// Sorts the findings into report order, each distinct finding once: a
    /// fault of the data seen twice (a key repeated three times, a value
    /// read again by `allOf` or a `$ref` beside other keywords) says nothing
    /// the first did not.
    pub fn new(mut findings: Vec<Finding>) -> Self {
        if findings.len() > 1 {
            findings.sort_by(Finding::order);
            findings.dedup();
        }
        Report { findings }
    }

    /// Whether no finding is an error.
    pub fn is_valid(&self) -> bool {
        !self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Every finding, in report order: errors first, then by field and rule.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The error findings, in report order; none when the document is valid.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.severity == Severity::Error)
    }

    /// The warning findings, in report order.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.severity == Severity::Warning)
    }

    /// The findings, in report order, by value.
    pub fn into_findings(self) -> Vec<Finding> {
        self.findings
    }
}

impl fmt::Display for Report {
    /// One line per finding, in report order (`ERROR field.enum method: ...`);
    /// `no findings` for an empty report.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.findings.is_empty() {
            return f.write_str("no findings");
        }
        for (i, finding) in self.findings.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{finding}")?;
        }
        Ok(())
    }
}

/// A report is an error value, so that `T::from_json(bytes)?` works in any
/// function returning `Box<dyn std::error::Error>` (or `anyhow::Result`).
impl std::error::Error for Report {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;

    #[test]
    fn a_report_is_an_error_that_lists_its_findings() {
        let report = Report::new(vec![
            Finding::new(rules::FIELD_UNKNOWN, "x", "undeclared key 'x'"),
            Finding::new(rules::FIELD_REQUIRED, "id", "required field is missing"),
        ]);
        assert_eq!(
            report.to_string(),
            "ERROR field.required id: required field is missing\nWARNING field.unknown x: undeclared key 'x'"
        );
        let boxed: Box<dyn std::error::Error> = Box::new(report);
        assert!(boxed.to_string().starts_with("ERROR field.required"));
        assert_eq!(Report::default().to_string(), "no findings");
    }
}
