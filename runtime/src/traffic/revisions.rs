//! The protocol revisions of a catalog directory
//! (`<root>/<protocol>/<revision>/*.json`), and which of them a session's
//! messages tell: what `traffic` decides for a capture and the proxy for a
//! live session, in the same words.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::hint::Hint;
use crate::catalog::Catalog;
use crate::input::{self, Limits};

/// A catalog revision: `(protocol, revision)`, `("mcp", "2025-11-25")`.
pub type Revision = (String, String);

/// The revisions under one catalog root, sorted by name.
#[derive(Debug, Clone)]
pub struct Revisions {
    root: PathBuf,
    available: Vec<Revision>,
}

impl Revisions {
    /// The `<protocol>/<revision>` directories of `root` that hold
    /// contracts; an error when there are none or `root` cannot be read.
    pub fn scan(root: &Path) -> Result<Revisions, String> {
        let shown = root.display();
        let missing = |why: String| {
            format!(
                "{shown}: cannot read the protocol catalog: {why} (expected \
                 {shown}/<protocol>/<revision>/*.json; --catalog DIR names another)"
            )
        };
        let dirs = |dir: &Path| -> Result<Vec<String>, String> {
            let entries = std::fs::read_dir(dir).map_err(|e| missing(crate::io_reason(&e)))?;
            let mut names = Vec::new();
            for entry in entries {
                let entry = entry.map_err(|e| missing(crate::io_reason(&e)))?;
                if entry.path().is_dir() {
                    if let Some(n) = entry.file_name().to_str() {
                        names.push(n.to_string());
                    }
                }
            }
            names.sort();
            Ok(names)
        };
        let mut available = Vec::new();
        for name in dirs(root)? {
            for revision in dirs(&root.join(&name))? {
                if holds_contracts(&root.join(&name).join(&revision)) {
                    available.push((name.clone(), revision));
                }
            }
        }
        if available.is_empty() {
            return Err(missing("it holds no <protocol>/<revision> directory".into()));
        }
        Ok(Revisions { root: root.to_path_buf(), available })
    }

    /// The catalog root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every revision, `mcp@2025-11-25, a2a@1.0.0, ...`.
    pub fn list(&self) -> String {
        self.available.iter().map(|(n, r)| format!("{n}@{r}")).collect::<Vec<_>>().join(", ")
    }

    /// `NAME@REVISION` (`--protocol`), one of the catalog's.
    pub fn named(&self, p: &str) -> Result<Revision, String> {
        let found = p.split_once('@').and_then(|(n, r)| self.available.iter().find(|(an, ar)| an == n && ar == r));
        found.cloned().ok_or_else(|| {
            format!(
                "unknown protocol '{}': the catalog {} has {}",
                crate::one_line(p),
                self.root.display(),
                self.list()
            )
        })
    }

    /// The directory of a revision's contracts.
    pub fn dir(&self, r: &Revision) -> PathBuf {
        self.root.join(&r.0).join(&r.1)
    }

    /// A revision's catalog, read from its directory.
    pub fn load(&self, r: &Revision) -> Result<Catalog, String> {
        Catalog::load(&[self.dir(r)]).map_err(|e| e.to_string())
    }

    /// The revision a decisive hint names (an MCP `initialize` request or a
    /// request's `_meta`, an A2A agent card, read as its minor's newest
    /// patch) with the note that says why; `None` for a method. `at` is
    /// where the hint was seen, said in the note and the error.
    pub fn decided(&self, hint: &Hint, at: Option<&str>) -> Option<Result<(Revision, String), String>> {
        let place = at.map(|a| format!(" at {a}")).unwrap_or_default();
        let unknown = |what: String| {
            let prefix = at.map(|a| format!("{a}: ")).unwrap_or_default();
            format!(
                "{prefix}{what}, which the catalog {} has no revision of (it has {}); pick one with --protocol",
                self.root.display(),
                self.list()
            )
        };
        let mcp = |v: &str| self.available.iter().find(|(n, r)| n == "mcp" && r == v).cloned();
        Some(match hint {
            Hint::Initialize(v) => match mcp(v) {
                Some(pair) => Ok((pair, format!("protocol mcp@{v}, from the initialize request{place}"))),
                None => {
                    Err(unknown(format!("the initialize request asks for protocolVersion '{}'", crate::one_line(v))))
                }
            },
            Hint::Declared { method, version } => {
                let method = crate::one_line(method);
                match mcp(version) {
                    Some(pair) => {
                        Ok((pair, format!("protocol mcp@{version}, from the {method} request's _meta{place}")))
                    }
                    None => Err(unknown(format!(
                        "the {method} request names protocolVersion '{}' in its _meta",
                        crate::one_line(version)
                    ))),
                }
            }
            Hint::AgentCard(v) => {
                // A2A patch releases keep their minor's messages: 0.2.9 is read as the newest 0.2.x.
                let minor = |s: &str| s.split('.').take(2).map(str::to_string).collect::<Vec<_>>();
                let pair = self
                    .available
                    .iter()
                    .filter(|(n, r)| n == "a2a" && minor(r) == minor(v))
                    .max_by_key(|(_, r)| numeric(r));
                let shown = crate::one_line(v);
                match pair {
                    Some(pair) => Ok((
                        pair.clone(),
                        format!("protocol a2a@{}, from the agent card{place} (protocolVersion {shown})", pair.1),
                    )),
                    None => Err(unknown(format!("the agent card declares protocolVersion '{shown}'"))),
                }
            }
            Hint::Method(_) => return None,
        })
    }

