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
        let cwd = std::env::current_dir().unwrap_or_default();
        // The manifest the run is about: the one named, else the nearest
        // Cargo.toml above the current directory.
        let nearest = manifest_path
            .map(Path::to_path_buf)
            .or_else(|| cwd.ancestors().map(|d| d.join("Cargo.toml")).find(|m| m.is_file()));
        let meta = match cmd.exec() {
            Ok(meta) => meta,
            Err(e) if nearest.is_some() => {
                let why = e.to_string();
                let why = why.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(&why).trim().to_string();
                let shown = nearest.as_deref().map(display).unwrap_or_default();
                return Err(Failure::Input(format!("cannot read {}: {why}", shown.display())));
            }
            Err(_) => return Ok(Project::fallback()),
        };
        let root: PathBuf = meta.workspace_root.clone().into_std_path_buf();
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let target = nearest.as_deref().map(canonical);
        let package = meta.packages.iter().find(|p| Some(canonical(p.manifest_path.as_std_path())) == target);
        let from_package = package.and_then(|p| {
            let value = p.metadata.get("protocolarc")?.clone();
            let manifest = p.manifest_path.clone().into_std_path_buf();
            Some((value, p_dir(Some(manifest.clone())), Some(manifest), "[package.metadata.protocolarc]"))
        });
        let (value, base_dir, manifest, table) = match from_package {
            Some(found) => found,
            None => (
                meta.workspace_metadata.get("protocolarc").cloned().unwrap_or(serde_json::Value::Null),
                root.clone(),
                Some(root.join("Cargo.toml")),
                "[workspace.metadata.protocolarc]",
            ),
        };
        let raw: Raw = if value.is_null() {
            Raw::default()
        } else {
            serde_json::from_value(value).map_err(|e| {
                let at = manifest.as_deref().map(display).unwrap_or_default();
                let why = e.to_string().replace("struct Raw", "a table").replace("struct Accept", "a table");
                Failure::Input(format!("{}: {table}: {why}", at.display()))
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
