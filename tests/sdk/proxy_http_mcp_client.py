"""A real MCP client (the official `mcp` SDK's ClientSession on its
Streamable HTTP transport) that answers the server's sampling, elicitation
and roots requests. It prints one JSON line per result it received, so a
run through the proxy can be compared with a direct one; a call that fails
prints its JSON-RPC error instead.

Usage: proxy_http_mcp_client.py URL [TOOL ARGS_JSON]..."""

import json
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from sdk_common import CLIENT_CALLBACKS


def show(**line):
    print(json.dumps(line, sort_keys=True), flush=True)


async def main(url, calls):
    async with streamable_http_client(url) as (read, write, *_):
        async with ClientSession(
            read, write, **CLIENT_CALLBACKS
        ) as session:
            init = await session.initialize()
            show(initialized=init.server_info.name)
            tools = await session.list_tools()
            show(tools=sorted(tool.name for tool in tools.tools))
            for name, arguments in calls:
                try:
                    result = await session.call_tool(name, arguments)
                    show(tool=name, content=[c.text for c in result.content if hasattr(c, "text")])
                except MCPError as error:
                    show(tool=name, error=error.error.code, message=error.error.message)


if __name__ == "__main__":
    pairs = sys.argv[2:]
    calls = [(pairs[i], json.loads(pairs[i + 1])) for i in range(0, len(pairs), 2)]
    anyio.run(main, sys.argv[1], calls)
