//! `describe`: a contract's field table.

use std::io::Write;

use crate::render::describe;

use super::{input, Ctx};
use crate::cli::{DescribeArgs, ReportFormat};
use crate::source::{Input, Repo};
use crate::{exit, Failure};

pub(crate) fn run(cx: &Ctx, args: DescribeArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let mut repo = Repo::default();
    match args.contract {
        Some(path) => {
            let c = repo.contract(&input(&path)?)?;
            describe::within_budget(&c).map_err(Failure::Input)?;
            let text = match args.format {
                ReportFormat::Text => describe::text(&c),
                ReportFormat::Json => describe::json(&c),
            };
            out.write_all(text.as_bytes())?;
        }
        None => {
            let catalog = repo.catalog(&[Input::Disk(cx.project()?.contracts)])?;
            for c in catalog.contracts() {
                describe::within_budget(c).map_err(Failure::Input)?;
            }
            match args.format {
                ReportFormat::Text => {
                    for (i, c) in catalog.contracts().enumerate() {
                        if i > 0 {
                            out.write_all(b"\n")?;
                        }
                        out.write_all(describe::text(c).as_bytes())?;
                    }
                }
                // One object whatever the number of contracts.
                ReportFormat::Json => out.write_all(describe::json_many(catalog.contracts()).as_bytes())?,
            }
        }
    }
    Ok(exit::OK)
}
