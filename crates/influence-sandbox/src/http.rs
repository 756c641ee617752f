//! Just enough HTTP/1.1 for a local page and scripts: one request read with hard limits on
//! every part (head, header count, body), one response written, keep-alive between them.
//!
//! Written here rather than taken from a crate because the limits are the point: a client
//! can make the server hold at most [`MAX_HEAD`] bytes of head and the configured body cap,
//! however it misbehaves. Bodies need a `Content-Length` (browsers' `fetch` always sends one);
//! chunked bodies are refused.

use std::io::{self, BufRead, Read, Write};

/// The request line and headers together may not exceed this many bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// At most this many header lines.
pub const MAX_HEADERS: usize = 64;

/// A request whose head and body were read in full.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query string after `?`, or empty.
    pub query: String,
    /// The `Host` header, lowercased, or empty.
    pub host: String,
    /// The `Content-Type` header up to any `;`, lowercased, or empty.
    pub content_type: String,
    /// The body (empty without `Content-Length`).
    pub body: Vec<u8>,
    /// The client asked to close the connection after this request (or spoke HTTP/1.0).
    pub close: bool,
}

impl Request {
    /// The value of query parameter `key`, if present (no percent-decoding: the API's
    /// parameters are numbers and plain names).
    pub fn query_param(&self, key: &str) -> Option<&str> {
        self.query.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// A response to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A response with `status`, `content_type` and `body`.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Self {
        Self { status, content_type, body: body.into() }
    }

    /// `{"error": message}` with `status`.
    pub fn error(status: u16, message: &str) -> Self {
        let body = serde_json::json!({ "error": message }).to_string();
        Self::new(status, "application/json", body)
    }
}

/// Why no request came out of the connection.
#[derive(Debug)]
pub enum ReadError {
    /// The client closed the connection between requests.
    Closed,
    /// The request was malformed or over a limit: answer with this, then close.
    Refuse(Response),
    /// The socket failed or timed out mid-request.
    Io(io::Error),
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

/// Reads one request from `reader`, refusing a head over [`MAX_HEAD`] bytes or
/// [`MAX_HEADERS`] lines and a body over `max_body` bytes (without reading it). Writes
/// `100 Continue` to `writer` when the client waits for it.
///
/// # Errors
/// [`ReadError`]: closed, refused with a response, or an I/O error.
pub fn read_request(
    reader: &mut impl BufRead,
    writer: &mut impl Write,
    max_body: usize,
) -> Result<Request, ReadError> {
    let refuse = |status, message: &str| ReadError::Refuse(Response::error(status, message));
    let mut budget = MAX_HEAD;
    let mut lines = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = reader.by_ref().take(budget as u64).read_until(b'\n', &mut line)?;
        if n == 0 && lines.is_empty() {
            return Err(ReadError::Closed);
        }
        if !line.ends_with(b"\n") {
            return Err(if n == budget {
                refuse(431, "request head too large (limit 16 KiB)")
            } else {
                ReadError::Io(io::ErrorKind::UnexpectedEof.into())
            });
        }
        budget -= n;
        let line = String::from_utf8(line).map_err(|_| refuse(400, "request head is not UTF-8"))?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if lines.is_empty() {
                continue; // tolerated blank line before a request (RFC 9112 §2.2)
            }
            break;
        }
        if lines.len() > MAX_HEADERS {
            return Err(refuse(431, "too many header lines (limit 64)"));
        }
        lines.push(line.to_owned());
    }
    let mut parts = lines[0].split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse(400, "malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(refuse(505, "only HTTP/1.x is spoken here"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut request = Request {
        method: method.to_owned(),
        path: path.to_owned(),
        query: query.to_owned(),
        host: String::new(),
        content_type: String::new(),
        body: Vec::new(),
        close: version == "HTTP/1.0",
    };
    let (mut length, mut expect_continue) = (None::<usize>, false);
    for line in &lines[1..] {
        let Some((name, value)) = line.split_once(':') else {
            return Err(refuse(400, "malformed header line"));
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "content-length" => {
                let n = value.parse().map_err(|_| refuse(400, "bad Content-Length"))?;
                if length.is_some_and(|l| l != n) {
                    return Err(refuse(400, "conflicting Content-Length headers"));
                }
                length = Some(n);
            }
            "transfer-encoding" => {
                return Err(refuse(411, "chunked bodies are not accepted: send Content-Length"))
            }
            "connection" => {
                let v = value.to_ascii_lowercase();
                if v.contains("close") {
                    request.close = true;
                } else if v.contains("keep-alive") {
                    request.close = false;
                }
            }
            "expect" => expect_continue = value.eq_ignore_ascii_case("100-continue"),
            "host" => request.host = value.to_ascii_lowercase(),
            "content-type" => {
                let v = value.split(';').next().unwrap_or("");
                request.content_type = v.trim().to_ascii_lowercase();
            }
            _ => {}
        }
    }
    let length = length.unwrap_or(0);
    if length > max_body {
        let message = format!("body of {length} bytes is over the limit of {max_body}");
        return Err(refuse(413, &message));
    }
    if length > 0 {
        if expect_continue {
            writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
            writer.flush()?;
        }
        request.body = vec![0; length];
        reader.read_exact(&mut request.body)?;
    }
    Ok(request)
}

/// The reason phrase of the status codes the server uses.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// Writes `response`, announcing whether the connection stays open.
///
/// # Errors
/// Any I/O error of `writer`.
pub fn write_response(writer: &mut impl Write, response: &Response, close: bool) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: {}\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len(),
        if close { "close" } else { "keep-alive" },
    );
    writer.write_all(head.as_bytes())?;
    writer.write_all(&response.body)?;
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(raw: &[u8], max_body: usize) -> Result<Request, ReadError> {
        read_request(&mut io::BufReader::new(raw), &mut Vec::new(), max_body)
    }

    fn status(r: Result<Request, ReadError>) -> u16 {
        match r {
            Err(ReadError::Refuse(resp)) => resp.status,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn reads_a_request_with_a_body() {
        let r = read(b"POST /api/x?a=1&b=2 HTTP/1.1\r\nHost: Localhost:9\r\nContent-Length: 2\r\n\r\n{}", 10)
            .unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str(), r.query_param("b")), ("POST", "/api/x", Some("2")));
        assert_eq!((r.body.as_slice(), r.host.as_str(), r.close), (&b"{}"[..], "localhost:9", false));
    }

    #[test]
    fn refuses_what_is_over_a_limit_or_malformed() {
        assert_eq!(status(read(b"POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", 10)), 413);
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(status(read(long.as_bytes(), 10)), 431);
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "A: b\r\n".repeat(MAX_HEADERS + 1));
        assert_eq!(status(read(many.as_bytes(), 10)), 431);
        assert_eq!(status(read(b"GET /\r\n\r\n", 10)), 400);
        assert_eq!(status(read(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 10)), 411);
        assert_eq!(status(read(b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 10)), 400);
        assert!(matches!(read(b"", 10), Err(ReadError::Closed)));
        assert!(matches!(read(b"GET / HTTP/1.1\r\nHost", 10), Err(ReadError::Io(_))));
    }
}
