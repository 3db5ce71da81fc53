//! The arguments and help of `proxy`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;

use super::ProtocolArgs;

/// The long help of `proxy`.
pub(crate) const ABOUT: &str = "\
Run an MCP or A2A server behind a proxy that judges every JSON-RPC message in flight, both \
ways, against the contracts of the negotiated protocol revision and, with --tools, the pinned \
tool contracts.

stdio: `proxy [FLAGS] -- SERVER_CMD [ARGS...]` starts the server as its child and stands in its \
place: lines from the client (this process's stdin) go to the server's stdin, lines from the \
server's stdout to this process's stdout, each judged on the way; the server's stderr is passed \
through. An MCP host runs it instead of the server command. The proxy exits with the server's \
status; SIGINT and SIGTERM are passed on to the server; when the client closes its side, the \
server's stdin is closed.

HTTP: `proxy [FLAGS] --listen ADDR --upstream URL` stands in front of a server that listens: \
MCP Streamable HTTP (a POST answered by JSON or an event stream, the GET stream, DELETE; \
each session's messages judged together by its Mcp-Session-Id) and A2A JSON-RPC over HTTP \
(streamed answers; the agent card judged). Each event of a stream is judged as it passes. \
It prints `listening on http://ADDR` on stderr once bound and exits 0 on SIGINT or SIGTERM \
(docs/proxy-http.md).

The protocol revision is --protocol NAME@REVISION, else the session's first message tells, as \
`traffic` tells it: an MCP initialize request's protocolVersion, an A2A agent card, a method \
only A2A has; else the newest MCP revision. Each message is judged exactly as `traffic` judges \
the recorded line {\"from\": \"client\"|\"server\", \"message\": ...}: a request by its method's \
request contract, a response paired with the other side's pending request of its id, tools/call \
arguments and structuredContent (with --tools) by the tool's contract.

Observe (default): every byte is forwarded unchanged. Findings go to --report FILE as JSON lines \
(format_version, time, session, from, source, method, contract, status, findings; one per \
message, and one per event: protocol, oversized, disconnect, end, exit), or without it as text \
on stderr (messages with findings, and events). --record FILE writes each message as a recorded \
line (from, message, session, time): `cargo protocolarc traffic FILE` on it gives the live \
verdicts.

--enforce: an invalid client request is not forwarded; the client gets a JSON-RPC error \
(-32602 invalid params when the findings are about params, else -32600 invalid request) whose \
data.findings lists the findings. An invalid result is replaced by a -32603 error with the \
findings, under the same id. A failing notification is dropped (and reported). In a batch, each \
element is judged; a client batch with a refused request is answered whole.

--tools DIR (contracts written by `import tools-list`: SERVER.TOOL, SERVER.TOOL.output): every \
tools/list result is checked against the pins by lock digest, as `lock` pins a contract: \
tool.changed (its input or output schema, title or description differs), tool.unpinned (no pinned \
contract). Enforcing, such a tool is removed from the result and a tools/call of it refused.

A message longer than the line cap (PROTOCOLARC_MAX_LINE_BYTES, 64 MiB by default) is never \
held: observing, it is streamed through unjudged; enforcing, it is dropped (a client gets a \
-32600 error with id null). Either way it is reported.

--relay turns every check off (no report, no record): the same binary as a plain relay, the \
baseline the proxy benchmark measures against.";

/// The examples and exit codes of `proxy`.
pub(crate) const EXAMPLES: &str = "\
Examples:
  cargo protocolarc proxy -- npx -y @modelcontextprotocol/server-everything
  cargo protocolarc proxy --report findings.jsonl --record session.jsonl -- python server.py
  cargo protocolarc proxy --enforce --tools tools/ -- ./my-mcp-server --stdio
  cargo protocolarc traffic session.jsonl

An MCP host configuration (claude_desktop_config.json, .vscode/mcp.json, ...): the command \
becomes the proxy, the server command its arguments after --:
  {\"mcpServers\": {\"files\": {
     \"command\": \"cargo\",
     \"args\": [\"protocolarc\", \"proxy\", \"--enforce\", \"--tools\", \"/home/me/pins/files\",
              \"--report\", \"/home/me/files.jsonl\", \"--\", \"npx\", \"-y\", \"@modelcontextprotocol/server-filesystem\", \"/home/me\"]}}}

Exit codes: the server's exit status (128 + the signal that ended it); 3 usage or input error \
(an unknown --protocol, an unreadable --tools, a server that cannot be started).";

/// The arguments of `proxy`.
#[derive(Debug, Args)]
pub(crate) struct ProxyArgs {
    #[command(flatten)]
    pub protocols: ProtocolArgs,
    /// Refuse invalid requests, replace invalid results, drop failing notifications, remove
    /// changed or unpinned tools.
    #[arg(long, conflicts_with = "relay")]
    pub enforce: bool,
    /// Write each message as a recorded line (`traffic FILE` reads it).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Write verdicts and events as JSON lines (default: text on stderr).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// No checks, no report, no record: a plain relay (the benchmark's baseline).
    #[arg(long)]
    pub relay: bool,
    /// HTTP: listen on ADDR (host:port; port 0 picks one) and proxy to --upstream, instead of
    /// running a server command.
    #[arg(long, value_name = "ADDR", requires = "upstream", conflicts_with = "server")]
    pub listen: Option<String>,
    /// HTTP: the server's URL (http://host:port[/prefix]); the client's path and query follow it.
    #[arg(long, value_name = "URL", requires = "listen")]
    pub upstream: Option<String>,
    /// The server command and its arguments, after `--` (not with --listen).
    #[arg(last = true, required_unless_present = "listen", value_name = "SERVER_CMD")]
    pub server: Vec<OsString>,
}
