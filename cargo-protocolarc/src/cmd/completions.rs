//! `completions SHELL` and `man`: the shell completion script and the manual
//! pages, generated from the argument definitions so they never drift.

use std::io::Write;

use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::{exit, Failure};

/// The command as the shell sees it: the `cargo-protocolarc` binary.
fn command() -> clap::Command {
    Cli::command().bin_name("cargo-protocolarc").name("cargo-protocolarc")
}

pub(crate) fn completions(args: CompletionsArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let mut cmd = command();
    clap_complete::generate(args.shell, &mut cmd, "cargo-protocolarc", out);
    Ok(exit::OK)
}

pub(crate) fn man(args: ManArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let cmd = command();
    match args.out {
        None => {
            clap_mangen::Man::new(cmd).render(out)?;
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .map_err(|e| Failure::Input(format!("{}: cannot create: {}", dir.display(), crate::io_reason(&e))))?;
            clap_mangen::generate_to(cmd, &dir)
                .map_err(|e| Failure::Input(format!("{}: cannot write: {}", dir.display(), crate::io_reason(&e))))?;
            let mut pages: Vec<String> = std::fs::read_dir(&dir)?
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".1"))
                .collect();
            pages.sort();
            writeln!(out, "wrote {} manual pages to {}", pages.len(), dir.display())?;
        }
    }
    Ok(exit::OK)
}
