//! Gameplay: consequences in two fixed stages, and Rust's application of their commands.
//!
//! Reads: the tick's events and input, entities (positions, velocities, tags, health, script
//! state, cooldowns), score, variables, saved data, timers.
//! Writes: health, score, variables, saved data, script state, cooldowns, timers, the RNG (through
//! consequences), velocities; records structural commands for Commit and stages presentation
//! requests; the game's flow (game over, the next level).
//! Produces: damage events.
//!
//! 1. Due timers whose id is no longer live (cancelled) are dropped; those whose target entity
//!    is gone (or marked for destruction) are dropped and end.
//! 2. Stage 1: consequences see level start, spawns, actions, contacts, expirations and timers
//!    and send commands. Timers delivered in stage 1 are then finished (one-shots released).
//! 3. Rust applies the damage archetypes' `contact_damage` does in the tick's contacts, then
//!    stage 1's commands in the order sent. Damage produces damage events.
//! 4. Stage 2: consequences see the damage events (those carried from the previous tick's stage 2
//!    first, then this tick's) and send commands.
//! 5. Rust applies stage 2's commands; damage they cause is carried to the next tick's stage 2.
//!
//! There is no third stage and no loop until queues drain: a consequence of a consequence
//! waits for the next tick's stage, never re-enters a queue being traversed.
//!
//! How commands are applied (stale ids, pending destroys, ids of this tick's spawns) is in
//! [`apply`](crate::tick::apply).

use crate::command::Command;
use crate::consequences::{Consequences, Gameplay};
use crate::def::GameDef;
use crate::event::{EventKind, TimerEvent, push_bounded};
use crate::fault::Fault;
use crate::frame::input::TickInput;
use crate::phase::{Phase, Stage};
use crate::resource::Resource;
use crate::tick::apply::apply;
use crate::tick::scratch::Scratch;
use crate::tick::system::{Decl, PhaseSystems, SystemId};
use crate::world::SimWorld;

use Resource as R;

/// What a stage reads as the systems before it left it, besides what it writes: among them
/// the destroys and spawns recorded so far (what its reads leave out, the ids spawns get).
const STAGE_READS: &[R] = &[
    R::Score,
    R::Vars,
    R::Saved,
    R::Input,
    R::Bindings,
    R::StructuralCommands,
];
/// Entity state a stage reads (every read `Gameplay` offers); Commit writes it later in the
/// tick (spawns, teleports and commands naming new entities), which the stage sees next tick.
const STAGE_READS_PREVIOUS: &[R] = &[
    R::EntitySet,
    R::Position,
    R::Velocity,
    R::Rotation,
    R::Health,
    R::ScriptState,
    R::Cooldowns,
    R::Control,
    R::Attachment,
    R::Tiles,
];
/// What a stage changes: the generator and the timers scripts use, the commands it sends.
const STAGE_WRITES: &[R] = &[R::Rng, R::Timers, R::Commands];
/// What applying commands reads of entities: which live, and where (for damage events).
const APPLY_READS_PREVIOUS: &[R] = &[R::EntitySet, R::Position];
/// Stage 1's: the same, and the damage of the tick's contacts, taken out while it is applied.
const APPLY_ONE_WRITES: &[R] = &with(R::ContactDamage);
/// What applying stage 1's commands changes.
const APPLY_WRITES: &[R] = &[
    R::Health,
    R::Score,
    R::Vars,
    R::Saved,
    R::ScriptState,
    R::Velocity,
    R::Cooldowns,
    R::Rotation,
    R::Animation,
    R::Look,
    R::Speed,
    R::Brain,
    R::Camera,
    R::Flow,
    R::Bindings,
    R::Commands,
    R::StructuralCommands,
    R::StagedPresentation,
];
/// Stage 2's: the same, and the damage it carries to the next tick.
const APPLY_TWO_WRITES: &[R] = &with(R::CarriedDamage);

