//! Helpers for the integration tests: a minimal HTTP client over `TcpStream`, frame
//! decoding, and (in submodules) a reference computation and a DevTools client.
#![allow(dead_code)] // each test binary uses its own part

pub mod cdp;
pub mod reference;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    /// The error message of a 4xx reply.
    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_default().to_owned()
    }
}

/// How long [`raw`] waits for each read of the reply.
const READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Sends raw bytes and reads the reply until the server closes the connection.
///
/// Panics if no complete head came back, saying how the read ended (closed, reset, timed out)
/// and after how long, so that a failure under load names its cause.
pub fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(READ_TIMEOUT)).unwrap();
    // The server may answer (and close) before all of an over-limit request is sent.
    let sent = stream.write_all(request);
    // Read until the body announced by Content-Length is in, or the server closes.
    let mut data = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let ended = loop {
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..end]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok());
            if length.is_some_and(|n: usize| data.len() >= end + 4 + n) {
                break None;
            }
        }
        match stream.read(&mut buf) {
            Ok(0) => break Some("the server closed the connection".to_owned()),
            Err(e) => break Some(format!("reading failed: {e} ({:?})", e.kind())),
            Ok(n) => data.extend_from_slice(&buf[..n]),
        }
    };
    if !data.windows(4).any(|w| w == b"\r\n\r\n") {
        let line = request.split(|&b| b == b'\r').next().unwrap_or_default();
        panic!(
            "no complete reply to {:?} after {:?}: {}; sending {}; received {:?}",
            String::from_utf8_lossy(line),
            started.elapsed(),
            ended.as_deref().unwrap_or("?"),
            sent.map_or_else(|e| format!("failed: {e}"), |()| "succeeded".to_owned()),
            String::from_utf8_lossy(&data),
        );
    }
    parse_reply(&data)
}

pub fn parse_reply(data: &[u8]) -> Reply {
    let end = data.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or_else(|| {
        panic!("no complete reply: {:?}", String::from_utf8_lossy(data));
    });
    let head = String::from_utf8_lossy(&data[..end]).into_owned();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
    let content_type =
        head.lines().find_map(|l| l.strip_prefix("Content-Type: ")).unwrap_or_default().to_owned();
    Reply { status, content_type, body: data[end + 4..].to_vec() }
}

/// One request with `Connection: close`.
pub fn request(addr: SocketAddr, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> Reply {
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n", addr.port());
    if let Some(t) = content_type {
        head += &format!("Content-Type: {t}\r\n");
    }
    head += &format!("Content-Length: {}\r\n\r\n", body.len());
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    raw(addr, &bytes)
}

pub fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, None, b"")
}

/// A JSON request.
pub fn send(addr: SocketAddr, method: &str, path: &str, body: &serde_json::Value) -> Reply {
    request(addr, method, path, Some("application/json"), body.to_string().as_bytes())
}

/// Like [`send`], asserting 200 and returning the JSON.
pub fn ok(addr: SocketAddr, method: &str, path: &str, body: &serde_json::Value) -> serde_json::Value {
    let r = send(addr, method, path, body);
    assert_eq!(r.status, 200, "{method} {path} {body}: {}", r.text());
    r.json()
}

/// A decoded layer frame.
#[derive(Debug)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub version: u32,
    pub done: u32,
    pub target: u32,
    pub diverging: bool,
    pub lo: f32,
    pub hi: f32,
    pub predicted: Option<usize>,
    pub values: Vec<f32>,
    pub flags: Vec<u8>,
    /// Each route's cells (empty where unreachable).
    pub routes: Vec<Vec<usize>>,
}

pub fn decode(body: &[u8]) -> Frame {
    assert_eq!(&body[..4], b"INFL");
    let word = |o: usize| u32::from_le_bytes(body[o..o + 4].try_into().unwrap());
    let (width, height) = (word(8) as usize, word(12) as usize);
    let n = width * height;
    let mut at = 48 + 5 * n;
    let mut next = || {
        at += 4;
        word(at - 4) as usize
    };
    let routes = (0..next()).map(|_| (0..next()).map(|_| next()).collect()).collect();
    assert_eq!(at, body.len());
    Frame {
        width,
        height,
        version: word(16),
        done: word(20),
        target: word(24),
        diverging: body[28] == 0,
        lo: f32::from_bits(word(32)),
        hi: f32::from_bits(word(36)),
        predicted: (word(40) != u32::MAX).then_some(word(40) as usize),
        values: (0..n).map(|i| f32::from_bits(word(48 + 4 * i))).collect(),
        flags: body[48 + 4 * n..48 + 5 * n].to_vec(),
        routes,
    }
}

/// The layer `name` as the server sends it.
pub fn layer(addr: SocketAddr, name: &str) -> Frame {
    let r = get(addr, &format!("/api/layer/{name}"));
    assert_eq!(r.status, 200, "layer {name}: {}", r.text());
    decode(&r.body)
}

/// Asserts two value lists are equal bit for bit.
pub fn assert_same_bits(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let diff = got.iter().zip(want).position(|(a, b)| a.to_bits() != b.to_bits());
    if let Some(i) = diff {
        panic!("{what}: cell {i} differs: {} vs {}", got[i], want[i]);
    }
}

/// `target/debug/influence` if it has been built.
pub fn cli() -> Option<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"), PathBuf::from);
    Some(target.join("debug/influence")).filter(|p| p.is_file())
}

/// Reads a `.npy` file of little-endian `f32` as `influence render` writes it.
pub fn read_npy(path: &Path) -> Vec<f32> {
    let bytes = std::fs::read(path).unwrap();
    let header = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    bytes[10 + header..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// Runs `influence render` (when built) on the exported scenario `text` and checks that it
/// accepts it and writes the layers and routes of `want`, bit for bit.
pub fn assert_cli_agrees(text: &str, want: &reference::Rendered) {
    let Some(cli) = cli() else {
        println!("note: target/debug/influence is not built; compared with the library only");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("scene.toml");
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(&cli)
        .args(["render", file.to_str().unwrap(), "--out", dir.path().join("out").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "influence render refused the export: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (name, layer) in &want.layers {
        let got = read_npy(&dir.path().join(format!("out/{name}.npy")));
        assert_same_bits(&format!("influence render: {name}"), &got, layer.values());
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/summary.json")).unwrap()).unwrap();
    let w = want.grid.width();
    for (i, route) in want.routes.iter().enumerate() {
        let cells: Vec<[usize; 2]> = route.iter().flatten().map(|&c| [c % w, c / w]).collect();
        assert_eq!(summary["paths"][i]["cells"], serde_json::json!(cells), "influence render: path {i}");
    }
}
