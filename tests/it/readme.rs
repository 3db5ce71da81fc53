//! The README and the guides in `docs/` stay true: every ```console block
//! that runs `cargo protocolarc ...` is run, and its output must match byte
//! for byte. With `UPDATE_GOLDEN=1` (as for the golden files) the blocks are
//! rewritten in the documents with the current output instead: review the diff.

use std::path::{Path, PathBuf};

use protocolarc_tests::{bin, line_diff, root, run, run_fed, updating};

const OPEN: &str = "```console\n";
const CLOSE: &str = "```\n";

/// The console blocks each document runs. A guide missing here (a new page)
/// is still checked; this table makes a block that stops being recognised
/// (a typo in `$ cargo protocolarc`) fail instead of going unchecked.
const BLOCKS: &[(&str, usize)] = &[
    ("README.md", 5),
    ("docs/ci.md", 4),
    ("docs/describe.md", 2),
    ("docs/diff.md", 3),
    ("docs/import-export.md", 5),
    ("docs/loss.md", 1),
    ("docs/matrix.md", 2),
    ("docs/proxy.md", 1),
    ("docs/rules.md", 1),
    ("docs/traffic.md", 1),
    ("docs/validate.md", 6),
];

/// README.md and every Markdown page of `docs/`, in path order.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root().join("README.md"));
    docs
}

/// Re-runs the console blocks of one document: the document as it should
/// be, the stale blocks, and how many blocks ran.
fn rerun(path: &Path) -> (String, String, Vec<String>, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.strip_prefix(root()).expect("under the root").display().to_string();
    // The text between blocks as it is, each block's output as the CLI prints it now.
    let mut current = String::with_capacity(text.len());
    let mut stale = Vec::new();
    let mut checked = 0;
    let mut rest = text.as_str();
    while let Some(start) = rest.find(OPEN) {
        let body = &rest[start + OPEN.len()..];
        let end = body.find(CLOSE).unwrap_or_else(|| panic!("{name}: unclosed console block"));
        let block = &body[..end];
        current.push_str(&rest[..start + OPEN.len()]);
        rest = &body[end..];
        let (command, expected) = block.split_once('\n').expect("command line");
        let Some(args) = command.strip_prefix("$ cargo protocolarc ") else {
            current.push_str(block);
            continue;
        };
        // `< FILE` at the end feeds the file to the command, as a shell does.
        let (args, input) = match args.rsplit_once(" < ") {
            Some((args, file)) => (args, Some(Path::new(file.trim()))),
            None => (args, None),
        };
        let args: Vec<&str> = args.split_whitespace().collect();
        let out = run_fed(bin!(), &root(), &args, input);
        let actual = format!("{}{}", out.stdout, out.stderr);
        assert!(actual.is_empty() || actual.ends_with('\n'), "`{command}` prints no final newline: {actual:?}");
        if actual != expected {
            stale.push(format!("{name} block `{command}` is stale:\n{}", line_diff(expected, &actual)));
        }
        current.push_str(command);
        current.push('\n');
        current.push_str(&actual);
        checked += 1;
    }
    current.push_str(rest);
    (text, current, stale, checked)
}

#[test]
fn readme_and_docs_transcripts_are_current() {
    let mut stale = Vec::new();
    let mut counts = Vec::new();
    for path in documents() {
        let (text, current, mut found, checked) = rerun(&path);
        let name = path.strip_prefix(root()).expect("under the root").display().to_string();
        if let Some((_, want)) = BLOCKS.iter().find(|(n, _)| *n == name) {
            counts.push((name.clone(), checked, *want));
        }
        if updating() {
            if current != text {
                std::fs::write(&path, &current).unwrap_or_else(|e| panic!("write {name}: {e}"));
            }
            continue;
        }
        if found.is_empty() {
            assert_eq!(current, text, "{name}: rebuilding it changes nothing when no block is stale");
        }
        stale.append(&mut found);
    }
    let listed: Vec<_> = counts.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(listed, BLOCKS.iter().map(|(n, _)| *n).collect::<Vec<_>>(), "every listed document exists");
    for (name, checked, want) in &counts {
        assert_eq!(checked, want, "console blocks checked in {name}");
    }
    assert!(stale.is_empty(), "{}\n(UPDATE_GOLDEN=1 rewrites them)", stale.join("\n"));
}

#[test]
fn typed_rust_guide_shows_the_current_generated_code() {
    let guide = std::fs::read_to_string(root().join("docs/typed-rust.md")).expect("docs/typed-rust.md");
    let out = run(bin!(), &["generate", "contracts/a2a_task_send_1.0.0.json", "--name", "TaskSend"]);
    assert_eq!(out.code, 0);
    assert!(guide.contains(&format!("```rust\n{}```", out.stdout)), "docs/typed-rust.md's generate example is stale");
}

/// No user-facing document cites the internal specification.
#[test]
fn no_document_cites_the_spec() {
    for path in documents() {
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(!text.contains("SPEC §") && !text.contains("SPEC.md"), "{} cites the SPEC", path.display());
    }
}
