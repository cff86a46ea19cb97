//! `ludus serve GAME_DIR`: a game folder (not a built site) in the browser, live. The page is
//! the browser runtime's (see `export::web_runtime`), the game is packed from the folder on
//! every request for `game.ludus`, and the page asks for `game.version` (a fingerprint of the
//! folder's files: paths, sizes, modification times) twice a second and reloads itself when it
//! changes: edit a script or a TOML file, and the page plays the new game.

use super::conn::Response;
use super::{answer, plain, respond};
use crate::cli::export::{RUNTIME_FILES, pack, start_page};
use std::path::Path;

/// The fingerprint of the game folder's files, as hex; changes when any file is added,
/// removed, resized or written.
pub fn version(game: &Path) -> String {
    let mut paths = Vec::new();
    if crate::cli::export::walk(game, "", &mut paths).is_err() {
        return "unlisted".into();
    }
    let mut text = String::new();
    for p in paths {
        let meta = std::fs::metadata(game.join(&p)).ok();
        let len = meta.as_ref().map_or(0, |m| m.len());
        let modified = meta
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        text.push_str(&format!("{p}\0{len}\0{modified}\n"));
    }
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}

/// The page: the runtime's, starting the folder's game, with the poller that reloads it.
fn page(runtime: &Path, game: &Path) -> Result<String, String> {
    let poll = format!(
        r#"
  // ludus serve: reload when the game folder changes.
  (async () => {{
    const seen = "{}";
    for (;;) {{
      await new Promise((r) => setTimeout(r, 500));
      try {{
        const v = await (await fetch("game.version", {{ cache: "no-store" }})).text();
        if (v !== seen) location.reload();
      }} catch (e) {{}}
    }}
  }})();"#,
        version(game)
    );
    start_page(runtime, &poll)
}

/// Answers one request for the live game `game` with the runtime in `runtime`.
pub fn answer_live(head: &[u8], game: &Path, runtime: &Path) -> Response {
    let text = String::from_utf8_lossy(head);
    let first = text.lines().next().unwrap_or("");
    let mut words = first.split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");
    let head_only = method == "HEAD";
    let body = |status: &str, mime: &str, bytes: &[u8]| {
        let headers = [
            ("Content-Type", mime.to_string()),
            ("Content-Length", bytes.len().to_string()),
            ("Cache-Control", "no-cache".to_string()),
            ("X-Content-Type-Options", "nosniff".to_string()),
        ];
        respond(status, &headers, if head_only { &[] } else { bytes })
    };
    if method != "GET" && !head_only {
        return answer(head, runtime);
    }
    match path {
        "/" | "/index.html" => match page(runtime, game) {
            Ok(p) => body("200 OK", "text/html; charset=utf-8", p.as_bytes()),
            Err(e) => {
                eprintln!("ludus: {e}");
                plain("500 Internal Server Error", &[], head_only)
            }
        },
        "/game.version" => body(
            "200 OK",
            "text/plain; charset=utf-8",
            version(game).as_bytes(),
        ),
        "/game.ludus" => match pack(game) {
            Ok(bundle) => {
                eprintln!("{method} /game.ludus 200 (packed from {})", game.display());
                body("200 OK", "application/octet-stream", &bundle.encode())
            }
            Err(e) => {
                eprintln!("ludus: {e}");
                plain("500 Internal Server Error", &[], head_only)
            }
        },
        p if RUNTIME_FILES.iter().any(|f| p == format!("/{f}")) => answer(head, runtime),
        _ => {
            eprintln!("{method} {path} 404");
            plain("404 Not Found", &[], head_only)
        }
    }
}
