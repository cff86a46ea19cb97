//! Hand-written references: the rules [`run_tick`](crate::run_tick) applies to two workloads,
//! written directly over struct-of-arrays columns. They are the yardstick the tick is measured
//! against ("a tick takes N times as long as the same work done by hand").
//!
//! A yardstick is only fair if it does the same work, so each reference does it bit for bit:
//! the same floating-point operations in the same order, decisions on the same ticks, the same
//! contacts, pushes accumulated in the same canonical pair order. `core/tests/reference.rs`
//! runs each next to a [`Game`](crate::Game) and compares every tick's contact counts and the
//! hash of every body's position and velocity.
//!
//! - [`Drones`]: the swarm example's stress drones chasing the player ([`drones_def`]).
//! - [`Crowd`]: the `tick` bench's wandering circles, optionally pushing each other
//!   ([`crowd_def`]).
//!
//! Each is written as one would write it by hand for speed: `Vec<f32>` columns in creation
//! order, a pass for the few decisions due and one fused pass over every body per tick, no
//! ECS, no hashing of entities, and no allocation per tick (buffers are reused). Each starts from a built world
//! (`from_world`), so both sides begin from the same state, and leaves out what its workload
//! never does (spawns, scripts, timers, the state hash); `from_world` panics on a world it
//! does not model rather than silently doing different work.

mod crowd;
mod drones;

pub use crowd::{Bumps, Crowd, crowd_def};
pub use drones::{Drones, drones_def};

use crate::def::{BoundsPolicy, ColliderDef, GameDef};
use crate::event::Events;
use crate::math::{Rect, Vec2};
use crate::world::SimWorld;
use crate::world::components::*;
use xxhash_rust::xxh3::Xxh3;

/// Collision contacts of one tick: begun, lasting (reported only for pairs that asked for stay
/// events) and ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub enter: usize,
    pub stay: usize,
    pub exit: usize,
}

impl std::ops::Add for Counts {
    type Output = Counts;

    fn add(self, o: Counts) -> Counts {
        Counts {
            enter: self.enter + o.enter,
            stay: self.stay + o.stay,
            exit: self.exit + o.exit,
        }
    }
}

impl Counts {
    /// The collision events of a world's last tick (trigger events are not counted).
    pub fn of(events: &Events) -> Counts {
        Counts {
            enter: events.collision_enter.len(),
            stay: events.collision_stay.len(),
            exit: events.collision_exit.len(),
        }
    }
}

/// The xxh3 hash of bodies' `(seq, pos.x, pos.y, vel.x, vel.y)` as little-endian bytes, fed
/// in the order given. References and [`hash_bodies`] both use it, so equal hashes mean equal
/// bits.
struct BodyHash {
    hasher: Xxh3,
    /// Bodies not yet fed, 24 bytes each (feeding in chunks gives the same hash, faster).
    chunk: [u8; 24 * 64],
    len: usize,
}

impl BodyHash {
    fn new() -> BodyHash {
        BodyHash {
            hasher: Xxh3::new(),
            chunk: [0; 24 * 64],
            len: 0,
        }
    }

    fn add(&mut self, seq: u64, pos: Vec2, vel: Vec2) {
        if self.len == self.chunk.len() {
            self.hasher.update(&self.chunk);
            self.len = 0;
        }
        let b = &mut self.chunk[self.len..self.len + 24];
        b[..8].copy_from_slice(&seq.to_le_bytes());
        b[8..12].copy_from_slice(&pos.x.to_le_bytes());
        b[12..16].copy_from_slice(&pos.y.to_le_bytes());
        b[16..20].copy_from_slice(&vel.x.to_le_bytes());
        b[20..].copy_from_slice(&vel.y.to_le_bytes());
        self.len += 24;
    }

    fn finish(mut self) -> u64 {
        self.hasher.update(&self.chunk[..self.len]);
        self.hasher.digest()
    }
}

/// The hash of columns in creation order (a reference's `hash()`).
pub(crate) fn hash_columns(seq: &[u64], x: &[f32], y: &[f32], vx: &[f32], vy: &[f32]) -> u64 {
    let mut h = BodyHash::new();
    for i in 0..seq.len() {
        h.add(seq[i], Vec2::new(x[i], y[i]), Vec2::new(vx[i], vy[i]));
    }
    h.finish()
}

