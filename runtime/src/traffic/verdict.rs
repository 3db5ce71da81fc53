//! A message's verdict: where it is ([`Source`]), what judged it
//! ([`Judges`]), its findings, and its [`Status`] as shown.

use std::fmt;
use std::io::{self, Write};

use crate::report::{Finding, Report};
use crate::rules;
use crate::ContractSpec;

/// The field of findings about a message as a whole.
pub const MESSAGE_FIELD: &str = "<message>";

/// How the finding on a message that is not one JSON value begins.
pub(super) const NOT_JSON: &str = "not JSON";

/// One message's verdict. It borrows its label and contracts (nothing is
/// allocated for a message that passes); they are written out when shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged<'a> {
    /// Where the message is: `FILE:LINE`, `FILE:LINE[i]` for a batch element.
    pub source: Source<'a>,
    /// The contracts that judged the message, in the order applied (none
    /// when it could not be routed).
    pub contracts: Judges<'a>,
    /// Every finding; the message passes when none is an error.
    pub report: Report,
}

/// A message's verdict as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No error, and paired when a response.
    Pass,
    /// A response without error that answers no pending request: nobody
    /// checked it against its method's contract, so it never reads as passed.
    Unpaired,
    /// An error finding.
    Fail,
}

impl Status {
    /// `pass`, `unpaired`, `fail`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Unpaired => "unpaired",
            Status::Fail => "fail",
        }
    }
}

impl<'a> Judged<'a> {
    /// Pass, unpaired (a `route.id` finding, no error) or fail.
    pub fn status(&self) -> Status {
        if !self.report.is_valid() {
            Status::Fail
        } else if self.report.findings().iter().any(|f| f.rule() == rules::ROUTE_ID.id) {
            Status::Unpaired
        } else {
            Status::Pass
        }
    }

    /// Whether the message was not one JSON value (its bytes do not parse,
    /// or nest deeper than a reader follows): then that is its only finding.
    /// A caller that records the message must record it as a string of its
    /// text, which is one JSON value, and judge that instead.
    pub fn unreadable(&self) -> bool {
        matches!(self.report.findings(), [f] if f.rule() == rules::JSONRPC_SHAPE.id
            && f.field() == MESSAGE_FIELD
            && f.message().starts_with(NOT_JSON))
    }

    /// A verdict's place, held until it is judged.
    pub(super) fn placeholder(source: Source<'a>) -> Self {
        Judged { source, contracts: Judges::default(), report: Report::default() }
    }
}

/// Where a message is in its capture: `FILE:LINE`, or `FILE:LINE[i]` for
/// element `i` (from 0) of a batch line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Source<'a> {
    /// The file's label (or the whole label given to [`Traffic::line`](super::Traffic::line)).
    pub file: &'a str,
    // Four words, not six: a verdict crosses threads (`Traffic::lines`).
    /// The line number (from 1), 0 when the label is whole.
    line: usize,
    /// The batch element plus one, 0 for a message alone on its line.
    element: usize,
}

impl<'a> Source<'a> {
    /// A whole label (`FILE:LINE` given as one text).
    pub fn labelled(file: &'a str) -> Self {
        Source { file, line: 0, element: 0 }
    }

    /// Line `line` (from 1) of `file`.
    pub fn at_line(file: &'a str, line: usize) -> Self {
        Source { file, line, element: 0 }
    }

    /// The line number, unless the label is whole.
    pub fn line(&self) -> Option<usize> {
        (self.line > 0).then_some(self.line)
    }

    /// The element of a batch (from 0).
    pub fn element(&self) -> Option<usize> {
        self.element.checked_sub(1)
    }

    pub(super) fn at(self, element: usize) -> Self {
        Source { element: element + 1, ..self }
    }
}

impl fmt::Display for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file)?;
        if let Some(line) = self.line() {
            write!(f, ":{line}")?;
        }
        if let Some(i) = self.element() {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("file", &self.file)
            .field("line", &self.line())
            .field("element", &self.element())
            .finish()
    }
}

/// The contracts that judged a message, in the order applied: a message's
/// own contract and its tool's, so at most two in practice, kept inline.
#[derive(Debug, Clone, Default)]
pub struct Judges<'a> {
    inline: [Option<&'a ContractSpec>; 2],
    /// Never used by today's routing (two at most); boxed, so that a
    /// verdict stays small.
    // One word, where a `Vec` is three and a boxed slice two.
    #[allow(clippy::box_collection)]
    more: Option<Box<Vec<&'a ContractSpec>>>,
}

impl<'a> Judges<'a> {
    /// One contract: written whole, where a [`Judges::push`] on the default
    /// writes one word and a verdict's move then reads it back with its
    /// neighbours (a stalled load).
    pub(super) fn one(c: &'a ContractSpec) -> Self {
        Judges { inline: [Some(c), None], more: None }
    }

