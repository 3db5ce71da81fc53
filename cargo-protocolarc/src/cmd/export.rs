//! `export`: a contract as JSON Schema 2020-12 (`protocolarc_interop::export`),
//! to stdout or a file; what the schema cannot say goes to stderr as notes.

use std::io::Write;

use protocolarc_interop::export::json_schema;

use super::read_document;
use crate::cli::{ExportArgs, ExportFormat};
use crate::{exit, Failure};

pub(crate) fn run(args: ExportArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let (shown, bytes) = read_document(&args.contract)?;
    let exported = match args.format {
        ExportFormat::JsonSchema => json_schema(&bytes, &shown).map_err(|e| Failure::Input(e.to_string()))?,
    };
    for note in &exported.notes {
        writeln!(err, "note: {note}")?;
    }
    match args.out {
        Some(path) => {
            crate::write::write_atomic(&path, exported.text.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(exported.text.as_bytes())?,
    }
    Ok(exit::OK)
}
