"""One stranger against everyone else: an attacker on one loopback address (127.0.0.1) and a
legitimate user on another (127.0.0.2), against examples/long_calls.rs served by stitch's
HttpServer.

Usage: python tests/e2e/hostile.py PATH/TO/long_calls [--quick]

Each scenario starts its own server (a free port) and holds it to what the user meets:

- silent: 1,300 connections from the attacker that send nothing, kept open (reopened when
  closed) for 30 s; the user opens a new session every second: at least 90% succeed.
- trickle: 1,100 connections from the attacker trickling a request head at 1 byte/s for 30 s;
  the same for the user.
- sessions: the attacker holds its whole share of sessions, pings each every second, and
  keeps asking for more; the user gets a new session every time it asks (30 times).
- long call: a 10 s call in a session whose idle limit is 5 s is answered, and the session,
  idle past the limit afterwards, answers 404.
- hung: 50 calls hang, each holding 2 MiB; cancelled (notifications/cancelled), every handler
  is dropped, the observer says so, and the server's resident memory returns; the same for a
  session ended with DELETE (after the 5 s rmcp gives a closed session's handlers to finish).
- blocking: while two calls do blocking work (on the blocking pool), the user's pings are
  answered at once.

The requests are written by hand (JSON-RPC over HTTP) on sockets bound to each address. It
prints each figure, and fails when a promise is broken. `--quick` shortens the 30 s floods to
5 s (for a local run; CI runs them whole).
"""

import asyncio
import json
import os
import re
import resource
import subprocess
import sys
import time

ATTACKER, USER = "127.0.0.1", "127.0.0.2"
PROTOCOL = "2025-06-18"
INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": PROTOCOL, "capabilities": {},
               "clientInfo": {"name": "hostile-e2e", "version": "0"}}})
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
FLOOD_SECONDS = 30


class Server:
    """examples/long_calls on a free port of 127.0.0.1, with `flags`."""

    def __init__(self, binary, *flags):
        self.process = subprocess.Popen(
            [binary, "--http", "127.0.0.1:0", *flags],
            stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"serving on http://([\d.]+):(\d+)/mcp", line)
        if not match:
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(match.group(2))
        self.log = []

    def rss_mib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        """Stops the server; its observer's lines."""
        self.process.terminate()
        _, rest = self.process.communicate(timeout=10)
        return rest.splitlines()


async def connect(source, port):
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def post(source, port, body, session=None, read_all=True, timeout=15.0):
    """One POST on a new connection from `source`: (status, headers, body text), or
    (None, {}, why) when no answer came."""
    try:
        reader, writer = await asyncio.wait_for(connect(source, port), timeout)
    except (OSError, asyncio.TimeoutError) as error:
        return None, {}, f"no connection: {error!r}"
    extra = f"Mcp-Session-Id: {session}\r\n" if session else ""
    head = (f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nConnection: close\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n")
    try:
        writer.write(head.encode() + body.encode())
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(-1) if read_all else reader.read(4096), timeout)
    except (OSError, asyncio.TimeoutError) as error:
        writer.close()
        return None, {}, f"no answer: {error!r}"
    writer.close()
    text = raw.decode(errors="replace")
    head, _, rest = text.partition("\r\n\r\n")
    lines = head.split("\r\n")
    if not lines or not lines[0].startswith("HTTP/1.1 "):
        return None, {}, f"no status line: {text[:80]!r}"
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, rest


async def open_session(source, port):
    """A new session from `source`: its id, or None."""
    status, headers, _ = await post(source, port, INITIALIZE, timeout=10.0)
    session = headers.get("mcp-session-id")
    if status != 200 or not session:
        return None
    await post(source, port, INITIALIZED, session)
    return session


async def user_tries(port, seconds):
    """The user opens a new session every second for `seconds`: (succeeded, tried)."""
    succeeded = tried = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tried += 1
        started = time.monotonic()
        if await open_session(USER, port):
            succeeded += 1
        await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
    return succeeded, tried


async def hold(port, count, seconds, send):
    """`count` attacker connections for `seconds`, each reopened when closed, each fed by
    `send(writer)` until its end."""
    end = time.monotonic() + seconds

    async def one():
        while time.monotonic() < end:
            try:
                reader, writer = await connect(ATTACKER, port)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            try:
                await send(writer, reader, end)
            except (OSError, ConnectionError):
                pass
            writer.close()
    await asyncio.gather(*(one() for _ in range(count)))


async def silent(writer, reader, end):
    """Sends nothing; waits for the server to close."""
    await asyncio.wait_for(reader.read(1), max(0.01, end - time.monotonic()))


async def trickle(writer, reader, end):
    """Sends a request head one byte a second, never finishing it."""
    head = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 10000
    for byte in head:
        if time.monotonic() >= end or reader.at_eof():
            return
        writer.write(bytes([byte]))
        await writer.drain()
        await asyncio.sleep(1.0)


async def flood(binary, count, send, seconds):
    server = Server(binary)
    attack = asyncio.ensure_future(hold(server.port, count, seconds, lambda *a: asyncio.wait_for(
        send(*a), seconds + 1)))
    await asyncio.sleep(1.0)
    succeeded, tried = await user_tries(server.port, seconds - 2)
    await asyncio.gather(attack, return_exceptions=True)
    server.stop()
    return succeeded, tried


