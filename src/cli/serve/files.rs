//! Static files: the file a request names inside the served folder, with its MIME type, or a
//! refusal (see the module documentation of `serve`).

use super::conn;
use super::response::{Body, Response, file_headers, plain, respond, shown};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

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

/// Answers one complete request head.
pub fn answer(head: &[u8], root: &Path) -> Response {
    let text = String::from_utf8_lossy(head);
    let first = text.lines().next().unwrap_or("");
    let mut words = first.split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        eprintln!("{} {} 405", shown(method), shown(target));
        return plain(
            "405 Method Not Allowed",
            &[("Allow", "GET, HEAD".into())],
            false,
        );
    }
    let Some((file, len, path)) =
        resolve(root, target).and_then(|p| conn::open(&p).map(|(f, len)| (f, len, p)))
    else {
        eprintln!("{method} {} 404", shown(target));
        return plain("404 Not Found", &[], head_only);
    };
    eprintln!("{method} {} 200", shown(target));
    let mut response = respond("200 OK", &file_headers(mime(&path), len), &[]);
    if !head_only {
        response.body = Some(Body::File(std::io::Read::take(file, len)));
    }
    response
}

/// Serves `root` (canonical) on `listener` until the process ends, on the calling thread.
pub fn run(listener: TcpListener, root: PathBuf) {
    conn::serve(listener, &mut |head| answer(head, &root));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::io::Write;
    use std::net::Ipv4Addr;
    use std::net::TcpStream;

    /// A folder to serve, one per test (tests run in parallel in one process): `site` in a
    /// fresh scratch folder, whose guard removes it all when the test ends (passed or failed).
    fn site(test: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::Builder::new()
            .prefix(&format!("ludus-serve-{test}-"))
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("site");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("game.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(dir.join("sub/a b.js"), "x").unwrap();
        std::fs::write(dir.join(".secret"), "no").unwrap();
        (tmp, dir.canonicalize().unwrap())
    }

    #[test]
    fn paths_stay_inside_the_folder() {
        let (_tmp, root) = site("paths");
        let outside = root.parent().unwrap().join("outside");
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
        let (_tmp, root) = site("http");
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || run(listener, root));

        let r = ask(port, "GET /game.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("Content-Type: application/wasm\r\n"), "{r}");
        assert!(r.contains("Content-Length: 8\r\n"), "{r}");
        // Cross-origin isolated: the page's clock in microseconds.
        assert!(
            r.contains("Cross-Origin-Opener-Policy: same-origin\r\n"),
            "{r}"
        );
        assert!(
            r.contains("Cross-Origin-Embedder-Policy: require-corp\r\n"),
            "{r}"
        );
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
    }

    #[test]
    fn oversized_heads_are_refused_and_idle_clients_do_not_block_others() {
        let (_tmp, root) = site("hostile");
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || run(listener, root));

        // Headers past the limit: 431; a request line past it: 414. Both close.
        let big_header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20_000));
        let r = ask(port, &big_header);
        assert!(r.starts_with("HTTP/1.1 431 "), "{r}");
        let long_line = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(20_000));
        let r = ask(port, &long_line);
        assert!(r.starts_with("HTTP/1.1 414 "), "{r}");
        // Bare line feeds end a head too.
        let r = ask(port, "GET / HTTP/1.0\n\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");

        // More idle connections than the cap: the oldest make way for a real request.
        let idle: Vec<TcpStream> = (0..conn::MAX_CONNECTIONS + 40)
            .map(|_| TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap())
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(200));
        let r = ask(port, "GET /game.wasm HTTP/1.1\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        drop(idle);
    }
}
