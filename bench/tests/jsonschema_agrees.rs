//! The benchmark compares the runtime validator with the `jsonschema` crate
//! on hand-translated schemas (`bench/schemas/`), both its run-time and its
//! compile-time (`#[jsonschema::validator]`) validators. The comparison is
//! fair only if all accept and reject the same bodies: this checks the
//! verdicts, and the expected one, on the benchmark bodies and on one
//! mutation per constraint of each contract.

use protocolarc::Contract;
use protocolarc_bench::typed::real::call_tool_result::CallToolResult;
use protocolarc_bench::typed::real::message::Message;
use protocolarc_bench::{
    a2a_message, contract, json_schema, large_sampling, mcp_call_tool_result, real_contract, real_schema, schema,
    small_task_send, small_tool_call, A2A_MESSAGE, MCP_CALL_TOOL_RESULT,
};
use serde_json::{json, Value};

/// A named mutation of the base body and the verdict it should get.
type Case = (&'static str, bool, fn(&mut Value));

fn agree(stem: &str, compiled: fn(&Value) -> bool, base: Value, cases: &[Case]) {
    let spec = contract(stem);
    let validator = jsonschema::validator_for(&json_schema(stem)).expect("schema compiles");
    for (name, expected, mutate) in cases {
        let mut body = base.clone();
        mutate(&mut body);
        let bytes = serde_json::to_vec(&body).expect("serialise");
        let ours = spec.validate_json(&bytes).is_valid();
        let theirs = (validator.is_valid(&body), compiled(&body));
        let want = (*expected, (*expected, *expected));
        assert_eq!((ours, theirs), want, "{stem}: {name}: (protocolarc, (jsonschema, compiled jsonschema))");
    }
}

#[test]
fn tool_call_schema_agrees_with_the_contract() {
    let base: Value = serde_json::from_slice(&small_tool_call()).expect("json");
    agree(
        "mcp_tool_call_1.1.0",
        schema::ToolCall::is_valid,
        base,
        &[
            ("the benchmark body", true, |_| {}),
            ("wrong jsonrpc", false, |b| b["jsonrpc"] = json!("1.0")),
            ("integer id", true, |b| b["id"] = json!(7)),
            ("fractional id", false, |b| b["id"] = json!(7.5)),
            ("missing id", false, |b| drop(b.as_object_mut().unwrap().remove("id"))),
            ("wrong method", false, |b| b["method"] = json!("tools/list")),
            ("params not an object", false, |b| b["params"] = json!([])),
            ("missing params", false, |b| drop(b.as_object_mut().unwrap().remove("params"))),
            ("missing params.name", false, |b| drop(b["params"].as_object_mut().unwrap().remove("name"))),
            ("arguments not an object", false, |b| b["params"]["arguments"] = json!("x")),
            ("no arguments", true, |b| drop(b["params"].as_object_mut().unwrap().remove("arguments"))),
            ("integer timeout", true, |b| b["params"]["timeout_ms"] = json!(500)),
            ("string timeout", false, |b| b["params"]["timeout_ms"] = json!("500")),
            ("undeclared key", true, |b| b["extra"] = json!({"a": 1})),
        ],
    );
}

#[test]
fn task_send_schema_agrees_with_the_contract() {
    let base: Value = serde_json::from_slice(&small_task_send()).expect("json");
    agree(
        "a2a_task_send_1.0.0",
        schema::TaskSend::is_valid,
        base,
        &[
            ("the benchmark body", true, |_| {}),
            ("undeclared key: strict warns, still valid", true, |b| b["extra"] = json!(1)),
            ("missing task_id", false, |b| drop(b.as_object_mut().unwrap().remove("task_id"))),
            ("numeric task_id", false, |b| b["task_id"] = json!(1)),
            ("bad role", false, |b| b["role"] = json!("system")),
            ("agent role", true, |b| b["role"] = json!("agent")),
            ("parts not an array", false, |b| b["parts"] = json!({})),
            ("empty parts", true, |b| b["parts"] = json!([])),
            ("no session_id", true, |b| drop(b.as_object_mut().unwrap().remove("session_id"))),
            ("null session_id", false, |b| b["session_id"] = Value::Null),
        ],
    );
    let report =
        contract("a2a_task_send_1.0.0").validate_json(br#"{"task_id": "t", "role": "user", "parts": [], "extra": 1}"#);
    let found: Vec<_> = report.findings().iter().map(|f| (f.severity().as_str(), f.rule(), f.field())).collect();
    assert_eq!(found, [("warning", "field.unknown", "extra")]);
}

#[test]
fn sampling_schema_agrees_with_the_contract() {
    let base: Value = serde_json::from_slice(&large_sampling()).expect("json");
    agree(
        "mcp_sampling_create_message_1.0.0",
        schema::SamplingCreateMessage::is_valid,
        base,
        &[
            ("the benchmark body", true, |_| {}),
            ("no messages", false, |b| b["params"]["messages"] = json!([])),
            ("65 messages", false, |b| {
                let m = b["params"]["messages"][0].clone();
                b["params"]["messages"] = Value::Array(vec![m; 65]);
            }),
            ("bad role", false, |b| b["params"]["messages"][3]["role"] = json!("system")),
            ("missing content", false, |b| drop(b["params"]["messages"][1].as_object_mut().unwrap().remove("content"))),
            ("bad content type", false, |b| b["params"]["messages"][2]["content"]["type"] = json!("video")),
            ("text not a string", false, |b| b["params"]["messages"][2]["content"]["text"] = json!(1)),
            ("zero maxTokens", false, |b| b["params"]["maxTokens"] = json!(0)),
            ("maxTokens at maximum", true, |b| b["params"]["maxTokens"] = json!(200000)),
            ("maxTokens above maximum", false, |b| b["params"]["maxTokens"] = json!(200001)),
            ("temperature 2", false, |b| b["params"]["temperature"] = json!(2)),
            ("temperature 1.99", true, |b| b["params"]["temperature"] = json!(1.99)),
            ("temperature 0.005", false, |b| b["params"]["temperature"] = json!(0.005)),
            ("negative temperature", false, |b| b["params"]["temperature"] = json!(-0.1)),
            ("five stop sequences", false, |b| b["params"]["stopSequences"] = json!(["a", "b", "c", "d", "e"])),
            ("repeated stop sequence", false, |b| b["params"]["stopSequences"] = json!(["a", "a"])),
            ("empty stop sequence", false, |b| b["params"]["stopSequences"] = json!([""])),
            ("costPriority above 1", false, |b| b["params"]["modelPreferences"]["costPriority"] = json!(1.5)),
            ("long hint name", false, |b| b["params"]["modelPreferences"]["hints"][0]["name"] = json!("x".repeat(65))),
            ("hint name of 64 chars", true, |b| {
                b["params"]["modelPreferences"]["hints"][0]["name"] = json!("é".repeat(64))
            }),
            ("bad includeContext", false, |b| b["params"]["includeContext"] = json!("everything")),
            ("null systemPrompt", true, |b| b["params"]["systemPrompt"] = Value::Null),
            ("numeric systemPrompt", false, |b| b["params"]["systemPrompt"] = json!(3)),
            ("metadata not an object", false, |b| b["params"]["metadata"] = json!([1])),
            ("no modelPreferences", true, |b| drop(b["params"].as_object_mut().unwrap().remove("modelPreferences"))),
        ],
    );
}

/// The typed parse the benchmark times accepts the benchmark bodies.
#[test]
fn typed_forms_parse_the_benchmark_bodies() {
    use protocolarc_bench::typed::{SamplingCreateMessage, TaskSend, ToolCall};
    let call = ToolCall::from_json(&small_tool_call()).expect("valid");
    assert_eq!(call.params.name, "search_docs");
    let task = TaskSend::from_json(&small_task_send()).expect("valid");
    assert_eq!(task.parts.len(), 2);
    let sampling = SamplingCreateMessage::from_json(&large_sampling()).expect("valid");
    assert_eq!(sampling.params.messages.len(), 60);
    let result = CallToolResult::from_json(&mcp_call_tool_result()).expect("valid");
    assert_eq!(result.content.len(), 21);
    let message = Message::from_json(&a2a_message()).expect("valid");
    assert_eq!(message.parts.len(), 20);
}

/// For the imported schema-form contracts: the contract (runtime and typed
/// parse), `jsonschema` on the contract's own `schema` with formats, and the
/// compile-time validator on its extract (`bench/schemas/`, checked equal)
/// give the expected verdict.
fn agree_imported<T: Contract>(rel: &str, stem: &str, compiled: fn(&Value) -> bool, base: Value, cases: &[Case]) {
    let own = real_schema(rel);
    assert_eq!(json_schema(stem), own, "bench/schemas/{stem} must be the contract's schema");
    let spec = real_contract(rel);
    let validator = jsonschema::options().should_validate_formats(true).build(&own).expect("schema compiles");
    for (name, expected, mutate) in cases {
        let mut body = base.clone();
        mutate(&mut body);
        let bytes = serde_json::to_vec(&body).expect("serialise");
        let ours = (spec.validate_json(&bytes).is_valid(), T::from_json(&bytes).is_ok());
        let theirs = (validator.is_valid(&body), compiled(&body));
        let want = ((*expected, *expected), (*expected, *expected));
        assert_eq!((ours, theirs), want, "{rel}: {name}: ((runtime, typed), (jsonschema, compiled jsonschema))");
    }
}

#[test]
fn call_tool_result_schema_agrees_with_the_contract() {
    let base: Value = serde_json::from_slice(&mcp_call_tool_result()).expect("json");
    agree_imported::<CallToolResult>(
        MCP_CALL_TOOL_RESULT,
        "mcp_call_tool_result_2025.6.18",
        schema::CallToolResult::is_valid,
        base.clone(),
        &[
            ("the benchmark body", true, |_| {}),
            ("unknown content type", false, |b| b["content"][0]["type"] = json!("video")),
            ("text block without text", false, |b| drop(b["content"][0].as_object_mut().unwrap().remove("text"))),
            ("priority above 1", false, |b| b["content"][1]["annotations"]["priority"] = json!(1.5)),
            ("audience not a role", false, |b| b["content"][1]["annotations"]["audience"] = json!(["robot"])),
            ("image without mimeType", false, |b| drop(b["content"][1].as_object_mut().unwrap().remove("mimeType"))),
            ("resource link uri not a URI", false, |b| b["content"][3]["uri"] = json!("not a uri")),
            ("resource without text or blob", false, |b| {
                drop(b["content"][4]["resource"].as_object_mut().unwrap().remove("text"))
            }),
            ("structuredContent an array", false, |b| b["structuredContent"] = json!([])),
            ("isError a string", false, |b| b["isError"] = json!("no")),
            ("no content", false, |b| drop(b.as_object_mut().unwrap().remove("content"))),
            ("undeclared keys", true, |b| b["content"][0]["extra"] = json!({"a": 1})),
        ],
    );
    // The one known difference: ProtocolArc asserts the `byte` format
    // (base64); `jsonschema` does not know it and lets it pass.
    let mut body = base;
    body["content"][1]["data"] = json!("not base64!");
    let bytes = serde_json::to_vec(&body).expect("serialise");
    assert!(!real_contract(MCP_CALL_TOOL_RESULT).validate_json(&bytes).is_valid());
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&real_schema(MCP_CALL_TOOL_RESULT))
        .expect("schema compiles");
    assert!(validator.is_valid(&body) && schema::CallToolResult::is_valid(&body));
}

#[test]
fn message_schema_agrees_with_the_contract() {
    let base: Value = serde_json::from_slice(&a2a_message()).expect("json");
    agree_imported::<Message>(
        A2A_MESSAGE,
        "a2a_message_0.3.0",
        schema::Message::is_valid,
        base,
        &[
            ("the benchmark body", true, |_| {}),
            ("unknown part kind", false, |b| b["parts"][0]["kind"] = json!("video")),
            ("file with neither bytes nor uri", false, |b| {
                drop(b["parts"][1]["file"].as_object_mut().unwrap().remove("bytes"))
            }),
            ("data not an object", false, |b| b["parts"][3]["data"] = json!([1])),
            ("role system", false, |b| b["role"] = json!("system")),
            ("kind task", false, |b| b["kind"] = json!("task")),
            ("no kind (as in the documentation)", false, |b| drop(b.as_object_mut().unwrap().remove("kind"))),
            ("no messageId", false, |b| drop(b.as_object_mut().unwrap().remove("messageId"))),
            ("undeclared key", true, |b| b["extra"] = json!(1)),
        ],
    );
}
