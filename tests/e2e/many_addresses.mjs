// Attackers from many loopback addresses (127.0.0.0/8), a user from another, against
// `HttpServer` with its defaults (`examples/long_calls.rs`):
//
//   racing   — one address, 64 HTTP/2 connections of 200 streams each, every stream an
//              `initialize` at once: the sessions it holds afterwards never pass its cap (64),
//              and the server's memory stays under 100 MiB;
//   streams  — 8 addresses, each holding 64 sessions with an idle GET stream open on one
//              HTTP/2 connection: the user opens 15 sessions, at least 90% within 1 s each;
//   silent   — 200 addresses, each with 8 silent sockets reconnecting every 10 s (1,600,
//              past the 1,024 connections): the user opens 20 sessions, at least 90% within
//              1 s each;
//   churn    — 100 addresses opening 50 sessions a second for a minute (3,000, past the 512
//              sessions): a user calling every 30 s keeps its one session.
//
// Usage: node many_addresses.mjs PATH/TO/long_calls. Prints each scenario's figures and
// 'N passed, 0 failed'; exits 1 when a check fails.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { check, finish, INITIALIZE, PING } from "./verdicts.mjs";


const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** The server, serving: its process and its port. */
async function start(binary) {
  const server = spawn(binary, ["--http", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
  const port = await new Promise((resolve) => {
    let said = "";
    server.stderr.on("data", (chunk) => {
      said += chunk;
      const found = said.match(/127\.0\.0\.1:(\d+)/);
      if (found) resolve(Number(found[1]));
    });
  });
  return { server, port };
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
}

/** One HTTP/2 connection from `from`. */
function h2From(port, from) {
  return http2.connect(`http://127.0.0.1:${port}`, { localAddress: from });
}

/** A POST on an HTTP/2 connection: its status and session id; the body read whole. */
function h2Post(session, body, id) {
  return new Promise((resolve) => {
    const headers = { ":method": "POST", ":path": "/mcp", ...HEADERS };
    if (id) headers["mcp-session-id"] = id;
    let stream;
    try {
      stream = session.request(headers);
    } catch {
      return resolve({ status: 0 }); // a connection refused past a cap
    }
    let answer = {};
    stream.on("response", (head) => {
      answer = { status: head[":status"], id: head["mcp-session-id"] };
    });
    stream.on("data", () => {});
    stream.on("end", () => resolve(answer));
    stream.on("error", () => resolve({ status: 0 }));
    stream.end(body);
  });
}

/** The user, from 127.0.0.2 over a fresh HTTP/1.1 connection: whether a session opened, and
 * how long it took. */
function userOpens(port) {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request({
      host: "127.0.0.1", port, path: "/mcp", method: "POST", localAddress: "127.0.0.2",
      agent: false, headers: { ...HEADERS, host: "127.0.0.1" }, timeout: 5000,
    }, (response) => {
      response.resume();
      const opened = response.statusCode === 200 && response.headers["mcp-session-id"];
      response.on("end", () => resolve({ opened: Boolean(opened), ms: performance.now() - started }));
    });
    request.on("error", () => resolve({ opened: false, ms: performance.now() - started }));
    request.on("timeout", () => request.destroy());
    request.end(INITIALIZE);
  });
}

async function userServed(port, times, name) {
  const results = [];
  for (let i = 0; i < times; i++) results.push(await userOpens(port));
  const within = results.filter((r) => r.opened && r.ms < 1000).length;
  check(`${name}: the user's new sessions, each within 1 s: ${within}/${times}`, within >= 0.9 * times,
    results.map((r) => [r.opened, Math.round(r.ms)]));
}