/// The hash a reference's `hash()` gives, computed from a world for the bodies `seqs`
/// (ascending, as a reference's `seqs()` are).
///
/// # Panics
/// If `seqs` is not ascending, or one of them is not a live entity with a position and a
/// velocity.
pub fn hash_bodies(world: &SimWorld, seqs: &[u64]) -> u64 {
    assert!(seqs.is_sorted(), "sequences are ascending");
    // One pass over the world rather than a look-up per body.
    let mut q = world.ecs().query::<(&Identity, &Position, &Velocity)>();
    let mut bodies: Vec<(u64, Vec2, Vec2)> =
        q.iter().map(|(id, p, v)| (id.seq(), p.0, v.0)).collect();
    bodies.sort_unstable_by_key(|b| b.0);
    let mut h = BodyHash::new();
    let mut rest = &bodies[..];
    for &seq in seqs {
        let at = rest.partition_point(|b| b.0 < seq);
        let Some(&(s, pos, vel)) = rest.get(at).filter(|b| b.0 == seq) else {
            panic!("entity {seq} is not in the world with a position and a velocity");
        };
        h.add(s, pos, vel);
        rest = &rest[at + 1..];
    }
    h.finish()
}

/// Where the bounds keep a confined collider's centre, per axis: the level's bounds shrunk by
/// the collider's half extents, or the bounds' middle where the collider is the wider (see
/// `tick/motion/bounds.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Confine {
    lo: Vec2,
    hi: Vec2,
    mid: Vec2,
    fits_x: bool,
    fits_y: bool,
}

impl Confine {
    pub(crate) fn new(bounds: Rect, half: Vec2) -> Confine {
        let (lo, hi) = (bounds.min + half, bounds.max - half);
        Confine {
            lo,
            hi,
            mid: bounds.center(),
            fits_x: lo.x <= hi.x,
            fits_y: lo.y <= hi.y,
        }
    }

    /// Moves a centre inside; a velocity component along an axis that moved becomes 0.
    #[inline]
    pub(crate) fn apply(&self, x: &mut f32, y: &mut f32, vx: &mut f32, vy: &mut f32) {
        let cx = if self.fits_x {
            clamp(*x, self.lo.x, self.hi.x)
        } else {
            self.mid.x
        };
        let cy = if self.fits_y {
            clamp(*y, self.lo.y, self.hi.y)
        } else {
            self.mid.y
        };
        *vx = if cx != *x { 0.0 } else { *vx };
        *vy = if cy != *y { 0.0 } else { *vy };
        *x = cx;
        *y = cy;
    }
}

/// `f32::clamp` for `lo <= hi` (checked once, at [`Confine::new`]), written as two selects
/// so loops over it vectorize.
#[inline]
fn clamp(v: f32, lo: f32, hi: f32) -> f32 {
    let v = if v < lo { lo } else { v };
    if v > hi { hi } else { v }
}

/// One step of plain integration, `p + v dt`, keeping the old position when the new one is not
/// finite (see [`integrate`](crate::integrate)).
#[inline]
pub(crate) fn integrate(x: &mut f32, y: &mut f32, vx: f32, vy: f32, dt: f32) {
    let (nx, ny) = (*x + vx * dt, *y + vy * dt);
    let finite = nx.is_finite() && ny.is_finite();
    *x = if finite { nx } else { *x };
    *y = if finite { ny } else { *y };
}

/// One body's step by hand, as the tick's motion takes it: its velocity from its heading
/// `(ix, iy)` at `speed`, integrated over `dt` from `(x, y)`, then confined (a velocity into a
/// wall becomes 0). The new position and velocity.
#[inline(always)]
pub(crate) fn move_body(
    confine: &Confine,
    (x, y): (f32, f32),
    (ix, iy): (f32, f32),
    speed: f32,
    dt: f32,
) -> (f32, f32, f32, f32) {
    let (mut px, mut py) = (x, y);
    let (mut ux, mut uy) = (ix * speed, iy * speed);
    integrate(&mut px, &mut py, ux, uy, dt);
    confine.apply(&mut px, &mut py, &mut ux, &mut uy);
    (px, py, ux, uy)
}

/// The next decision tick of a behaviour deciding at `tick`: the next tick with
/// `(tick + seq) % cadence == 0` (see `tick/intent.rs`).
#[inline]
pub(crate) fn next_decision(tick: u64, seq: u64, cadence: u64) -> u64 {
    tick + cadence - (tick.wrapping_add(seq) % cadence)
}

