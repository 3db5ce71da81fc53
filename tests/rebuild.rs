//! Editing a contract file rebuilds the crate that uses it: a scratch crate
//! is built, its contract edited, and built again, and the program reports
//! the new revision (the macro compiles the file in with `include_str!`, so
//! cargo tracks it).

use std::path::Path;
use std::process::Command;

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn contract(revision: &str) -> String {
    format!(r#"{{"name": "demo.ping", "revision": "{revision}", "fields": [{{"name": "seq", "type": "integer"}}]}}"#)
}

#[test]
fn editing_the_contract_rebuilds_the_crate() {
    let root = protocolarc_tests::root();
    let dir = root.join("target/rebuild-proof/crate");
    let target = root.join("target/rebuild-proof/target");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"rebuild-proof\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nprotocolarc = {{ path = {:?} }}\n\n[workspace]\n",
        root.join("runtime")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "#[protocolarc::contract(\"ping.json\")]\npub struct Ping;\n\n\
         fn main() {\n    println!(\"{}\", <Ping as protocolarc::Contract>::REVISION);\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("ping.json"), contract("1.0.0")).unwrap();
    assert_eq!(cargo(&dir, &target, &["run"]), "1.0.0\n");
    std::fs::write(dir.join("ping.json"), contract("1.0.1")).unwrap();
    assert_eq!(cargo(&dir, &target, &["run"]), "1.0.1\n", "the edit rebuilt the crate");
}