async function racing(binary) {
  const { server, port } = await start(binary);
  const sessions = Array.from({ length: 64 }, () => h2From(port, "127.0.0.10"));
  const answers = await Promise.all(sessions.flatMap((session) =>
    Array.from({ length: 200 }, () => h2Post(session, INITIALIZE))));
  const opened = answers.filter((a) => a.status === 200 && a.id).map((a) => a.id);
  // Its 64 connections are all the address may hold: the sessions are pinged from another.
  const pinger = h2From(port, "127.0.0.11");
  let live = 0;
  for (let i = 0; i < opened.length; i += 200) {
    const batch = await Promise.all(opened.slice(i, i + 200).map((id) => h2Post(pinger, PING, id)));
    live += batch.filter((a) => a.status === 200).length;
  }
  const rss = rssMiB(server.pid);
  check(`racing: 12,800 initialize at once from one address: ${opened.length} opened, ${live} held ` +
    `after (cap 64)`, live <= 64, { opened: opened.length, live });
  check(`racing: the server's memory ${rss.toFixed(0)} MiB (under 100)`, rss < 100, rss);
  for (const session of [...sessions, pinger]) session.destroy();
  server.kill();
}

async function streams(binary) {
  const { server, port } = await start(binary);
  const held = [];
  for (let a = 0; a < 8; a++) {
    const connection = h2From(port, `127.0.0.${20 + a}`);
    held.push(connection);
    for (let s = 0; s < 64; s++) {
      const { id } = await h2Post(connection, INITIALIZE);
      if (!id) continue;
      const stream = connection.request({ ":method": "GET", ":path": "/mcp", accept: "text/event-stream",
        "mcp-session-id": id });
      stream.on("data", () => {});
      stream.on("error", () => {});
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  await userServed(port, 15, "streams: 8 addresses × 64 sessions each with an idle GET stream");
  for (const connection of held) connection.destroy();
  server.kill();
}

async function silent(binary) {
  const { server, port } = await start(binary);
  const sockets = [];
  let stop = false;
  const hold = (address) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: address });
    socket.on("error", () => {});
    socket.on("close", () => {
      if (!stop) setTimeout(() => sockets.push(hold(address)), 10_000);
    });
    return socket;
  };
  for (let a = 0; a < 200; a++) {
    for (let s = 0; s < 8; s++) sockets.push(hold(`127.0.${1 + Math.floor(a / 250)}.${(a % 250) + 1}`));
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await userServed(port, 20, "silent: 200 addresses × 8 silent sockets");
  stop = true;
  for (const socket of sockets) socket.destroy();
  server.kill();
}

/** A request of session `id` from 127.0.0.2, over a fresh connection: its status. */
function userCalls(port, id) {
  return new Promise((resolve) => {
    const request = http.request({
      host: "127.0.0.1", port, path: "/mcp", method: "POST", localAddress: "127.0.0.2",
      agent: false, headers: { ...HEADERS, host: "127.0.0.1", "mcp-session-id": id },
    }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode));
    });
    request.on("error", () => resolve(0));
    request.end(PING);
  });
}

async function churn(binary) {
  const { server, port } = await start(binary);
  const user = await new Promise((resolve) => {
    const request = http.request({
      host: "127.0.0.1", port, path: "/mcp", method: "POST", localAddress: "127.0.0.2",
      agent: false, headers: { ...HEADERS, host: "127.0.0.1" },
    }, (response) => {
      response.resume();
      resolve(response.headers["mcp-session-id"]);
    });
    request.end(INITIALIZE);
  });
  let churning = true;
  let opened = 0;
  const churner = async (a) => {
    const session = h2From(port, `127.0.2.${a + 1}`);
    session.on("error", () => {});
    while (churning) {
      const { id } = await h2Post(session, INITIALIZE);
      if (id) opened += 1;
      await new Promise((resolve) => setTimeout(resolve, 2000)); // 100 addresses: 50/s
    }
    session.destroy();
  };
  const churners = Array.from({ length: 100 }, (_, a) => churner(a));
  const statuses = [];
  for (let call = 0; call < 3; call++) {
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    statuses.push(await userCalls(port, user));
  }
  churning = false;
  await Promise.all(churners);
  check(`churn: ${opened} sessions opened by 100 addresses; the user calling every 30 s ` +
    `answered ${statuses.join(", ")}`, statuses.every((status) => status === 200), statuses);
  server.kill();
}

const binary = process.argv[2];
await racing(binary);
await streams(binary);
await silent(binary);
await churn(binary);
finish();
