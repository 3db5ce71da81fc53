//! `import`: JSON Schema documents and MCP `tools/list` results turned into
//! schema-form contracts (SPEC §10), as pure transforms on
//! [`serde_json::Value`]: no files, no output.
//!
//! - [`schema_contract`] reads JSON Schema 2020-12 or draft-07 and writes the
//!   contract's `schema` in 2020-12: `definitions` become `$defs` (every
//!   `#/definitions/...` reference follows), array-form `items` becomes
//!   `prefixItems`, `additionalItems` becomes `items`, `dependencies` becomes
//!   `dependentRequired` / `dependentSchemas`, a draft-07 `$id: "#name"`
//!   becomes `$anchor: "name"`, and the keywords beside a draft-07 `$ref`
//!   (which draft-07 ignores) are dropped, with a note when they are not
//!   annotations. `$schema` is removed: a contract's schema is always 2020-12.
//!   An assertion newer than draft-07 in a draft-07 document (`prefixItems`,
//!   `dependentRequired`, ...) is refused: its author's validator ignored it.
//!   With a definition name, the contract holds that definition and the
//!   definitions it reaches through `$ref`, nothing else.
//! - [`tools_list_contracts`] writes one request contract per tool (from its
//!   `inputSchema`) and one response contract per `outputSchema`.
//!
//! Nothing is dropped silently: a keyword contracts cannot carry, a remote
//! `$ref` or a reference to nothing is an [`ImportError`] naming its JSON
//! Pointer. What it deliberately does not do: fetch anything, or guess a
//! meaning for a keyword it does not know.
//!
//! Key order: objects come out in the order of `serde_json`'s map (sorted by
//! key unless `preserve_order` is enabled), so the output is a function of
//! the input alone. [`render`] writes a contract with its own keys first
//! (`name`, `revision`, `kind`, `title`, `doc`, `direction`, `schema`).

use std::fmt;

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::contract::schema::uri;
use crate::json::text::quote;
use protocolarc_core::schema_keywords::{self as registry, Draft, Holds, Keyword, Role};

/// Why a document could not be imported: the message, and the JSON Pointer
/// (into the input document) of what it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pointer: String,
    message: String,
    argument: bool,
    document: Option<String>,
}

impl ImportError {
    pub(crate) fn new(pointer: &str, message: String) -> ImportError {
        ImportError { pointer: pointer.to_string(), message, argument: false, document: None }
    }

    pub(crate) fn argument(message: String) -> ImportError {
        ImportError { pointer: String::new(), message, argument: true, document: None }
    }

    /// The URI of the document the error is in, when [`bundle`] found it in
    /// a document it fetched rather than in the one it was given.
    pub fn document(&self) -> Option<&str> {
        self.document.as_deref()
    }

    /// Whether the error is about an argument (name, revision, direction),
    /// not about the document.
    pub fn is_argument(&self) -> bool {
        self.argument
    }

    /// The JSON Pointer of the offending value in the input (`""` for the
    /// whole document); [`locate`] turns it into a byte offset.
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What is wrong, one sentence (it names the pointer where it helps).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ImportError {}

/// Keywords kept and shown, never enforced (the schema form's own list).
pub use crate::contract::schema::ANNOTATIONS;

/// The record of `key` when 2020-12 spells it (draft-07's own spellings
/// are renamed before a schema is read).
fn current(key: &str) -> Option<&'static Keyword> {
    registry::find(key).filter(|k| k.draft != Draft::Draft07)
}

/// Whether the value of `key` is one schema, an object of schemas, or an
/// array of schemas.
fn holds(key: &str, what: Holds) -> bool {
    current(key).is_some_and(|k| k.holds == what)
}

/// A keyword a contract's schema validates with a plain value (SPEC §10),
/// or where its schemas are named (`$ref`, `$anchor`).
fn is_assertion(key: &str) -> bool {
    current(key).is_some_and(|k| k.holds == Holds::Value && k.role != Role::Annotation)
}

/// A keyword that came after draft-07: a draft-07 validator ignores it, so
/// in a draft-07 document it is refused rather than given a meaning its
/// author's validator never applied.
fn is_later(key: &str) -> bool {
    registry::find(key).is_some_and(|k| k.draft == Draft::Later)
}

pub use crate::export::DRAFT_2020_12;

/// The base URI of a schema without a root `$id` (the contract loader's).
pub use crate::contract::schema::uri::DEFAULT_BASE;

/// Deeper schemas than this are refused (the contract loader's limit).
const MAX_DEPTH: usize = crate::json::MAX_DEPTH;

/// What a contract's `direction` may be.
pub const DIRECTIONS: &[&str] = &["request", "response", "both"];

/// A schema-form contract from a JSON Schema document (2020-12 or draft-07),
/// with the notes to show the user (keywords dropped beside a draft-07
/// `$ref`). With `def`, the contract's schema is that entry of
/// `$defs`/`definitions` plus a `$defs` of every definition it references,
/// directly or not.
///
/// ```
/// use serde_json::json;
/// use protocolarc_interop::import::schema_contract;
///
/// let doc = json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "definitions": {
///         "Role": { "enum": ["user", "assistant"] },
///         "Msg": { "type": "object", "properties": { "role": { "$ref": "#/definitions/Role", "type": "string" } } },
///         "Unused": { "type": "null" }
///     }
/// });
/// let (contract, notes) = schema_contract(&doc, "demo.msg", "1.0.0", None, Some("Msg")).unwrap();
/// assert_eq!(contract, json!({
///     "name": "demo.msg", "revision": "1.0.0",
///     "schema": {
///         "type": "object",
///         "properties": { "role": { "$ref": "#/$defs/Role" } },
///         "$defs": { "Role": { "enum": ["user", "assistant"] } }
///     }
/// }));
/// assert_eq!(notes, ["dropped 'type' beside $ref at /definitions/Msg/properties/role (draft-07 ignores keywords beside $ref)"]);
/// ```
pub fn schema_contract(
    doc: &Value,
    name: &str,
    revision: &str,
    direction: Option<&str>,
    def: Option<&str>,
) -> Result<(Value, Vec<String>), ImportError> {
    check_identity(name, revision, direction)?;
    check_depth(doc)?;
    let mut cx = Cx::new(doc, "")?;
    let schema = match def {
        None => cx.schema(doc, "", 0)?,
        Some(def) => cx.definition(def)?,
    };
    if def.is_none()
        && schema.as_object().is_some_and(|o| o.keys().all(|k| k == "$defs" || ANNOTATIONS.contains(&k.as_str())))
    {
        cx.notes.push(
            "the document has no root schema, only definitions: the contract accepts every value (--def NAME \
             imports one definition)"
                .into(),
        );
    }
    let contract = contract(name, revision, None, None, None, direction, schema);
    loads(&contract, "the schema", "")?;
    Ok((contract, cx.notes))
}

