//! Editing a contract file rebuilds the crate that uses it: a scratch crate
//! is built, its contract edited, and built again, and the program reports
//! the new revision (the macro compiles the file in with `include_str!`, so
//! cargo tracks it). The `compatible_with` file is tracked the same way:
//! editing it into a breaking predecessor fails the next build.

use std::path::Path;
use std::process::Command;

/// Runs cargo in `dir`: whether it succeeded, stdout, stderr.
fn cargo_status(dir: &Path, target: &Path, args: &[&str]) -> (bool, String, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> String {
    let (ok, stdout, stderr) = cargo_status(dir, target, args);
    assert!(ok, "cargo {args:?}: {stderr}");
    stdout
}

fn contract(revision: &str, seq: &str) -> String {
    format!(r#"{{"name": "demo.ping", "revision": "{revision}", "fields": [{{"name": "seq", "type": "{seq}"}}]}}"#)
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
        "#[protocolarc::contract(\"ping.json\", compatible_with = \"old.json\")]\npub struct Ping;\n\n\
         fn main() {\n    println!(\"{}\", <Ping as protocolarc::Contract>::REVISION);\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("old.json"), contract("1.0.0", "integer")).unwrap();
    std::fs::write(dir.join("ping.json"), contract("1.0.0", "integer")).unwrap();
    assert_eq!(cargo(&dir, &target, &["run"]), "1.0.0\n");
    std::fs::write(dir.join("ping.json"), contract("1.0.1", "integer")).unwrap();
    assert_eq!(cargo(&dir, &target, &["run"]), "1.0.1\n", "the edit rebuilt the crate");
    // The predecessor accepted any number: 1.0.1 narrows it with a patch bump.
    std::fs::write(dir.join("old.json"), contract("1.0.0", "number")).unwrap();
    let (ok, _, stderr) = cargo_status(&dir, &target, &["build"]);
    let error = "error: demo.ping 1.0.0 -> 1.0.1 is breaking, which needs a major bump; found a patch bump:";
    assert!(!ok && stderr.contains(error), "editing old.json re-ran the gate:\n{stderr}");
}
