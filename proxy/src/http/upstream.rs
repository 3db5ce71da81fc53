//! The upstream: where `--upstream` points, and the request the proxy sends
//! there for a client's request (same method, path, query, headers and body,
//! minus the hop-by-hop headers, with the upstream's own Host).

use hyper::body::Body as _;
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::http::request::Parts;
use hyper::{Request, Uri};

use super::forward::Body;

/// `--upstream URL`: an `http://` origin and an optional path prefix the
/// client's path is appended to.
#[derive(Clone, Debug)]
pub struct Upstream {
    scheme_authority: String,
    host: HeaderValue,
    prefix: String,
    shown: String,
}

impl Upstream {
    /// Reads `--upstream`; the error says what is wrong with it.
    pub fn parse(url: &str) -> Result<Upstream, String> {
        let uri: Uri = url.parse().map_err(|error| format!("--upstream {url}: not a URL ({error})"))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => {
                return Err(format!(
                    "--upstream {url}: https upstreams are not supported; put the proxy on the plain-HTTP side of the TLS terminator"
                ))
            }
            _ => return Err(format!("--upstream {url}: the URL must start with http://")),
        }
        let authority = uri.authority().ok_or_else(|| format!("--upstream {url}: no host"))?;
        if uri.query().is_some() {
            return Err(format!("--upstream {url}: a query is not allowed (the client's query is passed on)"));
        }
        let host = HeaderValue::from_str(authority.as_str()).map_err(|_| format!("--upstream {url}: bad host"))?;
        Ok(Upstream {
            scheme_authority: format!("http://{authority}"),
            host,
            prefix: uri.path().trim_end_matches('/').to_string(),
            shown: url.to_string(),
        })
    }

    pub(crate) fn shown(&self) -> &str {
        &self.shown
    }

    /// The upstream URI for a client's request URI.
    pub(crate) fn uri(&self, client: &Uri) -> Uri {
        let path = client.path_and_query().map_or("/", |pq| pq.as_str());
        format!("{}{}{}", self.scheme_authority, self.prefix, path)
            .parse()
            .unwrap_or_else(|_| Uri::from_static("http://invalid/"))
    }

    /// The request to send upstream: the client's, with `body` (the bytes
    /// the judge let through) and its length when it is known.
    pub(crate) fn request(&self, parts: &Parts, body: Body) -> Request<Body> {
        let mut headers = parts.headers.clone();
        strip_hop_by_hop(&mut headers);
        headers.insert(header::HOST, self.host.clone());
        if let Some(length) = body.size_hint().exact() {
            if length > 0 || headers.contains_key(header::CONTENT_LENGTH) {
                headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
            }
        }
        let mut request = Request::new(body);
        *request.method_mut() = parts.method.clone();
        *request.uri_mut() = self.uri(&parts.uri);
        *request.headers_mut() = headers;
        request
    }
}

/// Headers that belong to one connection, not to the message: each side of
/// the proxy has its own. The others keep their order (a rebuilt map, since
/// removing from a `HeaderMap` moves its last entry into the gap).
pub(crate) fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    let hop = |name: &HeaderName| HOP_BY_HOP.contains(&name.as_str()) || named.contains(name);
    if !headers.keys().any(hop) {
        return;
    }
    let mut kept = HeaderMap::with_capacity(headers.len());
    let mut current = None;
    for (name, value) in std::mem::take(headers) {
        if let Some(name) = name {
            current = Some(name);
        }
        if let Some(name) = current.as_ref().filter(|name| !hop(name)) {
            kept.append(name.clone(), value);
        }
    }
    *headers = kept;
}

const HOP_BY_HOP: [&str; 9] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "proxy-authenticate",
    "proxy-authorization",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_path_and_query_follow_the_upstream_prefix() {
        let upstream = Upstream::parse("http://127.0.0.1:9000/api/").unwrap();
        let client: Uri = "/mcp?x=1".parse().unwrap();
        assert_eq!(upstream.uri(&client).to_string(), "http://127.0.0.1:9000/api/mcp?x=1");
        let bare = Upstream::parse("http://localhost:8000").unwrap();
        assert_eq!(bare.uri(&"/".parse().unwrap()).to_string(), "http://localhost:8000/");
    }

    #[test]
    fn an_upstream_that_is_not_plain_http_is_refused_with_the_reason() {
        assert!(Upstream::parse("https://example.test/").unwrap_err().contains("https upstreams are not supported"));
        assert!(Upstream::parse("ftp://h/").unwrap_err().contains("must start with http://"));
        assert!(Upstream::parse("http://h/?q=1").unwrap_err().contains("a query is not allowed"));
        assert!(Upstream::parse("not a url").unwrap_err().contains("not a URL"));
    }

    #[test]
    fn hop_by_hop_headers_and_those_connection_names_are_removed() {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONNECTION, HeaderValue::from_static("keep-alive, x-hop"));
        headers.insert("x-hop", HeaderValue::from_static("1"));
        headers.insert("keep-alive", HeaderValue::from_static("timeout=5"));
        headers.insert(header::TRANSFER_ENCODING, HeaderValue::from_static("chunked"));
        headers.insert("mcp-session-id", HeaderValue::from_static("abc"));
        headers.append("x-kept", HeaderValue::from_static("2"));
        headers.append("x-kept", HeaderValue::from_static("3"));
        headers.insert("content-type", HeaderValue::from_static("text/event-stream"));
        strip_hop_by_hop(&mut headers);
        let left: Vec<(&str, &str)> =
            headers.iter().map(|(name, value)| (name.as_str(), value.to_str().unwrap())).collect();
        assert_eq!(
            left,
            [("mcp-session-id", "abc"), ("x-kept", "2"), ("x-kept", "3"), ("content-type", "text/event-stream")]
        );
    }
}
