//! `cargo protocolarc`: the command-line face of the `protocolarc` crate.
//!
//! The binary is glue: it parses arguments (`cli.rs`), finds the project's
//! `contracts/` (`project.rs`), calls the library, and writes what the
//! renderers (`render/`: pure functions from results to bytes, public so a
//! library user can produce the same bytes) make of its results. [`run`] is the whole program with its streams
//! passed in, so tests drive it in-process and compare bytes.

#![deny(missing_docs)]

mod catalog;
pub mod checks;
mod ci;
mod cli;
mod cmd;
mod color;
mod config;
mod git;
mod history;
mod progress;
mod project;
pub mod render;
mod source;
mod write;

use std::ffi::OsString;
use std::io::{self, Write};

use clap::Parser;

/// Exit codes.
pub mod exit {
    /// Success.
    pub const OK: i32 = 0;
    /// Validation errors, or a failed check.
    pub const FAILED: i32 = 1;
    /// A breaking change.
    pub const BREAKING: i32 = 2;
    /// Usage or input error.
    pub const INPUT: i32 = 3;
    /// Output closed before the run finished (128 + SIGPIPE).
    pub const BROKEN_PIPE: i32 = 141;
}

/// Why a command could not finish: bad input (exit 3) or a failed write.
#[derive(Debug)]
pub(crate) enum Failure {
    Input(String),
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl<T: std::fmt::Display> From<T> for Failure
where
    T: InputLike,
{
    fn from(e: T) -> Self {
        Failure::Input(e.to_string())
    }
}

/// Library errors that mean "bad input".
pub(crate) trait InputLike {}
impl InputLike for protocolarc::ContractError {}
impl InputLike for protocolarc::InputError {}
impl InputLike for protocolarc::CatalogError {}

/// The process entry point: runs [`run`] on the real arguments and streams,
/// turns a panic into a one-line internal-error message (no backtrace), and
/// exits with the code.
pub fn main() -> ! {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("error: internal error in cargo-protocolarc{at}: {msg} (this is a bug; please report it)");
    }));
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut err = io::stderr();
    // A panic is a bug: the hook has said so in one line; the exit code is the
    // input-error code, never a backtrace.
    let terminal = io::IsTerminal::is_terminal(&io::stdout());
    let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_on(std::env::args_os().collect(), &mut out, &mut err, terminal)
    }))
    .unwrap_or(exit::INPUT);
    let _ = out.flush();
    drop(out);
    std::process::exit(code);
}

/// An I/O error in words, lower case, without the OS error number.
pub(crate) use protocolarc::io_reason;

/// Drops the `protocolarc` word that cargo passes when it runs
/// `cargo-protocolarc` as `cargo protocolarc`, so both spellings parse alike.
pub fn normalize_args(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.get(1).is_some_and(|a| a == "protocolarc") {
        args.remove(1);
    }
    args
}

/// Runs the program: parses `args` (including the program name), writes to
/// `out` and `err`, and returns the exit code. `out` is not a terminal: no
/// colour unless `--color always` or `CARGO_TERM_COLOR=always`.
pub fn run(args: Vec<OsString>, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    run_on(args, out, err, false)
}

/// [`run`], told whether `out` is a terminal (for `--color auto`).
pub fn run_on(args: Vec<OsString>, out: &mut dyn Write, err: &mut dyn Write, terminal: bool) -> i32 {
    let args = normalize_args(args);
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return report_clap(e, out, err),
    };
    let colored = color::enabled(cli.color, |name| std::env::var(name).ok(), terminal);
    let annotates = cli.command.annotates();
    let mut painted;
    let out: &mut dyn Write = if colored {
        painted = color::Colored::new(out);
        &mut painted
    } else {
        out
    };
    let result = cmd::dispatch(cli, out, err);
    let flushed = out.flush();
    match (result, flushed) {
        (Ok(code), Ok(())) => code,
        // The reader went away (`| head`): the verdict stands if it was reached,
        // else the conventional code of a process killed by SIGPIPE.
        (Ok(code), Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => code,
        (Err(Failure::Io(e)), _) if e.kind() == io::ErrorKind::BrokenPipe => exit::BROKEN_PIPE,
        (Err(Failure::Io(e)), _) | (Ok(_), Err(e)) => {
            let _ = writeln!(err, "error: cannot write output: {}", io_reason(&e));
            exit::INPUT
        }
        (Err(Failure::Input(msg)), _) => {
            if annotates {
                // In a workflow, the reason the gate could not run shows on the run too.
                let _ = writeln!(out, "{}", ci::input_error_annotation(&msg));
                let _ = out.flush();
            }
            let _ = writeln!(err, "error: {msg}");
            exit::INPUT
        }
    }
}

fn report_clap(e: clap::Error, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    use clap::error::ErrorKind;
    let text = e.render().to_string();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
            exit::OK
        }
        _ => {
            let _ = err.write_all(text.as_bytes());
            exit::INPUT
        }
    }
}
