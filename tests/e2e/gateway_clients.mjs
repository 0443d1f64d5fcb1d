// `stitch-gateway serve` in front of a server nobody here wrote, with the TypeScript SDK's
// clients: v1 (`@modelcontextprotocol/sdk`), v2 (`@modelcontextprotocol/client`) as it
// negotiates, and v2 pinned to protocol 2026-07-28 (no initialize, no session). Each client,
// at each dialect's path, is listed every tool the upstream lists it directly (the same
// client, over stdio), and calls it: a good call answered as the upstream answers it (the v1
// client validates each structured result against the output schema it was listed), a bad
// one refused with its pointer.
//
// Usage: node gateway_clients.mjs URL UPSTREAM [ARGS...]   (URL the gateway's `/mcp`, UPSTREAM
// the server's command; both SDKs installed next to this file). Prints 'N passed, 0 failed'
// and exits 0 when every check holds.

import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";

const checks = [];
function check(name, condition, detail) {
  checks.push(Boolean(condition));
  console.log((condition ? "ok   " : "FAIL ") + name + (condition ? "" : `: ${JSON.stringify(detail)?.slice(0, 800)}`));
}

const [url, command, ...args] = process.argv.slice(2);
const dialects = ["mcp", "portable", "openai-strict", "anthropic-strict"];
const info = { name: "stitch-gateway-e2e", version: "1.0.0" };
const clients = {
  "v1": () => [new ClientV1(info), (at) => new HttpV1(new URL(at))],
  "v2": () => [new ClientV2(info), (at) => new HttpV2(new URL(at))],
  "v2 at 2026-07-28": () => [
    new ClientV2(info, { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
    (at) => new HttpV2(new URL(at)),
  ],
};

// What the upstream lists this client directly.
const direct = new ClientV1(info);
await direct.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
const upstreamTools = (await direct.listTools()).tools.map((tool) => tool.name).sort();
await direct.close();
check(`the upstream lists its tools directly (${upstreamTools.length})`, upstreamTools.length >= 5,
  upstreamTools);

for (const [kind, make] of Object.entries(clients)) {
  for (const dialect of dialects) {
    const [client, transport] = make();
    const at = `${url}/${dialect}`;
    await client.connect(transport(at));
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    check(`${kind} at /${dialect}: every tool the upstream lists`,
      upstreamTools.every((name) => names.includes(name)), [names, upstreamTools]);
    const echo = await client.callTool({ name: "echo", arguments: { message: "through the gateway" } });
    check(`${kind} at /${dialect}: a good call is answered as the upstream answers it`,
      echo.isError !== true && JSON.stringify(echo.content).includes("through the gateway"), echo);
    const bad = await client.callTool({ name: "echo", arguments: { message: 5 } });
    check(`${kind} at /${dialect}: a bad call is refused, with its pointer`,
      bad.isError === true && JSON.stringify(bad).includes("/message"), bad);
    const structured = await client.callTool({
      name: "get-structured-content", arguments: { location: "Chicago" },
    });
    check(`${kind} at /${dialect}: a structured result holds to the output schema listed`,
      structured.isError !== true && structured.structuredContent !== undefined, structured);
    await client.close();
  }
}

const failed = checks.filter((ok) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
