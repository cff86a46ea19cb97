//! One simulation tick: [`run_tick`] runs the phases in [`Phase::ALL`] order, each phase its
//! systems in the order their declarations give (see [`system`]). One file per phase declares
//! that phase's systems; docs/architecture.md's tick table is generated from them.

pub(crate) mod access;
mod aim;
pub(crate) mod apply;
pub(crate) mod begin;
pub(crate) mod brains;
pub(crate) mod commit;
mod damage;
pub(crate) mod decide;
pub(crate) mod end;
pub(crate) mod gameplay;
pub(crate) mod intent;
pub(crate) mod motion;
pub(crate) mod report;
pub(crate) mod rule;
pub(crate) mod schedule;
pub(crate) mod scratch;
mod soonest;
pub(crate) mod speeds;
pub(crate) mod steer;
pub(crate) mod system;

use crate::consequences::Consequences;
use crate::def::GameDef;
use crate::fault::{Fault, FaultKind};
use crate::frame::input::TickInput;
use crate::jobs::Completions;
use crate::outbox::Outbox;
use crate::phase::Phase;
use crate::profile::{Profiler, SpanKind, SpanName};
use crate::resource::{Resource, Tracked};
use crate::tick::report::{TickOptions, TickReport};
use crate::tick::schedule::Schedule;
use crate::tick::scratch::Scratch;
use crate::tick::system::{PhaseSystems, TickState};
use crate::world::SimWorld;

/// Entities from which Motion runs as one pass over columns (see `motion::fused`): below, the
/// systems' queries cost less. Measured in instructions (callgrind): the swarm's drones pay for
/// the fused pass from 63 entities (8% fewer, 45% fewer at 1,013); fused at every size, the
/// bundled games' recordings replay in 4% to 6% more (Breakout, Pong, the platformer,
/// Asteroids), with columns at their known places (`world::columns`).
const FUSE_MIN: usize = 128;

/// Entities from which a tick may split its passes between two threads: as many as a pass
/// over one archetype asks for ([`crate::par::SPLIT_MIN`]). Passes with lower thresholds of
/// their own (the collision step's full records from 512 colliders in pairs, the state hash
/// from 2,048) split only in worlds this large: below it, no split paid on the 2-core Intel
/// Xeon machine measured (the pushing crowd of 4,000 and 8,000 ran 5% to 10% faster on one
/// thread, the drones alike), and the tick's two clock reads, its probes and its first ticks'
/// splits were a few percent of a 1,000-entity tick (docs/performance.md). Below, a tick
/// neither chooses a way nor times itself for [`crate::par::Threads`].
const SPLIT_WORLD_MIN: usize = crate::par::SPLIT_MIN;

/// Each phase's native systems: declared in the phase's file.
fn native(phase: Phase) -> &'static PhaseSystems {
    match phase {
        Phase::BeginTick => &begin::SYSTEMS,
        Phase::Intent => &intent::SYSTEMS,
        Phase::Motion => &motion::SYSTEMS,
        Phase::Gameplay => &gameplay::SYSTEMS,
        Phase::Commit => &commit::SYSTEMS,
        Phase::EndTick => &end::SYSTEMS,
    }
}

/// The framework's own systems.
fn native_schedule() -> Schedule {
    let phases: Vec<&PhaseSystems> = Phase::ALL.iter().map(|&p| native(p)).collect();
    debug_assert!(phases.iter().zip(Phase::ALL).all(|(s, p)| s.phase == p));
    Schedule::of(&phases).expect("the native systems form a valid schedule")
}

/// What the tick uses besides the world: the outbox, background completions, the schedule of
/// systems, and the tick's working buffers (made afresh with every world: see
/// [`TickContext::begin_world`]).
pub struct TickContext {
    pub outbox: Outbox,
    pub options: TickOptions,
    pub completions: Completions,
    pub schedule: Schedule,
    pub(crate) scratch: Scratch,
    /// Measures each tick's phases, systems and handlers when set (see [`crate::profile`]).
    pub profiler: Option<Profiler>,
    /// Whether ticks split their passes between two threads, as this machine runs them
    /// faster (kept across worlds: it is the machine's).
    pub(crate) threads: crate::par::Threads,
}

