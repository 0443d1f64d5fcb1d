"""The MCP Inspector's portability check (`--strict`) over what a server lists its client.

Usage: python tests/e2e/inspector_strict.py INSPECTOR_CLI NODE EXPECT SERVER [ARGS...]

Runs the Inspector's command line (`--method tools/list --strict --format json`) against the
stdio server `SERVER ARGS...`; the Inspector names itself `inspector-cli` in `initialize`, so
the server's dialect rules decide what it is listed. With EXPECT `clean`, the check must find
nothing, warnings included, in any tool's input or output schema; with EXPECT `findings`, it
must find something (the proof that the check sees what it is run on); with EXPECT `any`, what
it finds is reported. SERVER may be `--transport http URL`.
"""

import json
import subprocess
import sys


def main():
    inspector, node, expect, *server = sys.argv[1:]
    completed = subprocess.run(
        [node, inspector, "--method", "tools/list", "--strict", "--format", "json", *server],
        capture_output=True,
        text=True,
        timeout=120,
    )
    envelope = json.loads(completed.stdout)
    tools = envelope["result"]["tools"]
    findings = [
        (result["toolName"], finding["schema"], finding["path"], finding["rule"])
        for result in envelope.get("schemaFindings", [])
        for finding in result["findings"]
    ]
    shown = " ".join(server)
    print(f"{shown}: {len(tools)} tools, {len(findings)} portability findings")
    for finding in findings:
        print("  ", *finding)
    if not tools:
        sys.exit(f"{shown}: no tools listed")
    if expect == "clean" and findings:
        sys.exit(f"{shown}: the Inspector finds portability problems")
    if expect == "findings" and not findings:
        sys.exit(f"{shown}: the Inspector found nothing where it must")


if __name__ == "__main__":
    main()
