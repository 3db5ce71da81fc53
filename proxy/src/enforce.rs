//! `--enforce`: what stands in for a message that fails (SPEC §14). A
//! failing request is not forwarded and its sender gets a JSON-RPC error
//! under its id; a failing result is replaced by a `-32603` error under its
//! id; a failing notification is dropped; a `tools/list` result loses its
//! refused tools. A batch stays a valid batch: a client batch holding a
//! refused request is answered whole (each of its requests gets an error, so
//! none waits forever), a server batch keeps its other elements.

use protocolarc::Finding;
use serde_json::Value;

use crate::answer::{self, INTERNAL_ERROR, INVALID_REQUEST};
use crate::message::{Action, Failing, Pin, Side};

/// What a message is, by its members.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Request,
    Notification,
    Response,
    Other,
}

fn kind(v: &Value) -> Kind {
    let Some(o) = v.as_object() else { return Kind::Other };
    match (o.contains_key("method"), o.contains_key("id"), o.contains_key("result") || o.contains_key("error")) {
        (true, true, _) => Kind::Request,
        (true, false, _) => Kind::Notification,
        (false, _, true) => Kind::Response,
        _ => Kind::Other,
    }
}

fn id(v: &Value) -> Value {
    v.get("id").cloned().unwrap_or(Value::Null)
}

/// The findings against element `at` (`None`: the message alone, or the
/// batch as a whole).
fn findings(failing: &[Failing], pins: &[Pin], at: Option<usize>) -> Vec<Finding> {
    let mut out: Vec<Finding> =
        failing.iter().filter(|f| f.element == at).flat_map(|f| f.findings.iter().cloned()).collect();
    for p in pins {
        if let Pin::Call { element, finding } = p {
            if *element == at {
                out.push(finding.clone());
            }
        }
    }
    out
}

/// A `tools/list` result without the refused tools, if pins ask for it.
fn filtered(mut v: Value, pins: &[Pin], at: Option<usize>) -> Value {
    for p in pins {
        let Pin::List { element, refusals } = p else { continue };
        if *element != at {
            continue;
        }
        if let Some(tools) = v.pointer_mut("/result/tools").and_then(Value::as_array_mut) {
            let mut i = 0;
            tools.retain(|_| {
                let keep = !refusals.iter().any(|r| r.index == i);
                i += 1;
                keep
            });
        }
    }
    v
}

/// What one failing message (not the batch) becomes.
enum Outcome {
    Forward(Value),
    Answer(Value),
    Drop,
}

fn outcome(from: Side, v: Value, found: Vec<Finding>, pins: &[Pin], at: Option<usize>) -> Outcome {
    if found.is_empty() {
        return Outcome::Forward(filtered(v, pins, at));
    }
    match kind(&v) {
        Kind::Request => {
            let code = answer::request_code(&found);
            let what = if code == INVALID_REQUEST { "invalid request" } else { "invalid params" };
            Outcome::Answer(answer::error(id(&v), code, &format!("protocolarc proxy: {what}"), &found))
        }
        Kind::Notification => Outcome::Drop,
        Kind::Response => Outcome::Forward(answer::error(
            id(&v),
            INTERNAL_ERROR,
            "protocolarc proxy: the response breaks its contract",
            &found,
        )),
        Kind::Other => match from {
            Side::Client => Outcome::Answer(answer::error(
                Value::Null,
                INVALID_REQUEST,
                "protocolarc proxy: not a JSON-RPC request",
                &found,
            )),
            Side::Server => Outcome::Drop,
        },
    }
}

/// The action that enforces a message's (or batch's) failing verdicts and
/// pinned-tool refusals.
pub(crate) fn action(from: Side, text: &[u8], failing: Vec<Failing>, pins: Vec<Pin>) -> Action {
    let whole = findings(&failing, &pins, None);
    let v: Value = match serde_json::from_slice(text) {
        Ok(v) => v,
        Err(_) => return single(from, Value::Null, whole, &pins),
    };
    match v {
        Value::Array(items) if whole.is_empty() => batch(from, items, &failing, &pins),
        Value::Array(_) => single(from, Value::Null, whole, &pins),
        v => single(from, v, whole, &pins),
    }
}

fn single(from: Side, v: Value, found: Vec<Finding>, pins: &[Pin]) -> Action {
    match outcome(from, v, found, pins, None) {
        Outcome::Forward(v) => Action::Replace(answer::bytes(&v)),
        Outcome::Answer(v) => Action::Answer(answer::bytes(&v)),
        Outcome::Drop => Action::Drop,
    }
}

fn batch(from: Side, items: Vec<Value>, failing: &[Failing], pins: &[Pin]) -> Action {
    let mut forwarded = Vec::new();
    let mut answers = Vec::new();
    let mut requests = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if kind(&item) == Kind::Request {
            requests.push((i, id(&item)));
        }
        match outcome(from, item, findings(failing, pins, Some(i)), pins, Some(i)) {
            Outcome::Forward(v) => forwarded.push(v),
            Outcome::Answer(v) => answers.push((i, v)),
            Outcome::Drop => {}
        }
    }
    if from == Side::Client && !answers.is_empty() {
        // Nothing of the batch goes on: every request in it is answered.
        let mut out = Vec::new();
        for (i, id) in requests {
            match answers.iter().position(|(at, _)| *at == i) {
                Some(p) => out.push(answers.remove(p).1),
                None => out.push(answer::error(
                    id,
                    INVALID_REQUEST,
                    "protocolarc proxy: not forwarded: another request of its batch was refused",
                    &[],
                )),
            }
        }
        out.extend(answers.into_iter().map(|(_, v)| v));
        return Action::Answer(answer::bytes(&Value::Array(out)));
    }
    // A server's refused request cannot be answered and forwarded at once:
    // it goes no further (the client never sees it).
    if forwarded.is_empty() {
        return Action::Drop;
    }
    Action::Replace(answer::bytes(&Value::Array(forwarded)))
}
