//! BeginTick: start a tick from a clean slate.
//!
//! Reads: the accepted completion batch, last tick's spawn outcomes and carried damage, the
//! timer queue, current transforms. Writes: clears every tick-local queue; applies completions
//! (existing values only); fills the spawn and level-start events; snapshots due timers; copies
//! current to previous transforms (after completions, so a jump they cause is not interpolated).

use crate::event::{EventKind, StartEvent, push_bounded};
use crate::fault::Fault;
use crate::jobs::{Completions, JobOutput, JobStatus};
use crate::phase::Phase;
use crate::resource::Resource;
use crate::tick::system::{Decl, PhaseSystems, SystemId, TickState};
use crate::world::SimWorld;

use Resource as R;

/// Empties every tick-local queue.
pub const CLEAR: SystemId = SystemId::native("clear");
/// Applies the tick's background results.
pub const COMPLETIONS: SystemId = SystemId::native("completions");
/// The level start, the tick event, and what the last tick carried over.
pub const CARRIED: SystemId = SystemId::native("carried");
/// Snapshots the timers due this tick.
pub const DUE_TIMERS: SystemId = SystemId::native("due_timers");
/// Copies current to previous transforms.
pub const PREVIOUS: SystemId = SystemId::native("previous");

/// BeginTick's systems, in registration order.
pub(crate) const SYSTEMS: PhaseSystems = PhaseSystems {
    phase: Phase::BeginTick,
    chain: false,
    systems: &[
        Decl {
            // Every tick-local resource (see `Resource::tick_local`), and the due timers.
            writes: &[
                R::StructuralCommands,
                R::Commands,
                R::StagedPresentation,
                R::Timers,
            ],
            ..Decl::new(CLEAR, clear)
        },
        Decl {
            // The request in flight and the results the session accepted, as the last tick
            // (and frame) left them.
            reads_previous: &[R::Completions, R::EntitySet, R::NavField],
            writes: &[R::Completions, R::NavField],
            after: &[CLEAR],
            ..Decl::new(COMPLETIONS, completions)
        },
        Decl {
            reads_previous: &[R::SpawnOutcomes, R::CarriedDamage],
            writes: &[R::SpawnOutcomes, R::CarriedDamage],
            produces: &[
                EventKind::LevelStarted,
                EventKind::Tick,
                EventKind::Spawned,
                EventKind::Damage,
                EventKind::Death,
            ],
            consumes_carried: &[EventKind::Spawned, EventKind::Damage],
            after: &[CLEAR],
            ..Decl::new(CARRIED, carried)
        },
        Decl {
            reads_previous: &[R::Timers],
            writes: &[R::Timers],
            after: &[CLEAR],
            ..Decl::new(DUE_TIMERS, due_timers)
        },
        Decl {
            reads_previous: &[R::Position, R::Rotation],
            writes: &[R::PrevPosition, R::Rotation],
            after: &[COMPLETIONS],
            ..Decl::new(PREVIOUS, previous)
        },
    ],
};

/// Empties every tick-local queue.
fn clear(t: &mut TickState<'_>) -> Result<(), Fault> {
    t.scratch.clear();
    Ok(())
}

fn completions(t: &mut TickState<'_>) -> Result<(), Fault> {
    t.report.completions_applied = apply_completions(t.world, &mut t.completions, t.tick);
    Ok(())
}

/// The level start, the tick event, last tick's spawn outcomes and the damage carried from its
/// stage 2, with the deaths that damage caused.
/// Spawn outcomes the carried buffer keeps room for however few the last tick spawned.
const SPAWN_ROOM_KEPT: usize = 1024;

fn carried(t: &mut TickState<'_>) -> Result<(), Fault> {
    let world = &mut *t.world;
    let s = &mut *t.scratch;
    let now = StartEvent {
        tick: t.tick,
        level: world.level_name.clone(),
    };
    if t.tick == 1 {
        s.events.level_start.push(now.clone());
    }
    s.events.ticked.push(now);
    std::mem::swap(&mut s.events.spawned, &mut *world.spawn_outcomes);
    world.spawn_outcomes.clear();
    // A level build's outcomes (one per entity) leave a buffer as large as the level: kept, it
    // would hold 40 bytes per entity for the rest of the level. It is given back once it is
    // four times what the last tick spawned (a game that spawns as many every tick keeps it).
    let wanted = s.events.spawned.len().max(SPAWN_ROOM_KEPT);
    if world.spawn_outcomes.capacity() > 4 * wanted {
        world.spawn_outcomes.shrink_to(wanted);
    }
    std::mem::swap(&mut s.events.damage, &mut *world.carried_damage);
    world.carried_damage.clear();
    let cap = t.def.limits.max_entities;
    for ev in s.events.damage.iter().filter(|ev| ev.killed) {
        push_bounded(&mut s.events.deaths, *ev, cap, "death")?;
    }
    Ok(())
}

fn due_timers(t: &mut TickState<'_>) -> Result<(), Fault> {
    t.world
        .timers
        .snapshot_due(t.tick, &mut t.scratch.due_timers)
}

/// Copies current to previous transforms (after completions, so a jump they cause is not
/// interpolated).
fn previous(t: &mut TickState<'_>) -> Result<(), Fault> {
    // Fused, Motion's pass copies positions first thing: nothing moves an entity before it.
    if t.options.interpolate {
        t.world.keep_previous(!t.fused_motion);
    }
    Ok(())
}

/// Applies the tick's batch of background results in request-id order, discarding (and
/// counting) those for another world, a gone target or an old revision.
fn apply_completions(world: &mut SimWorld, completions: &mut Completions, tick: u64) -> usize {
    let batch = completions.take_batch(tick);
    let mut applied = 0;
    for c in &batch {
        if !completions.admit(c.id) {
            continue;
        }
        let stats = completions.stats_mut();
        if c.world != world.id {
            stats.stale_world += 1;
            continue;
        }
        if c.target.is_some_and(|seq| world.entity(seq).is_none()) {
            stats.stale_target += 1;
            continue;
        }
        match &c.status {
            JobStatus::Failed(_) => stats.failed += 1,
            JobStatus::Done(JobOutput::FlowField(field)) => {
                // Only a recording can bring a malformed field; it is never installed.
                if field.check().is_err() {
                    stats.failed += 1;
                    continue;
                }
                if c.revision != world.nav.revision {
                    stats.stale_revision += 1;
                    continue;
                }
                world.nav.field = Some(field.clone());
                world.nav.in_flight = None;
                applied += 1;
                stats.applied += 1;
            }
        }
    }
    if world
        .nav
        .in_flight
        .is_some_and(|id| !completions.is_outstanding(id))
    {
        world.nav.in_flight = None;
    }
    completions.put_back(batch);
    applied
}
