//! The protocol catalogs a proxy judges with: every `<protocol>/<revision>`
//! directory of the catalog root, each loaded once per process, and the
//! revision a session's first message tells, picked as `traffic` picks it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use protocolarc::traffic::Hint;
use protocolarc::Catalog;

/// A catalog revision: `(protocol, revision)`.
pub(crate) type Revision = (String, String);

pub(crate) struct Catalogs {
    root: PathBuf,
    available: Vec<Revision>,
    /// Verdicts borrow their contracts from the catalog for as long as a
    /// session lives, and sessions come and go: each revision is loaded
    /// once and kept for the process (a catalog root holds a handful).
    loaded: Mutex<HashMap<Revision, &'static Catalog>>,
}

impl Catalogs {
    /// The revisions under `root` (`<protocol>/<revision>/*.json`).
    pub(crate) fn new(root: PathBuf) -> Result<Catalogs, String> {
        let available = revisions(&root)?;
        Ok(Catalogs { root, available, loaded: Mutex::new(HashMap::new()) })
    }

    /// `NAME@REVISION`, one of the catalog's.
    pub(crate) fn chosen(&self, p: &str) -> Result<Revision, String> {
        let found = p.split_once('@').and_then(|(n, r)| self.available.iter().find(|(an, ar)| an == n && ar == r));
        found.cloned().ok_or_else(|| {
            format!(
                "unknown protocol '{}': the catalog {} has {}",
                protocolarc::one_line(p),
                self.root.display(),
                self.list()
            )
        })
    }

    fn list(&self) -> String {
        self.available.iter().map(|(n, r)| format!("{n}@{r}")).collect::<Vec<_>>().join(", ")
    }

    /// The catalog of one revision, loaded on first use.
    pub(crate) fn load(&self, r: &Revision) -> Result<&'static Catalog, String> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = loaded.get(r) {
            return Ok(c);
        }
        let dir = self.root.join(&r.0).join(&r.1);
        let catalog = Catalog::load(std::slice::from_ref(&dir)).map_err(|e| e.to_string())?;
        let catalog: &'static Catalog = Box::leak(Box::new(catalog));
        loaded.insert(r.clone(), catalog);
        Ok(catalog)
    }

    /// The revision a session's first message tells (its hints, in order),
    /// with the note that says why: an MCP `initialize` request's
    /// `protocolVersion`, an A2A agent card's version (its minor's newest
    /// patch), an A2A-only method (the newest A2A revision that knows it),
    /// else the newest MCP revision.
    pub(crate) fn decided(&self, hints: &[Hint]) -> Result<(Revision, String), String> {
        for hint in hints {
            match hint {
                Hint::Initialize(v) => {
                    let shown = protocolarc::one_line(v);
                    return match self.available.iter().find(|(n, r)| n == "mcp" && r == v) {
                        Some(pair) => Ok((pair.clone(), format!("protocol mcp@{v}, from the initialize request"))),
                        None => Err(format!(
                            "the initialize request asks for protocolVersion '{shown}', which the catalog has no \
                             revision of (it has {}); pick one with --protocol",
                            self.list()
                        )),
                    };
                }
                Hint::Declared { method, version: v } => {
                    let (shown, method) = (protocolarc::one_line(v), protocolarc::one_line(method));
                    return match self.available.iter().find(|(n, r)| n == "mcp" && r == v) {
                        Some(pair) => {
                            Ok((pair.clone(), format!("protocol mcp@{shown}, from the {method} request's _meta")))
                        }
                        None => Err(format!(
                            "the {method} request names protocolVersion '{shown}' in its _meta, which the catalog \
                             has no revision of (it has {}); pick one with --protocol",
                            self.list()
                        )),
                    };
                }
                Hint::AgentCard(v) => {
                    let minor = |s: &str| s.split('.').take(2).map(str::to_string).collect::<Vec<_>>();
                    let pair = self
                        .available
                        .iter()
                        .filter(|(n, r)| n == "a2a" && minor(r) == minor(v))
                        .max_by_key(|(_, r)| numeric(r));
                    let shown = protocolarc::one_line(v);
                    return match pair {
                        Some(pair) => Ok((
                            pair.clone(),
                            format!("protocol a2a@{}, from the agent card (protocolVersion {shown})", pair.1),
                        )),
                        None => Err(format!(
                            "the agent card declares protocolVersion '{shown}', which the catalog has no revision \
                             of (it has {}); pick one with --protocol",
                            self.list()
                        )),
                    };
                }
                Hint::Method(m) => {
                    if let Some(pair) = self.a2a_only(m)? {
                        return Ok((pair.clone(), format!("protocol a2a@{}, from the A2A method {m}", pair.1)));
                    }
                }
            }
        }
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

    /// The newest A2A revision with a request contract for `method`, when
    /// no MCP revision has one.
    fn a2a_only(&self, method: &str) -> Result<Option<&Revision>, String> {
        let mut newest: Option<&Revision> = None;
        for pair in &self.available {
            let known = requests(self.load(pair)?, &pair.0).iter().any(|m| m == method);
            match pair.0.as_str() {
                "mcp" if known => return Ok(None),
                "a2a" if known && newest.is_none_or(|n| numeric(&n.1) < numeric(&pair.1)) => newest = Some(pair),
                _ => {}
            }
        }
        Ok(newest)
    }

    /// The revision of `r`'s protocol just before it, and the methods it has
    /// a request contract for that `r` has not.
    pub(crate) fn removed(&self, r: &Revision) -> Result<Option<(String, Vec<String>)>, String> {
        let before = self
            .available
            .iter()
            .filter(|(n, v)| *n == r.0 && numeric(v) < numeric(&r.1))
            .max_by_key(|(_, v)| numeric(v));
        let Some(before) = before else { return Ok(None) };
        let now = requests(self.load(r)?, &r.0);
        let gone: Vec<String> = requests(self.load(before)?, &r.0).into_iter().filter(|m| !now.contains(m)).collect();
        Ok((!gone.is_empty()).then(|| (format!("{}@{}", before.0, before.1), gone)))
    }
}

/// The methods a catalog has a request contract for.
fn requests(catalog: &Catalog, protocol: &str) -> Vec<String> {
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

/// Every `(name, revision)` directory of the catalog, sorted.
fn revisions(root: &Path) -> Result<Vec<Revision>, String> {
    let shown = root.display();
    let missing = |why: String| {
        format!("{shown}: cannot read the protocol catalog: {why} (expected {shown}/<protocol>/<revision>/*.json)")
    };
    let dirs = |dir: &Path| -> Result<Vec<String>, String> {
        let entries = std::fs::read_dir(dir).map_err(|e| missing(protocolarc::io_reason(&e)))?;
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| missing(protocolarc::io_reason(&e)))?;
            if entry.path().is_dir() {
                if let Some(n) = entry.file_name().to_str() {
                    names.push(n.to_string());
                }
            }
        }
        names.sort();
        Ok(names)
    };
    let mut out = Vec::new();
    for name in dirs(root)? {
        for revision in dirs(&root.join(&name))? {
            out.push((name.clone(), revision));
        }
    }
    if out.is_empty() {
        return Err(missing("it holds no <protocol>/<revision> directory".into()));
    }
    Ok(out)
}
