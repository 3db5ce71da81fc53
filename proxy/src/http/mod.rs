//! The HTTP transport (SPEC §14): `--listen ADDR --upstream URL` for MCP
//! Streamable HTTP (a POST answered by JSON or by an event stream, the GET
//! stream, DELETE, sessions by `Mcp-Session-Id`) and A2A JSON-RPC over HTTP
//! (streamed answers, the agent card). A reverse proxy on tokio and hyper:
//! every byte passes unchanged unless the judge's action says otherwise.

mod body;
mod forward;
mod replies;
mod server;
mod sessions;
mod sse;
mod stream;
mod upstream;

use std::sync::Arc;

use tokio::net::TcpListener;

use crate::judge::Config;
use forward::Proxy;
pub use upstream::Upstream;

/// Past this many sessions the oldest session's judge is forgotten.
const SESSIONS: usize = 4_096;

/// `--listen ADDR` and `--upstream URL`.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    pub listen: String,
    pub upstream: Upstream,
}

/// Serves until SIGINT or SIGTERM. Prints `listening on http://ADDR` to
/// stderr once the socket is bound (with port 0, ADDR names the port the
/// system chose). The error says what could not be done.
pub fn serve(options: &HttpOptions, config: Arc<Config>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the runtime: {error}"))?;
    runtime.block_on(async {
        let listener = TcpListener::bind(&options.listen)
            .await
            .map_err(|error| format!("--listen {}: {error}", options.listen))?;
        let bound = listener.local_addr().map_err(|error| format!("--listen {}: {error}", options.listen))?;
        eprintln!("protocolarc proxy: listening on http://{bound}, upstream {}", options.upstream.shown());
        let proxy = Proxy {
            upstream: options.upstream.clone(),
            client: server::client(),
            cap: config.max_message(),
            sessions: sessions::Sessions::new(config, SESSIONS),
        };
        server::run(listener, Arc::new(proxy)).await
    })
}
