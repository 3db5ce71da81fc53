//! Imports between the top-level modules of each crate point one way: a
//! module and everything under it is one node, `crate::x` paths (and
//! `crate::{x, y::z}` groups) outside comments and strings are the edges,
//! and no two nodes may reach each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use protocolarc_tests::root;

/// The crates' sources whose module graphs are checked.
const CRATES: &[&str] =
    &["core/src", "interop/src", "runtime/src", "cargo-protocolarc/src", "protocolarc-derive/src", "proxy/src"];

/// Source text with comments, strings and character literals blanked.
fn code(text: &str) -> String {
    let b = text.as_bytes();
    let (mut out, mut i) = (String::with_capacity(b.len()), 0);
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    (depth, i) = (depth + 1, i + 2);
                } else if b[i..].starts_with(b"*/") {
                    (depth, i) = (depth - 1, i + 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && !ident_before(b, i) {
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            i += 2 + hashes;
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && char_literal(&b[i..]).is_some() {
            i += char_literal(&b[i..]).unwrap_or(1);
            out.push_str("' '");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// The length of a character literal at the start of `b` (not a lifetime).
fn char_literal(b: &[u8]) -> Option<usize> {
    if b.get(1) == Some(&b'\\') {
        let end = b[2..].iter().position(|&c| c == b'\'')?;
        return Some(end + 3);
    }
    let len = std::str::from_utf8(&b[1..b.len().min(6)]).ok().or_else(|| std::str::from_utf8(&b[1..2]).ok())?;
    let c = len.chars().next()?;
    let at = 1 + c.len_utf8();
    (b.get(at) == Some(&b'\'')).then_some(at + 1)
}

/// The top-level modules of a crate's source folder.
fn tops(src: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(src).expect("src") {
        let p = e.expect("entry").path();
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        if p.is_dir() || (p.extension().is_some_and(|x| x == "rs") && stem != "lib" && stem != "main") {
            out.insert(stem);
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules each top-level module names through `crate::`.
fn edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let tops = tops(src);
    let mut graph: BTreeMap<String, BTreeSet<String>> = tops.iter().map(|t| (t.clone(), BTreeSet::new())).collect();
    let mut all = Vec::new();
    files(src, &mut all);
    for f in all {
        let rel = f.strip_prefix(src).expect("below src");
        let first = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or_default();
        let top = first.strip_suffix(".rs").unwrap_or(first).to_string();
        if !tops.contains(&top) {
            continue;
        }
        let text = code(&std::fs::read_to_string(&f).expect("read"));
        let mut named = |name: &str| {
            if name != top && tops.contains(name) {
                graph.get_mut(&top).expect("a top").insert(name.to_string());
            }
        };
        for (at, _) in text.match_indices("crate::") {
            if at > 0 && (text.as_bytes()[at - 1].is_ascii_alphanumeric() || text.as_bytes()[at - 1] == b'_') {
                continue;
            }
            let rest = &text[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find(';').unwrap_or(group.len())];
                for item in group.split(|c: char| c == ',' || c == '{' || c.is_whitespace()) {
                    let head = item.split("::").next().unwrap_or_default().trim_start_matches('}');
                    named(head);
                }
            } else {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                named(&name);
            }
        }
    }
    graph
}

/// Groups of modules that reach each other, each sorted.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            for m in &graph[&n] {
                if seen.insert(m.clone()) {
                    stack.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|k| (k, reach(k))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (a, from_a) in &reaches {
        let group: Vec<String> =
            graph.keys().filter(|b| from_a.contains(*b) && reaches[b].contains(*a)).cloned().collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

#[test]
fn top_level_modules_import_one_way() {
    for krate in CRATES {
        let found = cycles(&edges(&root().join(krate)));
        assert_eq!(found, Vec::<Vec<String>>::new(), "{krate}: modules that import each other");
    }
}

#[test]
fn the_edge_reader_sees_paths_and_groups_but_not_comments_or_strings() {
    let text =
        code("use crate::{a, b::c};\n// crate::d\nlet s = \"crate::e\"; let r = r#\"crate::f\"#; crate::g::h();");
    assert!(text.contains("crate::{a, b::c}") && text.contains("crate::g::h"), "{text}");
    assert!(!text.contains("crate::d") && !text.contains("crate::e") && !text.contains("crate::f"), "{text}");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("x", "y"), ("y", "z"), ("z", "x"), ("w", "x")] {
        graph.entry(a.into()).or_default().insert(b.into());
        graph.entry(b.into()).or_default();
    }
    assert_eq!(cycles(&graph), [vec!["x".to_string(), "y".into(), "z".into()]]);
}
