//! `ludus serve GAME_DIR`: a game folder (not a built site) in the browser, live. The page is
//! the browser runtime's (see `export::web_runtime`), the game is packed from the folder into
//! `game.ludus`, and the page asks for `game.version` (a fingerprint of the folder's files:
//! paths, sizes, modification times) twice a second and reloads itself when it changes: edit a
//! script or a TOML file, and the page plays the new game.
//!
//! The bundle is built once per version of the folder and kept ([`Live`]): a request for
//! `game.ludus` computes the fingerprint and sends the kept bundle while it matches, so
//! repeated and concurrent requests cost a directory listing each and share one copy of the
//! bytes (connections still sending an older bundle keep it until they finish).

use super::files::answer;
use super::response::{Body, Response, file_headers, plain, respond, shown};
use crate::cli::export::{RUNTIME_FILES, pack, start_page};
use crate::runtime::bundle::Bundle;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The fingerprint of a folder whose files cannot be listed (never matches a kept bundle).
const UNLISTED: &str = "unlisted";

/// The fingerprint of the game folder's files, as hex; changes when any file is added,
/// removed, resized or written.
pub fn version(game: &Path) -> String {
    let mut paths = Vec::new();
    if crate::cli::export::walk(game, "", &mut paths).is_err() {
        return UNLISTED.into();
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

/// A live game folder and its browser runtime, with the bundle built for the folder's
/// current version. Invariant: `built` holds the bytes of the bundle packed when the folder's
/// fingerprint was `version`; one bundle is kept at a time.
pub struct Live {
    game: PathBuf,
    runtime: PathBuf,
    built: Option<(String, Rc<Vec<u8>>)>,
    /// Bundles built so far (tests count them).
    pub builds: u64,
}

impl Live {
    pub fn new(game: PathBuf, runtime: PathBuf) -> Live {
        Live {
            game,
            runtime,
            built: None,
            builds: 0,
        }
    }

    /// The bundle's bytes for the folder as it is now: the kept one while the fingerprint
    /// matches, else a new one (kept in its place). Whether it was built now comes with it.
    fn bundle(&mut self) -> Result<(Rc<Vec<u8>>, bool), String> {
        // Taken before packing: a file written meanwhile changes the next fingerprint.
        let now = version(&self.game);
        if let Some((seen, bytes)) = &self.built
            && *seen == now
            && now != UNLISTED
        {
            return Ok((bytes.clone(), false));
        }
        // The old bundle goes first (connections sending it keep their share).
        self.built = None;
        // A game folder served live is the developer's: it keeps the developer's view.
        let bundle = pack(&self.game).map(|p| Bundle {
            dev: true,
            ..p.bundle
        })?;
        let bytes = Rc::new(bundle.encode());
        self.builds += 1;
        self.built = Some((now, bytes.clone()));
        Ok((bytes, true))
    }

    /// Answers one request.
    pub fn answer(&mut self, head: &[u8]) -> Response {
        let text = String::from_utf8_lossy(head);
        let first = text.lines().next().unwrap_or("");
        let mut words = first.split(' ');
        let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let path = target.split(['?', '#']).next().unwrap_or("");
        let head_only = method == "HEAD";
        let (game, runtime) = (self.game.clone(), self.runtime.clone());
        if method != "GET" && !head_only {
            return answer(head, &runtime);
        }
        let headers = |mime: &str, len: usize| file_headers(mime, len as u64);
        let body = |status: &str, mime: &str, bytes: &[u8]| {
            respond(
                status,
                &headers(mime, bytes.len()),
                if head_only { &[] } else { bytes },
            )
        };
        match path {
            "/" | "/index.html" => match page(&runtime, &game) {
                Ok(p) => body("200 OK", "text/html; charset=utf-8", p.as_bytes()),
                Err(e) => {
                    eprintln!("ludus: {}", ludus_core::printable_line(&e));
                    plain("500 Internal Server Error", &[], head_only)
                }
            },
            "/game.version" => body(
                "200 OK",
                "text/plain; charset=utf-8",
                version(&game).as_bytes(),
            ),
            "/game.ludus" => match self.bundle() {
                Ok((bytes, fresh)) => {
                    let how = if fresh { "packed from" } else { "kept, from" };
                    eprintln!("{method} /game.ludus 200 ({how} {})", game.display());
                    let mut r = respond(
                        "200 OK",
                        &headers("application/octet-stream", bytes.len()),
                        &[],
                    );
                    if !head_only {
                        r.body = Some(Body::Shared(bytes));
                    }
                    r
                }
                Err(e) => {
                    eprintln!("ludus: {}", ludus_core::printable_line(&e));
                    plain("500 Internal Server Error", &[], head_only)
                }
            },
            p if RUNTIME_FILES.iter().any(|f| p == format!("/{f}")) => answer(head, &runtime),
            _ => {
                eprintln!("{method} {} 404", shown(path));
                plain("404 Not Found", &[], head_only)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game folder and a stand-in browser runtime, one pair per test, in a scratch folder
    /// whose guard removes them when the test ends (passed or failed).
    fn folders(test: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let base = tempfile::Builder::new()
            .prefix(&format!("ludus-live-{test}-"))
            .tempdir()
            .unwrap();
        let (game, runtime) = (base.path().join("game"), base.path().join("runtime"));
        std::fs::create_dir_all(&game).unwrap();
        std::fs::create_dir_all(&runtime).unwrap();
        std::fs::write(game.join("game.toml"), "name = \"Live\"\n").unwrap();
        std::fs::write(game.join("art.bin"), vec![7u8; 100_000]).unwrap();
        std::fs::write(
            runtime.join("index.html"),
            "<script>load(\"ludus.wasm\");</script>",
        )
        .unwrap();
        std::fs::write(runtime.join("ludus.wasm"), b"\0asm").unwrap();
        (base, game, runtime)
    }

    fn shared(r: &Response) -> Option<Rc<Vec<u8>>> {
        match &r.body {
            Some(Body::Shared(bytes)) => Some(bytes.clone()),
            _ => None,
        }
    }

    #[test]
    fn the_bundle_is_built_once_per_change_and_shared_by_every_request() {
        let (_base, game, runtime) = folders("cache");
        let mut live = Live::new(game.clone(), runtime);
        let get = b"GET /game.ludus HTTP/1.1\r\n\r\n";
        let first = live.answer(get);
        let bytes = shared(&first).expect("the bundle is a shared body");
        assert!(bytes.len() > 100_000, "{} bytes", bytes.len());
        // (request, builds after it, shares the first bundle's bytes)
        let cases: [(&[u8], u64, bool); 4] = [
            (get, 1, true),
            (b"GET /game.ludus?v=2 HTTP/1.1\r\n\r\n", 1, true),
            (b"HEAD /game.ludus HTTP/1.1\r\n\r\n", 1, false),
            (b"GET /game.version HTTP/1.1\r\n\r\n", 1, false),
        ];
        for (request, builds, same) in cases {
            let r = live.answer(request);
            let what = String::from_utf8_lossy(request);
            assert_eq!(live.builds, builds, "{what}");
            assert_eq!(
                shared(&r).is_some_and(|b| Rc::ptr_eq(&b, &bytes)),
                same,
                "{what}"
            );
        }
        let held: Vec<Response> = (0..100).map(|_| live.answer(get)).collect();
        assert_eq!(live.builds, 1, "a hundred requests, one bundle");
        assert_eq!(
            Rc::strong_count(&bytes),
            103,
            "every response shares one copy"
        );
        drop(held);
        // A changed file: a new bundle, and the old one is no longer kept.
        std::fs::write(game.join("art.bin"), vec![8u8; 100_001]).unwrap();
        let r = live.answer(get);
        assert_eq!(live.builds, 2, "rebuilt after a change");
        let fresh = shared(&r).unwrap();
        assert_ne!(fresh, bytes, "the new bundle holds the new file");
        assert_eq!(Rc::strong_count(&bytes), 2, "the old bundle is let go");
    }
}
