//! `ludus serve` under hostile clients, end to end: hundreds of idle connections, a 10 MiB
//! request line, and a live game folder asked for its bundle again and again by clients that
//! read slowly. The server keeps answering, stays on one thread, and its memory does not grow
//! with what clients send or how many ask.
#![cfg(target_os = "linux")]

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use support::{Scratch, scratch};

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
    fn start(site: &Path) -> Server {
        Server::start_with(site, &[], Stdio::null())
    }

    /// `ludus serve DIR ARGS... --port 0`, its standard error going to `stderr`.
    fn start_with(site: &Path, args: &[&std::ffi::OsStr], stderr: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .arg("serve")
            .arg(site)
            .args(args)
            .args(["--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
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

    /// The response's bytes.
    fn fetch(&self, request: &str) -> Vec<u8> {
        let mut s = self.connect();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        out
    }

    fn ask(&self, request: &str) -> String {
        let mut s = self.connect();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }
}

/// A folder to serve, removed when its guard drops (after the server, declared later, is
/// stopped).
fn site() -> Scratch {
    let dir = scratch("hostile", "serve");
    std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
    dir
}

#[test]
fn idle_connections_and_huge_request_lines_neither_block_nor_grow_the_server() {
    let site = site();
    let server = Server::start(&site);
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

/// A game folder holding a 4 MiB file, and a stand-in browser runtime to serve it with, in a
/// scratch folder removed when its guard (the first of the three) drops.
fn live_folders() -> (Scratch, PathBuf, PathBuf) {
    let base = scratch("hostile", "live");
    let (game, runtime) = (base.join("game"), base.join("runtime"));
    std::fs::create_dir_all(&game).unwrap();
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::write(
        game.join("game.toml"),
        "name = \"Live\"\n[archetypes.dot]\nsprite = { shape = \"circle\", size = 8 }\n\
         [levels.main]\nplace = [{ archetype = \"dot\", at = [0, 0] }]\n",
    )
    .unwrap();
    let art: Vec<u8> = (0..4u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    std::fs::write(game.join("art.bin"), art).unwrap();
    std::fs::write(
        runtime.join("index.html"),
        "<script>load(\"ludus.wasm\");</script>",
    )
    .unwrap();
    for f in ["ludus.wasm", "gl.js", "audio.js", "ludus.js"] {
        std::fs::write(runtime.join(f), b"stand-in").unwrap();
    }
    (base, game, runtime)
}

#[test]
fn a_live_games_bundle_is_built_once_per_change_and_shared_by_slow_clients() {
    let (base, game, runtime) = live_folders();
    let log = base.join("serve.log");
    let server = Server::start_with(
        &game,
        &["--runtime".as_ref(), runtime.as_os_str()],
        Stdio::from(std::fs::File::create(&log).unwrap()),
    );
    let get = "GET /game.ludus HTTP/1.1\r\n\r\n";
    let first = server.fetch(get);
    assert!(
        first.starts_with(b"HTTP/1.1 200 OK\r\n"),
        "{:?}",
        &first[..80.min(first.len())]
    );
    assert!(
        first.len() > 4 << 20,
        "the bundle holds the file: {} bytes",
        first.len()
    );
    let baseline_kb = server.status("VmHWM");

    // 40 clients ask at once and read only after all have asked: every answer is pending at
    // the same time. Each shares the one bundle: memory does not grow by 40 of them.
    let clients: Vec<TcpStream> = (0..40)
        .map(|_| {
            let mut s = server.connect();
            s.write_all(get.as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    for mut s in clients {
        let mut out = Vec::new();
        s.read_to_end(&mut out).unwrap();
        assert!(out == first, "every client gets the whole bundle");
    }
    for _ in 0..20 {
        assert_eq!(server.fetch(get), first);
    }
    let grown_kb = server.status("VmHWM").saturating_sub(baseline_kb);
    assert!(grown_kb < 24 * 1024, "peak memory grew by {grown_kb} kB");
    let packed = || {
        std::fs::read_to_string(&log)
            .unwrap()
            .matches("(packed from")
            .count()
    };
    assert_eq!(packed(), 1, "61 requests, one bundle built");

    // A changed file: built again, once.
    std::fs::write(game.join("game.toml"), "name = \"Live 2\"\n").unwrap();
    let changed = server.fetch(get);
    assert!(changed.starts_with(b"HTTP/1.1 200 OK\r\n"));
    assert!(changed != first, "the new files");
    assert_eq!(server.fetch(get), changed);
    assert_eq!(packed(), 2, "built again after the change, once");
}
