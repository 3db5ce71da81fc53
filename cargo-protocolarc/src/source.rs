//! Inputs that may come from disk or from git: any path argument can be
//! `REV:PATH` to read that file (or directory) as committed at `REV`. A path
//! that exists on disk is always the disk file, so a file name with a colon
//! still works.

use std::path::{Path, PathBuf};

use protocolarc::envelope::{collect_files, is_jsonl_name, read_file, read_json, read_jsonl, Envelope};
use protocolarc::{Catalog, ContractSpec};

use crate::git::{Git, Rev};
use crate::Failure;

/// A path argument: on disk, or `REV:PATH` in git.
#[derive(Debug, Clone)]
pub(crate) enum Input {
    Disk(PathBuf),
    Git { rev: Rev, path: PathBuf },
}

impl Input {
    pub fn parse(arg: &Path) -> Result<Input, Failure> {
        if arg.exists() {
            return Ok(Input::Disk(arg.to_path_buf()));
        }
        let text = arg.to_string_lossy();
        match text.split_once(':') {
            Some((rev, path)) if !rev.is_empty() => {
                // The batch protocol is line based: a path cannot carry one.
                if path.chars().any(char::is_control) {
                    return Err(Failure::Input(format!("invalid path {path:?} in {text:?}: control characters")));
                }
                Ok(Input::Git { rev: Rev::parse(rev)?, path: PathBuf::from(path) })
            }
            _ => Ok(Input::Disk(arg.to_path_buf())),
        }
    }
}

/// Where one contract file was read from: the working tree (any disk path),
/// or a git revision. Shown as the path, or as `REV:path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    Disk(PathBuf),
    Git { rev: Rev, path: PathBuf },
}

impl Origin {
    /// The file's path: on disk, or where the revision keeps it.
    pub fn path(&self) -> &Path {
        match self {
            Origin::Disk(p) | Origin::Git { path: p, .. } => p,
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Disk(p) => write!(f, "{}", p.display()),
            Origin::Git { rev, path } => write!(f, "{}:{}", rev.as_str(), path.display()),
        }
    }
}

/// Git access for a run: opened on first use, one process for the run.
#[derive(Default)]
pub(crate) struct Repo {
    git: Option<Git>,
    /// Where to look for the repository (default: the current directory).
    anchor: Option<PathBuf>,
}

impl Repo {
    /// Git access for the repository holding `dir` (a project's contracts).
    pub fn at(dir: &Path) -> Repo {
        let anchor =
            if dir.is_dir() { dir.to_path_buf() } else { dir.parent().map(Path::to_path_buf).unwrap_or_default() };
        Repo { git: None, anchor: Some(anchor).filter(|a| !a.as_os_str().is_empty()) }
    }

    pub fn git(&mut self) -> Result<&mut Git, Failure> {
        if self.git.is_none() {
            let here = match &self.anchor {
                Some(a) => a.clone(),
                None => std::env::current_dir().map_err(|e| Failure::Input(format!("no current directory: {e}")))?,
            };
            self.git = Git::discover(&here)?;
        }
        self.git.as_mut().ok_or_else(|| Failure::Input("not inside a git repository (needed for REV:PATH)".into()))
    }

    /// Checks that a revision exists here, with the fix for a shallow clone.
    pub fn require(&mut self, rev: &Rev) -> Result<(), Failure> {
        if self.git()?.has_commit(rev)? {
            return Ok(());
        }
        Err(Failure::Input(format!(
            "git revision '{}' is not in this clone. In CI, fetch the history it needs (actions/checkout with \
             `fetch-depth: 0`, or `git fetch origin main`), then run again.",
            rev.as_str()
        )))
    }

    /// Whether an input names something that exists (on disk, or at its revision).
    pub fn exists(&mut self, input: &Input) -> Result<bool, Failure> {
        match input {
            Input::Disk(p) => Ok(p.exists()),
            Input::Git { rev, path } => {
                self.require(rev)?;
                let git = self.git()?;
                let repo_path = git.repo_path(path)?;
                Ok(git.blob(rev, &repo_path)?.is_some() || git.tree(rev, &repo_path)?.is_some())
            }
        }
    }

