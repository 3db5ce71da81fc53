"""A real MCP server (the official `mcp` SDK's MCPServer) on Streamable HTTP
whose tool asks the client back (sampling, elicitation, roots): those
requests travel on the POST's event stream, the client's answers come back
as POSTs of their own, all under the session's Mcp-Session-Id.

Usage: proxy_http_mcp_server.py PORT [json]
With `json`, plain answers come back as JSON bodies rather than event streams."""

import sys

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

server = MCPServer("sdk-echo-http")


class Confirm(BaseModel):
    ok: bool


@server.tool()
async def ask(question: str, ctx: Context) -> str:
    """Ask the client's model, its user and its roots."""
    from mcp import types

    sampled = await ctx.session.create_message(
        messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=question))],
        max_tokens=10,
    )
    confirmed = await ctx.elicit(message="Go on?", schema=Confirm)
    roots = await ctx.session.list_roots()
    text = sampled.content.text if hasattr(sampled.content, "text") else "?"
    return f"{text} / {confirmed.action} / {len(roots.roots)} roots"


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


if __name__ == "__main__":
    json_response = len(sys.argv) > 2 and sys.argv[2] == "json"
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]), json_response=json_response)
