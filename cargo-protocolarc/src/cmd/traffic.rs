//! `traffic`: raw JSON-RPC 2.0 captures judged by a protocol's catalog
//! (SPEC §12). The routing is the library's (`protocolarc::traffic`); this
//! module picks the catalog revision, reads the capture within the line cap
//! and streams the verdicts.

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;

use crate::render::traffic::{self as render, Summary};
use protocolarc::envelope::{collect_files, EnvelopeFile};
use protocolarc::input::{self, next_whole_line, size_phrase, BatchError, EachBatchError, Limits, Line, LineBatches};
use protocolarc::traffic::{batch_bytes, hints, Hint, Judged, Traffic};
use protocolarc::Catalog;

use super::Ctx;
use crate::cli::traffic::TrafficArgs;
use crate::cli::ReportFormat;
use crate::progress::Progress;
use crate::{exit, Failure};

/// Writes verdicts as they come.
struct Sink<'w> {
    format: ReportFormat,
    out: &'w mut dyn Write,
    protocol: String,
    summary: Summary,
    started: bool,
    quiet: bool,
    written: usize,
}

impl Sink<'_> {
    fn start(&mut self) -> std::io::Result<()> {
        if !self.started {
            self.started = true;
            if self.format == ReportFormat::Json {
                render::write_json_start(self.out, &self.protocol)?;
            }
        }
        Ok(())
    }

    /// Whether `j` is written out (`--quiet` writes failures only).
    fn shows(&self, j: &Judged) -> bool {
        !(self.quiet && j.report.is_valid())
    }

    fn push(&mut self, j: &Judged) -> std::io::Result<()> {
        self.start()?;
        self.summary.add(j);
        if !self.shows(j) {
            return Ok(());
        }
        match self.format {
            ReportFormat::Text => render::write_text(self.out, j)?,
            ReportFormat::Json => render::write_json_result(self.out, self.written == 0, j)?,
        }
        self.written += 1;
        Ok(())
    }

    fn finish(&mut self, error: Option<&str>) -> std::io::Result<()> {
        match self.format {
            ReportFormat::Text if error.is_none() => {
                render::write_text_summary(self.out, &self.protocol, &self.summary)
            }
            ReportFormat::Text => Ok(()),
            ReportFormat::Json => {
                self.start()?;
                render::write_json_end(self.out, self.written > 0, &self.summary, error)
            }
        }
    }
}

pub(crate) fn run(cx: &Ctx, args: TrafficArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let limits = Limits::from_env().map_err(Failure::Input)?;
    let files = collect_files(&args.files)?;
    let root = match &args.catalog {
        Some(dir) => dir.clone(),
        None => cx.bundled("protocols")?,
    };
    let available = revisions(&root)?;
    let (name, revision) = match &args.protocol {
        Some(p) => chosen(p, &root, &available)?,
        None => detected(&files, &root, &available, limits, err)?,
    };
    let dir = root.join(&name).join(&revision);
    let catalog = Catalog::load(std::slice::from_ref(&dir))?;
    let tools = match &args.tools {
        Some(t) => Some(Catalog::load(std::slice::from_ref(t))?),
        None => None,
    };
    if let Some(tools) = &tools {
        note_revisions(tools, err)?;
    }
    let label = format!("{name}@{revision}");
    let mut traffic = Traffic::new(&name, &label, &catalog, tools.as_ref());
    if let Some((before, methods)) = removed(&root, &available, &name, &revision, &catalog)? {
        traffic.removed_since(&before, methods);
    }
    let mut sink = Sink {
        format: args.bulk.format,
        out,
        protocol: label,
        summary: Summary::default(),
        started: false,
        quiet: args.bulk.quiet,
        written: 0,
    };
    let jobs = args.bulk.jobs();
    let mut progress = Progress::new("traffic");
    for file in &files {
        traffic.start_file();
        if is_har(file) {
            let messages = har_messages(file, limits)?;
            for m in &messages {
                let label = format!("{}{}", file.label, m.suffix);
                for j in traffic.line(&label, &m.line) {
                    sink.push(&j)?;
                }
            }
            continue;
        }
        let read = each_batch(file, limits, jobs, |lines, bytes, read_ahead| {
            traffic.lines(&file.label, lines, jobs, read_ahead, |j| {
                // Output and progress may share a terminal: one at a time.
                if sink.shows(&j) {
                    progress.hide();
                }
                sink.push(&j)
            })?;
            if progress.on() {
                sink.out.flush()?;
            }
            progress.add(lines.len(), bytes);
            Ok(())
        });
        if let Err(Failure::Input(msg)) = read {
            progress.finish();
            if sink.started {
                sink.finish(Some(&msg))?;
            }
            return Err(Failure::Input(msg));
        }
        read?;
    }
    progress.finish();
    sink.finish(None)?;
    Ok(if sink.summary.failed > 0 { exit::FAILED } else { exit::OK })
}

