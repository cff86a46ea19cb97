//! The play state of a running game: the project, the session driving the timed game, the key
//! map, and what completed ticks present (the frame, particles, sound and music cues).

use crate::runtime::history::History;
use crate::runtime::inspect::{Watch, world_at};
use crate::runtime::particles::Particles;
use crate::runtime::playback::Playback;
use crate::runtime::project::Project;
use crate::runtime::runner::past::Past;
use crate::runtime::saved::Keeper;
use crate::runtime::trace::TickTrace;
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
/// With a playback, each tick's input is the playback's instead of the session's, and the
/// playback says what comes after the tick (see [`Playback`]); with a trace, every completed
/// tick is hashed and written to it.
pub struct TimedGame {
    pub game: Game,
    pub cost: TickCost,
    clock: fn() -> u64,
    pub history: History,
    pub playback: Option<Playback>,
    pub trace: Option<TickTrace>,
    /// The entity the inspector follows, fed every completed tick (never read by one).
    pub watch: Option<Watch>,
}

impl TimedGame {
    pub fn new(game: Game, clock: fn() -> u64, history: History) -> TimedGame {
        TimedGame {
            game,
            cost: TickCost::default(),
            clock,
            history,
            playback: None,
            trace: None,
            watch: None,
        }
    }

    pub fn clock(&self) -> fn() -> u64 {
        self.clock
    }
}

impl Simulation for TimedGame {
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault> {
        let start = (self.clock)();
        let played;
        let input = match &mut self.playback {
            Some(p) => {
                played = p.next_input(self.game.world().tick());
                &played
            }
            None => input,
        };
        self.game.options_mut().hash = History::wants_hash(&self.game) || self.trace.is_some();
        let result = self.game.tick(tick, input);
        match &result {
            Ok(_) => {
                self.history.tick(&mut self.game, tick, input);
                if let (Some(t), Some(r)) = (&mut self.trace, self.game.last_report()) {
                    t.tick(tick, r.hash.unwrap_or_default(), r.entities);
                }
                if let Some(w) = &mut self.watch {
                    w.after_tick(&self.game);
                }
            }
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
        match (result, &mut self.playback) {
            (Ok(flow), Some(p)) => Ok(p.after_tick(flow)),
            (result, _) => result,
        }
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        let request = match &self.playback {
            Some(p) => p.load_request(request),
            None => request.clone(),
        };
        let status = self.game.load(&request);
        if matches!(status, LoadStatus::Ready(_)) {
            let switched = matches!(request, LoadRequest::Switch(_));
            self.history.level(&self.game, switched);
            if let Some(p) = &mut self.playback {
                p.level_loaded(switched, &mut self.game);
                // The game's own pauses do not stop a playback.
                return LoadStatus::Ready(Mode::Playing);
            }
        }
        status
    }
}

/// The game being played and what it presents.
///
/// Invariants:
/// - `frame` is the game's world at its last completed tick as draw data (interpolated while
///   playing in real time). While faulted it is not refreshed: it is the last valid frame,
///   the fault screen's background.
/// - `particles`, `sounds` and `music` come only from the outbox of completed ticks, each
///   request exactly once; cues wait here until the app takes them.
/// - `keys` maps keys to `project.def`'s actions; `past` holds frames of the current level's
///   history only (a published level clears it).
/// - Ticks read nothing else: what the developer's view holds ([`super::UiState`]) never
///   reaches the game, so nothing shown or toggled there changes a state hash.
pub struct PlayState {
    pub(super) project: Project,
    pub(super) session: Session,
    pub(super) timed: TimedGame,
    pub(super) keys: KeyMap,
    pub(super) frame: RenderFrame,
    pub(super) particles: Particles,
    pub(super) sounds: Vec<SoundCue>,
    /// The last music change not yet taken (`Some(None)`: stop).
    pub(super) music: Option<Option<MusicId>>,
    /// The last frame's report (`None` before the first frame).
    pub(super) last: Option<FrameReport>,
    /// Recent frames to rewind through (see `rewind.rs`).
    pub(super) past: Past,
    /// Where the game's saved data is kept between runs, if it is (see `runtime/saved.rs`).
    pub(super) saves: Option<Keeper>,
    /// What the profiler page adds up, while it is shown (see `profiler.rs`).
    pub(super) profile: Option<WindowProfile>,
    /// The world, and its count of script binds (`ludus.bind`), that `keys` follows.
    pub(super) bound: (WorldId, u64),
    /// The fingers on a touch screen and the controls they drive (see `touch.rs`).
    pub(super) touch: crate::runtime::touch::Touchscreen,
}

/// What the profiler page adds up (`profiler.rs`): the table filling, the last full one
/// shown, and a buffer for the spans of a frame.
#[derive(Default)]
pub struct WindowProfile {
    pub(super) filling: ludus_core::profile::ProfileTable,
    pub(super) shown: Option<ludus_core::profile::ProfileTable>,
    pub(super) spans: Vec<ludus_core::profile::Span>,
}

impl PlayState {
    /// `game` at its current tick, ready to play `project`; the history starts at its level.
    pub(super) fn new(project: Project, game: Game, clock: fn() -> u64) -> Result<Self, Fault> {
        let header = crate::runtime::headless::header(
            &project,
            project.dir.as_deref(),
            game.extra_entities(),
        );
        let history = History::new(header, &game);
        let def = project.def.clone();
        let entry = def
            .levels
            .get(def.entry_level)
            .map_or(Mode::Playing, |l| l.entry_mode);
        let session = Session::new(def.tick, def.actions.len(), entry)
            .map_err(|e| Fault::new(FaultKind::Load, format!("tick policy: {e}")))?
            .with_flow(def.flow.actions());
        let keys = KeyMap::new(&def.actions, def.bindings.clone());
        let mut frame = RenderFrame::with_capacity(def.limits.draws as usize);
        frame.extract(game.world(), &def, Interpolation::Exact);
        Ok(PlayState {
            project,
            session,
            timed: TimedGame::new(game, clock, history),
            keys,
            frame,
            particles: Particles::default(),
            sounds: Vec::new(),
            music: None,
            last: None,
            past: Past::default(),
            saves: None,
            profile: None,
            bound: (WorldId(1), 0),
            touch: Default::default(),
        })
    }

