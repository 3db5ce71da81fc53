//! `validate`: envelopes against a contract, streamed to text or JSON.

use std::io::Write;

use std::fs::File;
use std::io::BufReader;

use crate::render::validation::{self, Outcome, Summary};
use protocolarc::envelope::{
    collect_files, is_jsonl_name, line_too_long, parse_jsonl_line, read_file_within, Envelope,
};
use protocolarc::input::{next_line, Limits, Line as ReadLine};
use protocolarc::InputError;
use protocolarc::{ContractSpec, Report};

use super::{input, inputs, Ctx};
use crate::cli::{ReportFormat, ValidateArgs, BATCH_BYTES, BATCH_LINES};
use crate::progress::Progress;
use crate::source::{Input, Repo};
use crate::{exit, Failure};

/// Writes outcomes in input order.
struct Sink<'w> {
    format: ReportFormat,
    out: &'w mut dyn Write,
    summary: Summary,
    started: bool,
    /// `--quiet`: passing envelopes are counted, not printed.
    quiet: bool,
    /// Results written so far (all of them unless quiet).
    written: usize,
}

/// Which contract judges an envelope (none: skipped), or why none can.
type Route<'r, 'c> = &'r (dyn Fn(&Envelope) -> Result<Option<&'c ContractSpec>, Failure> + Sync);

/// An envelope to judge: already read, or a JSONL line still to parse.
enum Unit {
    Read(Envelope),
    /// Line `number` of `files[file]`, at `buf[start..end]`.
    Line {
        file: usize,
        number: usize,
        start: usize,
        end: usize,
    },
}

/// A unit's outcome: judged, skipped, or the input error it is.
/// A judged envelope: its report and its output, rendered on the worker
/// (empty when `--quiet` leaves it out; JSON without the separating comma).
type Judged = Result<Option<(Report, Vec<u8>)>, Failure>;

/// Envelopes read and not yet judged. JSONL lines are parsed on the jobs'
/// threads too, not only judged.
struct Batch<'r, 'c> {
    jobs: usize,
    format: ReportFormat,
    quiet: bool,
    route: Route<'r, 'c>,
    /// `(label, origin)` of the files the lines come from.
    files: Vec<(String, String)>,
    buf: Vec<u8>,
    units: Vec<Unit>,
}

impl<'r, 'c> Batch<'r, 'c> {
    /// An empty batch judged on `jobs` threads, written as `sink` writes.
    fn new(jobs: usize, sink: &Sink<'_>, route: Route<'r, 'c>) -> Self {
        Batch {
            jobs,
            format: sink.format,
            quiet: sink.quiet,
            route,
            files: Vec::new(),
            buf: Vec::new(),
            units: Vec::new(),
        }
    }
}

