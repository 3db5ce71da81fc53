"""A real MCP client (the official `mcp` SDK's ClientSession) that answers
the server's sampling, elicitation and roots requests, talking to the
server through the recording relay."""

import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from sdk_common import CLIENT_CALLBACKS


async def main(record, server):
    params = StdioServerParameters(command=sys.executable, args=[RELAY, record, sys.executable, server])
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, **CLIENT_CALLBACKS
        ) as session:
            await session.initialize()
            await session.list_tools()
            for n in range(3):
                await session.call_tool("ask", {"question": f"q{n}"})
            await session.call_tool("add", {"a": 2, "b": 3})


if __name__ == "__main__":
    RELAY = sys.argv[1]
    anyio.run(main, sys.argv[2], sys.argv[3])
