//! URI references as JSON Schema 2020-12 resolves them (RFC 3986 §5.2): a
//! `$id` or `$ref` is resolved against the base URI of the resource that
//! holds it. Only what resolution needs: the five components, the merge of
//! paths and the removal of dot segments. No normalisation beyond that
//! (case, percent-encoding): two spellings of one URI are two URIs, as a
//! JSON Schema implementation compares them.

/// The base URI of a schema document without a root `$id`: relative
/// references resolve against it as against any hierarchical URI
/// (`other.json` -> `json-schema:///other.json`).
pub const DEFAULT_BASE: &str = "json-schema:///";

/// The five components of a URI reference (RFC 3986 §3), borrowed from its
/// text. `None` is an absent component; `Some("")` an empty one (`http://`
/// has an empty authority, `a?` an empty query).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts<'a> {
    /// The scheme, without its `:`.
    pub scheme: Option<&'a str>,
    /// The authority, without its `//`.
    pub authority: Option<&'a str>,
    /// The path, possibly empty.
    pub path: &'a str,
    /// The query, without its `?`.
    pub query: Option<&'a str>,
    /// The fragment, without its `#`.
    pub fragment: Option<&'a str>,
}

/// Splits a URI reference into its components (the regular expression of
/// RFC 3986 Appendix B, written out): any text splits, so nothing fails.
pub fn parse(text: &str) -> Parts<'_> {
    let (rest, fragment) = match text.find('#') {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (rest, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    // A scheme is letters, digits, `+`, `-`, `.` before the first `:`,
    // starting with a letter, and no `/` comes before that `:`.
    let (scheme, rest) = match rest.find(':') {
        Some(i)
            if i > 0
                && rest.as_bytes()[0].is_ascii_alphabetic()
                && rest[..i].bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)) =>
        {
            (Some(&rest[..i]), &rest[i + 1..])
        }
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (Some(&after[..end]), &after[end..])
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query, fragment }
}

/// Whether `text` has a scheme (an absolute URI, perhaps with a fragment).
pub fn is_absolute(text: &str) -> bool {
    parse(text).scheme.is_some()
}

/// The URI without its fragment, and the fragment (`None` without `#`).
pub fn split_fragment(text: &str) -> (&str, Option<&str>) {
    match text.find('#') {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    }
}

/// `reference` resolved against `base` (RFC 3986 §5.2.2, strict: a
/// reference with a scheme is taken as it is). `base` should be absolute;
/// a relative base resolves as if its path were the whole of it.
pub fn resolve(base: &str, reference: &str) -> String {
    let b = parse(base);
    let r = parse(reference);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    remove_dot_segments(&merge(&b, r.path))
                };
                query = r.query;
            }
        }
    }
    compose(scheme, authority, &path, query, r.fragment)
}

/// RFC 3986 §5.2.3: the reference's path appended to the base's directory.
fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{path}", &base.path[..=i]),
        None => path.to_string(),
    }
}

/// RFC 3986 §5.2.4: `.` and `..` segments removed.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut out = String::with_capacity(path.len());
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") || input == "/.." {
            input = if input.len() == 3 { "/" } else { &input[3..] };
            let cut = out.rfind('/').unwrap_or(0);
            out.truncate(cut);
        } else if input == "." || input == ".." {
            input = "";
        } else {
            // The first segment, with its leading `/` if any, up to the next `/`.
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| i + start);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    out
}

/// RFC 3986 §5.3: the components written back as one reference.
fn compose(
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> String {
    let mut out = String::with_capacity(path.len() + 16);
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example of RFC 3986 §5.4, normal and abnormal, against its base.
    #[test]
    fn rfc_3986_examples() {
        let base = "http://a/b/c/d;p?q";
        let cases = [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"),
            ("g;x", "http://a/b/c/g;x"),
            ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"),
            ("http:g", "http:g"),
        ];
        for (reference, expected) in cases {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
    }

    #[test]
    fn json_schema_forms() {
        // A folder `$id`, then a file in it.
        let folder = resolve("http://localhost:1234/draft2020-12/", "baseUriChange/");
        assert_eq!(folder, "http://localhost:1234/draft2020-12/baseUriChange/");
        assert_eq!(
            resolve(&folder, "folderInteger.json"),
            "http://localhost:1234/draft2020-12/baseUriChange/folderInteger.json"
        );
        // A URN base: a fragment attaches, a URN replaces.
        assert_eq!(resolve("urn:uuid:deadbeef-1234", "#/$defs/bar"), "urn:uuid:deadbeef-1234#/$defs/bar");
        assert_eq!(resolve("urn:uuid:deadbeef-1234", "urn:uuid:other"), "urn:uuid:other");
        // A base with a fragment: the reference's own replaces it.
        assert_eq!(resolve("http://x/y.json#frag", "#a"), "http://x/y.json#a");
        assert_eq!(resolve("http://x/y.json#frag", ""), "http://x/y.json");
        // A file base, and a reference leaving its folder.
        assert_eq!(resolve("file:///d/schemas/tool.json", "../outside.json"), "file:///d/outside.json");
        assert_eq!(resolve("file:///d/schemas/tool.json", "common/a.json#/x"), "file:///d/schemas/common/a.json#/x");
        // The base of a document without a root `$id`.
        assert_eq!(resolve(DEFAULT_BASE, "common/a.json#x"), "json-schema:///common/a.json#x");
        assert_eq!(resolve("json-schema:///common/a.json", "b.json"), "json-schema:///common/b.json");
        // An empty authority with an empty base path.
        assert_eq!(resolve("http://host", "a"), "http://host/a");
    }

    #[test]
    fn parts() {
        let p = parse("https://example.com/a/b?q=1#frag");
        assert_eq!(
            p,
            Parts {
                scheme: Some("https"),
                authority: Some("example.com"),
                path: "/a/b",
                query: Some("q=1"),
                fragment: Some("frag")
            }
        );
        assert_eq!(parse("urn:uuid:x").path, "uuid:x");
        assert_eq!(parse("a/b:c").scheme, None);
        assert_eq!(parse("1a:b").scheme, None);
        assert!(is_absolute("urn:x") && !is_absolute("#x") && !is_absolute("x.json"));
        assert_eq!(split_fragment("a.json#/b"), ("a.json", Some("/b")));
        assert_eq!(split_fragment("a.json"), ("a.json", None));
    }
}
