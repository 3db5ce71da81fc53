//! What the proxy answers on its own: a judge's answer to a client's
//! message (in the form the client asked for), 202 for a dropped
//! notification, and the refusals (upstream down, an answer refused), each
//! with a body that says why.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Response, StatusCode};

use super::forward::Body;
use super::sse;

pub(crate) fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).map_err(|never| match never {}).boxed()
}

fn with(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(full(body));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// The judge's answer to a client message: a JSON body, or a one-event
/// stream when the client accepts only event streams (MCP lets a server
/// answer a POST either way; the client must accept both).
pub(crate) fn answer(request: &HeaderMap, message: Vec<u8>) -> Response<Body> {
    let accept = request.get(header::ACCEPT).and_then(|value| value.to_str().ok()).unwrap_or("");
    let streams_only = accept.contains("text/event-stream") && !accept.contains("json") && !accept.contains("*/*");
    if streams_only {
        with(StatusCode::OK, "text/event-stream", sse::event(&message))
    } else {
        with(StatusCode::OK, "application/json", message)
    }
}

/// A message that gets no answer (a notification, a dropped message).
pub(crate) fn accepted() -> Response<Body> {
    let mut response = Response::new(full(Bytes::new()));
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

/// Why the proxy could not pass an exchange on.
#[derive(Debug)]
pub(crate) enum Refusal {
    RequestUnread(String),
    UpstreamDown(String, String),
    AnswerUnread(String),
    /// The judge let the upstream's answer (a JSON body, an agent card) not
    /// through, and an HTTP exchange cannot end without an answer.
    AnswerDropped,
}

impl Refusal {
    pub(crate) fn text(&self) -> String {
        match self {
            Refusal::RequestUnread(error) => format!("the request body could not be read: {error}"),
            Refusal::UpstreamDown(url, error) => format!("upstream {url} unreachable: {error}"),
            Refusal::AnswerDropped => "the upstream's answer was refused (see the findings)".to_string(),
            Refusal::AnswerUnread(error) => format!("the upstream's answer could not be read: {error}"),
        }
    }

    /// The report's name for what happened.
    pub(crate) fn event(&self) -> &'static str {
        match self {
            Refusal::RequestUnread(_) => "disconnect",
            Refusal::UpstreamDown(..) | Refusal::AnswerUnread(_) => "upstream",
            Refusal::AnswerDropped => "refused",
        }
    }

    pub(crate) fn response(&self) -> Response<Body> {
        let status = match self {
            Refusal::RequestUnread(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::BAD_GATEWAY,
        };
        with(status, "text/plain; charset=utf-8", format!("protocolarc proxy: {}\n", self.text()).into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn an_answer_comes_as_json_unless_the_client_takes_only_streams() {
        let json = answer(&accept("application/json, text/event-stream"), b"{}".to_vec());
        assert_eq!(json.headers()[header::CONTENT_TYPE], "application/json");
        let stream = answer(&accept("text/event-stream"), b"{}".to_vec());
        assert_eq!(stream.headers()[header::CONTENT_TYPE], "text/event-stream");
        assert_eq!(answer(&HeaderMap::new(), b"{}".to_vec()).headers()[header::CONTENT_TYPE], "application/json");
    }

    #[test]
    fn a_refusal_names_its_cause_and_status() {
        let down = Refusal::UpstreamDown("http://127.0.0.1:1".into(), "connection refused".into());
        assert_eq!(down.response().status(), StatusCode::BAD_GATEWAY);
        assert_eq!(down.text(), "upstream http://127.0.0.1:1 unreachable: connection refused");
        assert_eq!(down.event(), "upstream");
        assert_eq!(Refusal::RequestUnread("reset".into()).response().status(), StatusCode::BAD_REQUEST);
    }
}
