"""An MCP server over stdio, written by hand so that it can misbehave exactly, for the
gateway's faults test (`gateway.py`).

Usage: python tests/e2e/faulty_server.py [MODE]

MODE `tools` (the default) lists five tools:
- `ok` says back its arguments;
- `hang` never answers;
- `exit` ends the process, mid-call;
- `garbage` writes a line that is not JSON, then answers;
- `unreadable` has an input schema no validator can compile (a `$ref` to nowhere), and says
  back its arguments.
After each call of `ok`, it says its tools changed, and lists them again with a description
that counts the calls (for the gateway's memory across relistings).
MODE `many:N` lists N tools. MODE `garbage-init` answers `initialize` with garbage.
"""

import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "tools"
calls = {"ok": 0}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tool(name, description, schema=None):
    schema = schema or {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}}
    return {"name": name, "description": description, "inputSchema": schema}


def tools():
    if MODE.startswith("many:"):
        return [tool(f"t{i}", f"Tool number {i}.") for i in range(int(MODE[5:]))]
    unreadable = {"type": "object", "properties": {"a": {"$ref": "#/$defs/nowhere"}}}
    return [
        tool("ok", f"Says back its arguments; called {calls['ok']} times."),
        tool("hang", "Never answers."),
        tool("exit", "Ends the server mid-call."),
        tool("garbage", "Writes a line that is not JSON, then answers."),
        tool("unreadable", "Its schema cannot be compiled.", unreadable),
    ]


def answer(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        if MODE == "garbage-init":
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
            return None
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "faulty", "version": "1.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call":
        name, arguments = params.get("name"), params.get("arguments") or {}
        if name == "hang":
            return None
        if name == "exit":
            os._exit(3)
        if name == "garbage":
            sys.stdout.write("{not json\n")
            sys.stdout.flush()
        if name == "ok":
            calls["ok"] += 1
        return {"content": [{"type": "text", "text": json.dumps(arguments, sort_keys=True)}]}
    return "unknown"


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    if "id" not in request:
        continue
    result = answer(request)
    if result == "unknown":
        send({"jsonrpc": "2.0", "id": request["id"],
              "error": {"code": -32601, "message": f"no method {request.get('method')}"}})
    elif result is not None:
        send({"jsonrpc": "2.0", "id": request["id"], "result": result})
        if request.get("method") == "tools/call" and request["params"].get("name") == "ok":
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