async def sessions(binary):
    share = 16
    server = Server(binary, "--max-sessions", "24", "--max-sessions-per-address", str(share))
    port = server.port
    held = [s for s in [await open_session(ATTACKER, port) for _ in range(share)] if s]
    stop = False

    async def ping_all():
        while not stop:
            for session in held:
                await post(ATTACKER, port, json.dumps(
                    {"jsonrpc": "2.0", "id": 9, "method": "ping"}), session)
            await open_session(ATTACKER, port)  # and asks for more
            await asyncio.sleep(1.0)
    pinging = asyncio.ensure_future(ping_all())
    got = 0
    for _ in range(30):
        got += bool(await open_session(USER, port))
        await asyncio.sleep(0.2)
    stop = True
    await pinging
    server.stop()
    return len(held), got


def call(id_, tool, arguments):
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})


async def long_call(binary):
    server = Server(binary, "--session-idle", "5")
    port = server.port
    session = await open_session(USER, port)
    started = time.monotonic()
    status, _, body = await post(USER, port, call(2, "wait", {"millis": 10000, "hold_kib": 0}),
                                 session, timeout=30.0)
    took = time.monotonic() - started
    answered = status == 200 and "waited 10000 ms" in body
    await asyncio.sleep(7.0)
    after, _, _ = await post(USER, port, json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"}),
                             session)
    server.stop()
    return answered, took, after


async def hung(binary, end_with):
    """50 hung calls holding 2 MiB each, ended by `end_with` ('cancel' or 'delete'): resident
    MiB before, while they hang, after; and how many the observer saw cancelled."""
    count = 50
    server = Server(binary, "--max-connections-per-address", "128")
    port = server.port
    session = await open_session(USER, port)
    await post(USER, port, call(1, "wait", {"millis": 1, "hold_kib": 0}), session)
    before = server.rss_mib()
    calls = [asyncio.ensure_future(post(USER, port, call(100 + i, "wait",
                                                         {"millis": 600000, "hold_kib": 2048}),
                                        session, timeout=60.0)) for i in range(count)]
    await asyncio.sleep(3.0)
    hanging = server.rss_mib()
    if end_with == "cancel":
        for i in range(count):
            await post(USER, port, json.dumps({
                "jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 100 + i, "reason": "the user gave up"}}), session)
    else:
        reader, writer = await connect(USER, port)
        writer.write((f"DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: {session}\r\n"
                      f"Connection: close\r\n\r\n").encode())
        await writer.drain()
        await reader.read(-1)
        writer.close()
    # rmcp gives a closed session's handlers 5 s to finish before it cancels them.
    ended = time.monotonic()
    while server.rss_mib() - before > 20 and time.monotonic() - ended < 10:
        await asyncio.sleep(0.25)
    took = time.monotonic() - ended
    # The last handlers are dropped a moment after the memory falls: give their observer
    # lines that moment before the server stops.
    await asyncio.sleep(1.0)
    after = server.rss_mib()
    for pending in calls:
        pending.cancel()
    await asyncio.gather(*calls, return_exceptions=True)
    log = server.stop()
    cancelled = sum(1 for line in log if line.startswith("call wait Cancelled"))
    return before, hanging, after, took, cancelled


async def blocking(binary):
    server = Server(binary)
    port = server.port
    session = await open_session(USER, port)
    work = [asyncio.ensure_future(post(USER, port, call(10 + i, "digest",
                                                       {"text": "stitch", "rounds": 20000000}),
                                       session, timeout=120.0)) for i in range(2)]
    await asyncio.sleep(0.5)
    worst = 0.0
    while not all(w.done() for w in work):
        started = time.monotonic()
        await post(USER, port, json.dumps({"jsonrpc": "2.0", "id": 5, "method": "ping"}), session)
        worst = max(worst, time.monotonic() - started)
        await asyncio.sleep(0.2)
    answers = [w.result() for w in work]
    server.stop()
    done = all(status == 200 and '"isError":false' in body for status, _, body in answers)
    return worst, done


async def main(binary, seconds):
    failures = []

    def judge(ok, line):
        print(("ok    " if ok else "FAIL  ") + line, flush=True)
        if not ok:
            failures.append(line)

    got, tried = await flood(binary, 1300, silent, seconds)
    judge(got >= 0.9 * tried, f"silent: 1,300 silent connections from {ATTACKER} for {seconds} s;"
          f" the user's new sessions from {USER}: {got}/{tried}")
    got, tried = await flood(binary, 1100, trickle, seconds)
    judge(got >= 0.9 * tried, f"trickle: 1,100 connections trickling heads from {ATTACKER} for "
          f"{seconds} s; the user's new sessions: {got}/{tried}")
    held, got = await sessions(binary)
    judge(held == 16 and got == 30, f"sessions: the attacker holds {held} sessions (its share) "
          f"and pings them; the user's new sessions: {got}/30")
    answered, took, after = await long_call(binary)
    judge(answered and after == 404, f"long call: a 10 s call with a 5 s idle limit answered: "
          f"{answered} ({took:.1f} s); idle past the limit, the session answers {after}")
    for end_with in ("cancel", "delete"):
        before, hanging, after, took, cancelled = await hung(binary, end_with)
        judge(cancelled == 50 and hanging - before > 80 and after - before < 20,
              f"hung ({end_with}): resident {before:.0f} MiB, {hanging:.0f} MiB with 50 hung "
              f"calls holding 2 MiB each, {after:.0f} MiB {took:.1f} s after; the observer saw "
              f"{cancelled}/50 cancelled")
    worst, done = await blocking(binary)
    judge(done and worst < 1.0, f"blocking: two calls doing blocking work answered: {done}; the "
          f"user's slowest ping meanwhile {worst * 1000:.0f} ms")
    if failures:
        raise SystemExit(f"{len(failures)} promise(s) broken")


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    quick = "--quick" in sys.argv
    asyncio.run(main(sys.argv[1], 5 if quick else FLOOD_SECONDS))
