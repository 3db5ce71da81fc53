//! Any bytes as a tool's input `schema`: a contract that loads is expanded
//! as `cargo protocolarc generate` expands it (the macro's tokens, parsed
//! and printed with prettyplease) into code or an error, never a panic.
//! The code parses, no doc line can open a code block rustdoc would run,
//! and the text holds no raw control or bidi character.
#![no_main]

use libfuzzer_sys::fuzz_target;
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use protocolarc::codegen::{expand, pascal_case, Item};
use protocolarc::ContractSpec;

/// Control characters (but the line break), the Unicode line separators
/// and the bidi formatting characters: shown raw, they hide or reorder
/// what a reviewer reads.
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// Whether a Markdown line opens a code block: a fence (three or more
/// backticks or tildes) after any indent and quote or list markers, or an
/// indent of four columns (rustdoc strips the one space every generated
/// line starts with).
fn opens_code(line: &str) -> bool {
    let text = line.strip_prefix(' ').unwrap_or(line);
    if text.starts_with("    ") || text.contains('\t') {
        return true;
    }
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start_matches([' ', '>', '-', '*', '+']);
        let digits = trimmed.trim_start_matches(|c: char| c.is_ascii_digit());
        let unmarked = match digits.strip_prefix(['.', ')']) {
            Some(after) if digits.len() < trimmed.len() => after,
            _ => trimmed,
        };
        if unmarked.len() == rest.len() {
            break;
        }
        rest = unmarked;
    }
    rest.starts_with("```") || rest.starts_with("~~~")
}

/// The text of every `#[doc = "..."]` attribute in `tokens`, at any depth.
fn doc_texts(tokens: TokenStream, out: &mut Vec<String>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        let TokenTree::Group(group) = tree else { continue };
        let after_pound = i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '#');
        if after_pound && group.delimiter() == Delimiter::Bracket {
            if let Ok(syn::Meta::NameValue(nv)) = syn::parse2::<syn::Meta>(group.stream()) {
                if nv.path.is_ident("doc") {
                    let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) = &nv.value else {
                        panic!("a doc attribute that is not a string: {}", group.stream());
                    };
                    out.push(s.value());
                    continue;
                }
            }
        }
        doc_texts(group.stream(), out);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut doc = br#"{"name": "f.tool", "revision": "1.0.0", "schema": "#.to_vec();
    doc.extend_from_slice(data);
    doc.push(b'}');
    let Ok(spec) = ContractSpec::from_slice(&doc, "fuzz.json") else { return };
    let name = pascal_case(spec.name());
    let item = Item { vis: "pub".parse().expect("a visibility"), attrs: TokenStream::new(), name };
    let Ok(tokens) = expand(&spec, &item, "fuzz.json") else { return };
    let mut docs = Vec::new();
    doc_texts(tokens.clone(), &mut docs);
    // The top-level item is always documented: no doc found means the
    // search below checks nothing.
    assert!(!docs.is_empty(), "no doc attribute found");
    for d in &docs {
        for line in d.split('\n') {
            assert!(!opens_code(line), "a doc line rustdoc would read as code: {line:?}");
        }
        assert!(!d.contains(hidden), "a raw hidden character in a doc line: {d:?}");
    }
    let file: syn::File = syn::parse2(tokens).expect("the generated code parses");
    let code = prettyplease::unparse(&file);
    if let Some(c) = code.chars().find(|&c| hidden(c)) {
        panic!("a raw {:?} in the generated code", c.escape_unicode().to_string());
    }
});
