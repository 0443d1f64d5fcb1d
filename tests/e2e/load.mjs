// Load over streamable HTTP from Node (keep-alive, so that the client is not what saturates
// first): SESSIONS clients at once, CALLS calls each, of one tool, as either
//
//   legacy  — each client initializes a session, then calls in it, or
//   modern  — protocol 2026-07-28: no session, each request naming its client in `_meta`
//             (what replicas behind a load balancer serve: any replica answers any request).
//
// Usage: node load.mjs URL [legacy|modern] [TOOL] [SESSIONS] [CALLS]
// Prints one JSON line: {"tool", "calls", "seconds", "callsPerSecond", "p50Ms", "p99Ms",
// "errors", "retries", "dialects"}; exits 1 when a call went unanswered.
//
// A call refused at connection (a replica going down) is retried, as real clients do; a
// call answered is never retried. In modern mode each client's name decides its dialect,
// and every answer to `tools/list` is checked against the dialect its client was shown.

const [url, mode = "legacy", tool = "get_broadcast", sessionsArg = "32", callsArg = "200"] =
  process.argv.slice(2);
const sessions = Number(sessionsArg);
const calls = Number(callsArg);
const MODERN = "2026-07-28";
const LEGACY = "2025-06-18";

const argumentsOf = {
  get_broadcast: { broadcastId: "b1" },
  count_parts: { broadcast_id: "b1" },
  // benches/serving.rs: one handler, as a stitch tool and as a plain rmcp tool.
  read_stitch: { broadcastId: "b1", parts: [0, 2] },
  read_plain: { broadcastId: "b1", parts: [0, 2] },
};

/** The JSON-RPC message of an answer: a JSON body, or the `data:` of an event stream. */
function messageOf(text, id) {
  if (text.trimStart().startsWith("{")) return JSON.parse(text);
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (!data) continue;
    const message = JSON.parse(data);
    if (message.id === id) return message;
  }
  return undefined;
}

let retries = 0;

/**
 * POSTs `body`: its response and text. A connection refused or cut before the whole answer
 * arrived (a replica going down), or a balancer's 502/503 (no replica up), is retried up to 50
 * times, 20 ms apart: the load calls a read, which a client may repeat.
 */
async function post(headers, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status === 502 || response.status === 503) {
        throw new Error(`status ${response.status}`);
      }
      if (body.id !== undefined && response.status === 200 && !messageOf(text, body.id)) {
        throw new Error("the answer was cut");
      }
      return { response, text };
    } catch (error) {
      if (attempt >= 50) throw error;
      retries++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function meta(name) {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name, version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
}

/** One client: its calls' latencies in milliseconds, and what it saw. */
async function client(index) {
  const name = index % 2 === 0 ? "strict-agent" : `load-${index}`;
  let headers = {};
  let id = 0;
  const request = async (method, params) => {
    id += 1;
    const body = { jsonrpc: "2.0", id, method, params };
    let sent = headers;
    if (mode === "modern") {
      body.params = { ...params, _meta: meta(name) };
      // 2026-07-28 names the method (and a tool call's tool) in headers too.
      sent = { ...headers, "mcp-method": method };
      if (method === "tools/call") sent["mcp-name"] = params.name;
    }
    const { response, text } = await post(sent, body);
    return { response, message: messageOf(text, id) };
  };
  if (mode === "modern") {
    headers = { "mcp-protocol-version": MODERN };
  } else {
    const { response } = await request("initialize", {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name, version: "1.0.0" },
    });
    headers = {
      "mcp-session-id": response.headers.get("mcp-session-id"),
      "mcp-protocol-version": LEGACY,
    };
    await post(headers, { jsonrpc: "2.0", method: "notifications/initialized" });
  }
  // The dialect this client is shown: strict clients see every key required.
  const { message: listed } = await request("tools/list", {});
  const patch = listed?.result?.tools?.find((t) => t.name === "broadcast_patch");
  const required = patch?.inputSchema?.properties?.operations?.items?.required ?? [];
  const strict = required.length > 1;
  const expectedStrict = mode === "modern" && name === "strict-agent";
  const latencies = [];
  let errors = 0;
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const { message } = await request("tools/call", { name: tool, arguments: argumentsOf[tool] });
    latencies.push(performance.now() - started);
    if (!message || message.error || message.result?.isError) errors++;
  }
  return { latencies, errors, dialectRight: !patch || strict === expectedStrict || mode !== "modern" };
}

const started = performance.now();
const results = await Promise.all(Array.from({ length: sessions }, (_, i) => client(i)));
const seconds = (performance.now() - started) / 1000;
const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
const summary = {
  tool,
  mode,
  calls: latencies.length,
  seconds: Number(seconds.toFixed(2)),
  callsPerSecond: Math.round(latencies.length / seconds),
  p50Ms: Number(at(0.5).toFixed(2)),
  p99Ms: Number(at(0.99).toFixed(2)),
  errors: results.reduce((sum, r) => sum + r.errors, 0),
  retries,
  dialects: results.every((r) => r.dialectRight) ? "each client its own" : "WRONG",
};
console.log(JSON.stringify(summary));
process.exit(summary.errors === 0 && summary.dialects !== "WRONG" ? 0 : 1);
