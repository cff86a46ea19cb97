//! What a stage may read of the world: entities' positions, velocities, kinds, tags and
//! cooldowns, tag queries and spatial queries. All read the state at the start of the stage
//! (positions do not change during Gameplay); an id spawned this tick reads as absent until
//! it exists.
//!
//! Collections (`find`, `count`, `nearest`, `within`) hold only entities for which
//! [`Gameplay::alive`] is true: one destroyed earlier this tick is left out. Their work (cells
//! and entities visited) is added to [`Gameplay::take_work`], which the script host charges to
//! the instruction budget, so no query can hide a quadratic loop. What each is charged is the
//! spatial index's rule (see [`crate::spatial`]), whichever of them built what: a `count`
//! builds no grid and visits no entity, yet is charged as if it had.

use super::Gameplay;
use crate::command::CommandError;
use crate::def::{ArchetypeDef, ArchetypeId};
use crate::math::Vec2;
use crate::spatial::Entry;
use crate::world::components::{
    Attached, Control, Cooldowns, Identity, Position, Rotation, Velocity,
};

impl Gameplay<'_> {
    fn entity(&self, seq: u64) -> Option<hecs::Entity> {
        self.index.get(&seq, self.ecs.raw())
    }

    /// Where the entity is, if it exists.
    pub fn pos(&self, seq: u64) -> Option<Vec2> {
        let e = self.entity(seq)?;
        self.ecs.get::<&Position>(e).ok().map(|p| p.0)
    }

    /// The entity's velocity (zero for one that never moves), if it exists.
    pub fn vel(&self, seq: u64) -> Option<Vec2> {
        let e = self.entity(seq)?;
        Some(self.ecs.get::<&Velocity>(e).map_or(Vec2::ZERO, |v| v.0))
    }

    /// The entity's angle in radians (0 for one that never rotated), if it exists.
    pub fn angle(&self, seq: u64) -> Option<f32> {
        let e = self.entity(seq)?;
        Some(self.ecs.get::<&Rotation>(e).map_or(0.0, |r| r.angle))
    }

    /// The entity's facing, if it exists: its control's (the last direction it was steered
    /// in, +x at first), or else the direction of its velocity (a unit vector; zero while it
    /// stands still).
    pub fn facing(&self, seq: u64) -> Option<Vec2> {
        let e = self.entity(seq)?;
        if let Ok(c) = self.ecs.get::<&Control>(e) {
            return Some(c.facing);
        }
        let v = self.ecs.get::<&Velocity>(e).map_or(Vec2::ZERO, |v| v.0);
        Some(v.normalized_or_zero())
    }

    /// The entity this live entity is attached to, as this tick's commands so far leave it
    /// (attachments are made at Commit).
    pub(crate) fn parent_after(&self, seq: u64) -> Option<u64> {
        if let Some(to) = self.sent.attach.get(&seq) {
            return *to;
        }
        let e = self.entity(seq)?;
        self.ecs.get::<&Attached>(e).ok().map(|a| a.parent)
    }

    /// The entity's archetype, if it exists.
    pub fn kind(&self, seq: u64) -> Option<&ArchetypeDef> {
        let e = self.entity(seq)?;
        let id = self.ecs.get::<&Identity>(e).ok()?.archetype;
        self.def.archetype(id)
    }

    /// The entity's tag set, if it exists.
    pub fn tags(&self, seq: u64) -> Option<u64> {
        let e = self.entity(seq)?;
        let id = self.ecs.get::<&Identity>(e).ok()?.archetype;
        Some(self.def.tags_of(id))
    }

    /// The archetype of a live entity, or of one spawned earlier this tick.
    pub fn archetype_of(&self, seq: u64) -> Option<ArchetypeId> {
        if let Some(e) = self.entity(seq) {
            return self.ecs.get::<&Identity>(e).ok().map(|i| i.archetype);
        }
        if !self.is_spawning(seq) {
            return None;
        }
        let n = (seq - self.next_seq) as usize;
        if let Some((a, _, _)) = self.queued.get(n) {
            return Some(*a);
        }
        let n = n - self.queued.len();
        self.commands
            .iter()
            .filter_map(|c| match c {
                crate::command::Command::Spawn { archetype, .. } => Some(*archetype),
                _ => None,
            })
            .nth(n)
    }

    /// The cooldown slot `name` of the entity's archetype (a live entity or one spawned this
    /// tick). `Ok(None)`: no such entity; an error: its archetype declares no such cooldown.
    pub fn cooldown_slot(&self, seq: u64, name: &str) -> Result<Option<u8>, CommandError> {
        self.slot(
            seq,
            name,
            "cooldown",
            |a| a.cooldowns.iter().position(|c| c.name == name),
            |a| a.cooldowns.iter().map(|c| c.name.as_str()).collect(),
        )
    }

    /// The animation slot `name` of the entity's archetype (a live entity or one spawned this
    /// tick). `Ok(None)`: no such entity; an error: its archetype declares no such animation.
    pub fn animation_slot(&self, seq: u64, name: &str) -> Result<Option<u8>, CommandError> {
        self.slot(
            seq,
            name,
            "animation",
            |a| a.animations.iter().position(|c| c.name == name),
            |a| a.animations.iter().map(|c| c.name.as_str()).collect(),
        )
    }

    /// The index of `name` among the `kind`s of the entity's archetype (`position` finds it,
    /// `names` lists them all for the error).
    fn slot(
        &self,
        seq: u64,
        name: &str,
        kind: &str,
        position: impl Fn(&ArchetypeDef) -> Option<usize>,
        names: impl Fn(&ArchetypeDef) -> Vec<&str>,
    ) -> Result<Option<u8>, CommandError> {
        let Some(a) = self.archetype_of(seq).and_then(|a| self.def.archetype(a)) else {
            return Ok(None);
        };
        if let Some(i) = position(a) {
            return Ok(Some(i as u8));
        }
        let names = names(a);
        Err(CommandError::malformed(format!(
            "archetype `{}` declares no {kind} `{name}` ({})",
            a.name,
            if names.is_empty() {
                "it declares none".to_string()
            } else {
                format!("it declares {}", names.join(", "))
            }
        )))
    }

    /// Ticks until the entity's cooldown `name` is ready (0: ready now), or `Ok(None)` when
    /// the entity does not exist (yet).
    pub fn cooldown(&self, seq: u64, name: &str) -> Result<Option<u64>, CommandError> {
        let Some(e) = self.entity(seq) else {
            return Ok(None);
        };
        let Some(slot) = self.cooldown_slot(seq, name)? else {
            return Ok(None);
        };
        let deadline = self
            .ecs
            .get::<&Cooldowns>(e)
            .ok()
            .and_then(|c| c.0.get(slot as usize).copied())
            .unwrap_or_default();
        Ok(Some(
            deadline.at().map_or(0, |t| t.saturating_sub(self.tick)),
        ))
    }

    /// Whether this tick's spatial reads were charged for every entity: a `nearest` then
    /// reports the same work each time it is asked the same (only the first read of a tick is
    /// charged for them).
    pub fn spatial_ready(&self) -> bool {
        self.spatial.is_charged_for(self.tick)
    }

    /// The most work a `find` or `count` can report now: the tick's first spatial read is
    /// charged for every entity with a position (at most every entity), the first read of a
    /// tag set in a tick for the entities the tick's charge counted, a later one for those
    /// carrying the tags (never more).
    pub fn census_bound(&self) -> u64 {
        if self.spatial.is_charged_for(self.tick) {
            self.spatial.counted()
        } else {
            2 * self.ecs.len() as u64
        }
    }

    /// Charges the tick's first spatial read for every entity (see [`crate::spatial`]).
    fn charge(&mut self) {
        let (census, ecs, instance) = (&mut *self.census, self.ecs, self.instance);
        self.work += self.spatial.charge(self.tick, || {
            census.take(ecs, instance);
            census.total()
        });
    }

    /// Builds the spatial grid for this tick if no read has yet (charged as any first read).
    fn spatial(&mut self) {
        self.charge();
        if self.spatial.is_built_for(self.tick) {
            return;
        }
        let (def, ecs) = (self.def, self.ecs);
        // Archetype by archetype, row by row (the order a query of both would give).
        let built = self.spatial.build_with(self.tick, |entries| {
            for a in ecs.archetypes_placed().filter(|a| !a.is_empty()) {
                let (Some(ids), Some(pos)) = (a.read::<Identity>(), a.read::<Position>()) else {
                    continue;
                };
                let rows = std::iter::zip(ids.iter(), pos.iter());
                entries.extend(rows.map(|(id, pos)| Entry {
                    seq: id.seq(),
                    tags: def.tags_of(id.archetype),
                    pos: pos.0,
                }));
            }
        });
        debug_assert_eq!(
            built as u64,
            self.spatial.counted(),
            "the grid holds what was charged"
        );
    }

    /// Live entities whose tags include all of `tags`, in creation order.
    pub fn find(&mut self, tags: u64) -> Vec<u64> {
        self.charge();
        let (census, ecs, def) = (&*self.census, self.ecs, self.def);
        let (_, work) = self.spatial.ask(tags, || census.tagged(def, tags));
        let ids = self
            .spatial
            .listed(tags, |ids| census.list(ecs, def, tags, ids));
        let (pending, now) = (self.pending, &*self.destroyed_now);
        let found: Vec<u64> = ids
            .iter()
            .copied()
            .filter(|s| !pending.contains(s) && !now.contains(s))
            .collect();
        self.work += work;
        found
    }

    /// How many live entities carry all of `tags`: counted by archetype, less those being
    /// destroyed, found by visiting the fewer of the destroys and the entities carrying the
    /// tags (these listed once a tick, as `find` lists them): never more than a repeated
    /// count is charged.
    pub fn count(&mut self, tags: u64) -> usize {
        self.charge();
        let (census, ecs, def) = (&*self.census, self.ecs, self.def);
        let (carrying, work) = self.spatial.ask(tags, || census.tagged(def, tags));
        self.work += work;
        let (pending, now) = (self.pending, &*self.destroyed_now);
        if pending.is_empty() && now.is_empty() {
            return carrying as usize;
        }
        let gone = if (pending.len() + now.len()) as u64 <= carrying {
            let carries = |s: &u64| self.carries(*s, tags);
            pending.iter().filter(|s| carries(s)).count()
                + (now.iter())
                    .filter(|s| !pending.contains(*s) && carries(s))
                    .count()
        } else {
            let ids = self
                .spatial
                .listed(tags, |ids| census.list(ecs, def, tags, ids));
            (ids.iter())
                .filter(|s| pending.contains(*s) || now.contains(*s))
                .count()
        };
        debug_assert!(
            gone as u64 <= carrying,
            "the destroyed are among the counted"
        );
        (carrying as usize).saturating_sub(gone)
    }

    /// Whether `seq` is a live entity with a position whose tags include all of `tags` (one
    /// the spatial reads hold).
    fn carries(&self, seq: u64, tags: u64) -> bool {
        let Some(e) = self.entity(seq) else {
            return false;
        };
        self.ecs.get::<&Position>(e).is_ok()
            && (self.ecs.get::<&Identity>(e))
                .is_ok_and(|i| self.def.tags_of(i.archetype) & tags == tags)
    }

    /// The live entity carrying all of `tags` nearest `at` (within `radius`, if given); ties go
    /// to the lower id.
    pub fn nearest(&mut self, at: Vec2, radius: Option<f32>, tags: u64) -> Option<u64> {
        self.spatial();
        let (pending, now) = (self.pending, &*self.destroyed_now);
        let (found, work) = self.spatial.nearest(at, radius, tags, |s| {
            !pending.contains(&s) && !now.contains(&s)
        });
        self.work += work;
        found
    }

    /// Live entities carrying all of `tags` within `radius` of `at`, nearest first, ties by id.
    pub fn within(&mut self, at: Vec2, radius: f32, tags: u64) -> Vec<u64> {
        self.spatial();
        let (pending, now) = (self.pending, &*self.destroyed_now);
        let (found, work) = self.spatial.within(at, radius, tags, |s| {
            !pending.contains(&s) && !now.contains(&s)
        });
        self.work += work;
        found
    }

    /// The work reads did since the last call (see the module documentation).
    pub fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }
}

