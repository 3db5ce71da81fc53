//! Where the project's bundled contracts live when a command is given no
//! paths: the `contracts/` directory of the nearest enclosing Cargo project
//! (the current directory or an ancestor holding a `Cargo.toml` next to a
//! `contracts/`), else `./contracts`.

use std::path::PathBuf;

/// The default contracts directory, as a path relative to the current
/// directory where it can be (so messages stay short).
pub(crate) fn contracts_dir() -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return PathBuf::from("contracts");
    };
    let mut rel = PathBuf::new();
    for dir in cwd.ancestors() {
        if dir.join("Cargo.toml").is_file() && dir.join("contracts").is_dir() {
            return rel.join("contracts");
        }
        rel.push("..");
    }
    PathBuf::from("contracts")
}
