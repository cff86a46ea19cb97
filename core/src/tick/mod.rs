//! The fixed phases of one simulation tick, their declared access, and [`run_tick`], the one
//! place their order is written down.

pub(crate) mod begin;
pub(crate) mod commit;
pub(crate) mod gameplay;
pub(crate) mod intent;
pub(crate) mod motion;
pub(crate) mod phase;

use crate::consequences::Consequences;
use crate::def::GameDef;
use crate::event::EventKind;
use crate::fault::{Fault, FaultKind};
use crate::frame::input::TickInput;
use crate::jobs::Completions;
use crate::outbox::Outbox;
pub use crate::tick::phase::Phase;
use crate::world::SimWorld;
use crate::world::hash::StateHash;

/// State a phase reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// The `Position` component.
    Position,
    /// The `PrevPosition` component.
    PrevPosition,
    Velocity,
    Health,
    Brain,
    Control,
    Cooldowns,
    Lifetime,
    ScriptState,
    Timers,
    ContactCache,
    Score,
    Vars,
    Rng,
    /// Which entities exist.
    EntitySet,
    SpawnOutcomes,
    StructuralCommands,
    StagedPresentation,
    Outbox,
    TickNumber,
    Input,
    /// Background results waiting for BeginTick.
    Completions,
    /// Background requests submitted.
    Requests,
    /// The installed flow field.
    NavField,
}

/// What one phase touches.
///
/// - `reads`: state the phase needs as earlier phases of this tick left it. A later phase
///   writing it would mean the read sees a stale value: an ordering error.
/// - `reads_previous`: state the phase reads knowing that later phases of this tick also write
///   it, so their writes reach it only in the next tick (for example Motion integrates the
///   positions Commit's teleports and spawns set at the end of the previous tick).
/// - `writes`, `produces`, `consumes`: what it changes and which event queues it fills and reads.
/// - `consumes_carried`: events a previous tick produced (spawn outcomes, late damage).
#[derive(Clone, Copy, Debug)]
pub struct PhaseAccess {
    pub phase: Phase,
    pub reads: &'static [Resource],
    pub reads_previous: &'static [Resource],
    pub writes: &'static [Resource],
    pub produces: &'static [EventKind],
    pub consumes: &'static [EventKind],
    /// Events consumed that a previous tick produced (carried queues).
    pub consumes_carried: &'static [EventKind],
}

use EventKind as E;
use Resource as R;

/// The declared access of every phase, in call order. [`check_order`] verifies it.
pub const PHASE_ACCESS: [PhaseAccess; 6] = [
    PhaseAccess {
        phase: Phase::BeginTick,
        reads: &[R::Completions],
        reads_previous: &[R::Position, R::Timers, R::SpawnOutcomes, R::EntitySet],
        writes: &[
            R::PrevPosition,
            R::Timers,
            R::Health,
            R::Velocity,
            R::NavField,
            R::StructuralCommands,
        ],
        produces: &[E::LevelStarted, E::Spawned, E::Timer],
        consumes: &[],
        consumes_carried: &[E::Spawned, E::Damage],
    },
    PhaseAccess {
        phase: Phase::Intent,
        reads: &[
            R::Input,
            R::Brain,
            R::Control,
            R::Cooldowns,
            R::Lifetime,
            R::NavField,
        ],
        reads_previous: &[R::Position, R::EntitySet],
        writes: &[
            R::Requests,
            R::Velocity,
            R::Brain,
            R::Control,
            R::Cooldowns,
            R::Rng,
            R::StructuralCommands,
        ],
        produces: &[E::Action, E::Expired],
        consumes: &[],
        consumes_carried: &[],
    },
    PhaseAccess {
        phase: Phase::Motion,
        reads: &[],
        reads_previous: &[R::Velocity, R::Position, R::ContactCache, R::EntitySet],
        writes: &[
            R::Position,
            R::Velocity,
            R::ContactCache,
            R::StructuralCommands,
        ],
        produces: &[E::Collision, E::Trigger, E::Expired],
        consumes: &[],
        consumes_carried: &[],
    },
    PhaseAccess {
        phase: Phase::Gameplay,
        reads: &[
            R::Score,
            R::Vars,
            R::Timers,
            R::Health,
            R::ScriptState,
            R::Rng,
        ],
        reads_previous: &[R::EntitySet],
        writes: &[
            R::Health,
            R::Score,
            R::Vars,
            R::ScriptState,
            R::Timers,
            R::Rng,
            R::Velocity,
            R::StructuralCommands,
            R::StagedPresentation,
        ],
        produces: &[E::Damage],
        consumes: &[
            E::LevelStarted,
            E::Spawned,
            E::Action,
            E::Collision,
            E::Trigger,
            E::Expired,
            E::Timer,
            E::Damage,
        ],
        consumes_carried: &[],
    },
    PhaseAccess {
        phase: Phase::Commit,
        reads: &[R::StructuralCommands],
        reads_previous: &[],
        writes: &[
            R::EntitySet,
            R::Position,
            R::PrevPosition,
            R::ContactCache,
            R::SpawnOutcomes,
        ],
        produces: &[],
        consumes: &[],
        consumes_carried: &[],
    },
    PhaseAccess {
        phase: Phase::EndTick,
        reads: &[
            R::Position,
            R::Velocity,
            R::Health,
            R::Timers,
            R::Score,
            R::Vars,
            R::Rng,
            R::EntitySet,
            R::StagedPresentation,
        ],
        reads_previous: &[],
        writes: &[R::TickNumber, R::Outbox],
        produces: &[],
        consumes: &[],
        consumes_carried: &[],
    },
];

