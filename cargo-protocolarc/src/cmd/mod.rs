//! One module per command; each returns its exit code.

mod changelog;
mod check;
mod completions;
mod describe;
mod diff;
mod export;
mod generate;
mod import;
mod init;
mod lock;
pub(crate) mod loss;
mod matrix;
mod protocols;
mod proxy;
mod rules;
pub(crate) mod traffic;
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

    /// The catalog root `traffic` and `proxy` read: `--catalog`, else the
    /// bundled `protocols`.
    pub fn catalog_root(&self, args: &crate::cli::ProtocolArgs) -> Result<PathBuf, Failure> {
        match &args.catalog {
            Some(dir) => Ok(dir.clone()),
            None => self.bundled("protocols"),
        }
    }

    /// Bundled data (`protocols`, `protocols/tools-list`): `rel` here when it
    /// is a directory (a catalog being edited), else beside the project's
    /// manifest, else the catalog compiled into the binary, so that the
    /// commands work from any directory.
    pub fn bundled(&self, rel: &str) -> Result<PathBuf, Failure> {
        let here = PathBuf::from(rel);
        if here.is_dir() {
            return Ok(here);
        }
        let root = self.project().ok().and_then(|p| p.manifest).and_then(|m| m.parent().map(Path::to_path_buf));
        if let Some(root) = root.filter(|r| r.join(rel).is_dir()) {
            return Ok(root.join(rel));
        }
        let built_in = crate::catalog::root()?;
        Ok(match rel.strip_prefix("protocols") {
            Some(sub) => built_in.join(sub.trim_start_matches('/')),
            None => built_in.join(rel),
        })
    }
}

/// Path arguments as inputs (`REV:PATH` or disk).
pub(crate) fn inputs(paths: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    paths.iter().map(|p| Input::parse(p)).collect()
}

pub(crate) fn input(path: &Path) -> Result<Input, Failure> {
    Input::parse(path)
}

pub(crate) fn dispatch(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
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
        Command::Import(args) => import::run(args, out, err),
        Command::Export(args) => export::run(args, out, err),
        Command::Protocols(args) => protocols::run(args, out, err),
        Command::Traffic(args) => traffic::run(&cx, args, out, err),
        Command::Proxy(args) => proxy::run(&cx, args),
        Command::Loss(args) => loss::run(&cx, args, out),
        Command::Init(args) => init::run(&cx, args, out),
        Command::Completions(args) => completions::completions(args, out),
        Command::Man(args) => completions::man(args, out),
    }
}

/// The bytes of one input file (disk within the document cap, or
/// `REV:PATH`), with the name to show in messages.
pub(crate) fn read_document(path: &Path) -> Result<(String, Vec<u8>), Failure> {
    let source = input(path)?;
    if let Input::Git { .. } = source {
        let mut all = crate::source::Repo::default().files(&source)?;
        if all.len() != 1 {
            return Err(Failure::Input(format!("{} is a directory, not a file", crate::source::describe(&source))));
        }
        let (origin, bytes) = all.remove(0);
        return Ok((origin.to_string(), bytes));
    }
    read_disk(path)
}

/// The bytes of one file on disk within the document cap (a FIFO refused, a
/// device read up to the cap), with the name to show in messages.
pub(crate) fn read_disk(path: &Path) -> Result<(String, Vec<u8>), Failure> {
    use protocolarc::input::{read_capped, size_phrase, Limits, ReadError};
    let shown = path.display().to_string();
    let limits = Limits::from_env().map_err(|msg| Failure::Input(format!("{shown}: cannot read: {msg}")))?;
    match read_capped(path, limits.max_document) {
        Ok(bytes) => Ok((shown, bytes)),
        Err(ReadError::Io(e)) => Err(Failure::Input(format!("{shown}: cannot read: {}", crate::io_reason(&e)))),
        Err(ReadError::TooLarge(cap)) => Err(Failure::Input(format!(
            "{shown}: cannot read: file is larger than the limit of {} (PROTOCOLARC_MAX_DOCUMENT_BYTES raises it)",
            size_phrase(cap)
        ))),
    }
}

/// `FILE:LINE:COL: message` for a byte offset of `bytes`.
pub(crate) fn at(shown: &str, bytes: &[u8], offset: usize, message: &str) -> Failure {
    let (line, col) = protocolarc::line_col(bytes, offset);
    Failure::Input(format!("{shown}:{line}:{col}: {message}"))
}
