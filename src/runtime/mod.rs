//! The platform-independent half of a running game: session, game, key map, presentation state
//! and the text the UI shows. The desktop window, the browser and the headless commands all
//! drive a [`Runner`] the same way: pump input, call [`Runner::frame`], draw what it exposes.

pub(crate) mod bundle;
pub(crate) mod bundled;
pub(crate) mod frames;
#[cfg(test)]
mod fuzz;
pub(crate) mod headless;
pub(crate) mod history;
// The page's test API: the browser build exports it, the desktop build only tests it.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) mod page;
pub(crate) mod particles;
pub(crate) mod project;
pub(crate) mod recorder;
mod reload;
pub(crate) mod rerun;
mod resim;
mod rewind;
pub(crate) mod strict_json;
pub(crate) mod verify;
pub(crate) mod work;

use crate::runtime::particles::Particles;
use crate::runtime::project::Project;
use ludus_core::*;

/// A sound the frame asks the audio service to play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoundCue {
    pub sound: SoundId,
    pub volume: f32,
    pub pitch: f32,
}

/// Per-tick cost, measured around each tick with the injected clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct TickCost {
    pub last_ns: u64,
    pub script_ns: u64,
    /// Exponential average, for a steady display.
    pub avg_ns: f64,
}

/// The game plus the measurements the overlay shows and its history; the session drives it.
pub struct TimedGame {
    pub game: Game,
    pub cost: TickCost,
    clock: fn() -> u64,
    pub history: history::History,
}

impl TimedGame {
    pub fn clock(&self) -> fn() -> u64 {
        self.clock
    }
}

impl Simulation for TimedGame {
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault> {
        let start = (self.clock)();
        self.game.options_mut().hash = history::History::wants_hash(&self.game);
        let result = self.game.tick(tick, input);
        match &result {
            Ok(_) => self.history.tick(&mut self.game, tick, input),
            Err(f) => self.history.fault(&mut self.game, tick, input, f),
        }
        let ns = (self.clock)().saturating_sub(start);
        self.cost.last_ns = ns;
        self.cost.script_ns = self.game.consequences().last_tick_ns().unwrap_or(0);
        self.cost.avg_ns = if self.cost.avg_ns == 0.0 {
            ns as f64
        } else {
            self.cost.avg_ns * 0.9 + ns as f64 * 0.1
        };
        result
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        let status = self.game.load(request);
        if matches!(status, LoadStatus::Ready(_)) {
            let switched = matches!(request, LoadRequest::Switch(_));
            self.history.level(&self.game, switched);
        }
        status
    }
}

/// See the module documentation.
pub struct Runner {
    project: Project,
    session: Session,
    timed: TimedGame,
    keys: KeyMap,
    /// The latest completed world as draw data. While faulted it is not refreshed: it is the
    /// last valid frame, the fault screen's background.
    frame: RenderFrame,
    particles: Particles,
    sounds: Vec<SoundCue>,
    /// The last music change not yet taken (`Some(None)`: stop).
    music: Option<Option<MusicId>>,
    overlay: bool,
    /// The script console (the last lines scripts printed) is shown.
    console: bool,
    last: Option<FrameReport>,
    log: Vec<String>,
    /// Lines logged since [`Runner::take_fresh_log`] was last called.
    fresh_log: Vec<String>,
    /// A reload of content or scripts that failed: shown until the next successful one.
    reload_error: Option<String>,
    /// Stress entities the game was started with (kept across reloads).
    stress: u32,
    /// Where the last recording (F8, or a fault's) went, or why it could not be kept.
    saved: Option<String>,
    /// How the app runs this game: kept when a reload makes a new runner.
    settings: Settings,
    /// A hot reload re-simulating the level with new content (see `resim.rs`).
    resim: Option<Box<resim::Resim>>,
    /// Recent frames to rewind through (see `rewind.rs`).
    past: rewind::Past,
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
}

impl Runner {
    pub fn new(project: Project, entities: u32, clock: fn() -> u64) -> Result<Runner, Fault> {
        let game = project.start_timed(entities, clock)?;
        Runner::with_game(project, game, clock)
    }

