//! The server's connections: one thread serves them all, none can hold memory or a thread.
//!
//! Guarantees:
//! - One thread, whatever the number of clients: every socket is non-blocking and the loop
//!   visits each in turn, sleeping briefly (1 to 20 ms) when nothing moved.
//! - At most [`MAX_CONNECTIONS`] are open. A new connection beyond that closes the oldest one
//!   still waiting for its request (an idle client cannot lock others out); when every one is
//!   busy sending, the newcomer gets 503.
//! - A request head (request line and headers) is at most [`MAX_HEAD`] bytes: past that the
//!   client gets 414 (the request line alone is too long) or 431, without the server holding
//!   more than the limit. A head must arrive within [`HEAD_TIMEOUT`].
//! - A response is sent from a fixed buffer, the file streamed, or from bytes every
//!   connection shares ([`Body::Shared`]: the live game's bundle, built once per change and
//!   never copied per request); a client that reads nothing for [`SEND_TIMEOUT`] is dropped.
//! - After a response the server stops writing, discards what the client still sends (at most
//!   [`MAX_DRAIN`] bytes, [`DRAIN_TIMEOUT`]) so the client reads the response rather than a
//!   reset, then closes.

use super::response::{Body, Response, plain};
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

/// The largest request head read, in bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// Connections open at once.
pub const MAX_CONNECTIONS: usize = 128;
/// Time for a client to send its request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a response may go without the client taking any of it.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(30);
/// What is discarded after a response before closing.
const MAX_DRAIN: usize = 16 * 1024 * 1024;
const DRAIN_TIMEOUT: Duration = Duration::from_secs(1);
/// Bytes moved per read or write.
const CHUNK: usize = 64 * 1024;
/// Reads or writes per connection per turn of the loop.
const VISIT_STEPS: usize = 64;

enum State {
    /// Reading the request head.
    Head(Vec<u8>),
    /// Sending `head[sent..]`, then the body: a file through `buf[at..]`, shared bytes from
    /// `at`.
    Send {
        head: Vec<u8>,
        sent: usize,
        body: Option<Body>,
        buf: Vec<u8>,
        at: usize,
    },
    /// Discarding input after the response.
    Drain { drained: usize, since: Instant },
}

struct Conn {
    stream: TcpStream,
    opened: Instant,
    /// The last time bytes moved.
    moved: Instant,
    state: State,
}

/// What a visit to a connection did.
enum Visit {
    Idle,
    Moved,
    Close,
}

impl Conn {
    fn visit(&mut self, now: Instant, answer: &mut dyn FnMut(&[u8]) -> Response) -> Visit {
        let mut moved = false;
        // A bounded number of steps per visit, so one fast client cannot starve the others.
        for _ in 0..VISIT_STEPS {
            let step = match &mut self.state {
                State::Head(buf) => {
                    if now.duration_since(self.opened) > HEAD_TIMEOUT {
                        return Visit::Close;
                    }
                    read_head(&mut self.stream, buf)
                }
                State::Send {
                    head,
                    sent,
                    body,
                    buf,
                    at,
                } => {
                    if now.duration_since(self.moved) > SEND_TIMEOUT {
                        return Visit::Close;
                    }
                    send(&mut self.stream, head, sent, body, buf, at)
                }
                State::Drain { drained, since } => {
                    if now.duration_since(*since) > DRAIN_TIMEOUT || *drained > MAX_DRAIN {
                        return Visit::Close;
                    }
                    drain(&mut self.stream, drained)
                }
            };
            match step {
                Step::Wait => break,
                Step::Close => return Visit::Close,
                Step::Moved => {
                    moved = true;
                    self.moved = now;
                }
                Step::Head(Ok(len)) => {
                    moved = true;
                    self.moved = now;
                    let State::Head(buf) = &self.state else {
                        return Visit::Close;
                    };
                    let response = answer(&buf[..len]);
                    self.start(response);
                }
                Step::Head(Err(status)) => {
                    moved = true;
                    self.moved = now;
                    self.start(plain(status, &[], false));
                }
                Step::Sent => {
                    let _ = self.stream.shutdown(Shutdown::Write);
                    self.state = State::Drain {
                        drained: 0,
                        since: now,
                    };
                }
            }
        }
        if moved { Visit::Moved } else { Visit::Idle }
    }

    fn start(&mut self, response: Response) {
        self.state = State::Send {
            head: response.head,
            sent: 0,
            body: response.body,
            buf: Vec::new(),
            at: 0,
        };
    }
}

