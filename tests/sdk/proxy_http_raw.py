"""A raw Streamable HTTP client: it sends a fixed MCP session (initialize,
the initialized notification, tools/list, a tools/call, DELETE) and prints,
for each exchange, the status, the headers a client reads and the body it
received, byte for byte (latin-1 so every byte survives JSON). The session
id the server generates is replaced by a placeholder, so two runs (with and
without the proxy) compare equal exactly when every other byte is equal.

Usage: proxy_http_raw.py URL"""

import json
import sys

import httpx2 as httpx

ACCEPT = "application/json, text/event-stream"
MESSAGES = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1.0.0"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}},
]
# Every header, in order, but the date (the clock's, not the server's
# answer) and those of the connection itself (each hop has its own).
SKIPPED = {"date", "connection", "keep-alive"}


def main(url):
    session = None
    with httpx.Client(timeout=20) as client:
        for message in MESSAGES:
            headers = {"accept": ACCEPT, "content-type": "application/json"}
            if session:
                headers["mcp-session-id"] = session
                headers["mcp-protocol-version"] = "2025-11-25"
            response = client.post(url, content=json.dumps(message).encode(), headers=headers)
            session = session or response.headers.get("mcp-session-id")
            show(response, session)
        show(client.delete(url, headers={"mcp-session-id": session}), session)


def show(response, session):
    headers = [
        [name, "SESSION" if value == session else value]
        for name, value in response.headers.multi_items()
        if name not in SKIPPED
    ]
    body = response.content.decode("latin-1").replace(session or "\0", "SESSION")
    print(json.dumps({"status": response.status_code, "headers": headers, "body": body}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
