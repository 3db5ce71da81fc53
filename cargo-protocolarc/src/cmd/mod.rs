//! One module per command; each returns its exit code.

mod changelog;
mod check;
mod describe;
mod diff;
mod generate;
mod lock;
mod matrix;
mod rules;
mod validate;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cli::{Cli, Command};
use crate::config::Project;
use crate::source::Input;
use crate::Failure;

/// What every command shares: where the configuration comes from.
pub(crate) struct Ctx {
    manifest_path: Option<PathBuf>,
}

impl Ctx {
    /// The project's configuration (reads `cargo metadata`).
    pub fn project(&self) -> Result<Project, Failure> {
        Project::load(self.manifest_path.as_deref())
    }
}

/// Path arguments as inputs (`REV:PATH` or disk).
pub(crate) fn inputs(paths: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    paths.iter().map(|p| Input::parse(p)).collect()
}

pub(crate) fn input(path: &Path) -> Result<Input, Failure> {
    Input::parse(path)
}

pub(crate) fn dispatch(cli: Cli, out: &mut dyn Write) -> Result<i32, Failure> {
    let cx = Ctx { manifest_path: cli.manifest_path };
    match cli.command {
        Command::Validate(args) => validate::run(&cx, args, out),
        Command::Diff(args) => diff::run(&cx, args, out),
        Command::Matrix(args) => matrix::run(&cx, args, out),
        Command::Report(args) => matrix::report(&cx, args, out),
        Command::Describe(args) => describe::run(&cx, args, out),
        Command::Check(args) => check::run(&cx, args, out),
        Command::Lock(args) => lock::run(&cx, args, out),
        Command::Changelog(args) => changelog::run(&cx, args, out),
        Command::Rules(args) => rules::run(args, out),
        Command::Generate(args) => generate::run(args, out),
    }
}
