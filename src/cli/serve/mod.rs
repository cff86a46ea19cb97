//! `ludus serve`: a small static file server for a web build, so a person (or a browser test)
//! can open it: browsers refuse to run WebAssembly from `file://` URLs. Given a game folder
//! instead, it serves the browser runtime playing that folder, live (see `live.rs`).
//!
//! It listens on 127.0.0.1 only, answers GET and HEAD (anything else: 405), sends the MIME type
//! browsers need (`application/wasm` for the module), serves `index.html` for a folder, and
//! never serves anything outside the folder: `..`, hidden names and backslashes are refused, and
//! the resolved path (symbolic links followed) must still lie inside the canonical root and be
//! a regular file (`files.rs`). Every response closes its connection. One thread serves every
//! connection, with bounds on their number, their request heads and their time (`conn.rs`).

mod conn;
mod files;
mod live;
mod response;

use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The folder to serve: a site (what `web/build.sh` or `ludus export web` wrote), or a
    /// game folder, played live in the browser runtime and reloaded when a file changes.
    pub dir: PathBuf,
    /// For a game folder: the browser runtime (default: the LUDUS_WEB_RUNTIME variable, else
    /// ~/.cache/ludus/VERSION/web; see `ludus export web`).
    #[arg(long)]
    pub runtime: Option<PathBuf>,
    /// The port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
}

pub fn main(args: ServeArgs) -> i32 {
    let root = match args.dir.canonicalize() {
        Ok(r) if r.is_dir() => r,
        _ => {
            eprintln!("ludus: {} is not a folder", args.dir.display());
            return 1;
        }
    };
    let live = root.join("game.toml").is_file();
    let runtime = if live {
        match crate::cli::export::web_runtime(args.runtime.clone()) {
            Some(r) if r.join("index.html").is_file() && r.join("ludus.wasm").is_file() => {
                // Canonical, as `resolve` requires of a root.
                Some(r.canonicalize().unwrap_or(r))
            }
            r => {
                eprintln!(
                    "ludus: no browser runtime for Ludus {} in {}: build one from a Ludus \
                     source checkout with `web/build.sh examples/swarm DIR` and name it with \
                     --runtime DIR (or LUDUS_WEB_RUNTIME)",
                    crate::runtime::bundle::VERSION,
                    r.map_or("(no home folder)".into(), |r| r.display().to_string())
                );
                return 1;
            }
        }
    } else {
        None
    };
    if !live && !root.join("index.html").is_file() {
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
    match runtime {
        Some(runtime) => {
            let mut live = live::Live::new(root, runtime);
            conn::serve(listener, &mut |head| live.answer(head))
        }
        None => files::run(listener, root),
    }
    0
}
