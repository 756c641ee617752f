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
//! under `/api/` (`docs/sandbox-api.md`), which scripts and games can drive as well, and
//! follows other clients' edits over a WebSocket (`/api/live`).
//!
//! The server is axum on tokio (`routes.rs`, `server.rs`): many clients at once, each
//! connection bounded in time and size. The scene is computed on a thread of its own
//! (`worker.rs`); reads answer at once from the last completed state (`snapshot.rs`), and a
//! newer edit interrupts the computation of an older one.
//!
//! ```no_run
//! use influence_sandbox::{serve, ServeConfig};
//! // Blocks until Ctrl-C, printing "influence sandbox: http://127.0.0.1:8080/".
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
mod maps;
mod routes;
mod scene;
mod server;
mod snapshot;
mod worker;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::{watch, Semaphore};

pub use server::{MAX_HEAD, MAX_HEADERS};

use scene::Scene;
use worker::Worker;

/// Connections served at once by default; more are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 512;
/// The largest request body by default: room for a 1024 × 1024 map as text.
pub const MAX_BODY: usize = 2 << 20;

/// What a client may cost the server: connections, time and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Connections served at once; more are answered 503 and closed (default
    /// [`MAX_CONNECTIONS`]).
    pub max_connections: usize,
    /// Live-update WebSockets (`/api/live`) open at once; more are answered 503 (default 128).
    pub max_watchers: usize,
    /// A request's head (request line and headers) must arrive in full within this time of
    /// its first byte, or the connection is closed: slow clients cannot hold connections
    /// (default 5 s).
    pub header_read_timeout: Duration,
    /// A connection waiting for a request (new, or kept alive after a response) is closed
    /// after this (default 10 s).
    pub idle_timeout: Duration,
    /// A request's body must arrive in full within this time (default 10 s; 408 otherwise).
    pub body_timeout: Duration,
    /// The largest request body (default [`MAX_BODY`]; 413 above).
    pub max_body: usize,
    /// When the server stops, the time the requests under way get to finish (default 5 s).
    pub grace: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_connections: MAX_CONNECTIONS,
            max_watchers: 128,
            header_read_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_body: MAX_BODY,
            grace: Duration::from_secs(5),
        }
    }
}

/// How to serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeConfig {
    /// The address to listen on: loopback unless told otherwise (default `127.0.0.1`).
    pub host: IpAddr,
    /// The port; 0 picks a free one (the default, which tests want; the CLI passes its own).
    pub port: u16,
    /// A scenario file to start from (its `map.file` resolves against its folder, like
    /// `influence render`); `None` starts on the built-in demo scenario.
    pub scenario: Option<PathBuf>,
    /// Connection, time and size limits.
    pub limits: Limits,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self { host: IpAddr::V4(Ipv4Addr::LOCALHOST), port: 0, scenario: None, limits: Limits::default() }
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
    /// The server's threads or runtime could not be started.
    #[error("cannot start the server: {0}")]
    Thread(std::io::Error),
}

/// A running server: its address, and the way to stop it.
#[derive(Debug)]
pub struct Handle {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    server: Option<JoinHandle<()>>,
    worker: Worker,
    scene: Option<JoinHandle<()>>,
}