    /// The A2A revision `methods` tell, with the A2A-only methods among
    /// them: those some A2A catalog has a request contract for and no MCP
    /// catalog has (`message/send`); the newest A2A revision that knows them
    /// all, else the newest that knows the first.
    pub fn by_methods(&self, methods: &[String]) -> Result<Option<(Revision, Vec<String>)>, String> {
        self.by_methods_of(methods, |r| Ok(requests(&self.load(r)?, &r.0)))
    }

    /// [`Revisions::by_methods`], each revision's request methods given by
    /// `requests` (from catalogs a caller keeps loaded).
    pub fn by_methods_of(
        &self,
        methods: &[String],
        requests: impl Fn(&Revision) -> Result<Vec<String>, String>,
    ) -> Result<Option<(Revision, Vec<String>)>, String> {
        if methods.is_empty() || !self.available.iter().any(|(n, _)| n == "a2a") {
            return Ok(None);
        }
        let mut known: Vec<(&Revision, HashSet<String>)> = Vec::new();
        for pair in self.available.iter().filter(|(n, _)| n == "mcp" || n == "a2a") {
            known.push((pair, requests(pair)?.into_iter().collect()));
        }
        let knows = |protocol: &str, m: &String| known.iter().any(|((n, _), set)| n == protocol && set.contains(m));
        let a2a: Vec<String> = methods.iter().filter(|m| knows("a2a", m) && !knows("mcp", m)).cloned().collect();
        let Some(first) = a2a.first() else { return Ok(None) };
        let newest = |all: bool| {
            known
                .iter()
                .filter(|((n, _), set)| {
                    n == "a2a" && if all { a2a.iter().all(|m| set.contains(m)) } else { set.contains(first) }
                })
                .max_by_key(|((_, r), _)| numeric(r))
                .map(|(pair, _)| (*pair).clone())
        };
        Ok(newest(true).or_else(|| newest(false)).map(|pair| (pair, a2a)))
    }

    /// The newest MCP revision, what a session that tells nothing is read
    /// as, with its note.
    pub fn newest_mcp(&self) -> Result<(Revision, String), String> {
        match self.available.iter().rev().find(|(n, _)| n == "mcp") {
            Some(pair) => {
                Ok((pair.clone(), format!("protocol mcp@{} (no initialize request: the newest MCP revision)", pair.1)))
            }
            None => Err(format!(
                "the catalog {} has no MCP revision ({}): name the protocol with --protocol",
                self.root.display(),
                self.list()
            )),
        }
    }

    /// The revision of `r`'s protocol just before it, and the methods it
    /// has a request contract for that `catalog` (`r`'s) has not.
    pub fn removed(&self, r: &Revision, catalog: &Catalog) -> Result<Option<(String, Vec<String>)>, String> {
        let before = self
            .available
            .iter()
            .filter(|(n, v)| *n == r.0 && numeric(v) < numeric(&r.1))
            .max_by_key(|(_, v)| numeric(v));
        let Some(before) = before else { return Ok(None) };
        let now = requests(catalog, &r.0);
        let gone: Vec<String> = requests(&self.load(before)?, &r.0).into_iter().filter(|m| !now.contains(m)).collect();
        Ok((!gone.is_empty()).then(|| (format!("{}@{}", before.0, before.1), gone)))
    }
}

/// Whether `dir` is a protocol revision: its first `*.json` file (by name)
/// is a contract document (an object with a string `name` and `revision`).
/// The vendored schemas (`vendor/mcp/DATE/`) and the tools/list captures
/// kept beside a catalog (`tools-list/history/`) are not protocols.
fn holds_contracts(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    let first = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && input::is_regular_file(p))
        .min();
    let Some(first) = first else { return false };
    let Ok(bytes) = input::read_capped(&first, Limits::default().max_document) else { return false };
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&bytes) else { return false };
    doc.get("name").is_some_and(serde_json::Value::is_string)
        && doc.get("revision").is_some_and(serde_json::Value::is_string)
}

/// The methods `catalog` (of `protocol`) has a request contract for.
pub fn requests(catalog: &Catalog, protocol: &str) -> Vec<String> {
    let prefix = format!("{protocol}.");
    catalog
        .contracts()
        .filter_map(|c| c.name().strip_prefix(&prefix)?.strip_suffix(".request").map(str::to_string))
        .collect()
}

/// A revision's numbers, for ordering (`0.10.0` after `0.9.1`).
fn numeric(revision: &str) -> Vec<u64> {
    revision.split(['.', '-']).map(|p| p.parse().unwrap_or(0)).collect()
}
