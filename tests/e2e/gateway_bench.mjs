// The gateway's cost, measured against the upstream alone in the same run (a load script,
// not a timed test: figures, no assertion).
//
//   latency     — one client over stdio calling a tool CALLS times, one call at a time:
//                 the upstream started directly, and the gateway started in front of it
//                 (`stitch-gateway serve -- UPSTREAM`), measured in alternating rounds so that
//                 both see the same machine; p50 and p99 of each, and the gateway's added time.
//   throughput  — given the HTTP load script, the upstream's own HTTP server against the
//                 gateway serving HTTP in front of it over stdio: calls per second of each
//                 (`load.mjs`, modern clients, 32 at once), and their ratio.
//
// Usage: node gateway_bench.mjs GATEWAY UPSTREAM [LOAD.mjs]   (UPSTREAM serves stdio, and
// `--http ADDRESS` when LOAD is given; @modelcontextprotocol/sdk next to this file). Prints one
// JSON line.

import { spawn, execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [gateway, upstream, load] = process.argv.slice(2);
const ROUNDS = 10;
const CALLS = 500;
const call = { name: "get_broadcast", arguments: { broadcastId: "b1" } };

async function connect(command, args) {
  const client = new Client({ name: "gateway-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  for (let i = 0; i < 200; i++) await client.callTool(call); // warm up
  return client;
}

async function round(client, into) {
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    const result = await client.callTool(call);
    into.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (result.isError) throw new Error(JSON.stringify(result));
  }
}

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const figures = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50Ms: +at(sorted, 0.5).toFixed(4), p99Ms: +at(sorted, 0.99).toFixed(4) };
};

const direct = await connect(upstream, []);
const through = await connect(gateway, ["serve", "--", upstream]);
const samples = { direct: [], gateway: [] };
for (let r = 0; r < ROUNDS; r++) {
  await round(direct, samples.direct);
  await round(through, samples.gateway);
}
await direct.close();
await through.close();
const latency = { direct: figures(samples.direct), gateway: figures(samples.gateway) };
latency.addedP50Ms = +(latency.gateway.p50Ms - latency.direct.p50Ms).toFixed(4);
latency.addedP99Ms = +(latency.gateway.p99Ms - latency.direct.p99Ms).toFixed(4);
const report = { calls: ROUNDS * CALLS, latency };

// Serves `command args` until it says where, then runs the load against it.
async function loadAgainst(command, args) {
  const server = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    let said = "";
    server.stderr.on("data", (chunk) => {
      said += chunk;
      const found = said.match(/http:\/\/\S+\/mcp/);
      if (found) resolve(found[0]);
    });
    server.on("exit", () => reject(new Error(`${command} exited: ${said}`)));
  });
  try {
    // Run apart, so that this process keeps reading the server's standard error meanwhile.
    const { stdout } = await promisify(execFile)(
      process.execPath, [load, url, "modern", "get_broadcast", "32", "200"],
    );
    return JSON.parse(stdout.trim().split("\n").pop());
  } finally {
    server.kill();
  }
}

if (load) {
  // The load's strict clients are shown OpenAI's dialect by both, and checked for it.
  const rules = ["--client-dialect", "strict-agent=openai-strict"];
  const alone = [];
  const gatewayed = [];
  for (let r = 0; r < 3; r++) {
    alone.push((await loadAgainst(upstream, ["--http", "127.0.0.1:0", ...rules])).callsPerSecond);
    const served = ["serve", "--http", "127.0.0.1:0", ...rules, "--", upstream];
    gatewayed.push((await loadAgainst(gateway, served)).callsPerSecond);
  }
  const best = (list) => Math.max(...list);
  report.throughput = {
    upstreamAlone: alone,
    gateway: gatewayed,
    ratioOfBest: +(best(gatewayed) / best(alone)).toFixed(3),
  };
}
console.log(JSON.stringify(report));
