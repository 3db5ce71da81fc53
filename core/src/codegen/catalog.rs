//! (feature `codegen`) A typed module for a whole catalog: one protocol
//! revision's contracts in one Rust module. Each message is one type
//! implementing `Contract` for its contract, named after its method
//! (`mcp.tools/call.response` -> `ToolsCallResponse`); each `$defs` entry is
//! one type for the whole module, shared by every message that references
//! it, named after the definition. Every name goes through one
//! [`Naming`], so nothing collides.
//!
//! Two contracts share a `$defs` type when the entry, and every entry it
//! reaches by `$ref`, is written the same in both: a catalog generated from
//! one official schema copies its definitions verbatim, so they share; two
//! hand-written contracts that mean different things by one name get
//! `Name` and `Name2`.

use std::collections::{BTreeMap, HashMap};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::options::{Naming, Options};
use super::{pascal_case, schema, Item};
use crate::contract::ContractSpec;
use crate::keywords::name;

/// One contract of the module.
pub struct Message {
    /// The loaded contract.
    pub spec: ContractSpec,
    /// Its text as JSON, for the `$defs` identities.
    pub json: String,
    /// The expression that yields its text in the using crate (a literal,
    /// or an `include_str!` so that editing the file rebuilds the crate).
    pub text: TokenStream,
    /// How errors name it (`mcp@2025-11-25/mcp_ping_request.json`).
    pub label: String,
}

