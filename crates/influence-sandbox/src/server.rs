//! The server: accepting connections (at most [`MAX_CONNECTIONS`] at once, each on its own
//! thread, with time limits), routing requests to the static page and the JSON API, and the
//! rules that keep one client from disturbing another.
//!
//! * Every request is read within [`MAX_HEAD`](crate::http::MAX_HEAD) bytes of head and
//!   [`MAX_BODY`] bytes of body, and within [`REQUEST_TIME`]; an idle keep-alive connection
//!   closes after [`KEEP_ALIVE`].
//! * The scene sits behind one mutex. Handlers validate before they change anything, so a
//!   refused request leaves the scene as it was; should a handler panic all the same, the
//!   panic is caught, the client gets a 500, and the next request recomputes the scene.
//! * Requests that change the scene need `Content-Type: application/json` (or
//!   `application/toml` for an import), and on a loopback address the `Host` header must name
//!   a loopback host: a web page on another origin can then neither post to the sandbox
//!   without a CORS preflight (which it does not answer) nor reach it by DNS rebinding.

use std::io::{self, BufReader, Read};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use influence_scenario::error::Problem;
use influence_scenario::source::SourceSpec;

use crate::api::{
    self, ApiError, BundledView, FrameRequest, MapRequest, PathsRequest, PerspectiveRequest, StepRequest,
    WallEdit,
};
use crate::error::SceneError;
use crate::frame;
use crate::http::{read_request, write_response, ReadError, Request, Response};
use crate::scene::Scene;

/// The largest request body: room for a 1024 × 1024 map as text.
pub const MAX_BODY: usize = 2 << 20;
/// Connections served at once; more are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 32;
/// Time to read one request, head and body.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);
/// An idle keep-alive connection is closed after this.
pub const KEEP_ALIVE: Duration = Duration::from_secs(30);
/// How often an idle connection checks whether the server is stopping.
const POLL: Duration = Duration::from_millis(200);

const INDEX: &str = include_str!("../assets/index.html");
const APP: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/style.css");

/// What every connection thread shares.
pub struct Shared {
    scene: Mutex<Scene>,
    stop: AtomicBool,
    connections: AtomicUsize,
    /// Host header values accepted (lowercase), or empty to accept any.
    hosts: Vec<String>,
}

impl Shared {
    /// Shared state for a server on `addr` serving `scene`.
    pub fn new(scene: Scene, addr: SocketAddr) -> Self {
        let hosts = if addr.ip().is_loopback() {
            let port = addr.port();
            ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .flat_map(|h| [(*h).to_owned(), format!("{h}:{port}")])
                .collect()
        } else {
            Vec::new()
        };
        Self {
            scene: Mutex::new(scene),
            stop: AtomicBool::new(false),
            connections: AtomicUsize::new(0),
            hosts,
        }
    }

    /// Asks the accept loop and idle connections to finish.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The scene, recovered (and recomputed) if a panicking handler poisoned the lock.
    fn scene(&self) -> MutexGuard<'_, Scene> {
        self.scene.lock().unwrap_or_else(|poisoned| {
            let mut scene = poisoned.into_inner();
            scene.recover();
            self.scene.clear_poison();
            scene
        })
    }
}

/// Accepts connections until [`Shared::stop`]; each is served on its own thread.
pub fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stopping() {
            break;
        }
        let Ok(stream) = stream else {
            thread::sleep(Duration::from_millis(10)); // e.g. out of file descriptors: do not spin
            continue;
        };
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(POLL));
            let _ = write_response(&mut &stream, &Response::error(503, "too many connections"), true);
            continue;
        }
        let worker = Arc::clone(shared);
        let spawned = thread::Builder::new().name("sandbox-conn".into()).spawn(move || {
            let _count = Counted(&worker.connections);
            let _ = serve_connection(stream, &worker);
        });
        if spawned.is_err() {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Decrements the connection count when the connection's thread ends, however it ends.
struct Counted<'a>(&'a AtomicUsize);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A stream whose reads fail once a deadline has passed.
struct Deadline {
    stream: TcpStream,
    until: Instant,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

fn serve_connection(stream: TcpStream, shared: &Shared) -> io::Result<()> {
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(REQUEST_TIME))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(Deadline { stream, until: Instant::now() });
    loop {
        // Wait for the next request, noticing a stop.
        let idle_since = Instant::now();
        loop {
            reader.get_mut().until = Instant::now() + POLL;
            match io::BufRead::fill_buf(&mut reader) {
                Ok([]) => return Ok(()),
                Ok(_) => break,
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    if shared.stopping() || idle_since.elapsed() >= KEEP_ALIVE {
                        return Ok(());
                    }
                }
                Err(e) => return Err(e),
            }
        }
        reader.get_mut().until = Instant::now() + REQUEST_TIME;
        match read_request(&mut reader, &mut writer, MAX_BODY) {
            Ok(request) => {
                let response = handle(shared, &request);
                let close = request.close || shared.stopping();
                write_response(&mut writer, &response, close)?;
                if close {
                    return Ok(());
                }
            }
            Err(ReadError::Refuse(response)) => {
                write_response(&mut writer, &response, true)?;
                return linger(reader, &writer);
            }
            Err(ReadError::Closed) => return Ok(()),
            Err(ReadError::Io(e)) => return Err(e),
        }
    }
}

