// End to end with the TypeScript SDK client (v1) against examples/schemars_server.rs: an rmcp
// server with no stitch contract, its tools' schemas written by schemars, wrapped in one line
// (`InDialects`). Three clients, by the names they give: `cursor-vscode` (shown `portable`),
// `openai-mcp` (OpenAI's strict dialect) and one no rule names (`mcp`). Each must be listed
// every tool flat and typed in its dialect, and its calls must reach the tools and come back
// with structured content the SDK holds to the listed output schema.
//
// Usage: node schemars_client.mjs PATH/TO/schemars_server   (with @modelcontextprotocol/sdk
// installed next to this file). Prints 'N passed, 0 failed' and exits 0 when every check holds.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const checks = [];
function check(name, condition, detail) {
  checks.push(Boolean(condition));
  console.log((condition ? "ok   " : "FAIL ") + name + (condition ? "" : `: ${JSON.stringify(detail)}`));
}

const server = process.argv[2];

async function connect(name) {
  const transport = new StdioClientTransport({ command: server, args: [], stderr: "ignore" });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  return { client, tools: Object.fromEntries(tools.map((tool) => [tool.name, tool])) };
}

// Every keyword of a schema, at any depth, with the value it holds.
function keywords(schema, found = []) {
  if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      found.push([key, value]);
      keywords(value, found);
    }
  }
  return found;
}
const unions = (schema) => keywords(schema).filter(([key]) => key === "oneOf" || key === "anyOf");
const typeArrays = (schema) => keywords(schema).filter(([key, value]) => key === "type" && Array.isArray(value));
const refs = (schema) => keywords(schema).filter(([key]) => key === "$ref" || key === "$defs");

for (const [name, dialect] of [["cursor-vscode", "portable"], ["stitch-e2e-schemars", "mcp"], ["openai-mcp", "openai-strict"]]) {
  const { client, tools } = await connect(name);
  const issues = tools.issues;
  const input = issues?.inputSchema;
  check(`${dialect}: issues is listed as one object`, input?.type === "object", input);
  check(`${dialect}: with no oneOf or anyOf, and no $ref`,
    unions(input).length === 0 && refs(input).length === 0, input);
  check(`${dialect}: the operation is a string enum`,
    JSON.stringify(input?.properties?.action?.enum) === JSON.stringify(["create", "update", "close"]),
    input?.properties?.action);
  check(`${dialect}: id, shared by update and close, keeps its type`,
    input?.properties?.id?.type === "integer" || JSON.stringify(input?.properties?.id?.type) === '["integer","null"]',
    input?.properties?.id);
  check(`${dialect}: its description says which operations require it`,
    /Required if action = update \| close/.test(input?.properties?.id?.description ?? ""),
    input?.properties?.id);
  if (dialect === "portable") {
    for (const tool of Object.values(tools)) {
      check(`portable: ${tool.name} has no type array, input or output`,
        typeArrays(tool.inputSchema).length === 0 && typeArrays(tool.outputSchema).length === 0,
        [tool.inputSchema, tool.outputSchema]);
      check(`portable: ${tool.name}'s output says null without a type array`,
        unions(tool.outputSchema).every(([, branches]) => branches.every((branch) => !Array.isArray(branch.type))),
        tool.outputSchema);
    }
  }
  if (dialect === "openai-strict") {
    check("openai-strict: every key is required", input.required.length === Object.keys(input.properties).length,
      input.required);
  }

  // The calls, as each client's model would send them: a strict model sends every key.
  const every = (call) => dialect === "openai-strict"
    ? Object.assign(Object.fromEntries(Object.keys(input.properties).map((key) => [key, null])), call)
    : call;
  const created = await client.callTool({
    name: "issues",
    arguments: every({ action: "create", title: `from ${name}`, labels: ["e2e"] }),
  });
  check(`${dialect}: a create reaches the tool and its result holds to the listed output schema`,
    !created.isError && created.structuredContent?.title === `from ${name}`, created);
  // No labels: a strict model sends `labels: null`, which the tool's serde refuses for a
  // `Vec` with a default; the wrapper leaves it out, as the tool's schema means.
  const bare = await client.callTool({ name: "issues", arguments: every({ action: "create", title: "bare" }) });
  check(`${dialect}: a create without labels reaches the tool with none`,
    !bare.isError && JSON.stringify(bare.structuredContent?.labels) === "[]", bare);
  const closed = await client.callTool({
    name: "issues",
    arguments: every({ action: "close", id: created.structuredContent?.id, reason: "completed" }),
  });
  check(`${dialect}: a close reaches the tool`,
    !closed.isError && closed.structuredContent?.closed === "completed", closed);
  const read = await client.callTool({ name: "get_issue", arguments: { id: created.structuredContent?.id } });
  check(`${dialect}: get_issue, a plain object, answers with a null the output schema allows`,
    !read.isError && read.structuredContent?.body === null, read);
  await client.close();
}

const failed = checks.filter((ok) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
