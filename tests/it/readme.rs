//! The README stays true: every ```console block that runs
//! `cargo protocolarc ...` is run, and its output must match byte for byte.
//! With `UPDATE_GOLDEN=1` (as for the golden files) the blocks are rewritten
//! in README.md with the current output instead: review the diff.

use protocolarc_tests::{bin, line_diff, root, run, updating};

const OPEN: &str = "```console\n";
const CLOSE: &str = "```\n";

#[test]
fn readme_transcripts_are_current() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let update = updating();
    // The README as it should be: the text between blocks as it is, each
    // block's output as the CLI prints it now.
    let mut current = String::with_capacity(readme.len());
    let mut stale = Vec::new();
    let mut checked = 0;
    let mut rest = readme.as_str();
    while let Some(start) = rest.find(OPEN) {
        let body = &rest[start + OPEN.len()..];
        let end = body.find(CLOSE).expect("closed console block");
        let block = &body[..end];
        current.push_str(&rest[..start + OPEN.len()]);
        rest = &body[end..];
        let (command, expected) = block.split_once('\n').expect("command line");
        let Some(args) = command.strip_prefix("$ cargo protocolarc ") else {
            current.push_str(block);
            continue;
        };
        let args: Vec<&str> = args.split_whitespace().collect();
        let out = run(bin!(), &args);
        let actual = format!("{}{}", out.stdout, out.stderr);
        assert!(actual.is_empty() || actual.ends_with('\n'), "`{command}` prints no final newline: {actual:?}");
        if actual != expected {
            stale.push(format!("README block `{command}` is stale:\n{}", line_diff(expected, &actual)));
        }
        current.push_str(command);
        current.push('\n');
        current.push_str(&actual);
        checked += 1;
    }
    current.push_str(rest);
    assert_eq!(checked, 22, "console blocks checked");
    if update {
        if current != readme {
            std::fs::write(&path, &current).expect("write README.md");
        }
        return;
    }
    assert!(stale.is_empty(), "{}\n(UPDATE_GOLDEN=1 rewrites them)", stale.join("\n"));
    assert_eq!(current, readme, "rebuilding the README changes nothing when no block is stale");
}

#[test]
fn readme_shows_the_current_generated_code() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let out = run(bin!(), &["generate", "contracts/a2a_task_send_1.0.0.json", "--name", "TaskSend"]);
    assert_eq!(out.code, 0);
    assert!(readme.contains(&format!("```rust\n{}```", out.stdout)), "README's generate example is stale");
}
