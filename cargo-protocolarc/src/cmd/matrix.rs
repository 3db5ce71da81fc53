//! `matrix` and `report`: the same matrix, printed or written.

use std::io::Write;

use crate::render::matrix as render;
use protocolarc::matrix::Matrix;

use super::{inputs, Ctx};
use crate::cli::{DiffFormat, MatrixArgs, ReportArgs, Sources};
use crate::source::{Input, Repo};
use crate::{exit, Failure};

fn build(cx: &Ctx, sources: Sources) -> Result<Matrix, Failure> {
    let mut repo = Repo::default();
    let project = if sources.contracts.is_empty() || sources.envelopes.is_empty() { Some(cx.project()?) } else { None };
    let contracts = match &project {
        Some(p) if sources.contracts.is_empty() => vec![Input::Disk(p.contracts.clone())],
        _ => inputs(&sources.contracts)?,
    };
    let envelopes = match &project {
        Some(p) if sources.envelopes.is_empty() => vec![Input::Disk(p.fixtures.clone())],
        _ => inputs(&sources.envelopes)?,
    };
    let catalog = repo.catalog(&contracts)?;
    // Envelopes are validated as they are read: the matrix keeps their
    // cells, not their data.
    let mut matrix = Matrix::start(&catalog);
    repo.envelopes(&envelopes, |e| {
        matrix.push(&catalog, &e);
        Ok(())
    })?;
    Ok(matrix)
}

fn render(m: &Matrix, format: DiffFormat) -> String {
    match format {
        DiffFormat::Text => render::text(m),
        DiffFormat::Json => render::json(m),
        DiffFormat::Markdown => render::markdown(m),
    }
}

pub(crate) fn run(cx: &Ctx, args: MatrixArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let m = build(cx, args.sources)?;
    out.write_all(render(&m, args.format).as_bytes())?;
    Ok(if m.is_clean() { exit::OK } else { exit::FAILED })
}

pub(crate) fn report(cx: &Ctx, args: ReportArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let m = build(cx, args.sources)?;
    let text = render(&m, args.format);
    match args.out {
        Some(path) => {
            crate::write::write_atomic(&path, text.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(exit::OK)
}
