//! A running game: definition, world, tick context and consequences, driven by a [`Session`].
//!
//! [`Session`]: crate::frame::session::Session

use crate::consequences::Consequences;
use crate::def::GameDef;
use crate::event::Events;
use crate::fault::{Fault, FaultKind};
use crate::frame::input::TickInput;
use crate::frame::session::{Flow, LoadRequest, LoadStatus, Simulation};
use crate::ids::WorldId;
use crate::jobs::Completions;
use crate::limits::Limit;
use crate::outbox::Outbox;
use crate::saved::SaveStore;
use crate::tick::access::check_order;
use crate::tick::report::{TickOptions, TickReport};
use crate::tick::schedule::{Schedule, ScheduleError};
use crate::tick::system::System;
use crate::tick::{TickContext, run_tick};
use crate::world::{Asked, SimWorld};
use std::sync::Arc;

/// Owns one game's simulation. World identities increase with every level activation.
pub struct Game {
    def: Arc<GameDef>,
    world: SimWorld,
    ctx: TickContext,
    consequences: Box<dyn Consequences>,
    next_world: u64,
    /// The level a restart begins from: where the game began, or the level last loaded by
    /// name (a script's `load_level` does not change it).
    start_level: usize,
    extra_entities: u32,
    last_report: Option<TickReport>,
}

impl Game {
    /// Makes the splits a tick learns (motion's one pass, the plan's marks test) split their
    /// rows at `share` in the next tick (tests: the same world at any split).
    #[cfg(test)]
    pub(crate) fn split_at(&mut self, share: f64) {
        self.ctx.scratch.motion_split = crate::par::Balance::at(share);
        self.ctx.scratch.broadphase.near_split = crate::par::Balance::at(share);
    }

    /// Makes every tick whose options let it split do so, whichever way runs faster on the
    /// machine (tests that hold split ticks to serial ones; see [`crate::par::Threads`]).
    #[doc(hidden)]
    pub fn split_always(&mut self) {
        self.ctx.threads.always_split();
    }

    /// Builds the entry level.
    pub fn new(def: Arc<GameDef>, consequences: Box<dyn Consequences>) -> Result<Game, Fault> {
        Game::with_entities(def, consequences, 0)
    }

    /// Builds the entry level with `extra` stress entities.
    pub fn with_entities(
        def: Arc<GameDef>,
        mut consequences: Box<dyn Consequences>,
        extra: u32,
    ) -> Result<Game, Fault> {
        def.tick
            .validate()
            .map_err(|e| Fault::new(FaultKind::Load, format!("tick policy: {e}")))?;
        crate::par::prepare();
        let world = SimWorld::build(&def, def.entry_level, WorldId(1), extra)?;
        consequences.begin_world(&def, &world)?;
        let ctx = TickContext::new(&def);
        debug_assert!(
            check_order(&ctx.schedule.access()).is_ok(),
            "phase order disagrees with declarations"
        );
        let start_level = def.entry_level;
        Ok(Game {
            def,
            world,
            ctx,
            consequences,
            next_world: 2,
            start_level,
            extra_entities: extra,
            last_report: None,
        })
    }

    /// Adds a system of the embedding program to every tick (see [`System`]). The schedule is
    /// ordered again; an error names the systems that cannot be ordered. Orders that hold only
    /// by registration (see [`Schedule::warnings`](crate::Schedule::warnings)) are returned.
    pub fn add_system(&mut self, system: System) -> Result<Vec<String>, ScheduleError> {
        self.add_systems([system])
    }

    /// Adds systems of the embedding program that may name each other (a [`System::chain`]),
    /// as [`Game::add_system`] does one.
    pub fn add_systems(
        &mut self,
        systems: impl IntoIterator<Item = System>,
    ) -> Result<Vec<String>, ScheduleError> {
        self.ctx.schedule.add_all(systems)?;
        Ok(self
            .ctx
            .schedule
            .warnings()
            .iter()
            .map(|w| w.to_string())
            .collect())
    }

    pub fn def(&self) -> &GameDef {
        &self.def
    }

