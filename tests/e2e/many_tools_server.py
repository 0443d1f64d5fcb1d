"""A Python MCP server listing 25 small tools, for `stitch-gateway check`: more strict tools
than Anthropic's strict mode takes in one request (20), so its check must say the
`anthropic-strict` listing is refused, and exit 1.

Run: python tests/e2e/many_tools_server.py (stdio).
"""

from mcp.server.mcpserver import MCPServer

server = MCPServer("many-tools")


def counter(i):
    def count(n: int) -> str:
        return str(n + i)

    count.__name__ = f"count_{i}"
    count.__doc__ = f"Add {i} to n."
    return count


for i in range(25):
    server.tool()(counter(i))

if __name__ == "__main__":
    server.run()