/// An ordering problem found by [`check_order`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// `reader` reads `resource`, which the later phase `writer` writes, without declaring that
    /// it reads the previous tick's value.
    ReadBeforeWrite {
        reader: Phase,
        writer: Phase,
        resource: Resource,
    },
    /// `consumer` consumes `event`, which no phase up to and including it produces.
    ConsumedBeforeProduced { consumer: Phase, event: EventKind },
    /// The table is not in [`Phase::ALL`] order.
    OutOfOrder { position: usize, phase: Phase },
}

/// Verifies that the fixed call order agrees with the declared access.
pub fn check_order(table: &[PhaseAccess]) -> Result<(), Vec<OrderError>> {
    let mut errors = Vec::new();
    for (i, access) in table.iter().enumerate() {
        if Phase::ALL.get(i) != Some(&access.phase) {
            errors.push(OrderError::OutOfOrder {
                position: i,
                phase: access.phase,
            });
        }
        for &resource in access.reads {
            for later in &table[i + 1..] {
                if later.writes.contains(&resource) {
                    errors.push(OrderError::ReadBeforeWrite {
                        reader: access.phase,
                        writer: later.phase,
                        resource,
                    });
                }
            }
        }
        for &event in access.consumes {
            let produced = table[..=i].iter().any(|p| p.produces.contains(&event))
                || table[..=i]
                    .iter()
                    .any(|p| p.consumes_carried.contains(&event));
            if !produced {
                errors.push(OrderError::ConsumedBeforeProduced {
                    consumer: access.phase,
                    event,
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Optional work at EndTick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickOptions {
    /// Compute the canonical state hash.
    pub hash: bool,
    /// Run debug invariant checks (on by default in debug builds of the app).
    pub check_invariants: bool,
}

/// State the tick uses that outlives one world: the outbox and background completions.
pub struct TickContext {
    pub outbox: Outbox,
    pub options: TickOptions,
    pub completions: Completions,
}

impl TickContext {
    pub fn new(def: &GameDef) -> Self {
        TickContext {
            outbox: Outbox::new(def.limits.outbox),
            options: TickOptions::default(),
            completions: Completions::new(def.limits.jobs),
        }
    }
}

/// What one successful tick did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickReport {
    pub tick: u64,
    pub hash: Option<StateHash>,
    pub entities: usize,
    pub events: usize,
    pub commands: usize,
    pub contacts: usize,
    pub spawned: usize,
    pub destroyed: usize,
    pub completions_applied: usize,
}

fn in_phase(tick: u64, phase: Phase) -> impl Fn(Fault) -> Fault {
    move |f| {
        if f.phase.is_some() {
            f
        } else {
            f.at(tick, phase)
        }
    }
}

/// Runs one tick: the authoritative order of the phases.
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
    let mut report = TickReport {
        tick,
        ..TickReport::default()
    };
    report.completions_applied =
        crate::tick::begin::begin_tick(world, def, tick, &mut ctx.completions)
            .map_err(in_phase(tick, Phase::BeginTick))?;
    crate::tick::intent::intent(world, def, tick, input, &mut ctx.completions)
        .map_err(in_phase(tick, Phase::Intent))?;
    crate::tick::motion::motion(world, def, tick).map_err(in_phase(tick, Phase::Motion))?;
    crate::tick::gameplay::gameplay(world, def, tick, consequences)
        .map_err(in_phase(tick, Phase::Gameplay))?;
    let (spawned, destroyed) =
        crate::tick::commit::commit(world, def, tick).map_err(in_phase(tick, Phase::Commit))?;
    report.spawned = spawned;
    report.destroyed = destroyed;
    report.events = world.scratch.events.stage1_len() + world.scratch.events.damage.len();
    report.commands = world.scratch.commands.len();
    report.contacts = world.contacts.len();
    report.hash = end_tick(world, def, tick, ctx).map_err(in_phase(tick, Phase::EndTick))?;
    report.entities = world.entity_count();
    Ok(report)
}

/// EndTick: invariants, hash, then publication (tick number and presentation requests).
fn end_tick(
    world: &mut SimWorld,
    def: &GameDef,
    tick: u64,
    ctx: &mut TickContext,
) -> Result<Option<StateHash>, Fault> {
    if ctx.options.check_invariants {
        crate::world::invariants::check(world, def)?;
    }
    world.tick = tick;
    let hash = ctx.options.hash.then(|| StateHash::of(world));
    ctx.outbox.publish(&mut world.scratch.staged);
    Ok(hash)
}
