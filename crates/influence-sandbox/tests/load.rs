//! The sandbox under load, on loopback, bounded in time (each test stops by itself well
//! within a minute, also in a debug build on two cores):
//!
//! * 100 idle connections and 60 slowloris clients (a header line every second, never
//!   finishing the head) leave a normal `GET /` answered 200 within a second, and the server
//!   closes the slow clients after its header-read timeout and the idle ones after its idle
//!   timeout.
//! * During a multi-second edit of a 1024 × 1024 map (walls under sources that walk the
//!   map), `GET /api/scene` answers within 100 ms from the last completed state, says
//!   `computing`, and a newer edit interrupts the older one: both are answered by one
//!   computation.

mod common;

use std::time::{Duration, Instant};

use common::scenes::walking_sources;
use common::{get, ok, request};
use influence_sandbox::{start, Limits, ServeConfig};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The requirement: a normal client is answered within this, under attack.
const ANSWERED_WITHIN: Duration = Duration::from_secs(1);
/// The requirement: reads during a long edit answer within this.
const READ_WITHIN: Duration = Duration::from_millis(100);

#[test]
fn idle_and_slowloris_clients_leave_a_normal_client_answered_within_a_second() {
    let limits = Limits::default();
    let server = start(ServeConfig::default()).unwrap();
    let addr = server.addr();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (header_timeout, idle_timeout) = (limits.header_read_timeout, limits.idle_timeout);
    let outcome = runtime.block_on(async move {
        tokio::time::timeout(Duration::from_secs(50), async move {
            let started = Instant::now();
            // 100 connections that never send a byte.
            let mut idle = Vec::new();
            for _ in 0..100 {
                idle.push(TcpStream::connect(addr).await.unwrap());
            }
            // 60 slowloris clients: a head that never ends, one header line a second. Each
            // reports how long the server let it live.
            let slow: Vec<_> = (0..60)
                .map(|i| {
                    tokio::spawn(async move {
                        let stream = TcpStream::connect(addr).await.unwrap();
                        let (mut read, mut write) = stream.into_split();
                        let opened = Instant::now();
                        write.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();
                        let trickle = async {
                            for n in 0.. {
                                tokio::time::sleep(Duration::from_secs(1)).await;
                                if write.write_all(format!("X-Slow-{i}-{n}: y\r\n").as_bytes()).await.is_err()
                                {
                                    break;
                                }
                            }
                        };
                        let mut byte = [0u8; 1];
                        tokio::select! {
                            _ = read.read(&mut byte) => {} // the server closed (or answered)
                            () = trickle => {}
                        }
                        opened.elapsed()
                    })
                })
                .collect();
            tokio::time::sleep(Duration::from_millis(300)).await;

            // A normal client, a fresh connection for every request, through the attack and
            // past the moment the server closes the slow clients.
            let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
            let mut latencies = Vec::new();
            while started.elapsed() < header_timeout + Duration::from_secs(2) {
                let asked = Instant::now();
                let response = tokio::time::timeout(
                    Duration::from_secs(10),
                    client.get(format!("http://{addr}/")).send(),
                )
                .await
                .expect("answered within 10 s")
                .expect("a response");
                let status = response.status();
                let body = response.text().await.unwrap();
                latencies.push(asked.elapsed());
                assert_eq!(status, 200);
                assert!(body.contains("influence <span>sandbox</span>"));
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            let worst =
                summarise("normal requests under 100 idle + 60 slowloris connections", &mut latencies);
            assert!(worst < ANSWERED_WITHIN, "a normal GET / took {worst:?}");

            // The slow clients were closed after the header-read timeout (counted from their
            // first byte), not before, and not much later.
            for task in slow {
                let lived = task.await.unwrap();
                assert!(
                    lived >= header_timeout - Duration::from_millis(200)
                        && lived < header_timeout + Duration::from_secs(2),
                    "a slowloris client lived {lived:?}"
                );
            }
            // The idle connections are closed after the idle timeout.
            let wait = (idle_timeout + Duration::from_secs(2)).saturating_sub(started.elapsed());
            tokio::time::sleep(wait).await;
            for mut stream in idle {
                let mut byte = [0u8; 1];
                let read = tokio::time::timeout(Duration::from_millis(500), stream.read(&mut byte)).await;
                assert!(matches!(read, Ok(Ok(0) | Err(_))), "an idle connection is still open: {read:?}");
            }
        })
        .await
    });
    outcome.expect("the load test ends within 50 s");
}

/// Sorts `latencies`, prints how many there were of `what` with their median and worst, and
/// returns the worst.
fn summarise(what: &str, latencies: &mut [Duration]) -> Duration {
    latencies.sort();
    let worst = latencies[latencies.len() - 1];
    println!("{} {what}: median {:?}, worst {worst:?}", latencies.len(), latencies[latencies.len() / 2]);
    worst
}

#[test]
fn reads_answer_at_once_during_a_long_edit_and_a_newer_edit_interrupts_it() {
    let server = start(ServeConfig::default()).unwrap();
    let a = server.addr();
    // As many sources as make rebuilding the map take about 2.5 s on this machine and build.
    let timed = Instant::now();
    let r = request(a, "POST", "/api/import", Some("application/toml"), walking_sources(2).as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let per_source = timed.elapsed() / 2;
    let n = (Duration::from_millis(2500).as_secs_f64() / per_source.as_secs_f64()).ceil() as usize;
    let n = n.clamp(2, 128);
    let r = request(a, "POST", "/api/import", Some("application/toml"), walking_sources(n).as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let before = get(a, "/api/scene").json();

    // A wall rebuilds every team: a long edit.
    let wall = |x: u32| json!({ "cells": [[x, 3]], "blocked": true });
    let timed = Instant::now();
    let first = ok(a, "POST", "/api/walls", &wall(1));
    let alone = timed.elapsed();
    println!("{n} walking sources on 1024 × 1024: a wall takes {alone:?}");
    assert!(alone > Duration::from_secs(1), "the edit is multi-second ({alone:?})");
    assert!(first["version"].as_u64() > before["version"].as_u64());

    // Again, reading all the while.
    let editing = std::thread::spawn(move || {
        let timed = Instant::now();
        let answer = ok(a, "POST", "/api/walls", &wall(2));
        (answer, timed.elapsed())
    });
    let mut latencies = Vec::new();
    let mut computing = 0;
    let reads_started = Instant::now();
    while !editing.is_finished() {
        let asked = Instant::now();
        let scene = get(a, "/api/scene").json();
        latencies.push(asked.elapsed());
        if scene["computing"] == true {
            computing += 1;
            assert_eq!(scene["version"], first["version"], "the last completed state is shown");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (second, took) = editing.join().unwrap();
    assert!(took > Duration::from_secs(1), "the edit is multi-second ({took:?})");
    assert!(computing >= 10, "only {computing} reads saw the edit computing");
    let worst = summarise(&format!("reads of GET /api/scene during a {took:?} edit"), &mut latencies);
    assert!(
        worst < READ_WITHIN,
        "GET /api/scene took {worst:?} during the edit ({:?} of reads)",
        reads_started.elapsed()
    );
    assert_eq!(second["computing"], false);
    // Frames and cells answer from the last completed state too.
    assert_eq!(get(a, "/api/cell?x=2&y=3").json()["walkable"], false);

    // A newer edit interrupts the older: both are answered by the same computation, and
    // sooner than one after the other.
    let timed = Instant::now();
    let older = std::thread::spawn(move || ok(a, "POST", "/api/walls", &wall(4)));
    while get(a, "/api/scene").json()["computing"] != true {
        assert!(!older.is_finished(), "the first wall was computed before it could be seen computing");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(alone / 4);
    let sent = Instant::now();
    let newer = ok(a, "POST", "/api/walls", &wall(5));
    let waited = sent.elapsed();
    let older = older.join().unwrap();
    let both = timed.elapsed();
    println!(
        "two walls, the second sent a quarter into the first: both answered after {both:?}, the second \
         {waited:?} after it was sent (one alone: {alone:?})"
    );
    // Had the older edit's computation run to its end, it would have been answered with
    // its own version, before the newer edit was even applied.
    assert_eq!(older["version"], newer["version"], "one computation answered both");
    let cells: Vec<bool> =
        [4, 5].iter().map(|x| get(a, &format!("/api/cell?x={x}&y=3")).json()["walkable"] == false).collect();
    assert_eq!(cells, [true, true], "both walls are in");
}
