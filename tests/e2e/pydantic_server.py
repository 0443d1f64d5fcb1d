"""A Python MCP server whose tools take pydantic models, for the corpus (`corpus.py`): the
schemas are pydantic's and the Python SDK's, as any such server lists them.

- `kv`: a discriminated union whose tag has a default (`Literal["get"] = "get"`, which pydantic
  writes as a `const` beside `default`, not required, under `discriminator.propertyName`), and
  a nullable key with a default other than `null` (`max_items: Optional[int] = 50`).

Run: python tests/e2e/pydantic_server.py (stdio).
"""

from typing import Annotated, Literal, Optional, Union

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field


class Get(BaseModel):
    """Read one key."""

    kind: Literal["get"] = "get"
    key: str


class Put(BaseModel):
    """Write one key."""

    kind: Literal["put"] = "put"
    key: str
    value: int = Field(ge=0)


server = MCPServer("pydantic-kv")


@server.tool()
def kv(
    action: Annotated[Union[Get, Put], Field(discriminator="kind")],
    max_items: Optional[int] = 50,
) -> str:
    """A key-value store: read or write one key."""
    return f"{action!r} {max_items!r}"


if __name__ == "__main__":
    server.run()
