"""What `stitch-gateway` lists of an upstream at each dialect's path, and what its `check` says
of the same upstream, side by side, for the providers' converters (`gateway_converters.py`).

Usage: python tests/e2e/gateway_listings.py GATEWAY OUT NAME -- UPSTREAM [ARGS...]

Serves UPSTREAM through the gateway over HTTP, lists it with the official Python SDK at each
dialect's path, and writes OUT/NAME/DIALECT.json (the tools as listed), OUT/NAME/check.json
(`check --json` of the same upstream) and OUT/NAME/check.status (its exit status).
"""

import asyncio
import json
import pathlib
import re
import subprocess
import sys

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

DIALECTS = ["mcp", "portable", "openai-strict", "anthropic-strict", "gemini"]


async def listed(url):
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            tools, cursor = [], None
            while True:
                page = await session.list_tools(cursor=cursor) if cursor else await session.list_tools()
                tools.extend(json.loads(tool.model_dump_json(by_alias=True, exclude_none=True))
                             for tool in page.tools)
                cursor = page.next_cursor
                if not cursor:
                    return tools


async def main(gateway, out, name, upstream):
    out = pathlib.Path(out) / name
    out.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen([gateway, "serve", "--http", "127.0.0.1:0", "--", *upstream],
                               stderr=subprocess.PIPE, text=True)
    try:
        url = None
        for line in process.stderr:
            found = re.search(r"http://\S+/mcp", line)
            if found:
                url = found.group(0)
                break
        for dialect in DIALECTS:
            tools = await listed(f"{url}/{dialect}")
            (out / f"{dialect}.json").write_text(json.dumps(tools, indent=1))
    finally:
        process.terminate()
        process.wait(timeout=10)
    check = subprocess.run([gateway, "check", "--json", "--", *upstream], capture_output=True,
                           text=True, timeout=300)
    (out / "check.json").write_text(check.stdout)
    (out / "check.status").write_text(str(check.returncode))
    print(f"{name}: listed in {len(DIALECTS)} dialects ({len(tools)} tools); check exited "
          f"{check.returncode}")


if __name__ == "__main__":
    separator = sys.argv.index("--")
    gateway, out, name = sys.argv[1:separator]
    asyncio.run(main(gateway, out, name, sys.argv[separator + 1:]))