    /// The collider of live entity `seq`: its own, or its archetype's where it shares it
    /// ([`SharedCollider`](crate::SharedCollider)); `None` for one without a collider.
    pub fn collider(&self, seq: u64) -> Option<crate::Collider> {
        use crate::world::components::{Collider, Identity, SharedCollider};
        let e = self.world.entity(seq)?;
        let ecs = self.world.ecs();
        let id = *ecs.get::<&Identity>(e).ok()?;
        let own = ecs.get::<&Collider>(e).ok().map(|c| *c);
        let shared = ecs.get::<&SharedCollider>(e).ok().map(|c| *c);
        Collider::either(own.as_ref(), shared.as_ref(), &self.def, id.archetype)
    }

    /// The systems every tick runs.
    pub fn schedule(&self) -> &Schedule {
        &self.ctx.schedule
    }

    pub fn def_arc(&self) -> &Arc<GameDef> {
        &self.def
    }

    pub fn world(&self) -> &SimWorld {
        &self.world
    }

    /// What the world warned about since the last call (see [`SimWorld::take_warnings`]).
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.world.take_warnings()
    }

    /// Events of the tick in progress or the last completed tick.
    pub fn events(&self) -> &Events {
        self.ctx.events()
    }

    /// Each bounded tick queue as `(name, room reserved, bound)`. Every bound is enforced
    /// while filling, so room never exceeds the bound, even after a fault. For tests.
    #[doc(hidden)]
    pub fn queue_room(&self) -> Vec<(&'static str, usize, usize)> {
        self.ctx.scratch.queue_room(&self.world, &self.def)
    }

    pub fn outbox(&mut self) -> &mut Outbox {
        &mut self.ctx.outbox
    }

    pub fn outbox_stats(&self) -> crate::outbox::OutboxStats {
        self.ctx.outbox.stats()
    }

    pub fn options_mut(&mut self) -> &mut TickOptions {
        &mut self.ctx.options
    }

    /// See [`SimWorld::settle_previous`].
    pub fn settle_previous(&mut self) {
        self.world.settle_previous();
    }

    pub fn completions(&mut self) -> &mut Completions {
        &mut self.ctx.completions
    }

    /// Replaces the background-work service (a thread pool, or recorded batches for replay).
    pub fn set_completions(&mut self, completions: Completions) {
        self.ctx.completions.shutdown();
        self.ctx.completions = completions;
    }

    pub fn consequences(&self) -> &dyn Consequences {
        self.consequences.as_ref()
    }

    /// Replaces the saved data (what the store held when the run began: a program sets it
    /// before the first tick, a replay from its recording). A store past the game's
    /// `[limits] save_bytes` is refused with the fault a save past it makes.
    pub fn set_saved(&mut self, store: SaveStore) -> Result<(), Fault> {
        let bound = self.def.limits.save_bytes;
        if store.bytes() > bound as usize {
            return Err(Limit::SaveBytes.exceeded(
                bound,
                format_args!("bytes of saved data: the store takes {}", store.bytes()),
            ));
        }
        *self.world.saved = store;
        Ok(())
    }

    /// Debugging aid: changes the score outside any tick, so the next state hash differs.
    /// Replay tests use it to prove divergences are reported at the right tick.
    pub fn nudge_score(&mut self, delta: i64) {
        *self.world.score = self.world.score.saturating_add(delta);
    }

    /// Replaces the consequences (a script reload); the world keeps running.
    pub fn set_consequences(&mut self, consequences: Box<dyn Consequences>) {
        self.consequences = consequences;
        let clock = self.ctx.profiler.as_ref().map(|p| p.clock);
        self.consequences.set_profiling(clock);
    }

    /// Measures every tick from now on with `clock` (`None`: stop): its phases, native
    /// systems and handler calls (see [`crate::profile`]).
    pub fn set_profiling(&mut self, clock: Option<crate::profile::Clock>) {
        self.ctx.profiler = clock.map(crate::profile::Profiler::new);
        self.consequences.set_profiling(clock);
    }

    /// Whether ticks are being measured ([`set_profiling`](Self::set_profiling)).
    pub fn profiling(&self) -> bool {
        self.ctx.profiler.is_some()
    }

    /// Moves the spans measured since the last call into `out` (none when not profiling).
    pub fn take_spans(&mut self, out: &mut Vec<crate::profile::Span>) {
        if let Some(p) = &mut self.ctx.profiler {
            p.take(out);
        }
    }

    pub fn consequences_mut(&mut self) -> &mut dyn Consequences {
        self.consequences.as_mut()
    }

    /// The stress entities every level build adds.
    pub fn extra_entities(&self) -> u32 {
        self.extra_entities
    }

    pub fn last_report(&self) -> Option<&TickReport> {
        self.last_report.as_ref()
    }

    /// Runs the next tick. What scripts asked of the app ([`SimWorld::asked`]) is what this
    /// tick asks: the last tick's requests were carried out after it.
    pub fn step(&mut self, input: &TickInput) -> Result<TickReport, Fault> {
        if *self.world.asked != Asked::default() {
            *self.world.asked = Asked::default();
        }
        let report = run_tick(
            &mut self.world,
            &self.def,
            input,
            &mut self.ctx,
            self.consequences.as_mut(),
        )?;
        self.last_report = Some(report);
        Ok(report)
    }

    /// Builds level `level` as a new world and makes it current: everything afresh. A restart
    /// begins from it from now on.
    pub fn activate(&mut self, level: usize) -> Result<(), Fault> {
        self.install(level, false)
    }

    /// Switches to level `level` as a new world, keeping the score, the game variables and the
    /// consequences' state (a script's `load_level`).
    pub fn switch(&mut self, level: usize) -> Result<(), Fault> {
        self.install(level, true)
    }

    fn install(&mut self, level: usize, keep: bool) -> Result<(), Fault> {
        let id = WorldId(self.next_world);
        self.next_world += 1;
        let mut world = SimWorld::build(&self.def, level, id, self.extra_entities)?;
        // One store per game: a restart and a level switch keep it.
        *world.saved = (*self.world.saved).clone();
        if keep {
            world.carry_over(&self.world);
            self.consequences.switch_world(&self.def, &world)?;
        } else {
            self.consequences.begin_world(&self.def, &world)?;
            self.start_level = level;
        }
        self.world = world;
        self.ctx.begin_world();
        self.ctx.outbox.retain_world(id);
        self.last_report = None;
        Ok(())
    }

    /// Runs `f` with the reads a gameplay stage has, between ticks, as of the tick about to
    /// run (an agent deciding the next tick's input): commands and timers are refused, and
    /// random draws come from a copy of the world's generator, so nothing `f` does changes
    /// the game.
    pub fn observe<R>(&mut self, f: impl FnOnce(&mut crate::Gameplay<'_>) -> R) -> R {
        crate::tick::gameplay::observe(&mut self.world, &self.def, f)
    }

    /// What the last tick asks, first first: a script asked to start again
    /// ([`Flow::Restart`]), the game ended ([`Flow::Over`]), a script asked for another level
    /// ([`Flow::Switch`]) or to pause ([`Flow::Pause`]), or play goes on.
    pub fn flow(&self) -> Flow {
        let asked = *self.world.asked;
        if asked.restart {
            Flow::Restart
        } else if self.world.game_over.is_some() {
            Flow::Over
        } else if let Some(level) = *self.world.next_level {
            Flow::Switch(level)
        } else if asked.pause {
            Flow::Pause
        } else {
            Flow::Continue
        }
    }
}

