"""A real MCP server (the official `mcp` SDK's MCPServer) over stdio whose
tool asks the client back: sampling, elicitation and roots, so that the
server's own request ids (1, 2, 3...) collide with the client's."""

from mcp.server.mcpserver import MCPServer
from sdk_common import serve_tools

server = MCPServer("sdk-echo")
serve_tools(server)


if __name__ == "__main__":
    server.run()
