//! The arguments and help of `traffic`.

use std::path::PathBuf;

use clap::Args;

use super::{BulkArgs, ProtocolArgs};

/// The long help of `traffic`.
pub(crate) const ABOUT: &str = "\
Validate raw JSON-RPC 2.0 traffic (MCP, A2A) against a protocol's catalog of contracts.

Each FILE is read line by line (each line within the line cap, PROTOCOLARC_MAX_LINE_BYTES): \
a line is one message, or a batch when it holds a JSON array (each element is checked and \
labelled FILE:LINE[i], from 0), or a recorded line {\"from\": \"client\"|\"server\", \"message\": \
MESSAGE-OR-BATCH} (optional \"session\", a string, and \"time\"), or an agent card (judged by \
<protocol>.agent_card); blank lines are skipped. A .har file (HAR 1.2) is read entry by \
entry: the request body is a client message, the response body a server message, a \
text/event-stream response one server message per event, sessions by Mcp-Session-Id, a GET \
of an agent card the card; labels FILE#ENTRY and FILE#ENTRY[event N]. A directory stands for its .json and \
.jsonl files, in path order.

Routing, in the catalog of the protocol revision (DIR/<protocol>/<revision>/*.json):
  a request or notification (it has \"method\")
      judged whole by <protocol>.<method>.request; a request (it has \"id\") waits for its response
  a success response (\"result\" and \"id\")
      paired with the latest earlier request of that id still unanswered in the same file
      (and session), sent by the other side when the line says who sent it;
      its result judged by <protocol>.<method>.response (findings under result.)
  an error response (\"error\" and \"id\")
      judged whole by <protocol>.error.response
A raw response whose id is pending for requests of two methods (both sides of a session send \
requests, and their ids may collide) is judged against both and paired with the one whose \
response contract accepts it, with a route.ambiguous warning. A response answering no pending \
request is UNPAIRED (route.id; never PASS, counted apart in the summary), and fails when no \
response contract of the protocol accepts its result (route.response). A method without a \
contract is route.method; what is not a JSON-RPC 2.0 message (not JSON, \"jsonrpc\" other than \
\"2.0\", neither method nor result/error, an id that is not a string or a number) is \
jsonrpc.shape. `cargo protocolarc rules RULE` explains each.

The protocol revision is --protocol NAME@REVISION (mcp@2025-06-18, a2a@0.3.0). Without it, the \
capture tells (a note on stderr says how): the first MCP initialize request or A2A agent card \
decides (the request's params.protocolVersion; the card's protocolVersion, or a v1.0 card's \
JSON-RPC interface's in supportedInterfaces, read as the newest catalog revision of its \
major.minor; a card serving JSON-RPC in several versions does not decide), as does an MCP \
request naming its version in params._meta (io.modelcontextprotocol/protocolVersion: the \
server/discover handshake of 2026-07-28, which has no initialize); else methods only A2A has \
(message/send, ...) pick the newest A2A revision that has them all; else the newest MCP revision. A protocolVersion the \
catalog has no revision of is an input error (give --protocol).

--jobs N judges batches of lines on N threads (default: every core), output byte for byte \
that of one job. The pending requests of a file hold at most 2 MiB (the next 4096 requests, \
fewer when long ids, tool names or labels fill the budget's share for them): past it the oldest \
is forgotten and its late response is unpaired (route.id, counted in the summary). On a terminal, a run longer than a second shows progress on stderr.

With --tools DIR (contracts written by `import tools-list`: SERVER.TOOL and SERVER.TOOL.output), \
a tools/call request's params.arguments is also judged by the contract whose name ends with \
'.' + params.name, and its response's result.structuredContent by that tool's .output contract \
(a tool without a contract: route.tool warning).

Output is validate's: one line per message, [PASS], [UNPAIRED] or [FAIL], the contracts that judged it and \
its label (FILE:LINE), its findings indented; then a summary counting messages, failures and \
findings per rule. --quiet prints only failing messages and the summary; --format json writes \
one JSON object (format_version, protocol, results, summary).";

/// The examples and exit codes of `traffic`.
pub(crate) const EXAMPLES: &str = "\
Examples:
  cargo protocolarc traffic capture.jsonl
  cargo protocolarc traffic capture.jsonl --protocol mcp@2025-06-18 --quiet
  cargo protocolarc traffic a2a.jsonl --protocol a2a@0.3.0 --format json
  cargo protocolarc import tools-list tools.json --server github --revision 1.0.0 --out tools/
  cargo protocolarc traffic capture.jsonl --tools tools/

Output (the contracts that judged each message, its label, its findings; then the totals):
  [PASS] mcp.tools/call.request@2025.6.18 <- capture.jsonl:4
  [FAIL] mcp.tools/call.response@2025.6.18 <- capture.jsonl:5
    ERROR field.type result.isError: expected boolean, found string
  [FAIL] (unrouted) <- capture.jsonl:6[1]
    ERROR jsonrpc.shape jsonrpc: expected \"2.0\", found \"1.0\"
  traffic mcp@2025-06-18: 3 messages, 1 passed, 2 failed; field.type 1, jsonrpc.shape 1

Exit codes: 0 every message passed (warnings allowed), 1 a message has an error finding, \
3 usage or input error (an unreadable file, a line over the cap, an unknown --protocol, a \
missing or malformed catalog).";

/// The arguments of `traffic`.
#[derive(Debug, Args)]
pub(crate) struct TrafficArgs {
    /// Capture files (one JSON-RPC message or batch per line), or directories of .json/.jsonl files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub protocols: ProtocolArgs,
    #[command(flatten)]
    pub bulk: BulkArgs,
}