    pub fn with_game(project: Project, game: Game, clock: fn() -> u64) -> Result<Runner, Fault> {
        let header = headless::header(&project, project.dir.as_deref(), game.extra_entities());
        let history = history::History::new(header, &game);
        let def = project.def.clone();
        let entry = def
            .levels
            .get(def.entry_level)
            .map_or(Mode::Playing, |l| l.entry_mode);
        let session = Session::new(def.tick, def.actions.len(), entry)
            .map_err(|e| Fault::new(FaultKind::Load, format!("tick policy: {e}")))?;
        let keys = KeyMap::new(&def.actions, def.bindings.clone());
        let mut frame = RenderFrame::with_capacity(def.limits.draws as usize);
        frame.extract(game.world(), &def, Interpolation::Exact);
        Ok(Runner {
            project,
            session,
            timed: TimedGame {
                game,
                cost: TickCost::default(),
                clock,
                history,
            },
            keys,
            frame,
            particles: Particles::default(),
            sounds: Vec::new(),
            music: None,
            overlay: false,
            console: false,
            last: None,
            log: Vec::new(),
            fresh_log: Vec::new(),
            reload_error: None,
            stress: 0,
            saved: None,
            settings: Settings::default(),
            resim: None,
            past: rewind::Past::default(),
        })
    }

    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "the page adds none")
    )]
    pub fn set_stress(&mut self, entities: u32) {
        self.stress = entities;
    }

    pub fn def(&self) -> &GameDef {
        &self.project.def
    }

    /// A key went down. UI keys act at once; others go to gameplay through the key map.
    /// While a reload re-simulates, keys are ignored (and the log says so once).
    pub fn key_down(&mut self, key: &str) {
        if self.resim_ignores_input() {
            return;
        }
        match key {
            "p" => self.session.signal(Signal::TogglePause),
            "n" => self.session.signal(Signal::Step(TickInput::neutral())),
            "r" => self.session.signal(Signal::Restart),
            "f3" => self.overlay = !self.overlay,
            "f4" => self.console = !self.console,
            "f8" => self.save_history(),
            "backspace" => self.start_scrub(),
            _ => self.keys.key_down(key, self.session.bridge_mut()),
        }
    }

    pub fn key_up(&mut self, key: &str) {
        if self.resim.is_some() {
            return;
        }
        if key == "backspace" {
            self.end_scrub();
            return;
        }
        if !UI_KEYS.iter().any(|(k, _)| *k == key) {
            self.keys.key_up(key, self.session.bridge_mut());
        }
    }

    /// Focus left the window: every held key is cancelled and must be pressed again.
    pub fn focus_lost(&mut self) {
        self.keys.cancel_all(self.session.bridge_mut());
        self.session.signal(Signal::FocusLost);
    }

    /// One presentation callback at `now_ns`; `dt` is the frame's presentation time in seconds
    /// (for particles only: gameplay never sees it).
    pub fn frame(&mut self, now_ns: u64, dt: f32) -> FrameReport {
        if let (true, Some(last)) = (self.step_resim() || self.scrub_frame(), self.last) {
            // Re-simulating or rewinding: no ticks; the last frame, or a past one, is shown.
            return last;
        }
        let report = self.session.frame(now_ns, &mut self.timed);
        if report.faulted {
            // Every fault comes with its recording.
            self.save_history();
        }
        if report.published {
            self.particles.clear();
        }
        if self.session.mode() != Mode::Faulted {
            let turns = self.project.def.tick.mode == TickMode::Turns;
            let interpolation = match self.session.mode() {
                Mode::Playing if !report.loading && !turns => Interpolation::Alpha(report.alpha),
                _ => Interpolation::Exact,
            };
            self.frame
                .extract(self.timed.game.world(), &self.project.def, interpolation);
        }
        self.keep_past(&report);
        // Presentation requests of completed ticks, each exactly once.
        let def = self.project.def.clone();
        for request in self.timed.game.outbox().drain() {
            match request.what {
                Presentation::Effect { effect, pos, color } => {
                    if let Some(e) = def.effects.get(effect.0 as usize) {
                        self.particles.burst(e, pos, color, request.seq);
                    }
                }
                Presentation::Sound {
                    sound,
                    volume,
                    pitch,
                } => self.sounds.push(SoundCue {
                    sound,
                    volume,
                    pitch,
                }),
                Presentation::Music(m) => self.music = Some(m),
            }
        }
        self.particles.update(dt.clamp(0.0, 0.1));
        let lines = self.timed.game.consequences_mut().drain_log();
        self.fresh_log.extend(lines.iter().cloned());
        self.log.extend(lines);
        if self.log.len() > 200 {
            let excess = self.log.len() - 200;
            self.log.drain(..excess);
        }
        self.last = Some(report);
        report
    }

    /// The latest completed world as draw data (while rewinding, the past frame shown).
    pub fn drawn(&self) -> &RenderFrame {
        self.past.shown().unwrap_or(&self.frame)
    }

    pub fn particles(&self) -> &Particles {
        &self.particles
    }

    /// Sound cues since the last call, in order.
    pub fn take_sounds(&mut self) -> Vec<SoundCue> {
        std::mem::take(&mut self.sounds)
    }

    /// The music to switch to, if a tick since the last call asked (the last ask wins);
    /// `Some(None)`: stop the music.
    pub fn take_music(&mut self) -> Option<Option<MusicId>> {
        self.music.take()
    }

    /// The bytes of each music track's file by id.
    pub fn music_files(&self) -> &[Option<std::sync::Arc<[u8]>>] {
        &self.project.music_files
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, to pump input and lifecycle signals into.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Paces presented frames with `policy`.
    pub fn set_pacer(&mut self, policy: PacerPolicy) {
        self.settings.pacer = policy;
        self.session = self.session.clone().with_pacer(policy);
    }

    /// Runs background work on `workers` threads where the platform has threads (the window);
    /// headless runs keep the serial executor, whose timing is reproducible.
    pub fn use_threads(&mut self, workers: usize) {
        self.settings.threads = workers;
        if let Some(pool) = crate::platform::worker_pool(workers) {
            let jobs = self.def().limits.jobs;
            self.timed
                .game
                .set_completions(Completions::with_executor(jobs, pool));
        }
    }

    pub fn overlay(&self) -> bool {
        self.overlay
    }

    pub fn set_overlay(&mut self, shown: bool) {
        self.overlay = shown;
    }

    /// Whether the script console is shown (F4).
    pub fn console(&self) -> bool {
        self.console
    }

    /// The last `n` lines scripts printed, oldest first.
    pub fn recent_log(&self, n: usize) -> Vec<String> {
        self.log[self.log.len().saturating_sub(n)..].to_vec()
    }

    /// A reload that failed, shown until the next successful one.
    pub fn reload_error(&self) -> Option<&str> {
        self.reload_error.as_deref()
    }

    /// The bytes of each image file by asset id (`None`: could not be read).
    pub fn image_files(&self) -> &[Option<std::sync::Arc<[u8]>>] {
        &self.project.assets
    }

    /// The bytes of each font file by font id (`None` for bitmap fonts).
    pub fn font_files(&self) -> &[Option<std::sync::Arc<[u8]>>] {
        &self.project.font_files
    }

    /// The bytes of each sound file by sound id (`None` for tones).
    pub fn sound_files(&self) -> &[Option<std::sync::Arc<[u8]>>] {
        &self.project.sound_files
    }

    /// The pointer is at pixel (`x`, `y`) of a `w` x `h` view (`None`: it left the view); scripts
    /// read it in world units through the camera of the last frame drawn.
    pub fn pointer_at(&mut self, at: Option<(f32, f32, f32, f32)>) {
        let world = at.map(|(x, y, w, h)| {
            let cam = &self.frame.camera;
            let scale = (w / cam.view.x.max(1e-3)).min(h / cam.view.y.max(1e-3));
            [
                cam.center.x + (x - w * 0.5) / scale,
                cam.center.y + (y - h * 0.5) / scale,
            ]
        });
        self.session.input(InputEvent::Pointer(world));
    }

    /// Lines scripts logged since the last call (the window also prints them).
    pub fn take_fresh_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.fresh_log)
    }

    /// HUD lines with `{score}`, `{tick}` and game variables substituted, each with its
    /// declaration (place, size, colour).
    pub fn hud_lines(&self) -> Vec<(String, &HudLine)> {
        let world = self.timed.game.world();
        self.project
            .def
            .hud
            .iter()
            .map(|line| (substitute(&line.text, world), line))
            .collect()
    }

    /// A centred banner: title and lines (pause, game over, fault), if any.
    pub fn banner(&self) -> Option<(String, Vec<String>)> {
        if let Some(lines) = self.resim_banner() {
            return Some(("RE-SIMULATING".into(), lines));
        }
        if let Some(f) = self.session.fault() {
            let mut lines = vec![f.message.lines().next().unwrap_or("").to_string()];
            if let Some(loc) = &f.location {
                lines.push(format!("at {loc}"));
            }
            if f.tick > 0 {
                lines.push(format!("tick {}", f.tick));
            }
            if let Some(saved) = &self.saved {
                lines.extend(saved.lines().map(str::to_string));
            }
            lines.push("R to restart".into());
            return Some(("FAULT".into(), lines));
        }
        if let Some((_, msg)) = self.timed.game.world().game_over() {
            return Some((msg.to_uppercase(), vec!["R to restart".into()]));
        }
        if self.session.mode() == Mode::Paused {
            return Some((
                "PAUSED".into(),
                vec!["P to resume, N to step one tick".into()],
            ));
        }
        None
    }

    /// The help line: the game's actions with their keys, then the UI keys.
    pub fn help_line(&self) -> String {
        let def = &self.project.def;
        let mut parts = Vec::new();
        for (id, action) in def.actions.iter() {
            let keys: Vec<&str> = def
                .bindings
                .iter()
                .filter(|b| b.action == id)
                .map(|b| b.key.as_str())
                .take(4)
                .collect();
            if !keys.is_empty() {
                parts.push(format!("{} {}", keys.join("/"), action.name));
            }
        }
        parts.push("P pause".into());
        parts.push("N step".into());
        parts.push("R restart".into());
        parts.push("F3 overlay".into());
        parts.push("F4 console".into());
        parts.push("F8 record".into());
        parts.push("Backspace rewind".into());
        parts.join("  ")
    }

    /// The debug overlay's lines: the frame loop's own figures.
    pub fn overlay_lines(&self) -> Vec<String> {
        let Some(r) = self.last else {
            return Vec::new();
        };
        let ms = |ns: u64| ns as f64 / 1e6;
        let world = self.timed.game.world();
        let c = world.counters();
        let s = self.session.stats();
        let out = self.timed.game.outbox_stats();
        let cost = self.timed.cost;
        vec![
            format!(
                "frame {}  {}  tick {}  {}",
                r.frame,
                r.mode.name(),
                r.tick,
                match self.session.policy().mode {
                    TickMode::Turns => "turns: a tick per press".to_string(),
                    TickMode::Realtime => format!("alpha {:.2}", r.alpha),
                }
            ),
            format!(
                "raw {:.2} ms  accepted {:.2}  clamped {:.2}  excluded {:.2}",
                ms(r.time.raw_ns),
                ms(r.time.accepted_ns),
                ms(r.time.clamped_ns),
                ms(r.time.excluded_ns)
            ),
            format!(
                "ticks run {}  discarded {} (total {})",
                r.ticks_run, r.ticks_discarded, s.discarded_ticks
            ),
            format!(
                "tick cost {:.3} ms (avg {:.3})  scripts {:.3} ms",
                ms(cost.last_ns),
                cost.avg_ns / 1e6,
                ms(cost.script_ns)
            ),
            format!(
                "entities {}  contacts {}  timers {}",
                world.entity_count(),
                world.contacts().len(),
                world.timers().len()
            ),
            format!(
                "stale commands {}  filtered {}  outbox {} delivered {} dropped {}",
                c.stale_commands,
                c.pending_destroy_filtered,
                out.published,
                out.delivered,
                out.dropped
            ),
            format!(
                "draws {}  overflow {}  particles {}",
                self.frame.draws.len(),
                self.frame.overflow,
                self.particles.len()
            ),
            self.timed.history.describe(),
            self.past.timeline(self.timed.history.kept_ticks()),
        ]
    }
}

/// Replaces `{score}`, `{tick}` and `{name}` of game variables in a HUD line.
pub fn substitute(line: &str, world: &SimWorld) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let key = &after[..close];
        match key {
            "score" => out.push_str(&world.score().to_string()),
            "tick" => out.push_str(&world.tick().to_string()),
            "entities" => out.push_str(&world.entity_count().to_string()),
            _ => match world.vars().get(key) {
                Some(v) => out.push_str(&v.to_string()),
                None => out.push('-'),
            },
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}
