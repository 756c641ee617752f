//! The routes: the page's embedded assets, the JSON API (`docs/sandbox-api.md`) and the live
//! updates, as an axum [`Router`] with the tower-http layers that bound what a request may
//! cost, and the rules that keep one client from disturbing another:
//!
//! * Reads answer from the last completed [`Snapshot`](crate::snapshot::Snapshot) at once;
//!   edits go to the scene's worker (`worker.rs`) and wait, without holding a thread, for the
//!   first snapshot that includes them.
//! * Bodies need `Content-Type: application/json` (`application/toml` for an import), are
//!   at most [`Limits::max_body`](crate::Limits) bytes and must arrive within
//!   [`Limits::body_timeout`](crate::Limits). Every refusal is `{"error": message}`.
//! * On a loopback address the `Host` header must name a loopback host, and a request that
//!   comes with an `Origin` must come from the page's own: a web page elsewhere can neither
//!   reach the sandbox by DNS rebinding nor drive it (no CORS headers are sent, and the
//!   WebSocket checks the origin too).

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, RawQuery, Request, State};
use axum::http::header::{
    ALLOW, CACHE_CONTROL, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST, ORIGIN, REFERRER_POLICY,
    TRANSFER_ENCODING, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::Router;
use serde::de::DeserializeOwned;
use tokio::sync::{watch, Semaphore};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate};
use tower_http::compression::{CompressionLayer, DefaultPredicate};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::{RequestBodyDeadlineLayer, TimeoutLayer};
use tower_http::trace::TraceLayer;

use crate::api::{self, ApiError, BundledView, FrameRequest, MapRequest, PathsRequest, PerspectiveRequest};
use crate::api::{ResetRequest, StepRequest, WallEdit, MAX_ADVANCE};
use crate::scene::Edit;
use crate::snapshot::{Shown, Snapshot};
use crate::worker::Worker;
use crate::Limits;
use influence_scenario::source::SourceSpec;

const INDEX: &str = include_str!("../assets/index.html");
const APP: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/style.css");

/// How often a live connection is pinged; one that has not answered the last ping is closed.
const PING: Duration = Duration::from_secs(20);
/// Reads answer at once; this only bounds what a bug could make them cost.
const READ_TIME: Duration = Duration::from_secs(30);
/// Frames of maps larger than this are encoded on the blocking pool.
const INLINE_CELLS: usize = 1 << 16;

/// What every request shares.
#[derive(Debug, Clone)]
pub struct App {
    /// The scene's worker.
    pub worker: Worker,
    /// `Host` header values accepted (lowercase), or empty to accept any.
    pub hosts: Arc<[String]>,
    /// Live connections left.
    pub watchers: Arc<Semaphore>,
    /// Becomes `true` when the server stops.
    pub stopping: watch::Receiver<bool>,
    /// The largest body, in bytes.
    pub max_body: usize,
}

/// `n` bytes, as people say it.
fn size(n: usize) -> String {
    if n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::json!({ "error": self.message }).to_string();
        (status, [(CONTENT_TYPE, "application/json")], body).into_response()
    }
}

/// The router, with its layers.
pub fn router(app: App, limits: &Limits) -> Router {
    let reads = Router::new()
        .route("/", get(|| async { page(INDEX, "text/html; charset=utf-8") }))
        .route("/index.html", get(|| async { page(INDEX, "text/html; charset=utf-8") }))
        .route("/app.js", get(|| async { page(APP, "text/javascript; charset=utf-8") }))
        .route("/style.css", get(|| async { page(STYLE, "text/css; charset=utf-8") }))
        .route("/api/scene", get(scene))
        .route("/api/maps", get(maps))
        .route("/api/colormap", get(colormap))
        .route("/api/export", get(export))
        .route("/api/layer/{name}", get(layer))
        .route("/api/cell", get(cell))
        .layer(TimeoutLayer::with_status_code(StatusCode::SERVICE_UNAVAILABLE, READ_TIME));
    let edits = Router::new()
        .route("/api/import", post(import))
        .route("/api/map", post(map))
        .route("/api/walls", post(walls))
        .route("/api/sources", post(add_source))
        .route("/api/sources/{id}", put(replace_source).delete(delete_source))
        .route("/api/perspective", put(perspective))
        .route("/api/propagation", put(propagation))
        .route("/api/paths", put(paths))
        .route("/api/step", post(step))
        .route("/api/reset", post(reset))
        .route("/api/frame", post(frame))
        .route("/api/live", get(live));
    let compress = DefaultPredicate::new().and(NotForContentType::const_new("application/octet-stream"));
    let routes = reads
        .merge(edits)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limits.max_body))
        .layer(RequestBodyDeadlineLayer::new(limits.body_timeout))
        .layer(RequestBodyLimitLayer::new(limits.max_body))
        .with_state(app.clone());
    // Around the whole router, so that what it adds (a 405's `Allow`) is seen.
    Router::new()
        .fallback_service(routes)
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(CatchPanicLayer::new())
        .layer(middleware::from_fn_with_state(app.clone(), shape_errors))
        .layer(SetResponseHeaderLayer::if_not_present(CACHE_CONTROL, HeaderValue::from_static("no-store")))
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
        .layer(SetResponseHeaderLayer::overriding(REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .layer(CompressionLayer::new().gzip(true).compress_when(compress))
        .layer(TraceLayer::new_for_http())
        .with_state(app)
}

// ------------------------------------------------------------------------- the guard

/// The lowercase `Host` values a server on a loopback `addr` accepts (any, elsewhere).
pub fn loopback_hosts(addr: std::net::SocketAddr) -> Arc<[String]> {
    if !addr.ip().is_loopback() {
        return Arc::from(Vec::new());
    }
    let port = addr.port();
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .flat_map(|h| [(*h).to_owned(), format!("{h}:{port}")])
        .collect()
}

/// Refuses (403) a `Host` that does not name this machine on a loopback server, and an
/// `Origin` other than the page's own (`http://` and the `Host`).
async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    if let Err(refusal) = check_origin(&app, request.headers()) {
        return refusal.into_response();
    }
    next.run(request).await
}

