//! The canonical state hash computed at EndTick, for replay and divergence reports.
//!
//! Covered, in creation-sequence identity: every entity's archetype, current position, angle
//! and spin, velocity, health (current, max, invulnerability deadline), AI state (intent,
//! target, decided), platformer footing, cooldown and lifetime deadlines, the animation playing and since when, control facing and
//! script state, and (only on entities that have them) the look of an entity whose look
//! changed, an attachment and a behaviour set at run time; and globally the tick number, next
//! creation sequence, score, game variables,
//! game-over message, the camera's zoom and shake once a script set them, the saved data once
//! it holds something, the tiles once a script changed one, the simulation camera's dead-zone
//! focus where off-screen destruction keeps one, whether each entity destroyed off screen has
//! been seen, the RNG state and every pending timer. Not covered: runtime handles, storage order, previous transforms
//! (presentation history), the world identity, counters and anything wall-clock.
//!
//! Function: XXH3-64 (`xxhash-rust`, seed 0) over little-endian bytes of each value; floats by
//! their IEEE-754 bits. Each entity contributes `xxh3(seq ‖ values)` to its category by wrapping
//! addition, so the result does not depend on iteration order and needs no sort. The total is
//! `xxh3` of the tick followed by the category sums in [`HashPart`] order.

use crate::world::SimWorld;
use crate::world::components::*;
pub use kept::HashCache;
use record::{AI, Bytes, HEALTH, POSITIONS};
use std::iter::zip;

mod kept;
mod minds;
mod movers;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod packed;
mod record;
mod rows;
mod run;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod wide;

/// Entities from which the hash splits them between two threads: an entity's records cost
/// several times what a motion pass does for it, so this is below [`crate::par::SPLIT_MIN`].
pub const SPLIT_MIN: usize = 2048;

/// Categories of the state hash; a divergence report names the ones that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashPart {
    Globals,
    Timers,
    Positions,
    Velocities,
    Health,
    Ai,
    Deadlines,
    ScriptState,
}

impl HashPart {
    pub const ALL: [HashPart; 8] = [
        HashPart::Globals,
        HashPart::Timers,
        HashPart::Positions,
        HashPart::Velocities,
        HashPart::Health,
        HashPart::Ai,
        HashPart::Deadlines,
        HashPart::ScriptState,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HashPart::Globals => "globals (tick, score, variables, RNG, entity set)",
            HashPart::Timers => "timers",
            HashPart::Positions => "positions",
            HashPart::Velocities => "velocities",
            HashPart::Health => "health",
            HashPart::Ai => "AI state",
            HashPart::Deadlines => "cooldowns and lifetimes",
            HashPart::ScriptState => "script state",
        }
    }
}

/// A state hash with its per-category parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StateHash {
    pub total: u64,
    pub parts: [u64; 8],
}

impl StateHash {
    /// The hash of a world as it stands.
    pub fn of(world: &SimWorld) -> StateHash {
        StateHash::of_split(world, SPLIT_MIN)
    }

    /// [`of`](Self::of), hashing the entities on two threads when the world holds
    /// `split_from` or more of them in archetypes of many (`usize::MAX`: on this thread; see
    /// `rows::entity_sums`). The per-entity records are summed by wrapping addition, so the
    /// halves' sums add up to the serial one.
    pub fn of_split(world: &SimWorld, split_from: usize) -> StateHash {
        let mut b = Bytes::default();
        let source = rows::Source::Counted(&world.ecs);
        let rows = rows::ROWS_PER_ARCHETYPE;
        let entities = rows::entity_sums(source, &world.max_health, rows, split_from, &mut b, None);
        StateHash::of_kept(world, entities, b, None)
    }

    /// [`of_split`](Self::of_split), reusing the hashes `cache` kept of records whose values
    /// have not changed since (see `kept`): the same hash, in fewer instructions where most
    /// entities' health and AI state stay as they were. The world is borrowed uniquely, so
    /// its columns are read with no borrow counted (see `world::columns::Frozen`).
    pub fn of_cached(world: &mut SimWorld, split_from: usize, cache: &mut HashCache) -> StateHash {
        let cache = cache.serve(world.instance);
        // The cache's writer (taken, and given back by `of_kept`).
        let mut b = std::mem::replace(&mut cache.bytes, Bytes::empty());
        let source = rows::Source::Frozen(world.ecs.freeze());
        let (max, rows) = (&world.max_health, rows::ROWS_PER_ARCHETYPE);
        let entities = rows::entity_sums(source, max, rows, split_from, &mut b, Some(cache));
        StateHash::of_kept(world, entities, b, Some(cache))
    }

