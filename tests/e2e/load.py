"""Load and faults over streamable HTTP, against examples/rmcp_router.rs on loopback.

Usage: python tests/e2e/load.py PATH/TO/rmcp_router [ROUNDS]

Starts the server on 127.0.0.1 (a free port), then, ROUNDS times (default 3): 32 client
sessions at once, 200 calls each, in a deterministic mix of valid edits, invalid calls (a
quoted integer, an unknown operation, a 5 MB string) and malformed ones (arguments that are
not an object, JSON nested 1,000 levels, an unknown tool). It checks that every call is
answered, that every valid edit was applied exactly once (the broadcast's revision),
that the server's observer saw exactly the calls that reached a stitch tool (its audit lines),
that the server still answers, and that its memory does not grow from round to round. It
prints calls per second and the p50/p99 latency of each round (figures, not assertions), and,
as a baseline measured in the same run, a round of rmcp's own plain tool (`count_parts`) beside
a round of a stitch tool doing the same read (`get_broadcast`).

The requests are written by hand (JSON-RPC over HTTP, as the transport specifies), since the
malformed calls are ones an SDK client refuses to send.
"""

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time

import httpx2 as httpx

SESSIONS = 32
CALLS = 200
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PROTOCOL = "2025-06-18"


def nested(levels):
    """JSON text nested `levels` deep: the arguments of a call."""
    return "[" * levels + "1" + "]" * levels


class Session:
    def __init__(self, client, url):
        self.client, self.url, self.id, self.next_id = client, url, None, 0

    async def post(self, body: str):
        """Posts a JSON-RPC text; the JSON-RPC answer (an SSE event or a JSON body), or the HTTP
        status when the server answered with an error status and no JSON-RPC message."""
        headers = dict(HEADERS)
        if self.id:
            headers["Mcp-Session-Id"] = self.id
            headers["Mcp-Protocol-Version"] = PROTOCOL
        response = await self.client.post(self.url, content=body, headers=headers)
        self.id = self.id or response.headers.get("mcp-session-id")
        text = response.text
        if "text/event-stream" in response.headers.get("content-type", ""):
            for line in text.splitlines():
                if line.startswith("data:") and line[5:].strip():
                    return json.loads(line[5:])
            return {"status": response.status_code}
        try:
            return json.loads(text)
        except ValueError:
            # An HTTP error with a plain body (a request the transport refused): answered.
            return {"status": response.status_code}

    async def request(self, method, params_text):
        self.next_id += 1
        body = f'{{"jsonrpc":"2.0","id":{self.next_id},"method":"{method}","params":{params_text}}}'
        return await self.post(body)

    async def close(self):
        """Ends the session, as SDK clients do when they close."""
        headers = {"Mcp-Session-Id": self.id, "Mcp-Protocol-Version": PROTOCOL}
        await self.client.delete(self.url, headers=headers)

    async def start(self):
        init = {"protocolVersion": PROTOCOL, "capabilities": {},
                "clientInfo": {"name": "load", "version": "0"}}
        answer = await self.request("initialize", json.dumps(init))
        assert "result" in answer, answer
        await self.post('{"jsonrpc":"2.0","method":"notifications/initialized"}')


def call(kind, session, index):
    """The params of one call of a kind, and whether it reaches a stitch tool."""
    def tool(name, arguments):
        return json.dumps({"name": name, "arguments": arguments})
    if kind == "valid":
        title = f"session {session}, call {index}"
        return tool("broadcast_patch", {"broadcastId": "b1",
                                        "operations": [{"op": "setTitle", "title": title}]}), True
    if kind == "quoted":
        return tool("broadcast_patch", {"broadcastId": "b1", "operations": [
            {"op": "setText", "partIndex": "1", "text": "x"}]}), True
    if kind == "unknown_operation":
        return tool("broadcast_patch", {"broadcastId": "b1", "operations": [{"op": "explode"}]}), True
    if kind == "huge":
        return tool("broadcast_patch", {"broadcastId": "b1", "operations": [
            {"op": "addText", "text": "x" * 5_000_000}]}), True
    if kind == "not_an_object":
        return '{"name":"get_broadcast","arguments":[1,2,3]}', False
    if kind == "deep":
        return '{"name":"get_broadcast","arguments":{"broadcastId":' + nested(1000) + "}}", False
    return tool("no_such_tool", {}), False