fn check_origin(app: &App, headers: &axum::http::HeaderMap) -> Result<(), ApiError> {
    // A header that is not visible ASCII matches nothing.
    let header = |name| headers.get(name).map(|v: &HeaderValue| v.to_str().unwrap_or("\u{0}"));
    let host = header(HOST).unwrap_or_default().to_ascii_lowercase();
    if !app.hosts.is_empty() && !host.is_empty() && !app.hosts.contains(&host) {
        let message = "Host: the Host header must name this machine (localhost or 127.0.0.1)";
        return Err(ApiError::new(403, message));
    }
    match header(ORIGIN) {
        Some(origin) if !origin.eq_ignore_ascii_case(&format!("http://{host}")) => Err(ApiError::new(
            403,
            format!(
                "Origin: requests from {origin} are not accepted; only the sandbox's own page may send them"
            ),
        )),
        _ => Ok(()),
    }
}

/// Makes every refusal `{"error": message}`, also those the layers and the router give
/// (unknown route, wrong method, body too large, time out).
async fn shape_errors(State(app): State<App>, request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    let headers = request.headers();
    let with_body = headers.contains_key(TRANSFER_ENCODING)
        || headers.get(CONTENT_LENGTH).is_some_and(|v| v.as_bytes() != b"0");
    let mut response = next.run(request).await;
    let status = response.status();
    if with_body && (status.is_client_error() || status.is_server_error()) {
        // A refusal may leave the body unread, and then the connection cannot serve another
        // request: say so, so that the client does not send one on it.
        response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    }
    let json =
        response.headers().get(CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let allow = response.headers().get(ALLOW);
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed = allow.as_ref().and_then(|v| v.to_str().ok()).unwrap_or("another method");
            format!("{method} is not allowed on {path}; use {allowed}")
        }
        StatusCode::PAYLOAD_TOO_LARGE => format!("body: over the limit of {}", size(app.max_body)),
        StatusCode::REQUEST_TIMEOUT => "the body did not arrive in time".to_owned(),
        StatusCode::SERVICE_UNAVAILABLE => "the request took too long".to_owned(),
        StatusCode::INTERNAL_SERVER_ERROR => "internal error".to_owned(),
        _ => status.canonical_reason().unwrap_or("refused").to_owned(),
    };
    let mut shaped = ApiError::new(status.as_u16(), message).into_response();
    for name in [ALLOW, CONNECTION] {
        if let Some(value) = response.headers().get(&name) {
            shaped.headers_mut().insert(name, value.clone());
        }
    }
    shaped
}

async fn not_found(request: Request) -> ApiError {
    let path = request.uri().path();
    ApiError::not_found(match path.strip_prefix("/api/") {
        Some(_) => format!("no endpoint {path}"),
        None => format!("no page {path}"),
    })
}

// ------------------------------------------------------------------------- bodies

/// A JSON body of type `T` (`Content-Type: application/json`), refused with a message that
/// names the key at fault.
struct Json<T>(T);

impl<T: DeserializeOwned> FromRequest<App> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &App) -> Result<Self, ApiError> {
        let bytes = body(request, state, "application/json").await?;
        Ok(Self(api::parse(&bytes)?))
    }
}

/// A scenario (`Content-Type: application/toml`), as text.
struct Toml(String);

