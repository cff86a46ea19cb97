//! BeginTick: start a tick from a clean slate.
//!
//! Reads: the accepted completion batch, last tick's spawn outcomes and carried damage, the
//! timer queue, current transforms. Writes: clears every tick-local queue; applies completions
//! (existing values only); fills the spawn and level-start events; snapshots due timers; copies
//! current to previous transforms (after completions, so a jump they cause is not interpolated).

use crate::components::{Position, PrevPosition};
use crate::def::GameDef;
use crate::event::StartEvent;
use crate::fault::Fault;
use crate::jobs::Completions;
use crate::world::SimWorld;

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

    let applied = completions.apply_batch(world, def, tick)?;

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