# A deterministic mix: of every 20 calls, 12 valid edits and 8 bad ones; the 5 MB string once
# per session.
PATTERN = ["valid", "quoted", "valid", "unknown_operation", "valid", "not_an_object",
           "valid", "deep", "valid", "unknown_tool", "valid", "quoted", "valid",
           "unknown_operation", "valid", "not_an_object", "valid", "deep", "valid", "valid"]


def kind_of(index):
    return "huge" if index == 100 else PATTERN[index % len(PATTERN)]


async def same_read(client, url, name, latencies):
    """One session of 200 reads of broadcast b1 through tool `name`: the baseline's rounds."""
    s = Session(client, url)
    await s.start()
    key = "broadcast_id" if name == "count_parts" else "broadcastId"  # schemars' name, stitch's
    params = json.dumps({"name": name, "arguments": {key: "b1"}})
    for _ in range(CALLS):
        started = time.perf_counter()
        answer = await s.request("tools/call", params)
        latencies.append(time.perf_counter() - started)
        assert answer.get("result", {}).get("isError") is False, answer
    await s.close()


def figures(latencies, sent, elapsed):
    latencies.sort()
    return (f"{sent / elapsed:.0f} calls/s, p50 {statistics.median(latencies) * 1e3:.1f} ms, "
            f"p99 {latencies[int(len(latencies) * 0.99)] * 1e3:.1f} ms")


async def baseline(url, pid):
    """Reads through rmcp's plain tool, then through the stitch tool: the ratio is what a
    stitch route costs over rmcp's own, on this machine, with this client."""
    rates = {}
    for name in ["count_parts", "get_broadcast"]:
        latencies, cpu = [], cpu_seconds(pid)
        async with httpx.AsyncClient(timeout=120,
                                     limits=httpx.Limits(max_connections=SESSIONS * 2)) as client:
            started = time.perf_counter()
            await asyncio.wait_for(asyncio.gather(*(
                same_read(client, url, name, latencies) for _ in range(SESSIONS))), timeout=600)
            elapsed = time.perf_counter() - started
        sent = SESSIONS * CALLS
        rates[name] = (cpu_seconds(pid) - cpu) / sent
        print(f"baseline {name}: {figures(latencies, sent, elapsed)}, "
              f"server CPU {rates[name] * 1e6:.0f} µs/call")
    print(f"baseline: a stitch tool's call costs the server "
          f"{rates['get_broadcast'] / rates['count_parts']:.2f} times the CPU of rmcp's plain tool")


async def one_session(client, url, session, latencies, tally):
    s = Session(client, url)
    await s.start()
    for index in range(CALLS):
        kind = kind_of(index)
        params, reaches_stitch = call(kind, session, index)
        started = time.perf_counter()
        answer = await s.request("tools/call", params)
        latencies.append(time.perf_counter() - started)
        tally["answered"] += 1 if answer else 0
        tally["stitch"] += 1 if reaches_stitch else 0
        result = answer.get("result", {})
        if kind == "valid":
            tally["valid"] += 1
            tally["applied"] += 1 if result.get("isError") is False else 0
        elif reaches_stitch:
            tally["refused"] += 1 if result.get("isError") is True else 0
        else:
            tally["protocol_errors"] += 1 if ("error" in answer or "status" in answer
                                              or result.get("isError")) else 0
    await s.close()


