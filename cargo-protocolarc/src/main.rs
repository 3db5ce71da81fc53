//! The `cargo-protocolarc` binary: see the library for the program.

fn main() {
    cargo_protocolarc::main()
}
