//! BeginTick: start a tick from a clean slate.
//!
//! Reads: the accepted completion batch, last tick's spawn outcomes and carried damage, the
//! timer queue, current transforms. Writes: clears every tick-local queue; applies completions
//! (existing values only); fills the spawn and level-start events; snapshots due timers; copies
//! current to previous transforms (after completions, so a jump they cause is not interpolated).

use crate::def::GameDef;
use crate::event::StartEvent;
use crate::fault::Fault;
use crate::jobs::{Completions, JobOutput, JobStatus};
use crate::world::SimWorld;
use crate::world::components::{Position, PrevPosition};

pub(crate) fn begin_tick(
    world: &mut SimWorld,
    def: &GameDef,
    tick: u64,
    completions: &mut Completions,
) -> Result<usize, Fault> {
    let s = &mut world.scratch;
    s.events.clear();
    s.due_timers.clear();
    s.commands.clear();
    s.spawns.clear();
    s.destroys.clear();
    s.teleports.clear();
    s.pending.clear();
    s.staged.clear();

    let applied = apply_completions(world, completions, tick);

    let s = &mut world.scratch;
    if tick == 1 {
        let level = def.levels.get(world.level).map_or("", |l| l.name.as_str());
        s.events.level_start.push(StartEvent {
            tick,
            level: level.into(),
        });
    }
    std::mem::swap(&mut s.events.spawned, &mut world.spawn_outcomes);
    world.spawn_outcomes.clear();
    std::mem::swap(&mut s.events.damage, &mut world.carried_damage);
    world.carried_damage.clear();
    world.timers.snapshot_due(tick, &mut s.due_timers)?;

    for (cur, prev) in world.ecs.query_mut::<(&Position, &mut PrevPosition)>() {
        prev.0 = cur.0;
    }
    Ok(applied)
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
