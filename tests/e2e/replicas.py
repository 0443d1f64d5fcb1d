"""Replicas behind a real load balancer: three stateless rmcp_router processes behind nginx,
one population of clients (tests/e2e/load.mjs, protocol 2026-07-28, each request naming its
client), and one replica killed in the middle of the run and started again.

Usage: python tests/e2e/replicas.py PATH/TO/rmcp_router PATH/TO/node PATH/TO/load.mjs [GATEWAY]

With GATEWAY (the `stitch-gateway` binary), each replica is the gateway, stateless, in front
of its own rmcp_router over stdio: the gateway's replicas, proven the same way.

Checks that every call is answered (a call refused at connection, or by the balancer while a
replica is down, is retried, as real clients do: the tool called is a read), that each client
is shown its dialect by whichever replica answers, and that the replicas' memory stays flat
from one run to the next. Prints the load's figures with one replica and with three (figures,
not assertions).
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SERVER, NODE, LOAD = sys.argv[1:4]
GATEWAY = sys.argv[4] if len(sys.argv) > 4 else None
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
DIALECTS = ["--stateless", "--client-dialect", "strict-agent=openai-strict"]


def replica_command(port):
    """A stateless replica on `port`: the server itself, or the gateway in front of it."""
    if GATEWAY:
        return [GATEWAY, "serve", "--http", f"127.0.0.1:{port}", *DIALECTS, "--", SERVER]
    return [SERVER, "--http", f"127.0.0.1:{port}", *DIALECTS]
failures = 0


def check(name, condition, detail=""):
    global failures
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
    failures += 0 if condition else 1


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_replica(port, directory):
    """A stateless replica on `port`, once it serves (its audit lines go to a file: a pipe
    nobody reads would fill and stop it)."""
    log_path = os.path.join(directory, f"replica-{port}.log")
    log = open(log_path, "w")
    process = subprocess.Popen(
        replica_command(port),
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    for _ in range(200):
        with open(log_path) as written:
            if "serving on" in written.read():
                return process
        time.sleep(0.05)
    raise SystemExit(f"the replica on {port} did not start")


def rss_kib(process):
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def load(url, sessions, calls, tool="get_broadcast"):
    """Runs the Node load client; its summary, or None when it failed."""
    run = subprocess.run(
        [NODE, LOAD, url, "modern", tool, str(sessions), str(calls)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if run.returncode != 0:
        print(run.stdout, run.stderr)
    try:
        return json.loads(run.stdout.strip().splitlines()[-1]), run.returncode == 0
    except (IndexError, ValueError):
        return None, False


def nginx_config(directory, port, upstreams):
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=0;" for p in upstreams)
    return f"""
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
daemon off;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {directory}/body;
  proxy_temp_path {directory}/proxy;
  fastcgi_temp_path {directory}/fastcgi;
  uwsgi_temp_path {directory}/uwsgi;
  scgi_temp_path {directory}/scgi;
  upstream replicas {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    location /mcp {{
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host 127.0.0.1;
      proxy_buffering off;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 1s;
    }}
  }}
}}
"""


def main():
    ports = [free_port() for _ in range(3)]
    directory = tempfile.mkdtemp(prefix="stitch-replicas-")
    replicas = [start_replica(port, directory) for port in ports]
    balancer_port = free_port()
    config = os.path.join(directory, "nginx.conf")
    with open(config, "w") as file:
        file.write(nginx_config(directory, balancer_port, ports))
    balancer = subprocess.Popen([NGINX, "-c", config, "-p", directory])
    url = f"http://127.0.0.1:{balancer_port}/mcp"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", balancer_port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)

        one, _ = load(f"http://127.0.0.1:{ports[0]}/mcp", 32, 200)
        three, ok = load(url, 32, 200)
        check("through the balancer, every call is answered", ok, three)
        print(f"one replica:    {json.dumps(one)}")
        print(f"three replicas: {json.dumps(three)}")
        before = [rss_kib(replica) for replica in replicas]

        # A replica killed mid-run, and started again on its port.
        load_run = subprocess.Popen(
            [NODE, LOAD, url, "modern", "get_broadcast", "32", "400"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.0)
        replicas[1].send_signal(signal.SIGKILL)
        replicas[1].wait()
        time.sleep(0.5)
        replicas[1] = start_replica(ports[1], directory)
        out, err = load_run.communicate(timeout=600)
        summary = json.loads(out.strip().splitlines()[-1]) if out.strip() else None
        check(
            "a replica killed and restarted mid-run: every call answered, each client "
            "shown its dialect",
            load_run.returncode == 0,
            (out, err[-2000:]),
        )
        print(f"replica killed mid-run: {json.dumps(summary)}")

        again, ok = load(url, 32, 200)
        check("the restarted population is served", ok, again)
        after = [rss_kib(replica) for replica in replicas]
        growth = max(a - b for a, b in zip(after[::2], before[::2])) / 1024
        check(
            f"the replicas' memory stays flat (+{growth:.1f} MiB after two more runs)",
            growth < 20,
            (before, after),
        )
    finally:
        balancer.terminate()
        for replica in replicas:
            replica.kill()
        shutil.rmtree(directory, ignore_errors=True)
    print(f"{failures} failed")
    sys.exit(1 if failures else 0)


main()
