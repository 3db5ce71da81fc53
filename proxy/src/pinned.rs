//! Pinned tool contracts (`--tools DIR`): what a server's `tools/list` may
//! list. Each live tool is imported as `import tools-list` imports it, under
//! its pinned contract's server name and revision, and its lock digest (the
//! SHA-256 of the canonical JSON, as `lock` and `check` pin a contract) is
//! compared with the pinned file's: any change of input schema, output
//! schema, title or description under the same name is `tool.changed`; a tool
//! with no pinned contract is `tool.unpinned`.

use std::collections::HashMap;
use std::path::Path;

use protocolarc::lock::digest;
use protocolarc::rules::{TOOL_CHANGED, TOOL_UNPINNED};
use protocolarc::{Catalog, Finding};
use protocolarc_core::schema_keywords::name as keyword;
use protocolarc_interop::import::{render, sanitize_name, tools_list_contracts};
use serde_json::Value;

/// One pinned tool: its contracts (`S.TOOL`, and `S.TOOL.output` when it
/// has an output schema), by name, with their digests and documents.
struct Pin {
    server: String,
    revision: String,
    contracts: Vec<(String, String, Value)>,
}

/// The pinned tools of a directory, and its catalog (which judges
/// `tools/call` arguments and `structuredContent` as `traffic --tools` does).
pub(crate) struct Pinned {
    pub(crate) catalog: &'static Catalog,
    tools: HashMap<String, Pin>,
}

/// A tool of a `tools/list` result that may not be used: its index in
/// `tools`, its name, and why.
pub(crate) struct Refusal {
    pub(crate) index: usize,
    pub(crate) name: String,
    pub(crate) finding: Finding,
}

impl Pinned {
    /// The contracts of `dir` (the newest revision of each name).
    pub(crate) fn load(dir: &Path) -> Result<Pinned, String> {
        let catalog = Catalog::load(&[dir.to_path_buf()]).map_err(|e| e.to_string())?;
        let mut tools: HashMap<String, Pin> = HashMap::new();
        for (path, spec) in catalog.entries() {
            let shown = path.display();
            let bytes =
                std::fs::read(path).map_err(|e| format!("{shown}: cannot read: {}", protocolarc::io_reason(&e)))?;
            let sha = digest(&bytes).map_err(|e| format!("{shown}: {}", e.message))?;
            let doc: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{shown}: {e}"))?;
            let name = spec.name().to_string();
            let base = name.strip_suffix(".output").unwrap_or(&name);
            let Some((server, tool)) = base.split_once('.') else { continue };
            let revision = spec.revision().to_string();
            let pin = tools.entry(tool.to_string()).or_insert_with(|| Pin {
                server: server.to_string(),
                revision: revision.clone(),
                contracts: Vec::new(),
            });
            // Sorted by name then revision: a later entry of a name is newer.
            pin.contracts.retain(|(n, _, _)| *n != name);
            if revision != pin.revision {
                pin.revision = revision;
            }
            pin.contracts.push((name, sha, doc));
        }
        for pin in tools.values_mut() {
            pin.contracts.sort_by(|a, b| a.0.cmp(&b.0));
        }
        // Read once per process; sessions borrow it for their lifetime.
        let catalog: &'static Catalog = Box::leak(Box::new(catalog));
        Ok(Pinned { catalog, tools })
    }

    /// Whether a tool (by its name as the server gives it) is pinned.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.tools.contains_key(&sanitize_name(name))
    }

    /// The tools of a `tools/list` result (`result.tools`) that differ from
    /// their pins or have none.
    pub(crate) fn check(&self, tools: &[Value]) -> Vec<Refusal> {
        let mut out = Vec::new();
        for (index, tool) in tools.iter().enumerate() {
            let Some(name) = tool.get("name").and_then(Value::as_str) else { continue };
            let field = format!("result.tools[{index}]");
            let shown = bounded(name);
            let finding = match self.tools.get(&sanitize_name(name)) {
                None => Finding::new(TOOL_UNPINNED, field, format!("tool '{shown}' has no pinned contract")),
                Some(pin) => match changed(pin, tool) {
                    None => continue,
                    Some(why) => Finding::new(TOOL_CHANGED, field, format!("tool '{shown}' {why}")),
                },
            };
            out.push(Refusal { index, name: name.to_string(), finding });
        }
        out
    }
}

/// What differs between a live tool and its pin, if anything.
fn changed(pin: &Pin, tool: &Value) -> Option<String> {
    let live = match tools_list_contracts(&Value::Array(vec![tool.clone()]), &pin.server, &pin.revision) {
        Ok((contracts, _notes)) => contracts,
        Err(e) => return Some(format!("cannot be read as a tool: {e}")),
    };
    let mut live: Vec<(String, String, Value)> = live
        .into_iter()
        .map(|(_, c)| {
            let name = c.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            let sha = digest(render(&c).as_bytes()).unwrap_or_default();
            (name, sha, c)
        })
        .collect();
    live.sort_by(|a, b| a.0.cmp(&b.0));
    let same =
        live.len() == pin.contracts.len() && live.iter().zip(&pin.contracts).all(|(l, p)| l.0 == p.0 && l.1 == p.1);
    if same {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for (name, _, pinned) in &pin.contracts {
        let output = name.ends_with(".output");
        let Some((_, _, now)) = live.iter().find(|(n, _, _)| n == name) else {
            parts.push(if output { "output schema (gone)" } else { "input schema (gone)" });
            continue;
        };
        if !output && now.get("doc") != pinned.get("doc") {
            parts.push(keyword::DESCRIPTION);
        }
        if !output && now.get(keyword::TITLE) != pinned.get(keyword::TITLE) {
            parts.push(keyword::TITLE);
        }
        if now.get("schema") != pinned.get("schema") {
            parts.push(if output { "output schema" } else { "input schema" });
        }
    }
    if live.iter().any(|(n, _, _)| !pin.contracts.iter().any(|(p, _, _)| p == n)) {
        parts.push("output schema (new)");
    }
    let pinned = &pin.contracts[0];
    let what = if parts.is_empty() { "contract".to_string() } else { parts.join(", ") };
    Some(format!(
        "differs from its pinned contract {}@{} ({what}; lock digest {} where the pin has {})",
        pinned.0,
        pin.revision,
        short(&live.first().map(|l| l.1.clone()).unwrap_or_default()),
        short(&pinned.1)
    ))
}

fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

/// A name as a finding quotes it: on one line, at most 80 characters.
fn bounded(name: &str) -> String {
    let line = protocolarc::one_line(name);
    match line.char_indices().nth(80) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.into_owned(),
    }
}
