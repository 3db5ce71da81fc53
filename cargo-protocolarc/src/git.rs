//! Reading committed files out of git: one `git rev-parse` to find the
//! repository, then one long-lived `git cat-file --batch` that answers every
//! request (commits, trees, blobs) over a pipe, however many files a run reads.
//!
//! Revisions are checked before use: nothing that starts with `-` (no option
//! injection), no white space or control characters (the batch protocol is
//! line based), only the characters of ref names and revision syntax.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::Failure;

/// A validated revision (`main`, `origin/main`, `HEAD~1`, `v1.2.0`, a hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rev(String);

impl Rev {
    pub fn parse(text: &str) -> Result<Rev, Failure> {
        let bad = |why: &str| Failure::Input(format!("invalid git revision {text:?}: {why}"));
        if text.is_empty() {
            return Err(bad("empty"));
        }
        if text.starts_with('-') {
            return Err(bad("a revision cannot start with '-'"));
        }
        if let Some(c) = text.chars().find(|c| !(c.is_ascii_alphanumeric() || "._/-~^@{}".contains(*c))) {
            return Err(bad(&format!("the character {c:?} is not allowed")));
        }
        if text.contains("..") {
            return Err(bad("ranges are not revisions"));
        }
        Ok(Rev(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One entry of a tree.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub name: String,
    pub is_tree: bool,
    pub oid: String,
}

/// A git repository, read through one `cat-file --batch` process.
pub(crate) struct Git {
    root: PathBuf,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Drop for Git {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Git {
    /// The repository that holds `dir`, or `None` when there is none.
    pub fn discover(dir: &Path) -> Result<Option<Git>, Failure> {
        let out = Command::new("git")
            .args(["rev-parse", "--show-toplevel"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        let out = match out {
            Ok(out) => out,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Failure::Input(format!("cannot run git: {e}"))),
        };
        if !out.status.success() {
            return Ok(None);
        }
        let root = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end());
        let mut child = Command::new("git")
            .args(["cat-file", "--batch"])
            .current_dir(&root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Input(format!("cannot run git cat-file: {e}")))?;
        let input = child.stdin.take().ok_or_else(|| Failure::Input("git cat-file has no stdin".into()))?;
        let output =
            BufReader::new(child.stdout.take().ok_or_else(|| Failure::Input("git cat-file has no stdout".into()))?);
        Ok(Some(Git { root, child, input, output }))
    }

    /// One object: its type and content, or `None` if git has no such object.
    fn object(&mut self, spec: &str) -> Result<Option<(String, Vec<u8>)>, Failure> {
        Ok(self.object_with_id(spec)?.map(|(_, kind, content)| (kind, content)))
    }

    /// One object with its id (whose length tells the hash: 40 hex digits for
    /// SHA-1, 64 for SHA-256).
    fn object_with_id(&mut self, spec: &str) -> Result<Option<(String, String, Vec<u8>)>, Failure> {
        let broken = |e: std::io::Error| Failure::Input(format!("git cat-file failed: {e}"));
        // The batch protocol is one request a line: a line break inside a
        // request would shift every later answer onto the wrong file.
        if spec.contains(['\n', '\r']) {
            let shown: String = spec.chars().flat_map(char::escape_debug).collect();
            return Err(Failure::Input(format!("{shown}: a path with a line break cannot be read from git")));
        }
        writeln!(self.input, "{spec}").map_err(broken)?;
        self.input.flush().map_err(broken)?;
        let mut header = String::new();
        self.output.read_line(&mut header).map_err(broken)?;
        let header = header.trim_end();
        if header.ends_with(" missing") || header.ends_with(" ambiguous") || header.is_empty() {
            return Ok(None);
        }
        let mut parts = header.split(' ');
        let (oid, kind, size) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or("0"));
        let size: usize = size.parse().map_err(|_| Failure::Input(format!("unexpected git output: {header}")))?;
        let mut content = vec![0; size + 1];
        self.output.read_exact(&mut content).map_err(broken)?;
        content.pop();
        Ok(Some((oid.to_string(), kind.to_string(), content)))
    }

    /// Whether a revision names a commit in this clone.
    pub fn has_commit(&mut self, rev: &Rev) -> Result<bool, Failure> {
        Ok(self.object(&format!("{}^{{commit}}", rev.as_str()))?.is_some_and(|(kind, _)| kind == "commit"))
    }

    /// A repository path (`contracts/a.json`) for a path given on the command
    /// line, relative to the current directory or absolute.
    pub fn repo_path(&self, path: &Path) -> Result<String, Failure> {
        let cwd = std::env::current_dir().map_err(|e| Failure::Input(format!("no current directory: {e}")))?;
        let full = if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) };
        let mut parts: Vec<String> = Vec::new();
        for c in full.components() {
            match c {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                _ => {}
            }
        }
        let normal: PathBuf = std::iter::once("/".to_string()).chain(parts).collect();
        let root = self.root.canonicalize().unwrap_or_else(|_| self.root.clone());
        let rel = normal.strip_prefix(&root).or_else(|_| normal.strip_prefix(&self.root)).map_err(|_| {
            Failure::Input(format!("{} is outside the git repository {}", path.display(), self.root.display()))
        })?;
        Ok(rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"))
    }

    /// A file's content as committed at `rev`.
    pub fn blob(&mut self, rev: &Rev, repo_path: &str) -> Result<Option<Vec<u8>>, Failure> {
        Ok(self.object(&format!("{}:{repo_path}", rev.as_str()))?.filter(|(k, _)| k == "blob").map(|(_, c)| c))
    }

    /// A directory's entries as committed at `rev`, or `None` if it is not a
    /// directory there.
    pub fn tree(&mut self, rev: &Rev, repo_path: &str) -> Result<Option<Vec<Entry>>, Failure> {
        let spec = if repo_path.is_empty() {
            format!("{}^{{tree}}", rev.as_str())
        } else {
            format!("{}:{repo_path}", rev.as_str())
        };
        let Some((oid, kind, content)) = self.object_with_id(&spec)? else { return Ok(None) };
        if kind != "tree" {
            return Ok(None);
        }
        Ok(Some(parse_tree(&content, oid.len() / 2)))
    }

    /// A directory's entries by the tree's object id (names stored in git may
    /// hold any byte but NUL, a line break included: walking by id never puts
    /// a stored name into a request).
    pub fn tree_by_id(&mut self, oid: &str) -> Result<Option<Vec<Entry>>, Failure> {
        let Some((oid, kind, content)) = self.object_with_id(oid)? else { return Ok(None) };
        if kind != "tree" {
            return Ok(None);
        }
        Ok(Some(parse_tree(&content, oid.len() / 2)))
    }

    /// A blob by object id.
    pub fn blob_by_id(&mut self, oid: &str) -> Result<Option<Vec<u8>>, Failure> {
        Ok(self.object(oid)?.filter(|(k, _)| k == "blob").map(|(_, c)| c))
    }
}

/// The entries of a raw tree object: `<mode> <name>\0<binary id>` repeated,
/// ids of `id_len` bytes (20 for SHA-1, 32 for SHA-256); names never hold NUL.
fn parse_tree(content: &[u8], id_len: usize) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(space) = rest.iter().position(|&b| b == b' ') {
        let mode = &rest[..space];
        let Some(nul) = rest[space..].iter().position(|&b| b == 0).map(|n| n + space) else { break };
        let name = String::from_utf8_lossy(&rest[space + 1..nul]).into_owned();
        let Some(id) = rest.get(nul + 1..nul + 1 + id_len) else { break };
        let oid = id.iter().map(|b| format!("{b:02x}")).collect();
        out.push(Entry { name, is_tree: mode == b"40000", oid });
        rest = &rest[nul + 1 + id_len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_are_checked() {
        for ok in ["main", "origin/main", "HEAD~1", "HEAD^", "v1.2.0", "0123abcd", "main@{1}"] {
            assert!(Rev::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", "--output=x", "-x", "main\nHEAD", "a b", "a..b", "a:b", "$(rm)"] {
            assert!(Rev::parse(bad).is_err(), "{bad:?}");
        }
    }
}