/// One entity of a world as a reference reads it at `from_world`.
pub(crate) struct Entity {
    pub seq: u64,
    pub pos: Vec2,
    pub vel: Vec2,
    pub speed: f32,
    pub tags: u64,
    pub brain: Option<Brain>,
    /// Its behaviour's target tags, cadence and navigation (its archetype's).
    pub wants: u64,
    pub cadence: u64,
    pub navigate: bool,
    pub collider: Option<ColliderDef>,
    pub bounds: BoundsPolicy,
    pub health: Option<Health>,
    /// Ticks of invulnerability after damage (its archetype's).
    pub invulnerable: u32,
    /// Has a component whose rules no reference models (control, motion rules, a static
    /// body, footing, a lifetime).
    pub unmodelled: bool,
}

/// Every entity of `world`, by creation sequence.
pub(crate) fn entities(world: &SimWorld, def: &GameDef) -> Vec<Entity> {
    let mut q = world.ecs().query::<(
        &Identity,
        &Position,
        &Velocity,
        Option<&Speed>,
        Option<&Brain>,
        (Option<&Collider>, Option<&SharedCollider>),
        Option<&BoundsRule>,
        Option<&Health>,
        (
            Option<&Control>,
            Option<&Motion>,
            Option<&StaticBody>,
            Option<&Footing>,
            Option<&Lifetime>,
        ),
    )>();
    let mut all: Vec<Entity> = q
        .iter()
        .map(
            |(id, p, v, s, brain, collider, bounds, health, other)| Entity {
                seq: id.seq(),
                pos: p.0,
                vel: v.0,
                speed: Speed::of(s, id.archetype, def),
                tags: def.tags_of(id.archetype),
                brain: brain.copied(),
                wants: def.behaviour_targets(id.archetype),
                cadence: def.behaviour_cadence(id.archetype),
                navigate: def.behaviour_navigates(id.archetype),
                collider: Collider::either(collider.0, collider.1, def, id.archetype)
                    .map(|c| c.def(def)),
                bounds: bounds.map_or(BoundsPolicy::Ignore, |_| def.bounds_of(id.archetype)),
                health: health.copied(),
                invulnerable: def.invulnerable_ticks(id.archetype),
                unmodelled: other.0.is_some()
                    || other.1.is_some()
                    || other.2.is_some()
                    || other.3.is_some()
                    || other.4.is_some(),
            },
        )
        .collect();
    all.sort_unstable_by_key(|e| e.seq);
    all
}

/// Radix digits are at most this many bits.
const RADIX_BITS: u32 = 12;

/// Sorts `keys`, each below `2^bits`, by least-significant-digit radix passes of at most
/// [`RADIX_BITS`] bits (`spare` is the other buffer, `histogram` the counts); short lists are
/// sorted in place.
pub(crate) fn radix_sort(
    keys: &mut Vec<u64>,
    spare: &mut Vec<u64>,
    histogram: &mut Vec<u32>,
    bits: u32,
) {
    if keys.len() < 256 {
        keys.sort_unstable();
        return;
    }
    let passes = bits.div_ceil(RADIX_BITS).max(1) as usize;
    let width = bits.div_ceil(passes as u32);
    let size = 1usize << width;
    let mask = (size - 1) as u64;
    histogram.clear();
    histogram.resize(passes * size, 0);
    for &k in keys.iter() {
        for p in 0..passes {
            histogram[p * size + ((k >> (p as u32 * width)) & mask) as usize] += 1;
        }
    }
    spare.clear();
    spare.resize(keys.len(), 0);
    for p in 0..passes {
        let counts = &mut histogram[p * size..(p + 1) * size];
        let mut sum = 0u32;
        for c in counts.iter_mut() {
            let here = *c;
            *c = sum;
            sum += here;
        }
        let shift = p as u32 * width;
        for &k in keys.iter() {
            let d = ((k >> shift) & mask) as usize;
            spare[counts[d] as usize] = k;
            counts[d] += 1;
        }
        std::mem::swap(keys, spare);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radix_sort_sorts_like_sort_unstable() {
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut spare, mut histogram) = (Vec::new(), Vec::new());
        for (len, bits) in [
            (0, 8),
            (100, 8),
            (300, 2),
            (5_000, 20),
            (20_000, 36),
            (9_000, 64),
        ] {
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
            let mut keys: Vec<u64> = (0..len).map(|_| rng.u64(..) & mask).collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            radix_sort(&mut keys, &mut spare, &mut histogram, bits);
            assert_eq!(keys, expected, "{len} keys of {bits} bits");
        }
    }
}
