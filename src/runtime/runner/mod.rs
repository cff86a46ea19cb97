//! The platform-independent half of a running game. The desktop window and the browser drive a
//! [`Runner`] the same way: pump input, call [`Runner::frame`], draw what it exposes.
//!
//! - `play.rs`: the play state ([`PlayState`]): the game, its session and key map, and what
//!   completed ticks present;
//! - `ui.rs`: the UI state ([`UiState`]): what the developer's view shows over the game;
//!   `view.rs`: the view's text; `ui_keys.rs`: the keys the app keeps for itself;
//! - time travel: `reload.rs` (in place), `resim.rs` (hot reload by re-simulation), `rewind.rs`
//!   (through the ring of past frames in `past.rs`);
//! - `playback.rs`: input played by tick instead of the keyboard's (`ludus run --input`,
//!   `ludus replay --window`);
//! - `profiler.rs`: the overlay's profiler page;
//! - `inspect.rs`: the entity inspector (F6), what it follows and its panels;
//! - `pads.rs`: gamepads' keys, which take values and go with their pad;
//! - `touch.rs`: a touch screen's fingers, carried out on the game's input.
//!
//! Files below use the ones above them, never back: this file names only `play`, `ui` and
//! `ui_keys`; the others add methods to [`Runner`].

mod inspect;
#[cfg(test)]
mod inspect_tests;
mod pads;
#[cfg(test)]
mod pads_tests;
mod past;
mod play;
mod playback;
#[cfg(test)]
mod playback_tests;
mod profiler;
mod reload;
mod resim;
mod rewind;
#[cfg(test)]
mod tests;
mod touch;
#[cfg(test)]
mod touch_tests;
mod ui;
mod ui_keys;
mod view;

pub use play::{PlayState, SoundCue};
pub use playback::Stop;
pub use ui::UiState;
pub use ui_keys::{RESERVED_KEYS, UiAction, ui_action};

use crate::platform::SavePlace;
use crate::runtime::project::Project;
use crate::runtime::rerun::Rerun;
use crate::runtime::saved::{self, Keeper};
use ludus_content::Key;
use ludus_core::*;

/// A game played with the developer's view over it: the play state, the UI state, and how a
/// changed game is reloaded.
///
/// Invariants: the play state alone decides what the game does ([`UiState`] is never read
/// by a tick). A re-simulation, a rewind or a content reload makes a new runner, which takes
/// over the settings and the view's toggles and log; only a scripts-only reload (`--reload
/// keep`) changes the play state in place, swapping the project and the script host under
/// the running world. While a re-simulation runs (`resim`), no tick of the play state runs
/// and keys are ignored.
pub struct Runner {
    play: PlayState,
    ui: UiState,
    /// A hot reload re-simulating the level with new content (see `resim.rs`).
    resim: Option<Box<Resim>>,
    /// How the app runs this game: kept when a reload makes a new runner.
    settings: Settings,
}

/// A re-simulation in progress.
struct Resim {
    rerun: Rerun,
    project: Project,
    started_ns: u64,
    /// Keys pressed meanwhile (ignored).
    ignored: u64,
    /// A rewind of this many ticks (same content: the result must equal the recording).
    rewind: Option<u64>,
}

/// How `ludus run` reloads a changed game (see `resim.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::ValueEnum))]
pub enum Reload {
    /// The level's kept input runs again on the new content, up to the tick shown.
    #[default]
    Resimulate,
    /// A new Lua VM for the running world (scripts); a TOML change restarts the level.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "the page does not reload")
    )]
    Keep,
}

/// What the app asked of a runner, carried over to the runner a reload makes.
#[derive(Clone, Copy, Debug, Default)]
struct Settings {
    pacer: PacerPolicy,
    /// Worker threads for background work (0: the serial executor).
    threads: usize,
    reload: Reload,
    /// Stress entities the game was started with (kept across reloads).
    stress: u32,
    /// Release mode (an exported game): no developer view (see [`Runner::release`]).
    release: bool,
}

impl Runner {
    pub fn new(project: Project, entities: u32, clock: fn() -> u64) -> Result<Runner, Fault> {
        let game = project.start_timed(entities, clock)?;
        Runner::with_game(project, game, clock)
    }

    /// A runner of `game`; a player's game (see [`Project::release`]) starts in release mode.
    fn with_game(project: Project, game: Game, clock: fn() -> u64) -> Result<Runner, Fault> {
        let release = project.release;
        Ok(Runner {
            play: PlayState::new(project, game, clock)?,
            ui: UiState::default(),
            resim: None,
            settings: Settings {
                release,
                ..Settings::default()
            },
        })
    }

