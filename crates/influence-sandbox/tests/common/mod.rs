//! Helpers for the integration tests: an HTTP client (reqwest), frame decoding, and (in
//! submodules) a reference computation, a DevTools client and shared scenarios.
#![allow(dead_code)] // each test binary uses its own part

pub mod cdp;
pub mod reference;
pub mod scenes;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

/// A response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    /// A header's value, if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().unwrap_or_default())
    }
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

/// The client every test shares (a long timeout: debug builds compute slowly).
static CLIENT: LazyLock<reqwest::blocking::Client> = LazyLock::new(|| {
    reqwest::blocking::Client::builder().timeout(Duration::from_secs(300)).build().expect("an HTTP client")
});

/// One request, with a body and, if given, its `Content-Type`.
pub fn request(addr: SocketAddr, method: &str, path: &str, content_type: Option<&str>, body: &[u8]) -> Reply {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
    let mut request = CLIENT.request(method.clone(), format!("http://{addr}{path}"));
    if let Some(t) = content_type {
        request = request.header("Content-Type", t);
    }
    if !body.is_empty() || !matches!(method, reqwest::Method::GET | reqwest::Method::DELETE) {
        request = request.body(body.to_vec());
    }
    reply(request)
}

/// Sends `request` and reads the whole reply.
pub fn reply(request: reqwest::blocking::RequestBuilder) -> Reply {
    let response = request.send().unwrap_or_else(|e| panic!("no reply: {e:?}"));
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or_default().to_owned())
        .unwrap_or_default();
    let headers = response.headers().clone();
    let body = response.bytes().expect("the body").to_vec();
    Reply { status, content_type, headers, body }
}

/// The shared client, for requests the helpers do not cover.
pub fn client() -> &'static reqwest::blocking::Client {
    &CLIENT
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

/// The status a server answers bytes with that no HTTP client would send (a malformed or
/// oversized head): writes them and reads the status line only.
pub fn status_of_raw(addr: SocketAddr, bytes: &[u8]) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // The server may answer (and close) before all of an over-limit request is sent.
    let _ = stream.write_all(bytes);
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            other => panic!("no status line ({other:?}); got {:?}", String::from_utf8_lossy(&head)),
        }
    }
    let line = String::from_utf8_lossy(&head);
    line.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a status line: {line:?}"))
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