/// The longest file name the common file systems hold, in bytes.
pub const MAX_FILE_NAME: usize = 255;

/// Refuses a contract the loader would refuse (a pattern that does not
/// compile, `minimum` above `maximum`, a `$ref` cycle that never descends, a
/// `$ref` to something that is not a schema): an import never writes a file
/// that `check` or `traffic --tools` then rejects. The error is at `ptr`, the
/// schema in the input, and quotes the loader's first problem.
fn loads(contract: &Value, what: &str, ptr: &str) -> Result<(), ImportError> {
    let Err(e) = crate::contract::ContractSpec::from_slice(render(contract).as_bytes(), "") else {
        return Ok(());
    };
    let all = e.diagnostics();
    let more = match all.len() {
        0 | 1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    let first = all.first().map_or_else(String::new, ToString::to_string);
    Err(ImportError::new(ptr, format!("{what} does not load as a contract: {first}{more}")))
}

/// Refuses a file name longer than [`MAX_FILE_NAME`] before anything is
/// written, rather than failing part way through the set.
fn check_file_name(file: &str, tool_name: &str, at: &str) -> Result<(), ImportError> {
    if file.len() <= MAX_FILE_NAME {
        return Ok(());
    }
    Err(ImportError::new(
        at,
        format!(
            "tool {} at {at} would be written as a file name of {} bytes, longer than the {MAX_FILE_NAME} a file \
             system holds; rename the tool",
            quote(tool_name, 80),
            file.len()
        ),
    ))
}

/// The stem already taken that `stem` equals or differs from only in
/// case: on a case-insensitive file system (macOS, Windows) both are one
/// file, so such tools are refused rather than written over each other.
fn taken<'a>(out: &'a [(String, Value, String)], stem: &str) -> Option<&'a (String, Value, String)> {
    out.iter().find(|(s, _, _)| s.eq_ignore_ascii_case(stem))
}

/// A contract and the file stem it is written under.
pub type StemmedContract = (String, Value);

/// The contracts of an MCP `tools/list` result: for each tool, `S.TOOL`
/// (direction `request`, from `inputSchema`) and, when the tool has an
/// `outputSchema`, `S.TOOL.output` (direction `response`), both of kind
/// `mcp`. Each comes with
/// its file stem (the contract name with every character other than an
/// ASCII letter, digit, `-` or `_` written `_`: `github.create_issue` ->
/// `github_create_issue`), sorted by stem.
///
/// The input may be the JSON-RPC response (`{"result": {"tools": [...]}}`),
/// the result (`{"tools": [...]}`, other keys ignored, as captures add
/// server information) or the bare array of tools. A tool's `title` and
/// `description` become the contract's `title` and `doc`, verbatim (so a
/// lock pins them); its other keys (`annotations`, `execution`, `_meta`,
/// `icons`) describe behaviour, not messages, and are not carried. A tool
/// name becomes a contract name with white space, control characters and
/// `@` written `_` (the contract name rule); nothing else changes.
///
/// The notes say what was dropped on the way (a draft-07 keyword beside a
/// `$ref`, a vendor extension such as `x-fastmcp-wrap-result`), one per
/// keyword, with its JSON Pointer in the input.
pub fn tools_list_contracts(
    doc: &Value,
    server: &str,
    revision: &str,
) -> Result<(Vec<StemmedContract>, Vec<String>), ImportError> {
    check_identity(server, revision, None)?;
    check_depth(doc)?;
    let (tools, base) = tools_array(doc)?;
    let mut out: Vec<(String, Value, String)> = Vec::new();
    let mut notes = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let at = format!("{base}/{i}");
        let Some(obj) = tool.as_object() else {
            return Err(ImportError::new(&at, format!("tool at {at} is {}, not an object", type_name(tool))));
        };
        let tool_name = match obj.get("name") {
            Some(Value::String(s)) if !s.is_empty() => s.as_str(),
            _ => return Err(ImportError::new(&at, format!("tool at {at} has no non-empty string 'name'"))),
        };
        let text = |key: &str| -> Result<Option<String>, ImportError> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => {
                    let p = format!("{at}/{key}");
                    Err(ImportError::new(&p, format!("'{key}' at {p} is {}, not a string", type_name(other))))
                }
            }
        };
        let (title, description) = (text("title")?, text("description")?);
        let contract_name = format!("{server}.{}", sanitize_name(tool_name));
        let Some(input) = obj.get("inputSchema") else {
            return Err(ImportError::new(&at, format!("tool {} at {at} has no 'inputSchema'", quote(tool_name, 80))));
        };
        let mut schemas = vec![(contract_name.clone(), "request", "inputSchema", input)];
        if let Some(output) = obj.get("outputSchema").filter(|v| !v.is_null()) {
            schemas.push((format!("{contract_name}.output"), "response", "outputSchema", output));
        }
        for (name, direction, key, schema) in schemas {
            let ptr = format!("{at}/{key}");
            let mut cx = Cx::new(schema, &ptr)?;
            let body = cx.schema(schema, "", 0)?;
            notes.append(&mut cx.notes);
            let c =
                contract(&name, revision, Some("mcp"), title.as_deref(), description.as_deref(), Some(direction), body);
            let stem = file_stem(&name);
            check_file_name(&tools_file_name(&stem, revision), tool_name, &at)?;
            if let Some((other, _, first)) = taken(&out, &stem) {
                let why = if *other == stem {
                    format!("the file stem '{stem}' of the contract '{first}' already written")
                } else {
                    format!(
                        "the file stem '{stem}', which differs only in case from '{other}' of the contract '{first}' \
                         (one file on a case-insensitive file system)"
                    )
                };
                return Err(ImportError::new(
                    &at,
                    format!("tool {} at {at} maps to {why}; rename one of them", quote(tool_name, 80)),
                ));
            }
            loads(&c, &format!("tool {} at {ptr}", quote(tool_name, 80)), &ptr)?;
            out.push((stem, c, name));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok((out.into_iter().map(|(stem, c, _)| (stem, c)).collect(), notes))
}

/// The contract name a tool name becomes: white space, control characters
/// and `@` written `_`.
pub fn sanitize_name(tool: &str) -> String {
    tool.chars().map(|c| if c.is_whitespace() || c.is_control() || c == '@' { '_' } else { c }).collect()
}

/// The file `import tools-list` writes a contract to: `STEM_REVISION.json`.
pub fn tools_file_name(stem: &str, revision: &str) -> String {
    format!("{stem}_{revision}.json")
}