impl Gameplay<'_> {
    /// The legend character of the tile at `pos` as the stage began: `None` outside the tile
    /// map (or in a level without one), where there is no tile, and where a CSV map gives a
    /// frame number rather than a character.
    pub fn tile(&self, pos: Vec2) -> Option<char> {
        let (map, tiles) = self.tiles?;
        let cell = map.cell_at(pos)?;
        map.char_of(tiles.key(map, cell))
    }

    /// The cell at `pos` and the key of tile `tile` (`' '`: none), which a `set_tile` command
    /// sets; refused when the level has no tile map, `pos` is outside it, or `tile` is no tile
    /// of its legend.
    pub(crate) fn tile_cell(&self, pos: Vec2, tile: char) -> Result<(usize, u8), CommandError> {
        let Some((map, _)) = self.tiles else {
            return Err(CommandError::malformed(
                "this level has no tile map to set a tile in",
            ));
        };
        let Some(cell) = map.cell_at(pos) else {
            let end = map.origin
                + Vec2::new(
                    map.columns as f32 * map.tile.x,
                    map.rows as f32 * map.tile.y,
                );
            return Err(CommandError::malformed(format!(
                "({}, {}) is outside the tile map, which covers x from {} to {} and y from {} to {}",
                pos.x, pos.y, map.origin.x, end.x, map.origin.y, end.y
            )));
        };
        let key = map.key_of(tile).map_err(|why| {
            let shown = crate::fault::printable_line(&tile.to_string()).into_owned();
            let what = match why {
                crate::def::NotATile::Spawn => {
                    format!("`{shown}` places an archetype when the level starts; it is not a tile")
                }
                crate::def::NotATile::Unknown => {
                    format!("`{shown}` is not in the tile map's legend")
                }
            };
            let tiles = map.tile_names();
            CommandError::malformed(if tiles.is_empty() {
                format!("{what}: the legend has no tiles, only \" \" (no tile)")
            } else {
                format!("{what}: its tiles are {tiles}, and \" \" for no tile")
            })
        })?;
        Ok((cell, key))
    }
}
