//! A game folder loaded for running: its definition, scripts and module source.

use crate::runtime::runner::RESERVED_KEYS;
use ludus_content::LoadOptions;
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
    /// The game folder it was read from (`None`: files in memory, the bundled game).
    pub dir: Option<String>,
    pub def: Arc<GameDef>,
    pub scripts: Vec<Script>,
    pub modules: Rc<dyn ModuleSource>,
    /// The bytes of each image in `def.images` (`None`: could not be read). Declarations of
    /// the same file share its bytes, here and below.
    pub assets: Vec<Option<Arc<[u8]>>>,
    /// The bytes of each sound file in `def.sounds` (`None`: a tone, or could not be read).
    pub sound_files: Vec<Option<Arc<[u8]>>>,
    /// The bytes of each track's file in `def.music`.
    pub music_files: Vec<Option<Arc<[u8]>>>,
    /// The bytes of each font file in `def.fonts` (`None`: a bitmap font).
    pub font_files: Vec<Option<Arc<[u8]>>>,
    /// The names the HUD reads that the content does not declare (`ludus check` reports those
    /// no script sets).
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus check` reads them")
    )]
    pub hud_names: Vec<ludus_content::HudName>,
    /// A player's game (an exported bundle, not made with `--dev`): it runs in release mode,
    /// without the developer's view (see [`Runner::release`](crate::runtime::Runner::release)).
    pub release: bool,
}

/// How the app loads every game: the keys it keeps for itself may not be bound.
pub const LOAD_OPTIONS: LoadOptions<'static> = LoadOptions {
    reserved_keys: &RESERVED_KEYS,
};

/// Modules from files held in memory (the browser build, tests).
pub struct MemoryModules(pub BTreeMap<String, Vec<u8>>);

impl ModuleSource for MemoryModules {
    fn read(&self, path: &str) -> Result<String, String> {
        let bytes = self.0.get(path).ok_or("file not found")?;
        String::from_utf8(bytes.clone()).map_err(|_| "it is not valid UTF-8".to_string())
    }
}

impl Project {
    /// A loaded game with the bytes of its images, sounds and fonts as the loader checked
    /// them (each file's bytes once, shared by every declaration of it).
    fn from_loaded(
        label: String,
        loaded: ludus_content::LoadedGame,
        modules: Rc<dyn ModuleSource>,
    ) -> Project {
        let def = &loaded.def;
        let read = |p: &str| loaded.assets.get(p).cloned();
        let assets = def.images.iter().map(|i| read(&i.file)).collect();
        // Each file's bytes by id (`None` for entries without a file).
        let files = |paths: &mut dyn Iterator<Item = Option<&str>>| -> Vec<Option<Arc<[u8]>>> {
            paths.map(|p| p.and_then(read)).collect()
        };
        let sound_files = files(&mut def.sounds.iter().map(|s| s.file.as_deref()));
        let music_files = files(&mut def.music.iter().map(|s| s.file.as_deref()));
        let font_files = files(&mut def.fonts.iter().map(|f| match &f.source {
            ludus_core::FontSource::File { file, .. } => Some(file.as_str()),
            ludus_core::FontSource::Sheet { .. } => None,
        }));
        Project {
            assets,
            sound_files,
            music_files,
            font_files,
            hud_names: loaded.hud_names,
            release: false,
            dir: None,
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

    /// Loads a game from files in memory (paths relative to the game folder).
    pub fn from_files(label: &str, files: BTreeMap<String, Vec<u8>>) -> Result<Project, String> {
        let mut source = ludus_content::MemorySource::new();
        for (path, bytes) in &files {
            source.insert(path.clone(), bytes.clone());
        }
        let loaded =
            ludus_content::load_game_with(&source, &LOAD_OPTIONS).map_err(|d| d.render())?;
        let project = Project::from_loaded(
            label.to_string(),
            loaded,
            Rc::new(MemoryModules(files.clone())),
        );
        Ok(project)
    }

    /// Loads and validates a game folder (where the platform has folders); the error is the
    /// rendered diagnostics.
    pub fn from_folder(dir: &std::path::Path) -> Result<Project, String> {
        let folder = crate::platform::load_folder(dir, &LOAD_OPTIONS)?;
        let label = dir.display().to_string();
        let mut project = Project::from_loaded(label.clone(), folder.loaded, folder.modules);
        project.dir = Some(label);
        Ok(project)
    }

    /// Loads a game bundle, refusing one whose files load as other content than it was packed
    /// from (its content hash differs).
    pub fn from_bundle(bundle: crate::runtime::bundle::Bundle) -> Result<Project, String> {
        let mut project = Project::from_files(&bundle.name, bundle.files)?;
        project.release = !bundle.dev;
        if project.def.content_hash != bundle.content_hash {
            return Err(format!(
                "{}: the game bundle's files do not load as the game it was packed from \
                 (content hash {:016x}, expected {:016x})",
                bundle.name, project.def.content_hash, bundle.content_hash
            ));
        }
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