/// Says which revision judges a tool that `--tools` holds several of: the newest.
fn note_revisions(tools: &Catalog, err: &mut dyn Write) -> Result<(), Failure> {
    let all: Vec<&protocolarc::ContractSpec> = tools.contracts().collect();
    for group in all.chunk_by(|a, b| a.name() == b.name()).filter(|g| g.len() > 1) {
        let revisions: Vec<String> = group.iter().map(|c| c.revision().to_string()).collect();
        let newest = revisions.last().cloned().unwrap_or_default();
        writeln!(
            err,
            "note: --tools holds {} revisions of {} ({}): {newest}, the newest, judges it",
            group.len(),
            crate::render::one_line(group[0].name()),
            revisions.join(", ")
        )?;
    }
    Ok(())
}

/// Whether a capture is a HAR file (`.har`).
fn is_har(file: &EnvelopeFile) -> bool {
    file.path.extension().is_some_and(|e| e.eq_ignore_ascii_case("har"))
}

/// A HAR file's messages, read whole within the document cap.
fn har_messages(file: &EnvelopeFile, limits: Limits) -> Result<Vec<protocolarc::traffic::har::HarMessage>, Failure> {
    let shown = file.path.display();
    let bytes = match input::read_capped(&file.path, limits.max_document) {
        Ok(b) => b,
        Err(input::ReadError::Io(e)) => {
            return Err(Failure::Input(format!("{shown}: cannot read: {}", crate::io_reason(&e))))
        }
        Err(input::ReadError::TooLarge(cap)) => {
            return Err(Failure::Input(format!(
                "{shown}: larger than the limit of {} (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)",
                size_phrase(cap)
            )))
        }
    };
    protocolarc::traffic::har::messages(&bytes).map_err(|why| Failure::Input(format!("{shown}: {why}")))
}

/// Every `(name, revision)` directory of the catalog, sorted.
fn revisions(root: &Path) -> Result<Vec<(String, String)>, Failure> {
    let shown = root.display();
    let missing = |why: String| {
        Failure::Input(format!(
            "{shown}: cannot read the protocol catalog: {why} (expected {shown}/<protocol>/<revision>/*.json; --catalog DIR names another)"
        ))
    };
    let dirs = |dir: &Path| -> Result<Vec<String>, Failure> {
        let entries = std::fs::read_dir(dir).map_err(|e| missing(crate::io_reason(&e)))?;
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| missing(crate::io_reason(&e)))?;
            if entry.path().is_dir() {
                if let Some(n) = entry.file_name().to_str() {
                    names.push(n.to_string());
                }
            }
        }
        names.sort();
        Ok(names)
    };
    let mut out = Vec::new();
    for name in dirs(root)? {
        for revision in dirs(&root.join(&name))? {
            if holds_contracts(&root.join(&name).join(&revision)) {
                out.push((name.clone(), revision));
            }
        }
    }
    if out.is_empty() {
        return Err(missing("it holds no <protocol>/<revision> directory".into()));
    }
    Ok(out)
}

/// Whether `dir` is a protocol revision: its first `*.json` file (by name)
/// is a contract document (an object with a string `name` and `revision`).
/// The vendored schemas (`vendor/mcp/DATE/`) and the tools/list captures
/// kept beside a catalog (`tools-list/history/`) are not protocols.
fn holds_contracts(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    let first = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && input::is_regular_file(p))
        .min();
    let Some(first) = first else { return false };
    let Ok(bytes) = input::read_capped(&first, Limits::default().max_document) else { return false };
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else { return false };
    doc.get("name").is_some_and(serde_json::Value::is_string)
        && doc.get("revision").is_some_and(serde_json::Value::is_string)
}

fn list(available: &[(String, String)]) -> String {
    available.iter().map(|(n, r)| format!("{n}@{r}")).collect::<Vec<_>>().join(", ")
}

/// `--protocol NAME@REVISION`, one of the catalog's.
fn chosen(p: &str, root: &Path, available: &[(String, String)]) -> Result<(String, String), Failure> {
    let found = p.split_once('@').and_then(|(n, r)| available.iter().find(|(an, ar)| an == n && ar == r));
    match found {
        Some(pair) => Ok(pair.clone()),
        None => Err(Failure::Input(format!(
            "unknown protocol '{}': the catalog {} has {}",
            crate::render::one_line(p),
            root.display(),
            list(available)
        ))),
    }
}

