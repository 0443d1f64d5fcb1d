// End-to-end test of examples/mcp_server.rs with a second independent MCP client: the official
// TypeScript SDK, which validates every `structuredContent` against the tool's `outputSchema`
// (error results included) and refuses the result when it does not match.
//
// Usage: node mcp_client.mjs PATH/TO/mcp_server   (with @modelcontextprotocol/sdk installed
// next to this file). Prints 'N passed, 0 failed' and exits 0 when every check holds.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const checks = [];
function check(name, condition, detail) {
  checks.push(Boolean(condition));
  console.log((condition ? "ok   " : "FAIL ") + name + (condition ? "" : `: ${JSON.stringify(detail)}`));
}

const server = process.argv[2];
const transport = new StdioClientTransport({ command: server, args: [], stderr: "ignore" });
const client = new Client({ name: "stitch-e2e-typescript", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
check("tools/list shows broadcast_patch and get_broadcast",
  byName.broadcast_patch && byName.get_broadcast, Object.keys(byName));
const items = byName.broadcast_patch.inputSchema.properties.operations.items;
check("the tag comes first, as rendered", Object.keys(items.properties)[0] === "op",
  Object.keys(items.properties));
const partIndex = items.properties.partIndex;
check("partIndex is typed integer with minimum 0",
  partIndex.type === "integer" && partIndex.minimum === 0, partIndex);
check("broadcast_patch advertises an output schema",
  byName.broadcast_patch.outputSchema?.type === "object", byName.broadcast_patch.outputSchema);

// The call this client refused before: an isError result of a tool with an output schema.
let bad;
try {
  bad = await client.callTool({
    name: "broadcast_patch",
    arguments: { broadcastId: "b1", operations: [{ op: "setText", partIndex: "1", text: "Hi" }] },
  });
} catch (error) {
  bad = { thrown: String(error) };
}
check("a rejection of a tool with an output schema reaches the client", bad.isError === true, bad);
check("its text names /operations/0/partIndex and says what to send",
  bad.content?.[0]?.text ===
    '/operations/0/partIndex: expected integer, got string "1" — send the number without quotes',
  bad.content);
const issues = bad._meta?.["stitch/rejection"]?.issues ?? [];
check("its issues are structured in _meta",
  issues.length === 1 && issues[0].pointer === "/operations/0/partIndex", bad._meta);

// A valid edit: the SDK validates structuredContent against the output schema.
let good;
try {
  good = await client.callTool({
    name: "broadcast_patch",
    arguments: {
      broadcastId: "b1",
      operations: [
        { op: "setText", partIndex: 1, text: "Sale starts Tuesday." },
        { op: "setCaption", partIndex: 1, caption: null },
      ],
    },
  });
} catch (error) {
  good = { thrown: String(error) };
}
check("a valid call's structured result matches the output schema",
  good.isError !== true && good.structuredContent?.parts?.[1]?.text === "Sale starts Tuesday.", good);

const read = await client.callTool({ name: "get_broadcast", arguments: { broadcastId: "b1" } });
check("the change is stored", read.structuredContent?.parts?.[1]?.text === "Sale starts Tuesday.", read);

const unknown = await client.callTool({ name: "get_broadcast", arguments: { broadcastId: "" } });
check("without an output schema the issues are structuredContent",
  unknown.isError === true && unknown.structuredContent?.issues?.[0]?.pointer === "/broadcastId",
  unknown);

let failing;
try {
  failing = await client.callTool({
    name: "broadcast_patch",
    arguments: { broadcastId: "b1", operations: [{ op: "removePart", partIndex: 9 }] },
  });
} catch (error) {
  failing = { thrown: String(error) };
}
check("a handler error is an isError result too",
  failing.isError === true && failing.content?.[0]?.text?.includes("part 9 does not exist"), failing);

await client.close();
const passed = checks.filter(Boolean).length;
console.log(`${passed} passed, ${checks.length - passed} failed`);
process.exit(passed === checks.length ? 0 : 1);
