//! The protocol catalogs compiled into the binary (`catalog/` of this crate:
//! the MCP and A2A contracts and the tools/list captures), so that `traffic`
//! and `loss --matrix` work from any directory with nothing but the binary.
//!
//! The commands read catalogs from directories (`--catalog DIR` names one), so
//! the embedded files are written once to a per-user cache directory named by
//! the build's digest, and every run checks them byte for byte before use: a
//! file that differs (edited, truncated, half-written) is written again.

use std::io;
use std::path::{Path, PathBuf};

use crate::Failure;

include!(concat!(env!("OUT_DIR"), "/catalog_index.rs"));

/// The directory holding the embedded catalog (`mcp/`, `a2a/`, `tools-list/`),
/// written or repaired first.
pub(crate) fn root() -> Result<PathBuf, Failure> {
    let dir = cache_base().join("protocolarc").join(format!("catalog-{}-{DIGEST:016x}", env!("CARGO_PKG_VERSION")));
    extract(&dir).map_err(|e| {
        Failure::Input(format!(
            "{}: cannot write the built-in protocol catalog: {} (name a catalog with --catalog DIR)",
            dir.display(),
            crate::io_reason(&e)
        ))
    })?;
    Ok(dir)
}

/// `$XDG_CACHE_HOME`, else `$HOME/.cache`, else the temporary directory.
fn cache_base() -> PathBuf {
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("XDG_CACHE_HOME")
        .or_else(|| set("HOME").map(|h| h.join(".cache")))
        .or_else(|| set("LOCALAPPDATA"))
        .unwrap_or_else(std::env::temp_dir)
}

fn extract(dir: &Path) -> io::Result<()> {
    for (rel, bytes) in FILES {
        let path = dir.join(rel);
        if std::fs::read(&path).is_ok_and(|have| have == *bytes) {
            continue;
        }
        let parent = path.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent)?;
        // Written beside its final name and renamed over it, so that a run
        // alongside never reads a half-written file.
        let part = parent.join(format!(".{}.{}.part", file_name(&path), std::process::id()));
        std::fs::write(&part, bytes)?;
        std::fs::rename(&part, &path)?;
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
