//! Commit: publish the tick's structural changes.
//!
//! Reads: the recorded destroys, teleports and spawns. Writes: the entity set, transforms of
//! teleported and new entities (previous equal to current, angles too, so nothing
//! interpolates across the change), the contact cache (destroyed entities leave it without an exit event) and the spawn
//! outcomes the next tick consumes.
//!
//! Commands that named this tick's spawns are applied right after the spawns (see
//! [`apply`](crate::tick::apply)); then the tiles scripts changed, and the solid rectangles
//! merged again around them (see `world::tiles`).
//!
//! Entities attached to one being destroyed are destroyed with it. After the spawns, new
//! entities whose archetype declares `attach` are attached, then the attachments and
//! detachments scripts sent are made in the order sent, and every attached entity is put at
//! its parent's place (see [`attach`](crate::world::attach)).
//!
//! Preflight runs first: if the spawns would take the world past `[limits] entities` the tick
//! faults before anything is changed.

use crate::def::{GameDef, Overrides, merge_cells};
use crate::fault::{Fault, FaultKind};
use crate::ids::SeqSet;
use crate::limits::Limit;
use crate::phase::Phase;
use crate::resource::Resource;
use crate::tick::scratch::Scratch;
use crate::tick::system::{Decl, PhaseSystems, SystemId};
use crate::world::SimWorld;
use crate::world::attach::Parents;
use crate::world::components::{Position, PrevPosition, Rotation};
use std::collections::BTreeSet;

use Resource as R;

/// Applies the tick's structural changes.
pub const COMMIT: SystemId = SystemId::native("commit");

/// Commit's one system.
pub(crate) const SYSTEMS: PhaseSystems = PhaseSystems {
    phase: Phase::Commit,
    chain: false,
    systems: &[Decl {
        // Besides the structural changes, the commands that named this tick's spawns. (Over
        // the entity bound, its fault names where the first spawn that could overflow was
        // sent, from the stages' bookkeeping; a faulted tick is never published.)
        writes: &[
            R::EntitySet,
            R::Position,
            R::PrevPosition,
            R::ContactCache,
            R::SpawnOutcomes,
            R::StructuralCommands,
            R::Health,
            R::ScriptState,
            R::Velocity,
            R::Cooldowns,
            R::Rotation,
            R::Animation,
            R::Look,
            R::CarriedDamage,
            R::Speed,
            R::Brain,
            R::Attachment,
            R::Tiles,
        ],
        ..Decl::new(COMMIT, |t| {
            let (spawned, destroyed) = commit(t.world, t.scratch, t.def, t.tick)?;
            t.report.spawned = spawned;
            t.report.destroyed = destroyed;
            Ok(())
        })
    }],
};

