//! `import`: schema-form contracts from a JSON Schema (`import schema`) or
//! an MCP `tools/list` result (`import tools-list`). The transforms are the
//! library's (`protocolarc_interop::import`); this module reads, reports positions,
//! and writes.

use std::io::Write;

use protocolarc::Value;
use protocolarc_interop::import::{self, ImportError};

use super::{at, read_document};
use crate::cli::{ImportArgs, ImportCommand, ImportSchemaArgs, ImportToolsArgs};
use crate::{exit, Failure};

pub(crate) fn run(args: ImportArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    match args.what {
        ImportCommand::Schema(a) => schema(a, out, err),
        ImportCommand::ToolsList(a) => tools_list(a, out, err),
    }
}

fn schema(args: ImportSchemaArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let (shown, bytes) = read_document(&args.file)?;
    let doc = parse(&shown, &bytes)?;
    let (contract, notes) =
        import::schema_contract(&doc, &args.name, &args.revision, args.direction.as_deref(), args.def.as_deref())
            .map_err(|e| located(&shown, &bytes, &e))?;
    for note in notes {
        writeln!(err, "note: {note}")?;
    }
    let text = import::render(&contract);
    match args.out {
        Some(path) => {
            crate::write::write_atomic(&path, text.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(exit::OK)
}

fn tools_list(args: ImportToolsArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let (shown, bytes) = read_document(&args.file)?;
    let doc = parse(&shown, &bytes)?;
    let (contracts, notes) =
        import::tools_list_contracts(&doc, &args.server, &args.revision).map_err(|e| located(&shown, &bytes, &e))?;
    for note in notes {
        writeln!(err, "note: {note}")?;
    }
    let files: Vec<(String, Vec<u8>)> = contracts
        .iter()
        .map(|(stem, contract)| (import::tools_file_name(stem, &args.revision), import::render(contract).into_bytes()))
        .collect();
    for path in crate::write::write_set(&args.out, &files)? {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(exit::OK)
}

/// The document, or its syntax error at its position.
fn parse(shown: &str, bytes: &[u8]) -> Result<Value, Failure> {
    import::parse_document(bytes).map_err(|e| at(shown, bytes, e.offset, &e.message))
}

/// An import error at the position of what it names (the file alone when
/// it names no position: a bad `--name`).
fn located(shown: &str, bytes: &[u8], e: &ImportError) -> Failure {
    if e.is_argument() {
        return Failure::Input(e.message().to_string());
    }
    match import::locate(bytes, e.pointer()) {
        Some(offset) => at(shown, bytes, offset, e.message()),
        None => Failure::Input(format!("{shown}: {}", e.message())),
    }
}
