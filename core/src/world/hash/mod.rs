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

use crate::var::Var;
use crate::world::SimWorld;
use crate::world::components::*;
use record::{Bytes, Fixed};

mod record;
mod rows;
#[cfg(test)]
mod tests;

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

/// An entity's look as hashed: its sequence, a tag no other record of its category has, a
/// word of which parts are set (and the flags' values), then the set values (0 for the rest).
fn look_record(seq: u64, l: &Look) -> u64 {
    let flag = |v: Option<bool>, at: u32| match v {
        None => 0u64,
        Some(b) => (1 | u64::from(b) << 1) << at,
    };
    let set = u64::from(l.scale.is_some())
        | u64::from(l.color.is_some()) << 1
        | u64::from(l.alpha.is_some()) << 2
        | u64::from(l.layer.is_some()) << 3
        | flag(l.visible, 4)
        | flag(l.flip_x, 6)
        | flag(l.flip_y, 8);
    let scale = l.scale.unwrap_or_default();
    let c = l
        .color
        .map_or(0, |c| u32::from_le_bytes([c.r, c.g, c.b, c.a]));
    let layer = l.layer.map_or(0, |v| v as u16);
    Fixed::<48>::new()
        .u64(seq)
        .u64(0x4C4F_4F4B)
        .u64(set)
        .f32(scale.x)
        .f32(scale.y)
        .f32(l.alpha.unwrap_or(0.0))
        .put(c.to_le_bytes())
        .put(layer.to_le_bytes())
        .hash()
}

impl StateHash {
    /// The hash of a world as it stands.
    pub fn of(world: &SimWorld) -> StateHash {
        StateHash::of_split(world, SPLIT_MIN)
    }

    /// [`of`](Self::of), hashing the entities on two threads when the world holds
    /// `split_from` or more of them (`usize::MAX`: on this thread). The per-entity records are
    /// summed by wrapping addition, so the halves' sums add up to the serial one.
    ///
    /// Long because it lays out the world's records byte for byte as every recording was
    /// hashed (the entities' in [`record`]): one place to read the whole layout that a
    /// recording depends on.
    pub fn of_split(world: &SimWorld, split_from: usize) -> StateHash {
        let mut parts = [0u64; 8];
        let mut b = Bytes::default();

        b.u64(*world.tick)
            .u64(*world.next_seq)
            .i64(*world.score)
            .u64(world.rng.get_seed());
        b.u64(world.vars.len() as u64);
        for (k, v) in world.vars.iter() {
            b.str(k);
            match v {
                Var::Num(n) => b.f64(*n),
                // A tag no f64 of a variable has (a NaN), then the text.
                Var::Text(t) => b.u64(u64::MAX).str(t),
            };
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
                b.str(k);
                match v {
                    Var::Num(n) => b.f64(*n),
                    Var::Text(t) => b.u64(u64::MAX).str(t),
                };
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

        for t in world.timers.pending() {
            b.u64(t.due)
                .u64(t.seq)
                .u64(t.period.unwrap_or(0))
                .str(t.name);
            b.u64(t.target.unwrap_or(0)).f64(t.data);
        }
        parts[1] = b.take();

        let entities = rows::entity_sums(&world.ecs, rows::ROWS_PER_ARCHETYPE, split_from);
        for (p, e) in parts.iter_mut().zip(entities) {
            *p = p.wrapping_add(e);
        }

        for (id, look) in world.ecs.query::<(&Identity, &Look)>().iter() {
            // Only entities whose look changed have one: others hash as they always did.
            parts[2] = parts[2].wrapping_add(look_record(id.seq, look));
        }
        // Records of their own, on entities that have them: others hash as they always did.
        for (id, a) in world.ecs.query::<(&Identity, &Attached)>().iter() {
            let mut record = Fixed::<40>::new();
            record.u64(id.seq).u64(5).u64(a.parent);
            record
                .f32(a.offset.x)
                .f32(a.offset.y)
                .u64(u64::from(a.angle));
            parts[2] = parts[2].wrapping_add(record.hash());
        }
        for (id, own) in world.ecs.query::<(&Identity, &OwnBehaviour)>().iter() {
            let b = own.0;
            let mut record = Fixed::<64>::new();
            record.u64(id.seq).u64(6).u64(b.kind as u64);
            record
                .u64(b.target)
                .u64(b.cadence.map_or(0, u64::from))
                .u64(u64::from(b.navigate))
                .u64(b.range.map_or(u64::MAX, |r| u64::from(r.to_bits())))
                .u64(b.idle as u64);
            parts[5] = parts[5].wrapping_add(record.hash());
        }

        b.u64(*world.tick);
        for p in parts {
            b.u64(p);
        }
        StateHash {
            total: b.take(),
            parts,
        }
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
