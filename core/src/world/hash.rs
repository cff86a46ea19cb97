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

use crate::par;
use crate::var::Var;
use crate::world::SimWorld;
use crate::world::components::*;
use xxhash_rust::xxh3::xxh3_64;

/// Entities from which the hash splits them between two threads: an entity's records cost
/// several times what a motion pass does for it, so this is below [`par::SPLIT_MIN`].
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

/// Little-endian byte writer for one hashed record.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i64(&mut self, v: i64) -> &mut Self {
        self.u64(v as u64)
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_bits().to_le_bytes());
        self
    }
    fn f64(&mut self, v: f64) -> &mut Self {
        self.u64(v.to_bits())
    }
    fn str(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    fn deadline(&mut self, d: Deadline) -> &mut Self {
        self.u64(d.word())
    }
    fn take(&mut self) -> u64 {
        let h = xxh3_64(&self.0);
        self.0.clear();
        h
    }
}

/// A record of at most `N` bytes written at known offsets (the per-entity records: no
/// capacity checks, so a record is a few stores and one hash); the same bytes [`Bytes`] would
/// write.
struct Fixed<const N: usize> {
    a: [u8; N],
    at: usize,
}

impl<const N: usize> Fixed<N> {
    #[inline(always)]
    fn new() -> Self {
        Fixed { a: [0; N], at: 0 }
    }
    // Written in place (`&mut`): a builder that took and returned the record by value moved
    // the whole array at every step, which cost more than the hashing.
    #[inline(always)]
    fn put<const K: usize>(&mut self, b: [u8; K]) -> &mut Self {
        self.a[self.at..self.at + K].copy_from_slice(&b);
        self.at += K;
        self
    }
    #[inline(always)]
    fn u64(&mut self, v: u64) -> &mut Self {
        self.put(v.to_le_bytes())
    }
    #[inline(always)]
    fn f32(&mut self, v: f32) -> &mut Self {
        self.put(v.to_bits().to_le_bytes())
    }
    #[inline(always)]
    fn hash(&self) -> u64 {
        xxh3_64(&self.a[..self.at])
    }
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

/// What the hash reads of every entity (see [`entity`]).
type Hashed<'a> = (
    &'a Identity,
    &'a Position,
    Option<&'a Velocity>,
    Option<&'a Health>,
    Option<&'a Brain>,
    Option<&'a Aim>,
    Option<&'a Cooldowns>,
    Option<&'a Lifetime>,
    Option<&'a Control>,
    Option<&'a ScriptState>,
    Option<&'a Rotation>,
    Option<&'a Footing>,
    Option<&'a Animation>,
    Option<&'a Offscreen>,
);

/// Adds one entity's records to the category sums, each laid out byte for byte as every
/// recording was hashed.
fn entity(row: Hashed<'_>, b: &mut Bytes, parts: &mut [u64; 8]) {
    let (id, t, v, h, brain, aim, cds, life, control, state, rot, footing, anim, off) = row;
    let seq = id.seq;
    let mut record = Fixed::<24>::new();
    record.u64(seq).u64(u64::from(id.archetype.0));
    parts[2] = parts[2].wrapping_add(record.f32(t.0.x).f32(t.0.y).hash());
    if let Some(r) = rot {
        // A record of its own: entities that never rotate hash as they always did.
        let mut record = Fixed::<24>::new();
        record.u64(seq).u64(1).f32(r.angle).f32(r.spin);
        parts[2] = parts[2].wrapping_add(record.hash());
    }
    if let Some(f) = footing {
        b.u64(seq).u64(2);
        b.u64(f.grounded_at.map_or(u64::MAX, |t| t));
        b.f32(f.ground_velocity.x).f32(f.ground_velocity.y);
        b.u64(f.jump_pressed_at.map_or(u64::MAX, |t| t));
        b.u64(f.rising as u64);
        parts[5] = parts[5].wrapping_add(b.take());
    }
    if let Some(v) = v {
        let mut record = Fixed::<16>::new();
        record.u64(seq).f32(v.0.x).f32(v.0.y);
        parts[3] = parts[3].wrapping_add(record.hash());
    }
    if let Some(h) = h {
        let mut record = Fixed::<32>::new();
        record
            .u64(seq)
            .u64(i64::from(h.current) as u64)
            .u64(i64::from(h.max) as u64)
            .u64(h.invulnerable_until.word());
        parts[4] = parts[4].wrapping_add(record.hash());
    }
    if brain.is_some() || control.is_some() {
        let mut record = Fixed::<48>::new();
        record.u64(seq);
        if let Some(br) = brain {
            record
                .f32(br.intent.x)
                .f32(br.intent.y)
                .u64(aim.and_then(|a| a.target()).unwrap_or(0))
                .u64(br.decided() as u64)
                .u64(br.next_decision());
        }
        if let Some(c) = control {
            record.f32(c.facing.x).f32(c.facing.y);
        }
        parts[5] = parts[5].wrapping_add(record.hash());
    }
    if cds.is_some() || life.is_some() {
        b.u64(seq);
        for d in cds.map(|c| c.0.as_slice()).unwrap_or(&[]) {
            b.deadline(*d);
        }
        if let Some(l) = life {
            b.deadline(l.0);
        }
        parts[6] = parts[6].wrapping_add(b.take());
    }
    if let Some(a) = anim {
        // Its own record: entities without animations hash as they always did.
        let mut record = Fixed::<32>::new();
        record.u64(seq).u64(3).u64(u64::from(a.slot));
        parts[6] = parts[6].wrapping_add(record.u64(a.since).hash());
    }
    if let Some(o) = off {
        // Its own record: only entities destroyed off screen have one.
        let mut record = Fixed::<24>::new();
        record.u64(seq).u64(4).u64(u64::from(o.seen));
        parts[6] = parts[6].wrapping_add(record.hash());
    }
    if let Some(s) = state {
        b.u64(seq);
        for (k, v) in s.iter() {
            b.str(k).f64(v);
        }
        parts[7] = parts[7].wrapping_add(b.take());
    }
}

/// Every entity's records summed by category (see [`entity`]): on two threads from
/// `split_from` entities, each summing alternate batches; wrapping addition makes the halves'
/// sums the serial one.
fn entity_sums(world: &SimWorld, split_from: usize) -> [u64; 8] {
    let mut q = world.ecs.query::<Hashed<'_>>();
    let n = q.iter().len();
    if n >= split_from && par::available() {
        // Batches of about a sixteenth, dealt alternately: halves within a batch.
        let size = n.div_ceil(16).max(64) as u32;
        let batches: Vec<_> = q.iter_batched(size).collect();
        let (even, odd): (Vec<_>, Vec<_>) = batches
            .into_iter()
            .enumerate()
            .partition(|(i, _)| i % 2 == 0);
        let sum = |half: Vec<(usize, hecs::Batch<'_, Hashed<'_>>)>| {
            let (mut parts, mut b) = ([0u64; 8], Bytes::default());
            for row in half.into_iter().flat_map(|(_, batch)| batch) {
                entity(row, &mut b, &mut parts);
            }
            parts
        };
        let (x, y) = par::join(|| sum(even), || sum(odd));
        std::array::from_fn(|i| x[i].wrapping_add(y[i]))
    } else {
        let (mut parts, mut b) = ([0u64; 8], Bytes::default());
        for row in q.iter() {
            entity(row, &mut b, &mut parts);
        }
        parts
    }
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
    /// hashed (the entities' in [`entity`]): one place to read the whole layout that a
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

        let entities = entity_sums(world, split_from);
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
