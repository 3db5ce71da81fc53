//! The macro's compile errors (trybuild): each bad contract, bad argument or
//! breaking change names the file, the JSON position and the problem.
//! Paths in `tests/ui/*.rs` are relative to trybuild's scratch crate,
//! `target/tests/trybuild/protocolarc-tests/`, so these tests need the
//! default target directory (as `.ci/run` and `cargo test` use): with
//! `CARGO_TARGET_DIR` elsewhere the contracts are not found.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
