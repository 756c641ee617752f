//! The sandbox's server measured on loopback: requests per second for `GET /api/scene`,
//! frames (`GET /api/layer/…`, and `POST /api/frame` stepping a diffusion as the page does
//! while playing), and the latency of `GET /api/scene` while a long edit computes against
//! the same request on an idle server.
//!
//! ```sh
//! cargo bench -p influence-sandbox --bench serve                 # the figures in docs/sandbox-api.md
//! cargo bench -p influence-sandbox --bench serve -- --seconds 1 --clients 4 --json
//! ```
//!
//! The clients (reqwest, keep-alive, on a tokio runtime of two threads) run in the same
//! process as the server, so both share the machine's cores.

#[path = "../tests/common/scenes.rs"]
mod scenes;

use std::time::{Duration, Instant};

use influence_sandbox::{start, ServeConfig};
use serde_json::json;

struct Options {
    seconds: f64,
    clients: usize,
    json: bool,
}

fn options() -> Options {
    let mut o = Options { seconds: 3.0, clients: 8, json: false };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => o.seconds = args.next().and_then(|v| v.parse().ok()).expect("--seconds S"),
            "--clients" => o.clients = args.next().and_then(|v| v.parse().ok()).expect("--clients N"),
            "--json" => o.json = true,
            "--bench" => {} // cargo bench passes it
            other => panic!("unknown argument {other:?}: [--seconds S] [--clients N] [--json]"),
        }
    }
    o
}

/// Requests per second of `make`'s request, sent by `clients` clients for `seconds`.
async fn throughput(
    client: &reqwest::Client,
    clients: usize,
    seconds: f64,
    make: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder + Send + Sync + Clone + 'static,
) -> f64 {
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|_| {
            let (client, make) = (client.clone(), make.clone());
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < until {
                    let response = make(&client).send().await.expect("a response");
                    assert!(response.status().is_success(), "{}", response.status());
                    response.bytes().await.expect("a body");
                    n += 1;
                }
                n
            })
        })
        .collect();
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap();
    }
    total as f64 / started.elapsed().as_secs_f64()
}

