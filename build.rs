//! Embeds a game folder so `ludus run` with no folder, and the browser build, play it without
//! files on disk: examples/swarm by default, or the folder named by the `LUDUS_GAME_DIR`
//! environment variable at build time (relative paths are taken from this package's folder;
//! `web/build.sh` sets it).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(root, &path, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.push((rel, path));
        }
    }
}

fn main() {
    // Linux: the silent ALSA error handler (src/alsa.rs), a variadic C function.
    if env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rerun-if-changed=csrc/alsa_quiet.c");
        cc::Build::new()
            .file("csrc/alsa_quiet.c")
            .compile("ludus_alsa_quiet");
    }
    if env::var("TARGET").is_ok_and(|t| t == "wasm32-unknown-unknown") {
        // The C parts (Lua, wasi-libc) have constructors. Exported, they run once, when
        // web/ludus.js calls this before `main`; otherwise the linker would run them at the
        // start of every exported function.
        println!("cargo:rustc-link-arg-bins=--export=__wasm_call_ctors");
    }
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-env-changed=LUDUS_GAME_DIR");
    let root = match env::var_os("LUDUS_GAME_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => manifest.join(dir),
        None => manifest.join("examples").join("swarm"),
    };
    if !root.join("game.toml").is_file() {
        panic!(
            "LUDUS_GAME_DIR: {} is not a game folder (no game.toml in it)",
            root.display()
        );
    }
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    let name = root
        .canonicalize()
        .unwrap_or_else(|_| root.clone())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".into());
    let mut code = format!(
        "/// The embedded game's folder name.\npub const NAME: &str = {name:?};\n\n\
         /// The embedded game, `(path, bytes)` relative to its folder.\n\
         pub const FILES: &[(&str, &[u8])] = &[\n"
    );
    for (rel, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        code.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("bundled.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
