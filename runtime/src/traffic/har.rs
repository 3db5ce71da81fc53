//! HAR 1.2 captures (`.har`, as browser devtools, mitmproxy and Playwright
//! save HTTP sessions) read as recorded lines: each entry's request body is
//! a client message, its response body a server message, a
//! `text/event-stream` response one server message per event's `data`; an
//! MCP Streamable HTTP session (`Mcp-Session-Id`) is the lines' `session`;
//! a GET of an agent card (`/.well-known/agent-card.json`, `agent.json`)
//! is the bare card. Each message is labelled `#ENTRY` (from 1), an event
//! `#ENTRY[event N]` (from 1), after the file's label.
//!
//! The last server message of an entry says so ([`HarMessage::ends`]):
//! nothing more answers the entry's request, so a stream that ended
//! without its final event stops waiting there
//! ([`Traffic::har_message`](super::Traffic::har_message)).

use serde::Deserialize;
use serde_json::value::RawValue;

/// One message of a HAR capture: its label's suffix and the line that
/// [`Traffic::har_message`](super::Traffic::har_message) judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HarMessage {
    /// `#ENTRY` or `#ENTRY[event N]`.
    pub suffix: String,
    /// A recorded line, a bare card, or the body as it is when it is not JSON.
    pub line: Vec<u8>,
    /// The server's last message of its entry's response: what it answers
    /// is answered in full.
    pub ends: bool,
}

#[derive(Deserialize)]
struct Har<'a> {
    #[serde(borrow)]
    log: Log<'a>,
}

#[derive(Deserialize)]
struct Log<'a> {
    #[serde(borrow, default)]
    entries: Vec<Entry<'a>>,
}

#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(borrow)]
    request: Request<'a>,
    #[serde(borrow)]
    response: Response<'a>,
}

#[derive(Deserialize)]
struct Header {
    name: String,
    value: String,
}

#[derive(Deserialize)]
struct Request<'a> {
    method: String,
    url: String,
    #[serde(default)]
    headers: Vec<Header>,
    #[serde(rename = "postData", borrow)]
    post_data: Option<Body<'a>>,
}

#[derive(Deserialize)]
struct Response<'a> {
    #[serde(default)]
    headers: Vec<Header>,
    #[serde(borrow)]
    content: Option<Body<'a>>,
}

#[derive(Deserialize)]
struct Body<'a> {
    #[serde(rename = "mimeType", default)]
    mime_type: String,
    #[serde(borrow)]
    text: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    encoding: Option<String>,
}

impl Body<'_> {
    /// The body's text, decoded from base64 when the HAR says so.
    fn text(&self) -> Result<Option<String>, String> {
        let Some(text) = &self.text else { return Ok(None) };
        match self.encoding.as_deref() {
            Some("base64") => {
                let bytes = base64(text).ok_or("a base64 body that is not base64")?;
                String::from_utf8(bytes).map(Some).map_err(|_| "a body that is not UTF-8 text".to_string())
            }
            _ => Ok(Some(text.to_string())),
        }
    }
}

fn header<'h>(headers: &'h [Header], name: &str) -> Option<&'h str> {
    headers.iter().find(|h| h.name.eq_ignore_ascii_case(name)).map(|h| h.value.as_str())
}

/// Whether a request fetches an agent card.
fn card_url(method: &str, url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    method.eq_ignore_ascii_case("GET") && (path.ends_with("/agent-card.json") || path.ends_with("/agent.json"))
}