/// After refusing a request whose rest is still arriving: stop writing, then read and drop
/// what the client still sends (at most 1 MiB, for at most a second), so that closing does
/// not reset the connection before the client has read the refusal.
fn linger(mut reader: BufReader<Deadline>, writer: &TcpStream) -> io::Result<()> {
    writer.shutdown(std::net::Shutdown::Write)?;
    reader.get_mut().until = Instant::now() + Duration::from_secs(1);
    let _ = io::copy(&mut reader.take(1 << 20), &mut io::sink());
    Ok(())
}

/// Answers one request, catching a panic as a 500.
pub fn handle(shared: &Shared, request: &Request) -> Response {
    if !shared.hosts.is_empty() && !request.host.is_empty() && !shared.hosts.contains(&request.host) {
        return Response::error(403, "the Host header must name this machine (localhost or 127.0.0.1)");
    }
    match catch_unwind(AssertUnwindSafe(|| route(shared, request))) {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => Response::error(e.status, &e.message),
        Err(_) => Response::error(500, "internal error; the scene is recomputed"),
    }
}

fn json(value: &impl serde::Serialize) -> Result<Response, ApiError> {
    serde_json::to_vec(value)
        .map(|body| Response::new(200, "application/json", body))
        .map_err(|e| ApiError { status: 500, message: e.to_string() })
}

/// The scene after an edit.
fn scene_json(scene: &mut Scene) -> Result<Response, ApiError> {
    json(&scene.view())
}

/// The body, or `{}` when there is none (so `{"steps": 1}`-style defaults apply).
fn body(request: &Request) -> &[u8] {
    if request.body.is_empty() {
        b"{}"
    } else {
        &request.body
    }
}

