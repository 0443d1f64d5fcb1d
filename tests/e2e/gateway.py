"""`stitch-gateway serve` end to end, the official Python SDK as its client, in front of
Python servers: `echo_server.py` (pydantic tools that say back what they received) and
`faulty_server.py` (one that hangs, exits, writes garbage and relists on purpose).

Usage: python tests/e2e/gateway.py GATEWAY PYTHON

GATEWAY is the `stitch-gateway` binary, PYTHON a Python with the `mcp` package (it runs the
upstreams). Checks:

- each dialect path lists every tool in its dialect; a call that breaks the tool's own schema
  comes back `isError` with each issue at its JSON Pointer, and never reaches the upstream;
- a strict model's call (a map as entries, `null` for every key it leaves out) reaches the
  upstream as its schema states it (said back on the upstream's side);
- a slow call of one client does not hold another's, stateful and stateless;
- faults: a call the upstream never answers ends at the deadline, an upstream that exits, a
  line of garbage, a schema no validator compiles, three thousand tools, an upstream that
  cannot start: each a clear error or a served tool, the gateway never down; memory stays
  bounded across 300 relistings.
Prints 'N passed, 0 failed' and exits 0 when every check holds.
"""

import asyncio
import json
import pathlib
import re
import subprocess
import sys
import time
import urllib.request

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from verdicts import check, summary

HERE = pathlib.Path(__file__).parent
DIALECTS = ["mcp", "portable", "openai-strict", "anthropic-strict", "gemini"]
def wire(model):
    """A pydantic model as the JSON on the wire (camelCase keys)."""
    return json.loads(model.model_dump_json(by_alias=True, exclude_none=True))