    /// Takes over what the app set on `old` (settings, the view's toggles and log).
    fn adopt(&mut self, old: &mut Runner, settings: Settings) {
        self.settings = settings;
        self.set_pacer(settings.pacer);
        if settings.threads > 0 {
            self.use_threads(settings.threads);
        }
        self.ui = UiState::carried(&mut old.ui);
        self.play.saves = old.play.saves.take();
        self.play.timed.playback = old.play.timed.playback.take();
        self.play.timed.trace = old.play.timed.trace.take();
        let game = &self.play.timed.game;
        self.play.timed.watch = old.play.timed.watch.take().map(|w| w.carried(game));
    }

    /// Keeps the game's saved data at `place` (the window and the page): the game starts
    /// from what is kept there (what cannot be used is a warning and an empty store), and it
    /// is written again after every frame whose ticks changed it. Called before the first
    /// tick.
    pub fn keep_saved(&mut self, place: SavePlace) {
        let (store, warning) = saved::load(&place, self.def().limits.save_bytes);
        self.ui.fresh.extend(warning);
        if let Err(f) = self.play.start_saved(store.clone()) {
            self.ui.fresh.push(f.to_string());
        }
        self.play.saves = Some(Keeper::new(place, store));
    }

    /// The game being played.
    pub fn play(&self) -> &PlayState {
        &self.play
    }

    pub fn play_mut(&mut self) -> &mut PlayState {
        &mut self.play
    }

    /// What the developer's view shows.
    pub fn ui(&self) -> &UiState {
        &self.ui
    }

    pub fn ui_mut(&mut self) -> &mut UiState {
        &mut self.ui
    }

