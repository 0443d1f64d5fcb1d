"""End-to-end test of the MCP examples with an independent MCP client: the official Python
SDK (`pip install mcp`).

Usage:
  python tests/e2e/mcp_client.py stdio PATH/TO/SERVER [ARGS...]
  python tests/e2e/mcp_client.py http http://127.0.0.1:PORT/mcp

Both examples serve `broadcast_patch` and `get_broadcast` (each with an output schema) as stitch
tools over the same store (broadcast `b1`, three text parts); `rmcp_router` also serves a plain
rmcp tool, `count_parts`, and a prompt, `review_broadcast`, which are checked when listed.
Prints 'N passed, 0 failed' and exits 0 when every check holds.
"""

import asyncio
import contextlib
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def wire(model):
    """A pydantic model as the JSON on the wire (camelCase keys)."""
    return json.loads(model.model_dump_json(by_alias=True, exclude_none=True))


@contextlib.asynccontextmanager
async def connect(kind, target, args):
    if kind == "stdio":
        params = StdioServerParameters(command=target, args=args)
        async with stdio_client(params) as (read, write):
            yield read, write
    else:
        async with streamable_http_client(target) as streams:
            yield streams[0], streams[1]


async def main(kind: str, target: str, args: list) -> int:
    checks = []

    def check(name, condition, detail=""):
        checks.append((name, bool(condition)))
        print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))

    async with connect(kind, target, args) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

            listed = wire(await session.list_tools())
            tools = {tool["name"]: tool for tool in listed["tools"]}
            check("tools/list shows broadcast_patch and get_broadcast",
                  {"broadcast_patch", "get_broadcast"} <= tools.keys(), list(tools))
            schema = tools["broadcast_patch"]["inputSchema"]
            text = json.dumps(schema)
            check("the schema is flat: no oneOf/anyOf", "oneOf" not in text and "anyOf" not in text)
            items = schema["properties"]["operations"]["items"]
            part_index = items["properties"]["partIndex"]
            check("partIndex is typed integer with minimum 0",
                  part_index.get("type") == "integer" and part_index.get("minimum") == 0,
                  part_index)
            check("the tag is a string enum of 14 operations, and comes first",
                  items["properties"]["op"]["type"] == "string"
                  and len(items["properties"]["op"]["enum"]) == 14
                  and list(items["properties"])[0] == "op")
            check("broadcast_patch advertises its result's schema",
                  tools["broadcast_patch"].get("outputSchema", {}).get("type") == "object",
                  tools["broadcast_patch"].get("outputSchema"))

            if "count_parts" in tools:
                count_schema = tools["count_parts"]["inputSchema"]
                check("the plain rmcp tool keeps rmcp's own schema (schemars)",
                      count_schema.get("properties", {}).get("broadcast_id", {}).get("type")
                      == "string" and "$schema" in count_schema, count_schema)
                counted = wire(await session.call_tool("count_parts", {"broadcast_id": "b1"}))
                check("the plain rmcp tool answers", counted["content"][0]["text"] == "3", counted)
                prompts = wire(await session.list_prompts())
                names = [prompt["name"] for prompt in prompts["prompts"]]
                check("the prompt is listed", "review_broadcast" in names, names)
                prompt = wire(await session.get_prompt("review_broadcast", {"broadcast_id": "b1"}))
                check("the prompt reads the store",
                      "Spring sale" in prompt["messages"][0]["content"]["text"], prompt)

            bad = wire(await session.call_tool("broadcast_patch", {
                "broadcastId": "b1",
                "operations": [{"op": "setText", "partIndex": "1", "text": "Hi"}],
            }))
            # A tool with an output schema: the issues travel in the text and in `_meta`.
            issues = bad.get("_meta", {}).get("stitch/rejection", {}).get("issues", [])
            check("a quoted partIndex comes back as an isError result", bad.get("isError") is True, bad)
            check("the rejection has no structuredContent to break the output schema",
                  "structuredContent" not in bad, bad)
            check("the issue names /operations/0/partIndex",
                  [i["pointer"] for i in issues] == ["/operations/0/partIndex"], issues)
            check("the message tells the model what to send",
                  "/operations/0/partIndex: expected integer, got string \"1\" — send the number "
                  "without quotes" == bad["content"][0]["text"], bad["content"])

            short = wire(await session.call_tool("get_broadcast", {"broadcastId": ""}))
            short_issues = short.get("_meta", {}).get("stitch/rejection", {}).get("issues", [])
            check("get_broadcast answers Json too: its rejection's issues are in _meta",
                  short.get("isError") is True and "structuredContent" not in short
                  and [i["pointer"] for i in short_issues] == ["/broadcastId"], short)

            good = wire(await session.call_tool("broadcast_patch", {
                "broadcastId": "b1",
                "operations": [
                    {"op": "setText", "partIndex": 1, "text": "Sale starts Tuesday."},
                    {"op": "setButton", "partIndex": 1, "buttonIndex": 0, "label": "Shop"},
                ],
            }))
            check("a valid call succeeds", good.get("isError") is not True, good)
            state = good.get("structuredContent", {})
            check("the result is the broadcast's new state",
                  state.get("parts", [{}, {}])[1].get("text") == "Sale starts Tuesday."
                  and state["parts"][1]["buttons"][0]["label"] == "Shop", state)

            read_back = wire(await session.call_tool("get_broadcast", {"broadcastId": "b1"}))
            check("the change is stored",
                  read_back.get("structuredContent", {}).get("parts", [{}, {}])[1].get("text")
                  == "Sale starts Tuesday.", read_back)

            failing = wire(await session.call_tool("broadcast_patch", {
                "broadcastId": "b1", "operations": [{"op": "removePart", "partIndex": 9}],
            }))
            check("a handler error is an isError result too",
                  failing.get("isError") is True and "part 9 does not exist"
                  in failing["content"][0]["text"], failing)

    passed = sum(1 for _, ok in checks if ok)
    failed = len(checks) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:])))
