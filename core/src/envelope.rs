//! Envelope documents and the files that hold them.
//!
//! An envelope is `{"contract": ..., "revision": ..., "data": {...}}`. Files are
//! `.jsonl` (one envelope per non-blank line, read as a stream: memory stays
//! bounded by the longest line, whatever the file's size) or `.json` (one
//! envelope or an array of them). A directory stands for every `.json` and
//! `.jsonl` file below it, in path order. The envelope wrapper is checked
//! strictly (malformed JSON, unknown or missing keys are input errors); the
//! `data` body is kept as raw bytes for the validator to judge.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::input::{is_regular_file, next_line, read_capped, size_phrase, Limits, Line, ReadError};
use crate::io_reason as load_io_reason;
use crate::json::scan::{line_col, Kind, Scanner, SyntaxError};
use crate::json::text::quote;

/// One envelope: whom it targets, and its data body as raw JSON bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    source: String,
    contract: String,
    revision: Option<String>,
    data: Vec<u8>,
}

impl Envelope {
    /// An envelope built in memory; `source` labels it in output.
    pub fn new(
        source: impl Into<String>,
        contract: impl Into<String>,
        revision: Option<String>,
        data: Vec<u8>,
    ) -> Self {
        Envelope { source: source.into(), contract: contract.into(), revision, data }
    }

    /// `file.jsonl:LINE` or `file.json:INDEX`.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The contract name the envelope targets.
    pub fn contract(&self) -> &str {
        &self.contract
    }

    /// The revision it declares, if any.
    pub fn revision(&self) -> Option<&str> {
        self.revision.as_deref()
    }

    /// The data body, exactly as it appeared in the file.
    pub fn data(&self) -> &[u8] {
        &self.data
    }
}

/// Input that cannot be read as envelopes: exit code 3 territory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    origin: String,
    /// 1-based; 0 when the problem has no position.
    line: usize,
    column: usize,
    message: String,
}

impl InputError {
    /// An error without a position.
    pub fn new(origin: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { origin: origin.into(), line: 0, column: 0, message: message.into() }
    }

    /// An I/O error reading `origin`, in words (no OS error number).
    pub fn io(origin: impl Into<String>, e: &std::io::Error) -> Self {
        InputError::new(origin, load_io_reason(e))
    }

    /// The file (or label) the input came from.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The 1-based line of the problem; 0 when it has no position (the file
    /// cannot be read).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column of the problem, in characters; 0 when it has no
    /// position.
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong, as one sentence without the origin or position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.origin, self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.origin, self.line, self.column, self.message)
        }
    }
}

impl std::error::Error for InputError {}

/// A file of envelopes and the label its sources carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvelopeFile {
    /// The file to read.
    pub path: PathBuf,
    /// The label the file's envelopes carry as their source in reports: the
    /// file name, or its path below a directory given as input.
    pub label: String,
}

/// Expands files and directories into envelope files, in order: each file as
/// given (labelled by its file name), each directory's `.json`/`.jsonl` files
/// below it sorted by path (labelled by their path inside the directory).
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<EnvelopeFile>, InputError> {
    let mut out = Vec::new();
    for path in paths {
        let origin = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| InputError::new(&origin, load_io_reason(&e)))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(path, path, &mut found)?;
            if found.is_empty() {
                return Err(InputError::new(origin, "directory contains no .json or .jsonl files"));
            }
            // Sorted by path, component by component (`a/b.jsonl` before `a.jsonl`).
            found.sort_by(|a, b| a.1.cmp(&b.1));
            out.extend(found.into_iter().map(|(label, path)| EnvelopeFile { path, label }));
        } else {
            let label = path.file_name().map_or(origin.clone(), |n| n.to_string_lossy().into_owned());
            out.push(EnvelopeFile { path: path.clone(), label });
        }
    }
    Ok(out)
}

fn walk(root: &Path, dir: &Path, found: &mut Vec<(String, PathBuf)>) -> Result<(), InputError> {
    let origin = || dir.display().to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| InputError::new(origin(), load_io_reason(&e)))?;
    for entry in entries {
        let entry = entry.map_err(|e| InputError::new(origin(), load_io_reason(&e)))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| InputError::new(origin(), load_io_reason(&e)))?;
        if kind.is_dir() {
            walk(root, &path, found)?;
        } else if is_envelope_file(&path) && is_regular_file(&path) {
            // Regular files only (links to them too): a FIFO or a device
            // in a directory would block or never end.
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let label = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            found.push((label, path));
        }
    }
    Ok(())
}

fn is_envelope_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("json" | "jsonl" | "ndjson"))
}

fn is_jsonl(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("jsonl" | "ndjson"))
}

/// Reads JSONL envelopes from any reader, one line at a time: memory holds
/// one line, whatever the stream's length. Sources are `label:LINE`; errors
/// name `origin`, the line and the column. Lines are capped at
/// [`Limits::from_env`]'s `max_line` (64 MiB unless `PROTOCOLARC_MAX_LINE_BYTES` says otherwise).
pub fn read_jsonl<R: BufRead, E: From<InputError>>(
    reader: R,
    label: &str,
    origin: &str,
    each: impl FnMut(Envelope) -> Result<(), E>,
) -> Result<usize, E> {
    let limits = Limits::from_env().map_err(|msg| InputError::new(origin, msg))?;
    read_jsonl_within(reader, label, origin, limits, each)
}