fn commit(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(usize, usize), Fault> {
    // What is attached to what is destroyed goes with it.
    world.destroy_attached(&mut s.pending, &mut s.destroys)?;
    // Preflight. Destroys are unique (pending set) and name live entities.
    let live = world.index.len();
    let after = live - s.destroys.len() + s.spawns.len();
    if after > def.limits.max_entities as usize {
        let f = Fault::new(
            FaultKind::Capacity,
            format!(
                "{} spawns would make {after} entities, more than {} (raise {})",
                s.spawns.len(),
                def.limits.max_entities,
                Limit::Entities
            ),
        );
        // Where the first spawn sent while the world could be full came from.
        return Err(match s.sent.spawn_over.take() {
            Some(location) => f.with_location(location),
            None => f,
        });
    }

    let destroys = std::mem::take(&mut *s.destroys);
    let teleports = std::mem::take(&mut *s.teleports);
    let spawns = std::mem::take(&mut *s.spawns);
    // Destroys are unique and live (the pending set admitted each once).
    let mut gone = 0;
    for seq in &destroys {
        if world.despawn(*seq) {
            gone += 1;
        }
    }
    if gone > 0 && !world.contacts.is_empty() {
        let pending = &s.pending;
        world
            .contacts
            .remove_destroyed(&|seq| pending.contains(&seq));
    }
    for (seq, pos) in &teleports {
        if let Some(e) = world.index.get(seq, world.ecs.raw())
            && let Ok((cur, prev, rot)) =
                world
                    .ecs
                    .query_one_mut::<(&mut Position, &mut PrevPosition, Option<&mut Rotation>)>(e)
        {
            cur.0 = *pos;
            prev.0 = *pos;
            // Nor is a turn in the tick of the jump.
            if let Some(r) = rot {
                r.prev = r.angle;
            }
        }
    }
    world.spawn_all(
        def,
        &mut s.builder,
        &spawns,
        tick,
        |(archetype, pos, overrides)| (*archetype, *pos, &**overrides),
    )?;
    let counts = (spawns.len(), gone);
    if !s.after_spawn.is_empty() {
        crate::tick::apply::apply_after_spawn(world, s, def, tick)?;
    }
    let born = *world.next_seq - spawns.len() as u64..*world.next_seq;
    world.attach_spawned(def, born, &mut s.tag_merge);
    let mut parents = Parents::default();
    for (child, to) in s.attaches.iter() {
        world.set_attachment(*child, *to, &mut parents)?;
    }
    if world.has_attachments() {
        world.place_attached();
    }
    if !s.tile_changes.is_empty() {
        // After the spawns, so the ids `spawn` gave hold; their rectangles next.
        let changes = std::mem::take(&mut *s.tile_changes);
        let done = retile(world, def, &mut s.builder, &changes, tick);
        *s.tile_changes = changes;
        done?;
    }
    *s.destroys = destroys;
    *s.teleports = teleports;
    *s.spawns = spawns;
    Ok(counts)
}

/// Makes the tick's tile changes (`changes`: cell and key, in the order sent): the cells take
/// their keys; the solid rectangles holding a cell whose solid archetype changed are
/// destroyed (leaving the contact cache without exit events, as every destroyed entity does;
/// one a script destroyed already stays gone), and their tiles with the changed cells are
/// merged again ([`merge_cells`]) into rectangles spawned as the level places its own (each an
/// `on_spawn` event next tick). Over `[limits] entities`, faults before spawning anything.
fn retile(
    world: &mut SimWorld,
    def: &GameDef,
    builder: &mut hecs::EntityBuilder,
    changes: &[(usize, u8)],
    tick: u64,
) -> Result<(), Fault> {
    let Some(map) = def.levels.get(world.level).and_then(|l| l.tilemap.as_ref()) else {
        return Ok(());
    };
    let columns = map.columns as usize;
    let mut moved = BTreeSet::new();
    for &(cell, key) in changes {
        let old = world.tiles.set(map, cell, key);
        if map.solid_of(old) != map.solid_of(key) {
            moved.insert(((cell / columns) as u32, (cell % columns) as u32));
        }
    }
    if moved.is_empty() {
        return Ok(());
    }
    // The rectangles over the moved cells go; their tiles are merged again with them.
    let mut runs = world.tiles.take_runs(map);
    let mut cells = moved.clone();
    let mut gone = SeqSet::default();
    for &(row, column) in &moved {
        if let Some((seq, run)) = runs.take(column, row)
            && world.despawn(seq)
        {
            gone.insert(seq);
            for r in run.row..run.row + run.height {
                cells.extend((run.column..run.column + run.width).map(|c| (r, c)));
            }
        }
    }
    if !gone.is_empty() && !world.contacts.is_empty() {
        world.contacts.remove_destroyed(&|seq| gone.contains(&seq));
    }
    let tiles = &world.tiles;
    let solid = |column: u32, row: u32| {
        let inside = column < map.columns && row < map.rows;
        let cell = row as usize * columns + column as usize;
        inside.then(|| map.solid_of(tiles.key(map, cell))).flatten()
    };
    let merged = merge_cells(&mut cells, solid);
    let after = world.index.len() + merged.len();
    if after > def.limits.max_entities as usize {
        world.tiles.put_runs(runs);
        return Err(Fault::new(
            FaultKind::Capacity,
            format!(
                "the tiles changed this tick make {} solid rectangles, which would make {after} entities, more than {} (raise {})",
                merged.len(),
                def.limits.max_entities,
                Limit::Entities
            ),
        ));
    }
    let places: Vec<_> = (merged.iter())
        .map(|run| {
            let (pos, size) = map.run_place(run);
            (run.archetype, pos, Overrides::tile(size))
        })
        .collect();
    let first = *world.next_seq;
    world.spawn_all(def, builder, &places, tick, |(a, pos, o)| (*a, *pos, o))?;
    for (i, run) in merged.into_iter().enumerate() {
        runs.insert(first + i as u64, run);
    }
    world.tiles.put_runs(runs);
    Ok(())
}
