//! One simulation tick: [`run_tick`] runs the phases in [`Phase::ALL`] order, each phase its
//! systems in the order their declarations give (see [`system`]). One file per phase declares
//! that phase's systems.

pub(crate) mod access;
pub(crate) mod apply;
pub(crate) mod begin;
pub(crate) mod brains;
pub(crate) mod commit;
pub(crate) mod end;
pub(crate) mod gameplay;
pub(crate) mod intent;
pub(crate) mod motion;
pub(crate) mod report;
pub(crate) mod scratch;
pub(crate) mod steer;
pub(crate) mod system;

use crate::consequences::Consequences;
use crate::def::GameDef;
use crate::fault::{Fault, FaultKind};
use crate::frame::input::TickInput;
use crate::jobs::Completions;
use crate::outbox::Outbox;
use crate::phase::Phase;
use crate::tick::report::{TickOptions, TickReport};
use crate::tick::scratch::Scratch;
use crate::tick::system::{Schedule, TickState};
use crate::world::SimWorld;

/// Entities from which Motion runs as one pass over columns (see `motion::fused`): below, the
/// systems' queries cost less than taking every archetype's columns.
const FUSE_MIN: usize = 1024;

/// The framework's own systems, by phase (each list in registration order).
fn native_schedule() -> Schedule {
    Schedule::of(&[
        begin::SYSTEMS,
        intent::SYSTEMS,
        motion::SYSTEMS,
        gameplay::SYSTEMS,
        commit::SYSTEMS,
        end::SYSTEMS,
    ])
    .expect("the native systems form a valid schedule")
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

/// Runs one tick: every phase in [`Phase::ALL`] order.
///
/// | phase | does |
/// | --- | --- |
/// | BeginTick | clear tick-local queues; apply the background completion batch in request-id order; consume last tick's spawn outcomes (and the level start); snapshot due timers; copy current to previous transforms |
/// | Intent | player intent from `input`; lifetimes; level spawners; Rust-native behaviours decide on their cadence and keep the last intent between decisions |
/// | Motion and collision | integrate; bounds; broadphase, narrow phase, push; contact cache gives enter/stay/exit collision and trigger events in canonical pair order |
/// | Gameplay | stage 1: consequences of spawns, actions, contacts, expirations and timers; Rust applies their commands (damage produces damage events); stage 2: consequences of damage |
/// | Commit | preflight capacity, then destroys (leaving the contact cache without exits), teleports (equal history), spawns (equal history; outcomes for next tick) |
/// | EndTick | optional invariants; state hash; publish the tick number and this tick's presentation requests |
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
    let large = world.entity_count() >= FUSE_MIN;
    let mut state = TickState {
        world,
        scratch: &mut ctx.scratch,
        def,
        tick,
        input,
        completions: &mut ctx.completions,
        outbox: &mut ctx.outbox,
        options: ctx.options,
        consequences,
        report: TickReport {
            tick,
            ..TickReport::default()
        },
        fused_motion: large
            && [Phase::BeginTick, Phase::Intent, Phase::Motion]
                .iter()
                .all(|p| ctx.schedule.native_only(*p)),
    };
    for phase in Phase::ALL {
        ctx.schedule.run(phase, &mut state).map_err(|f| {
            if f.phase.is_some() {
                f
            } else {
                f.at(tick, phase)
            }
        })?;
    }
    Ok(state.report)
}
