//! `#[protocolarc::contract]` end to end: typed structs from the bundled
//! contracts, their validator against the runtime's, typed parses, round trips.

use protocolarc::{Contract, ContractSpec};
use protocolarc_tests::root;

/// The 2.0.0 break came with a major bump: the gate lets it compile.
#[protocolarc::contract(
    "../contracts/mcp_tool_call_2.0.0.json",
    compatible_with = "../contracts/mcp_tool_call_1.1.0.json"
)]
pub struct ToolCall;

pub use protocolarc_tests::typed::*;

#[test]
fn identity_comes_from_the_contract() {
    assert_eq!((ToolCall::NAME, ToolCall::REVISION), ("mcp.tool_call", "2.0.0"));
    assert_eq!((SendMessage::NAME, SendMessage::REVISION), ("a2a.message_send", "1.0.0"));
    assert_eq!(TaskSend::NAME, "a2a.task_send");
}

#[test]
fn typed_fields_have_the_contract_shape() {
    let body = br#"{"jsonrpc": "2.0", "id": "req-7", "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"location": "NYC"}, "timeout_ms": 2500, "trace": true}, "x-extra": 1}"#;
    let call = ToolCall::from_json(body).expect("valid");
    assert_eq!(call.id, "req-7");
    assert_eq!(call.method, ToolCallMethod::ToolsCall);
    assert_eq!(call.jsonrpc, ToolCallJsonrpc::default());
    assert_eq!(call.params.name, "get_weather");
    assert_eq!(call.params.arguments["location"], "NYC");
    // A bounded integer field is a Rust integer.
    assert_eq!(call.params.timeout_ms, Some(2500));
    // Undeclared keys survive, at every level.
    assert_eq!(call.unknown_fields["x-extra"], 1);
    assert_eq!(call.params.unknown_fields["trace"], true);
    let back: serde_json::Value = serde_json::from_slice(&call.to_json()).unwrap();
    let original: serde_json::Value = serde_json::from_slice(body).unwrap();
    assert_eq!(back, original, "a round trip keeps every field");
}

/// JSON as deep as the validator allows (128 levels, past serde_json's own limit).
fn unbounded(bytes: &[u8]) -> serde_json::Value {
    use serde_json::de::Deserializer;
    let mut de = Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    protocolarc::__private::serde::Deserialize::deserialize(&mut de).expect("JSON")
}

#[test]
fn from_json_is_ok_exactly_when_the_report_has_no_error() {
    let spec = ContractSpec::from_path(root().join("contracts/mcp_sampling_create_message_1.0.0.json")).unwrap();
    let dir = root().join("contracts/fixtures/rules");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let envelope = unbounded(line.as_bytes());
            if envelope["contract"] != "mcp.sampling_create_message" {
                continue;
            }
            let data = envelope["data"].to_string();
            let runtime = spec.validate_json(data.as_bytes());
            assert_eq!(CreateMessage::validate_json(data.as_bytes()), runtime, "{}", path.display());
            match CreateMessage::from_json(data.as_bytes()) {
                Ok(typed) => {
                    assert!(runtime.is_valid(), "{data}");
                    let back = unbounded(&typed.to_json());
                    assert_eq!(back, envelope["data"], "round trip of {data}");
                }
                Err(report) => assert_eq!((report.is_valid(), report), (false, runtime)),
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn integers_written_as_decimals_parse() {
    let body = br#"{"jsonrpc": "2.0", "id": 1.0, "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 1e2}}"#;
    let typed = CreateMessage::from_json(body).expect("1.0 and 1e2 are integers");
    assert_eq!(typed.params.max_tokens, 100u64);
    assert!(matches!(typed.id, CreateMessageId::Integer(_)));
}

#[test]
fn nested_arrays_and_enums_are_typed() {
    let body = br#"{"jsonrpc": "2.0", "id": "r", "method": "message/send", "params": {"message": {"kind": "message",
        "role": "agent", "messageId": "9229e770-767c-417b-a0b0-f0741243c589", "contextId": null,
        "parts": [{"kind": "text", "text": "hi"}, {"kind": "data", "data": {"k": 1}}]}}}"#;
    let m = SendMessage::from_json(body).expect("valid");
    assert_eq!(m.params.message.role, SendMessageParamsMessageRole::Agent);
    assert_eq!(m.params.message.parts.len(), 2);
    assert_eq!(m.params.message.parts[1].kind, SendMessageParamsMessagePartsItemKind::Data);
    assert!(matches!(m.params.message.context_id, Some(SendMessageParamsMessageContextId::Null)));
}