impl Simulation for Game {
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault> {
        if tick != self.world.tick() + 1 {
            return Err(Fault::new(
                FaultKind::Invariant,
                format!(
                    "the session asked for tick {tick} but the world is at tick {}",
                    self.world.tick()
                ),
            ));
        }
        self.step(input)?;
        Ok(self.flow())
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        if let LoadRequest::Switch(level) = request {
            return match self.def.levels.get(*level) {
                None => LoadStatus::Failed(Fault::new(
                    FaultKind::Load,
                    format!("there is no level number {level}"),
                )),
                Some(l) => match (l.entry_mode, self.switch(*level)) {
                    (mode, Ok(())) => LoadStatus::Ready(mode),
                    (_, Err(f)) => LoadStatus::Failed(f),
                },
            };
        }
        let level = match request {
            LoadRequest::Restart | LoadRequest::Switch(_) => self.start_level,
            LoadRequest::Level(name) => match self.def.level_index(name) {
                Some(i) => i,
                None => {
                    return LoadStatus::Failed(Fault::new(
                        FaultKind::Load,
                        format!("there is no level named `{name}`"),
                    ));
                }
            },
        };
        match self.activate(level) {
            Ok(()) => LoadStatus::Ready(self.def.levels[level].entry_mode),
            Err(f) => LoadStatus::Failed(f),
        }
    }
}