impl FromRequest<App> for Toml {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &App) -> Result<Self, ApiError> {
        let bytes = body(request, state, "application/toml").await?;
        String::from_utf8(bytes.to_vec())
            .map(Self)
            .map_err(|e| ApiError::bad_request(format!("body: the scenario is not UTF-8 ({e})")))
    }
}

/// The body, if it comes as `wanted` (415 otherwise), within the size and time limits. It
/// is read before its type is checked, so that the connection stays usable after a 415.
async fn body(request: Request, state: &App, wanted: &str) -> Result<Bytes, ApiError> {
    let kind = request.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    let kind = kind.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
        let status = rejection.status();
        let timed_out = std::iter::successors(std::error::Error::source(&rejection), |e| e.source())
            .any(<dyn std::error::Error>::is::<tower_http::timeout::TimeoutError>);
        if timed_out {
            ApiError::new(408, "body: it did not arrive in time")
        } else if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(413, format!("body: over the limit of {}", size(state.max_body)))
        } else {
            ApiError::bad_request(format!("body: could not be read ({rejection})"))
        }
    })?;
    if kind != wanted {
        let got = if kind.is_empty() { "none".to_owned() } else { kind };
        return Err(ApiError::new(415, format!("Content-Type: send the body as {wanted}, not {got}")));
    }
    Ok(bytes)
}

// ------------------------------------------------------------------------- answers

fn page(text: &'static str, kind: &'static str) -> Response {
    ([(CONTENT_TYPE, kind)], text).into_response()
}

fn json_bytes(body: Vec<u8>) -> Response {
    ([(CONTENT_TYPE, "application/json")], body).into_response()
}

/// Runs `f` on the blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|_| ApiError::new(500, "internal error"))
}

/// Sends `edit` to the worker and answers with the scene once it is computed.
async fn edited(app: &App, edit: Edit) -> Result<Response, ApiError> {
    let done = app.worker.edit(edit).await?;
    let computing = app.worker.shown().computing;
    Ok(json_bytes(done.snapshot.scene_json(computing, done.id)))
}

/// Layer `name` of `snapshot` as a frame (encoded off the async threads for large maps).
async fn frame_of(snapshot: Arc<Snapshot>, name: String) -> Result<Response, ApiError> {
    let bytes = if snapshot.cells() <= INLINE_CELLS {
        snapshot.frame(&name)?
    } else {
        blocking(move || snapshot.frame(&name)).await??
    };
    Ok(([(CONTENT_TYPE, "application/octet-stream")], bytes).into_response())
}

fn check_advance(n: u64) -> Result<u64, ApiError> {
    if n <= MAX_ADVANCE {
        Ok(n)
    } else {
        Err(ApiError::invalid(format!("steps: at most {MAX_ADVANCE} steps per request, got {n}")))
    }
}

// ------------------------------------------------------------------------- reads

async fn scene(State(app): State<App>) -> Response {
    json_bytes(app.worker.shown().scene_json())
}

async fn maps() -> Response {
    let list: Vec<BundledView> =
        crate::maps::BUNDLED.iter().map(|b| BundledView { name: b.name, title: b.title }).collect();
    json_bytes(serde_json::to_vec(&list).unwrap_or_default())
}

async fn colormap() -> Response {
    static TABLES: LazyLock<Bytes> =
        LazyLock::new(|| Bytes::from(serde_json::to_vec(&crate::frame::colormap()).unwrap_or_default()));
    ([(CONTENT_TYPE, "application/json")], TABLES.clone()).into_response()
}

async fn export(State(app): State<App>) -> Result<Response, ApiError> {
    let snapshot = app.worker.shown().snapshot;
    let text = blocking(move || snapshot.export()).await??;
    Ok(([(CONTENT_TYPE, "application/toml; charset=utf-8")], text).into_response())
}

async fn layer(State(app): State<App>, Path(name): Path<String>) -> Result<Response, ApiError> {
    frame_of(app.worker.shown().snapshot, name).await
}

async fn cell(State(app): State<App>, RawQuery(query): RawQuery) -> Result<Response, ApiError> {
    let query = query.unwrap_or_default();
    let coord = |key: &str| {
        let value =
            query.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == key).map(|(_, v)| v);
        value.and_then(|v| v.parse::<usize>().ok()).ok_or_else(|| {
            ApiError::bad_request(format!(
                "{key}: the query parameter {key} must be a cell index, got {value:?}"
            ))
        })
    };
    let (x, y) = (coord("x")?, coord("y")?);
    let view = app.worker.shown().snapshot.cell(x, y)?;
    Ok(json_bytes(serde_json::to_vec(&view).unwrap_or_default()))
}

// ------------------------------------------------------------------------- edits

async fn import(State(app): State<App>, Toml(text): Toml) -> Result<Response, ApiError> {
    // Read and checked off the worker, which meanwhile goes on computing.
    let scene = blocking(move || crate::export::import(&text, &crate::export::bundled_only)).await??;
    edited(&app, Edit::Import(Box::new(scene))).await
}

