//! `ludus export`: a game packed for players as a [`Bundle`] of its folder.
//!
//! - `desktop GAME_DIR OUT`: a single executable that plays the game, like LÖVE's fused games:
//!   a copy of this `ludus` binary with the bundle appended, then a trailer (see `carried`,
//!   which finds it when the copy starts).
//! - `web GAME_DIR OUT_DIR`: a static site: the generic browser runtime (one module for every
//!   game, see [`web_runtime`]) and the bundle as `game.ludus`, which the page fetches and hands
//!   to the module before it starts.
//!
//! Both play in release mode (only what the game asks for: no help line, no developer keys;
//! see [`Runner::release`](crate::runtime::Runner::release)) unless exported with
//! `--dev`, which the bundle records.
//!
//! [`pack()`] says which of the folder's files go in; [`output`], how an export writes: never
//! into the game folder (an output there is refused), never through a link, never a file half
//! written.

mod output;
mod pack;

use pack::packed_list;
pub(crate) use pack::{pack, walk};

use crate::cli::carried::{TRAILER, carried_len};
use crate::runtime::bundle::Bundle;
use output::{Guarded, file_place, folder_place, write_whole};
use std::path::{Path, PathBuf};

/// The most bytes of a browser runtime's file an export reads.
const MAX_RUNTIME_FILE_BYTES: u64 = 256 << 20;

#[derive(clap::Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    target: Target,
}

#[derive(clap::Subcommand)]
enum Target {
    /// Write a single executable for this platform that plays the game with no arguments.
    Desktop {
        /// The game folder (it must pass `ludus check`).
        game_dir: PathBuf,
        /// The executable to write (an existing folder: the game's folder name inside it).
        out: PathBuf,
        /// Keep the developer's view: the help line and the developer keys (step, overlay,
        /// inspector, console, record, rewind), as `ludus run` has them. Without it the game runs in
        /// release mode and shows only what it asks for.
        #[arg(long)]
        dev: bool,
    },
    /// Write a static site that plays the game in a browser (any static file server, or
    /// `ludus serve OUT_DIR`).
    Web {
        /// The game folder (it must pass `ludus check`).
        game_dir: PathBuf,
        /// The folder to write the site in.
        out_dir: PathBuf,
        /// The browser runtime to use: a folder `web/build.sh` wrote (default: the
        /// LUDUS_WEB_RUNTIME variable, else ~/.cache/ludus/VERSION/web).
        #[arg(long)]
        runtime: Option<PathBuf>,
        /// Build the runtime there first, with web/build.sh from the sources this program was
        /// built from (needs the wasm32 Rust target, clang-19, llvm-19 and wasi-libc).
        #[arg(long)]
        build_runtime: bool,
        /// Keep the developer's view (see `export desktop --dev`).
        #[arg(long)]
        dev: bool,
    },
}

pub fn main(args: ExportArgs) -> i32 {
    match args.target {
        Target::Desktop { game_dir, out, dev } => desktop(&game_dir, &out, dev),
        Target::Web {
            game_dir,
            out_dir,
            runtime,
            build_runtime,
            dev,
        } => web(&game_dir, &out_dir, runtime, build_runtime, dev),
    }
}

/// The files of a browser runtime, besides index.html.
pub(crate) const RUNTIME_FILES: [&str; 4] = ["ludus.wasm", "gl.js", "audio.js", "ludus.js"];

/// Where the browser runtime is: `chosen`, else `LUDUS_WEB_RUNTIME`, else the cache folder of
/// this version (`$XDG_CACHE_HOME/ludus/VERSION/web`, `~/.cache/...`).
pub fn web_runtime(chosen: Option<PathBuf>) -> Option<PathBuf> {
    chosen
        .or_else(|| std::env::var_os("LUDUS_WEB_RUNTIME").map(PathBuf::from))
        .or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
            Some(
                cache
                    .join("ludus")
                    .join(crate::runtime::bundle::VERSION)
                    .join("web"),
            )
        })
}

fn web(dir: &Path, out: &Path, chosen: Option<PathBuf>, build: bool, dev: bool) -> i32 {
    // The output is judged before anything else is done.
    let guard = match Guarded::new(dir).and_then(|g| {
        g.refuse_inside(out, folder_place(out)?)?;
        Ok(g)
    }) {
        Ok(guard) => guard,
        Err(e) => return refused(&e),
    };
    if crate::cli::check::check(dir, crate::cli::check::Format::Text) != 0 {
        eprintln!("ludus: not exported: fix the errors above first");
        return 1;
    }
    let result = web_runtime(chosen)
        .ok_or_else(|| "no browser runtime named and no home folder to look in".to_string())
        .and_then(|runtime| {
            if build {
                build_runtime(&runtime)?;
            }
            let place = folder_place(out)?;
            if runtime.canonicalize().is_ok_and(|r| r == place) {
                return Err(format!(
                    "{} is the browser runtime's own folder: write the site elsewhere",
                    out.display()
                ));
            }
            let mut packed = pack(dir)?;
            packed.bundle.dev = dev;
            write_site(&packed.bundle, &runtime, out, &guard)?;
            Ok(packed)
        });
    match result {
        Ok(packed) => {
            print!("{}", packed_list(&packed));
            println!(
                "{}: exported to {} (index.html, the runtime and game.ludus); serve it with \
                 `ludus serve {}` or any static file server",
                dir.display(),
                out.display(),
                out.display()
            );
            0
        }
        Err(e) => refused(&e),
    }
}

/// Says why an export stopped; the exit code.
fn refused(why: &str) -> i32 {
    eprintln!("ludus: not exported: {why}");
    1
}

