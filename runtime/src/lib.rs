//! ProtocolArc: versioned contracts for agent-protocol JSON messages (MCP,
//! A2A, any JSON-RPC).
//!
//! A contract is a JSON file naming a message shape and its revision, in the
//! fields form (a list of paths) or the schema form (a JSON Schema 2020-12
//! document). This crate loads contracts, validates raw bytes against them in
//! one pass with ordered findings ([`Report`]), tells whether a change between
//! two revisions breaks callers ([`diff`], with witnesses), and, with the
//! `derive` feature (on by default), turns a contract into Rust types with
//! [`macro@contract`]. The `cargo protocolarc` command-line tool is built on it.
//!
//! # Quickstart
//!
//! ```toml
//! [dependencies]
//! protocolarc = { git = "https://github.com/protocolarc/protocolarc", tag = "v0.1.0" }
//! ```
//!
//! Load a contract ([`ContractSpec::from_path`], or [`ContractSpec::from_slice`]
//! for bytes you hold), validate a body, read the findings:
//!
//! ```
//! use protocolarc::ContractSpec;
//!
//! let contract = ContractSpec::from_slice(br#"{
//!     "name": "demo.ping", "revision": "1.0.0",
//!     "fields": [ { "name": "seq", "type": "integer", "minimum": 0 } ] }"#, "demo.json").unwrap();
//! let report = contract.validate_json(br#"{"seq": -1}"#);
//! assert!(!report.is_valid());
//! assert_eq!(report.findings()[0].to_string(), "ERROR field.minimum seq: value -1 is less than minimum 0");
//! assert!(contract.validate_json(br#"{"seq": 7}"#).is_valid());
//! ```
//!
//! Compare two revisions: a lowered maximum breaks a caller that sent the old
//! maximum, and the witness is such a body.
//!
//! ```
//! use protocolarc::ContractSpec;
//!
//! let contract = |revision: &str, maximum: u32| {
//!     let text = format!(r#"{{"name": "demo.search", "revision": "{revision}",
//!         "fields": [ {{ "name": "limit", "type": "integer", "maximum": {maximum} }} ] }}"#);
//!     ContractSpec::from_slice(text.as_bytes(), "demo.json").unwrap()
//! };
//! let d = protocolarc::diff::diff(&contract("1.0.0", 50), &contract("2.0.0", 20)).unwrap();
//! let change = &d.changes()[0];
//! assert_eq!((change.rule(), change.field()), ("field.maximum.tightened", "limit"));
//! ```
//!
//! Typed Rust: `#[protocolarc::contract("contracts/tool_1.0.0.json")] pub struct
//! Tool;` generates `Tool` (and one type per nested object), implementing
//! [`Contract`]: `Tool::from_json(bytes)` validates and parses, `to_json`
//! writes back. See [`macro@contract`] for both forms.
//!
//! This crate is the facade users and generated code depend on: it
//! re-exports the engine (`protocolarc-core`) and the macro
//! (`protocolarc-derive`), and adds the layers over many contracts:
//! [`catalog`](mod@catalog), [`matrix`] and [`traffic`]. The bridges to other formats
//! (JSON Schema import and export, the protocol catalogs' generation, loss
//! across vendors) are `protocolarc-interop`; the output renderers live in
//! the CLI. `ARCHITECTURE.md` in the repository maps the code; the guides in
//! its `docs/` describe each command.

#![deny(missing_docs)]

pub mod catalog;
pub mod matrix;
pub mod traffic;
pub mod typed;

#[cfg(feature = "codegen")]
pub use protocolarc_core::codegen;
#[doc(hidden)]
pub use protocolarc_core::fast;
#[doc(hidden)]
pub use protocolarc_core::io_reason;
/// Free text made safe for one output line: control and bidi characters escaped.
pub use protocolarc_core::one_line;
pub use protocolarc_core::{chain, contract, diff, envelope, input, lock, report, rules, suggest};
pub use protocolarc_core::{
    line_col, ContractDirection, ContractError, ContractSpec, Envelope, FieldSpec, Finding, InputError, JsonType,
    Report, Severity, TypeSet, DATA_FIELD, ENVELOPE_FIELD, MAX_DEPTH,
};

