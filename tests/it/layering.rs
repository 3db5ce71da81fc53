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

/// How many product source files may spell one keyword's name as a string
/// literal: the registry, and what still reads the schema text by name.
const KEYWORD_FILES_MAX: usize = 3;

/// `text` with comments blanked and every string literal's contents
/// blanked (its quotes kept), at the same offsets: what remains is code.
fn blanked(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    for (start, end) in spans(text).into_iter().chain(comments(text)) {
        for b in &mut out[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    String::from_utf8(out).expect("ASCII blanks keep UTF-8")
}

/// The byte ranges of comments.
fn comments(text: &str) -> Vec<(usize, usize)> {
    lex(text).into_iter().filter(|t| t.2).map(|t| (t.0, t.1)).collect()
}

/// The byte ranges of string literals' contents (between the quotes).
fn spans(text: &str) -> Vec<(usize, usize)> {
    lex(text).into_iter().filter(|t| !t.2).map(|t| (t.0, t.1)).collect()
}

/// Comments (`true`) and string-literal contents (`false`), in order: plain,
/// byte and raw strings; character literals and lifetimes are skipped.
fn lex(text: &str) -> Vec<(usize, usize, bool)> {
    let b = text.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let start = i;
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            out.push((start, i, true));
        } else if b[i..].starts_with(b"/*") {
            let (start, mut depth) = (i, 0);
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
            out.push((start, i, true));
        } else if matches!(b[i], b'r' | b'b') && !ident_before(b, i) && raw_open(&b[i..]).is_some() {
            let (open, hashes) = raw_open(&b[i..]).expect("checked");
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let start = i + open;
            i = start;
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            out.push((start, i, false));
            i += close.len();
        } else if b[i] == b'"' || (b[i] == b'b' && b.get(i + 1) == Some(&b'"') && !ident_before(b, i)) {
            i += if b[i] == b'b' { 2 } else { 1 };
            let start = i;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            out.push((start, i, false));
            i += 1;
        } else if b[i] == b'\'' && char_literal(&b[i..]).is_some() {
            i += char_literal(&b[i..]).unwrap_or(1);
        } else {
            i += 1;
        }
    }
    out
}

/// A raw string's opening (`r"`, `r#"`, `br##"`): its length and hashes.
fn raw_open(b: &[u8]) -> Option<(usize, usize)> {
    let at = if b.starts_with(b"br") {
        2
    } else if b.starts_with(b"r") {
        1
    } else {
        return None;
    };
    let hashes = b[at..].iter().take_while(|&&c| c == b'#').count();
    (b.get(at + hashes) == Some(&b'"')).then_some((at + hashes + 1, hashes))
}

/// The byte ranges of `#[cfg(test)] mod name { ... }` blocks.
fn test_blocks(code: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("#[cfg(test)]") {
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub(crate)").unwrap_or(rest).trim_start();
        let Some(rest) = rest.strip_prefix("mod ") else { continue };
        let head: String = rest.chars().take_while(|&c| c != ';' && c != '{').collect();
        if !rest[head.len()..].starts_with('{') {
            continue;
        }
        let open = code.len() - rest.len() + head.len();
        let mut depth = 0;
        for (i, c) in code[open..].char_indices() {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            if depth == 0 {
                out.push((at, open + i + 1));
                break;
            }
        }
    }
    out
}

/// Files that are modules declared `#[cfg(test)] mod name;`: compiled only
/// for tests.
fn test_files(all: &[std::path::PathBuf]) -> BTreeSet<std::path::PathBuf> {
    let mut out = BTreeSet::new();
    for f in all {
        let code = blanked(&std::fs::read_to_string(f).expect("read"));
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let dir = match stem {
            "mod" | "lib" | "main" => f.parent().expect("a folder").to_path_buf(),
            _ => f.with_extension(""),
        };
        for (at, _) in code.match_indices("#[cfg(test)]") {
            let rest = code[at + "#[cfg(test)]".len()..].trim_start();
            let Some(rest) = rest.strip_prefix("mod ") else { continue };
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if rest[name.len()..].trim_start().starts_with(';') {
                out.insert(dir.join(format!("{name}.rs")));
                out.insert(dir.join(&name).join("mod.rs"));
            }
        }
    }
    out
}

/// For each keyword, the product source files (relative to the root) that
/// hold a string literal spelling exactly its name, outside comments, test
/// files and `#[cfg(test)] mod` blocks. JSON text inside a longer literal
/// (a template, a message) is not the name as a literal.
fn keyword_files() -> BTreeMap<&'static str, Vec<String>> {
    let names: Vec<&'static str> = protocolarc_core::schema_keywords::KEYWORDS.iter().map(|k| k.name).collect();
    let mut found: BTreeMap<&'static str, Vec<String>> = names.iter().map(|n| (*n, Vec::new())).collect();
    for krate in CRATES {
        let src = root().join(krate);
        let mut all = Vec::new();
        files(&src, &mut all);
        all.sort();
        let tests = test_files(&all);
        for f in all.iter().filter(|f| !tests.contains(*f)) {
            let text = std::fs::read_to_string(f).expect("read");
            let blocks = test_blocks(&blanked(&text));
            let mut here: BTreeSet<&'static str> = BTreeSet::new();
            for (start, end) in spans(&text) {
                if blocks.iter().any(|&(a, b)| a <= start && start < b) {
                    continue;
                }
                if let Some(n) = names.iter().find(|n| **n == &text[start..end]) {
                    here.insert(n);
                }
            }
            let shown = f.strip_prefix(root()).unwrap_or(f).display().to_string();
            for n in here {
                found.get_mut(n).expect("a name").push(shown.clone());
            }
        }
    }
    found
}

#[test]
fn a_keyword_name_is_spelled_in_at_most_three_product_files() {
    let found = keyword_files();
    let over: Vec<String> = found
        .iter()
        .filter(|(_, files)| files.len() > KEYWORD_FILES_MAX)
        .map(|(name, files)| {
            let files: Vec<&str> = files.iter().map(|f| f.as_str()).collect();
            format!("\"{name}\" in {} files: {}", files.len(), files.join(", "))
        })
        .collect();
    assert!(over.is_empty(), "keyword names spelled in more than {KEYWORD_FILES_MAX} files:\n{}", over.join("\n"));
}

#[test]
fn the_keyword_counter_skips_comments_tests_and_longer_literals() {
    let text =
        "// \"type\"\nlet a = \"type\"; let b = \"a \\\"type\\\"\"; let c = r#\"\"enum\"\"#; let d = b\"enum\";\n\
                #[cfg(test)]\nmod tests { fn f() { let x = \"const\"; } }\nfn g() { let y = r\"pattern\"; }\n";
    let blocks = test_blocks(&blanked(text));
    assert_eq!(blocks.len(), 1, "{blocks:?}");
    let kept: Vec<&str> = spans(text)
        .into_iter()
        .filter(|&(s, _)| !blocks.iter().any(|&(a, b)| a <= s && s < b))
        .map(|(s, e)| &text[s..e])
        .collect();
    assert_eq!(kept, ["type", "a \\\"type\\\"", "\"enum\"", "enum", "pattern"]);
}
