//! One HTTP exchange through the proxy: the client's message judged before
//! it goes upstream, the upstream's answer judged on its way back (a JSON
//! body whole, an event stream event by event, an agent card whole), and
//! the judge's action carried out on each.

use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::http::request::Parts;
use hyper::http::response;
use hyper::{Method, Request, Response, Uri};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;

use super::body::{read, Read};
use super::replies::{self, Refusal};
use super::sessions::{lock, Sessions, Shared};
use super::stream::JudgedStream;
use super::upstream::{strip_hop_by_hop, Upstream};
use crate::judge::{Action, Side};

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;
pub(crate) type Body = BoxBody<Bytes, BoxError>;

const SESSION: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";

/// What every connection of one proxy shares: the upstream, the pooled
/// client to it and the session judges.
pub(crate) struct Proxy {
    pub(crate) upstream: Upstream,
    pub(crate) client: Client<HttpConnector, Body>,
    pub(crate) sessions: Sessions,
    pub(crate) cap: usize,
}

/// One client connection: the judge of its requests that carry no session
/// id yet (an `initialize`, an A2A agent's calls, a stateless server's).
pub(crate) struct Connection {
    proxy: Arc<Proxy>,
    name: String,
    judge: Mutex<Option<Shared>>,
}

impl Connection {
    pub(crate) fn new(proxy: Arc<Proxy>, name: String) -> Connection {
        Connection { proxy, name, judge: Mutex::new(None) }
    }

    /// The judge of a request: its session's, a fresh one for a session
    /// the proxy does not know (yet), else the connection's.
    fn judge(&self, session: Option<&str>) -> Shared {
        if let Some(id) = session {
            return self.proxy.sessions.get(id).unwrap_or_else(|| self.proxy.sessions.fresh(id.to_string()));
        }
        let mut slot = self.judge.lock().unwrap_or_else(PoisonError::into_inner);
        slot.get_or_insert_with(|| self.proxy.sessions.fresh(self.name.clone())).clone()
    }

    /// The server named the session this connection's judge saw begin: the
    /// judge becomes that session's, and the connection's next sessionless
    /// request starts a judge of its own.
    fn adopt(&self, id: &str) {
        if self.proxy.sessions.contains(id) {
            return;
        }
        let taken = self.judge.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(judge) = taken {
            self.proxy.sessions.adopt(id, judge);
        }
    }
}

/// Serves one request; every failure becomes a response that says why,
/// and an event in the session's report.
pub(crate) async fn handle(
    connection: Arc<Connection>,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let session = text(request.headers(), SESSION);
    let judge = connection.judge(session.as_deref());
    Ok(exchange(&connection, request, session, &judge).await.unwrap_or_else(|refusal| {
        lock(&judge).event(refusal.event(), &refusal.text());
        refusal.response()
    }))
}

async fn exchange(
    connection: &Connection,
    request: Request<Incoming>,
    session: Option<String>,
    judge: &Shared,
) -> Result<Response<Body>, Refusal> {
    let proxy = &connection.proxy;
    let (parts, body) = request.into_parts();
    let body = match read(body, proxy.cap).await.map_err(Refusal::RequestUnread)? {
        Read::Whole(body) if parts.method == Method::POST && !body.is_empty() => {
            match lock(judge).message(Side::Client, &body) {
                Action::Forward => replies::full(body),
                Action::Replace(replacement) => replies::full(replacement),
                Action::Answer(answer) => return Ok(replies::answer(&parts.headers, answer)),
                Action::Drop => return Ok(replies::accepted()),
            }
        }
        Read::Whole(body) => replies::full(body),
        Read::Over { seen, body } => match lock(judge).too_large(Side::Client, seen) {
            Action::Answer(answer) => return Ok(replies::answer(&parts.headers, answer)),
            Action::Drop => return Ok(replies::accepted()),
            Action::Forward | Action::Replace(_) => body,
        },
    };
    let response = proxy
        .client
        .request(proxy.upstream.request(&parts, body))
        .await
        .map_err(|error| Refusal::UpstreamDown(proxy.upstream.shown().to_string(), cause(&error)))?;
    let served = text(response.headers(), SESSION);
    let accepted = response.status().is_success();
    match (&session, &served) {
        (None, Some(id)) => connection.adopt(id),
        (Some(id), _) if parts.method == Method::DELETE && accepted => proxy.sessions.remove(id),
        (Some(id), _) if accepted => proxy.sessions.adopt(id, judge.clone()),
        _ => {}
    }
    let answers = ServerAnswers::new(proxy, judge, &parts, served.or(session));
    respond(proxy, &parts, judge, answers, response).await
}

