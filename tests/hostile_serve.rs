//! `ludus serve` under hostile clients, end to end: hundreds of idle connections and a
//! 10 MiB request line. The server keeps answering, stays on one thread, and its memory does
//! not grow with what clients send.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(site: &PathBuf) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .arg("serve")
            .arg(site)
            .args(["--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .trim_end_matches('/')
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    /// A field of the server's /proc status (`Threads`, `VmHWM` in kB).
    fn status(&self, field: &str) -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{field}:")))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{field} in {text}"))
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }

    fn ask(&self, request: &str) -> String {
        let mut s = self.connect();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }
}

fn site() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-hostile-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
    dir
}

#[test]
fn idle_connections_and_huge_request_lines_neither_block_nor_grow_the_server() {
    let server = Server::start(&site());
    let r = server.ask("GET / HTTP/1.1\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
    let threads = server.status("Threads");
    assert!(threads <= 2, "{threads} threads before any load");
    let baseline_kb = server.status("VmHWM");

    // 300 connections that never send anything.
    let idle: Vec<TcpStream> = (0..300).map(|_| server.connect()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let r = server.ask("GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(
        r.starts_with("HTTP/1.1 200 OK\r\n"),
        "answered with 300 idle connections open: {r}"
    );
    assert!(r.ends_with("<p>hi</p>"), "{r}");
    assert_eq!(
        server.status("Threads"),
        threads,
        "no thread per connection"
    );

    // A 10 MiB request line: refused with 414 and closed, the server holding at most 16 KiB.
    let mut s = server.connect();
    let mut writer = s.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let _ = writer.write_all(b"GET /");
        let chunk = vec![b'a'; 64 * 1024];
        for _ in 0..160 {
            if writer.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let mut response = Vec::new();
    let _ = s.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 414 "), "{response}");
    assert!(response.contains("Connection: close"), "{response}");
    sender.join().unwrap();

    let grown_kb = server.status("VmHWM").saturating_sub(baseline_kb);
    assert!(grown_kb < 8 * 1024, "peak memory grew by {grown_kb} kB");
    assert_eq!(server.status("Threads"), threads);
    let r = server.ask("GET / HTTP/1.1\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "still serving: {r}");
    drop(idle);
}
