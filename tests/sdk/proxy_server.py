"""A real MCP server (the official `mcp` SDK's MCPServer) for the proxy's
check: `ask` asks the client back (sampling, elicitation, roots), `add`'s
description is PROTOCOLARC_SDK_ADD_DESCRIPTION when set (the rug pull: the
same tool, described otherwise after it was pinned), and `add` takes a third
required argument `c` when PROTOCOLARC_SDK_ADD_REQUIRES_C is `1` (a breaking
change)."""

import os

from mcp.server.mcpserver import MCPServer
from sdk_common import serve_tools

server = MCPServer("sdk-proxy")
serve_tools(
    server,
    os.environ.get("PROTOCOLARC_SDK_ADD_DESCRIPTION", "Add two integers."),
    add_requires_c=os.environ.get("PROTOCOLARC_SDK_ADD_REQUIRES_C") == "1",
)


if __name__ == "__main__":
    server.run()
