//! A game folder's editor set-up: the files that let an editor complete and check its Lua and
//! its TOML (docs/editors.md).
//!
//! | file | read by | made from |
//! | --- | --- | --- |
//! | `.luarc.json` | lua-language-server | (the same for every game) |
//! | `.ludus/ludus.d.lua` | lua-language-server | the API and event lists, the game's names |
//! | `.ludus/game.schema.json`, `level.schema.json`, `archetypes.schema.json` | Taplo (Even Better TOML), through a file's `#:schema` line | the content schema |
//!
//! `ludus stubs GAME_DIR` writes them, `ludus new` too, and `ludus run` rewrites them when the
//! game's content changes, for a game that has them (a `.ludus/ludus.d.lua`). A file is
//! written only when its text changed (through a file beside it, renamed over it), so an
//! editor watching it reloads only what is new. `ludus schema [FILE]` prints a schema.

pub mod lua;
#[cfg(test)]
mod tests;

use ludus_content::{SchemaFile, json_schema};
use ludus_core::GameDef;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The folder of a game that holds what its editor reads; hidden, so `ludus export` leaves
/// it out, and the game's reload does not watch it.
pub const FOLDER: &str = ".ludus";

/// The stubs, in [`FOLDER`]: their presence says the game keeps an editor set-up.
const STUBS: &str = "ludus.d.lua";

/// The editor files of a game (paths relative to its folder) and their texts.
pub fn files(def: &GameDef) -> Vec<(PathBuf, String)> {
    let mut out = vec![
        (PathBuf::from(".luarc.json"), lua::luarc()),
        (Path::new(FOLDER).join(STUBS), lua::stubs(def)),
    ];
    for file in SchemaFile::ALL {
        out.push((Path::new(FOLDER).join(file.file_name()), schema_text(file)));
    }
    out
}

/// A schema as its file and `ludus schema` hold it.
fn schema_text(file: SchemaFile) -> String {
    let mut text = serde_json::to_string_pretty(&json_schema(file)).expect("a JSON value");
    text.push('\n');
    text
}

/// The `#:schema` line for a kind of TOML file `depth` folders below the game folder
/// (`levels/arena.toml` is 1 below): Taplo reads a relative path from the file's folder.
pub fn schema_line(file: SchemaFile, depth: usize) -> String {
    format!(
        "#:schema {}{FOLDER}/{}",
        "../".repeat(depth),
        file.file_name()
    )
}

/// Writes the game's editor files whose text changed; returns the paths written.
pub fn write(dir: &Path, def: &GameDef) -> Result<Vec<PathBuf>, String> {
    let folder = dir.join(FOLDER);
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let mut written = Vec::new();
    for (path, text) in files(def) {
        let full = dir.join(&path);
        if same_text(&full, &text) {
            continue;
        }
        let part = full.with_extension("part");
        std::fs::write(&part, &text)
            .and_then(|_| std::fs::rename(&part, &full))
            .map_err(|e| format!("cannot write {}: {e}", full.display()))?;
        written.push(full);
    }
    Ok(written)
}

/// Whether the file holds exactly `text` (read only when its size says it may).
fn same_text(path: &Path, text: &str) -> bool {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() && m.len() == text.len() as u64 => {
            std::fs::read(path).is_ok_and(|bytes| bytes == text.as_bytes())
        }
        _ => false,
    }
}

/// Whether the game keeps an editor set-up (`ludus stubs` or `ludus new` made it).
pub fn kept(dir: &Path) -> bool {
    dir.join(FOLDER).join(STUBS).is_file()
}

/// `ludus stubs GAME_DIR`: writes the editor files; 1 when the game does not load (its
/// diagnostics are printed: its names are what the stubs need) or a file cannot be written.
pub fn stubs(dir: &Path) -> i32 {
    let project = match crate::cli::common::load(Some(dir)) {
        Ok(p) => p,
        Err(code) => {
            if dir.is_dir() {
                eprintln!(
                    "ludus: the editor files take the game's names from its content: fix the errors above, then run `ludus stubs` again"
                );
            }
            return code;
        }
    };
    match write(dir, &project.def) {
        Ok(written) if written.is_empty() => {
            println!("the editor files of {} are up to date", dir.display());
            0
        }
        Ok(written) => {
            for path in written {
                println!("wrote {}", path.display());
            }
            0
        }
        Err(e) => {
            eprintln!("ludus: {e}");
            1
        }
    }
}

/// `ludus schema [FILE]`: prints the JSON Schema of a kind of file (`game` when none).
pub fn schema(file: &str) -> i32 {
    match SchemaFile::ALL.into_iter().find(|f| f.name() == file) {
        Some(f) => {
            print!("{}", schema_text(f));
            0
        }
        None => {
            let names: Vec<&str> = SchemaFile::ALL.iter().map(|f| f.name()).collect();
            eprintln!(
                "ludus: no schema is named `{file}`: give one of {}",
                names.join(", ")
            );
            2
        }
    }
}

/// The names `ludus schema` takes.
pub fn schema_names() -> [&'static str; 3] {
    SchemaFile::ALL.map(|f| f.name())
}

/// Keeps a game's editor files current until it is dropped (see [`keep_fresh`]).
pub struct Refresher {
    stop: Arc<AtomicBool>,
}

impl Drop for Refresher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// For `ludus run`: rewrites the editor files of a game that keeps them, now and (when
/// `watch`) after each change of its content until the [`Refresher`] is dropped, from a
/// thread of its own that loads the content again (the window's reload is untouched).
/// Problems go to the log; content that does not load leaves the files of its last good load.
pub fn keep_fresh(dir: Option<&Path>, def: &GameDef, watch: bool) -> Option<Refresher> {
    let dir = dir.filter(|d| kept(d))?;
    let not_kept =
        |e: String| crate::platform::log(&format!("ludus: the editor files are not kept: {e}"));
    if let Err(e) = write(dir, def) {
        not_kept(e);
        return None;
    }
    if !watch {
        return None;
    }
    let mut watcher = crate::platform::Watcher::new(dir)
        .map_err(|e| not_kept(e.to_string()))
        .ok()?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let dir = dir.to_path_buf();
    let spawned = std::thread::Builder::new()
        .name("editor files".into())
        .spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(200));
                if !watcher.changed() {
                    continue;
                }
                if let Ok(loaded) = ludus_content::load_dir(&dir)
                    && let Err(e) = write(&dir, &loaded.def)
                {
                    not_kept(e);
                    return;
                }
            }
        });
    match spawned {
        Ok(_) => Some(Refresher { stop }),
        Err(e) => {
            not_kept(e.to_string());
            None
        }
    }
}
