//! # influence-sandbox
//!
//! A local web page for the `influence` library: load a real map, place and drag sources of
//! any team, paint walls, pick each source's falloff, radius, strength and distance, choose
//! the layer shown (each team, influence, tension, vulnerability, directed vulnerability,
//! front line, flood-fill heat and its guess), play the propagation and watch it live, hover
//! a cell to read every layer there, and export the scene as a scenario TOML that
//! `influence render` reproduces exactly (or import one).
//!
//! The server computes everything through the library; the page (HTML, JS and CSS built
//! into the binary, nothing fetched from elsewhere) draws the values it is sent with the
//! colour maps of `influence::render`. The page talks to the server through a small JSON API
//! under `/api/` (`docs/sandbox-api.md`), which scripts and games can drive as well.
//!
//! ```no_run
//! use influence_sandbox::{serve, ServeConfig};
//! // Blocks, printing "influence sandbox: http://127.0.0.1:8080/".
//! serve(ServeConfig { port: 8080, ..ServeConfig::default() })?;
//! # Ok::<(), influence_sandbox::SandboxError>(())
//! ```
//!
//! ```
//! use influence_sandbox::{start, ServeConfig};
//! let handle = start(ServeConfig::default())?; // port 0: any free port
//! println!("serving on {}", handle.url());
//! handle.stop();
//! # Ok::<(), influence_sandbox::SandboxError>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod api;
mod caps;
mod error;
mod export;
mod frame;
mod http;
mod maps;
mod scene;
mod server;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

pub use server::MAX_CONNECTIONS;

use scene::Scene;
use server::Shared;

/// How to serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeConfig {
    /// The address to listen on: loopback unless told otherwise (default `127.0.0.1`).
    pub host: IpAddr,
    /// The port; 0 picks a free one (the default, which tests want; the CLI passes its own).
    pub port: u16,
    /// A scenario file to start from (its `map.file` resolves against its folder, like
    /// `influence render`); `None` starts on the first bundled map with no sources.
    pub scenario: Option<PathBuf>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self { host: IpAddr::V4(Ipv4Addr::LOCALHOST), port: 0, scenario: None }
    }
}

/// Why the sandbox could not start.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The address could not be bound (in use, not permitted, ...).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The starting scenario could not be read or is invalid.
    #[error("{path}: {message}")]
    Scenario {
        /// The scenario file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// The accept thread could not be started.
    #[error("cannot start the server thread: {0}")]
    Thread(std::io::Error),
}

/// A running server: its address, and the way to stop it.
#[derive(Debug)]
pub struct Handle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shared")
    }
}

impl Handle {
    /// The address the server listens on (with the port chosen, when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, e.g. `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        format!("http://{}/", server::wake_address(self.addr))
    }

    /// Stops accepting connections and waits for the accept loop to end; open connections
    /// finish their current request and close.
    pub fn stop(mut self) {
        self.shutdown();
    }

    /// Blocks until the server stops (it does not by itself).
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    fn shutdown(&mut self) {
        self.shared.stop();
        if let Some(t) = self.thread.take() {
            // Wake the accept loop so it sees the flag.
            let _ = TcpStream::connect(server::wake_address(self.addr)).and_then(|mut s| s.flush());
            let _ = t.join();
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The starting scene: the scenario file, or the built-in demo (`influence demo`).
fn initial_scene(path: Option<&Path>) -> Result<Scene, SandboxError> {
    let fail = |p: &Path, message: String| SandboxError::Scenario { path: p.to_owned(), message };
    let Some(path) = path else {
        let demo = influence_scenario::demo::SCENARIO;
        return export::import(demo, &export::bundled_only)
            .map_err(|e| fail(Path::new(influence_scenario::demo::NAME), e.to_string()));
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(path, e.to_string()))?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    // Like `influence render`: a map file beside the scenario; failing that, a bundled one.
    let map_file = move |name: &str| -> Result<(String, String), String> {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(text) => {
                let label = Path::new(name).file_name().map_or(name.into(), |n| n.to_string_lossy().into());
                Ok((text, label))
            }
            Err(e) => export::bundled_only(name)
                .map_err(|_| format!("cannot read {}: {e}", dir.join(name).display())),
        }
    };
    export::import(&text, &map_file).map_err(|e| fail(path, e.to_string()))
}

/// Starts the server on its own thread and returns at once.
///
/// # Errors
/// [`SandboxError`] if the scenario is bad or the address cannot be bound.
pub fn start(config: ServeConfig) -> Result<Handle, SandboxError> {
    let ServeConfig { host, port, scenario } = config;
    let scene = initial_scene(scenario.as_deref())?;
    let wanted = SocketAddr::new(host, port);
    let listener = TcpListener::bind(wanted).map_err(|source| SandboxError::Bind { addr: wanted, source })?;
    let addr = listener.local_addr().map_err(|source| SandboxError::Bind { addr: wanted, source })?;
    let shared = Arc::new(Shared::new(scene, addr));
    let worker = Arc::clone(&shared);
    let thread = std::thread::Builder::new()
        .name("sandbox-accept".into())
        .spawn(move || server::accept_loop(&listener, &worker))
        .map_err(SandboxError::Thread)?;
    Ok(Handle { addr, shared, thread: Some(thread) })
}

/// Starts the server, prints its address, and serves until the process ends.
///
/// # Errors
/// [`SandboxError`] if the scenario is bad or the address cannot be bound.
pub fn serve(config: ServeConfig) -> Result<(), SandboxError> {
    let handle = start(config)?;
    println!("influence sandbox: {} (Ctrl-C to stop)", handle.url());
    if !handle.addr().ip().is_loopback() {
        println!("note: listening on {}, reachable from other machines", handle.addr().ip());
    }
    handle.wait();
    Ok(())
}
