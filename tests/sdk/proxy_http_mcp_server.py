"""A real MCP server (the official `mcp` SDK's MCPServer) on Streamable HTTP
whose tool asks the client back (sampling, elicitation, roots): those
requests travel on the POST's event stream, the client's answers come back
as POSTs of their own, all under the session's Mcp-Session-Id.

Usage: proxy_http_mcp_server.py PORT [json]
With `json`, plain answers come back as JSON bodies rather than event streams."""

import sys

from mcp.server.mcpserver import MCPServer
from sdk_common import serve_tools

server = MCPServer("sdk-echo-http")
serve_tools(server)


if __name__ == "__main__":
    json_response = len(sys.argv) > 2 and sys.argv[2] == "json"
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]), json_response=json_response)