    /// The contract files an input stands for (a file, or every `*.json`
    /// file below a directory, `fixtures/` left out), each with where it was
    /// read from and its bytes, sorted by path.
    pub fn files(&mut self, input: &Input) -> Result<Vec<(Origin, Vec<u8>)>, Failure> {
        let (rev, path) = match input {
            Input::Disk(p) => {
                let mut out = Vec::new();
                for file in protocolarc::catalog::contract_files(p)? {
                    let bytes = std::fs::read(&file)
                        .map_err(|e| Failure::Input(format!("{}: cannot read: {e}", file.display())))?;
                    out.push((Origin::Disk(file), bytes));
                }
                return Ok(out);
            }
            Input::Git { rev, path } => (rev, path),
        };
        self.require(rev)?;
        let git = self.git()?;
        let repo_path = git.repo_path(path)?;
        let at = |p: PathBuf| Origin::Git { rev: rev.clone(), path: p };
        if let Some(bytes) = git.blob(rev, &repo_path)? {
            return Ok(vec![(at(path.clone()), bytes)]);
        }
        let Some(entries) = git.tree(rev, &repo_path)? else {
            return Err(Failure::Input(format!(
                "{}: not in git at that revision (looked for '{repo_path}' in the repository)",
                at(path.clone())
            )));
        };
        // Every `*.json` below, as on disk: `fixtures/` left out.
        let mut out = Vec::new();
        let mut trees = vec![(path.clone(), entries, 0)];
        while let Some((dir, entries, depth)) = trees.pop() {
            for e in entries {
                if e.is_tree && e.name != protocolarc::catalog::FIXTURES_DIR {
                    if depth >= protocolarc::catalog::MAX_DEPTH {
                        return Err(Failure::Input(format!(
                            "{}: contracts nest deeper than {} directories",
                            at(dir.clone()),
                            protocolarc::catalog::MAX_DEPTH
                        )));
                    }
                    let sub = git.tree_by_id(&e.oid)?.unwrap_or_default();
                    trees.push((dir.join(&e.name), sub, depth + 1));
                } else if !e.is_tree && e.name.ends_with(".json") {
                    out.push((at(dir.join(&e.name)), git.blob_by_id(&e.oid)?.unwrap_or_default()));
                }
            }
        }
        out.sort_by(|a, b| a.0.path().cmp(b.0.path()));
        Ok(out)
    }

    /// Loads contracts from disk or git.
    pub fn catalog(&mut self, inputs: &[Input]) -> Result<Catalog, Failure> {
        let mut entries = Vec::new();
        for input in inputs {
            for (origin, bytes) in self.files(input)? {
                let shown = origin.to_string();
                let spec = ContractSpec::from_slice(&bytes, &shown)?;
                entries.push((PathBuf::from(shown), spec));
            }
        }
        Ok(Catalog::from_entries(entries)?)
    }

    /// One contract file from disk or git.
    pub fn contract(&mut self, input: &Input) -> Result<ContractSpec, Failure> {
        if let Input::Disk(p) = input {
            return Ok(ContractSpec::from_path(p)?);
        }
        let mut all = self.files(input)?;
        if all.len() != 1 {
            return Err(Failure::Input(format!("{} is a directory, not a contract file", describe(input))));
        }
        let (origin, bytes) = all.remove(0);
        Ok(ContractSpec::from_slice(&bytes, &origin.to_string())?)
    }

    /// Every envelope of the inputs, in order, handed to `each`.
    pub fn envelopes(
        &mut self,
        inputs: &[Input],
        mut each: impl FnMut(Envelope) -> Result<(), Failure>,
    ) -> Result<usize, Failure> {
        let mut count = 0;
        for input in inputs {
            match input {
                Input::Disk(p) => {
                    for file in collect_files(std::slice::from_ref(p))? {
                        count += read_file(&file, &mut each)?;
                    }
                }
                Input::Git { rev, path } => count += self.envelopes_at(rev, path, &mut each)?,
            }
        }
        Ok(count)
    }

    fn envelopes_at(
        &mut self,
        rev: &Rev,
        path: &Path,
        each: &mut impl FnMut(Envelope) -> Result<(), Failure>,
    ) -> Result<usize, Failure> {
        self.require(rev)?;
        let git = self.git()?;
        let repo_path = git.repo_path(path)?;
        let origin = format!("{}:{}", rev.as_str(), path.display());
        if let Some(bytes) = git.blob(rev, &repo_path)? {
            let label = path.file_name().map_or(origin.clone(), |n| n.to_string_lossy().into_owned());
            return read_bytes(&bytes, &label, &origin, each);
        }
        let Some(top) = git.tree(rev, &repo_path)? else {
            return Err(Failure::Input(format!("{origin}: not in git at that revision")));
        };
        // A directory: every .json/.jsonl below it, sorted by path. Subtrees
        // are read by object id, never by a path built from stored names.
        let mut files: Vec<(String, String)> = Vec::new();
        let mut stack = vec![(top, String::new())];
        while let Some((entries, rel)) = stack.pop() {
            for e in entries {
                let child_rel = if rel.is_empty() { e.name.clone() } else { format!("{rel}/{}", e.name) };
                if e.is_tree {
                    stack.push((git.tree_by_id(&e.oid)?.unwrap_or_default(), child_rel));
                } else if e.name.ends_with(".json") || is_jsonl_name(&e.name) {
                    files.push((child_rel, e.oid));
                }
            }
        }
        files.sort();
        let mut count = 0;
        for (rel, oid) in files {
            let bytes = git.blob_by_id(&oid)?.unwrap_or_default();
            count += read_bytes(&bytes, &rel, &format!("{origin}/{rel}"), each)?;
        }
        Ok(count)
    }
}

fn read_bytes(
    bytes: &[u8],
    label: &str,
    origin: &str,
    each: &mut impl FnMut(Envelope) -> Result<(), Failure>,
) -> Result<usize, Failure> {
    if is_jsonl_name(label) {
        read_jsonl(std::io::Cursor::new(bytes), label, origin, each)
    } else {
        read_json(bytes, label, origin, each)
    }
}

/// An input as the user wrote it.
pub(crate) fn describe(input: &Input) -> String {
    match input {
        Input::Disk(p) => p.display().to_string(),
        Input::Git { rev, path } => format!("{}:{}", rev.as_str(), path.display()),
    }
}
