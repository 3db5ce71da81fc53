//! `validate`: envelopes against a contract, streamed to text or JSON.

use std::io::Write;
use std::path::PathBuf;

use protocolarc::envelope::{collect_files, read_file, Envelope};
use protocolarc::render::validation::{self, Outcome, Summary};
use protocolarc::{Catalog, ContractSpec};

use crate::cli::{ReportFormat, ValidateArgs};
use crate::{exit, project, Failure};

/// Writes outcomes as they come.
struct Sink<'w> {
    format: ReportFormat,
    out: &'w mut dyn Write,
    summary: Summary,
}

impl Sink<'_> {
    fn start(&mut self) -> std::io::Result<()> {
        match self.format {
            ReportFormat::Text => Ok(()),
            ReportFormat::Json => validation::write_json_start(self.out),
        }
    }

    fn push(&mut self, contract: &ContractSpec, envelope: &Envelope) -> Result<(), Failure> {
        let report = contract.validate_envelope(envelope);
        let revision = contract.revision().to_string();
        let outcome =
            Outcome { contract: contract.name(), revision: &revision, source: envelope.source(), report: &report };
        match self.format {
            ReportFormat::Text => validation::write_text(self.out, &outcome)?,
            ReportFormat::Json => validation::write_json_result(self.out, self.summary.envelopes == 0, &outcome)?,
        }
        self.summary.add(&report);
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        match self.format {
            ReportFormat::Text => Ok(()),
            ReportFormat::Json => validation::write_json_end(self.out, self.summary.envelopes > 0, &self.summary),
        }
    }
}

pub(crate) fn run(args: ValidateArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let contracts = project::contracts_dir();
    let fixtures = project::fixtures_dir(&contracts);
    let mut sink = Sink { format: args.format, out, summary: Summary::default() };
    sink.start()?;
    let searched: Vec<PathBuf>;
    match args.contract {
        Some(path) => {
            let contract = ContractSpec::from_path(&path)?;
            let own_fixtures = args.envelopes.is_empty();
            searched = if own_fixtures { vec![fixtures] } else { args.envelopes };
            for file in collect_files(&searched)? {
                read_file(&file, |envelope| {
                    if own_fixtures && envelope.contract() != contract.name() {
                        return Ok(());
                    }
                    sink.push(&contract, &envelope)
                })?;
            }
        }
        None => {
            let catalog = Catalog::load(std::slice::from_ref(&contracts))?;
            searched = vec![fixtures];
            for file in collect_files(&searched)? {
                read_file(&file, |envelope| {
                    let Some(contract) = catalog.for_envelope(envelope.contract(), envelope.revision()) else {
                        return Err(Failure::Input(format!(
                            "{}: envelope {} targets '{}', which no contract in {} defines",
                            file.path.display(),
                            envelope.source(),
                            envelope.contract(),
                            contracts.display()
                        )));
                    };
                    sink.push(contract, &envelope)
                })?;
            }
        }
    }
    if sink.summary.envelopes == 0 {
        let places: Vec<String> = searched.iter().map(|p| p.display().to_string()).collect();
        return Err(Failure::Input(format!("no envelopes to validate in {}", places.join(", "))));
    }
    sink.finish()?;
    Ok(if sink.summary.failed > 0 { exit::FAILED } else { exit::OK })
}
