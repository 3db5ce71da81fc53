//! One module per command; each returns its exit code.

mod describe;
mod diff;
mod matrix;
mod validate;

use std::io::Write;

use crate::cli::Command;
use crate::Failure;

pub(crate) fn dispatch(command: Command, out: &mut dyn Write) -> Result<i32, Failure> {
    match command {
        Command::Validate(args) => validate::run(args, out),
        Command::Diff(args) => diff::run(args, out),
        Command::Matrix(args) => matrix::run(args, out),
        Command::Report(args) => matrix::report(args, out),
        Command::Describe(args) => describe::run(args, out),
    }
}
