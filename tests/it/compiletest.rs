//! The macro's compile errors (trybuild): each bad contract, bad argument or
//! breaking change names the file, the JSON position and the problem.
//!
//! trybuild compiles `tests/ui/*.rs` in a scratch crate under the target
//! directory, `<target>/tests/trybuild/protocolarc-tests/`, and the macro
//! reads contracts relative to that crate's manifest. The cases name
//! `contracts/<file>.json`, so the contracts are copied beside that scratch
//! manifest first: the cases then resolve wherever the target directory is
//! (`CARGO_TARGET_DIR` included), and the errors print the same short path.

use std::path::{Path, PathBuf};

/// `<target>/tests/trybuild/protocolarc-tests`: cargo gives integration
/// tests `<target>/tmp`, whose parent is the target directory trybuild uses.
fn scratch_crate() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let target = tmp.parent().expect("CARGO_TARGET_TMPDIR has a parent");
    target.join("tests/trybuild/protocolarc-tests")
}

fn copy_contracts(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/contracts");
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

#[test]
fn ui() {
    let contracts = scratch_crate().join("contracts");
    copy_contracts(&contracts);
    assert!(contracts.join("v1.json").is_file(), "{}", contracts.display());
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