/// The items of a module holding every message, their types named for
/// `vis`; `what` names the catalog in errors.
pub fn expand_catalog(
    messages: &[Message],
    vis: &TokenStream,
    opts: &Options,
    what: &str,
) -> Result<TokenStream, String> {
    let mut order: Vec<&Message> = messages.iter().collect();
    order.sort_by(|a, b| a.spec.name().cmp(b.spec.name()).then(a.spec.revision().cmp(b.spec.revision())));
    let mut naming = Naming::new(opts.clone(), []);
    let definitions =
        order.iter().filter_map(|m| m.spec.schema()).flat_map(|s| s.nodes.iter().filter_map(|n| n.def.as_deref()));
    naming.definitions(definitions.map(pascal_case).collect::<Vec<_>>());
    // Message types are named first: the definitions give way to them.
    let names: Vec<String> = order.iter().map(|m| naming.name(&message_type(m.spec.name()))).collect();
    let mut shared = HashMap::new();
    let mut out = Vec::new();
    for (m, name) in order.iter().zip(&names) {
        let item = Item { vis: vis.clone(), attrs: TokenStream::new(), name: name.clone() };
        let ident = format_ident!("{}", name);
        let (s, keys) = match m.spec.schema() {
            Some(s) => (s, def_keys(&m.json).map_err(|e| format!("{}: {e}", m.label))?),
            None => (m.spec.walked(), HashMap::new()),
        };
        out.extend(schema::message(&m.spec, s, &item, &mut naming, &mut shared, &keys));
        let check = super::schema_check::fast_path(s);
        out.push(super::contract_impl(&m.spec, &ident, &m.text, &m.label, check));
    }
    naming.unused(what)?;
    Ok(quote! { #(#out)* })
}

/// The type name of a message: its contract name without the protocol
/// (`mcp.tools/call.request` -> `ToolsCallRequest`, `a2a.agent_card` ->
/// `AgentCard`).
pub fn message_type(contract: &str) -> String {
    let rest = contract.split_once('.').map_or(contract, |(_, rest)| rest);
    pascal_case(rest)
}

/// Each `$defs` name of a contract -> its identity: a digest of the entry
/// and every entry it reaches, as written.
fn def_keys(json: &str) -> Result<HashMap<String, String>, String> {
    let doc: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let Some(Value::Object(defs)) = doc.get("schema").and_then(|s| s.get(name::DEFS)) else {
        return Ok(HashMap::new());
    };
    let mut keys = HashMap::new();
    for name in defs.keys() {
        let mut reached = BTreeMap::new();
        let mut stack = vec![name.clone()];
        while let Some(next) = stack.pop() {
            let Some(def) = defs.get(&next) else { continue };
            if reached.insert(next, def).is_none() {
                refs(def, &mut stack);
            }
        }
        let mut hash = Sha256::new();
        hash.update(name.as_bytes());
        for (n, v) in &reached {
            hash.update([0]);
            hash.update(n.as_bytes());
            hash.update([0]);
            hash.update(v.to_string().as_bytes());
        }
        let digest: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
        keys.insert(name.clone(), digest);
    }
    Ok(keys)
}

/// The `$defs` names a schema's `$ref`s name.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    (k, Value::String(r)) if k == name::REF => out.extend(
                        r.strip_prefix('#')
                            .and_then(|p| p.strip_prefix('/'))
                            .and_then(|p| p.strip_prefix(name::DEFS))
                            .and_then(|p| p.strip_prefix('/'))
                            .map(decode_pointer),
                    ),
                    _ => refs(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

/// A JSON Pointer token, unescaped (`~1` is `/`, `~0` is `~`).
fn decode_pointer(token: &str) -> String {
    token.split('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_types_drop_the_protocol() {
        assert_eq!(message_type("mcp.tools/call.request"), "ToolsCallRequest");
        assert_eq!(message_type("a2a.agent_card"), "AgentCard");
        assert_eq!(message_type("a2a.CancelTask.response"), "CancelTaskResponse");
        assert_eq!(message_type("plain"), "Plain");
    }

    #[test]
    fn a_definition_is_known_by_what_it_reaches() {
        let a = r##"{"schema": {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "string"}}}}"##;
        let b = r##"{"schema": {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "integer"}}}}"##;
        let (ka, kb) = (def_keys(a).unwrap(), def_keys(b).unwrap());
        assert_ne!(ka["A"], kb["A"], "A reaches a different B");
        assert_ne!(ka["B"], kb["B"]);
        assert_eq!(ka, def_keys(a).unwrap());
    }
}

#[cfg(test)]
mod whole {
    use super::*;

    /// The messages of a bundled catalog directory, read from `protocols/`.
    fn catalog(dir: &str) -> Vec<Message> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocols").join(dir);
        let mut paths: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let json = std::fs::read_to_string(&p).unwrap();
                let label = p.file_name().unwrap().to_string_lossy().into_owned();
                let spec = ContractSpec::from_slice(json.as_bytes(), &label).unwrap();
                Message { spec, json, text: quote! { "" }, label }
            })
            .collect()
    }

    /// The names of the items a module declares, in order.
    fn declared(tokens: &TokenStream) -> Vec<String> {
        let mut names = Vec::new();
        let mut it = tokens.clone().into_iter().peekable();
        while let Some(t) = it.next() {
            if let proc_macro2::TokenTree::Ident(i) = &t {
                if matches!(i.to_string().as_str(), "struct" | "enum" | "type") {
                    if let Some(proc_macro2::TokenTree::Ident(name)) = it.peek() {
                        names.push(name.to_string());
                    }
                }
            }
        }
        names
    }

    #[test]
    fn the_whole_mcp_catalog_is_one_module_named_from_its_definitions() {
        let messages = catalog("mcp/2025-11-25");
        assert_eq!(messages.len(), 52);
        let out = expand_catalog(&messages, &quote! { pub }, &Options::default(), "mcp@2025-11-25").unwrap();
        let names = declared(&out);
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a name declared twice");
        assert!(!names.iter().any(|n| n == "EmbeddedResourceResource" || n == "ResourcesReadResponseContentsItem"));
        assert_eq!(names.iter().filter(|n| *n == "ResourceContents").count(), 1);
        for shared in
            ["RequestId", "ContentBlock", "Role", "Icon", "Implementation", "ToolsCallRequest", "ToolsCallResponse"]
        {
            assert_eq!(names.iter().filter(|n| *n == shared).count(), 1, "{shared}");
        }
        let text = out.to_string();
        // `Value` only where the schema names no type: the unknown members
        // kept, open maps (`_meta`, `arguments`) and the untyped `data` of an
        // error. The `allOf` definitions (a result merged with a task) are
        // structs with the members' fields.
        let mut untyped: Vec<&str> = Vec::new();
        for (i, _) in text.match_indices(":: protocolarc :: Value") {
            let before = &text[..i];
            if before.ends_with(":: protocolarc :: Map < :: std :: string :: String , ")
                || before.ends_with("BTreeMap < :: std :: string :: String , ")
            {
                continue;
            }
            // The field's name, or the item's for a transparent struct and an alias.
            let item = before.rsplit(" pub ").next().unwrap_or_default();
            let item = match item.strip_prefix("type ") {
                Some(alias) => alias,
                None if item.is_empty() => before.rsplit("pub struct ").next().unwrap_or_default(),
                None => item,
            };
            untyped.push(item.split([' ', '(']).next().unwrap_or_default());
        }
        untyped.sort_unstable();
        assert_eq!(untyped, ["data", "data"]);
        assert!(text.contains("pub struct TasksGetResponse {"), "an allOf of objects is a struct");
        assert!(text.contains("pub enum RequestId { # [doc = \" The value as a string.\"] String (:: std :: string :: String) , # [doc = \" The value as an integer.\"] Integer (:: protocolarc :: Number) ,"), "RequestId");
    }
}
