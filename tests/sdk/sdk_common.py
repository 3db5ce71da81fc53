"""What the MCP test servers and clients share: the server's two tools
(`ask` asks the client back with sampling, elicitation and roots, so that the
server's own request ids 1, 2, 3... collide with the client's; `add` adds)
and the client's answers to those requests."""

from mcp import types
from mcp.server.mcpserver import Context
from pydantic import BaseModel


class Confirm(BaseModel):
    ok: bool


def serve_tools(server, add_description="Add two integers.", add_requires_c=False):
    """Registers `ask` and `add` on an MCPServer; `add_description` changes
    what `add` says of itself (the rug pull), `add_requires_c` gives `add` a
    third required argument `c` (a breaking change)."""

    @server.tool()
    async def ask(question: str, ctx: Context) -> str:
        """Ask the client's model, its user and its roots."""
        sampled = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=question))],
            max_tokens=10,
        )
        confirmed = await ctx.elicit(message="Go on?", schema=Confirm)
        roots = await ctx.session.list_roots()
        text = sampled.content.text if hasattr(sampled.content, "text") else "?"
        return f"{text} / {confirmed.action} / {len(roots.roots)} roots"

    if add_requires_c:

        @server.tool(description=add_description)
        def add(a: int, b: int, c: int) -> int:
            return a + b + c

    else:

        @server.tool(description=add_description)
        def add(a: int, b: int) -> int:
            return a + b


async def sampling(context, params):
    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text="ok"), model="sdk-test-model"
    )


async def elicitation(context, params):
    return types.ElicitResult(action="accept", content={"ok": True})


async def roots(context):
    return types.ListRootsResult(roots=[types.Root(uri="file:///tmp/sdk-root", name="root")])


# The callbacks a ClientSession takes, by keyword.
CLIENT_CALLBACKS = {"sampling_callback": sampling, "elicitation_callback": elicitation, "list_roots_callback": roots}
