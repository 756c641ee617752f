//! Headless Chromium driven over the DevTools protocol, through a WebSocket client
//! (tungstenite): a launcher, and calls to navigate, evaluate a script and take a
//! screenshot. Everything stays on loopback.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, stream::MaybeTlsStream, Message, WebSocket};

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
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
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
        let list = crate::common::get(format!("127.0.0.1:{port}").parse().unwrap(), "/json/list").json();
        let page = list
            .as_array()
            .and_then(|l| l.iter().find(|t| t["type"] == "page"))
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .ok_or("no page target")?
            .to_owned();
        let (ws, _) = tungstenite::connect(page.as_str()).map_err(|e| format!("DevTools WebSocket: {e}"))?;
        let mut chromium = Self { child, _profile: profile, ws, next_id: 0 };
        let size = json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false });
        chromium.call("Emulation.setDeviceMetricsOverride", &size, Duration::from_secs(10))?;
        Ok(chromium)
    }

    /// The next text message.
    fn recv(&mut self) -> Result<String, String> {
        loop {
            match self.ws.read().map_err(|e| format!("DevTools connection: {e}"))? {
                Message::Text(text) => return Ok(text.as_str().to_owned()),
                Message::Close(_) => return Err("DevTools closed the connection".into()),
                _ => {} // pings are answered by the client
            }
        }
    }

    /// Calls a DevTools method and returns its result, waiting at most `timeout`.
    pub fn call(&mut self, method: &str, params: &Value, timeout: Duration) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let text = json!({ "id": id, "method": method, "params": params }).to_string();
        if let MaybeTlsStream::Plain(stream) = self.ws.get_ref() {
            stream.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
        }
        self.ws.send(Message::text(text)).map_err(|e| e.to_string())?;
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
    base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| e.to_string())
}