impl<'c> Batch<'_, 'c> {
    fn push(&mut self, unit: Unit, sink: &mut Sink<'_>, progress: &mut Progress) -> Result<(), Failure> {
        self.units.push(unit);
        if self.units.len() >= BATCH_LINES || self.buf.len() >= BATCH_BYTES {
            self.flush(sink, progress)?;
        }
        Ok(())
    }

    /// One unit's outcome.
    fn judge(&self, unit: &mut Unit) -> Judged {
        let envelope = match unit {
            Unit::Read(e) => std::mem::replace(e, Envelope::new(String::new(), String::new(), None, Vec::new())),
            Unit::Line { file, number, start, end } => {
                let (label, origin) = &self.files[*file];
                match parse_jsonl_line(&self.buf[*start..*end], label, origin, *number) {
                    None => return Ok(None),
                    Some(Err(e)) => return Err(e.into()),
                    Some(Ok(e)) => e,
                }
            }
        };
        let Some(contract) = (self.route)(&envelope)? else { return Ok(None) };
        let report = contract.validate_envelope(&envelope);
        let mut out = Vec::new();
        if !(self.quiet && report.is_valid()) {
            let revision = contract.revision().to_string();
            let outcome =
                Outcome { contract: contract.name(), revision: &revision, source: envelope.source(), report: &report };
            match self.format {
                ReportFormat::Text => validation::write_text(&mut out, &outcome)?,
                ReportFormat::Json => validation::write_json_result(&mut out, true, &outcome)?,
            }
        }
        Ok(Some((report, out)))
    }

    /// Parses and validates the batch (split among the jobs; each outcome is
    /// independent of the others) and writes the outcomes in input order, up
    /// to the first input error, which it returns.
    fn flush(&mut self, sink: &mut Sink<'_>, progress: &mut Progress) -> Result<(), Failure> {
        let mut units = std::mem::take(&mut self.units);
        let this = &*self;
        let judge = |part: &mut [Unit]| -> Vec<Judged> {
            let mut out = Vec::with_capacity(part.len());
            for unit in part {
                let j = this.judge(unit);
                let stop = j.is_err();
                out.push(j);
                // Nothing after an input error is written.
                if stop {
                    break;
                }
            }
            out
        };
        let outcomes: Vec<Vec<Judged>> = if self.jobs <= 1 || units.len() < 2 {
            vec![judge(&mut units)]
        } else {
            let chunk = units.len().div_ceil(self.jobs);
            std::thread::scope(|scope| {
                let mut parts = units.chunks_mut(chunk);
                let first = parts.next().unwrap_or_default();
                let handles: Vec<_> = parts.map(|part| scope.spawn(move || judge(part))).collect();
                let mut all = vec![judge(first)];
                for h in handles {
                    // A validator never panics on input; should one anyway, so does the run (as with one job).
                    all.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
                }
                all
            })
        };
        let (lines, bytes) = (units.len(), self.buf.len());
        self.buf.clear();
        // The file being read keeps its place; the others are done with.
        let done = self.files.len().saturating_sub(1);
        self.files.drain(..done);
        // Output and progress may share a terminal: one at a time.
        progress.hide();
        for outcome in outcomes.into_iter().flatten() {
            if let Some((report, rendered)) = outcome? {
                sink.push(&report, &rendered)?;
            }
        }
        if progress.on() {
            sink.out.flush()?;
        }
        progress.add(lines, bytes);
        Ok(())
    }

    /// Reads `inputs` into the batch: JSONL files on disk line by line (the
    /// lines parsed when the batch is judged), the rest as the repository
    /// reads them.
    fn read(
        &mut self,
        repo: &mut Repo,
        inputs: &[Input],
        sink: &mut Sink<'_>,
        progress: &mut Progress,
    ) -> Result<(), Failure> {
        for input in inputs {
            let Input::Disk(path) = input else {
                repo.envelopes(std::slice::from_ref(input), |e| self.push(Unit::Read(e), sink, progress))?;
                continue;
            };
            for file in collect_files(std::slice::from_ref(path))? {
                let limits = Limits::from_env().map_err(|msg| InputError::new(file.path.display().to_string(), msg))?;
                let name = file.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if !is_jsonl_name(&name) {
                    read_file_within(&file, limits, |e| self.push(Unit::Read(e), sink, progress))?;
                    continue;
                }
                let origin = file.path.display().to_string();
                let reader = File::open(&file.path).map_err(|e| InputError::io(&origin, &e))?;
                let mut reader = BufReader::with_capacity(1 << 16, reader);
                let mut line = Vec::new();
                let mut number = 0;
                loop {
                    // The file's name stays while its lines are in the batch.
                    if self.files.last().map(|(_, o)| o) != Some(&origin) {
                        self.files.push((file.label.clone(), origin.clone()));
                    }
                    let read =
                        next_line(&mut reader, &mut line, limits.max_line).map_err(|e| InputError::io(&origin, &e))?;
                    if read == ReadLine::End {
                        break;
                    }
                    number += 1;
                    if read == ReadLine::TooLong {
                        return Err(line_too_long(&origin, number, limits).into());
                    }
                    let start = self.buf.len();
                    self.buf.extend_from_slice(&line);
                    let unit = Unit::Line { file: self.files.len() - 1, number, start, end: self.buf.len() };
                    self.push(unit, sink, progress)?;
                }
            }
        }
        Ok(())
    }
}

impl Sink<'_> {
    /// Opens the JSON document on the first result, so an input error before
    /// any result leaves stdout empty.
    fn start(&mut self) -> std::io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        match self.format {
            ReportFormat::Text => Ok(()),
            ReportFormat::Json => validation::write_json_start(self.out),
        }
    }

    /// Counts a report and writes its output, rendered by a worker.
    fn push(&mut self, report: &Report, rendered: &[u8]) -> Result<(), Failure> {
        self.start()?;
        self.summary.add(report);
        if self.quiet && report.is_valid() {
            return Ok(());
        }
        if self.format == ReportFormat::Json && self.written > 0 {
            // What `write_json_result` writes before every result but the first.
            self.out.write_all(b",\n")?;
        }
        self.out.write_all(rendered)?;
        self.written += 1;
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        match self.format {
            ReportFormat::Text if self.quiet => validation::write_text_summary(self.out, &self.summary),
            ReportFormat::Text => Ok(()),
            ReportFormat::Json => validation::write_json_end(self.out, self.written > 0, &self.summary),
        }
    }

    /// Closes a started JSON document with the error that stopped the run.
    fn abort(&mut self, error: &str) -> std::io::Result<()> {
        if self.started && self.format == ReportFormat::Json {
            validation::write_json_abort(self.out, self.written > 0, &self.summary, error)?;
        }
        Ok(())
    }
}