async fn respond(
    proxy: &Arc<Proxy>,
    request: &Parts,
    judge: &Shared,
    answers: ServerAnswers,
    response: Response<Incoming>,
) -> Result<Response<Body>, Refusal> {
    let (mut parts, body) = response.into_parts();
    strip_hop_by_hop(&mut parts.headers);
    let content_type = text(&parts.headers, header::CONTENT_TYPE.as_str()).unwrap_or_default();
    if content_type.starts_with("text/event-stream") {
        let stream = JudgedStream::new(body, judge.clone(), proxy.cap, answers);
        return Ok(Response::from_parts(parts, stream.boxed()));
    }
    let card = request.method == Method::GET && is_agent_card(&request.uri);
    let message = request.method == Method::POST && content_type.contains("json");
    if !(card || message) {
        return Ok(Response::from_parts(parts, body.map_err(BoxError::from).boxed()));
    }
    let bytes = match read(body, proxy.cap).await.map_err(Refusal::AnswerUnread)? {
        Read::Whole(bytes) => bytes,
        Read::Over { seen, body } => {
            return match lock(judge).too_large(Side::Server, seen) {
                Action::Forward | Action::Replace(_) => Ok(Response::from_parts(parts, body)),
                Action::Answer(_) | Action::Drop => Err(Refusal::AnswerDropped),
            }
        }
    };
    if bytes.is_empty() {
        return Ok(with_bytes(parts, bytes));
    }
    let action = if card { lock(judge).card(&bytes) } else { lock(judge).message(Side::Server, &bytes) };
    match action {
        Action::Forward => Ok(with_bytes(parts, bytes)),
        Action::Replace(replacement) => Ok(with_bytes(parts, replacement.into())),
        Action::Answer(answer) => {
            answers.send(answer);
            Err(Refusal::AnswerDropped)
        }
        Action::Drop => Err(Refusal::AnswerDropped),
    }
}

fn with_bytes(mut parts: response::Parts, bytes: Bytes) -> Response<Body> {
    parts.headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
    Response::from_parts(parts, replies::full(bytes))
}

/// The A2A agent card's well-known paths (the current one and the one
/// earlier revisions used).
fn is_agent_card(uri: &Uri) -> bool {
    let path = uri.path();
    path.ends_with("/.well-known/agent-card.json") || path.ends_with("/.well-known/agent.json")
}

fn text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name).and_then(|value| value.to_str().ok()).map(str::to_string)
}

/// The innermost cause of an error (hyper's outer ones say only
/// "client error").
fn cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut inner = error;
    while let Some(source) = inner.source() {
        inner = source;
    }
    inner.to_string()
}

/// Where the judge's answers to the server go: a POST of their own to the
/// upstream, in the session the server's message came in.
pub(crate) struct ServerAnswers {
    proxy: Arc<Proxy>,
    judge: Shared,
    uri: Uri,
    headers: HeaderMap,
}

impl ServerAnswers {
    fn new(proxy: &Arc<Proxy>, judge: &Shared, request: &Parts, session: Option<String>) -> ServerAnswers {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(header::ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
        if let Some(value) = session.and_then(|id| HeaderValue::from_str(&id).ok()) {
            headers.insert(SESSION, value);
        }
        if let Some(version) = request.headers.get(PROTOCOL_VERSION) {
            headers.insert(PROTOCOL_VERSION, version.clone());
        }
        ServerAnswers { proxy: proxy.clone(), judge: judge.clone(), uri: request.uri.clone(), headers }
    }

    /// Sends `answer` upstream without waiting: the stream it answers goes on.
    pub(crate) fn send(&self, answer: Vec<u8>) {
        let mut parts = Request::new(()).into_parts().0;
        parts.method = Method::POST;
        parts.uri = self.uri.clone();
        parts.headers = self.headers.clone();
        let request = self.proxy.upstream.request(&parts, replies::full(answer));
        let (proxy, judge) = (self.proxy.clone(), self.judge.clone());
        tokio::spawn(async move {
            let failed = match proxy.client.request(request).await {
                Ok(response) if response.status().is_success() => return,
                Ok(response) => format!("the upstream refused the proxy's answer: {}", response.status()),
                Err(error) => format!("the proxy's answer did not reach the upstream: {}", cause(&error)),
            };
            lock(&judge).event("upstream", &failed);
        });
    }
}