enum Step {
    Wait,
    Moved,
    Close,
    /// The head is complete (its length) or refused (the status to answer).
    Head(Result<usize, &'static str>),
    Sent,
}

/// Reads what has arrived of a head, never holding more than [`MAX_HEAD`] bytes.
fn read_head(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Step {
    let mut chunk = [0u8; 4096];
    let room = (MAX_HEAD + 1).saturating_sub(buf.len()).min(chunk.len());
    match stream.read(&mut chunk[..room]) {
        Ok(0) => Step::Close,
        Ok(n) => {
            let start = buf.len().saturating_sub(3);
            buf.extend_from_slice(&chunk[..n]);
            if let Some(end) = find_end(&buf[start..]) {
                return Step::Head(Ok(start + end));
            }
            if buf.len() > MAX_HEAD {
                let status = if buf.contains(&b'\n') {
                    "431 Request Header Fields Too Large"
                } else {
                    "414 URI Too Long"
                };
                return Step::Head(Err(status));
            }
            Step::Moved
        }
        Err(e) if e.kind() == ErrorKind::WouldBlock => Step::Wait,
        Err(e) if e.kind() == ErrorKind::Interrupted => Step::Moved,
        Err(_) => Step::Close,
    }
}

/// Where a head ends (`\r\n\r\n` or `\n\n`): the length up to and including it.
fn find_end(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| bytes.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))
}

fn send(
    stream: &mut TcpStream,
    head: &[u8],
    sent: &mut usize,
    body: &mut Option<Body>,
    buf: &mut Vec<u8>,
    at: &mut usize,
) -> Step {
    let pending: &[u8] = if *sent < head.len() {
        &head[*sent..]
    } else {
        match body {
            None => return Step::Sent,
            Some(Body::Shared(bytes)) if *at < bytes.len() => &bytes[*at..],
            Some(Body::Shared(_)) => return Step::Sent,
            Some(Body::File(_)) if *at < buf.len() => &buf[*at..],
            Some(Body::File(file)) => {
                buf.resize(CHUNK, 0);
                *at = 0;
                return match file.read(buf) {
                    Ok(0) => {
                        *body = None;
                        buf.clear();
                        Step::Sent
                    }
                    Ok(n) => {
                        buf.truncate(n);
                        Step::Moved
                    }
                    Err(_) => Step::Close,
                };
            }
        }
    };
    match stream.write(&pending[..pending.len().min(CHUNK)]) {
        Ok(0) => Step::Close,
        Ok(n) => {
            if *sent < head.len() {
                *sent += n;
            } else {
                *at += n;
            }
            Step::Moved
        }
        Err(e) if e.kind() == ErrorKind::WouldBlock => Step::Wait,
        Err(e) if e.kind() == ErrorKind::Interrupted => Step::Moved,
        Err(_) => Step::Close,
    }
}

fn drain(stream: &mut TcpStream, drained: &mut usize) -> Step {
    let mut chunk = [0u8; 4096];
    match stream.read(&mut chunk) {
        Ok(0) => Step::Close,
        Ok(n) => {
            *drained += n;
            Step::Moved
        }
        Err(e) if e.kind() == ErrorKind::WouldBlock => Step::Wait,
        Err(e) if e.kind() == ErrorKind::Interrupted => Step::Moved,
        Err(_) => Step::Close,
    }
}

/// Serves connections from `listener` until the process ends, answering each complete request
/// head with `answer`.
pub fn serve(listener: TcpListener, answer: &mut dyn FnMut(&[u8]) -> Response) {
    if listener.set_nonblocking(true).is_err() {
        eprintln!("ludus: cannot serve: the listening socket cannot be made non-blocking");
        return;
    }
    let mut conns: Vec<Conn> = Vec::new();
    let mut pause = Duration::from_millis(1);
    loop {
        let mut moved = false;
        let now = Instant::now();
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    moved = true;
                    admit(&mut conns, stream, now);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                // WouldBlock, or a transient failure such as running out of descriptors:
                // serve the open connections and try again on the next turn.
                Err(_) => break,
            }
        }
        conns.retain_mut(|c| match c.visit(now, answer) {
            Visit::Idle => true,
            Visit::Moved => {
                moved = true;
                true
            }
            Visit::Close => false,
        });
        if moved {
            pause = Duration::from_millis(1);
        } else {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(20));
        }
    }
}

/// Takes a new connection under the cap (see the module's guarantees).
fn admit(conns: &mut Vec<Conn>, mut stream: TcpStream, now: Instant) {
    if conns.len() >= MAX_CONNECTIONS {
        let oldest_waiting = conns
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.state, State::Head(_)))
            .min_by_key(|(_, c)| c.opened)
            .map(|(i, _)| i);
        match oldest_waiting {
            Some(i) => {
                conns.swap_remove(i);
            }
            None => {
                let busy = plain("503 Service Unavailable", &[], false);
                let _ = stream.set_nonblocking(true);
                let _ = stream.write(&busy.head);
                return;
            }
        }
    }
    if stream.set_nonblocking(true).is_err() {
        return;
    }
    let _ = stream.set_nodelay(true);
    conns.push(Conn {
        stream,
        opened: now,
        moved: now,
        state: State::Head(Vec::new()),
    });
}

/// The path of a file to answer with, opened for streaming.
pub fn open(path: &Path) -> Option<(File, u64)> {
    let file = File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    meta.is_file().then_some((file, meta.len()))
}
