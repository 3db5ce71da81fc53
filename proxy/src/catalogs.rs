//! The protocol catalogs a proxy judges with: the revisions of the catalog
//! root (`protocolarc::traffic::Revisions`, as `traffic` reads them), each
//! loaded once per process, and the revision a session's first message
//! tells.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use protocolarc::traffic::{requests, Hint, Revisions};
use protocolarc::Catalog;

pub(crate) use protocolarc::traffic::Revision;

pub(crate) struct Catalogs {
    revisions: Revisions,
    /// Verdicts borrow their contracts from the catalog for as long as a
    /// session lives, and sessions come and go: each revision is loaded
    /// once and kept for the process (a catalog root holds a handful).
    loaded: Mutex<HashMap<Revision, &'static Catalog>>,
}

impl Catalogs {
    /// The revisions under `root` (`<protocol>/<revision>/*.json`).
    pub(crate) fn new(root: PathBuf) -> Result<Catalogs, String> {
        Ok(Catalogs { revisions: Revisions::scan(&root)?, loaded: Mutex::new(HashMap::new()) })
    }

    /// `NAME@REVISION`, one of the catalog's.
    pub(crate) fn chosen(&self, p: &str) -> Result<Revision, String> {
        self.revisions.named(p)
    }

    /// The catalog of one revision, loaded on first use.
    pub(crate) fn load(&self, r: &Revision) -> Result<&'static Catalog, String> {
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = loaded.get(r) {
            return Ok(c);
        }
        let catalog: &'static Catalog = Box::leak(Box::new(self.revisions.load(r)?));
        loaded.insert(r.clone(), catalog);
        Ok(catalog)
    }

    /// The revision a session's first message tells (its hints, in order),
    /// with the note that says why: an MCP `initialize` request's
    /// `protocolVersion` (or a request's `_meta`), an A2A agent card's
    /// version, an A2A-only method (the newest A2A revision that knows it),
    /// else the newest MCP revision.
    pub(crate) fn decided(&self, hints: &[Hint]) -> Result<(Revision, String), String> {
        for hint in hints {
            if let Some(decided) = self.revisions.decided(hint, None) {
                return decided;
            }
            if let Hint::Method(m) = hint {
                if let Some((pair, _)) =
                    self.revisions.by_methods_of(std::slice::from_ref(m), |r| Ok(requests(self.load(r)?, &r.0)))?
                {
                    let note = format!("protocol a2a@{}, from the A2A method {}", pair.1, protocolarc::one_line(m));
                    return Ok((pair, note));
                }
            }
        }
        self.revisions.newest_mcp()
    }

    /// The revision of `r`'s protocol just before it, and the methods it has
    /// a request contract for that `r` has not.
    pub(crate) fn removed(&self, r: &Revision) -> Result<Option<(String, Vec<String>)>, String> {
        self.revisions.removed(r, self.load(r)?)
    }
}
