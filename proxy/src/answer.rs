//! The JSON-RPC errors an enforcing proxy answers with or puts in place of
//! a message (SPEC §14): `-32600` for a malformed request, `-32602` for
//! invalid params, `-32603` for an invalid result, each with the findings
//! in `error.data.findings`, under the id of the message it stands for.

use protocolarc::Finding;
use serde_json::{json, Value};

/// A request that is not a valid JSON-RPC request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// A request whose params break its contract.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// A result that breaks its contract.
pub(crate) const INTERNAL_ERROR: i64 = -32603;

/// The error response object for `id` (`null` when the message had none).
pub(crate) fn error(id: Value, code: i64, message: &str, findings: &[Finding]) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message, "data": {"findings": findings}},
    })
}

/// The code for a refused request: invalid params when every error finding
/// is about `params`, else invalid request.
pub(crate) fn request_code(findings: &[Finding]) -> i64 {
    let params = findings
        .iter()
        .filter(|f| f.severity() == protocolarc::Severity::Error)
        .all(|f| f.field() == "params" || f.field().starts_with("params.") || f.field().starts_with("params["));
    if params {
        INVALID_PARAMS
    } else {
        INVALID_REQUEST
    }
}

/// The bytes of a message, one line.
pub(crate) fn bytes(v: &Value) -> Vec<u8> {
    v.to_string().into_bytes()
}
