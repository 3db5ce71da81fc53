//! `diff`: two revisions, or every neighbouring pair in contracts/.

use std::io::Write;

use protocolarc::chain::chains;
use protocolarc::diff::{diff, ContractDiff, Impact};
use protocolarc::render::diff as render;
use protocolarc::{Catalog, ContractSpec};

use crate::cli::{DiffArgs, DiffFormat};
use crate::{exit, project, Failure};

pub(crate) fn run(args: DiffArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let diffs: Vec<ContractDiff> = match (args.old, args.new) {
        (Some(old), Some(new)) => {
            let (old, new) = (ContractSpec::from_path(&old)?, ContractSpec::from_path(&new)?);
            vec![diff(&old, &new).map_err(|e| Failure::Input(e.to_string()))?]
        }
        _ => {
            let catalog = Catalog::load(&[project::contracts_dir()])?;
            chains(&catalog).into_iter().flat_map(|c| c.steps.into_iter().map(|s| s.diff)).collect()
        }
    };
    match args.format {
        DiffFormat::Text => {
            for (i, d) in diffs.iter().enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(render::text(d, args.witnesses).as_bytes())?;
            }
        }
        DiffFormat::Json => out.write_all(render::json(&diffs).as_bytes())?,
        DiffFormat::Markdown => {
            for (i, d) in diffs.iter().enumerate() {
                if i > 0 {
                    out.write_all(b"\n")?;
                }
                out.write_all(render::markdown(d).as_bytes())?;
            }
        }
    }
    let breaking = diffs.iter().any(|d| d.compatibility() == Impact::Breaking);
    Ok(if breaking { exit::BREAKING } else { exit::OK })
}