pub(crate) fn run(cx: &Ctx, args: ValidateArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let jobs = args.bulk.jobs();
    let (format, quiet) = (args.bulk.format, args.bulk.quiet);
    let mut sink = Sink { format, out, summary: Summary::default(), started: false, quiet, written: 0 };
    match validate(cx, args, jobs, &mut sink) {
        Err(Failure::Input(msg)) => {
            let msg = with_raw_hint(msg);
            sink.abort(&msg)?;
            Err(Failure::Input(msg))
        }
        other => other,
    }
}

fn validate(cx: &Ctx, args: ValidateArgs, jobs: usize, sink: &mut Sink<'_>) -> Result<i32, Failure> {
    let mut repo = Repo::default();
    let searched: Vec<String>;
    let mut progress = Progress::new("validate");
    match args.contract {
        Some(path) => {
            let contract = repo.contract(&input(&path)?)?;
            let own_fixtures = args.envelopes.is_empty();
            let sources =
                if own_fixtures { vec![Input::Disk(cx.project()?.fixtures)] } else { inputs(&args.envelopes)? };
            searched = describe_inputs(&sources);
            let route: Route<'_, '_> =
                &|envelope| Ok((!own_fixtures || envelope.contract() == contract.name()).then_some(&contract));
            let mut batch = Batch::new(jobs, sink, route);
            let read = batch.read(&mut repo, &sources, sink, &mut progress);
            // What was read before an input error is still reported.
            batch.flush(sink, &mut progress)?;
            read?;
        }
        None => {
            let project = cx.project()?;
            let catalog = repo.catalog(&[Input::Disk(project.contracts.clone())])?;
            let sources = vec![Input::Disk(project.fixtures.clone())];
            searched = describe_inputs(&sources);
            let route: Route<'_, '_> = &|envelope| match catalog.for_envelope(envelope.contract(), envelope.revision())
            {
                Some(contract) => Ok(Some(contract)),
                None => Err(Failure::Input(format!(
                    "{}: envelope {} targets '{}', which no contract in {} defines",
                    project.fixtures.display(),
                    envelope.source(),
                    envelope.contract(),
                    project.contracts.display()
                ))),
            };
            let mut batch = Batch::new(jobs, sink, route);
            let read = batch.read(&mut repo, &sources, sink, &mut progress);
            batch.flush(sink, &mut progress)?;
            read?;
        }
    }
    progress.finish();
    if sink.summary.envelopes == 0 {
        return Err(Failure::Input(format!("no envelopes to validate in {}", searched.join(", "))));
    }
    sink.finish()?;
    Ok(if sink.summary.failed > 0 { exit::FAILED } else { exit::OK })
}

/// The keys of a JSON-RPC message: an envelope holding one of them is most
/// likely a raw message given to the wrong command.
const JSON_RPC_KEYS: &[&str] = &["jsonrpc", "method", "params", "result", "error", "id"];

/// An input error for a raw JSON-RPC message or a bare body read as an
/// envelope, with the way to judge it: `traffic`, or an envelope around
/// the body.
fn with_raw_hint(msg: String) -> String {
    let raw = JSON_RPC_KEYS.iter().any(|k| msg.contains(&format!("unknown key '{k}' in envelope")));
    if !raw {
        // A key that is no misspelling of an envelope's is a bare body's.
        let bare = msg
            .split_once("unknown key '")
            .and_then(|(_, rest)| rest.split_once("' in envelope (expected contract, revision, data)"))
            .is_some_and(|(key, _)| {
                protocolarc::suggest::nearest(key, ["contract", "revision", "data"].into_iter()).is_none()
            });
        if bare {
            return format!(
                "{msg}\nhint: this looks like a bare body, not an envelope: an envelope carries the body under \
                 `data`, {{\"contract\": \"NAME\", \"data\": BODY}} (`revision` optional)"
            );
        }
        return msg;
    }
    format!(
        "{msg}\nhint: this looks like a raw JSON-RPC message, not an envelope. `cargo protocolarc traffic FILE` \
         judges raw MCP and A2A messages against the protocol's catalog (`--protocol mcp@2025-11-25` picks the \
         revision, `--catalog DIR` another catalog); to judge a bare body against one contract, wrap it as \
         {{\"contract\": \"NAME\", \"data\": BODY}}"
    )
}

fn describe_inputs(inputs: &[Input]) -> Vec<String> {
    inputs.iter().map(crate::source::describe).collect()
}
