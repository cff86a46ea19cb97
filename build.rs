//! Embeds the bundled example game (examples/swarm) so `ludus run` with no folder, and the
//! browser build, play it without files on disk.

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
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest.join("examples").join("swarm");
    println!("cargo:rerun-if-changed=examples/swarm");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    let mut code = String::from(
        "/// The bundled example, `(path, bytes)` relative to its folder.\npub const FILES: &[(&str, &[u8])] = &[\n",
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