    pub(super) fn push(&mut self, c: &'a ContractSpec) {
        match self.inline.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(c),
            None => self.more.get_or_insert_default().push(c),
        }
    }

    /// The contracts in the order applied.
    pub fn iter(&self) -> impl Iterator<Item = &'a ContractSpec> + '_ {
        self.inline.iter().flatten().copied().chain(self.more.iter().flat_map(|more| more.iter().copied()))
    }

    /// Whether no contract judged the message (it could not be routed).
    pub fn is_empty(&self) -> bool {
        self.inline[0].is_none()
    }

    /// Each contract as `name@revision`.
    pub fn ids(&self) -> Vec<String> {
        self.iter().map(ContractSpec::id).collect()
    }
}

impl PartialEq for Judges<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().map(|c| (c.name(), c.revision())).eq(other.iter().map(|c| (c.name(), c.revision())))
    }
}

impl Eq for Judges<'_> {}

pub(super) fn shape<'a>(source: Source<'a>, field: &str, message: String) -> Judged<'a> {
    let report = Report::new(vec![Finding::new(rules::JSONRPC_SHAPE, field, message)]);
    Judged { source, contracts: Judges::default(), report }
}

/// `[PASS] mcp.ping.request@2025.6.18 <- capture.jsonl:3` (the contracts
/// that judged the message joined by ` + `, `(unrouted)` when none did),
/// then every finding indented by two spaces.
pub fn write_text(w: &mut dyn Write, j: &Judged) -> io::Result<()> {
    // Written piece by piece (`one_line` maps each character on its own, so
    // the pieces read as the whole would), numbers by hand: nothing is
    // allocated and nothing goes through `fmt` for a message whose texts
    // are printable: the path every failing message of a capture takes.
    w.write_all(match j.status() {
        Status::Pass => b"[PASS] ",
        Status::Unpaired => b"[UNPAIRED] ",
        Status::Fail => b"[FAIL] ",
    })?;
    if j.contracts.is_empty() {
        w.write_all(b"(unrouted)")?;
    }
    for (i, c) in j.contracts.iter().enumerate() {
        if i > 0 {
            w.write_all(b" + ")?;
        }
        w.write_all(c.shown_id().as_bytes())?;
    }
    w.write_all(b" <- ")?;
    w.write_all(crate::one_line(j.source.file).as_bytes())?;
    if let Some(line) = j.source.line() {
        w.write_all(b":")?;
        write_number(w, line as u64)?;
    }
    if let Some(i) = j.source.element() {
        w.write_all(b"[")?;
        write_number(w, i as u64)?;
        w.write_all(b"]")?;
    }
    w.write_all(b"\n")?;
    for f in j.report.findings() {
        // `Finding`'s `Display`, in pieces.
        for piece in ["  ", f.severity().label(), " ", f.rule(), " ", f.field(), ": ", f.message(), "\n"] {
            w.write_all(piece.as_bytes())?;
        }
    }
    Ok(())
}

/// `n` in decimal.
fn write_number(w: &mut dyn Write, mut n: u64) -> io::Result<()> {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    w.write_all(&digits[at..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    /// A verdict is ten words: its source four (not six), its contracts
    /// three (the spill boxed), its report three. Verdicts cross threads
    /// by the hundred thousand (`Traffic::lines`).
    #[test]
    fn a_verdict_stays_small_and_its_source_reads_back() {
        assert_eq!(std::mem::size_of::<Judged<'_>>(), 10 * std::mem::size_of::<usize>());
        let line = Source::at_line("cap", 7);
        assert_eq!((line.line(), line.element(), line.to_string()), (Some(7), None, "cap:7".to_string()));
        let element = line.at(0);
        assert_eq!((element.line(), element.element(), element.to_string()), (Some(7), Some(0), "cap:7[0]".into()));
        let whole = Source::labelled("cap:9").at(2);
        assert_eq!((whole.line(), whole.element(), whole.to_string()), (None, Some(2), "cap:9[2]".to_string()));
        assert_eq!(format!("{element:?}"), r#"Source { file: "cap", line: Some(7), element: Some(0) }"#);
    }

    /// A third contract (none today's routing pushes) is kept, in order.
    #[test]
    fn judges_keep_every_contract_in_order() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../protocols/mcp/2025-06-18");
        let catalog = Catalog::load(&[root]).expect("the bundled catalog loads");
        let some: Vec<&ContractSpec> = catalog.contracts().take(4).collect();
        let mut judges = Judges::default();
        assert!(judges.is_empty());
        for c in &some {
            judges.push(c);
        }
        assert_eq!(judges.ids(), some.iter().map(|c| c.id()).collect::<Vec<_>>());
        assert_eq!(some[0].shown_id(), some[0].id());
        // One contract written whole is the same list as one pushed.
        let one = Judges::one(some[1]);
        assert_eq!(one.ids(), [some[1].id()]);
        assert!(!one.is_empty() && one.more.is_none());
    }
}