/// [`APPLY_WRITES`] and `extra`.
const fn with(extra: R) -> [R; APPLY_WRITES.len() + 1] {
    let mut out = [extra; APPLY_WRITES.len() + 1];
    let mut i = 0;
    while i < APPLY_WRITES.len() {
        out[i] = APPLY_WRITES[i];
        i += 1;
    }
    out
}

/// The due timers still live, as timer events.
pub const DELIVERABLE_TIMERS: SystemId = SystemId::native("deliverable_timers");
/// Consequences' first stage.
pub const STAGE_ONE: SystemId = SystemId::native("stage_one");
/// Applies stage one's commands.
pub const APPLY_ONE: SystemId = SystemId::native("apply_one");
/// Consequences' second stage: damage.
pub const STAGE_TWO: SystemId = SystemId::native("stage_two");
/// Applies stage two's commands.
pub const APPLY_TWO: SystemId = SystemId::native("apply_two");

/// Gameplay's systems: the two stages and Rust's application of their commands, each after
/// the one before.
pub(crate) const SYSTEMS: PhaseSystems = PhaseSystems {
    phase: Phase::Gameplay,
    chain: true,
    systems: &[
        Decl {
            reads: &[R::StructuralCommands],
            reads_previous: &[R::EntitySet, R::Position],
            writes: &[R::Timers],
            produces: &[EventKind::Timer],
            ..Decl::new(DELIVERABLE_TIMERS, |t| {
                deliverable_timers(t.world, t.scratch, t.def, t.tick)
            })
        },
        Decl {
            reads: STAGE_READS,
            reads_previous: STAGE_READS_PREVIOUS,
            writes: STAGE_WRITES,
            consumes: EventKind::of_stage(Stage::One),
            ..Decl::new(STAGE_ONE, |t| {
                let stage = Stage::One;
                run_stage(
                    t.world,
                    t.scratch,
                    t.def,
                    t.tick,
                    *t.input,
                    stage,
                    t.consequences,
                )?;
                for timer in &t.scratch.events.timers {
                    t.world.timers.finish(timer.id);
                }
                Ok(())
            })
        },
        Decl {
            reads_previous: APPLY_READS_PREVIOUS,
            writes: APPLY_ONE_WRITES,
            produces: &[EventKind::Damage, EventKind::Death],
            ..Decl::new(APPLY_ONE, |t| {
                apply(t.world, t.scratch, t.def, t.tick, Stage::One)
            })
        },
        Decl {
            reads: STAGE_READS,
            reads_previous: STAGE_READS_PREVIOUS,
            writes: STAGE_WRITES,
            consumes: EventKind::of_stage(Stage::Two),
            ..Decl::new(STAGE_TWO, |t| {
                let stage = Stage::Two;
                run_stage(
                    t.world,
                    t.scratch,
                    t.def,
                    t.tick,
                    *t.input,
                    stage,
                    t.consequences,
                )
            })
        },
        Decl {
            reads_previous: APPLY_READS_PREVIOUS,
            writes: APPLY_TWO_WRITES,
            ..Decl::new(APPLY_TWO, |t| {
                apply(t.world, t.scratch, t.def, t.tick, Stage::Two)
            })
        },
    ],
};