def cpu_seconds(pid):
    """The server's CPU time so far (user and system), from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def revision(url):
    """The broadcast's revision: one per edit applied."""
    async with httpx.AsyncClient(timeout=60) as client:
        s = Session(client, url)
        await s.start()
        answer = await s.request("tools/call", json.dumps(
            {"name": "get_broadcast", "arguments": {"broadcastId": "b1"}}))
        await s.close()
        return answer["result"]["structuredContent"]["revision"]


async def main(server, rounds):
    # glibc's allocator with a fixed mmap threshold: freed large buffers (the 5 MB strings) go
    # back to the system instead of moving the threshold up and staying in the heap, so the
    # resident size measures what the server keeps, not what the allocator caches.
    environment = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072", MALLOC_ARENA_MAX="2")
    process = subprocess.Popen([server, "--http", "127.0.0.1:0"], stderr=subprocess.PIPE,
                               text=True, env=environment)
    line = process.stderr.readline()
    url = re.search(r"http://\S+/mcp", line).group(0)
    audits = []

    def drain():
        for line in process.stderr:
            if line.startswith("audit tool="):
                audits.append(line)

    loop = asyncio.get_running_loop()
    draining = loop.run_in_executor(None, drain)
    failures, memory, expected_revision, expected_audits = [], [], await revision(url), 1
    try:
        for round_number in range(1, rounds + 1):
            latencies, tally = [], dict.fromkeys(
                ["answered", "stitch", "valid", "applied", "refused", "protocol_errors"], 0)
            limits = httpx.Limits(max_connections=SESSIONS * 2)
            cpu = cpu_seconds(process.pid)
            async with httpx.AsyncClient(timeout=120, limits=limits) as client:
                started = time.perf_counter()
                await asyncio.wait_for(asyncio.gather(*(
                    one_session(client, url, session, latencies, tally)
                    for session in range(SESSIONS))), timeout=600)
                elapsed = time.perf_counter() - started
            sent = SESSIONS * CALLS
            expected_revision += tally["valid"]
            expected_audits += tally["stitch"] + 1  # and the revision's own call
            edits = await revision(url)
            await asyncio.sleep(0.5)  # the audit lines of the last calls reach the pipe
            memory.append(rss_kib(process.pid))
            cpu = cpu_seconds(process.pid) - cpu
            print(f"round {round_number}: {sent} calls in {elapsed:.1f} s, "
                  f"{figures(latencies, sent, elapsed)}, server CPU {cpu / sent * 1e6:.0f} µs/call, "
                  f"server RSS {memory[-1] / 1024:.1f} MiB")
            checks = [
                ("every call answered", tally["answered"] == sent, tally),
                ("every valid edit applied", tally["applied"] == tally["valid"], tally),
                ("every invalid call refused as a tool result",
                 tally["refused"] == tally["stitch"] - tally["valid"], tally),
                ("every malformed call answered as an error",
                 tally["protocol_errors"] == sent - tally["stitch"], tally),
                ("each valid edit applied exactly once", edits == expected_revision,
                 (edits, expected_revision)),
                ("the observer saw every call that reached a stitch tool",
                 len(audits) == expected_audits, (len(audits), expected_audits)),
            ]
            for name, holds, detail in checks:
                print(("ok   " if holds else "FAIL ") + name + ("" if holds else f": {detail}"))
                if not holds:
                    failures.append(name)
        # Memory: the first round warms the server up; from the second on, the resident size
        # must not grow beyond allocator slack (a leak of a session, a call or a refused 5 MB
        # string would show as megabytes a round).
        growth = memory[-1] - memory[min(1, len(memory) - 1)]
        holds = growth < 4 * 1024
        print(("ok   " if holds else "FAIL ")
              + f"memory does not grow across rounds (+{growth / 1024:.1f} MiB after round 2)")
        if not holds:
            failures.append("memory")
        await baseline(url, process.pid)
        still = await revision(url)
        print(("ok   " if still == expected_revision else "FAIL ")
              + "the server still answers afterwards")
    finally:
        process.terminate()
        process.wait(timeout=10)
        await draining
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    sys.exit(asyncio.run(main(sys.argv[1], rounds)))