/// One request after another, while `go_on` says so; their latencies, sorted.
async fn latencies(
    client: &reqwest::Client,
    make: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    go_on: impl Fn(usize) -> bool,
) -> Vec<Duration> {
    let mut latencies = Vec::new();
    while go_on(latencies.len()) {
        let asked = Instant::now();
        let response = make(client).send().await.expect("a response");
        assert!(response.status().is_success());
        response.bytes().await.expect("a body");
        latencies.push(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    latencies.sort();
    latencies
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let o = options();
    let server = start(ServeConfig::default()).expect("the sandbox starts");
    let base = format!("http://{}", server.addr());
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let client = reqwest::Client::builder().pool_max_idle_per_host(64).build().unwrap();
    let post = |client: &reqwest::Client, path: &str, body: &str, kind: &str| {
        let r = runtime.block_on(
            client.post(format!("{base}{path}")).header("Content-Type", kind).body(body.to_owned()).send(),
        );
        let r = r.expect("a response");
        assert!(r.status().is_success(), "{path}: {}", r.status());
    };

    // The page's scene while playing: an open 256 × 256 map, a wall, two teams diffusing.
    let wall: Vec<[u32; 2]> = (20..236).map(|y| [128, y]).collect();
    let mut setup = String::from("[map]\nwidth = 256\nheight = 256\n\n[propagation]\nkind = \"diffuse\"\ndecay = 0.02\nmomentum = 0.5\nsteps = 1\n");
    for (team, x) in [("red", 40.5), ("blue", 215.5)] {
        setup += &format!(
            "\n[[source]]\nteam = \"{team}\"\nat = [{x}, 128.5]\nstrength = 10\nfalloff = \"point\"\n"
        );
    }
    post(&client, "/api/import", &setup, "application/toml");
    post(&client, "/api/walls", &json!({ "cells": wall, "blocked": true }).to_string(), "application/json");

    let (scene_url, layer_url, frame_url) =
        (format!("{base}/api/scene"), format!("{base}/api/layer/influence"), format!("{base}/api/frame"));
    let (seconds, clients) = (o.seconds, o.clients);
    let scene_rps = runtime.block_on(throughput(&client, clients, seconds, {
        let url = scene_url.clone();
        move |c: &reqwest::Client| c.get(&url)
    }));
    let layer_rps = runtime.block_on(throughput(&client, clients, seconds, {
        let url = layer_url.clone();
        move |c: &reqwest::Client| c.get(&url)
    }));
    let step = {
        let url = frame_url.clone();
        move |c: &reqwest::Client| {
            c.post(&url)
                .header("Content-Type", "application/json")
                .body(r#"{"layer": "influence", "advance": 1}"#)
        }
    };
    let step_rps = runtime.block_on(throughput(&client, clients, seconds, step.clone()));
    // What the page waits for each frame while playing: one client, one step a request.
    let stepping = runtime.block_on(latencies(&client, step, |n| n < 500));

    // Latency on a 1024 × 1024 map with sources that walk it: idle, then during a wall,
    // which rebuilds every team (48 path searches over a million cells).
    post(&client, "/api/import", &scenes::walking_sources(48), "application/toml");
    let get_scene = |c: &reqwest::Client| c.get(&scene_url);
    let idle = runtime.block_on(latencies(&client, get_scene, |n| n < 1000));
    let edit = {
        let (client, base) = (client.clone(), base.clone());
        runtime.spawn(async move {
            let asked = Instant::now();
            let r = client
                .post(format!("{base}/api/walls"))
                .header("Content-Type", "application/json")
                .body(r#"{"cells": [[3, 3]], "blocked": true}"#)
                .send()
                .await
                .expect("a response");
            assert!(r.status().is_success());
            r.bytes().await.unwrap();
            asked.elapsed()
        })
    };
    std::thread::sleep(Duration::from_millis(20));
    let during = runtime.block_on(latencies(&client, get_scene, |_| !edit.is_finished()));
    let edit_took = runtime.block_on(edit).unwrap();
    let (idle_p50, idle_p99) = (percentile(&idle, 0.5), percentile(&idle, 0.99));
    let (during_p50, during_p99) = (percentile(&during, 0.5), percentile(&during, 0.99));

    if o.json {
        let report = json!({
            "clients": clients,
            "seconds": seconds,
            "scene_requests_per_second": scene_rps,
            "frame_256_requests_per_second": layer_rps,
            "step_and_frame_256_requests_per_second": step_rps,
            "step_and_frame_256_one_client_ms": {
                "p50": ms(percentile(&stepping, 0.5)), "p99": ms(percentile(&stepping, 0.99))
            },
            "edit_1024_seconds": edit_took.as_secs_f64(),
            "scene_idle_ms": { "p50": ms(idle_p50), "p99": ms(idle_p99), "n": idle.len() },
            "scene_during_edit_ms": { "p50": ms(during_p50), "p99": ms(during_p99), "n": during.len() },
            "ratio": { "p50": ms(during_p50) / ms(idle_p50), "p99": ms(during_p99) / ms(idle_p99) },
        });
        println!("{report:#}");
        return;
    }
    println!("throughput, {clients} keep-alive clients, {seconds} s each:");
    println!("  GET /api/scene                          {scene_rps:9.0} req/s");
    println!("  GET /api/layer/influence (256², 320 KiB) {layer_rps:9.0} req/s");
    println!("  POST /api/frame, advance 1 (256², 2 teams) {step_rps:7.0} req/s");
    println!(
        "  … one client, one after another:           p50 {:.2} ms  p99 {:.2} ms",
        ms(percentile(&stepping, 0.5)),
        ms(percentile(&stepping, 0.99))
    );
    println!("GET /api/scene latency on 1024² (48 walking sources), one client:");
    println!(
        "  idle            p50 {:7.2} ms  p99 {:7.2} ms  ({} requests)",
        ms(idle_p50),
        ms(idle_p99),
        idle.len()
    );
    println!(
        "  during an edit  p50 {:7.2} ms  p99 {:7.2} ms  ({} requests; the edit took {:.2} s)",
        ms(during_p50),
        ms(during_p99),
        during.len(),
        edit_took.as_secs_f64()
    );
    println!(
        "  ratio           p50 {:7.2}     p99 {:7.2}",
        ms(during_p50) / ms(idle_p50),
        ms(during_p99) / ms(idle_p99)
    );
}
