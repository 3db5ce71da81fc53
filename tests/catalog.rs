//! Typed protocol modules: `#[protocolarc::catalog]` over whole bundled
//! catalogs (MCP 2025-11-25, A2A 1.0.1) compiles with no clash, names its
//! types after the definitions, shares each definition between messages,
//! and parses every example message of the specification; `catalog(dir =
//! ...)` and the `rename`, `replace` and `derives` options on both macros.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use protocolarc::{Contract, Report};
use serde_json::Value;

#[protocolarc::catalog("mcp@2025-11-25")]
pub mod mcp {}

#[protocolarc::catalog("a2a@1.0.1")]
pub mod a2a {}

/// A SKU as this program keeps it: `replace` puts it in place of `Sku`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MySku(pub String);

#[protocolarc::catalog(
    dir = "data/catalog/contracts",
    rename(Currency = Money),
    replace(Sku = super::MySku),
    derives(Eq, Hash)
)]
pub mod shop {}

/// The schema-form contract attribute takes the same options.
#[protocolarc::contract(
    "data/catalog/contracts/shop_order_1.0.0.json",
    rename(Currency = OrderCurrency),
    replace(Sku = MySku),
    derives(Eq, Hash)
)]
pub struct Order;

/// Contract name -> (parse and write back, the loaded contract) for every
/// message type.
type Table = BTreeMap<&'static str, (Parse, fn() -> &'static protocolarc::ContractSpec)>;
type Parse = fn(&[u8]) -> Result<Vec<u8>, Report>;

macro_rules! table {
    ($module:ident: $($ty:ident),* $(,)?) => {{
        let mut t: Table = BTreeMap::new();
        $( t.insert(
            <$module::$ty as Contract>::NAME,
            (|b| <$module::$ty as Contract>::from_json(b).map(|v| v.to_json()), <$module::$ty as Contract>::spec),
        ); )*
        t
    }};
}

fn mcp_table() -> Table {
    table!(mcp: CompletionCompleteRequest, CompletionCompleteResponse, ElicitationCreateRequest,
        ElicitationCreateResponse, ErrorResponse, InitializeRequest, InitializeResponse, LoggingSetLevelRequest,
        LoggingSetLevelResponse, NotificationsCancelledRequest, NotificationsElicitationCompleteRequest,
        NotificationsInitializedRequest, NotificationsMessageRequest, NotificationsProgressRequest,
        NotificationsPromptsListChangedRequest, NotificationsResourcesListChangedRequest,
        NotificationsResourcesUpdatedRequest, NotificationsRootsListChangedRequest, NotificationsTasksStatusRequest,
        NotificationsToolsListChangedRequest, PingRequest, PingResponse, PromptsGetRequest, PromptsGetResponse,
        PromptsListRequest, PromptsListResponse, ResourcesListRequest, ResourcesListResponse, ResourcesReadRequest,
        ResourcesReadResponse, ResourcesSubscribeRequest, ResourcesSubscribeResponse, ResourcesTemplatesListRequest,
        ResourcesTemplatesListResponse, ResourcesUnsubscribeRequest, ResourcesUnsubscribeResponse, RootsListRequest,
        RootsListResponse, SamplingCreateMessageRequest, SamplingCreateMessageResponse, TasksCancelRequest,
        TasksCancelResponse, TasksGetRequest, TasksGetResponse, TasksListRequest, TasksListResponse,
        TasksResultRequest, TasksResultResponse, ToolsCallRequest, ToolsCallResponse, ToolsListRequest,
        ToolsListResponse)
}

fn a2a_table() -> Table {
    table!(a2a: AgentCard, CancelTaskRequest, CancelTaskResponse, CreateTaskPushNotificationConfigRequest,
        CreateTaskPushNotificationConfigResponse, DeleteTaskPushNotificationConfigRequest,
        DeleteTaskPushNotificationConfigResponse, ErrorResponse, GetExtendedAgentCardRequest,
        GetExtendedAgentCardResponse, GetTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigResponse,
        GetTaskRequest, GetTaskResponse, ListTaskPushNotificationConfigsRequest,
        ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, SendMessageRequest,
        SendMessageResponse, SendStreamingMessageRequest, SendStreamingMessageResponse, SubscribeToTaskRequest,
        SubscribeToTaskResponse)
}

