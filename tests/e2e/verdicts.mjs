// What the end-to-end attack scripts share: each check said as it is made (`ok` or `FAIL`,
// with what was seen), a closing line 'N passed, N failed' with the exit status it calls for,
// and the two requests every attack sends.

const checks = [];

export function check(name, condition, detail) {
  checks.push(Boolean(condition));
  console.log((condition ? "ok   " : "FAIL ") + name + (condition ? "" : `: ${JSON.stringify(detail)}`));
}

/** Prints the closing line and exits: 0 when every check held. */
export function finish() {
  const failed = checks.filter((ok) => !ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0", id: 1, method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "0" } },
});

export const PING = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
