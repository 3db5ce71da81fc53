//! The example service (`examples/stdio_service.rs`), served over in-memory
//! stdin and stdout: valid messages are handled through the typed struct,
//! invalid ones rejected with the contract's findings, lines that are not
//! JSON with a JSON-RPC parse error.

#[path = "../../examples/stdio_service.rs"]
mod service;

#[test]
fn the_stdio_service_answers_and_rejects() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}"#,
        "\n",
        "\n",
        r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":"x","#,
        "\n",
    );
    let mut out = Vec::new();
    service::serve(std::io::Cursor::new(input), &mut out);
    assert_eq!(
        String::from_utf8_lossy(&out),
        concat!(
            r#"{"id":"a","jsonrpc":"2.0","result":{"content":[{"text":"hi","type":"text"}]}}"#,
            "\n",
            r#"{"error":{"code":-32602,"data":{"findings":["ERROR field.type id: expected string, found integer","ERROR field.required params.arguments: required field is missing"]},"message":"invalid params"},"id":7,"jsonrpc":"2.0"}"#,
            "\n",
            r#"{"id":"c","jsonrpc":"2.0","result":{"content":[{"text":"no such tool: nope","type":"text"}]}}"#,
            "\n",
            r#"{"error":{"code":-32700,"data":{"findings":["ERROR json.syntax <data>: line 1, column 27: unexpected end of input"]},"message":"parse error"},"id":null,"jsonrpc":"2.0"}"#,
            "\n",
        )
    );
}
