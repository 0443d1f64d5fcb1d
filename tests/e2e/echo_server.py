"""A Python MCP server that says back what its tools received, for the gateway's end-to-end
test (`gateway.py`): what a call reaches the upstream as is read on the upstream's side.

- `tag`: pydantic's map (`labels: dict[str, int]`), a nullable key with no default
  (`note: Optional[str]`, which must come as `null` when the caller gives one) and a nullable
  key with a default (`limit: Optional[int] = 10`), each said back as received, in JSON.
- `wait`: answers after `seconds`, for a slow call that must not hold another client's.
- `count`: an integer with a minimum, for a call the gateway refuses before it reaches here;
  each call it receives is counted, and `count` says how many it has received.

Run: python tests/e2e/echo_server.py (stdio).
"""

import asyncio
import json
from typing import Optional

from mcp.server.mcpserver import MCPServer
from pydantic import Field

server = MCPServer("echo")
received = {"count": 0}


@server.tool()
def tag(labels: dict[str, int], note: Optional[str], limit: Optional[int] = 10) -> str:
    """Tag something: say back the labels, note and limit received."""
    return json.dumps({"labels": labels, "note": note, "limit": limit}, sort_keys=True)


@server.tool()
def count(n: int = Field(ge=0)) -> str:
    """Count a call: say how many calls this tool has received, this one included."""
    received["count"] += 1
    return json.dumps({"n": n, "received": received["count"]})


@server.tool()
async def wait(seconds: float = Field(ge=0, le=30)) -> str:
    """Answer after `seconds`."""
    await asyncio.sleep(seconds)
    return "waited"


if __name__ == "__main__":
    server.run()