/// Where a JSON-RPC message goes: its contract and the body that contract
/// judges (a request, notification or error whole; a result alone). A
/// result pairs with the latest request of that id earlier in `pending`.
fn route(protocol: &str, message: &Value, pending: &mut BTreeMap<String, String>) -> Option<(String, Vec<u8>)> {
    let id = message.get("id").map(Value::to_string).unwrap_or_default();
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        if message.get("id").is_some() {
            pending.insert(id, method.to_string());
        }
        return Some((format!("{protocol}.{method}.request"), serde_json::to_vec(message).unwrap()));
    }
    if message.get("error").is_some() {
        return Some((format!("{protocol}.error.response"), serde_json::to_vec(message).unwrap()));
    }
    let method = pending.get(&id)?;
    Some((format!("{protocol}.{method}.response"), serde_json::to_vec(&message["result"]).unwrap()))
}

/// Parses the body typed, writes it back, and checks the round trip and the
/// runtime's verdict agree.
fn typed_round_trip(table: &Table, contract: &str, body: &[u8], label: &str) -> Result<(), String> {
    let (parse, spec) = table.get(contract).ok_or_else(|| format!("{label}: no type for {contract}"))?;
    let runtime = spec().validate_json(body);
    match parse(body) {
        Ok(back) => {
            let (a, b): (Value, Value) =
                (serde_json::from_slice(body).unwrap(), serde_json::from_slice(&back).unwrap());
            assert_eq!(a, b, "{label}: the round trip through the typed value changed the body");
            assert!(runtime.is_valid(), "{label}: typed Ok, runtime {runtime}");
            Ok(())
        }
        Err(report) => {
            assert!(!runtime.is_valid(), "{label}: typed Err, runtime valid: {report}");
            Err(format!("{label} ({contract}): {report}"))
        }
    }
}

/// Every JSON-RPC message of the MCP 2025-11-25 specification's documents
/// (76, copied from the anchors with their file and line) parses into the
/// typed module, validates, and writes back unchanged, but for the two that
/// are no message of the catalog: the 38 requests and notifications, the 11
/// errors, and the 27 results, each paired with its request (same id, same
/// document, earlier), which says the method it answers.
#[test]
fn every_mcp_2025_11_25_doc_message_parses_into_the_typed_module() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("data/catalog/mcp-spec-docs-2025-11-25.jsonl"),
    )
    .unwrap();
    let table = mcp_table();
    assert_eq!(table.len(), 52, "every message of the catalog has a type");
    let (mut judged, mut unpaired, mut failures) = (0, Vec::new(), Vec::new());
    let mut pending: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let records: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 76);
    for r in &records {
        let label = format!("{}:{}", r["path"].as_str().unwrap(), r["line"]);
        let doc = pending.entry(r["path"].as_str().unwrap().to_string()).or_default();
        // The tools page shows two `tools/call` results without their request.
        if ["server/tools.mdx:383", "server/tools.mdx:494"].iter().any(|l| label.ends_with(l)) {
            doc.insert(r["message"]["id"].to_string(), "tools/call".to_string());
        }
        let Some((contract, body)) = route("mcp", &r["message"], doc) else {
            unpaired.push(label);
            continue;
        };
        judged += 1;
        if let Err(e) = typed_round_trip(&table, &contract, &body, &label) {
            failures.push(e);
        }
    }
    // Two doc examples are not messages of the catalog: a generic request
    // for a made-up method, and the answer to a task-augmented `tools/call`
    // (a `CreateTaskResult`, where the method's own result is a
    // `CallToolResult`): the typed parse refuses them as the runtime does.
    assert_eq!(
        failures,
        [
            "docs/specification/2025-11-25/basic/utilities/progress.mdx:20: no type for mcp.some_method.request",
            "docs/specification/2025-11-25/basic/utilities/tasks.mdx:151 (mcp.tools/call.response): ERROR field.required content: required field is missing",
        ]
    );
    assert_eq!(unpaired, Vec::<String>::new(), "results without their request");
    assert_eq!(judged, 76);
}

/// The A2A 1.0 captures of the traffic tests (`tests/data/traffic`, an
/// agent card, requests, streamed events and errors): each message's typed
/// verdict is the runtime validator's, and the valid ones round-trip.
#[test]
fn a2a_1_0_captures_parse_into_the_typed_module() {
    let table = a2a_table();
    assert_eq!(table.len(), 24);
    let (mut valid, mut invalid) = (0, Vec::new());
    for file in ["a2a-stream-v1.0.jsonl", "a2a-card-v1.0.0-then-messages.jsonl"] {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/traffic").join(file)).unwrap();
        let mut pending = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let label = format!("{file}:{}", i + 1);
            let message: Value = serde_json::from_str(line).unwrap();
            let (contract, body) = if message.get("jsonrpc").is_none() {
                ("a2a.agent_card".to_string(), line.as_bytes().to_vec())
            } else if message.get("error").is_none()
                && message.get("method").is_none()
                && !pending.contains_key(&message["id"].to_string())
            {
                panic!("{label}: a result with no request");
            } else {
                route("a2a", &message, &mut pending).unwrap()
            };
            // The runtime's verdict is asserted equal inside.
            let typed = typed_round_trip(&table, &contract, &body, &label);
            match typed {
                Ok(()) => valid += 1,
                Err(e) => invalid.push(e),
            }
        }
    }
    assert_eq!(valid, 13);
    // The capture's one bad event, refused typed as by the runtime.
    assert_eq!(invalid.len(), 1);
    assert!(invalid[0].starts_with("a2a-stream-v1.0.jsonl:5 (a2a.SendStreamingMessage.response): ERROR field.enum statusUpdate.status.state: value 'done' not in"), "{invalid:?}");
}

