//! Compiles the bundled catalogs (`catalog/`: the MCP and A2A contracts, one
//! directory per protocol revision) into the macro: writes an index of
//! `include_str!` entries in path order, so that `#[protocolarc::catalog]`
//! needs no checkout and no file outside this crate.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut index = String::from("/// Every bundled contract: its path under `catalog/` and its text.\n");
    index.push_str("pub(crate) static FILES: &[(&str, &str)] = &[\n");
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().to_str().expect("catalog paths are UTF-8").replace('\\', "/");
        writeln!(index, "    ({rel:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    index.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalog_index.rs");
    std::fs::write(out, index).expect("write the catalog index");
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the catalog directory") {
        let path = entry.expect("a catalog entry").path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "json") {
            files.push(path);
        }
    }
}