    /// Long because it lays out the world's records byte for byte as every recording was
    /// hashed (the entities' in `record`): one place to read the whole layout that a
    /// recording depends on.
    /// `entities`: the entities' records summed by category (`rows::entity_sums`); `b`: the
    /// writer (the cache's where there is one, given back).
    fn of_kept(
        world: &SimWorld,
        entities: [u64; 8],
        mut b: Bytes,
        mut cache: Option<&mut HashCache>,
    ) -> StateHash {
        let mut parts = [0u64; 8];
        // The cache's list of timers where there is one (taken, and given back).
        let mut timers = match cache.as_deref_mut() {
            Some(c) => std::mem::take(&mut c.timers),
            None => Vec::new(),
        };

        b.u64(*world.tick)
            .u64(*world.next_seq)
            .i64(*world.score)
            .u64(world.rng.get_seed());
        b.u64(world.vars.len() as u64);
        for (k, v) in world.vars.iter() {
            b.var(k, v);
        }
        b.str(world.game_over.as_ref().map_or("", |(_, m)| m.as_str()))
            .u64(world.game_over.is_some() as u64);
        let asked = *world.asked;
        if asked != crate::world::Asked::default() {
            // Only in a tick that asked: other ticks hash as they always did.
            b.u64(0xA5_u64 | u64::from(asked.restart) << 8 | u64::from(asked.pause) << 9);
        }
        let camera = *world.camera;
        if camera != crate::world::camera::CameraState::default() {
            // Only once a script set it: games that never do hash as they always did.
            b.f32(camera.zoom);
            if let Some(s) = camera.shake {
                b.f32(s.strength).u64(s.start).u64(u64::from(s.ticks));
            }
        }
        if !world.saved.is_empty() {
            // Only once the store holds something: games that never save hash as they did.
            b.u64(world.saved.len() as u64);
            for (k, v) in world.saved.iter() {
                b.var(k, v);
            }
        }
        if let Some((differ, sum)) = world.tiles.hashed() {
            // Only once a script changed a tile: games that never do hash as they did.
            b.u64(0x711E).u64(differ).u64(sum);
        }
        if let Some(f) = *world.view_focus {
            // Only in games that destroy entities off screen, in levels with a dead zone.
            b.u64(0xF0C5).f32(f.x).f32(f.y);
        }
        parts[0] = b.take();

        world.timers.pending_slots(&mut timers);
        for t in timers
            .iter()
            .filter_map(|&(_, _, i)| world.timers.pending_at(i))
        {
            b.u64(t.due)
                .u64(t.seq)
                .u64(t.period.unwrap_or(0))
                .str(t.name);
            b.u64(t.target.unwrap_or(0)).f64(t.data);
        }
        parts[1] = b.take();

        for (p, e) in parts.iter_mut().zip(entities) {
            *p = p.wrapping_add(e);
        }
        // The entity records hash every health with an inactive deadline; the few entities
        // with one of their own swap that record for theirs.
        for (seq, &until) in world.invulnerable.iter() {
            let Some(e) = world.index.get(seq, world.ecs.raw()) else {
                continue;
            };
            let mut q = world.ecs.query_one::<(&Identity, &Position, &Health)>(e);
            if let Ok((i, _, h)) = q.get() {
                let max = world.max_health.of(i);
                let (now, none) = (
                    record::health(i, h, max, until),
                    record::health(i, h, max, Deadline::INACTIVE),
                );
                parts[HEALTH] = parts[HEALTH].wrapping_add(now.wrapping_sub(none));
            }
        }

        // Records of their own, only on entities that have them: others hash as they always
        // did.
        // One walk of the archetypes for the three (the sums are in no order).
        for a in world.ecs.archetypes_placed() {
            let own = [
                a.has::<Look>(),
                a.has::<Attached>(),
                a.has::<OwnBehaviour>(),
            ];
            if a.is_empty() || own == [false; 3] {
                continue;
            }
            let Some(ids) = a.read::<Identity>() else {
                continue;
            };
            let mut add = |part: usize, h: u64| parts[part] = parts[part].wrapping_add(h);
            if let Some(c) = a.read::<Look>() {
                zip(&*ids, &*c).for_each(|(id, l)| add(POSITIONS, record::look(id, l)));
            }
            if let Some(c) = a.read::<Attached>() {
                zip(&*ids, &*c).for_each(|(id, at)| add(POSITIONS, record::attachment(id, at)));
            }
            if let Some(c) = a.read::<OwnBehaviour>() {
                zip(&*ids, &*c).for_each(|(id, o)| add(AI, record::own_behaviour(id, o)));
            }
        }

        b.u64(*world.tick);
        for p in parts {
            b.u64(p);
        }
        let total = b.take();
        if let Some(c) = cache {
            (c.bytes, c.timers) = (b, timers);
        }
        StateHash { total, parts }
    }

    /// The categories in which two hashes differ.
    pub fn differing_parts(&self, other: &StateHash) -> Vec<HashPart> {
        HashPart::ALL
            .iter()
            .zip(self.parts.iter().zip(other.parts.iter()))
            .filter(|(_, (a, b))| a != b)
            .map(|(p, _)| *p)
            .collect()
    }

    /// The total as 16 lower-case hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.total)
    }
}
