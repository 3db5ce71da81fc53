//! What a line tells of its capture's protocol revision, when no
//! `--protocol` names it.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::reader::{kind, parse_object, recorded, text, trim, Kind, Members};

/// What a message tells of its capture's protocol revision, when no
/// `--protocol` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// An MCP `initialize` request asks for this `params.protocolVersion`.
    Initialize(String),
    /// An A2A agent card (the line itself, or a response's `result`: an
    /// object with `skills`) declares this protocol version: its own
    /// `protocolVersion` (up to v0.3), or from v1.0 on, where the card
    /// moved it into `supportedInterfaces[]`, the JSON-RPC interface's
    /// (else the first interface's that has one).
    AgentCard(String),
    /// An MCP request without `initialize` (from 2026-07-28 on: the
    /// `server/discover` handshake, or any request) names its protocol
    /// version in `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    Declared {
        /// The request's method (`server/discover`).
        method: String,
        /// The version it names (`2026-07-28`).
        version: String,
    },
    /// A request or notification of this method.
    Method(String),
}

/// The `_meta` key an MCP request names its protocol version with, where
/// no `initialize` negotiates it.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// The hints of one line (each element of a batch), in order; none for
/// what is not JSON.
pub fn hints(bytes: &[u8]) -> Vec<Hint> {
    let text = trim(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
    if text.first() == Some(&b'[') {
        let Ok(items) = serde_json::from_slice::<Vec<&RawValue>>(text) else { return Vec::new() };
        return items.iter().filter_map(|item| hint(item.get().as_bytes())).collect();
    }
    if let Some(message) = parse_object(text).ok().filter(recorded).and_then(|m| m.get("message")) {
        // A recorded line: its message's (or batch's) hints.
        return hints(message.get().as_bytes());
    }
    hint(text).into_iter().collect()
}

pub(super) fn hint(bytes: &[u8]) -> Option<Hint> {
    let members = parse_object(bytes).ok()?;
    let card = |m: &Members<'_>| -> Option<Hint> {
        m.get("skills").filter(|s| kind(s) == Kind::Array)?;
        let Some(interfaces) = m.get("supportedInterfaces") else {
            return Some(Hint::AgentCard(text(m.get("protocolVersion")?)?.into_owned()));
        };
        let interfaces = serde_json::from_str::<Vec<&RawValue>>(interfaces.get()).ok()?;
        let versions: Vec<(bool, String)> = interfaces
            .iter()
            .filter_map(|i| {
                let i = parse_object(i.get().as_bytes()).ok()?;
                let json_rpc = i.get("protocolBinding").and_then(text).is_some_and(|b| b == "JSONRPC");
                Some((json_rpc, text(i.get("protocolVersion")?)?.into_owned()))
            })
            .collect();
        // A card serving JSON-RPC in several versions (the a2a-sdk's, with
        // its 0.3 compatibility) does not tell which one a session speaks:
        // its messages do.
        let minor = |v: &str| v.split('.').take(2).collect::<Vec<_>>().join(".");
        let mut json_rpc: Vec<String> = versions.iter().filter(|(j, _)| *j).map(|(_, v)| minor(v)).collect();
        json_rpc.dedup();
        if json_rpc.len() > 1 {
            return None;
        }
        let (_, version) = versions.iter().find(|(j, _)| *j).or(versions.first())?;
        Some(Hint::AgentCard(version.clone()))
    };
    let Some(method) = members.get("method") else {
        if let Some(h) = card(&members) {
            return Some(h);
        }
        return card(&parse_object(members.get("result")?.get().as_bytes()).ok()?);
    };
    let method = text(method)?.into_owned();
    let params = members.get("params").and_then(|p| parse_object(p.get().as_bytes()).ok());
    let string = |m: &Members<'_>, key: &str| m.get(key).and_then(|v| text(v).map(Cow::into_owned));
    if method == "initialize" {
        if let Some(version) = params.as_ref().and_then(|p| string(p, "protocolVersion")) {
            return Some(Hint::Initialize(version));
        }
    }
    let meta = params.as_ref().and_then(|p| parse_object(p.get("_meta")?.get().as_bytes()).ok());
    if let Some(version) = meta.as_ref().and_then(|m| string(m, META_PROTOCOL_VERSION)) {
        return Some(Hint::Declared { method, version });
    }
    Some(Hint::Method(method))
}

/// The `params.protocolVersion` of an MCP `initialize` request on this line
/// (or in its batch), if it has one: how a capture tells its protocol revision.
pub fn initialize_version(bytes: &[u8]) -> Option<String> {
    hints(bytes).into_iter().find_map(|h| match h {
        Hint::Initialize(v) => Some(v),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent card tells its protocol version: its own (to v0.3), or its
    /// JSON-RPC interface's (v1.0), else its first interface's.
    #[test]
    fn agent_cards_hint_their_version() {
        let card = |rest: &str| hints(format!(r#"{{"name": "a", "skills": [], {rest}}}"#).as_bytes());
        let version = |v: &str| vec![Hint::AgentCard(v.to_string())];
        assert_eq!(card(r#""protocolVersion": "0.2.9""#), version("0.2.9"));
        let interfaces = r#""supportedInterfaces": [
            {"url": "g", "protocolBinding": "GRPC", "protocolVersion": "1.1"},
            {"url": "j", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]"#;
        assert_eq!(card(interfaces), version("1.0"));
        assert_eq!(
            card(r#""supportedInterfaces": [{"protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}]"#),
            version("0.3")
        );
        // No version anywhere, or no skills: not a card that tells one.
        assert_eq!(card(r#""supportedInterfaces": [{"protocolBinding": "JSONRPC"}]"#), vec![]);
        assert_eq!(hints(br#"{"name": "a", "supportedInterfaces": [{"protocolVersion": "1.0"}]}"#), vec![]);
        // The a2a-sdk's card with its 0.3 compatibility: JSON-RPC in 1.0 and
        // 0.3, and the 0.3 card's own protocolVersion beside: no version.
        let both = r#""supportedInterfaces": [
            {"url": "u", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "u", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
            "preferredTransport": "JSONRPC", "protocolVersion": "0.3", "url": "u""#;
        assert_eq!(card(both), vec![]);
        let one = r#""supportedInterfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "1.0.1"},
            {"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}], "protocolVersion": "0.3""#;
        assert_eq!(card(one), version("1.0.1"));
    }

    /// An MCP request negotiating without `initialize` names its version in
    /// its `_meta` (the 2026-07-28 specification's `server/discover`
    /// example); a version elsewhere, or not a string, tells nothing.
    #[test]
    fn a_request_declares_its_version_in_meta() {
        let discover = br#"{"jsonrpc": "2.0", "id": "discover-1", "method": "server/discover", "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": "1.0.0"}}}}"#;
        let declared = Hint::Declared { method: "server/discover".into(), version: "2026-07-28".into() };
        assert_eq!(hints(discover), vec![declared]);
        let method = |m: &str| vec![Hint::Method(m.to_string())];
        let loose = br#"{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"protocolVersion": "2026-07-28"}}"#;
        assert_eq!(hints(loose), method("ping"));
        let number = br#"{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"_meta":
            {"io.modelcontextprotocol/protocolVersion": 2026}}}"#;
        assert_eq!(hints(number), method("ping"));
    }
}