mod differential {
    use proptest::prelude::*;
    use protocolarc::{Contract, ContractSpec};
    use serde_json::{json, Value};

    use super::{CreateMessage, SendMessage, TaskSend, ToolCall};

    fn value() -> impl Strategy<Value = Value> {
        crate::strategies::contract_value()
    }

    fn mutated(base: Value) -> impl Strategy<Value = Value> {
        (value(), prop::sample::select(vec!["id", "method", "params", "jsonrpc", "role", "task_id", "parts"])).prop_map(
            move |(v, key)| {
                let mut b = base.clone();
                b[key] = v;
                b
            },
        )
    }

    thread_local! {
        /// Each contract loaded once from its file (not from the text compiled into the type).
        static LOADED: std::cell::RefCell<std::collections::HashMap<String, ContractSpec>> = Default::default();
    }

    fn same<T: Contract>(path: &str, body: &Value) -> Result<(), TestCaseError> {
        let load = || ContractSpec::from_path(protocolarc_tests::root().join(path)).expect("contract");
        let spec = LOADED.with(|l| l.borrow_mut().entry(path.to_string()).or_insert_with(load).clone());
        let bytes = body.to_string();
        let runtime = spec.validate_json_full(bytes.as_bytes());
        prop_assert_eq!(&T::validate_json(bytes.as_bytes()), &runtime);
        prop_assert_eq!(T::from_json(bytes.as_bytes()).is_ok(), runtime.is_valid(), "{}", bytes);
        if let Ok(typed) = T::from_json(bytes.as_bytes()) {
            // JSON equality: an integer field written `1e2` comes back `100`.
            let canon = |bytes: &[u8]| protocolarc::lock::canonical_json(bytes).expect("canonical");
            prop_assert_eq!(canon(&typed.to_json()), canon(bytes.as_bytes()), "round trip");
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(crate::strategies::config(1500))]

        #[test]
        fn generated_types_agree_with_the_runtime(
            random in value(),
            call in mutated(json!({"jsonrpc": "2.0", "id": "r", "method": "tools/call", "params": {"name": "n", "arguments": {}}})),
            task in mutated(json!({"task_id": "t", "role": "user", "parts": []})),
        ) {
            same::<ToolCall>("contracts/mcp_tool_call_2.0.0.json", &random)?;
            same::<ToolCall>("contracts/mcp_tool_call_2.0.0.json", &call)?;
            same::<TaskSend>("contracts/a2a_task_send_1.0.0.json", &task)?;
            same::<CreateMessage>("contracts/mcp_sampling_create_message_1.0.0.json", &random)?;
            same::<SendMessage>("contracts/a2a_message_send_1.0.0.json", &random)?;
        }
    }
}

/// Keys that spell the same Rust name (`params.x` and `params_x`, `fooBar`
/// and `foo_bar`, a declared `unknown_fields`) get distinct names.
#[protocolarc::contract("data/contracts/names_1.0.0.json")]
pub struct Names;

