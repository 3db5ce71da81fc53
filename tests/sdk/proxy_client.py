"""A real MCP client (the official `mcp` SDK's ClientSession) whose server
command is `cargo protocolarc proxy FLAGS -- SERVER...`, as an MCP host's
configuration runs it. It answers the server's sampling, elicitation and
roots requests, lists the tools, calls them, and prints what it got as one
JSON object: {"tools": [names], "calls": [{"result"|"error": ...}]}.

Usage: python proxy_client.py BIN FLAGS_JSON SERVER_JSON"""

import json
import os
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from sdk_common import CLIENT_CALLBACKS


async def main(binary, flags, server):
    params = StdioServerParameters(
        command=binary, args=["protocolarc", "proxy", *flags, "--", *server], env=dict(os.environ)
    )
    out = {"tools": [], "calls": []}
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, **CLIENT_CALLBACKS
        ) as session:
            await session.initialize()
            listed = await session.list_tools()
            out["tools"] = sorted(t.name for t in listed.tools)
            for name, args in [("ask", {"question": "q0"}), ("add", {"a": 2, "b": 3})]:
                try:
                    r = await session.call_tool(name, args)
                    out["calls"].append({"tool": name, "result": r.model_dump(mode="json", exclude_none=True)})
                except MCPError as e:
                    out["calls"].append({"tool": name, "error": {"code": e.code, "data": e.data}})
    print(json.dumps(out))


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]))
