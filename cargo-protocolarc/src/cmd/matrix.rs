//! `matrix` and `report`: the same matrix, printed or written.

use std::io::Write;

use protocolarc::envelope::{collect_files, read_file, Envelope};
use protocolarc::matrix::Matrix;
use protocolarc::render::matrix as render;
use protocolarc::Catalog;

use crate::cli::{DiffFormat, MatrixArgs, ReportArgs, Sources};
use crate::{exit, project, Failure};

fn build(sources: Sources) -> Result<Matrix, Failure> {
    let contracts_dir = project::contracts_dir();
    let contracts = if sources.contracts.is_empty() { vec![contracts_dir.clone()] } else { sources.contracts };
    let envelopes =
        if sources.envelopes.is_empty() { vec![project::fixtures_dir(&contracts_dir)] } else { sources.envelopes };
    let catalog = Catalog::load(&contracts)?;
    let mut all: Vec<Envelope> = Vec::new();
    for file in collect_files(&envelopes)? {
        read_file(&file, |e| {
            all.push(e);
            Ok::<(), Failure>(())
        })?;
    }
    Ok(Matrix::build(&catalog, all))
}

fn render(m: &Matrix, format: DiffFormat) -> String {
    match format {
        DiffFormat::Text => render::text(m),
        DiffFormat::Json => render::json(m),
        DiffFormat::Markdown => render::markdown(m),
    }
}

pub(crate) fn run(args: MatrixArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let m = build(args.sources)?;
    out.write_all(render(&m, args.format).as_bytes())?;
    Ok(if m.is_clean() { exit::OK } else { exit::FAILED })
}

pub(crate) fn report(args: ReportArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let m = build(args.sources)?;
    let text = render(&m, args.format);
    match args.out {
        Some(path) => {
            std::fs::write(&path, text)
                .map_err(|e| Failure::Input(format!("{}: cannot write the report: {e}", path.display())))?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(exit::OK)
}