#[test]
fn colliding_names_stay_distinct() {
    let body = br#"{"fooBar": "1", "foo_bar": "2", "unknown_fields": 3, "type": "b", "self": "s",
        "params": {"x": {"y": "4"}}, "params_x": {"z": "only"}, "params_x_z": "a", "\u00e9": {"\u00fc": 5},
        "Option": "o", "a_b": "x", "a": {"b": "y"}, "extra": true}"#;
    let n = Names::from_json(body).expect("valid");
    assert_eq!((n.foo_bar.as_str(), n.foo_bar2.as_str()), ("1", "2"));
    assert_eq!(n.unknown_fields2, 3);
    assert_eq!(n.unknown_fields["extra"], true);
    assert_eq!(n.type_, NamesType::B);
    assert_eq!(n.self_.as_deref(), Some("s"));
    // `params.x` and `params_x` are both `NamesParamsX`: the second is `...X2`.
    let x: &NamesParamsX = &n.params.x;
    assert_eq!(x.y, "4");
    let x2: &NamesParamsX2 = &n.params_x;
    assert_eq!(x2.z, NamesParamsX2Z::Only);
    // Enum variants `A` and `a` are `A` and `A2`.
    assert_eq!(n.params_x_z, NamesParamsXZ::A2);
    // Two string enums named `NamesAB`, from `a_b` and `a.b`.
    assert_eq!(n.a_b, NamesAB::X);
    assert_eq!(n.a.b, NamesAB2::Y);
    // Keys with no ASCII letters.
    assert_eq!(n.field.field, NamesVV::Integer(5.into()));
    assert_eq!(n.option.as_deref(), Some("o"));
    let back: serde_json::Value = serde_json::from_slice(&n.to_json()).unwrap();
    assert_eq!(back, serde_json::from_slice::<serde_json::Value>(body).unwrap(), "the round trip keeps every key");
}

#[test]
fn from_json_reads_every_depth_the_validator_allows() {
    // `n` is at depth 3: 125 arrays in it fill depths 3 to 127 (128 levels
    // in all); the 126th is one too deep.
    let body = |levels: usize| {
        format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {{"messages": [{{"role": "user",
            "content": {{"type": "text", "text": "hi"}}}}], "maxTokens": 1, "metadata": {{"n": {}{}}}}}}}"#,
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    let deepest = body(125);
    assert!(CreateMessage::validate_json(deepest.as_bytes()).findings().is_empty());
    let typed = CreateMessage::from_json(deepest.as_bytes()).expect("128 levels parse");
    assert_eq!(unbounded(&typed.to_json()), unbounded(deepest.as_bytes()));
    let report = CreateMessage::from_json(body(126).as_bytes()).expect_err("129 levels do not");
    let shown: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
    assert_eq!(
        shown,
        [format!(
            "ERROR json.depth params.metadata.n{}: objects and arrays nest deeper than 128 levels",
            "[0]".repeat(125)
        )]
    );
}

#[test]
fn numbers_beyond_a_double_are_the_one_typed_parse_failure() {
    let body =
        br#"{"jsonrpc": "2.0", "id": "r", "method": "tools/call", "params": {"name": "n", "arguments": {"n": 1e400}}}"#;
    assert!(ToolCall::validate_json(body).findings().is_empty(), "the contract accepts the body");
    let report = ToolCall::from_json(body).expect_err("serde_json cannot hold 1e400");
    let shown: Vec<String> = report.findings().iter().map(|f| f.to_string()).collect();
    assert_eq!(shown, ["ERROR json.syntax <data>: the typed parse failed: number out of range at line 1 column 102"]);
}

