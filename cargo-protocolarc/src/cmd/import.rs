//! `import`: schema-form contracts from a JSON Schema (`import schema`) or
//! an MCP `tools/list` result (`import tools-list`). The transforms are the
//! library's (`protocolarc_interop::import`); this module reads, reports positions,
//! and writes.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use protocolarc::Value;
use protocolarc_core::contract::schema::uri;
use protocolarc_core::schema_keywords::name;
use protocolarc_interop::import::{self, ImportError};

use super::{at, read_disk, read_document};
use crate::cli::{ImportArgs, ImportCommand, ImportSchemaArgs, ImportToolsArgs};
use crate::{exit, Failure};

pub(crate) fn run(args: ImportArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    match args.what {
        ImportCommand::Schema(a) => schema(a, out, err),
        ImportCommand::ToolsList(a) => tools_list(a, out, err),
    }
}

fn schema(args: ImportSchemaArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let (shown, bytes) = read_document(&args.file)?;
    let mut doc = parse(&shown, &bytes)?;
    if let Some(dir) = &args.resolve {
        doc = resolve(&args.file, (&shown, &bytes), doc, dir)?;
    }
    let (contract, notes) =
        import::schema_contract(&doc, &args.name, &args.revision, args.direction.as_deref(), args.def.as_deref())
            .map_err(|e| located(&shown, &bytes, &e))?;
    for note in notes {
        writeln!(err, "note: {note}")?;
    }
    let text = import::render(&contract);
    match args.out {
        Some(path) => {
            crate::write::write_atomic(&path, text.as_bytes())?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(exit::OK)
}

fn tools_list(args: ImportToolsArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let (shown, bytes) = read_document(&args.file)?;
    let doc = parse(&shown, &bytes)?;
    let (contracts, notes) =
        import::tools_list_contracts(&doc, &args.server, &args.revision).map_err(|e| located(&shown, &bytes, &e))?;
    for note in notes {
        writeln!(err, "note: {note}")?;
    }
    let files: Vec<(String, Vec<u8>)> = contracts
        .iter()
        .map(|(stem, contract)| (import::tools_file_name(stem, &args.revision), import::render(contract).into_bytes()))
        .collect();
    for path in crate::write::write_set(&args.out, &files)? {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(exit::OK)
}

/// `--resolve DIR`: the schema with the files under DIR that it references
/// bundled into it ([`import::bundle`]). References resolve against the
/// file's own location (`file:` URIs); when the root has an absolute `$id`
/// (`https://example.com/schemas/tool.json`), URIs under that `$id`'s folder
/// are read from the file's folder, as a published set of schemas lies side
/// by side. A file gets the `$id` `json-schema:///<its path under DIR>`
/// unless it has an absolute one: the contract says nothing of where DIR
/// was.
fn resolve(file: &Path, (shown, bytes): (&str, &[u8]), doc: Value, dir: &Path) -> Result<Value, Failure> {
    let dir_shown = dir.display().to_string();
    let root = std::fs::canonicalize(dir)
        .map_err(|e| Failure::Input(format!("--resolve {dir_shown}: cannot read: {}", crate::io_reason(&e))))?;
    if !root.is_dir() {
        return Err(Failure::Input(format!("--resolve {dir_shown}: not a directory")));
    }
    let path = std::fs::canonicalize(file).map_err(|_| {
        Failure::Input(format!(
            "{shown}: --resolve reads the schema from disk (a REV:PATH has no folder to resolve in)"
        ))
    })?;
    let folder = path.parent().unwrap_or(&root).to_path_buf();
    let base = file_uri(&path);
    let root_id = match path.strip_prefix(&root) {
        Ok(rel) => format!("{}{}", import::DEFAULT_BASE, slashed(rel)),
        Err(_) => {
            format!("{}{}", import::DEFAULT_BASE, path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
        }
    };
    // The folder of an absolute root `$id`, read from the file's folder.
    let published = doc
        .get(name::ID)
        .and_then(Value::as_str)
        .filter(|id| uri::is_absolute(id) && !id.starts_with("file:"))
        .map(|id| uri::resolve(id, "."));
    // What each fetched document was read from, to place an error in it.
    let mut read: HashMap<String, (String, Vec<u8>)> = HashMap::new();
    read.insert(base.clone(), (shown.to_string(), bytes.to_vec()));
    let mut fetch = |target: &str| -> Result<(Value, String), String> {
        // `file:///path` only: `file://host/path` is another machine's.
        let (wanted, keep) = if let Some(rest) = target.strip_prefix("file://").filter(|r| r.starts_with('/')) {
            (PathBuf::from(percent_decode(rest)), false)
        } else if let Some(rest) = published.as_deref().and_then(|p| target.strip_prefix(p)) {
            (folder.join(percent_decode(rest)), true)
        } else {
            return Err(format!(
                "it names {}, which is not a file: --resolve reads files under {dir_shown} only",
                protocolarc_core::json::text::quote(target, 160)
            ));
        };
        let rel = lexical_relative(&root, &wanted);
        let seen = Path::new(&dir_shown).join(&rel).display().to_string();
        let outside = || format!("it resolves to {seen}, outside the --resolve directory {dir_shown}");
        if rel.components().next() == Some(Component::ParentDir) {
            return Err(outside());
        }
        let real =
            std::fs::canonicalize(&wanted).map_err(|e| format!("{seen}: cannot read: {}", crate::io_reason(&e)))?;
        // A link inside DIR to a file outside it is outside too.
        let Ok(rel) = real.strip_prefix(&root) else {
            return Err(outside());
        };
        let bytes = match read_disk(&real) {
            Ok((_, bytes)) => bytes,
            Err(Failure::Input(why)) => return Err(why.replacen(&real.display().to_string(), &seen, 1)),
            Err(Failure::Io(e)) => return Err(format!("{seen}: cannot read: {}", crate::io_reason(&e))),
        };
        let value = import::parse_document(&bytes).map_err(|e| {
            let (line, col) = protocolarc::line_col(&bytes, e.offset);
            format!("{seen}:{line}:{col}: {}", e.message)
        })?;
        read.insert(target.to_string(), (seen, bytes));
        let id = if keep { target.to_string() } else { format!("{}{}", import::DEFAULT_BASE, slashed(rel)) };
        Ok((value, id))
    };
    let bundled = import::bundle(&doc, &base, &root_id, &mut fetch);
    bundled.map_err(|e| match e.document().and_then(|d| read.get(d)) {
        Some((shown, bytes)) => located(shown, bytes, &e),
        None => located(shown, bytes, &e),
    })
}

/// `file:///a/b%20c.json`: a path (made absolute) as a URI, with what a URI
/// reference would read as a delimiter escaped.
fn file_uri(path: &Path) -> String {
    let text = slashed(path);
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for c in text.chars() {
        match c {
            '%' | '#' | '?' | ' ' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A path with `/` between its parts, whatever the platform writes.
fn slashed(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// `%XX` escapes decoded (a file URI's path); left as written when they do
/// not form UTF-8.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = text.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// `to` relative to the directory `from`, by their components alone
/// (`..` where `to` leaves `from`), for messages that must not depend on
/// where the directory is.
fn lexical_relative(from: &Path, to: &Path) -> PathBuf {
    let normal = |p: &Path| -> Vec<std::ffi::OsString> {
        let mut parts: Vec<std::ffi::OsString> = Vec::new();
        for c in p.components() {
            match c {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::CurDir => {}
                other => parts.push(other.as_os_str().to_os_string()),
            }
        }
        parts
    };
    let (from, to) = (normal(from), normal(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..from.len() {
        out.push("..");
    }
    for part in &to[common..] {
        out.push(part);
    }
    out
}

/// The document, or its syntax error at its position.
fn parse(shown: &str, bytes: &[u8]) -> Result<Value, Failure> {
    import::parse_document(bytes).map_err(|e| at(shown, bytes, e.offset, &e.message))
}

/// An import error at the position of what it names (the file alone when
/// it names no position: a bad `--name`).
fn located(shown: &str, bytes: &[u8], e: &ImportError) -> Failure {
    if e.is_argument() {
        return Failure::Input(e.message().to_string());
    }
    match import::locate(bytes, e.pointer()) {
        Some(offset) => at(shown, bytes, offset, e.message()),
        None => Failure::Input(format!("{shown}: {}", e.message())),
    }
}