/// [`read_jsonl`] with a chosen cap on a line ([`Limits::max_line`]): a longer
/// line is an input error naming its number, and reading stops there. A line
/// whose first byte cannot start an envelope is refused at that byte, unread
/// past it.
pub fn read_jsonl_within<R: BufRead, E: From<InputError>>(
    mut reader: R,
    label: &str,
    origin: &str,
    limits: Limits,
    mut each: impl FnMut(Envelope) -> Result<(), E>,
) -> Result<usize, E> {
    let mut count = 0;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        let read = next_line(&mut reader, &mut line, limits.max_line)
            .map_err(|e| InputError::new(origin, load_io_reason(&e)))?;
        if read == Line::End {
            return Ok(count);
        }
        number += 1;
        if read == Line::TooLong {
            return Err(line_too_long(origin, number, limits).into());
        }
        if let Some(envelope) = parse_jsonl_line(&line, label, origin, number) {
            count += 1;
            each(envelope?)?;
        }
    }
}

/// The error of a JSONL line longer than [`Limits::max_line`], as
/// [`read_jsonl_within`] words it.
pub fn line_too_long(origin: &str, number: usize, limits: Limits) -> InputError {
    let message = format!(
        "line is longer than the limit of {} (PROTOCOLARC_MAX_LINE_BYTES raises it)",
        size_phrase(limits.max_line)
    );
    InputError { origin: origin.to_string(), line: number, column: limits.max_line + 1, message }
}

/// Line `number` (1-based) of a JSONL file, as [`read_jsonl_within`] parses
/// it from the bytes [`crate::input::next_line`] read (without the line
/// break): none for a blank line, else its envelope (source `label:number`)
/// or the input error naming `origin`, the line and the column. For readers
/// that split the lines and parse them elsewhere (on other threads).
pub fn parse_jsonl_line(line: &[u8], label: &str, origin: &str, number: usize) -> Option<Result<Envelope, InputError>> {
    let mut text = line;
    if number == 1 {
        text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    }
    // The line break is not part of the document: an error at its end
    // is reported at the end of the line, not on the next one.
    text = text.strip_suffix(b"\r").unwrap_or(text);
    if text.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
        return None;
    }
    let source = format!("{label}:{number}");
    Some(parse_one(text, source).map_err(|(offset, message)| {
        let (_, column) = line_col(text, offset);
        InputError { origin: origin.to_string(), line: number, column, message }
    }))
}

/// Reads every envelope of a file in order, handing each to `each`. JSONL is
/// streamed line by line. Stops at the first input error, or when `each`
/// returns an error. Within [`Limits::from_env`] (64 MiB a line, 256 MiB a
/// `.json` file, unless the environment says otherwise).
pub fn read_file<E: From<InputError>>(
    file: &EnvelopeFile,
    each: impl FnMut(Envelope) -> Result<(), E>,
) -> Result<usize, E> {
    let limits = Limits::from_env().map_err(|msg| InputError::new(file.path.display().to_string(), msg))?;
    read_file_within(file, limits, each)
}

/// [`read_file`] with chosen caps: a JSONL line longer than
/// [`Limits::max_line`], or a `.json` file longer than
/// [`Limits::max_document`], is an input error.
pub fn read_file_within<E: From<InputError>>(
    file: &EnvelopeFile,
    limits: Limits,
    each: impl FnMut(Envelope) -> Result<(), E>,
) -> Result<usize, E> {
    let origin = file.path.display().to_string();
    let open_err = |e: std::io::Error| InputError::new(&origin, load_io_reason(&e));
    if is_jsonl(&file.path) {
        let reader = BufReader::new(File::open(&file.path).map_err(open_err)?);
        return read_jsonl_within(reader, &file.label, &origin, limits, each);
    }
    let bytes = read_capped(&file.path, limits.max_document).map_err(|e| read_error(&origin, e))?;
    read_json(&bytes, &file.label, &origin, each)
}

/// A capped read's failure as an input error.
pub(crate) fn read_error(origin: &str, e: ReadError) -> InputError {
    match e {
        ReadError::Io(e) => InputError::new(origin, load_io_reason(&e)),
        ReadError::TooLarge(cap) => InputError::new(
            origin,
            format!("file is larger than the limit of {} (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)", size_phrase(cap)),
        ),
    }
}