/// SPEC §8: `Report` is an error, so `T::from_json(bytes)?` works in any
/// function returning `Box<dyn Error>`.
#[test]
fn from_json_propagates_with_the_question_mark() {
    fn method_of(bytes: &[u8]) -> Result<ToolCallMethod, Box<dyn std::error::Error>> {
        Ok(ToolCall::from_json(bytes)?.method)
    }
    let ok = br#"{"jsonrpc": "2.0", "id": "r", "method": "tools/call", "params": {"name": "n", "arguments": {}}}"#;
    assert_eq!(method_of(ok).unwrap(), ToolCallMethod::ToolsCall);
    let err = method_of(br#"{"jsonrpc": "2.0", "id": "r", "method": "tools/call"}"#).unwrap_err();
    assert_eq!(err.to_string(), "ERROR field.required params: required field is missing");
}

/// `to_json` is unchecked; `validate(&self)` says whether a value built or
/// edited by hand still keeps the contract.
#[test]
fn a_value_edited_by_hand_is_checked_by_validate() {
    let body = br#"{"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 100}}"#;
    let mut value = CreateMessage::from_json(body).expect("valid");
    assert!(value.validate().is_valid());
    value.params.messages.clear();
    // The edited value still serialises: `to_json` does not check.
    let bytes = value.to_json();
    assert!(
        serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()["params"]["messages"] == serde_json::json!([])
    );
    assert_eq!(
        value.validate().to_string(),
        "ERROR field.minItems params.messages: array has 0 items, fewer than minItems 1"
    );
}

/// A value is built with `new` (required fields as arguments, optional ones
/// `None`), no `unknown_fields` needed; `validate` judges it and `to_json`
/// writes exactly the fields set.
#[test]
fn values_are_built_with_new() {
    let mut call = ToolCall::new(
        ToolCallJsonrpc::default(),
        "req-1".into(),
        ToolCallMethod::ToolsCall,
        ToolCallParams::new("search".into(), serde_json::Map::new()),
    );
    assert!(call.validate().is_valid());
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&call.to_json()).unwrap(),
        serde_json::json!({"jsonrpc": "2.0", "id": "req-1", "method": "tools/call", "params": {"name": "search", "arguments": {}}})
    );
    // Optional fields are set afterwards, and written only once set.
    call.params.timeout_ms = Some(2500.into());
    assert!(call.validate().is_valid());
    let written: serde_json::Value = serde_json::from_slice(&call.to_json()).unwrap();
    assert_eq!(written["params"]["timeout_ms"], 2500);
}

/// A whole envelope given to `from_json` gets the `data.envelope` hint beside
/// the real findings (it got four `field.required` errors and no hint); the
/// same bytes through `validate_json` keep the runtime's findings exactly.
#[test]
fn an_envelope_given_to_from_json_gets_a_hint() {
    let envelope = br#"{"contract": "mcp.tool_call", "revision": "2.0.0", "data": {"jsonrpc": "2.0", "id": "r",
        "method": "tools/call", "params": {"name": "n", "arguments": {}}}}"#;
    let plain = ToolCall::validate_json(envelope);
    assert!(!plain.is_valid() && plain.findings().iter().all(|f| f.rule() == "field.required"));
    let err = ToolCall::from_json(envelope).unwrap_err();
    let hints: Vec<String> =
        err.findings().iter().filter(|f| f.rule() == "data.envelope").map(|f| f.to_string()).collect();
    assert_eq!(
        hints,
        ["WARNING data.envelope <data>: this is an envelope ({\"contract\", \"data\"}), not a data body: pass its `data`"]
    );
    assert_eq!(err.findings().len(), plain.findings().len() + 1);
    // Its data parses.
    let data: serde_json::Value = serde_json::from_slice(envelope).unwrap();
    assert!(ToolCall::from_json(data["data"].to_string().as_bytes()).is_ok());
}

/// An unbounded integer field is an `i64`: a value the validator accepts past
/// 64 bits is the documented typed-parse failure, never a wrong number.
#[test]
fn an_integer_past_64_bits_is_a_typed_parse_failure_not_a_wrong_value() {
    let body = br#"{"jsonrpc": "2.0", "id": "r", "method": "tools/call",
        "params": {"name": "n", "arguments": {}, "timeout_ms": 1e30}}"#;
    assert!(ToolCall::validate_json(body).is_valid(), "the contract accepts it");
    let err = ToolCall::from_json(body).unwrap_err();
    assert_eq!(err.findings().len(), 1);
    assert_eq!(err.findings()[0].rule(), "json.syntax");
    assert!(err.findings()[0].message().starts_with("the typed parse failed: "), "{err}");
    let ok = br#"{"jsonrpc": "2.0", "id": "r", "method": "tools/call",
        "params": {"name": "n", "arguments": {}, "timeout_ms": -9.0e2}}"#;
    assert_eq!(ToolCall::from_json(ok).unwrap().params.timeout_ms, Some(-900));
}
