//! Compiles the protocol catalogs (`catalog/`: MCP, A2A and the tools/list
//! captures) into the binary: writes an index of `include_bytes!` entries, in
//! path order, and a digest of every path and byte so that one build's
//! extracted copy is never mistaken for another's.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut index = String::from("/// Every catalog file: its path under `catalog/` and its bytes.\n");
    index.push_str("pub(crate) static FILES: &[(&str, &[u8])] = &[\n");
    let mut digest = Fnv::default();
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().to_str().expect("catalog paths are UTF-8").replace('\\', "/");
        let bytes = std::fs::read(path).expect("read a catalog file");
        digest.feed(rel.as_bytes());
        digest.feed(&[0]);
        digest.feed(&(bytes.len() as u64).to_le_bytes());
        digest.feed(&bytes);
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(index, "    ({rel:?}, include_bytes!({:?})),", path.display().to_string()).unwrap();
    }
    index.push_str("];\n");
    writeln!(
        index,
        "/// A digest of every path and byte of [`FILES`].\npub(crate) const DIGEST: u64 = {:#018x};",
        digest.0
    )
    .unwrap();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalog_index.rs");
    std::fs::write(out, index).expect("write the catalog index");
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the catalog directory") {
        let path = entry.expect("a catalog entry").path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// FNV-1a, 64 bits: a content tag, not a security boundary.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