/// One type per definition, named after it, shared by every message that
/// uses it; scalar unions and string enums are enums.
#[test]
fn definitions_are_shared_named_types() {
    let call = mcp::ToolsCallRequest::from_json(
        br#"{"jsonrpc": "2.0", "id": "c1", "method": "tools/call", "params": {"name": "add"}}"#,
    )
    .unwrap();
    // The same `RequestId` in every request: an enum of its two types.
    let ids: Vec<&mcp::RequestId> = vec![&call.id];
    let ping = mcp::PingRequest::from_json(br#"{"jsonrpc": "2.0", "id": 9, "method": "ping"}"#).unwrap();
    let ids: Vec<&mcp::RequestId> = ids.into_iter().chain([&ping.id]).collect();
    let shown: Vec<String> = ids
        .iter()
        .map(|id| match id {
            mcp::RequestId::String(s) => format!("string {s}"),
            mcp::RequestId::Integer(n) => format!("integer {n}"),
        })
        .collect();
    assert_eq!(shown, ["string c1", "integer 9"]);
    // `Icon` of `Implementation` (initialize) and of `Tool` (tools/list) is one type.
    let init = mcp::InitializeResponse::from_json(
        br#"{"protocolVersion": "2025-11-25", "capabilities": {},
             "serverInfo": {"name": "s", "version": "1", "icons": [{"src": "https://x/i.png"}]}}"#,
    )
    .unwrap();
    let list = mcp::ToolsListResponse::from_json(
        br#"{"tools": [{"name": "t", "inputSchema": {"type": "object"}, "icons": [{"src": "https://x/t.png", "theme": "dark"}]}]}"#,
    )
    .unwrap();
    let mut icons: Vec<mcp::Icon> = init.server_info.icons.unwrap();
    icons.extend(list.tools[0].icons.clone().unwrap());
    assert_eq!(icons[1].theme, Some(mcp::IconTheme::Dark));
    // A string enum under `$defs` is a Rust enum.
    let roles = [mcp::Role::User, mcp::Role::Assistant];
    assert_eq!(serde_json::to_string(&roles).unwrap(), r#"["user","assistant"]"#);
    let level = mcp::LoggingSetLevelRequest::from_json(
        br#"{"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "warning"}}"#,
    )
    .unwrap();
    assert_eq!(level.params.level, mcp::LoggingLevel::Warning);
    // The union of `TextResourceContents` and `BlobResourceContents` is named
    // for what they share, once, for both the embedded resource and resources/read.
    let read = mcp::ResourcesReadResponse::from_json(br#"{"contents": [{"uri": "file:///a", "text": "x"}]}"#).unwrap();
    let embedded = mcp::EmbeddedResource {
        resource: read.contents[0].clone(),
        annotations: None,
        meta: None,
        unknown_fields: Default::default(),
    };
    assert!(matches!(embedded.resource, mcp::ResourceContents::TextResourceContents(ref t) if t.text == "x"));
    // Tagged unions stay tagged.
    let result = mcp::ToolsCallResponse::from_json(br#"{"content": [{"type": "text", "text": "3"}]}"#).unwrap();
    assert!(matches!(&result.content[0], mcp::ContentBlock::Text(t) if t.text == "3"));
}

/// `catalog(dir = ...)`: the two contracts share `Price`; `rename`,
/// `replace` and `derives` apply to the whole module.
#[test]
fn a_directory_module_with_options() {
    let order = shop::Order::from_json(br#"{"sku": "ABC-1", "price": {"amount": 5, "currency": "EUR"}}"#).unwrap();
    assert_eq!(order.sku, MySku("ABC-1".into()));
    let refund = shop::Refund::from_json(br#"{"price": {"amount": 5, "currency": "EUR"}, "reason": "late"}"#).unwrap();
    // One `Price` type for both messages, hashable through `derives(Eq, Hash)`.
    let prices: HashSet<shop::Price> = [order.price.clone(), refund.price.clone()].into_iter().collect();
    assert_eq!(prices.len(), 1);
    assert_eq!(refund.price.currency, shop::Money::EUR);
    assert_eq!(<shop::Order as Contract>::NAME, "shop.order");
    let bad = shop::Order::from_json(br#"{"sku": "abc", "price": {"amount": 5, "currency": "EUR"}}"#).unwrap_err();
    assert_eq!(bad.findings()[0].rule(), "field.pattern", "{bad}");
}

/// The contract attribute's `rename`, `replace` and `derives`.
#[test]
fn the_contract_attribute_takes_the_options() {
    let order = Order::from_json(br#"{"sku": "ABC-1", "price": {"amount": 5, "currency": "USD"}}"#).unwrap();
    assert_eq!(order.sku, MySku("ABC-1".into()));
    assert_eq!(order.price.currency, OrderCurrency::USD);
    let set: HashSet<Order> = [order.clone(), order].into_iter().collect();
    assert_eq!(set.len(), 1);
}

fn tree(dir: &Path, under: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            tree(&path, under, out);
        } else {
            out.insert(path.strip_prefix(under).unwrap().display().to_string(), std::fs::read(&path).unwrap());
        }
    }
}

/// The macro's bundled copy (`protocolarc-derive/catalog/`, packaged with
/// the crate so a user's build needs no checkout) is `protocols/mcp` and
/// `protocols/a2a`, byte for byte.
#[test]
fn the_macro_bundles_the_generated_catalogs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (mut bundled, mut generated) = (BTreeMap::new(), BTreeMap::new());
    tree(&root.join("protocolarc-derive/catalog"), &root.join("protocolarc-derive/catalog"), &mut bundled);
    for protocol in ["mcp", "a2a"] {
        tree(&root.join("protocols").join(protocol), &root.join("protocols"), &mut generated);
    }
    assert!(generated.len() > 250 && generated.contains_key("mcp/2025-11-25/mcp_tools_call_request.json"));
    assert_eq!(bundled.keys().collect::<Vec<_>>(), generated.keys().collect::<Vec<_>>());
    for (path, bytes) in &generated {
        assert!(bundled[path] == *bytes, "protocolarc-derive/catalog/{path} is not protocols/{path}: copy it again");
    }
}

/// The example of `docs/typed-rust.md`, compiled here: the page shows the
/// lines between the markers.
mod docs_example {
    // docs:begin
    use protocolarc::Contract;

    /// MCP 2025-11-25: every message and every definition, once.
    #[protocolarc::catalog("mcp@2025-11-25")]
    pub mod mcp {}

    pub fn describe(request: &[u8], result: &[u8]) -> Result<String, protocolarc::Report> {
        let call = mcp::ToolsCallRequest::from_json(request)?; // Err(report) when the validator finds an error
        let id = match &call.id {
            mcp::RequestId::String(s) => s.clone(), // `string | integer` is an enum
            mcp::RequestId::Integer(n) => n.to_string(),
        };
        let result = mcp::ToolsCallResponse::from_json(result)?;
        let texts: Vec<&str> = result
            .content
            .iter()
            .filter_map(|block| match block {
                mcp::ContentBlock::Text(t) => Some(t.text.as_str()), // a tagged union is an enum
                _ => None,
            })
            .collect();
        Ok(format!("{} ({id}): {}", call.params.name, texts.join(" ")))
    }
    // docs:end
}

#[test]
fn the_guide_shows_the_compiled_catalog_example() {
    let request = br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_weather"}}"#;
    let result = br#"{"content": [{"type": "text", "text": "22.5 C"}, {"type": "image", "data": "AA==", "mimeType": "image/png"}]}"#;
    assert_eq!(docs_example::describe(request, result).unwrap(), "get_weather (7): 22.5 C");
    let bad = docs_example::describe(br#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call"}"#, result).unwrap_err();
    assert_eq!(bad.findings()[0].to_string(), "ERROR field.required params: required field is missing");
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog.rs")).unwrap();
    let start = source.find("    // docs:begin\n").unwrap() + "    // docs:begin\n".len();
    let end = source.find("    // docs:end").unwrap();
    let shown: String =
        source[start..end].lines().map(|l| l.strip_prefix("    ").unwrap_or(l)).map(|l| format!("{l}\n")).collect();
    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/typed-rust.md")).unwrap();
    assert!(
        guide.contains(&format!("```rust\n{shown}```")),
        "docs/typed-rust.md's catalog example is not the compiled one:\n{shown}"
    );
}