/// The file stem of a contract name: every character other than an ASCII
/// letter, digit, `-` or `_` written `_` (`mcp.tool_call` -> `mcp_tool_call`).
pub fn file_stem(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// A JSON document that does not parse: the byte offset of the fault and
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the fault ([`protocolarc_core::line_col`] makes it a position).
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads an input document with the contract reader's rules (strict JSON,
/// no repeated key, at most [`protocolarc_core::MAX_DEPTH`] levels, so no input can
/// exhaust the stack), then as a [`Value`].
pub fn parse_document(bytes: &[u8]) -> Result<Value, SyntaxError> {
    let tree = crate::json::tree::parse(bytes).map_err(|e| SyntaxError { offset: e.offset, message: e.message })?;
    crate::written::from_tree(&tree).map_err(|offset| SyntaxError {
        offset,
        message: "a string holding U+0000 then 'protocolarc-number:' is refused (that is how a number too large for a double travels)".into(),
    })
}

/// The byte offset in `bytes` (a JSON document) of the value a JSON Pointer
/// names, or of its key when the value is an object member, so that an
/// [`ImportError`] can be shown as `file:line:column`. `None` when the
/// document does not parse or holds no such value.
pub fn locate(bytes: &[u8], pointer: &str) -> Option<usize> {
    use crate::json::tree::{parse, Value as T};
    let root = parse(bytes).ok()?;
    let mut node = &root;
    let mut offset = root.offset;
    if pointer.is_empty() {
        return Some(offset);
    }
    for raw in pointer.strip_prefix('/')?.split('/') {
        let seg = raw.replace("~1", "/").replace("~0", "~");
        match &node.value {
            T::Object(members) => {
                let (key, value) = members.iter().find(|(k, _)| k.name == seg)?;
                offset = key.offset;
                node = value;
            }
            T::Array(items) => {
                node = items.get(seg.parse::<usize>().ok()?)?;
                offset = node.offset;
            }
            _ => return None,
        }
    }
    Some(offset)
}

/// A contract as text: its own keys first, in the order SPEC §10 lists them,
/// then the rest; two-space indentation and a final line break.
pub fn render(contract: &Value) -> String {
    const ORDER: &[&str] = &["name", "revision", "kind", "title", "doc", "direction", "schema"];
    crate::export::render_value(contract, ORDER)
}

/// Refuses a document nested deeper than the contract reader allows, before
/// anything recursive (a clone, a walk) touches it: a value built in memory
/// has no parser's limit.
fn check_depth(doc: &Value) -> Result<(), ImportError> {
    let mut stack = vec![(doc, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(a) => Box::new(a.iter()),
            Value::Object(o) => Box::new(o.values()),
            _ => continue,
        };
        if depth >= MAX_DEPTH {
            return Err(ImportError::new("", format!("the document nests deeper than {MAX_DEPTH} levels")));
        }
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    Ok(())
}

fn check_identity(name: &str, revision: &str, direction: Option<&str>) -> Result<(), ImportError> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control() || c == '@') {
        return Err(ImportError::argument(format!(
            "contract name {} must be non-empty, without white space or '@'",
            quote(name, 80)
        )));
    }
    if let Err(e) = semver::Version::parse(revision) {
        return Err(ImportError::argument(format!("revision {} is not a semver version: {e}", quote(revision, 80))));
    }
    if let Some(d) = direction.filter(|d| !DIRECTIONS.contains(d)) {
        return Err(ImportError::argument(format!("direction {} must be request, response or both", quote(d, 80))));
    }
    Ok(())
}

fn contract(
    name: &str,
    revision: &str,
    kind: Option<&str>,
    title: Option<&str>,
    doc: Option<&str>,
    direction: Option<&str>,
    schema: Value,
) -> Value {
    let mut c = Map::new();
    c.insert("name".into(), name.into());
    c.insert("revision".into(), revision.into());
    let optional = [("kind", kind), ("title", title), ("doc", doc), ("direction", direction)];
    for (key, value) in optional {
        if let Some(v) = value {
            c.insert(key.into(), v.into());
        }
    }
    c.insert("schema".into(), schema);
    Value::Object(c)
}

