"""One server, each client its dialect: end to end with the official Python SDK.

Usage: python tests/e2e/dialect_clients.py PATH/TO/rmcp_router

Starts the example over streamable HTTP on 127.0.0.1 with `--client-dialect
strict-agent=openai-strict --client-dialect gemini-app=portable`, then connects three clients
that differ only in the name they give in `initialize`: `strict-agent` must be listed
`broadcast_patch` (and the plain rmcp tool `count_parts`) in OpenAI's strict dialect,
`gemini-app` in the portable one, and any other client in the default (`mcp`) one, where
`count_parts` is listed as schemars wrote it. The strict client then fills a call the way a strict-mode
model does (every key, `null` for those it leaves out) and the edit must be applied.
Prints 'N passed, 0 failed' and exits 0 when every check holds.
"""

import asyncio
import json
import re
import subprocess
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import Implementation
from verdicts import check, summary


def wire(model):
    """A pydantic model as the JSON on the wire (camelCase keys)."""
    return json.loads(model.model_dump_json(by_alias=True, exclude_none=True))


async def listed_as(url, client):
    """The `broadcast_patch` tool as the client named `client` is listed it."""
    async with streamable_http_client(url) as streams:
        info = Implementation(name=client, version="1.0")
        async with ClientSession(streams[0], streams[1], client_info=info) as session:
            await session.initialize()
            tools = {t["name"]: t for t in wire(await session.list_tools())["tools"]}
            return tools["broadcast_patch"]["inputSchema"], tools["count_parts"]["inputSchema"]


async def strict_call(url, title):
    """A strict-mode model's call: every key of the flat object, `null` where it means none."""
    async with streamable_http_client(url) as streams:
        info = Implementation(name="strict-agent", version="1.0")
        async with ClientSession(streams[0], streams[1], client_info=info) as session:
            await session.initialize()
            tools = {t["name"]: t for t in wire(await session.list_tools())["tools"]}
            items = tools["broadcast_patch"]["inputSchema"]["properties"]["operations"]["items"]
            operation = {key: None for key in items["properties"]}
            operation.update({"op": "setTitle", "title": title})
            arguments = {"broadcastId": "b1", "operations": [operation]}
            result = wire(await session.call_tool("broadcast_patch", arguments))
            read = wire(await session.call_tool("get_broadcast", {"broadcastId": "b1"}))
            return result, read


async def main(server):
    process = subprocess.Popen(
        [server, "--http", "127.0.0.1:0",
         "--client-dialect", "strict-agent=openai-strict",
         "--client-dialect", "gemini-app=portable"],
        stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://\S+/mcp", process.stderr.readline()).group(0)
        plain, plain_count = await listed_as(url, "plain-client")
        strict, strict_count = await listed_as(url, "strict-agent")
        portable, _ = await listed_as(url, "gemini-app")
        items = {name: schema["properties"]["operations"]["items"]
                 for name, schema in [("mcp", plain), ("strict", strict), ("portable", portable)]}
        check("the two clients are listed different schemas by one server", plain != strict)
        check("a client no rule names is listed the default dialect: partIndex an integer",
              items["mcp"]["properties"]["partIndex"]["type"] == "integer"
              and items["mcp"]["required"] == ["op"], items["mcp"]["properties"]["partIndex"])
        keys = list(items["strict"]["properties"])
        check("strict-agent is listed OpenAI's strict dialect: every key required",
              items["strict"]["required"] == keys
              and items["strict"]["additionalProperties"] is False, items["strict"]["required"])
        check("in it, a key only some operations declare is nullable",
              items["strict"]["properties"]["partIndex"]["type"] == ["integer", "null"],
              items["strict"]["properties"]["partIndex"])
        check("gemini-app is listed the portable dialect: no type arrays",
              "\"type\": [" not in json.dumps(portable)
              and items["portable"]["properties"]["caption"]["type"] == "string",
              items["portable"]["properties"]["caption"])
        check("a plain rmcp tool is listed to an mcp client as written (schemars' own `$schema`)",
              plain_count.get("$schema", "").startswith("https://json-schema.org/"), plain_count)
        check("and to the strict client in its dialect: closed, every key required",
              strict_count.get("additionalProperties") is False
              and strict_count["required"] == list(strict_count["properties"])
              and "$schema" not in strict_count, strict_count)
        result, read = await strict_call(url, "Filled the strict way")
        check("the strict client's call, every key sent and null where none, is applied",
              result.get("isError") is False
              and read["structuredContent"]["title"] == "Filled the strict way", result)
    finally:
        process.terminate()
        process.wait(timeout=10)
    return summary()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
