//! `ludus serve`: a small static file server for a web build, so a person (or a browser test)
//! can open it: browsers refuse to run WebAssembly from `file://` URLs.
//!
//! It listens on 127.0.0.1 only, answers GET and HEAD (anything else: 405), sends the MIME type
//! browsers need (`application/wasm` for the module), serves `index.html` for a folder, and
//! never serves anything outside the folder: `..`, hidden names and backslashes are refused, and
//! the resolved path (symbolic links followed) must still lie inside the canonical root. Every
//! response closes its connection; each connection is served on its own thread.

use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The folder to serve (what `web/build.sh` wrote).
    pub dir: PathBuf,
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
}

/// The largest request head read before answering 431.
const MAX_HEAD: usize = 16 * 1024;

/// The Content-Type of a file, by extension.
pub fn mime(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "txt" | "md" | "lua" | "toml" => "text/plain; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "mp3" => "audio/mpeg",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Decodes `%XX` escapes; `None` for a malformed escape or a result that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = hex(*bytes.get(i + 1)?)?;
            let lo = hex(*bytes.get(i + 2)?)?;
            out.push(hi * 16 + lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file a request target names inside `root` (canonical), or `None` if it names nothing
/// servable there.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    let mut file = root.to_path_buf();
    for part in decoded.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.') || part.contains(['\\', '\0', ':']) {
            return None;
        }
        file.push(part);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let real = file.canonicalize().ok()?;
    (real.starts_with(root) && real.is_file()).then_some(real)
}

fn respond(stream: &mut TcpStream, status: &str, headers: &[(&str, String)], body: &[u8]) {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
}

fn plain(stream: &mut TcpStream, status: &str, extra: &[(&str, String)], head_only: bool) {
    let body = format!("{status}\n");
    let mut headers = vec![
        ("Content-Type", "text/plain; charset=utf-8".to_string()),
        ("Content-Length", body.len().to_string()),
    ];
    headers.extend(extra.iter().cloned());
    let body = if head_only { &b""[..] } else { body.as_bytes() };
    respond(stream, status, &headers, body);
}

/// Reads the request head; `None` when the client sent nothing usable.
fn read_head(stream: &TcpStream) -> Result<Vec<String>, &'static str> {
    let mut reader = BufReader::new(stream);
    let mut lines = Vec::new();
    let mut total = 0;
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return Err("closed"),
            Ok(n) => total += n,
            Err(_) => return Err("unreadable"),
        }
        if total > MAX_HEAD {
            return Err("too large");
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        if line.is_empty() {
            return Ok(lines);
        }
        lines.push(line);
    }
}

/// Answers one connection.
pub fn handle(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let head = match read_head(&stream) {
        Ok(h) => h,
        Err("too large") => {
            return plain(
                &mut stream,
                "431 Request Header Fields Too Large",
                &[],
                false,
            );
        }
        Err(_) => return,
    };
    let mut words = head.first().map(|l| l.split(' ')).into_iter().flatten();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        eprintln!("{method} {target} 405");
        return plain(
            &mut stream,
            "405 Method Not Allowed",
            &[("Allow", "GET, HEAD".into())],
            false,
        );
    }
    let Some(file) = resolve(root, target) else {
        eprintln!("{method} {target} 404");
        return plain(&mut stream, "404 Not Found", &[], head_only);
    };
    let body = match std::fs::read(&file) {
        Ok(b) => b,
        Err(_) => {
            eprintln!("{method} {target} 404");
            return plain(&mut stream, "404 Not Found", &[], head_only);
        }
    };
    eprintln!("{method} {target} 200");
    let headers = [
        ("Content-Type", mime(&file).to_string()),
        ("Content-Length", body.len().to_string()),
        ("Cache-Control", "no-cache".to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
    ];
    respond(
        &mut stream,
        "200 OK",
        &headers,
        if head_only { &[] } else { &body },
    );
}

/// Serves `root` (canonical) on `listener` until the process ends.
pub fn run(listener: TcpListener, root: PathBuf) {
    for stream in listener.incoming().flatten() {
        let root = root.clone();
        std::thread::spawn(move || handle(stream, &root));
    }
}

pub fn main(args: ServeArgs) -> i32 {
    let root = match args.dir.canonicalize() {
        Ok(r) if r.is_dir() => r,
        _ => {
            eprintln!("ludus: {} is not a folder", args.dir.display());
            return 1;
        }
    };
    if !root.join("index.html").is_file() {
        eprintln!(
            "ludus: warning: {} has no index.html (build one with web/build.sh GAME_DIR {})",
            root.display(),
            args.dir.display()
        );
    }
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ludus: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return 1;
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(args.port);
    println!("serving {} at http://127.0.0.1:{port}/", root.display());
    let _ = std::io::stdout().flush();
    run(listener, root);
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// A folder to serve, one per test (tests run in parallel in one process).
    fn site(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludus-serve-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("game.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(dir.join("sub/a b.js"), "x").unwrap();
        std::fs::write(dir.join(".secret"), "no").unwrap();
        dir.canonicalize().unwrap()
    }

    #[test]
    fn paths_stay_inside_the_folder() {
        let root = site("paths");
        let outside = root
            .parent()
            .unwrap()
            .join(format!("ludus-serve-outside-{}", std::process::id()));
        std::fs::write(&outside, "outside").unwrap();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/game.wasm?v=2"),
            Some(root.join("game.wasm"))
        );
        assert_eq!(
            resolve(&root, "/sub/a%20b.js"),
            Some(root.join("sub/a b.js"))
        );
        for bad in [
            "/../etc/passwd",
            "/sub/../../x",
            "/%2e%2e/x",
            "/sub/%2E%2E/%2E%2E/etc/passwd",
            "/.secret",
            "/sub\\..\\..\\x",
            "/%00",
            "/%zz",
            "game.wasm",
            "/missing.js",
            "/sub/",
        ] {
            assert_eq!(resolve(&root, bad), None, "{bad}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
            assert_eq!(resolve(&root, "/link"), None, "a link out of the folder");
        }
        let _ = std::fs::remove_file(outside);
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn mime_types_browsers_need() {
        assert_eq!(mime(Path::new("a/ludus.wasm")), "application/wasm");
        assert_eq!(mime(Path::new("gl.js")), "text/javascript; charset=utf-8");
        assert_eq!(mime(Path::new("index.HTML")), "text/html; charset=utf-8");
        assert_eq!(mime(Path::new("x.png")), "image/png");
        assert_eq!(mime(Path::new("noext")), "application/octet-stream");
    }

    fn ask(port: u16, request: &str) -> String {
        let mut s = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn answers_get_and_head_only() {
        let root = site("http");
        let served = root.clone();
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || run(listener, root));

        let r = ask(port, "GET /game.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("Content-Type: application/wasm\r\n"), "{r}");
        assert!(r.contains("Content-Length: 8\r\n"), "{r}");
        assert!(r.ends_with("\0asm\x01\0\0\0"), "{r:?}");

        let r = ask(port, "HEAD / HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("Content-Length: 9\r\n"), "{r}");
        assert!(r.ends_with("\r\n\r\n"), "HEAD has no body: {r:?}");

        let r = ask(port, "POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 405 "), "{r}");
        assert!(r.contains("Allow: GET, HEAD\r\n"), "{r}");

        let r = ask(port, "GET /../../etc/passwd HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 404 "), "{r}");
        let _ = std::fs::remove_dir_all(served);
    }
}