impl Handle {
    /// The address the server listens on (with the port chosen, when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, e.g. `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        format!("http://{}/", local_address(self.addr))
    }

    /// Stops gracefully: no new connections; the requests under way finish (within
    /// [`Limits::grace`]), idle connections and live updates close; then the scene's worker
    /// stops. Returns once all is stopped.
    pub fn stop(mut self) {
        self.shutdown();
    }

    /// Blocks until the server stops (it does not by itself).
    pub fn wait(mut self) {
        if let Some(t) = self.server.take() {
            let _ = t.join();
        }
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.stop.send(true);
        if let Some(t) = self.server.take() {
            let _ = t.join();
        }
        self.worker.stop();
        if let Some(t) = self.scene.take() {
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

/// Starts the server on threads of its own and returns once it listens, with the starting
/// scene computed.
///
/// # Errors
/// [`SandboxError`] if the scenario is bad or the address cannot be bound.
pub fn start(config: ServeConfig) -> Result<Handle, SandboxError> {
    let ServeConfig { host, port, scenario, limits } = config;
    let scene = initial_scene(scenario.as_deref())?;
    let wanted = SocketAddr::new(host, port);
    let bind = |source| SandboxError::Bind { addr: wanted, source };
    let listener = std::net::TcpListener::bind(wanted).map_err(bind)?;
    listener.set_nonblocking(true).map_err(bind)?;
    let addr = listener.local_addr().map_err(bind)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("sandbox-http")
        .max_blocking_threads(8)
        .build()
        .map_err(SandboxError::Thread)?;
    let listener = {
        let _entered = runtime.enter();
        tokio::net::TcpListener::from_std(listener).map_err(bind)?
    };
    let (worker, scene) = Worker::spawn(scene).map_err(SandboxError::Thread)?;
    let (stop, stopping) = watch::channel(false);
    let app = routes::App {
        worker: worker.clone(),
        hosts: routes::loopback_hosts(addr),
        watchers: Arc::new(Semaphore::new(limits.max_watchers)),
        stopping: stopping.clone(),
        max_body: limits.max_body,
    };
    let watchers = Arc::clone(&app.watchers);
    let router = routes::router(app, &limits);
    let server = std::thread::Builder::new()
        .name("sandbox-server".into())
        .spawn(move || {
            runtime.block_on(server::run(listener, router, limits, stopping, watchers));
            runtime.shutdown_timeout(Duration::from_secs(1));
        })
        .map_err(SandboxError::Thread)?;
    Ok(Handle { addr, stop, server: Some(server), worker, scene: Some(scene) })
}

/// Starts the server, prints its address, and serves until Ctrl-C, then stops gracefully
/// ([`Handle::stop`]). Logs go to standard error, as `RUST_LOG` asks (default: warnings;
/// `RUST_LOG=tower_http=debug` traces every request).
///
/// # Errors
/// [`SandboxError`] if the scenario is bad or the address cannot be bound.
pub fn serve(config: ServeConfig) -> Result<(), SandboxError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    let handle = start(config)?;
    if let Some(warning) = exposure_warning(handle.addr()) {
        eprintln!("{warning}");
    }
    // Ctrl-C is caught from before the address is printed: whoever reads it may stop us.
    let signals =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(SandboxError::Thread)?;
    let mut ctrl_c = Box::pin(tokio::signal::ctrl_c());
    signals.block_on(async { futures_util::FutureExt::now_or_never(&mut ctrl_c) });
    println!("influence sandbox: {} (Ctrl-C to stop)", handle.url());
    let _ = signals.block_on(ctrl_c);
    eprintln!("influence sandbox: stopping (the requests under way finish)");
    handle.stop();
    Ok(())
}

/// The warning for a server reachable from other machines (not on a loopback address).
fn exposure_warning(addr: SocketAddr) -> Option<String> {
    (!addr.ip().is_loopback()).then(|| {
        format!(
            "warning: listening on {}: the sandbox is reachable from other machines, and anyone who reaches it \
             can edit the scene (it has no authentication); serve on 127.0.0.1 unless you mean to share it",
            addr.ip()
        )
    })
}

/// Returns once `stop` turns `true` (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// The address a client on this machine reaches `addr` at: loopback for an unspecified one.
fn local_address(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(v) if v.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v) if v.is_unspecified() => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_other_interfaces_are_warned_about() {
        let at = |ip: &str| SocketAddr::new(ip.parse().unwrap(), 8080);
        assert_eq!(exposure_warning(at("127.0.0.1")), None);
        assert_eq!(exposure_warning(at("::1")), None);
        let warning = exposure_warning(at("0.0.0.0")).unwrap();
        assert!(warning.starts_with("warning: listening on 0.0.0.0") && warning.contains("other machines"));
        assert!(exposure_warning(at("192.168.1.5")).is_some());
        assert_eq!(local_address(at("0.0.0.0")), at("127.0.0.1"));
    }
}