/// Reads the envelopes of a `.json` document (one envelope or an array of
/// them) held in memory. Sources are `label:INDEX`; errors name `origin`.
pub fn read_json<E: From<InputError>>(
    bytes: &[u8],
    label: &str,
    origin: &str,
    mut each: impl FnMut(Envelope) -> Result<(), E>,
) -> Result<usize, E> {
    let mut count = 0;
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let fail = |(offset, message): (usize, String)| {
        let (line, column) = line_col(text, offset);
        InputError { origin: origin.to_string(), line, column, message }
    };
    let mut s = Scanner::new(text);
    match s.peek_kind().map_err(syntax).map_err(fail)? {
        Kind::Array => {
            s.array_start();
            while s.array_next(count == 0).map_err(syntax).map_err(fail)? {
                let source = format!("{label}:{}", count + 1);
                let envelope = envelope(&mut s, source).map_err(fail)?;
                count += 1;
                each(envelope)?;
            }
        }
        Kind::Object => {
            let envelope = envelope(&mut s, format!("{label}:1")).map_err(fail)?;
            count += 1;
            each(envelope)?;
        }
        other => {
            let msg = format!("expected an envelope object or an array of them, found {}", other.name());
            return Err(fail((s.offset(), msg)).into());
        }
    }
    s.finish().map_err(syntax).map_err(fail)?;
    Ok(count)
}

/// Whether a file name is read as JSONL (`.jsonl`, `.ndjson`) rather than JSON.
pub fn is_jsonl_name(name: &str) -> bool {
    name.ends_with(".jsonl") || name.ends_with(".ndjson")
}

fn syntax(e: SyntaxError) -> (usize, String) {
    (e.offset, e.kind.message().to_string())
}

/// Parses a whole document holding exactly one envelope.
fn parse_one(text: &[u8], source: String) -> Result<Envelope, (usize, String)> {
    let mut s = Scanner::new(text);
    let e = envelope(&mut s, source)?;
    s.finish().map_err(syntax)?;
    Ok(e)
}

/// Reads one envelope object at the scanner's position. Errors carry the
/// byte offset in the scanner's input.
fn envelope(s: &mut Scanner<'_>, source: String) -> Result<Envelope, (usize, String)> {
    let kind = s.peek_kind().map_err(syntax)?;
    let start = s.offset();
    if kind != Kind::Object {
        return Err((start, format!("an envelope must be a JSON object, found {}", kind.name())));
    }
    s.object_start();
    let mut contract: Option<String> = None;
    let mut revision: Option<String> = None;
    let mut data: Option<(usize, usize)> = None;
    let mut first = true;
    while let Some(key) = s.object_key(first).map_err(syntax)? {
        first = false;
        let key_at = key.offset() - 1;
        let name = key.decode();
        let duplicate = match name.as_ref() {
            "contract" => contract.is_some(),
            "revision" => revision.is_some(),
            "data" => data.is_some(),
            other => {
                let msg = format!("unknown key {} in envelope (expected contract, revision, data)", quote(other, 80));
                return Err((key_at, msg));
            }
        };
        if duplicate {
            return Err((key_at, format!("duplicate key {} in envelope", quote(&name, 80))));
        }
        let kind = s.peek_kind().map_err(syntax)?;
        let at = s.offset();
        if name == "data" {
            s.skip_value().map_err(syntax)?;
            data = Some((at, s.offset()));
            continue;
        }
        if kind != Kind::String {
            return Err((at, format!("'{name}' must be a string, found {}", kind.name())));
        }
        let value = s.string().map_err(syntax)?.decode().into_owned();
        if name == "contract" {
            contract = Some(value);
        } else {
            revision = Some(value);
        }
    }
    let missing = |key: &str| (start, format!("envelope is missing required key '{key}'"));
    let contract = contract.ok_or_else(|| missing("contract"))?;
    let (from, to) = data.ok_or_else(|| missing("data"))?;
    Ok(Envelope { source, contract, revision, data: s.bytes()[from..to].to_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_keeps_raw_data() {
        let e = parse_one(br#"{"data": {"a": [1, 2]}, "contract": "x", "revision": "1.0.0"}"#, "t:1".into()).unwrap();
        assert_eq!(e.contract(), "x");
        assert_eq!(e.revision(), Some("1.0.0"));
        assert_eq!(e.data(), br#"{"a": [1, 2]}"#);
        assert_eq!(e.source(), "t:1");
    }

    #[test]
    fn envelope_wrapper_errors_name_the_offset() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"[1]", 0, "an envelope must be a JSON object, found array"),
            (br#"{"data": {}}"#, 0, "envelope is missing required key 'contract'"),
            (br#"{"contract": "x"}"#, 0, "envelope is missing required key 'data'"),
            (br#"{"contract": 7, "data": {}}"#, 13, "'contract' must be a string, found number"),
            (
                br#"{"contract": "x", "revison": "1", "data": {}}"#,
                18,
                "unknown key 'revison' in envelope (expected contract, revision, data)",
            ),
            (br#"{"contract": "x", "contract": "y", "data": {}}"#, 18, "duplicate key 'contract' in envelope"),
            (br#"{"contract": "x", "data": {]}"#, 27, "expected a string key"),
        ];
        for &(doc, offset, msg) in cases {
            assert_eq!(parse_one(doc, "t".into()), Err((offset, msg.to_string())), "{}", String::from_utf8_lossy(doc));
        }
    }
}