impl TickContext {
    /// A context running the native systems.
    pub fn new(def: &GameDef) -> Self {
        TickContext {
            outbox: Outbox::new(def.limits.outbox),
            options: TickOptions::default(),
            completions: Completions::new(def.limits.jobs),
            schedule: native_schedule(),
            scratch: Scratch::default(),
            profiler: None,
            threads: crate::par::Threads::default(),
        }
    }

    /// A new world begins: the working buffers start empty, as for the first world.
    pub fn begin_world(&mut self) {
        self.scratch = Scratch::default();
    }

    /// Events of the tick in progress or the last completed tick.
    pub fn events(&self) -> &crate::event::Events {
        &self.scratch.events
    }
}

/// The schedule of the native systems alone (for `ludus check` and tests).
pub fn native_systems() -> Schedule {
    native_schedule()
}

/// Runs one tick: every phase in [`Phase::ALL`] order (see [`Phase::summary`] for what each
/// does), each phase's systems in the schedule's order.
///
/// A fault stops the chain: the world keeps what the failing phase left for inspection, and
/// nothing of the tick is published (no tick number, no presentation requests).
pub fn run_tick(
    world: &mut SimWorld,
    def: &GameDef,
    input: &TickInput,
    ctx: &mut TickContext,
    consequences: &mut dyn Consequences,
) -> Result<TickReport, Fault> {
    let tick = world.tick.checked_add(1).ok_or_else(|| {
        Fault::new(
            FaultKind::Exhausted,
            "the world's tick counter is exhausted",
        )
    })?;
    // Attached entities are placed after Motion's other steps, which fusing them skips.
    let large = world.entity_count() >= FUSE_MIN && !world.has_attachments();
    // Passes split between two threads where the options, the machine and the world's size
    // allow it and ticks run faster so (the same results either way: see `par::Threads`).
    let threads = !ctx.options.serial && crate::par::available();
    let way = (ctx.threads).next(threads && world.entity_count() >= SPLIT_WORLD_MIN);
    if threads {
        crate::par::spin(way.split);
    }
    let options = TickOptions {
        serial: !way.split,
        ..ctx.options
    };
    let clock = way.measured.then(crate::par::Stopwatch::start);
    let mut state = TickState {
        world,
        scratch: &mut ctx.scratch,
        def,
        tick,
        input: Tracked::new(input, Resource::Input),
        completions: Tracked::new(&mut ctx.completions, Resource::Completions),
        outbox: Tracked::new(&mut ctx.outbox, Resource::Outbox),
        options,
        consequences,
        report: TickReport {
            tick,
            ..TickReport::default()
        },
        fused_motion: large
            && [Phase::BeginTick, Phase::Intent, Phase::Motion]
                .iter()
                .all(|p| ctx.schedule.native_only(*p)),
        profiler: ctx.profiler.as_mut(),
    };
    let tick_start = state.profiler.as_ref().map(|p| p.now());
    for phase in Phase::ALL {
        let start = state.profiler.as_ref().map(|p| p.now());
        ctx.schedule.run(phase, &mut state).map_err(|f| {
            if f.phase.is_some() {
                f
            } else {
                f.at(tick, phase)
            }
        })?;
        if let (Some(p), Some(start)) = (&mut state.profiler, start) {
            p.push(
                SpanKind::Phase,
                SpanName::Static(phase.name()),
                Some(phase),
                start,
            );
        }
    }
    if let (Some(p), Some(start)) = (&mut state.profiler, tick_start) {
        p.push(SpanKind::Tick, SpanName::Static("tick"), None, start);
    }
    if let Some(clock) = clock {
        ctx.threads.learn(way.split, clock.nanos());
    }
    Ok(state.report)
}
