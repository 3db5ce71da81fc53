//! The CLI under test: the same entry point as the `cargo-protocolarc`
//! binary, built inside this package so its integration tests can run it
//! (`CARGO_BIN_EXE_protocolarc-under-test`).

fn main() {
    cargo_protocolarc::main()
}