/// The messages of a HAR document, in order; why not, when it is not one.
pub fn messages(bytes: &[u8]) -> Result<Vec<HarMessage>, String> {
    let har: Har<'_> = serde_json::from_slice(bytes).map_err(|e| format!("not a HAR 1.2 document: {e}"))?;
    let mut out = Vec::new();
    for (i, entry) in har.log.entries.iter().enumerate() {
        let at = |why: String| format!("entry {}: {why}", i + 1);
        let entry_label = format!("#{}", i + 1);
        let session = header(&entry.request.headers, "mcp-session-id")
            .or_else(|| header(&entry.response.headers, "mcp-session-id"));
        let response = entry.response.content.as_ref();
        if card_url(&entry.request.method, &entry.request.url) {
            if let Some(text) = response.map(Body::text).transpose().map_err(at)?.flatten() {
                out.push(HarMessage { suffix: entry_label, line: text.into_bytes(), ends: false });
            }
            continue;
        }
        if let Some(text) = entry.request.post_data.as_ref().map(Body::text).transpose().map_err(at)?.flatten() {
            out.push(HarMessage { suffix: entry_label.clone(), line: recorded("client", session, &text), ends: false });
        }
        let Some(body) = response else { continue };
        let Some(text) = body.text().map_err(at)? else { continue };
        if body.mime_type.starts_with("text/event-stream") {
            let events = events(&text);
            let count = events.len();
            for (n, data) in events.into_iter().enumerate() {
                let suffix = format!("{entry_label}[event {}]", n + 1);
                out.push(HarMessage { suffix, line: recorded("server", session, &data), ends: n + 1 == count });
            }
        } else if !text.trim().is_empty() {
            out.push(HarMessage { suffix: entry_label, line: recorded("server", session, &text), ends: true });
        }
    }
    Ok(out)
}

/// A recorded line of `body` sent by `from`; the body as it is when it is
/// not JSON (the line is then judged not JSON).
fn recorded(from: &str, session: Option<&str>, body: &str) -> Vec<u8> {
    let Ok(message) = serde_json::from_str::<&RawValue>(body) else { return body.as_bytes().to_vec() };
    let session = session.map(|s| format!(",\"session\":{}", serde_json::Value::from(s))).unwrap_or_default();
    format!("{{\"from\":\"{from}\"{session},\"message\":{}}}", message.get()).into_bytes()
}

/// The `data` of each server-sent event of a stream that has some (lines
/// of one event joined by a line break, as the event-stream format says).
fn events(stream: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut data: Option<String> = None;
    for line in stream.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            if let Some(d) = data.take().filter(|d| !d.is_empty()) {
                out.push(d);
            }
            continue;
        }
        if let Some(value) = line.strip_prefix("data:") {
            let value = value.strip_prefix(' ').unwrap_or(value);
            match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_string()),
            }
        }
    }
    out
}

/// Standard base64 (padding optional); `None` for anything else.
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let digits = digits.strip_suffix(b"==").or_else(|| digits.strip_suffix(b"=")).unwrap_or(&digits);
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        match chunk.len() {
            4 => out.extend_from_slice(&bytes[1..4]),
            3 => out.extend_from_slice(&bytes[1..3]),
            2 => out.push(bytes[1]),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_base64() {
        let stream = "event: message\ndata: {\"a\":1}\n\n: comment\n\ndata: {\"b\":\ndata: 2}\n\nid: 3\n\n";
        assert_eq!(events(stream), ["{\"a\":1}", "{\"b\":\n2}"]);
        assert_eq!(base64("eyJhIjoxfQ==").as_deref(), Some(&b"{\"a\":1}"[..]));
        assert_eq!(base64("aGk").as_deref(), Some(&b"hi"[..]));
        assert_eq!(base64("a$"), None);
    }

    #[test]
    fn the_last_server_message_of_an_entry_closes_its_response() {
        let har = br#"{"log": {"entries": [{"request": {"method": "POST", "url": "http://h/", "headers": [],
            "postData": {"mimeType": "application/json", "text": "{\"id\":1}"}},
            "response": {"headers": [], "content": {"mimeType": "text/event-stream",
            "text": "data: {\"id\":1}\n\ndata: {\"id\":1}\n\n"}}}]}}"#;
        let got: Vec<(String, bool)> =
            messages(har).unwrap().into_iter().map(|m| (String::from_utf8(m.line).unwrap(), m.ends)).collect();
        let line = |from: &str| format!("{{\"from\":\"{from}\",\"message\":{{\"id\":1}}}}");
        assert_eq!(got, [(line("client"), false), (line("server"), false), (line("server"), true)]);
    }
}
