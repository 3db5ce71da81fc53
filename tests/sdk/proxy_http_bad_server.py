"""A minimal MCP server on Streamable HTTP (JSON answers) whose `add` tool
answers with an invalid CallToolResult (`content` is a string, not an array
of content blocks): what a broken or hostile server sends. Everything else
it answers is valid, so a client completes its session up to that call.

Its GET event stream sends a comment every 50 ms and, when the connection
is gone (the proxy dropped it), writes `dropped` to DROPPED_FILE and stops.

Usage: proxy_http_bad_server.py PORT [DROPPED_FILE]"""

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SESSION = "bad-server-session"
TOOL = {
    "name": "add",
    "description": "Add two integers.",
    "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}},
}


def result(message):
    method = message.get("method")
    if method == "initialize":
        return {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "bad-server", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        return {"content": "5"}
    return {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if "id" not in message:
            return self.answer(202, b"")
        body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result(message)}).encode()
        self.answer(200, body)

    def do_GET(self):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("mcp-session-id", SESSION)
        self.end_headers()
        try:
            for _ in range(1200):
                self.wfile.write(b": ping\n\n")
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:
            if len(sys.argv) > 2:
                with open(sys.argv[2], "w") as dropped:
                    dropped.write("dropped")

    def do_DELETE(self):
        self.answer(200, b"")

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("mcp-session-id", SESSION)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
