"""A tiny MCP server over stdio for the proxy's transcript (docs/proxy.md).

It reads its whole input before it answers, so that what the proxy writes
happens in one order on every run. Its one tool's result is invalid on
purpose: `content` should be a list of content blocks.
"""
import json
import sys

RESULTS = {
    "initialize": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "adder", "version": "1.0.0"},
    },
    "tools/call": {"content": "5"},
}

for line in sys.stdin.read().splitlines():
    message = json.loads(line)
    if "id" in message:
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": RESULTS.get(message["method"], {})}
        print(json.dumps(answer, separators=(",", ":")), flush=True)