/// The tools array and its pointer.
fn tools_array(doc: &Value) -> Result<(&Vec<Value>, &'static str), ImportError> {
    match doc {
        Value::Array(tools) => Ok((tools, "")),
        Value::Object(o) => {
            if let Some(Value::Array(tools)) = o.get("tools") {
                return Ok((tools, "/tools"));
            }
            if let Some(Value::Object(r)) = o.get("result") {
                if let Some(Value::Array(tools)) = r.get("tools") {
                    return Ok((tools, "/result/tools"));
                }
            }
            if o.contains_key("error") {
                return Err(ImportError::new("/error", "a JSON-RPC error response, not a tools/list result".into()));
            }
            Err(ImportError::new(
                "",
                "not a tools/list result: expected {\"result\": {\"tools\": [...]}}, {\"tools\": [...]} or an array \
                 of tools"
                    .into(),
            ))
        }
        other => Err(ImportError::new("", format!("not a tools/list result: the document is {}", type_name(other)))),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(s) if crate::written::marked(s).is_some() => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `/a/b` with `key` escaped as a JSON Pointer step.
fn child(ptr: &str, key: &str) -> String {
    format!("{ptr}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// A pointer as messages show it.
fn shown(ptr: &str) -> String {
    if ptr.is_empty() {
        "the document root".into()
    } else {
        let q = quote(ptr, 200);
        q.strip_prefix('\'').and_then(|q| q.strip_suffix('\'')).map(str::to_string).unwrap_or(q)
    }
}

/// One import: the source document, its draft, the notes so far.
struct Cx<'a> {
    root: &'a Value,
    /// The pointer of `root` in the input (a tool's `inputSchema`).
    base: String,
    draft07: bool,
    notes: Vec<String>,
    /// The root of the schema resource (the document, or the innermost
    /// subschema with an `$id`) that holds the schema being read: a `#/...`
    /// reference is a pointer from it.
    resource: &'a Value,
    /// That resource's URI, which a reference resolves against.
    uri: String,
    /// The URI of every resource of the document.
    resources: HashSet<String>,
}

impl<'a> Cx<'a> {
    fn new(root: &'a Value, base: &str) -> Result<Cx<'a>, ImportError> {
        let draft07 = match root.get("$schema") {
            None => root.get("definitions").is_some() && root.get("$defs").is_none(),
            Some(Value::String(s)) => {
                let s = s.trim_end_matches('#');
                let s = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://")).unwrap_or(s);
                match s {
                    "json-schema.org/draft-07/schema" => true,
                    "json-schema.org/draft/2020-12/schema" => false,
                    _ => {
                        let p = child(base, "$schema");
                        return Err(ImportError::new(
                            &p,
                            format!(
                                "unsupported $schema {} at {}: import reads JSON Schema draft-07 and 2020-12",
                                quote(s, 120),
                                shown(&p)
                            ),
                        ));
                    }
                }
            }
            Some(other) => {
                let p = child(base, "$schema");
                return Err(ImportError::new(
                    &p,
                    format!("$schema at {} is {}, not a string", shown(&p), type_name(other)),
                ));
            }
        };
        let mut found = Found::default();
        scan(root, "", DEFAULT_BASE, &mut found);
        let uri = found.resources.first().map_or_else(|| DEFAULT_BASE.to_string(), |(_, u)| u.clone());
        let resources = found.resources.into_iter().map(|(_, u)| u).collect();
        Ok(Cx { root, base: base.to_string(), draft07, notes: Vec::new(), resource: root, uri, resources })
    }

    /// The input pointer of a pointer relative to `root`.
    fn at(&self, rel: &str) -> String {
        format!("{}{rel}", self.base)
    }

    fn error(&self, rel: &str, message: impl FnOnce(&str) -> String) -> ImportError {
        let p = self.at(rel);
        let m = message(&shown(&p));
        ImportError::new(&p, m)
    }

    /// One schema (object or boolean) at `ptr` (relative to `root`), in 2020-12.
    fn schema(&mut self, v: &'a Value, ptr: &str, depth: usize) -> Result<Value, ImportError> {
        if depth > MAX_DEPTH {
            return Err(self.error(ptr, |at| format!("the schema nests deeper than {MAX_DEPTH} levels at {at}")));
        }
        let obj = match v {
            Value::Bool(_) => return Ok(v.clone()),
            Value::Object(o) => o,
            other => {
                let t = type_name(other);
                return Err(self.error(ptr, |at| format!("a schema must be an object or a boolean; {at} is {t}")));
            }
        };
        let beside_ref = self.draft07 && obj.contains_key("$ref");
        let outer = (self.resource, self.uri.clone());
        // (Draft-07 ignores an `$id` beside a `$ref`, as it is dropped.)
        let id = obj.get("$id").and_then(Value::as_str).filter(|id| !id.starts_with('#') && !ptr.is_empty());
        if let Some(id) = id.filter(|_| !beside_ref) {
            self.resource = v;
            self.uri = uri::split_fragment(&uri::resolve(&self.uri, id)).0.to_string();
        }
        let mut out = Map::new();
        let mut defs = Map::new();
        for (key, value) in obj {
            let here = child(ptr, key);
            let key = key.as_str();
            if beside_ref && !matches!(key, "$ref" | "definitions" | "$defs") {
                if !ANNOTATIONS.contains(&key) {
                    let at = shown(&self.at(ptr));
                    self.notes.push(format!(
                        "dropped {} beside $ref at {at} (draft-07 ignores keywords beside $ref)",
                        quote(key, 80)
                    ));
                }
                continue;
            }
            if self.draft07 && is_later(key) {
                return Err(self.error(&here, |at| {
                    format!(
                        "{} at {at} is not a draft-07 keyword (draft-07 ignores it); write $schema 2020-12 if it is \
                         meant",
                        quote(key, 80)
                    )
                }));
            }
            match key {
                "$schema" => {}
                "$ref" => {
                    out.insert(key.into(), Value::String(self.reference(value, &here)?));
                }
                "$id" if self.draft07 && value.as_str().is_some_and(|s| s.starts_with('#')) => {
                    let anchor = value.as_str().unwrap_or_default().trim_start_matches('#');
                    out.insert("$anchor".into(), anchor.into());
                }
                "definitions" | "$defs" if key == "$defs" || self.draft07 => {
                    let Some(members) = value.as_object() else {
                        return Err(self.error(&here, |at| format!("{key} at {at} must be an object of schemas")));
                    };
                    for (name, s) in members {
                        let p = child(&here, name);
                        if defs.contains_key(name) {
                            return Err(self.error(&p, |at| {
                                format!(
                                    "definition {} at {at} is also in the other of $defs/definitions",
                                    quote(name, 80)
                                )
                            }));
                        }
                        let s = self.schema(s, &p, depth + 1)?;
                        defs.insert(name.clone(), s);
                    }
                }
                "items" if self.draft07 && value.is_array() => {
                    out.insert("prefixItems".into(), self.list(value, &here, depth)?);
                }
                "additionalItems" if self.draft07 => {
                    if obj.get("items").is_some_and(Value::is_array) {
                        out.insert("items".into(), self.schema(value, &here, depth + 1)?);
                    } else {
                        let at = shown(&self.at(ptr));
                        self.notes.push(format!(
                            "dropped 'additionalItems' at {at}: without an array 'items' draft-07 ignores it"
                        ));
                    }
                }
                "dependencies" if self.draft07 => {
                    let Some(members) = value.as_object() else {
                        return Err(self.error(&here, |at| format!("dependencies at {at} must be an object")));
                    };
                    for (name, dep) in members {
                        let p = child(&here, name);
                        let (target, v) = match dep {
                            Value::Array(_) => ("dependentRequired", dep.clone()),
                            _ => ("dependentSchemas", self.schema(dep, &p, depth + 1)?),
                        };
                        let slot = out.entry(target).or_insert_with(|| Value::Object(Map::new()));
                        if let Value::Object(m) = slot {
                            m.insert(name.clone(), v);
                        }
                    }
                }
                _ if holds(key, Holds::Schema) => {
                    if key == "items" && value.is_array() {
                        return Err(self.error(&here, |at| {
                            format!("array-form 'items' at {at} is draft-07; in 2020-12 write prefixItems")
                        }));
                    }
                    out.insert(key.into(), self.schema(value, &here, depth + 1)?);
                }
                _ if holds(key, Holds::SchemaMap) => {
                    let Some(members) = value.as_object() else {
                        return Err(self.error(&here, |at| format!("{key} at {at} must be an object of schemas")));
                    };
                    let mut m = Map::new();
                    for (name, s) in members {
                        m.insert(name.clone(), self.schema(s, &child(&here, name), depth + 1)?);
                    }
                    merge(&mut out, key, Value::Object(m));
                }
                _ if holds(key, Holds::SchemaList) => {
                    out.insert(key.into(), self.list(value, &here, depth)?);
                }
                _ if is_assertion(key) || ANNOTATIONS.contains(&key) => {
                    merge(&mut out, key, value.clone());
                }
                // A vendor extension (`x-fastmcp-wrap-result` on real MCP
                // tools): no validator reads it, and a contract holds only
                // what it validates or shows: dropped, with a note.
                _ if key.starts_with("x-") => {
                    let at = shown(&self.at(&here));
                    self.notes.push(format!(
                        "dropped vendor extension {} at {at}: no JSON Schema validator reads it",
                        quote(key, 80)
                    ));
                }
                _ => {
                    let hint = crate::suggest::nearest(key, known())
                        .map(|k| format!(" (did you mean '{k}'?)"))
                        .unwrap_or_default();
                    return Err(self.error(&here, |at| {
                        format!(
                            "unsupported keyword {} at {at}: a contract's schema holds only keywords it validates or \
                             shows{hint}",
                            quote(key, 80)
                        )
                    }));
                }
            }
        }
        if !defs.is_empty() {
            out.insert("$defs".into(), Value::Object(defs));
        }
        (self.resource, self.uri) = outer;
        Ok(Value::Object(out))
    }

    fn list(&mut self, value: &'a Value, ptr: &str, depth: usize) -> Result<Value, ImportError> {
        let Some(items) = value.as_array() else {
            let t = type_name(value);
            return Err(self.error(ptr, |at| format!("{at} must be an array of schemas, found {t}")));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, s) in items.iter().enumerate() {
            out.push(self.schema(s, &format!("{ptr}/{i}"), depth + 1)?);
        }
        Ok(Value::Array(out))
    }

    /// A `$ref` in 2020-12: to a resource of the document, pointing at
    /// something, rewritten through the draft-07 renames.
    fn reference(&self, value: &Value, ptr: &str) -> Result<String, ImportError> {
        let Some(text) = value.as_str() else {
            let t = type_name(value);
            return Err(self.error(ptr, |at| format!("$ref at {at} is {t}, not a string")));
        };
        let Some(fragment) = text.strip_prefix('#') else {
            // By URI: to one of the document's resources (the loader then
            // checks what it points at), never to another document.
            let resolved = uri::resolve(&self.uri, text);
            if self.resources.contains(uri::split_fragment(&resolved).0) {
                return Ok(text.to_string());
            }
            let r = quote(text, 120);
            return Err(self.error(ptr, |at| {
                format!(
                    "$ref {r} at {at} names another document: a contract holds one (--resolve DIR bundles the local \
                     files a schema references)"
                )
            }));
        };
        if fragment.is_empty() || !fragment.starts_with('/') {
            // `#` or a plain-name anchor (`#node`): location-independent.
            return Ok(text.to_string());
        }
        let segments: Vec<String> = fragment[1..].split('/').map(|s| unescape(&percent_decode(s))).collect();
        let missing = || {
            let r = quote(text, 120);
            self.error(ptr, |at| format!("$ref {r} at {at} points to nothing in the document"))
        };
        let mut out: Vec<String> = Vec::new();
        let mut node = self.resource;
        let mut state = State::Schema;
        let mut i = 0;
        while i < segments.len() {
            let seg = segments[i].as_str();
            match state {
                State::Schema => {
                    let obj = node.as_object().ok_or_else(missing)?;
                    let v = obj.get(seg).ok_or_else(missing)?;
                    if self.draft07 && obj.contains_key("$ref") && !matches!(seg, "$ref" | "definitions" | "$defs") {
                        let r = quote(text, 120);
                        return Err(self.error(ptr, |at| {
                            format!("$ref {r} at {at} points into keywords beside a $ref, which draft-07 ignores")
                        }));
                    }
                    let (name, next) = match seg {
                        "definitions" if self.draft07 => ("$defs", State::Map),
                        "items" if self.draft07 && v.is_array() => ("prefixItems", State::List),
                        "additionalItems" if self.draft07 => ("items", State::Schema),
                        "dependencies" if self.draft07 => {
                            let key = segments.get(i + 1).ok_or_else(missing)?;
                            let dep = v.get(key.as_str()).ok_or_else(missing)?;
                            let (target, next) = if dep.is_array() {
                                ("dependentRequired", State::Value)
                            } else {
                                ("dependentSchemas", State::Schema)
                            };
                            out.push(target.into());
                            out.push(key.clone());
                            node = dep;
                            state = next;
                            i += 2;
                            continue;
                        }
                        _ if holds(seg, Holds::Schema) => (seg, State::Schema),
                        _ if holds(seg, Holds::SchemaMap) || seg == "definitions" => (seg, State::Map),
                        _ if holds(seg, Holds::SchemaList) => (seg, State::List),
                        _ => (seg, State::Value),
                    };
                    out.push(name.into());
                    node = v;
                    state = next;
                }
                State::Map => {
                    node = node.as_object().and_then(|o| o.get(seg)).ok_or_else(missing)?;
                    out.push(seg.into());
                    state = State::Schema;
                }
                State::List => {
                    let index = seg.parse::<usize>().ok().ok_or_else(missing)?;
                    node = node.as_array().and_then(|a| a.get(index)).ok_or_else(missing)?;
                    out.push(seg.into());
                    state = State::Schema;
                }
                State::Value => {
                    node = match node {
                        Value::Object(o) => o.get(seg),
                        Value::Array(a) => seg.parse::<usize>().ok().and_then(|n| a.get(n)),
                        _ => None,
                    }
                    .ok_or_else(missing)?;
                    out.push(seg.into());
                }
            }
            i += 1;
        }
        let mut written = String::from("#");
        for seg in out {
            written.push('/');
            written.push_str(&percent_encode(&seg.replace('~', "~0").replace('/', "~1")));
        }
        Ok(written)
    }

    /// `--def NAME`: that definition as the root, with the definitions it
    /// reaches.
    fn definition(&mut self, name: &str) -> Result<Value, ImportError> {
        let containers: Vec<&str> = if self.draft07 { vec!["$defs", "definitions"] } else { vec!["$defs"] };
        let find = |n: &str| -> Option<(String, &'a Value)> {
            containers.iter().find_map(|c| {
                let v = self.root.get(*c)?.get(n)?;
                Some((child(&child("", c), n), v))
            })
        };
        let Some((ptr, body)) = find(name) else {
            let all: Vec<&str> = containers
                .iter()
                .filter_map(|c| self.root.get(*c)?.as_object())
                .flat_map(|m| m.keys().map(String::as_str))
                .collect();
            let hint = crate::suggest::nearest(name, all.iter().copied())
                .map(|k| format!(" (did you mean '{k}'?)"))
                .unwrap_or_default();
            return Err(ImportError::new(
                &self.base,
                format!("no definition {} in the document ({} definitions){hint}", quote(name, 80), all.len()),
            ));
        };
        let root = self.schema(body, &ptr, 1)?;
        if root.get("$defs").is_some_and(|d| d.as_object().is_some_and(|m| !m.is_empty())) {
            return Err(self.error(&ptr, |at| {
                format!("definition at {at} has $defs of its own; import the whole schema instead")
            }));
        }
        // Every definition reached, transformed once, by name.
        let mut done: Vec<(String, Value)> = Vec::new();
        let mut queue: Vec<(String, String)> = Vec::new(); // (referrer pointer, ref)
        let own = format!("#/$defs/{}", percent_encode(&name.replace('~', "~0").replace('/', "~1")));
        collect_refs(&root, &ptr, &mut queue);
        while let Some((at, r)) = queue.pop() {
            let target = if r == "#" {
                None
            } else if let Some(rest) = r.strip_prefix("#/$defs/") {
                let seg = rest.split('/').next().unwrap_or_default();
                Some(unescape(&percent_decode(seg)))
            } else {
                None
            };
            let Some(target) = target else {
                let shown_ref = quote(&r, 120);
                return Err(self.error(&at, |where_| {
                    format!(
                        "$ref {shown_ref} at {where_} points outside the definitions; import the whole schema \
                         instead of --def {}",
                        quote(name, 80)
                    )
                }));
            };
            if target == name || done.iter().any(|(n, _)| *n == target) {
                continue;
            }
            let Some((p, body)) = find(&target) else {
                return Err(self.error(&at, |w| format!("$ref {} at {w} points to nothing", quote(&r, 120))));
            };
            let s = self.schema(body, &p, 1)?;
            collect_refs(&s, &p, &mut queue);
            done.push((target, s));
        }
        let rewrite = |v: &mut Value| rebase_refs(v, &own);
        let mut root = root;
        rewrite(&mut root);
        if done.is_empty() {
            return Ok(root);
        }
        let Value::Object(mut obj) = root else {
            // A boolean definition has no references, so `done` is empty.
            return Ok(root);
        };
        let mut defs = Map::new();
        for (n, mut s) in done {
            rewrite(&mut s);
            defs.insert(n, s);
        }
        obj.remove("$defs");
        obj.insert("$defs".into(), Value::Object(defs));
        Ok(Value::Object(obj))
    }
}

#[derive(Clone, Copy)]
enum State {
    Schema,
    Map,
    List,
    Value,
}

/// Inserts `key`, merging objects when `dependencies` already filled it.
fn merge(out: &mut Map<String, Value>, key: &str, value: Value) {
    match (out.get_mut(key), value) {
        (Some(Value::Object(have)), Value::Object(add)) => {
            for (k, v) in add {
                have.entry(k).or_insert(v);
            }
        }
        (_, value) => {
            out.insert(key.into(), value);
        }
    }
}

fn known() -> impl Iterator<Item = &'static str> {
    registry::KEYWORDS.iter().filter(|k| k.draft != Draft::Draft07).map(|k| k.name)
}

/// Every `$ref` of a transformed schema (its schema positions only), with a
/// pointer to show.
fn collect_refs(v: &Value, ptr: &str, out: &mut Vec<(String, String)>) {
    let Value::Object(o) = v else { return };
    for (k, x) in o {
        let p = child(ptr, k);
        match k.as_str() {
            "$ref" => {
                if let Some(s) = x.as_str() {
                    out.push((p, s.to_string()));
                }
            }
            _ if holds(k, Holds::Schema) => collect_refs(x, &p, out),
            _ if holds(k, Holds::SchemaMap) => {
                if let Value::Object(m) = x {
                    for (n, s) in m {
                        collect_refs(s, &child(&p, n), out);
                    }
                }
            }
            _ if holds(k, Holds::SchemaList) => {
                if let Value::Array(a) = x {
                    for (i, s) in a.iter().enumerate() {
                        collect_refs(s, &format!("{p}/{i}"), out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `#/$defs/NAME...` -> `#...` everywhere in a schema, `NAME` being the new
/// root.
fn rebase_refs(v: &mut Value, own: &str) {
    let Value::Object(o) = v else { return };
    for (k, x) in o.iter_mut() {
        match k.as_str() {
            "$ref" => {
                if let Value::String(s) = x {
                    if let Some(rest) = s.strip_prefix(own).filter(|r| r.is_empty() || r.starts_with('/')) {
                        *s = format!("#{rest}");
                    }
                }
            }
            _ if holds(k, Holds::Schema) => rebase_refs(x, own),
            _ if holds(k, Holds::SchemaMap) => {
                if let Value::Object(m) = x {
                    m.values_mut().for_each(|s| rebase_refs(s, own));
                }
            }
            _ if holds(k, Holds::SchemaList) => {
                if let Value::Array(a) = x {
                    a.iter_mut().for_each(|s| rebase_refs(s, own));
                }
            }
            _ => {}
        }
    }
}

fn unescape(seg: &str) -> String {
    seg.replace("~1", "/").replace("~0", "~")
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Percent-encodes what a URI fragment may not hold.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        let ok = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b);
        if ok {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The `$id` resources and `$ref`s of a schema document, found at its
/// schema positions only (draft-07 spellings included): never in `enum`,
/// `const` or an annotation's value.
#[derive(Default)]
struct Found {
    /// Each resource's pointer and URI, the document root first.
    resources: Vec<(String, String)>,
    /// Each `$ref`'s pointer (of its value), text and the URI of the resource
    /// that holds it.
    refs: Vec<(String, String, String)>,
    /// Each `$anchor`: the URI of its resource and its name.
    anchors: HashSet<(String, String)>,
}

/// Fills `found` from the schema `v` at `ptr`, whose enclosing resource's
/// URI is `base`. The caller has bounded the depth ([`check_depth`]).
fn scan(v: &Value, ptr: &str, base: &str, found: &mut Found) {
    let Value::Object(o) = v else {
        if ptr.is_empty() {
            found.resources.push((String::new(), base.to_string()));
        }
        return;
    };
    let mut base = base.to_string();
    // A draft-07 `$id: "#name"` is an anchor, not a resource.
    if let Some(name) = o.get("$id").and_then(Value::as_str).and_then(|id| id.strip_prefix('#')) {
        found.anchors.insert((base.clone(), name.to_string()));
    }
    match o.get("$id").and_then(Value::as_str).filter(|id| !id.starts_with('#')) {
        Some(id) => {
            base = uri::split_fragment(&uri::resolve(&base, id)).0.to_string();
            found.resources.push((ptr.to_string(), base.clone()));
        }
        None if ptr.is_empty() => found.resources.push((String::new(), base.clone())),
        None => {}
    }
    for (k, x) in o {
        let p = child(ptr, k);
        match k.as_str() {
            "$ref" => {
                if let Value::String(text) = x {
                    found.refs.push((p, text.clone(), base.clone()));
                }
            }
            "$anchor" => {
                if let Value::String(name) = x {
                    found.anchors.insert((base.clone(), name.clone()));
                }
            }
            "items" | "prefixItems" | "allOf" | "anyOf" | "oneOf" if x.is_array() => {
                for (i, s) in x.as_array().into_iter().flatten().enumerate() {
                    scan(s, &format!("{p}/{i}"), &base, found);
                }
            }
            "dependencies" | "definitions" => {
                for (n, s) in x.as_object().into_iter().flatten() {
                    scan(s, &child(&p, n), &base, found);
                }
            }
            "additionalItems" => scan(x, &p, &base, found),
            _ if holds(k, Holds::Schema) => scan(x, &p, &base, found),
            _ if holds(k, Holds::SchemaMap) => {
                for (n, s) in x.as_object().into_iter().flatten() {
                    scan(s, &child(&p, n), &base, found);
                }
            }
            _ => {}
        }
    }
}

/// How [`bundle`] reads another document: given its absolute URI (no
/// fragment), the document and the URI it is to be known by in the bundle,
/// or why it cannot be read (one sentence, shown after the reference).
pub type Fetch<'f> = dyn FnMut(&str) -> Result<(Value, String), String> + 'f;

/// Documents a bundle holds at most: a bound on a chain of references that
/// would fetch without end.
pub const MAX_BUNDLED: usize = 1000;

/// One document of a bundle.
struct Bundled {
    /// The URI it was fetched by (the given base for the root).
    uri: String,
    value: Value,
    /// Its resources and references, resolved from the fetch URI.
    found: Found,
    /// The URI of each of `found.resources` in the bundle, in its order.
    out: Vec<String>,
}

/// `doc` made self-contained: every document its references reach beyond
/// itself is read with `fetch` and embedded, as JSON Schema 2020-12 bundles
/// them (§9.3.1), in the root's `$defs` as a resource of its own (its `$id`
/// the URI `fetch` says it is known by, unless it has an absolute one; its
/// key that URI, or its path below [`DEFAULT_BASE`] without `.json`), and
/// every reference to an embedded document is rewritten to that URI.
///
/// `base` is the URI the document was read from (references resolve
/// against it when the root has no `$id`), `root_id` the URI the root is
/// known by in the bundle: the root gets it as `$id` when an embedded
/// document refers back to it. References between the resources of one
/// document are left as written. Nothing is fetched when every reference is
/// within `doc`: the result is then `doc` unchanged.
///
/// The error names the reference's pointer, in `doc` or, with
/// [`ImportError::document`], in the fetched document that holds it.
///
/// ```
/// use serde_json::json;
/// use protocolarc_interop::import::bundle;
///
/// let doc = json!({"properties": {"n": {"$ref": "http://example.com/int.json"}}});
/// let mut fetch = |uri: &str| match uri {
///     "http://example.com/int.json" => Ok((json!({"type": "integer"}), uri.to_string())),
///     other => Err(format!("no document {other}")),
/// };
/// let bundled = bundle(&doc, "json-schema:///", "json-schema:///", &mut fetch).unwrap();
/// assert_eq!(bundled, json!({
///     "properties": {"n": {"$ref": "http://example.com/int.json"}},
///     "$defs": {"http://example.com/int.json": {"$id": "http://example.com/int.json", "type": "integer"}}
/// }));
/// ```
pub fn bundle(doc: &Value, base: &str, root_id: &str, fetch: &mut Fetch<'_>) -> Result<Value, ImportError> {
    check_depth(doc)?;
    let mut docs: Vec<Bundled> = Vec::new();
    // Resource URI as resolved from fetch URIs -> (document, URI in the
    // bundle, whether it is a fetch URI that the document's `$id` renames).
    let mut known: HashMap<String, (usize, String, bool)> = HashMap::new();
    add(&mut docs, &mut known, doc.clone(), base, root_id);
    let mut i = 0;
    while i < docs.len() {
        for r in 0..docs[i].found.refs.len() {
            let (ptr, text, from) = &docs[i].found.refs[r];
            let resolved = uri::resolve(from, text);
            let target = uri::split_fragment(&resolved).0;
            if known.contains_key(target) {
                continue;
            }
            let error = |message: String| ImportError {
                pointer: ptr.clone(),
                message,
                argument: false,
                document: (i > 0).then(|| docs[i].uri.clone()),
            };
            let at = shown(ptr);
            if docs.len() >= MAX_BUNDLED {
                return Err(error(format!(
                    "$ref {} at {at} would bundle more than {MAX_BUNDLED} documents",
                    quote(text, 120)
                )));
            }
            let (value, id) =
                fetch(target).map_err(|why| error(format!("$ref {} at {at}: {why}", quote(text, 120))))?;
            check_depth(&value).map_err(|e| ImportError { document: Some(target.to_string()), ..e })?;
            let target = target.to_string();
            add(&mut docs, &mut known, value, &target, &id);
        }
        i += 1;
    }
    if docs.len() == 1 {
        return Ok(doc.clone());
    }
    // References to another document (or by a fetch URI its `$id`
    // renames) are rewritten to the URI it has in the bundle.
    let mut back_to_root = false;
    // Every resource by its URI: its document and its pointer there.
    let mut resources: HashMap<&str, (usize, &str)> = HashMap::new();
    let mut anchors: HashSet<&(String, String)> = HashSet::new();
    for (index, d) in docs.iter().enumerate() {
        for (ptr, uri) in &d.found.resources {
            resources.entry(uri).or_insert((index, ptr));
        }
        resources.entry(&d.uri).or_insert((index, ""));
        anchors.extend(&d.found.anchors);
    }
    // Whether the resource `target` holds what `fragment` names: its root,
    // a JSON Pointer from its root, or one of its `$anchor`s.
    let names_something = |target: &str, fragment: Option<&str>| {
        let Some(&(index, at)) = resources.get(target) else { return false };
        match fragment.map(percent_decode) {
            None => true,
            Some(f) if f.is_empty() => true,
            Some(f) if f.starts_with('/') => docs[index].value.pointer(&format!("{at}{f}")).is_some(),
            Some(f) => anchors.contains(&(target.to_string(), f)),
        }
    };
    let mut rewrites: Vec<(usize, String, String)> = Vec::new();
    for (index, d) in docs.iter().enumerate() {
        for (ptr, text, from) in &d.found.refs {
            let resolved = uri::resolve(from, text);
            let (target, fragment) = uri::split_fragment(&resolved);
            let Some((t, to, renamed)) = known.get(target) else { continue };
            if *t == index && !renamed {
                continue;
            }
            if !names_something(target, fragment) {
                let at = shown(ptr);
                return Err(ImportError {
                    pointer: ptr.clone(),
                    message: format!("$ref {} at {at} points to nothing in {}", quote(text, 120), quote(to, 160)),
                    argument: false,
                    document: (index > 0).then(|| d.uri.clone()),
                });
            }
            back_to_root |= *t == 0;
            let mut written = to.clone();
            if let Some(f) = fragment {
                written.push('#');
                written.push_str(f);
            }
            rewrites.push((index, ptr.clone(), written));
        }
    }
    for (index, ptr, written) in rewrites {
        if let Some(slot) = docs[index].value.pointer_mut(&ptr) {
            *slot = Value::String(written);
        }
    }
    let mut docs = docs.into_iter();
    let mut root = docs.next().map(|d| d.value).unwrap_or_default();
    let Value::Object(obj) = &mut root else {
        // A boolean root holds no reference, so nothing was fetched.
        return Ok(root);
    };
    if back_to_root && !obj.contains_key("$id") {
        obj.insert("$id".into(), root_id.into());
    }
    let mut defs = match obj.remove("$defs") {
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(ImportError::new("/$defs", format!("$defs is {}, not an object", type_name(&other))))
        }
        None => Map::new(),
    };
    for d in docs {
        let id = d.out.first().cloned().unwrap_or_default();
        let mut value = match d.value {
            Value::Object(m) => m,
            Value::Bool(true) => Map::new(),
            _ => Map::from_iter([("not".to_string(), Value::Object(Map::new()))]),
        };
        value.insert("$id".into(), Value::String(id.clone()));
        // `common.json` under DIR is `common`, a URL stays whole.
        let name = match id.strip_prefix(DEFAULT_BASE).filter(|n| !n.is_empty()) {
            Some(path) => path.strip_suffix(".json").filter(|n| !n.is_empty()).unwrap_or(path),
            None => &id,
        }
        .to_string();
        let mut key = name.clone();
        let mut n = 2;
        while defs.contains_key(&key) {
            key = format!("{name} ({n})");
            n += 1;
        }
        defs.insert(key, Value::Object(value));
    }
    obj.insert("$defs".into(), Value::Object(defs));
    Ok(root)
}

/// Records document `value`, fetched by `uri` and known by `id` in the
/// bundle, with its resources.
fn add(docs: &mut Vec<Bundled>, known: &mut HashMap<String, (usize, String, bool)>, value: Value, uri: &str, id: &str) {
    let (mut found, mut out) = (Found::default(), Found::default());
    scan(&value, "", uri, &mut found);
    scan(&value, "", id, &mut out);
    let index = docs.len();
    for ((_, from), (_, to)) in found.resources.iter().zip(&out.resources) {
        known.entry(from.clone()).or_insert((index, to.clone(), false));
    }
    let canonical = out.resources.first().map(|(_, u)| u.clone()).unwrap_or_default();
    let renamed = found.resources.first().is_some_and(|(_, u)| u != uri);
    known.entry(uri.to_string()).or_insert((index, canonical, renamed));
    docs.push(Bundled { uri: uri.to_string(), value, found, out: out.resources.into_iter().map(|(_, u)| u).collect() });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn import(doc: Value) -> Result<(Value, Vec<String>), ImportError> {
        schema_contract(&doc, "t.s", "1.0.0", None, None).map(|(c, n)| (c["schema"].clone(), n))
    }

    #[test]
    fn draft07_renames() {
        let doc = json!({
            "definitions": { "A": { "type": "string" } },
            "type": "array",
            "items": [ { "$ref": "#/definitions/A" }, true ],
            "additionalItems": false,
            "dependencies": { "a": ["b"], "c": { "required": ["d"] } },
            "properties": { "x": { "$ref": "#/items/1" } }
        });
        let (s, notes) = import(doc).unwrap();
        assert_eq!(
            s,
            json!({
                "$defs": { "A": { "type": "string" } },
                "type": "array",
                "prefixItems": [ { "$ref": "#/$defs/A" }, true ],
                "items": false,
                "dependentRequired": { "a": ["b"] },
                "dependentSchemas": { "c": { "required": ["d"] } },
                "properties": { "x": { "$ref": "#/prefixItems/1" } }
            })
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn errors_name_keyword_and_pointer() {
        let e = import(json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
            "properties": {"a/b": {"$recursiveRef": "#"}}}))
        .unwrap_err();
        assert_eq!(e.pointer(), "/properties/a~1b/$recursiveRef");
        assert_eq!(
            e.message(),
            "unsupported keyword '$recursiveRef' at /properties/a~1b/$recursiveRef: a contract's \
             schema holds only keywords it validates or shows"
        );
        let e = import(json!({"$ref": "other.json#/x"})).unwrap_err();
        assert_eq!(
            e.message(),
            "$ref 'other.json#/x' at /$ref names another document: a contract holds one (--resolve DIR bundles the \
             local files a schema references)"
        );
        let e = import(json!({"$ref": "#/$defs/Nope"})).unwrap_err();
        assert_eq!(e.message(), "$ref '#/$defs/Nope' at /$ref points to nothing in the document");
        let e = import(json!({"definitions": {}, "prefixItems": []})).unwrap_err();
        assert_eq!(
            e.message(),
            "'prefixItems' at /prefixItems is not a draft-07 keyword (draft-07 ignores it); write $schema 2020-12 if it \
             is meant"
        );
        let e = import(json!({"type": 3, "items": 5})).unwrap_err();
        assert_eq!(e.message(), "a schema must be an object or a boolean; /items is a number");
        let e = import(json!({"$schema": "http://json-schema.org/draft-04/schema#"})).unwrap_err();
        assert_eq!(
            e.message(),
            "unsupported $schema 'json-schema.org/draft-04/schema' at /$schema: import reads JSON Schema draft-07 and 2020-12"
        );
    }

    #[test]
    fn deep_input_is_an_error() {
        let mut v = json!(true);
        for _ in 0..200 {
            v = json!({ "not": v });
        }
        let e = import(v).unwrap_err();
        assert_eq!(e.message(), "the document nests deeper than 128 levels");
        // The written contract holds the schema one level down: a value
        // nested 127 deep in the schema is 128 deep in the contract, which
        // the loader refuses, so import refuses it too.
        let nested = |depth: usize| (0..depth).fold(json!(1), |v, _| json!([v]));
        assert!(import(json!({ "const": nested(128) })).is_err());
        let e = import(json!({ "const": nested(127) })).unwrap_err();
        assert_eq!(e.message(), "the schema does not load as a contract: nesting deeper than 128 levels");
        assert!(import(json!({ "const": nested(126) })).is_ok());
    }

    #[test]
    fn locate_finds_keys() {
        let bytes = br#"{"a": {"b/c": [1, {"d": 2}]}}"#;
        assert_eq!(locate(bytes, ""), Some(0));
        assert_eq!(locate(bytes, "/a/b~1c"), Some(7));
        assert_eq!(locate(bytes, "/a/b~1c/1/d"), Some(19));
        assert_eq!(locate(bytes, "/a/x"), None);
    }
}