/// The revision the capture tells (see ABOUT): the first MCP `initialize`
/// request or A2A agent card decides; else A2A methods pick the newest A2A
/// revision that knows them all; else the newest MCP revision.
fn detected(
    files: &[EnvelopeFile],
    root: &Path,
    available: &[(String, String)],
    limits: Limits,
    err: &mut dyn Write,
) -> Result<(String, String), Failure> {
    /// Distinct methods kept for the decision: a capture uses a few.
    const METHODS: usize = 256;
    let mut found: Option<(Hint, String)> = None;
    let mut methods: Vec<String> = Vec::new();
    for file in files {
        let mut read = |label: &str, line: &[u8]| {
            for hint in hints(line) {
                match hint {
                    Hint::Method(m) => {
                        if methods.len() < METHODS && !methods.contains(&m) {
                            methods.push(m);
                        }
                    }
                    decisive => {
                        found = Some((decisive, label.to_string()));
                        return Ok(false);
                    }
                }
            }
            Ok(true)
        };
        if is_har(file) {
            for m in har_messages(file, limits)? {
                if !read(&format!("{}{}", file.label, m.suffix), &m.line)? {
                    break;
                }
            }
        } else {
            each_line(file, limits, read)?;
        }
        if found.is_some() {
            break;
        }
    }
    let unknown = |what: String| {
        Failure::Input(format!(
            "{what}, which the catalog {} has no revision of (it has {}); pick one with --protocol",
            root.display(),
            list(available)
        ))
    };
    match found {
        Some((Hint::Initialize(version), at)) => {
            if let Some(pair) = available.iter().find(|(n, r)| n == "mcp" && *r == version) {
                writeln!(err, "note: protocol mcp@{version}, from the initialize request at {at}")?;
                return Ok(pair.clone());
            }
            let shown = crate::render::one_line(&version);
            return Err(unknown(format!("{at}: the initialize request asks for protocolVersion '{shown}'")));
        }
        Some((Hint::Declared { method, version }, at)) => {
            if let Some(pair) = available.iter().find(|(n, r)| n == "mcp" && *r == version) {
                let method = protocolarc::one_line(&method);
                writeln!(err, "note: protocol mcp@{version}, from the {method} request's _meta at {at}")?;
                return Ok(pair.clone());
            }
            let (shown, method) = (protocolarc::one_line(&version), protocolarc::one_line(&method));
            return Err(unknown(format!("{at}: the {method} request names protocolVersion '{shown}' in its _meta")));
        }
        Some((Hint::AgentCard(version), at)) => {
            // A2A patch releases keep their minor's messages: 0.2.9 is read as the newest 0.2.x.
            let minor = |v: &str| v.split('.').take(2).map(str::to_string).collect::<Vec<_>>();
            let pair = available
                .iter()
                .filter(|(n, r)| n == "a2a" && minor(r) == minor(&version))
                .max_by_key(|(_, r)| numeric(r));
            if let Some(pair) = pair {
                writeln!(
                    err,
                    "note: protocol a2a@{}, from the agent card at {at} (protocolVersion {version})",
                    pair.1
                )?;
                return Ok(pair.clone());
            }
            let shown = crate::render::one_line(&version);
            return Err(unknown(format!("{at}: the agent card declares protocolVersion '{shown}'")));
        }
        _ => {}
    }
    if let Some((pair, a2a)) = by_methods(root, available, &methods)? {
        writeln!(err, "note: protocol a2a@{}, from the A2A methods in the capture ({})", pair.1, a2a.join(", "))?;
        return Ok(pair);
    }
    match available.iter().rev().find(|(n, _)| n == "mcp") {
        Some(pair) => {
            writeln!(err, "note: protocol mcp@{} (no initialize request: the newest MCP revision)", pair.1)?;
            Ok(pair.clone())
        }
        None => Err(Failure::Input(format!(
            "the catalog {} has no MCP revision ({}): name the protocol with --protocol",
            root.display(),
            list(available)
        ))),
    }
}

/// The revision of `name` just before `revision` in the catalog, and the
/// methods it has a request contract for that `catalog` has not.
fn removed(
    root: &Path,
    available: &[(String, String)],
    name: &str,
    revision: &str,
    catalog: &Catalog,
) -> Result<Option<(String, Vec<String>)>, Failure> {
    let before =
        available.iter().filter(|(n, r)| n == name && numeric(r) < numeric(revision)).max_by_key(|(_, r)| numeric(r));
    let Some((_, before)) = before else { return Ok(None) };
    let requests = |c: &Catalog| -> Vec<String> {
        let prefix = format!("{name}.");
        c.contracts()
            .filter_map(|c| c.name().strip_prefix(&prefix)?.strip_suffix(".request").map(str::to_string))
            .collect()
    };
    let now = requests(catalog);
    let old = Catalog::load(&[root.join(name).join(before)])?;
    let gone: Vec<String> = requests(&old).into_iter().filter(|m| !now.contains(m)).collect();
    Ok((!gone.is_empty()).then(|| (format!("{name}@{before}"), gone)))
}

/// A catalog revision: `(protocol, revision)`.
type Revision = (String, String);