fn deliverable_timers(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(), Fault> {
    let due = std::mem::take(&mut *s.due_timers);
    for d in &due {
        if !world.timers.is_live(d.id) {
            continue;
        }
        let target = match d.target {
            None => None,
            Some(seq) => {
                let party = if s.pending.contains(&seq) {
                    None
                } else {
                    world.party_of(def, seq)
                };
                match party {
                    Some(p) => Some(p),
                    None => {
                        world.timers.target_gone(d.id);
                        continue;
                    }
                }
            }
        };
        push_bounded(
            &mut s.events.timers,
            TimerEvent {
                tick,
                id: d.id,
                name: d.name.clone(),
                due: d.due,
                target,
                data: d.data,
            },
            def.limits.events_per_tick,
            "timer",
        )?;
    }
    *s.due_timers = due;
    Ok(())
}

fn run_stage(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    input: &TickInput,
    stage: Stage,
    consequences: &mut dyn Consequences,
) -> Result<(), Fault> {
    let mut commands = std::mem::take(&mut *s.commands);
    commands.clear();
    let result = stage_over(
        world,
        s,
        def,
        tick,
        input,
        None,
        stage,
        &mut commands,
        consequences,
    );
    *s.commands = commands;
    result
}

/// Runs one stage of `consequences` over `events` (the world's tick events when `None`),
/// collecting its commands.
#[allow(clippy::too_many_arguments)]
fn stage_over(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    input: &TickInput,
    events: Option<&crate::event::Events>,
    stage: Stage,
    commands: &mut Vec<Command>,
    consequences: &mut dyn Consequences,
) -> Result<(), Fault> {
    let at = (tick, stage, input, events);
    with_stage(world, s, def, at, commands, false, |g| {
        consequences.stage(stage, g)
    })
}

/// Runs `f` with the [`Gameplay`] of a stage (`observer`: one that only reads).
fn with_stage<R>(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    (tick, stage, input, events): (u64, Stage, &TickInput, Option<&crate::event::Events>),
    commands: &mut Vec<Command>,
    observer: bool,
    f: impl FnOnce(&mut Gameplay<'_>) -> R,
) -> R {
    s.destroyed_now.clear();
    s.sent.next_stage();
    let mut g = Gameplay {
        tick,
        stage,
        def,
        events: events.unwrap_or(&s.events),
        ecs: &world.ecs,
        index: &world.index,
        max_health: &world.max_health,
        pending: &s.pending,
        destroyed_now: &mut s.destroyed_now,
        score: *world.score,
        vars: &world.vars,
        saved: &world.saved,
        bindings: &world.bindings,
        input,
        next_seq: *world.next_seq,
        queued: &s.spawns,
        spawned_now: 0,
        spatial: &mut s.spatial,
        census: &mut s.census,
        instance: world.instance,
        work: 0,
        rng: &mut world.rng,
        timers: &mut world.timers,
        commands,
        sent: &mut s.sent,
        state_bytes: *world.state_bytes,
        tiles: (def.levels.get(world.level))
            .and_then(|l| l.tilemap.as_ref())
            .map(|map| (map, &*world.tiles)),
        observer,
    };
    f(&mut g)
}

/// Runs `f` with the reads a gameplay stage has, between ticks, as of the tick about to run:
/// no events, neutral input. Nothing `f` does changes the world: commands and timers are
/// refused, and the world's generator is put back as it was after `f` draws from it (so an
/// observer draws the numbers the next tick would, and the tick still draws them).
pub(crate) fn observe<R>(
    world: &mut SimWorld,
    def: &GameDef,
    f: impl FnOnce(&mut Gameplay<'_>) -> R,
) -> R {
    let rng = world.rng.clone();
    let tick = *world.tick + 1;
    let at = (tick, Stage::One, &TickInput::neutral(), None);
    let out = with_stage(
        world,
        &mut Scratch::default(),
        def,
        at,
        &mut Vec::new(),
        true,
        f,
    );
    *world.rng = rng;
    out
}

/// Runs one gameplay stage of `consequences` over `events` against `world`, outside any tick,
/// and returns the commands it sent without applying them (timers it schedules are scheduled).
/// For benchmarks and tools that exercise consequences in isolation: the stage's working
/// buffers are its own.
pub fn run_stage_detached(
    world: &mut SimWorld,
    def: &GameDef,
    events: &crate::event::Events,
    stage: Stage,
    consequences: &mut dyn Consequences,
) -> Result<Vec<Command>, Fault> {
    let mut commands = Vec::new();
    let tick = *world.tick + 1;
    let result = stage_over(
        world,
        &mut Scratch::default(),
        def,
        tick,
        &TickInput::neutral(),
        Some(events),
        stage,
        &mut commands,
        consequences,
    );
    result.map(|()| commands)
}
