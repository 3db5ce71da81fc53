"""A real MCP server (the official `mcp` SDK's MCPServer) over stdio whose
tool asks the client back: sampling, elicitation and roots, so that the
server's own request ids (1, 2, 3...) collide with the client's."""

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

server = MCPServer("sdk-echo")


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
    server.run()