/// A revision's numbers, for ordering (`0.10.0` after `0.9.1`).
fn numeric(revision: &str) -> Vec<u64> {
    revision.split(['.', '-']).map(|p| p.parse().unwrap_or(0)).collect()
}

/// The A2A revision the methods tell, with the A2A-only methods seen: the
/// methods some A2A catalog has a request contract for and no MCP catalog
/// has (`message/send`, `agent/getAuthenticatedExtendedCard`); the newest
/// A2A revision that knows them all, else the newest that knows the first.
fn by_methods(
    root: &Path,
    available: &[(String, String)],
    methods: &[String],
) -> Result<Option<(Revision, Vec<String>)>, Failure> {
    if methods.is_empty() || !available.iter().any(|(n, _)| n == "a2a") {
        return Ok(None);
    }
    let mut known: Vec<(Revision, std::collections::HashSet<String>)> = Vec::new();
    for pair in available.iter().filter(|(n, _)| n == "mcp" || n == "a2a") {
        let catalog = Catalog::load(&[root.join(&pair.0).join(&pair.1)])?;
        let prefix = format!("{}.", pair.0);
        let names = catalog
            .contracts()
            .filter_map(|c| c.name().strip_prefix(&prefix)?.strip_suffix(".request").map(str::to_string))
            .collect();
        known.push((pair.clone(), names));
    }
    let knows = |protocol: &str, m: &String| known.iter().any(|((n, _), set)| n == protocol && set.contains(m));
    let a2a: Vec<String> = methods.iter().filter(|m| knows("a2a", m) && !knows("mcp", m)).cloned().collect();
    let Some(first) = a2a.first() else { return Ok(None) };
    let newest = |all: bool| {
        known
            .iter()
            .filter(|((n, _), set)| {
                n == "a2a" && if all { a2a.iter().all(|m| set.contains(m)) } else { set.contains(first) }
            })
            .max_by_key(|((_, r), _)| numeric(r))
            .map(|(pair, _)| pair.clone())
    };
    Ok(newest(true).or_else(|| newest(false)).map(|pair| (pair, a2a)))
}

/// Hands every line of `file` to `each` with its label `FILE:LINE`, each
/// read within the line cap (a longer line is an input error), until `each`
/// answers `false`.
fn each_line(
    file: &EnvelopeFile,
    limits: Limits,
    mut each: impl FnMut(&str, &[u8]) -> Result<bool, Failure>,
) -> Result<(), Failure> {
    let shown = file.path.display().to_string();
    let cannot = |e: std::io::Error| Failure::Input(format!("{shown}: cannot read: {}", crate::io_reason(&e)));
    let mut reader = BufReader::new(File::open(&file.path).map_err(cannot)?);
    let mut line = Vec::new();
    let mut number = 0usize;
    loop {
        let read = next_whole_line(&mut reader, &mut line, limits.max_line).map_err(cannot)?;
        number += 1;
        match read {
            Line::End => return Ok(()),
            Line::TooLong => {
                return Err(Failure::Input(format!(
                    "{shown}:{number}: line is longer than the limit of {} (PROTOCOLARC_MAX_LINE_BYTES raises it)",
                    size_phrase(limits.max_line)
                )))
            }
            Line::Whole | Line::Decided => {
                if !each(&format!("{}:{number}", file.label), &line)? {
                    return Ok(());
                }
            }
        }
    }
}

/// Hands the lines of `file` to `each` a batch at a time, as `(LINE, bytes)`
/// with the batch's byte count and a way to read the next batch ahead,
/// each line read within the line cap (a longer line is an input error,
/// after the lines before it are handed on).
fn each_batch(
    file: &EnvelopeFile,
    limits: Limits,
    jobs: usize,
    mut each: impl FnMut(&[(usize, &[u8])], usize, &mut dyn FnMut()) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let shown = file.path.display().to_string();
    let cannot = |e: std::io::Error| Failure::Input(format!("{shown}: cannot read: {}", crate::io_reason(&e)));
    let batches = LineBatches::new(File::open(&file.path).map_err(cannot)?, limits.max_line);
    let read = input::each_batch(batches, usize::MAX, batch_bytes(jobs), |lines, read_ahead| {
        let bytes = lines.iter().map(|(_, l)| l.len() + 1).sum();
        each(lines, bytes, read_ahead)
    });
    match read {
        Ok(()) => Ok(()),
        Err(EachBatchError::Each(failure)) => Err(failure),
        Err(EachBatchError::Read(BatchError::Io(e))) => Err(cannot(e)),
        Err(EachBatchError::Read(BatchError::TooLong(number))) => Err(Failure::Input(format!(
            "{shown}:{number}: line is longer than the limit of {} (PROTOCOLARC_MAX_LINE_BYTES raises it)",
            size_phrase(limits.max_line)
        ))),
    }
}
