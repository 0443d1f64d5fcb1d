// End-to-end test of examples/mcp_server.rs with a second independent MCP client: the official
// TypeScript SDK, which validates every `structuredContent` against the tool's `outputSchema`
// (error results included) and refuses the result when it does not match.
//
// It also reads the catalog stamp (`_meta["stitch/catalog"]`): the same on every listed tool
// and on every result. With more arguments, they start a second server of the same binary
// whose catalog differs (a replica of another version, say): its answers carry another stamp,
// so a client holding the first listing learns that it is stale.
//
// Usage: node mcp_client.mjs PATH/TO/mcp_server [SECOND SERVER'S ARGUMENTS...]   (with
// @modelcontextprotocol/sdk installed next to this file). Prints 'N passed, 0 failed' and
// exits 0 when every check holds.

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
const stampOf = (meta) => meta?.["stitch/catalog"];
const stamp = stampOf(tools[0]?._meta);
check("every listed tool carries one catalog stamp",
  /^[0-9a-f]{16}$/.test(stamp ?? "") && tools.every((tool) => stampOf(tool._meta) === stamp),
  tools.map((tool) => tool._meta));
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
// A plain tool answering an array (rmcp_router's), to this client of a protocol older than
// 2026-07-28, which takes only an object at an output schema's root: wrapped under `result`,
// schema and answer alike (the SDK checks the one against the other).
if (byName.part_lengths) {
  const wrapped = byName.part_lengths.outputSchema;
  check("an array output is listed to an older client wrapped under result",
    wrapped?.type === "object" && wrapped.properties?.result?.type === "array"
      && JSON.stringify(wrapped.required) === JSON.stringify(["result"]), wrapped);
  const lengths = await client.callTool({ name: "part_lengths", arguments: { broadcast_id: "b1" } });
  check("and answered so", lengths.isError !== true && Array.isArray(lengths.structuredContent?.result),
    lengths);
}

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
check("get_broadcast answers Json too: its rejection's issues are in _meta",
  unknown.isError === true && unknown.structuredContent === undefined
    && unknown._meta?.["stitch/rejection"]?.issues?.[0]?.pointer === "/broadcastId",
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

check("every result carries the listing's stamp, rejections and errors included",
  [bad, good, read, unknown, failing].every((result) => stampOf(result._meta) === stamp),
  [bad, good, read, unknown, failing].map((result) => result._meta));

await client.close();

const secondArgs = process.argv.slice(3);
if (secondArgs.length > 0) {
  const other = new Client({ name: "stitch-e2e-typescript", version: "1.0.0" });
  await other.connect(new StdioClientTransport({ command: server, args: secondArgs, stderr: "ignore" }));
  const answer = await other.callTool({ name: "get_broadcast", arguments: { broadcastId: "b1" } });
  check("a server whose catalog differs answers with another stamp: the first listing is stale",
    /^[0-9a-f]{16}$/.test(stampOf(answer._meta) ?? "") && stampOf(answer._meta) !== stamp,
    [stamp, answer._meta]);
  const listed = (await other.listTools()).tools;
  check("and its own listing carries the stamp its answers do",
    listed.every((tool) => stampOf(tool._meta) === stampOf(answer._meta)), listed.map((t) => t._meta));
  await other.close();
}
const passed = checks.filter(Boolean).length;
console.log(`${passed} passed, ${checks.length - passed} failed`);
process.exit(passed === checks.length ? 0 : 1);
