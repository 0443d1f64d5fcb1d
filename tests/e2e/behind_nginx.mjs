// `HttpServer` behind a real nginx, configured as its documentation says
// (`proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`), with nginx's address
// trusted (`examples/long_calls.rs --trusted-proxy 127.0.0.1`); clients reach nginx from
// loopback addresses of their own:
//
//   forged cap   — a client naming itself someone new in `Forwarded` with each of 100
//                  sessions holds at most its cap (64): nginx passes that header through, and
//                  the server never reads it;
//   forged user  — a client naming itself the user in `Forwarded`, 100 times, leaves the
//                  user's session alone;
//   streams      — a client holding every stream it may through nginx leaves other clients
//                  at least 90% of their new sessions.
//
// Usage: node behind_nginx.mjs PATH/TO/long_calls [NGINX]. Prints 'N passed, 0 failed'.

import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check, finish, INITIALIZE, PING } from "./verdicts.mjs";

const [binary, nginx = "/usr/sbin/nginx"] = process.argv.slice(2);


function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** One request to nginx from `from`: its status, session id and the response, read whole
 * unless `keep` (a stream left open). */
function send(port, from, { method = "POST", body, id, headers = {}, keep = false }) {
  return new Promise((resolve) => {
    const request = http.request({
      host: "127.0.0.1", port, path: "/mcp", method, localAddress: from, agent: false,
      headers: {
        host: "127.0.0.1", accept: "application/json, text/event-stream",
        ...(body ? { "content-type": "application/json" } : {}),
        ...(id ? { "mcp-session-id": id } : {}), ...headers,
      },
      timeout: 5000,
    }, (response) => {
      const answer = { status: response.statusCode, id: response.headers["mcp-session-id"], response };
      if (keep) return resolve(answer);
      response.resume();
      response.on("end", () => resolve(answer));
    });
    request.on("error", () => resolve({ status: 0 }));
    request.on("timeout", () => request.destroy());
    request.end(body);
  });
}

const alive = async (port, from, id) => (await send(port, from, { body: PING, id })).status === 200;

async function main() {
  const [serverPort, nginxPort] = [await freePort(), await freePort()];
  const server = spawn(binary, ["--http", `127.0.0.1:${serverPort}`, "--trusted-proxy", "127.0.0.1"],
    { stdio: ["ignore", "ignore", "ignore"] });
  const directory = mkdtempSync(join(tmpdir(), "stitch-nginx-"));
  writeFileSync(join(directory, "nginx.conf"), `
worker_processes 1;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log warn;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${directory}/body;
  proxy_temp_path ${directory}/proxy;
  fastcgi_temp_path ${directory}/fastcgi;
  uwsgi_temp_path ${directory}/uwsgi;
  scgi_temp_path ${directory}/scgi;
  upstream server { server 127.0.0.1:${serverPort}; keepalive 64; }
  server {
    listen 127.0.0.1:${nginxPort};
    location /mcp {
      proxy_pass http://server;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host 127.0.0.1;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}`);
  const balancer = spawn(nginx, ["-c", join(directory, "nginx.conf"), "-p", directory],
    { stdio: "ignore" });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const port = nginxPort;
  try {
    // A client naming itself someone new in `Forwarded` with each session.
    const forged = [];
    for (let i = 0; i < 100; i++) {
      const { id } = await send(port, "127.0.0.30", { body: INITIALIZE,
        headers: { forwarded: `for=198.51.100.${i}` } });
      if (id) forged.push(id);
    }
    let held = 0;
    for (const id of forged) held += (await alive(port, "127.0.0.30", id)) ? 1 : 0;
    check(`forged cap: 100 sessions each naming itself anew in Forwarded: ${held} held (cap 64)`,
      held <= 64 && forged.length === 100, { opened: forged.length, held });
    // A client naming itself the user.
    const user = (await send(port, "127.0.0.2", { body: INITIALIZE })).id;
    for (let i = 0; i < 100; i++) {
      await send(port, "127.0.0.31", { body: INITIALIZE, headers: { forwarded: "for=127.0.0.2" } });
    }
    check("forged user: 100 sessions naming themselves the user leave the user's session",
      user && await alive(port, "127.0.0.2", user), user);
    // A client holding every stream it may.
    const streams = [];
    for (let i = 0; i < 80; i++) {
      const { id } = await send(port, "127.0.0.32", { body: INITIALIZE });
      if (!id) continue;
      const stream = await send(port, "127.0.0.32", { method: "GET", id, keep: true });
      if (!stream.response) continue;
      // Open until the server ends it (its session given way to the client's newer one).
      stream.open = stream.status === 200;
      stream.response.on("data", () => {});
      stream.response.on("close", () => { stream.open = false; });
      streams.push(stream);
    }
    let served = 0;
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      const { id } = await send(port, `127.0.0.${40 + i}`, { body: INITIALIZE });
      if (id && performance.now() - started < 1000) served += 1;
    }
    const open = streams.filter((stream) => stream.open).length;
    check(`streams: one client opening ${streams.length} streams through nginx holds ${open} ` +
      `(its share: 64); other clients' new sessions within 1 s: ${served}/15`,
    served >= 14 && open <= 64, { open, served });
    for (const stream of streams) stream.response.destroy();
  } finally {
    balancer.kill();
    server.kill();
  }
  finish();
}

await main();
