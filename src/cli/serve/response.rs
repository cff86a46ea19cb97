//! What the server answers: a response's head and body, and the small responses every part
//! of the server sends.

use std::fs::File;
use std::rc::Rc;

/// A response: its head, and a body to send after it.
pub struct Response {
    pub head: Vec<u8>,
    pub body: Option<Body>,
}

/// What follows a response's head.
pub enum Body {
    /// A file, streamed through the connection's buffer.
    File(std::io::Take<File>),
    /// Bytes held once for every connection sending them.
    Shared(Rc<Vec<u8>>),
}

/// A response with these headers and a body held in memory (`Connection: close` added).
pub fn respond(status: &str, headers: &[(&str, String)], body: &[u8]) -> Response {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut head = head.into_bytes();
    head.extend_from_slice(body);
    Response { head, body: None }
}

/// The head of a file's answer: its type and length, then what every file served carries: no
/// caching (a rebuilt game is seen at once), no type sniffing, and cross-origin isolation. An
/// isolated page reads a clock of microseconds where Chromium gives other pages 0.1 ms steps
/// (the page's timings, `ludus.sim`'s `elapsed_ms` and the `?bench=` ladder, are that much
/// finer); it loads nothing from other servers, which isolation would refuse.
pub fn file_headers(mime: &str, len: u64) -> [(&'static str, String); 6] {
    [
        ("Content-Type", mime.to_string()),
        ("Content-Length", len.to_string()),
        ("Cache-Control", "no-cache".to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
        ("Cross-Origin-Opener-Policy", "same-origin".to_string()),
        ("Cross-Origin-Embedder-Policy", "require-corp".to_string()),
    ]
}

/// A short plain-text response naming its status.
pub fn plain(status: &str, extra: &[(&str, String)], head_only: bool) -> Response {
    let body = format!("{status}\n");
    let mut headers = vec![
        ("Content-Type", "text/plain; charset=utf-8".to_string()),
        ("Content-Length", body.len().to_string()),
    ];
    headers.extend(extra.iter().cloned());
    let body = if head_only { &b""[..] } else { body.as_bytes() };
    respond(status, &headers, body)
}

/// The request target as logged: control characters escaped, at most 200 characters.
pub fn shown(target: &str) -> String {
    let mut s: String = target
        .chars()
        .take(200)
        .flat_map(char::escape_default)
        .collect();
    if target.chars().count() > 200 {
        s.push_str("...");
    }
    s
}