    /// Gives the game, before its first tick, the saved data it starts from; its history
    /// starts again from it.
    pub(super) fn start_saved(&mut self, store: SaveStore) -> Result<(), Fault> {
        let timed = &mut self.timed;
        timed.game.set_saved(store)?;
        timed.history.level(&timed.game, false);
        Ok(())
    }

    /// The game as loaded: its definition and the bytes of its images, sounds and fonts.
    pub fn project(&self) -> &Project {
        &self.project
    }

    pub fn def(&self) -> &GameDef {
        &self.project.def
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, to pump input and lifecycle signals into.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Runs the session's frame, then takes what its completed ticks present: the frame to
    /// draw, particles, sound and music cues, each request once.
    pub(super) fn present(&mut self, now_ns: u64, dt: f32) -> FrameReport {
        let report = self.session.frame(now_ns, &mut self.timed);
        if report.published {
            self.particles.clear();
        }
        self.follow_bindings();
        if self.session.mode() != Mode::Faulted {
            let turns = self.project.def.tick.mode == TickMode::Turns;
            let interpolation = match self.session.mode() {
                Mode::Playing if !report.loading && !turns => Interpolation::Alpha(report.alpha),
                _ => Interpolation::Exact,
            };
            let start = self.profile.as_ref().map(|_| (self.timed.clock())());
            self.frame
                .extract(self.timed.game.world(), &self.project.def, interpolation);
            if let Some(start) = start {
                let extract_ns = (self.timed.clock())().saturating_sub(start);
                self.profiled(start, extract_ns);
            }
        }
        self.keep_past(&report);
        // Presentation requests of completed ticks, each exactly once. During a playback,
        // particles age by ticks, not by frames, so a tick looks the same at any frame rate.
        let def = self.project.def.clone();
        let by_tick = self.timed.playback.is_some();
        let tick_s = 1.0 / def.tick.rate_hz.max(1) as f32;
        for request in self.timed.game.outbox().drain() {
            match request.what {
                Presentation::Effect { effect, pos, color } => {
                    if by_tick {
                        self.particles.advance_to(request.tick, tick_s);
                    }
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
        if by_tick {
            let tick = self.timed.game.world().tick();
            self.particles.advance_to(tick, tick_s);
        } else {
            self.particles.update(dt.clamp(0.0, 0.1));
        }
        report
    }

    /// Keys follow the world's bindings (a script's `ludus.bind`, or a restart back to the
    /// declared keys): held actions are cancelled and keys down are ignored until released.
    fn follow_bindings(&mut self) {
        let world = self.timed.game.world();
        let (bindings, now) = (world.bindings(), (world.id(), world.bindings().changes));
        if now == self.bound || (now.1 == 0 && self.bound.1 == 0) {
            self.bound = now;
            return;
        }
        self.bound = now;
        let def = &self.project.def;
        let keys = bindings.effective(&def.bindings);
        self.keys
            .replace(&def.actions, keys, self.session.bridge_mut());
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

    /// The pointer is at pixel (`x`, `y`) of a `w` x `h` view (`None`: it left the view); scripts
    /// read it in world units through the camera of the last frame drawn.
    pub fn pointer_at(&mut self, at: Option<(f32, f32, f32, f32)>) {
        let world = at.map(|(x, y, w, h)| {
            let p = world_at(&self.frame.camera, (x, y), (w, h));
            [p.x, p.y]
        });
        self.session.input(InputEvent::Pointer(world));
    }

    /// Pixel (`x`, `y`) of a `w` x `h` view in world units, through the camera of the last
    /// frame drawn.
    pub(super) fn to_world(&self, x: f32, y: f32, w: f32, h: f32) -> [f32; 2] {
        let cam = &self.frame.camera;
        let scale = (w / cam.view.x.max(1e-3)).min(h / cam.view.y.max(1e-3));
        [
            cam.center.x + (x - w * 0.5) / scale,
            cam.center.y + (y - h * 0.5) / scale,
        ]
    }

    /// The fingers on the touch screen, for drawing its controls.
    pub fn touchscreen(&self) -> &crate::runtime::touch::Touchscreen {
        &self.touch
    }

    /// A touch was seen without a finger (a `--script` line's `touches`): the on-screen
    /// controls show.
    pub fn show_touch_controls(&mut self) {
        self.touch.show();
    }

    /// The HUD's items with this frame's values (texts with their names replaced, icons and
    /// bars filled).
    pub fn hud(&self) -> Vec<HudShown<'_>> {
        ludus_core::hud_shown(&self.project.def, self.timed.game.world())
    }

    /// The frame loop's own figures, for the debug overlay.
    pub(super) fn figures(&self) -> Vec<String> {
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
        .into_iter()
        .chain(self.timed.playback.as_ref().map(|p| {
            let stop = p.stop_tick().map(|t| format!(", stops after tick {t}"));
            format!(
                "input plays back: {} ticks run{}",
                p.ran(),
                stop.unwrap_or_default()
            )
        }))
        .collect()
    }
}