async fn map(State(app): State<App>, Json(request): Json<MapRequest>) -> Result<Response, ApiError> {
    edited(&app, Edit::Map(request)).await
}

async fn walls(State(app): State<App>, Json(edit): Json<WallEdit>) -> Result<Response, ApiError> {
    edited(&app, Edit::Walls(edit)).await
}

async fn add_source(State(app): State<App>, Json(spec): Json<SourceSpec>) -> Result<Response, ApiError> {
    edited(&app, Edit::AddSource(spec)).await
}

fn source_id(id: &str) -> Result<u32, ApiError> {
    id.parse().map_err(|_| ApiError::not_found(format!("no source {id:?}")))
}

async fn replace_source(
    State(app): State<App>,
    Path(id): Path<String>,
    Json(spec): Json<SourceSpec>,
) -> Result<Response, ApiError> {
    edited(&app, Edit::ReplaceSource(source_id(&id)?, spec)).await
}

async fn delete_source(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    edited(&app, Edit::DeleteSource(source_id(&id)?)).await
}

async fn perspective(
    State(app): State<App>,
    Json(p): Json<PerspectiveRequest>,
) -> Result<Response, ApiError> {
    edited(&app, Edit::Perspective(p.team)).await
}

async fn propagation(
    State(app): State<App>,
    Json(table): Json<serde_json::Map<String, serde_json::Value>>,
) -> Result<Response, ApiError> {
    edited(&app, Edit::Propagation(api::propagation(table)?)).await
}

async fn paths(State(app): State<App>, Json(request): Json<PathsRequest>) -> Result<Response, ApiError> {
    edited(&app, Edit::Paths(request.paths.into_iter().map(|p| p.0).collect())).await
}

async fn step(State(app): State<App>, Json(step): Json<StepRequest>) -> Result<Response, ApiError> {
    edited(&app, Edit::Advance(check_advance(step.steps)?)).await
}

async fn reset(
    State(app): State<App>,
    Json(ResetRequest {}): Json<ResetRequest>,
) -> Result<Response, ApiError> {
    edited(&app, Edit::Reset).await
}

/// `POST /api/frame`: advance (an edit), then the layer; without advancing, a read.
async fn frame(State(app): State<App>, Json(f): Json<FrameRequest>) -> Result<Response, ApiError> {
    let advance = check_advance(f.advance)?;
    let now = app.worker.shown().snapshot;
    now.check_layer(&f.layer)?; // before advancing: a refused request changes nothing
    let snapshot = if advance == 0 {
        now
    } else {
        // Not held while the worker steps, so that its layer buffers can be reused (`Spare`).
        drop(now);
        app.worker.edit(Edit::Advance(advance)).await?.snapshot
    };
    frame_of(snapshot, f.layer).await
}

// ------------------------------------------------------------------------- live updates

/// `GET /api/live`: a WebSocket that is sent `{"version", "steps", "computing"}` whenever
/// what `GET /api/scene` answers changes.
async fn live(State(app): State<App>, upgrade: WebSocketUpgrade) -> Result<Response, ApiError> {
    let permit = Arc::clone(&app.watchers)
        .try_acquire_owned()
        .map_err(|_| ApiError::new(503, "too many live connections; try again later"))?;
    Ok(upgrade.max_message_size(4096).max_frame_size(4096).on_upgrade(move |socket| async move {
        watch_scene(socket, app.worker.watch(), app.stopping).await;
        drop(permit);
    }))
}

async fn watch_scene(
    mut socket: WebSocket,
    mut shown: watch::Receiver<Shown>,
    mut stopping: watch::Receiver<bool>,
) {
    let mut sent = None;
    let mut ping = tokio::time::interval(PING);
    ping.tick().await;
    let mut unanswered = false;
    loop {
        let now = shown.borrow_and_update().live();
        if sent.as_ref() != Some(&now) {
            let text = serde_json::to_string(&now).unwrap_or_default();
            if socket.send(Message::Text(text.into())).await.is_err() {
                return;
            }
            sent = Some(now);
        }
        tokio::select! {
            changed = shown.changed() => if changed.is_err() { break },
            message = socket.recv() => match message {
                Some(Ok(Message::Pong(_))) => unanswered = false,
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {} // nothing is expected from the client
            },
            _ = ping.tick() => {
                if unanswered || socket.send(Message::Ping(Bytes::new())).await.is_err() {
                    return;
                }
                unanswered = true;
            }
            () = crate::stopped(&mut stopping) => break,
        }
    }
    let close = CloseFrame { code: 1001, reason: "the sandbox is stopping".into() };
    let _ = socket.send(Message::Close(Some(close))).await;
}