    pub fn def(&self) -> &GameDef {
        self.play.def()
    }

    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "the page adds none")
    )]
    pub fn set_stress(&mut self, entities: u32) {
        self.settings.stress = entities;
    }

    /// Whether the game runs in release mode, as exported games do (a [`Project::release`]
    /// game): no help line, no developer keys (step, overlay, inspector, console, record,
    /// rewind), no developer text on the banners, no recording written on a fault; P and R
    /// pause and restart only where the game names actions for them (`[flow]`). Otherwise,
    /// `ludus run`'s developer view.
    pub fn release(&self) -> bool {
        self.settings.release
    }

    /// What `key` does here, if the app keeps it: in release mode only quitting, and pausing
    /// and restarting where the game names actions for them.
    fn kept(&self, key: Key) -> Option<UiAction> {
        let action = ui_action(key)?;
        let flow = &self.def().flow;
        let kept = !self.settings.release
            || match action {
                UiAction::Pause => flow.pause.is_some(),
                UiAction::Restart => flow.restart.is_some(),
                UiAction::Quit => true,
                _ => false,
            };
        kept.then_some(action)
    }

    pub fn set_reload(&mut self, mode: Reload) {
        self.settings.reload = mode;
    }

    /// Paces presented frames with `policy`.
    pub fn set_pacer(&mut self, policy: PacerPolicy) {
        self.settings.pacer = policy;
        let play = &mut self.play;
        play.session = play.session.clone().with_pacer(policy);
    }

    /// Runs background work on `workers` threads where the platform has threads (the window);
    /// headless runs and playbacks keep the serial executor, whose timing is reproducible (or
    /// the recording's results).
    pub fn use_threads(&mut self, workers: usize) {
        if self.plays_back() {
            return;
        }
        self.settings.threads = workers;
        if let Some(pool) = crate::platform::worker_pool(workers) {
            let jobs = self.def().limits.jobs;
            self.play
                .timed
                .game
                .set_completions(Completions::with_executor(jobs, pool));
        }
    }

    /// A key went down. Keys the app keeps act at once (in release mode, few: see
    /// [`Runner::release`]); a click resumes a paused game; a key of the game's own pause
    /// or restart action is that signal (see [`FlowActions`]); others go to gameplay through
    /// the key map. While a reload re-simulates, keys are ignored (and the log says so once).
    /// A key other than a mouse button hides the on-screen controls until the next touch.
    pub fn key_down(&mut self, key: Key) {
        self.key_down_to(key, 1.0);
    }

    /// A key went down with `value` (a pad's stick or trigger leaving rest; a key's is 1), as
    /// [`Runner::key_down`] says.
    fn key_down_to(&mut self, key: Key, value: f32) {
        if !key.name().starts_with("mouse_") {
            // A keyboard or a pad is in use: the on-screen controls hide until the next touch.
            self.play.touch.hide();
        }
        if self.resim_ignores_input() {
            return;
        }
        let kept = self.kept(key);
        let flow = self.play.session.flow();
        let session = &mut self.play.session;
        if kept.is_none() && session.mode() == Mode::Paused && key.name().starts_with("mouse_") {
            session.signal(Signal::Resume);
            return;
        }
        if !self.playback_passes(key, kept) {
            return;
        }
        let session = &mut self.play.session;
        if let Some(a) = self.play.keys.actions_of(key.name()).find(|a| flow.has(*a)) {
            session.input(InputEvent::Press(a));
            return;
        }
        match kept {
            Some(UiAction::Pause) => session.signal(Signal::TogglePause),
            Some(UiAction::Step) => session.signal(Signal::StepGathered),
            Some(UiAction::Restart) => session.signal(Signal::Restart),
            Some(UiAction::Overlay) => self.ui.next_overlay_page(),
            Some(UiAction::Console) => self.ui.console = !self.ui.console,
            Some(UiAction::Inspect) => self.toggle_inspector(),
            Some(UiAction::Record) => self.save_history(),
            Some(UiAction::Rewind) => self.play.start_scrub(),
            // The app quits, where the platform lets it.
            Some(UiAction::Quit) => {}
            None => self
                .play
                .keys
                .key_value(key.name(), value, session.bridge_mut()),
        }
    }

    pub fn key_up(&mut self, key: Key) {
        if self.resim.is_some() {
            return;
        }
        if self.plays_back() && self.kept(key).is_none() {
            // The game's keys do not reach it (its pause action acts on the press).
            return;
        }
        match self.kept(key) {
            Some(UiAction::Rewind) => self.end_scrub(),
            Some(_) => {}
            None => {
                let play = &mut self.play;
                play.keys.key_up(key.name(), play.session.bridge_mut());
            }
        }
    }

    /// Focus left the window: every held key is cancelled and must be pressed again.
    pub fn focus_lost(&mut self) {
        self.lift_all_touches();
        let play = &mut self.play;
        play.keys.cancel_all(play.session.bridge_mut());
        play.session.signal(Signal::FocusLost);
    }

    /// One presentation callback at `now_ns`; `dt` is the frame's presentation time in seconds
    /// (for particles only: gameplay never sees it).
    pub fn frame(&mut self, now_ns: u64, dt: f32) -> FrameReport {
        if let (true, Some(last)) = (self.step_resim() || self.play.scrub_frame(), self.play.last) {
            // Re-simulating or rewinding: no ticks; the last frame, or a past one, is shown.
            return last;
        }
        self.pump_playback(now_ns);
        if self.ui.profiler() != self.play.profile.is_some() {
            self.play.set_profiling(self.ui.profiler());
        }
        let report = self.play.present(now_ns, dt);
        if report.faulted && !self.settings.release && !self.plays_back() {
            // Every fault comes with its recording (a player's game writes none; a playback
            // is one already).
            self.save_history();
        }
        // The saved data as completed ticks left it (a faulted tick completed nothing).
        if let Some(saves) = &mut self.play.saves
            && self.play.session.mode() != Mode::Faulted
            && let Some(e) = saves.update(self.play.timed.game.world().saved())
        {
            self.ui.fresh.push(e);
        }
        let game = &mut self.play.timed.game;
        let mut lines = game.consequences_mut().drain_log();
        lines.extend(game.take_warnings());
        self.ui.scripts_printed(lines);
        let game = &self.play.timed.game;
        self.ui.unattached(game.world(), game.def());
        self.play.last = Some(report);
        report
    }

    /// Keeps the history as a recording (F8, and every fault): a file in the game folder's
    /// `recordings/` (a download in the browser). Says where, or why not, in the log and on
    /// the fault screen.
    fn save_history(&mut self) {
        let (project, history) = (&self.play.project, &self.play.timed.history);
        let saved = match history.recording() {
            Some(rec) => crate::platform::save_recording(
                project.dir.as_deref(),
                &project.def.name,
                &rec.to_bytes(),
            )
            .map(|place| format!("recording written: {place}\nreplay it: ludus replay {place}")),
            None => Err(history
                .stopped
                .clone()
                .unwrap_or_else(|| "there is no history to record".into())),
        };
        let line = saved.unwrap_or_else(|e| format!("no recording kept: {e}"));
        // To the terminal (the fault screen shows it too); the console holds scripts' lines.
        self.ui.fresh.push(line.clone());
        self.ui.saved = Some(line);
    }
}