/// Builds the browser runtime into `runtime` with `web/build.sh` from the sources this binary
/// was built from (a checkout, or cargo's copy of the published package), which needs the
/// web toolchain; says what is missing otherwise.
fn build_runtime(runtime: &Path) -> Result<(), String> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = sources.join("web").join("build.sh");
    if !script.is_file() {
        return Err(format!(
            "--build-runtime needs the Ludus sources this program was built from, and {} is \
             gone: build the runtime from a Ludus {} source checkout with `web/build.sh \
             examples/swarm {}`",
            sources.display(),
            crate::runtime::bundle::VERSION,
            runtime.display()
        ));
    }
    eprintln!(
        "building the browser runtime into {} (web/build.sh; a few minutes)",
        runtime.display()
    );
    let status = std::process::Command::new("bash")
        .arg(&script)
        .arg(sources.join("examples").join("swarm"))
        .arg(runtime)
        .current_dir(sources)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} failed (see above): it needs `rustup target add wasm32-unknown-unknown` and \
             clang-19, llvm-19 and wasi-libc (Debian: apt-get install clang-19 llvm-19 wasi-libc)",
            script.display()
        ))
    }
}

/// The runtime's page, starting `game.ludus` instead of the game compiled into the module,
/// followed by `then` (more script).
pub(crate) fn start_page(runtime: &Path, then: &str) -> Result<String, String> {
    let path = runtime.join("index.html");
    let page = read_runtime_file(&path).and_then(|b| {
        String::from_utf8(b).map_err(|_| format!("{}: not UTF-8 text", path.display()))
    })?;
    let start = r#"load("ludus.wasm");"#;
    if !page.contains(start) {
        return Err(format!(
            "{}: not a Ludus browser runtime's page (it does not load ludus.wasm)",
            path.display()
        ));
    }
    Ok(page.replace(
        start,
        &format!(r#"ludus_start("ludus.wasm", "game.ludus");{then}"#),
    ))
}

/// A file of the browser runtime, read up to [`MAX_RUNTIME_FILE_BYTES`].
fn read_runtime_file(path: &Path) -> Result<Vec<u8>, String> {
    ludus_content::read_regular(path, MAX_RUNTIME_FILE_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Copies the runtime into `out` with an index.html that starts the bundle, written beside it;
/// `guard` is the game folder, which `out` must stay outside (checked again once `out` exists).
fn write_site(bundle: &Bundle, runtime: &Path, out: &Path, guard: &Guarded) -> Result<(), String> {
    let missing = || {
        format!(
            "no browser runtime for Ludus {} in {}: build one from a Ludus {} source \
             checkout with `web/build.sh examples/swarm {}` (it needs `rustup target add \
             wasm32-unknown-unknown` and clang-19, llvm-19 and wasi-libc) or `ludus export web \
             --build-runtime` on such a machine, or name one with --runtime",
            crate::runtime::bundle::VERSION,
            runtime.display(),
            crate::runtime::bundle::VERSION,
            runtime.display()
        )
    };
    if RUNTIME_FILES
        .iter()
        .chain(["index.html"].iter())
        .any(|f| !runtime.join(f).is_file())
    {
        return Err(missing());
    }
    let page = start_page(runtime, "")?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let real = out
        .canonicalize()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let folder = guard.refuse_inside(out, real)?;
    let write = |name: &str, bytes: &[u8]| write_whole(&folder.join(name), bytes, false);
    for name in RUNTIME_FILES {
        write(name, &read_runtime_file(&runtime.join(name))?)?;
    }
    write("index.html", page.as_bytes())?;
    write("game.ludus", &bundle.encode())
}

fn desktop(dir: &Path, out: &Path, dev: bool) -> i32 {
    // The output is judged before anything else is done: a folder gets the game's name in it.
    let place = Guarded::new(dir).and_then(|guard| {
        let out = if out.is_dir() {
            out.join(pack::bundle_name(dir))
        } else if out.as_os_str().as_encoded_bytes().ends_with(b"/") {
            return Err(format!(
                "{} is not a folder: create it first, or name the executable without a `/`",
                out.display()
            ));
        } else {
            out.to_path_buf()
        };
        let place = guard.refuse_inside(&out, file_place(&out)?)?;
        Ok((out, place))
    });
    let (out, place) = match place {
        Ok(found) => found,
        Err(e) => return refused(&e),
    };
    if crate::cli::check::check(dir, crate::cli::check::Format::Text) != 0 {
        eprintln!("ludus: not exported: fix the errors above first");
        return 1;
    }
    let written = pack(dir).and_then(|mut packed| {
        packed.bundle.dev = dev;
        let size = write_executable(&packed.bundle, &place)?;
        Ok((packed, size))
    });
    match written {
        Ok((packed, size)) => {
            print!("{}", packed_list(&packed));
            println!(
                "{}: exported to {} ({:.1} MiB); run it to play",
                dir.display(),
                out.display(),
                size as f64 / (1024.0 * 1024.0)
            );
            0
        }
        Err(e) => refused(&e),
    }
}

/// Writes this executable (without any game it carries) plus `bundle` to `out`, executable;
/// returns the size written.
fn write_executable(bundle: &Bundle, out: &Path) -> Result<u64, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let mut program = std::fs::read(&exe)
        .map_err(|e| format!("cannot read this executable {}: {e}", exe.display()))?;
    if let Some(carried) = carried_len(&program) {
        program.truncate(program.len() - carried);
    }
    let packed = bundle.encode();
    program.extend_from_slice(&packed);
    program.extend_from_slice(&(packed.len() as u64).to_le_bytes());
    program.extend_from_slice(TRAILER);
    write_whole(out, &program, true)?;
    Ok(program.len() as u64)
}
