//! The README stays true: every ```console block that runs
//! `cargo protocolarc ...` is run, and its output must match byte for byte.

use protocolarc_tests::{bin, line_diff, root, run};

#[test]
fn readme_transcripts_are_current() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut checked = 0;
    let mut rest = readme.as_str();
    while let Some(start) = rest.find("```console\n") {
        let body = &rest[start + "```console\n".len()..];
        let end = body.find("```\n").expect("closed console block");
        let block = &body[..end];
        rest = &body[end..];
        let (command, expected) = block.split_once('\n').expect("command line");
        let Some(args) = command.strip_prefix("$ cargo protocolarc ") else { continue };
        let args: Vec<&str> = args.split_whitespace().collect();
        let out = run(bin!(), &args);
        let actual = format!("{}{}", out.stdout, out.stderr);
        assert!(actual == expected, "README block `{command}` is stale:\n{}", line_diff(expected, &actual));
        checked += 1;
    }
    assert_eq!(checked, 15, "console blocks checked");
}

#[test]
fn readme_shows_the_current_generated_code() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let out = run(bin!(), &["generate", "contracts/a2a_task_send_1.0.0.json", "--name", "TaskSend"]);
    assert_eq!(out.code, 0);
    assert!(readme.contains(&format!("```rust\n{}```", out.stdout)), "README's generate example is stale");
}
