//! `influence serve`: the sandbox starts, prints its address, answers its API on loopback,
//! stops gracefully on Ctrl-C (SIGINT), and refuses a bad starting scenario with exit code 2.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{influence, repo};

#[test]
fn serve_prints_its_address_and_answers() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_influence"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("an address").to_owned();
    let host = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    assert!(host.starts_with("127.0.0.1:"), "{line}");
    let response = reqwest::blocking::get(format!("{url}api/maps")).and_then(|r| Ok((r.status(), r.text()?)));
    child.kill().unwrap();
    child.wait().unwrap();
    let (status, body) = response.unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("den012d"), "{body}");
}

#[test]
fn ctrl_c_stops_the_server_gracefully() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_influence"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    // Ctrl-C is SIGINT.
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the server did not stop within 20 s of Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert!(status.success(), "{status}: {stderr}");
    assert!(stderr.contains("stopping"), "{stderr}");
}

#[test]
fn serve_refuses_a_bad_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[map]\nwidth = 0\nheight = 3\n").unwrap();
    let out = influence(&["serve", bad.to_str().unwrap(), "--port", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(repo("docs/sandbox-api.md").exists());
}