fn route(shared: &Shared, request: &Request) -> Result<Response, ApiError> {
    let method = request.method.as_str();
    let Some(api) = request.path.strip_prefix("/api/") else {
        let (text, kind) = match request.path.as_str() {
            "/" | "/index.html" => (INDEX, "text/html; charset=utf-8"),
            "/app.js" => (APP, "text/javascript; charset=utf-8"),
            "/style.css" => (STYLE, "text/css; charset=utf-8"),
            _ => return Err(ApiError::not_found(format!("no page {}", request.path))),
        };
        return match method {
            "GET" => Ok(Response::new(200, kind, text)),
            _ => Err(ApiError { status: 405, message: "pages take GET".into() }),
        };
    };
    if matches!(method, "POST" | "PUT") {
        let wanted = if api == "import" { "application/toml" } else { "application/json" };
        if request.content_type != wanted {
            return Err(ApiError {
                status: 415,
                message: format!("send the body with Content-Type: {wanted}"),
            });
        }
    }
    let id = |s: &str| s.parse::<u32>().map_err(|_| ApiError::not_found(format!("no source {s:?}")));
    match (method, api) {
        ("GET", "colormap") => json(&frame::colormap()),
        ("GET", "maps") => json(
            &crate::maps::BUNDLED
                .iter()
                .map(|b| BundledView { name: b.name, title: b.title })
                .collect::<Vec<_>>(),
        ),
        ("GET", "scene") => scene_json(&mut shared.scene()),
        ("GET", "export") => {
            let text = crate::export::export(&shared.scene())?;
            Ok(Response::new(200, "application/toml; charset=utf-8", text))
        }
        ("POST", "import") => {
            let text = std::str::from_utf8(&request.body)
                .map_err(|_| ApiError::bad_request("the scenario is not UTF-8"))?;
            let imported = crate::export::import(text, &crate::export::bundled_only)?;
            let mut scene = shared.scene();
            scene.replace_with(imported);
            scene_json(&mut scene)
        }
        ("POST", "map") => {
            let request: MapRequest = api::parse(&request.body)?;
            let mut scene = shared.scene();
            scene.load_map(&request)?;
            scene_json(&mut scene)
        }
        ("POST", "walls") => {
            let edit: WallEdit = api::parse(&request.body)?;
            let mut scene = shared.scene();
            scene.edit_walls(&edit)?;
            scene_json(&mut scene)
        }
        ("POST", "sources") => {
            let spec: SourceSpec = api::parse(&request.body)?;
            let mut scene = shared.scene();
            let id = scene.add_source(spec)?;
            json(&serde_json::json!({ "id": id, "scene": scene.view() }))
        }
        ("PUT", s) if s.starts_with("sources/") => {
            let id = id(&s["sources/".len()..])?;
            let spec: SourceSpec = api::parse(&request.body)?;
            let mut scene = shared.scene();
            scene.replace_source(id, spec)?;
            scene_json(&mut scene)
        }
        ("DELETE", s) if s.starts_with("sources/") => {
            let id = id(&s["sources/".len()..])?;
            let mut scene = shared.scene();
            scene.delete_source(id)?;
            scene_json(&mut scene)
        }
        ("PUT", "perspective") => {
            let p: PerspectiveRequest = api::parse(&request.body)?;
            let mut scene = shared.scene();
            scene.set_perspective(p.team)?;
            scene_json(&mut scene)
        }
        ("PUT", "paths") => {
            let request: PathsRequest = api::parse(&request.body)?;
            let mut scene = shared.scene();
            scene.refresh();
            scene.set_paths(request.paths)?;
            scene_json(&mut scene)
        }
        ("PUT", "propagation") => {
            let spec = api::parse_propagation(&request.body)?;
            let mut scene = shared.scene();
            scene.set_propagation(spec)?;
            scene_json(&mut scene)
        }
        ("POST", "step") => {
            let step: StepRequest = api::parse(body(request))?;
            let mut scene = shared.scene();
            scene.advance(check_advance(step.steps)?);
            scene_json(&mut scene)
        }
        ("POST", "reset") => {
            let mut scene = shared.scene();
            scene.reset();
            scene_json(&mut scene)
        }
        ("POST", "frame") => {
            let f: FrameRequest = api::parse(&request.body)?;
            let mut scene = shared.scene();
            scene.advance(check_advance(f.advance)?);
            layer_frame(&mut scene, &f.layer)
        }
        ("GET", s) if s.starts_with("layer/") => layer_frame(&mut shared.scene(), &s["layer/".len()..]),
        ("GET", "cell") => {
            let coord = |k: &str| {
                request
                    .query_param(k)
                    .and_then(|v| v.parse::<usize>().ok())
                    .ok_or_else(|| ApiError::bad_request(format!("query parameter {k} must be a cell index")))
            };
            let (x, y) = (coord("x")?, coord("y")?);
            json(&shared.scene().cell(x, y)?)
        }
        (
            _,
            "colormap" | "maps" | "scene" | "export" | "import" | "map" | "walls" | "sources" | "perspective"
            | "propagation" | "paths" | "step" | "reset" | "frame" | "cell",
        ) => Err(ApiError { status: 405, message: format!("{method} is not allowed on /api/{api}") }),
        _ => Err(ApiError::not_found(format!("no endpoint /api/{api}"))),
    }
}

fn check_advance(n: u64) -> Result<u64, ApiError> {
    if n <= api::MAX_ADVANCE {
        Ok(n)
    } else {
        Err(ApiError::invalid(format!("at most {} steps per request, got {n}", api::MAX_ADVANCE)))
    }
}

fn layer_frame(scene: &mut Scene, name: &str) -> Result<Response, ApiError> {
    Ok(Response::new(200, "application/octet-stream", scene.frame(name)?))
}

/// The status for what the scene refused: the one place kinds of fault become HTTP statuses.
impl From<SceneError> for ApiError {
    fn from(e: SceneError) -> Self {
        let status = match &e {
            SceneError::NotFound(_) => 404,
            SceneError::Scenario {
                problem: Problem::Syntax | Problem::UnknownKey | Problem::Type, ..
            } => 400,
            SceneError::Scenario { .. } | SceneError::Limit(_) => 422,
            SceneError::Internal(_) => 500,
        };
        Self { status, message: e.to_string() }
    }
}

/// The address to wake the accept loop through: loopback for an unspecified bind address.
pub fn wake_address(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(v) if v.is_unspecified() => IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
        IpAddr::V6(v) if v.is_unspecified() => IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}