def start(gateway, *args):
    """The gateway serving over HTTP on a free loopback port: its process and URL."""
    process = subprocess.Popen([gateway, "serve", "--http", "127.0.0.1:0", *args],
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        found = re.search(r"http://\S+/mcp", line)
        if found:
            return process, found.group(0)
    raise RuntimeError(f"the gateway did not start: {process.wait()}")


def rss_kib(process):
    """The process's resident memory, in KiB."""
    status = pathlib.Path(f"/proc/{process.pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))


class Client:
    """One client session, opened and closed with `async with`."""

    def __init__(self, url):
        self.url = url

    async def __aenter__(self):
        self.streams = streamable_http_client(self.url)
        read, write = (await self.streams.__aenter__())[:2]
        self.session = ClientSession(read, write)
        await self.session.__aenter__()
        await self.session.initialize()
        return self

    async def __aexit__(self, *exc):
        await self.session.__aexit__(*exc)
        await self.streams.__aexit__(*exc)

    async def tools(self):
        return {tool["name"]: tool for tool in wire(await self.session.list_tools())["tools"]}

    async def call(self, name, arguments):
        return wire(await self.session.call_tool(name, arguments))


def said(result):
    """What an echo tool said back, as JSON."""
    return json.loads(result["content"][0]["text"])


def issues(result):
    """The issues of a refused call: (pointer, code) each."""
    rejection = result.get("structuredContent") or result.get("_meta", {}).get("stitch/rejection", {})
    return [(issue["pointer"], issue["code"]) for issue in rejection.get("issues", [])]


async def dialect_paths(url):
    for dialect in DIALECTS:
        async with Client(f"{url}/{dialect}") as client:
            tools = await client.tools()
            check(f"{dialect}: every tool listed", set(tools) == {"tag", "count", "wait"}, tools)
            labels = tools["tag"]["inputSchema"]["properties"]["labels"]
            check(f"{dialect}: the map keeps its value type",
                  "integer" in json.dumps(labels), labels)
            refused = await client.call("count", {"n": -1})
            check(f"{dialect}: a call below the minimum is refused at /n",
                  refused.get("isError") and ("/n", "minimum") in issues(refused), refused)
            passed = await client.call("count", {"n": 2})
            check(f"{dialect}: the refused call never reached the upstream",
                  said(passed) == {"n": 2, "received": 1}, passed)


async def strict_call(url):
    async with Client(f"{url}/openai-strict") as client:
        labels = (await client.tools())["tag"]["inputSchema"]["properties"]["labels"]
        check("openai-strict: the map is listed as an array of entries",
              labels["type"] == "array", labels)
        entries = [{"key": "a", "value": 1}, {"key": "b", "value": 2}]
        result = await client.call("tag", {"labels": entries, "note": None, "limit": None})
        check("a strict call reaches the upstream as its schema states it: a map, the null it "
              "takes, the default where null means none",
              said(result) == {"labels": {"a": 1, "b": 2}, "note": None, "limit": 10}, result)
        bad = await client.call("tag", {"labels": [{"key": "a", "value": "x"}], "note": None,
                                        "limit": None})
        check("a strict call with a bad entry is refused under /labels",
              bad.get("isError") and any(p.startswith("/labels") for p, _ in issues(bad)), bad)


async def slow_and_quick(url, what):
    async with Client(url) as slow, Client(url) as quick:
        waiting = asyncio.ensure_future(slow.call("wait", {"seconds": 3}))
        await asyncio.sleep(0.3)
        began = time.monotonic()
        await quick.call("count", {"n": 1})
        took = time.monotonic() - began
        check(f"{what}: a slow call of one client does not hold another's ({took:.2f} s)",
              took < 1.5 and not waiting.done(), took)
        check(f"{what}: and the slow call is answered", (await waiting)["content"][0]["text"]
              == "waited")


async def faults(url, gateway):
    async with Client(url) as client:
        tools = await client.tools()
        check("faults: every tool listed, the unreadable schema's too", len(tools) == 5, tools)
        began = time.monotonic()
        try:
            answer = await client.call("hang", {"n": 1})
            ended = answer.get("isError")
        except MCPError as error:
            ended = "did not answer" in str(error)
        took = time.monotonic() - began
        check(f"faults: a call the upstream never answers ends at the deadline ({took:.1f} s)",
              ended and 2.5 < took < 8, took)
        check("faults: the next call is served", said(await client.call("ok", {"n": 1})) == {"n": 1})
        unchecked = await client.call("unreadable", {"a": 5})
        check("faults: a tool whose schema no validator reads is the upstream's to judge",
              said(unchecked) == {"a": 5}, unchecked)
        try:
            await client.call("garbage", {"n": 1})
        except MCPError:
            pass
        check("faults: a line of garbage from the upstream leaves it served",
              said(await client.call("ok", {"n": 2})) == {"n": 2})
        first = rss_kib(gateway)
        for round in range(300):
            await client.call("ok", {"n": round})
            described = (await client.tools())["ok"]["description"]
            if round == 49:
                first = rss_kib(gateway)
        check("faults: each relisting the upstream announces is listed",
              "called 302 times" in described, described)
        grown = rss_kib(gateway) - first
        check(f"faults: memory bounded across relistings (+{grown} KiB over 250)", grown < 8192)
        try:
            await client.call("exit", {"n": 1})
            gone = False
        except MCPError as error:
            gone = "gone" in str(error) or "closed" in str(error)
        check("faults: an upstream that exits mid-call is a clear error", gone)
    async with Client(url) as client:
        check("faults: a new session after the upstream exited is served",
              said(await client.call("ok", {"n": 3})) == {"n": 3})
    check("faults: the gateway is still up", gateway.poll() is None)


def cannot_start(url, what):
    """`initialize`, sent as any client sends it: the answer must be an error saying why."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "gateway.py", "version": "1"}}}).encode()
    request = urllib.request.Request(url, body, {
        "content-type": "application/json", "accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode()
    errors = [json.loads(line[5:])["error"] for line in text.splitlines()
              if line.startswith("data:") and "\"error\"" in line]
    check(f"{what}: the client is told why",
          errors and "initialize" in errors[0]["message"], text)


async def main(gateway, python):
    echo = [python, str(HERE / "echo_server.py")]
    faulty = [python, str(HERE / "faulty_server.py")]
    running = []
    try:
        process, url = start(gateway, "--", *echo)
        running.append(process)
        await dialect_paths(url)
        await strict_call(url)
        await slow_and_quick(url, "stateful")
        process, url = start(gateway, "--stateless", "--", *echo)
        running.append(process)
        await slow_and_quick(url, "stateless")
        process, url = start(gateway, "--deadline", "3", "--", *faulty)
        running.append(process)
        await faults(url, process)
        process, url = start(gateway, "--", *faulty, "many:3000")
        running.append(process)
        for dialect in DIALECTS:
            async with Client(f"{url}/{dialect}") as client:
                count = len(await client.tools())
                check(f"three thousand tools listed in {dialect}", count == 3000, count)
        for what, upstream in [("garbage for initialize", [*faulty, "garbage-init"]),
                               ("an upstream that exits at start", ["false"])]:
            process, url = start(gateway, "--deadline", "5", "--", *upstream)
            running.append(process)
            cannot_start(url, what)
            check(f"{what}: the gateway is still up", process.poll() is None)
    finally:
        for process in running:
            process.terminate()
            process.wait(timeout=10)
    return summary()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:3])))
