//! `traffic`: raw JSON-RPC 2.0 captures judged by a protocol's catalog
//! (SPEC §12). The routing is the library's (`protocolarc::traffic`); this
//! module picks the catalog revision, reads the capture within the line cap
//! and streams the verdicts.

use std::fs::File;
use std::io::{BufReader, Write};

use crate::render::traffic::{self as render, Summary};
use protocolarc::envelope::{collect_files, EnvelopeFile};
use protocolarc::input::{self, next_whole_line, size_phrase, BatchError, EachBatchError, Limits, Line, LineBatches};
use protocolarc::traffic::{batch_bytes, hints, Hint, Judged, Revision, Revisions, Traffic};
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
    let root = cx.catalog_root(&args.protocols)?;
    let revisions = Revisions::scan(&root).map_err(Failure::Input)?;
    let chosen = match &args.protocols.protocol {
        Some(p) => revisions.named(p).map_err(Failure::Input)?,
        None => detected(&files, &revisions, limits, err)?,
    };
    let catalog = Catalog::load(&[revisions.dir(&chosen)])?;
    let tools = match &args.protocols.tools {
        Some(t) => Some(Catalog::load(std::slice::from_ref(t))?),
        None => None,
    };
    if let Some(tools) = &tools {
        note_revisions(tools, err)?;
    }
    let label = format!("{}@{}", chosen.0, chosen.1);
    let mut traffic = Traffic::new(&chosen.0, &label, &catalog, tools.as_ref());
    if let Some((before, methods)) = revisions.removed(&chosen, &catalog).map_err(Failure::Input)? {
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
                for j in traffic.har_message(&label, m) {
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

/// The revision the capture tells (see ABOUT): the first MCP `initialize`
/// request or A2A agent card decides; else A2A methods pick the newest A2A
/// revision that knows them all; else the newest MCP revision.
fn detected(
    files: &[EnvelopeFile],
    revisions: &Revisions,
    limits: Limits,
    err: &mut dyn Write,
) -> Result<Revision, Failure> {
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
    let (pair, note) = match found {
        Some((hint, at)) => revisions.decided(&hint, Some(&at)).unwrap_or_else(|| revisions.newest_mcp()),
        None => match revisions.by_methods(&methods).map_err(Failure::Input)? {
            Some((pair, a2a)) => {
                let note = format!("protocol a2a@{}, from the A2A methods in the capture ({})", pair.1, a2a.join(", "));
                Ok((pair, note))
            }
            None => revisions.newest_mcp(),
        },
    }
    .map_err(Failure::Input)?;
    writeln!(err, "note: {note}")?;
    Ok(pair)
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
