//! A game folder loaded for running: its definition, scripts and module source.

use ludus_core::{Fault, Game, GameDef};
use ludus_script::{ModuleSource, Script, ScriptHost};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

/// A loaded game, ready to start as many times as needed (restarts, reloads, benchmarks).
#[derive(Clone)]
pub struct Project {
    /// Where it came from, for messages (`examples/swarm`).
    pub label: String,
    pub def: Arc<GameDef>,
    pub scripts: Vec<Script>,
    pub modules: Rc<dyn ModuleSource>,
    /// The bytes of each image in `def.assets` (`None`: could not be read).
    pub assets: Vec<Option<Vec<u8>>>,
}

/// Modules from files held in memory (the browser build, tests).
pub struct MemoryModules(pub BTreeMap<String, Vec<u8>>);

impl ModuleSource for MemoryModules {
    fn read(&self, path: &str) -> Result<String, String> {
        let bytes = self.0.get(path).ok_or("file not found")?;
        String::from_utf8(bytes.clone()).map_err(|_| "it is not valid UTF-8".to_string())
    }
}

/// Modules from the game folder on disk, under the same rules as content files: only regular
/// files inside the folder (symbolic links out of it, pipes and devices are refused before
/// anything is opened), at most [`ludus_content::MAX_FILE_BYTES`], UTF-8.
#[cfg(not(target_arch = "wasm32"))]
pub struct DirModules(pub std::path::PathBuf);

#[cfg(not(target_arch = "wasm32"))]
impl ModuleSource for DirModules {
    fn read(&self, path: &str) -> Result<String, String> {
        use ludus_content::{MAX_FILE_BYTES, ReadError, size_over, size_text};
        if path.is_empty()
            || path
                .split('/')
                .any(|c| c == ".." || c == "." || c.is_empty())
        {
            return Err("it is outside the game folder".into());
        }
        let limit = MAX_FILE_BYTES as u64;
        let bytes = ludus_content::read_inside(&self.0, path, limit).map_err(|e| match e {
            ReadError::TooLarge { size, .. } => format!(
                "it is too large ({}); modules may be at most {}",
                size_over(size, limit),
                size_text(limit)
            ),
            other => other.to_string(),
        })?;
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "it is not valid UTF-8 (byte {} is 0x{:02x})",
                e.utf8_error().valid_up_to(),
                e.as_bytes()
                    .get(e.utf8_error().valid_up_to())
                    .copied()
                    .unwrap_or(0)
            )
        })
    }
}

impl Project {
    fn from_loaded(
        label: String,
        loaded: ludus_content::LoadedGame,
        modules: Rc<dyn ModuleSource>,
        read: impl Fn(&str) -> Option<Vec<u8>>,
    ) -> Project {
        let assets = loaded.def.assets.iter().map(|a| read(a)).collect();
        Project {
            assets,
            label,
            def: Arc::new(loaded.def),
            scripts: loaded
                .scripts
                .into_iter()
                .map(|(path, text)| Script { path, text })
                .collect(),
            modules,
        }
    }

    /// Loads and validates a game folder; the error is the rendered diagnostics.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load(dir: &std::path::Path) -> Result<Project, String> {
        let loaded = ludus_content::load_dir(dir).map_err(|d| d.render())?;
        let modules: Rc<dyn ModuleSource> = Rc::new(DirModules(dir.to_path_buf()));
        let limit = ludus_content::MAX_FILE_BYTES as u64;
        let read = |p: &str| ludus_content::read_inside(dir, p, limit).ok();
        Ok(Project::from_loaded(
            dir.display().to_string(),
            loaded,
            modules,
            read,
        ))
    }

    /// Loads a game from files in memory (paths relative to the game folder).
    pub fn from_files(label: &str, files: BTreeMap<String, Vec<u8>>) -> Result<Project, String> {
        let mut source = ludus_content::MemorySource::new();
        for (path, bytes) in &files {
            source.insert(path.clone(), bytes.clone());
        }
        let loaded = ludus_content::load_game(&source).map_err(|d| d.render())?;
        let read = |p: &str| files.get(p).cloned();
        let project = Project::from_loaded(
            label.to_string(),
            loaded,
            Rc::new(MemoryModules(files.clone())),
            read,
        );
        Ok(project)
    }

    /// A new script host for this game's scripts.
    pub fn host(&self) -> Result<ScriptHost, Fault> {
        ScriptHost::new(
            self.def.clone(),
            self.scripts.clone(),
            Some(self.modules.clone()),
        )
    }

    /// Decoded images by asset id (`None`: missing or undecodable; drawn as a placeholder).
    pub fn images(&self) -> Vec<Option<(u16, u16, Vec<u8>)>> {
        self.assets
            .iter()
            .map(|bytes| {
                bytes
                    .as_deref()
                    .and_then(|b| crate::image::decode_png(b).ok())
            })
            .collect()
    }

    /// The same game with another world seed (`--seed`).
    pub fn with_seed(mut self, seed: u64) -> Project {
        let mut def = (*self.def).clone();
        def.seed = seed;
        self.def = Arc::new(def);
        self
    }

    /// Builds the game at its entry level, with `entities` extra stress entities.
    pub fn start(&self, entities: u32) -> Result<Game, Fault> {
        let host = self.host()?;
        Game::with_entities(self.def.clone(), Box::new(host), entities)
    }

    /// Like [`start`](Self::start), with script time measured by `clock` (nanoseconds).
    pub fn start_timed(&self, entities: u32, clock: fn() -> u64) -> Result<Game, Fault> {
        let host = self.host()?.with_clock(Box::new(clock));
        Game::with_entities(self.def.clone(), Box::new(host), entities)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn modules_are_read_under_the_content_rules_with_a_clear_reason() {
        let dir = std::env::temp_dir().join(format!("ludus-modules-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("game/scripts")).unwrap();
        let game = dir.join("game");
        std::fs::write(dir.join("outside.lua"), "return 'TOP-SECRET'\n").unwrap();
        std::fs::write(game.join("ok.lua"), "return {}\n").unwrap();
        std::os::unix::fs::symlink(dir.join("outside.lua"), game.join("linked.lua")).unwrap();
        let fifo = game.join("pipe.lua");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        std::fs::File::create(game.join("huge.lua"))
            .unwrap()
            .set_len(50 << 20)
            .unwrap();
        std::fs::write(game.join("latin1.lua"), b"-- caf\xe9\n").unwrap();
        let modules = DirModules(game.clone());
        assert_eq!(modules.read("ok.lua").as_deref(), Ok("return {}\n"));
        let cases = [
            (
                "linked.lua",
                "it is a symbolic link to a file outside the game folder",
            ),
            ("pipe.lua", "it is a named pipe (FIFO), not a regular file"),
            (
                "huge.lua",
                "it is too large (50 MiB); modules may be at most 8 MiB",
            ),
            ("latin1.lua", "it is not valid UTF-8 (byte 6 is 0xe9)"),
            ("missing.lua", "file not found"),
            ("../outside.lua", "it is outside the game folder"),
            ("scripts", "it is a folder, not a regular file"),
        ];
        for (path, expect) in cases {
            assert_eq!(modules.read(path), Err(expect.to_string()), "{path}");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
