//! Connections: accepted on a tokio listener (at most [`Limits::max_connections`] at once;
//! more are answered 503 and closed), each served by hyper's HTTP/1.1 on a task of its own,
//! with the time limits of [`Limits`], and stopped gracefully.
//!
//! A connection is *idle* from its start and after each response, *reading a head* from the
//! first byte of a request until hyper hands the request over, and *busy* while the request
//! is answered. An idle connection is closed after [`Limits::idle_timeout`], and one whose
//! head does not arrive in full within [`Limits::header_read_timeout`] of its first byte
//! (a slowloris client) too; a busy one is never cut short (edits wait for the scene, and
//! the body's own deadline is `RequestBodyDeadlineLayer`'s). hyper's `header_read_timeout`,
//! which counts from the end of the last response, stays on as a backstop at their sum.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::http::header::CONNECTION;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

use crate::Limits;

/// The request line and headers together may not exceed this many bytes (431 otherwise).
pub const MAX_HEAD: usize = 16 * 1024;
/// At most this many header lines (431 otherwise).
pub const MAX_HEADERS: usize = 64;

/// Accepts connections until `stop` turns `true`, then lets those open finish their request
/// and the live connections (holding `watchers`' permits) close, within [`Limits::grace`].
pub async fn run(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
    watchers: Arc<Semaphore>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = crate::stopped(&mut stop) => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, say: do not spin.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                continue;
            }
        };
        match Arc::clone(&open).try_acquire_owned() {
            Ok(permit) => {
                tokio::spawn(serve(stream, router.clone(), limits.clone(), stop.clone(), permit));
            }
            Err(_) => {
                tokio::spawn(refuse(stream));
            }
        }
    }
    drop(listener);
    // Every connection holds a permit until it ends: wait for all of them, within the grace.
    let all = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let ended = async {
        let _ = open.acquire_many(all(limits.max_connections)).await;
        let _ = watchers.acquire_many(all(limits.max_watchers)).await;
    };
    let _ = tokio::time::timeout(limits.grace, ended).await;
}

/// Answers a connection over the limit with 503 and closes it: after its request's head
/// (so that the client, which may not write and read at once, reads the answer), within a
/// second and [`MAX_HEAD`] bytes; then whatever else it sends, for a second at most, so
/// that closing does not reset the connection before the answer is read.
async fn refuse(mut stream: TcpStream) {
    let second = std::time::Duration::from_secs(1);
    let mut head = Vec::new();
    let read_head = async {
        let mut buf = [0u8; 4096];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
    };
    let _ = tokio::time::timeout(second, read_head).await;
    let body = r#"{"error": "too many connections; try again later"}"#;
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let answer = async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await?;
        let mut rest = (&mut stream).take(1 << 16);
        tokio::io::copy(&mut rest, &mut tokio::io::sink()).await
    };
    let _ = tokio::time::timeout(second, answer).await;
}

/// Serves one connection until it closes, overstays, or the server stops.
async fn serve(
    stream: TcpStream,
    router: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
    _permit: OwnedSemaphorePermit,
) {
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched { io: Some(stream), activity: Arc::clone(&activity) });
    let answering = Arc::clone(&activity);
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        answering.set(BUSY);
        let (router, activity) = (router.clone(), Arc::clone(&answering));
        async move {
            let response = router.oneshot(request).await;
            if response.as_ref().is_ok_and(|r| r.headers().get(CONNECTION).is_some_and(|v| v == "close")) {
                activity.linger.store(true, Ordering::SeqCst);
            }
            activity.set(IDLE);
            response
        }
    });
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout + limits.header_read_timeout)
        .max_headers(MAX_HEADERS)
        .max_header_size(MAX_HEAD)
        .keep_alive(true)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => return,
        () = overstay(&activity, &limits) => return, // dropping the connection closes it
        () = crate::stopped(&mut stop) => connection.as_mut().graceful_shutdown(),
    }
    // Stopping: the request under way finishes (within the grace), an idle connection closes.
    let _ = tokio::time::timeout(limits.grace, connection).await;
}

const IDLE: u8 = 0;
const HEAD: u8 = 1;
const BUSY: u8 = 2;

/// Where a connection is (idle, reading a head, busy) and since when.
struct Activity {
    epoch: Instant,
    phase: AtomicU8,
    /// Milliseconds from `epoch`.
    since: AtomicU64,
    changed: Notify,
    /// A response closed the connection, perhaps with some of the request unread.
    linger: AtomicBool,
}

impl Activity {
    fn new() -> Self {
        Self {
            epoch: Instant::now(),
            phase: AtomicU8::new(IDLE),
            since: AtomicU64::new(0),
            changed: Notify::new(),
            linger: AtomicBool::new(false),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn set(&self, phase: u8) {
        self.since.store(self.now(), Ordering::SeqCst);
        self.phase.store(phase, Ordering::SeqCst);
        self.changed.notify_one();
    }

    /// Bytes arrived: an idle connection starts reading a head.
    fn read(&self) {
        if self.phase.load(Ordering::SeqCst) == IDLE {
            self.set(HEAD);
        }
    }
}

/// Returns when the connection has been idle or reading a head for too long.
async fn overstay(activity: &Activity, limits: &Limits) {
    loop {
        let changed = activity.changed.notified();
        let limit = match activity.phase.load(Ordering::SeqCst) {
            IDLE => limits.idle_timeout,
            HEAD => limits.header_read_timeout,
            _ => {
                changed.await;
                continue;
            }
        };
        let since = std::time::Duration::from_millis(activity.since.load(Ordering::SeqCst));
        let deadline = activity.epoch + since + limit;
        if Instant::now() >= deadline {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep_until(deadline.into()) => {}
            () = changed => {}
        }
    }
}

/// A stream that tells its [`Activity`] when bytes arrive; closed after a refusal, it
/// lingers (see [`linger`]).
struct Watched {
    /// Always there until dropped.
    io: Option<TcpStream>,
    activity: Arc<Activity>,
}

impl Watched {
    fn io(&mut self) -> Pin<&mut TcpStream> {
        Pin::new(self.io.as_mut().expect("the stream is there until dropped"))
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        if let (Some(stream), true) = (self.io.take(), self.activity.linger.load(Ordering::SeqCst)) {
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(linger(stream));
            }
        }
    }
}

/// After a response that closes the connection with the request perhaps still arriving (a
/// body over the limit, say): stop writing, then read and drop what the client still sends
/// (for a second, 4 MiB at most), so that closing does not reset the connection before the
/// client, still busy sending, has read the answer.
async fn linger(mut stream: TcpStream) {
    let drain = async {
        stream.shutdown().await?;
        let mut rest = (&mut stream).take(4 << 20);
        tokio::io::copy(&mut rest, &mut tokio::io::sink()).await
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), drain).await;
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = self.io().poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.io().poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.io().poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.as_ref().is_some_and(TcpStream::is_write_vectored)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io().poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.io().poll_shutdown(cx)
    }
}
