//! `validate`: envelopes against a contract, streamed to text or JSON.

use std::io::Write;

use protocolarc::envelope::Envelope;
use protocolarc::render::validation::{self, Outcome, Summary};
use protocolarc::{ContractSpec, Report};

use super::{input, inputs, Ctx};
use crate::cli::{ReportFormat, ValidateArgs};
use crate::source::{Input, Repo};
use crate::{exit, Failure};

/// Envelopes validated together: on `jobs` threads, then written in input
/// order. Big enough to keep the threads busy, small enough that memory
/// does not grow with the input.
const BATCH: usize = 4096;

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

/// Envelopes read and not yet judged, with their contract.
struct Batch<'c> {
    jobs: usize,
    items: Vec<(&'c ContractSpec, Envelope)>,
}

impl<'c> Batch<'c> {
    fn push(&mut self, contract: &'c ContractSpec, envelope: Envelope, sink: &mut Sink<'_>) -> Result<(), Failure> {
        self.items.push((contract, envelope));
        if self.items.len() >= BATCH {
            self.flush(sink)?;
        }
        Ok(())
    }

    /// Validates the batch (split among the jobs; each report is
    /// independent of the others) and writes the outcomes in input order.
    fn flush(&mut self, sink: &mut Sink<'_>) -> Result<(), Failure> {
        let items = std::mem::take(&mut self.items);
        let judge = |part: &[(&ContractSpec, Envelope)]| -> Vec<Report> {
            part.iter().map(|(c, e)| c.validate_envelope(e)).collect()
        };
        let reports: Vec<Report> = if self.jobs <= 1 || items.len() < 2 {
            judge(&items)
        } else {
            let chunk = items.len().div_ceil(self.jobs);
            std::thread::scope(|scope| {
                let handles: Vec<_> = items.chunks(chunk).map(|part| scope.spawn(move || judge(part))).collect();
                // A validator never panics on input; should a thread fail
                // anyway, its envelopes are judged again here.
                handles
                    .into_iter()
                    .zip(items.chunks(chunk))
                    .flat_map(|(h, part)| h.join().unwrap_or_else(|_| judge(part)))
                    .collect()
            })
        };
        for ((contract, envelope), report) in items.iter().zip(&reports) {
            sink.push(contract, envelope, report)?;
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

    fn push(&mut self, contract: &ContractSpec, envelope: &Envelope, report: &Report) -> Result<(), Failure> {
        self.start()?;
        let revision = contract.revision().to_string();
        let outcome = Outcome { contract: contract.name(), revision: &revision, source: envelope.source(), report };
        self.summary.add(report);
        if self.quiet && report.is_valid() {
            return Ok(());
        }
        match self.format {
            ReportFormat::Text => validation::write_text(self.out, &outcome)?,
            ReportFormat::Json => validation::write_json_result(self.out, self.written == 0, &outcome)?,
        }
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
    let jobs = args
        .jobs
        .map_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get), usize::from);
    let mut sink =
        Sink { format: args.format, out, summary: Summary::default(), started: false, quiet: args.quiet, written: 0 };
    match validate(cx, args, jobs, &mut sink) {
        Err(Failure::Input(msg)) => {
            sink.abort(&msg)?;
            Err(Failure::Input(msg))
        }
        other => other,
    }
}

fn validate(cx: &Ctx, args: ValidateArgs, jobs: usize, sink: &mut Sink<'_>) -> Result<i32, Failure> {
    let mut repo = Repo::default();
    let searched: Vec<String>;
    match args.contract {
        Some(path) => {
            let contract = repo.contract(&input(&path)?)?;
            let own_fixtures = args.envelopes.is_empty();
            let sources =
                if own_fixtures { vec![Input::Disk(cx.project()?.fixtures)] } else { inputs(&args.envelopes)? };
            searched = describe_inputs(&sources);
            let mut batch = Batch { jobs, items: Vec::new() };
            let read = repo.envelopes(&sources, |envelope| {
                if own_fixtures && envelope.contract() != contract.name() {
                    return Ok(());
                }
                batch.push(&contract, envelope, sink)
            });
            // What was read before an input error is still reported.
            batch.flush(sink)?;
            read?;
        }
        None => {
            let project = cx.project()?;
            let catalog = repo.catalog(&[Input::Disk(project.contracts.clone())])?;
            let sources = vec![Input::Disk(project.fixtures.clone())];
            searched = describe_inputs(&sources);
            let mut batch = Batch { jobs, items: Vec::new() };
            let read = repo.envelopes(&sources, |envelope| {
                let Some(contract) = catalog.for_envelope(envelope.contract(), envelope.revision()) else {
                    return Err(Failure::Input(format!(
                        "{}: envelope {} targets '{}', which no contract in {} defines",
                        project.fixtures.display(),
                        envelope.source(),
                        envelope.contract(),
                        project.contracts.display()
                    )));
                };
                batch.push(contract, envelope, sink)
            });
            batch.flush(sink)?;
            read?;
        }
    }
    if sink.summary.envelopes == 0 {
        return Err(Failure::Input(format!("no envelopes to validate in {}", searched.join(", "))));
    }
    sink.finish()?;
    Ok(if sink.summary.failed > 0 { exit::FAILED } else { exit::OK })
}

fn describe_inputs(inputs: &[Input]) -> Vec<String> {
    inputs.iter().map(crate::source::describe).collect()
}
