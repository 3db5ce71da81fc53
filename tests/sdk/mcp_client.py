"""A real MCP client (the official `mcp` SDK's ClientSession) that answers
the server's sampling, elicitation and roots requests, talking to the
server through the recording relay."""

import sys

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


async def sampling(context, params):
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="ok"), model="sdk-test-model"
    )


async def elicitation(context, params):
    return types.ElicitResult(action="accept", content={"ok": True})


async def roots(context):
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/sdk-root", name="root")])


async def main(record, server):
    params = StdioServerParameters(command=sys.executable, args=[RELAY, record, sys.executable, server])
    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read, write, sampling_callback=sampling, elicitation_callback=elicitation, list_roots_callback=roots
        ) as session:
            await session.initialize()
            await session.list_tools()
            for n in range(3):
                await session.call_tool("ask", {"question": f"q{n}"})
            await session.call_tool("add", {"a": 2, "b": 3})


if __name__ == "__main__":
    RELAY = sys.argv[1]
    anyio.run(main, sys.argv[2], sys.argv[3])
