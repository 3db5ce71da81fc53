//! Streaming requests: one request, many response events under its id. The
//! request stays pending until its final event, so that every event pairs
//! with it and is judged by its method's (streaming) response contract.

use serde_json::value::RawValue;

use super::reader::{kind, parse_object, text, Kind};

/// The A2A methods whose response is a stream of events.
const STREAMING: &[&str] = &["message/stream", "tasks/resubscribe", "SendStreamingMessage", "SubscribeToTask"];

/// The task states after which a v1.0 stream sends nothing more: terminal,
/// or waiting for the client.
const LAST_STATES: &[&str] = &[
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_REJECTED",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_AUTH_REQUIRED",
];

/// Whether `method` answers with a stream of events.
pub(super) fn streams(method: &str) -> bool {
    STREAMING.contains(&method)
}

/// Whether an event ends its stream: a status update with `final: true`
/// (to v0.3), a message (a stream that answers with a message holds that
/// alone), or a v1.0 status update into a state after which nothing comes.
/// An event that is not an object ends nothing (its contract refuses it).
pub(super) fn last(result: &RawValue) -> bool {
    let Ok(event) = parse_object(result.get().as_bytes()) else { return false };
    if event.get("final").is_some_and(|f| f.get() == "true") {
        return true;
    }
    if event.get("kind").and_then(text).is_some_and(|k| k == "message") || event.get("message").is_some() {
        return true;
    }
    let state = || -> Option<bool> {
        let update = parse_object(event.get("statusUpdate")?.get().as_bytes()).ok()?;
        let status = update.get("status").filter(|s| kind(s) == Kind::Object)?;
        let status = parse_object(status.get().as_bytes()).ok()?;
        let state = text(status.get("state")?)?;
        Some(LAST_STATES.contains(&state.as_ref()))
    };
    state().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> &RawValue {
        serde_json::from_str(s).expect("JSON")
    }

    #[test]
    fn the_last_event_of_each_revision() {
        assert!(last(raw(r#"{"kind":"status-update","final":true,"status":{"state":"completed"}}"#)));
        assert!(!last(raw(r#"{"kind":"status-update","final":false,"status":{"state":"working"}}"#)));
        assert!(!last(raw(r#"{"kind":"artifact-update","artifact":{}}"#)));
        assert!(last(raw(r#"{"kind":"message","role":"agent","parts":[]}"#)));
        assert!(last(raw(r#"{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}"#)));
        assert!(!last(raw(r#"{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_WORKING"}}}"#)));
        assert!(last(raw(r#"{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[]}}"#)));
        assert!(!last(raw(r#"{"task":{"id":"t","status":{"state":"TASK_STATE_SUBMITTED"}}}"#)));
        assert!(!last(raw("7")) && streams("message/stream") && !streams("message/send"));
    }
}