pub use catalog::{Catalog, CatalogError};
/// Typed protocol modules: one protocol revision's messages as Rust types,
/// one type per message (implementing [`Contract`] for its contract) and one
/// per `$defs` definition, shared by every message that uses it.
///
/// ```
/// use protocolarc::Contract;
///
/// #[protocolarc::catalog("mcp@2025-11-25")]
/// pub mod mcp {}
///
/// let body = br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
///                 "params": {"name": "search", "arguments": {"q": "rust"}}}"#;
/// let call = mcp::ToolsCallRequest::from_json(body).unwrap();
/// assert_eq!(call.id, mcp::RequestId::Integer(7.into()));
/// assert_eq!(call.params.name, "search");
///
/// let result = br#"{"content": [{"type": "text", "text": "found"}]}"#;
/// let result = mcp::ToolsCallResponse::from_json(result).unwrap();
/// assert!(matches!(&result.content[0], mcp::ContentBlock::Text(t) if t.text == "found"));
/// assert!(mcp::ToolsCallResponse::from_json(br#"{"content": 3}"#).is_err());
/// ```
///
/// `catalog(dir = "contracts")` makes the same module from a directory of
/// your own contracts (relative to `CARGO_MANIFEST_DIR`), and the
/// `rename(Old = New)`, `replace(Definition = path::To)` and
/// `derives(Trait, ...)` options work as on [`macro@contract`]:
///
/// ```
/// /// Request ids as this program keeps them.
/// #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
/// #[serde(untagged)]
/// pub enum MyId { Text(String), Number(i64) }
///
/// #[protocolarc::catalog("mcp@2025-11-25", replace(RequestId = super::MyId), rename(Role = Speaker))]
/// pub mod mcp {}
///
/// fn main() {
///     let ping: mcp::PingRequest =
///         protocolarc::Contract::from_json(br#"{"jsonrpc": "2.0", "id": "a", "method": "ping"}"#).unwrap();
///     assert_eq!(ping.id, MyId::Text("a".into()));
///     assert_eq!(serde_json::to_string(&mcp::Speaker::Assistant).unwrap(), r#""assistant""#);
/// }
/// ```
#[cfg(feature = "derive")]
pub use protocolarc_derive::catalog;
/// `#[protocolarc::contract("path.json")] pub struct Name;`: Rust types and a
/// compiled validator from a contract file.
///
/// The path is relative to the crate's `CARGO_MANIFEST_DIR` (the examples
/// below read contracts of this repository, beside the `protocolarc` crate).
/// The contract is compiled in with `include_str!`, so editing it rebuilds the
/// crate; a bad contract is a compile error naming the file, the JSON position
/// and the problem.
///
/// # Fields form
///
/// One struct per object level, optional fields as `Option`, string enums as
/// Rust enums, several types as an untagged enum:
///
/// ```
/// use protocolarc::Contract;
///
/// #[protocolarc::contract("../contracts/mcp_tool_call_1.0.0.json")]
/// pub struct ToolCall;
///
/// let body = br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
///                 "params": {"name": "get_weather", "arguments": {"city": "Lisbon"}}}"#;
/// let call = ToolCall::from_json(body).unwrap();
/// assert_eq!(call.method, ToolCallMethod::ToolsCall);
/// assert_eq!(call.params.name, "get_weather");
/// assert_eq!((ToolCall::NAME, ToolCall::REVISION), ("mcp.tool_call", "1.0.0"));
///
/// // A body the contract rejects is an error carrying the findings.
/// let report = ToolCall::from_json(br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/list",
///                                       "params": {"name": "x"}}"#).unwrap_err();
/// assert_eq!(report.to_string(), "ERROR field.enum method: value 'tools/list' not in {'tools/call'}");
/// ```
///
/// With `compatible_with = "older.json"`, compilation fails when the change
/// from that revision is breaking without a major version bump, naming each
/// breaking change:
///
/// ```
/// #[protocolarc::contract(
///     "../contracts/mcp_tool_call_2.0.0.json",
///     compatible_with = "../contracts/mcp_tool_call_1.1.0.json"
/// )]
/// pub struct ToolCall;
/// ```
///
/// # Schema form
///
/// A JSON Schema contract gives one type per `$defs` entry, tagged unions as
/// enums named by their tags, maps as `BTreeMap`, recursion through `Box`:
///
/// ```
/// use protocolarc::Contract;
///
/// #[protocolarc::contract("../tests/data/contracts/mcp/call_tool_result_2025.6.18.json")]
/// pub struct CallToolResult;
///
/// let body = br#"{"content": [{"type": "text", "text": "hi"},
///                 {"type": "resource_link", "uri": "file:///a.rs", "name": "a.rs"}]}"#;
/// let result = CallToolResult::from_json(body).unwrap();
/// match &result.content[0] {
///     ContentBlock::Text(t) => assert_eq!(t.text, "hi"),
///     other => panic!("{other:?}"),
/// }
/// assert!(matches!(&result.content[1], ContentBlock::ResourceLink(l) if l.name == "a.rs"));
/// ```
///
/// # Options
///
/// `rename(Old = New)` renames a generated type, `replace(Definition =
/// path::To)` puts your own type wherever a `$defs` entry is used, and
/// `derives(Trait, ...)` adds derives to every generated type:
///
/// ```
/// use protocolarc::Contract;
///
/// /// A SKU as this program keeps it.
/// #[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
/// pub struct Sku(pub String);
///
/// #[protocolarc::contract(
///     "../tests/data/catalog/contracts/shop_order_1.0.0.json",
///     rename(Currency = Money),
///     replace(Sku = Sku),
///     derives(Eq, Hash)
/// )]
/// pub struct Order;
///
/// let order = Order::from_json(br#"{"sku": "ABC-1", "price": {"amount": 5, "currency": "EUR"}}"#).unwrap();
/// assert_eq!((order.sku.0.as_str(), &order.price.currency), ("ABC-1", &Money::EUR));
/// let unique: std::collections::HashSet<Order> = [order.clone(), order].into_iter().collect();
/// assert_eq!(unique.len(), 1);
/// ```
///
/// A whole protocol revision, every message and definition in one module, is
/// [`macro@catalog`]'s: `#[protocolarc::catalog("mcp@2025-11-25")] pub mod mcp {}`.
#[cfg(feature = "derive")]
pub use protocolarc_derive::contract;
/// The JSON values generated types hold (open fields, maps of undeclared
/// keys, numbers), re-exported so a user needs no `serde_json` of their own.
pub use serde_json::{Map, Number, Value};
#[doc(hidden)]
pub use typed::__private;
pub use typed::Contract;
