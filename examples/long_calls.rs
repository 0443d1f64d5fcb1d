//! Tools that take time, served over streamable HTTP with limits from the command line: how a
//! long call is written so that it ends, and what a server on a network needs so that one
//! stranger cannot lock everyone else out.
//!
//! - `wait` waits (`await`s) as long as it is asked: it ends at its deadline (`--deadline
//!   SECS`, 60 by default), or when the client cancels it or its session ends, and what it
//!   holds meanwhile (`hold_kib`) is freed then.
//! - `digest` does blocking work (a CPU-bound hash): it runs it on tokio's blocking pool with
//!   `spawn_blocking` and awaits the result, so every other call goes on being served
//!   meanwhile, and the call still ends at its deadline.
//!
//! Run it: `cargo run --example long_calls --features rmcp -- --http 127.0.0.1:8000
//! [--session-idle SECS] [--connection-idle SECS] [--header-timeout SECS] [--deadline SECS]
//! [--max-sessions N] [--max-sessions-per-address N] [--max-connections-per-address N]
//! [--trusted-proxy ADDRESS] [--stateless]`. `.ci/run` plays attackers against it from
//! loopback addresses and a user from another (`tests/e2e/hostile.py`,
//! `tests/e2e/many_addresses.mjs`, `tests/e2e/behind_nginx.mjs`).

mod log_to_stderr;

use std::time::Duration;

use serde::Deserialize;
use stitch::Contract;
use stitch::mcp::{HttpServer, Toolbox, Tools};

/// Wait, holding memory meanwhile.
#[derive(Contract, Deserialize)]
struct Wait {
    /// How long to wait, in milliseconds.
    #[contract(min = 0)]
    millis: u64,
    /// KiB held while waiting.
    #[contract(min = 0, max = 65536)]
    hold_kib: usize,
}

/// Hash a text many times over: blocking work.
#[derive(Contract, Deserialize)]
struct Digest {
    /// The text.
    text: String,
    /// How many rounds.
    #[contract(min = 1, max = 100000000)]
    rounds: u64,
}

/// `rounds` of FNV-1a over `text`, each round over the last's digest: work that holds its
/// thread from start to end.
fn digest(text: &str, rounds: u64) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for round in 0..rounds {
        for byte in text.bytes().chain(round.to_le_bytes()) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn toolbox(deadline: Duration) -> Toolbox {
    Tools::new()
        .tool(|wait: Wait| async move {
            let held = vec![1u8; wait.hold_kib << 10];
            tokio::time::sleep(Duration::from_millis(wait.millis)).await;
            Ok::<_, String>(format!(
                "waited {} ms holding {} KiB",
                wait.millis,
                held.len() >> 10
            ))
        })
        .tool(|asked: Digest| async move {
            // Blocking work runs on the blocking pool: the runtime's threads stay free.
            tokio::task::spawn_blocking(move || digest(&asked.text, asked.rounds))
                .await
                .map(|hash| format!("{hash:016x}"))
                .map_err(|error| format!("the work failed: {error}"))
        })
        .call_deadline(deadline)
        .observe(|call| {
            eprintln!(
                "call {} {:?} in {:?}",
                call.tool, call.outcome, call.duration
            )
        })
        .toolbox("long-calls", env!("CARGO_PKG_VERSION"))
        .unwrap_or_else(|findings| panic!("{findings:?}"))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    log_to_stderr::install();
    let mut args = std::env::args().skip(1);
    let (mut address, mut deadline, mut server) = (None, 60.0, HttpServer::new());
    let usage = "usage: long_calls --http 127.0.0.1:PORT [--stateless] [--deadline SECS] \
                 [--session-idle SECS] [--connection-idle SECS] [--header-timeout SECS] \
                 [--max-sessions N] [--max-sessions-per-address N] \
                 [--max-connections-per-address N] [--trusted-proxy ADDRESS]";
    while let Some(flag) = args.next() {
        if flag == "--stateless" {
            server = server.stateless(true);
            continue;
        }
        let value = args.next().ok_or(usage)?;
        let seconds = || value.parse::<f64>().map(Duration::from_secs_f64);
        let count = || value.parse::<usize>();
        server = match flag.as_str() {
            "--http" => {
                address = Some(value.clone());
                server
            }
            "--deadline" => {
                deadline = value.parse()?;
                server
            }
            "--session-idle" => server.session_idle(seconds()?),
            "--connection-idle" => server.connection_idle(seconds()?),
            "--header-timeout" => server.header_timeout(seconds()?),
            "--max-sessions" => server.max_sessions(count()?),
            "--max-sessions-per-address" => server.max_sessions_per_address(count()?),
            "--max-connections-per-address" => server.max_connections_per_address(count()?),
            "--trusted-proxy" => server.trusted_proxies([value.parse()?]),
            _ => return Err(usage.into()),
        };
    }
    let listener = server.bind(address.ok_or(usage)?).await?;
    eprintln!("serving on http://{}/mcp", listener.local_addr()?);
    listener
        .serve(toolbox(Duration::from_secs_f64(deadline)))
        .await?;
    Ok(())
}
