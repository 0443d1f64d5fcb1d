// End to end with the TypeScript SDK v2 client (`@modelcontextprotocol/client`), pinned to
// protocol 2026-07-28: no initialize, no session, every request carrying its client's name in
// `_meta`. Two clients talk to one stateless rmcp_router (served with
// `--stateless --client-dialect strict-agent=openai-strict`): each is listed the stitch tools
// in its own dialect and its calls are parsed in it; a listing that differs by client is not
// for a shared cache. A third, whose name the rules show `mcp`, is pointed at the path of
// `anthropic-strict` (as a host with several model providers behind one name configures each
// provider): listed and parsed in that dialect, and that listing may be shared.
//
// Usage: node modern_client.mjs URL   (with @modelcontextprotocol/client installed next to
// this file). Prints 'N passed, 0 failed' and exits 0 when every check holds.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const checks = [];
function check(name, condition, detail) {
  checks.push(Boolean(condition));
  console.log((condition ? "ok   " : "FAIL ") + name + (condition ? "" : `: ${JSON.stringify(detail)}`));
}

const url = new URL(process.argv[2]);

async function connect(name, at = url) {
  const client = new Client(
    { name, version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(at));
  return client;
}

const strict = await connect("strict-agent");
const plain = await connect("stitch-e2e-modern");

// Each client's listing, and its catalog stamp: one for every tool of a listing.
const stamps = {};
const patchSchema = async (client, name, scope = "private") => {
  const listed = await client.listTools();
  const { tools } = listed;
  // SEP-2549: a catalog fixed when the server is built may be cached for a while; by anyone
  // only where every caller of the endpoint is listed the same.
  check(`${name}: the listing may be cached for a while, ${scope}ly (ttlMs, cacheScope)`,
    listed.ttlMs > 0 && listed.cacheScope === scope, [listed.ttlMs, listed.cacheScope]);
  const stamp = tools[0]?._meta?.["stitch/catalog"];
  check(`${name}: every listed tool carries one catalog stamp`,
    /^[0-9a-f]{16}$/.test(stamp ?? "") && tools.every((tool) => tool._meta?.["stitch/catalog"] === stamp),
    tools.map((tool) => tool._meta));
  stamps[name] = stamp;
  return tools.find((tool) => tool.name === "broadcast_patch").inputSchema;
};
const strictSchema = await patchSchema(strict, "strict");
const plainSchema = await patchSchema(plain, "plain");
check("clients listed different dialects hold different catalogs", stamps.strict !== stamps.plain,
  stamps);
const strictItems = strictSchema.properties.operations.items;
const plainItems = plainSchema.properties.operations.items;
check("the strict client is listed every key of an operation as required",
  strictItems.required.length === Object.keys(strictItems.properties).length, strictItems.required);
check("the plain client is listed only the tag as required",
  JSON.stringify(plainItems.required) === JSON.stringify(["op"]), plainItems.required);
check("both see partIndex typed", strictItems.properties.partIndex.type !== undefined
  && plainItems.properties.partIndex.type === "integer", [strictItems.properties.partIndex]);

// A strict-mode call: every key present, null where its operation has none.
const filled = Object.fromEntries(Object.keys(strictItems.properties).map((key) => [key, null]));
Object.assign(filled, { op: "setText", partIndex: 0, text: "Hello from 2026" });
const strictCall = await strict.callTool({
  name: "broadcast_patch",
  arguments: { broadcastId: "b1", operations: [filled] },
});
check("the strict client's filled call is accepted", strictCall.isError !== true, strictCall);
check("and applied", strictCall.structuredContent?.parts?.[0]?.text === "Hello from 2026",
  strictCall.structuredContent);

// The same bad call from either client: rejected, every issue at its pointer.
const bad = await plain.callTool({
  name: "broadcast_patch",
  arguments: { broadcastId: "b1", operations: [{ op: "setText", partIndex: "1", text: "Hi" }] },
});
check("a bad call is an isError result", bad.isError === true, bad);
check("naming the pointer", JSON.stringify(bad).includes("/operations/0/partIndex"), bad);
check("each result carries the stamp of the catalog its client was listed",
  strictCall._meta?.["stitch/catalog"] === stamps.strict
    && bad._meta?.["stitch/catalog"] === stamps.plain, [strictCall._meta, bad._meta, stamps]);

// A client whose name the rules show `mcp`, pointed at the path of `anthropic-strict`.
const anthropicUrl = new URL(url);
anthropicUrl.pathname = `${url.pathname.replace(/\/$/, "")}/anthropic-strict`;
const anthropic = await connect("stitch-e2e-modern", anthropicUrl);
const anthropicSchema = await patchSchema(anthropic, "anthropic", "public");
const anthropicItems = anthropicSchema.properties.operations.items;
check("the client at /mcp/anthropic-strict is listed in anthropic-strict (an enum without type, bounds in the description)",
  anthropicItems.properties.op.type === undefined && anthropicItems.properties.partIndex.minimum === undefined
    && /minimum/.test(anthropicItems.properties.partIndex.description ?? ""),
  anthropicItems.properties);
check("and its catalog is neither of the others'", stamps.anthropic !== stamps.plain
  && stamps.anthropic !== stamps.strict, stamps);
const anthropicCall = await anthropic.callTool({
  name: "broadcast_patch",
  arguments: { broadcastId: "b1", operations: [{ op: "setText", partIndex: 0, text: "Hi from Claude" }] },
});
check("its call is accepted and parsed in its dialect (the result carries its listing's stamp)",
  anthropicCall.isError !== true && anthropicCall._meta?.["stitch/catalog"] === stamps.anthropic,
  anthropicCall);

// A plain tool answering an array: a 2026-07-28 client takes an output schema of any root.
const { tools: plainTools } = await plain.listTools();
const lengthsTool = plainTools.find((tool) => tool.name === "part_lengths");
check("an array output is listed as an array at 2026-07-28",
  lengthsTool?.outputSchema?.type === "array", lengthsTool?.outputSchema);
const lengths = await plain.callTool({ name: "part_lengths", arguments: { broadcast_id: "b1" } });
check("and answered as one", Array.isArray(lengths.structuredContent), lengths);

await strict.close();
await plain.close();
await anthropic.close();
const failed = checks.filter((ok) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
