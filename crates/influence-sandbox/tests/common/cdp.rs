//! Headless Chromium driven over the DevTools protocol: a launcher and just enough WebSocket
//! (RFC 6455: masked text frames out, text frames in) to navigate, evaluate a script and
//! take a screenshot. Everything stays on loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The Chromium binary: `$INFLUENCE_CHROMIUM`, else `chromium` (Debian's, at
/// `/usr/bin/chromium`) or `chromium-browser` on the `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("INFLUENCE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&path).chain([PathBuf::from("/usr/bin")]);
    dirs.flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n))).find(|p| p.is_file())
}

/// A running headless Chromium with a DevTools connection to its page.
pub struct Chromium {
    child: Child,
    _profile: tempfile::TempDir,
    ws: TcpStream,
    next_id: u64,
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_for_port(profile: &Path, child: &mut Child) -> Result<u16, String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(text) = std::fs::read_to_string(profile.join("DevToolsActivePort")) {
            if let Some(port) = text.lines().next().and_then(|l| l.trim().parse().ok()) {
                return Ok(port);
            }
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("chromium exited early: {status}"));
        }
        if Instant::now() > deadline {
            return Err("chromium did not open its DevTools port within 30 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Chromium {
    /// Starts `binary` headless with a `width × height` window and connects to its page.
    pub fn launch(binary: &Path, width: u32, height: u32) -> Result<Self, String> {
        let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", profile.path().display()),
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let port = match wait_for_port(profile.path(), &mut child) {
            Ok(p) => p,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(e);
            }
        };
        let mut chromium = Self {
            child,
            _profile: profile,
            ws: TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?,
            next_id: 0,
        };
        let list = crate::common::get(format!("127.0.0.1:{port}").parse().unwrap(), "/json/list").json();
        let page = list
            .as_array()
            .and_then(|l| l.iter().find(|t| t["type"] == "page"))
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .ok_or("no page target")?
            .to_owned();
        let path = page.splitn(4, '/').nth(3).ok_or("bad debugger URL")?;
        chromium.handshake(port, &format!("/{path}"))?;
        let size = json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false });
        chromium.call("Emulation.setDeviceMetricsOverride", &size, Duration::from_secs(10))?;
        Ok(chromium)
    }

    fn handshake(&mut self, port: u16, path: &str) -> Result<(), String> {
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        self.ws.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        let mut reader = BufReader::new(&self.ws);
        let mut status = String::new();
        reader.read_line(&mut status).map_err(|e| e.to_string())?;
        if !status.contains(" 101 ") {
            return Err(format!("WebSocket handshake refused: {status}"));
        }
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            if line == "\r\n" || line.is_empty() {
                return Ok(());
            }
        }
    }

    fn send_frame(&mut self, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
        let mut frame = vec![0x80 | opcode];
        let n = payload.len();
        if n < 126 {
            frame.push(0x80 | n as u8);
        } else if n < 1 << 16 {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        } else {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
        let mask = [0x37, 0xfa, 0x21, 0x3d];
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.ws.write_all(&frame)
    }

    /// The next whole text message.
    fn recv(&mut self) -> Result<String, String> {
        let mut message = Vec::new();
        loop {
            let mut head = [0u8; 2];
            self.ws.read_exact(&mut head).map_err(|e| format!("DevTools connection: {e}"))?;
            let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
            let mut len = u64::from(head[1] & 0x7f);
            if len == 126 {
                let mut b = [0u8; 2];
                self.ws.read_exact(&mut b).map_err(|e| e.to_string())?;
                len = u64::from(u16::from_be_bytes(b));
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.ws.read_exact(&mut b).map_err(|e| e.to_string())?;
                len = u64::from_be_bytes(b);
            }
            let mut mask = [0u8; 4];
            if head[1] & 0x80 != 0 {
                self.ws.read_exact(&mut mask).map_err(|e| e.to_string())?;
            }
            let mut payload = vec![0u8; len as usize];
            self.ws.read_exact(&mut payload).map_err(|e| e.to_string())?;
            if head[1] & 0x80 != 0 {
                payload.iter_mut().enumerate().for_each(|(i, b)| *b ^= mask[i % 4]);
            }
            match opcode {
                0x8 => return Err("DevTools closed the connection".into()),
                0x9 => self.send_frame(0xA, &payload).map_err(|e| e.to_string())?,
                0xA => {}
                _ => {
                    message.extend_from_slice(&payload);
                    if fin {
                        return String::from_utf8(message).map_err(|e| e.to_string());
                    }
                }
            }
        }
    }

    /// Calls a DevTools method and returns its result, waiting at most `timeout`.
    pub fn call(&mut self, method: &str, params: &Value, timeout: Duration) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let text = json!({ "id": id, "method": method, "params": params }).to_string();
        self.send_frame(0x1, text.as_bytes()).map_err(|e| e.to_string())?;
        self.ws.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
        loop {
            let reply: Value = serde_json::from_str(&self.recv()?).map_err(|e| e.to_string())?;
            if reply["id"] == id {
                if let Some(e) = reply.get("error") {
                    return Err(format!("{method}: {e}"));
                }
                return Ok(reply["result"].clone());
            }
        }
    }

    /// Opens `url` and waits until the page's `window.sandbox.ready` has resolved.
    pub fn open_sandbox(&mut self, url: &str) -> Result<(), String> {
        self.call("Page.navigate", &json!({ "url": url }), Duration::from_secs(30))?;
        let wait = "new Promise((resolve) => { const poll = () => window.sandbox && window.sandbox.ready \
                    ? window.sandbox.ready.then(() => window.sandbox.idle()).then(() => resolve(true)) \
                    : setTimeout(poll, 50); poll(); })";
        self.evaluate(wait, Duration::from_secs(60)).map(drop)
    }

    /// Evaluates `expression`, awaiting a promise, and returns its value.
    pub fn evaluate(&mut self, expression: &str, timeout: Duration) -> Result<Value, String> {
        let params = json!({ "expression": expression, "awaitPromise": true, "returnByValue": true });
        let r = self.call("Runtime.evaluate", &params, timeout)?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("script failed: {e}"));
        }
        Ok(r["result"]["value"].clone())
    }

    /// A PNG of the viewport.
    pub fn screenshot(&mut self) -> Result<Vec<u8>, String> {
        let r = self.call("Page.captureScreenshot", &json!({ "format": "png" }), Duration::from_secs(30))?;
        base64_decode(r["data"].as_str().ok_or("no screenshot data")?)
    }
}

/// Standard base64 (with padding), as DevTools sends binary data.
pub fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        acc = acc << 6 | u32::from(value(c).ok_or("bad base64")?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}
