//! The project's configuration: `[workspace.metadata.protocolarc]` (or
//! `[package.metadata.protocolarc]` of the package `--manifest-path` names),
//! read with `cargo metadata`. Paths are relative to the manifest's directory.
//!
//! ```toml
//! [workspace.metadata.protocolarc]
//! contracts = "contracts"                 # default: contracts/ at the workspace root
//! fixtures = "contracts/fixtures"         # default: <contracts>/fixtures
//! lock = "protocolarc.lock"               # default: protocolarc.lock at the root
//! base = "origin/main"                    # default: HEAD
//!
//! [[workspace.metadata.protocolarc.accept]]   # an intentional break, approved
//! contract = "mcp.tool_call"
//! revision = "1.2.0"
//! rule = "field.maximum.tightened"
//! field = "params.limit"
//! reason = "limit above 20 was never served; approved in #123"
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Failure;

/// An approved breaking change: exactly one change of one revision.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Accept {
    pub contract: String,
    pub revision: String,
    pub rule: String,
    pub field: String,
    pub reason: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    contracts: Option<PathBuf>,
    fixtures: Option<PathBuf>,
    lock: Option<PathBuf>,
    base: Option<String>,
    #[serde(default)]
    accept: Vec<Accept>,
}

/// Where things are, resolved.
#[derive(Debug, Clone)]
pub(crate) struct Project {
    /// The manifest whose metadata configured the project (for messages).
    pub manifest: Option<PathBuf>,
    pub contracts: PathBuf,
    pub fixtures: PathBuf,
    pub lock: PathBuf,
    pub base: Option<String>,
    pub accept: Vec<Accept>,
}

/// Shortens a path to one relative to the current directory when it lies
/// below it, so messages and annotations read `contracts/a.json`.
pub(crate) fn display(path: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else { return path.to_path_buf() };
    path.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or_else(|_| path.to_path_buf())
}

impl Project {
    /// Reads the configuration. Without `--manifest-path`, a directory that
    /// is not a cargo project falls back to `contracts/` of the nearest
    /// ancestor that has one.
    pub fn load(manifest_path: Option<&Path>) -> Result<Project, Failure> {
        let mut cmd = cargo_metadata::MetadataCommand::new();
        cmd.no_deps();
        if let Some(p) = manifest_path {
            cmd.manifest_path(p);
        }
        let meta = match cmd.exec() {
            Ok(meta) => meta,
            Err(e) if manifest_path.is_some() => {
                let why = e.to_string();
                let why = why.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(&why).trim().to_string();
                return Err(Failure::Input(format!(
                    "cannot read {}: {why}",
                    manifest_path.unwrap_or(Path::new("")).display()
                )));
            }
            Err(_) => return Ok(Project::fallback()),
        };
        let root: PathBuf = meta.workspace_root.clone().into_std_path_buf();
        let package = manifest_path.and_then(|_| meta.root_package());
        let from_package = package.and_then(|p| p.metadata.get("protocolarc").cloned()).map(|v| {
            let dir = p_dir(package.map(|p| p.manifest_path.clone().into_std_path_buf()));
            (v, dir, package.map(|p| p.manifest_path.clone().into_std_path_buf()))
        });
        let (value, base_dir, manifest) = match from_package {
            Some(found) => found,
            None => (
                meta.workspace_metadata.get("protocolarc").cloned().unwrap_or(serde_json::Value::Null),
                root.clone(),
                Some(root.join("Cargo.toml")),
            ),
        };
        let raw: Raw = if value.is_null() {
            Raw::default()
        } else {
            serde_json::from_value(value).map_err(|e| {
                let at = manifest.as_deref().map(display).unwrap_or_default();
                Failure::Input(format!("{}: [metadata.protocolarc]: {e}", at.display()))
            })?
        };
        let at = |p: PathBuf| display(&base_dir.join(p));
        let contracts = at(raw.contracts.unwrap_or_else(|| "contracts".into()));
        let fixtures = raw.fixtures.map(&at).unwrap_or_else(|| contracts.join("fixtures"));
        let lock = at(raw.lock.unwrap_or_else(|| "protocolarc.lock".into()));
        for a in &raw.accept {
            if a.reason.trim().is_empty() {
                return Err(Failure::Input(format!(
                    "accept entry for {}@{} {} {} needs a reason",
                    a.contract, a.revision, a.rule, a.field
                )));
            }
        }
        Ok(Project {
            manifest: manifest.map(|m| display(&m)),
            contracts,
            fixtures,
            lock,
            base: raw.base,
            accept: raw.accept,
        })
    }

    fn fallback() -> Project {
        let contracts = crate::project::contracts_dir();
        let root = contracts.parent().map(Path::to_path_buf).unwrap_or_default();
        Project {
            manifest: None,
            fixtures: contracts.join("fixtures"),
            lock: root.join("protocolarc.lock"),
            contracts,
            base: None,
            accept: Vec::new(),
        }
    }
}

fn p_dir(manifest: Option<PathBuf>) -> PathBuf {
    manifest.and_then(|m| m.parent().map(Path::to_path_buf)).unwrap_or_default()
}
