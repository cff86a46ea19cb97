//! The byte layouts of hashed records (little-endian words, floats by their bits), and each
//! entity record's layout, byte for byte as every recording was hashed.

use crate::var::Var;
use crate::world::components::*;
use xxhash_rust::xxh3::xxh3_64;

/// Little-endian byte writer for one hashed record at a time (`take` empties it and keeps
/// its room, so one writer serves a whole hash).
#[derive(Clone, Debug)]
pub(super) struct Bytes(Vec<u8>);

impl Default for Bytes {
    /// Room for the records of most games from the start: grown a doubling at a time from
    /// nothing, it cost Breakout's replay 5% of its instructions in reallocations.
    fn default() -> Self {
        Bytes(Vec::with_capacity(256))
    }
}

impl Bytes {
    /// A writer with no room yet (what a kept writer is swapped with while in use).
    pub(super) const fn empty() -> Bytes {
        Bytes(Vec::new())
    }

    pub(super) fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(super) fn i64(&mut self, v: i64) -> &mut Self {
        self.u64(v as u64)
    }
    pub(super) fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_bits().to_le_bytes());
        self
    }
    pub(super) fn f64(&mut self, v: f64) -> &mut Self {
        self.u64(v.to_bits())
    }
    pub(super) fn str(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    /// A named variable (of the game's variables or its saved data): the name, then the
    /// number, or a tag no number has (a NaN) and the text.
    pub(super) fn var(&mut self, name: &str, v: &Var) -> &mut Self {
        self.str(name);
        match v {
            Var::Num(n) => self.f64(*n),
            Var::Text(t) => self.u64(u64::MAX).str(t),
        }
    }
    pub(super) fn deadline(&mut self, d: Deadline) -> &mut Self {
        self.u64(d.word())
    }
    pub(super) fn take(&mut self) -> u64 {
        let h = xxh3_64(&self.0);
        self.0.clear();
        h
    }
}

/// A record of at most `N` bytes written at known offsets (no capacity checks, so a record
/// is a few stores and one hash); the same bytes [`Bytes`] would write.
pub(super) struct Fixed<const N: usize> {
    a: [u8; N],
    at: usize,
}

impl<const N: usize> Fixed<N> {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Fixed { a: [0; N], at: 0 }
    }
    // Written in place (`&mut`): a builder that took and returned the record by value moved
    // the whole array at every step, which cost more than the hashing.
    #[inline(always)]
    pub(super) fn put<const K: usize>(&mut self, b: [u8; K]) -> &mut Self {
        self.a[self.at..self.at + K].copy_from_slice(&b);
        self.at += K;
        self
    }
    #[inline(always)]
    pub(super) fn u64(&mut self, v: u64) -> &mut Self {
        self.put(v.to_le_bytes())
    }
    #[inline(always)]
    pub(super) fn f32(&mut self, v: f32) -> &mut Self {
        self.put(v.to_bits().to_le_bytes())
    }
    #[inline(always)]
    pub(super) fn hash(&self) -> u64 {
        xxh3_64(&self.a[..self.at])
    }
}

/// The hash of a record of `K` little-endian words (at most 8).
#[inline(always)]
pub(super) fn words<const K: usize>(w: [u64; K]) -> u64 {
    const { assert!(K <= 8) };
    let mut a = [0u8; 64];
    for (i, x) in w.iter().enumerate() {
        a[i * 8..i * 8 + 8].copy_from_slice(&x.to_le_bytes());
    }
    xxh3_64(&a[..K * 8])
}

/// [`words`] of three words `[a, b, c]` in two steps: [`head3`] of `a` and `b`, which a
/// caller may keep while they stay, then [`tail3`] with `c`. XXH3-64 (seed 0, its default
/// secret) of 24 bytes is `avalanche(24 * PRIME64_1 + mix(a, b; secret 0..16) + mix(b, c;
/// secret 16..32))`; the test `split_xxh3_is_xxh3` holds this to the crate's.
#[inline(always)]
pub(super) fn head3(a: u64, b: u64) -> Head3 {
    const LEN: u64 = 24u64.wrapping_mul(XXH_PRIME64_1);
    Head3 {
        sum: LEN.wrapping_add(mix(a ^ SECRET[0], b ^ SECRET[1])),
        b: b ^ SECRET[2],
    }
}

/// What [`tail3`] needs of a three-word record's first two words: the sum so far and the
/// second word as the last mix takes it, in that order in memory (`repr(C)`: the wide pass
/// reads them as two words, see `minds`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(super) struct Head3 {
    sum: u64,
    b: u64,
}

/// The rest of [`head3`]'s record (see there): `words([a, b, c])` from `head3(a, b)`.
#[inline(always)]
pub(super) fn tail3(head: Head3, c: u64) -> u64 {
    let mut h = head.sum.wrapping_add(mix(head.b, c ^ TAIL_SECRET));
    h ^= h >> 37;
    h = h.wrapping_mul(AVALANCHE);
    h ^ (h >> 32)
}

const _: () = assert!(size_of::<Head3>() == 16);

/// The secret word [`tail3`] mixes its last word with.
pub(super) const TAIL_SECRET: u64 = SECRET[3];

/// The multiplier of XXH3's final avalanche of a 17-to-128-byte input.
pub(super) const AVALANCHE: u64 = 0x1656_6791_9E37_79F9;

/// XXH3's 128-bit product folded to 64 bits: its low word xor its high word.
#[inline(always)]
fn mix(a: u64, b: u64) -> u64 {
    // Where words are 64 bits the product is one instruction.
    #[cfg(target_pointer_width = "64")]
    let (low, high) = {
        let p = u128::from(a) * u128::from(b);
        (p as u64, (p >> 64) as u64)
    };
    // In the browser's wasm32 a `u128` product is a call into the compiler's runtime that
    // returns through memory; four 32-bit products inline cost a fraction of it.
    #[cfg(not(target_pointer_width = "64"))]
    let (low, high) = product_by_halves(a, b);
    low ^ high
}

/// The 128-bit product of `a` and `b` (low word, high word) from four products of 32-bit
/// halves, as the wide hash (`hash::wide::mix`) makes it in each lane.
#[cfg(any(test, not(target_pointer_width = "64")))]
#[inline(always)]
pub(super) fn product_by_halves(a: u64, b: u64) -> (u64, u64) {
    const LOW: u64 = 0xffff_ffff;
    let (a0, a1, b0, b1) = (a & LOW, a >> 32, b & LOW, b >> 32);
    let (ll, lh, hl, hh) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // Bits 32 to 95 of the product, with the carry into the high word above bit 63.
    let cross = (ll >> 32) + (lh & LOW) + (hl & LOW);
    let low = (ll & LOW) | (cross << 32);
    let high = hh + (lh >> 32) + (hl >> 32) + (cross >> 32);
    (low, high)
}

const XXH_PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;

/// The first 32 bytes of XXH3's default secret, as little-endian words.
const SECRET: [u64; 4] = [
    0xbe4b_a423_396c_feb8,
    0x1cad_21f7_2c81_017c,
    0xdb97_9083_e96d_d4de,
    0x1f67_b3b7_a4a4_4072,
];

/// Two floats in one word, the first in the low half: the bytes of `x` then `y`.
#[inline(always)]
pub(super) fn pair(x: f32, y: f32) -> u64 {
    u64::from(x.to_bits()) | u64::from(y.to_bits()) << 32
}

/// The categories the entity records are summed into (indices of `HashPart::ALL`).
pub(super) const POSITIONS: usize = 2;
pub(super) const VELOCITIES: usize = 3;
pub(super) const HEALTH: usize = 4;
pub(super) const AI: usize = 5;
pub(super) const DEADLINES: usize = 6;
pub(super) const SCRIPT_STATE: usize = 7;

// The entity records, each with the category it is summed into. Every entity has the
// position record; the others only on entities with what they read. A record that was added
// later starts with a tag no other record of its category has, so entities without it hash as
// they did before it.

/// [`POSITIONS`]: sequence, archetype, position.
#[inline(always)]
pub(super) fn position(i: &Identity, p: &Position) -> u64 {
    position_after(position_head(i), p)
}

/// [`position`] from [`position_head`] (which a row may keep while its entity stays): the
/// record's words are sequence, archetype, position (`words` of them, split in two).
#[inline(always)]
pub(super) fn position_after(head: Head3, p: &Position) -> u64 {
    tail3(head, pair(p.0.x, p.0.y))
}

/// The [`head3`] of [`position`]'s record.
#[inline(always)]
pub(super) fn position_head(i: &Identity) -> Head3 {
    head3(i.seq(), u64::from(i.archetype.0))
}

/// [`POSITIONS`], tag 1: angle and spin.
#[inline(always)]
pub(super) fn rotation(i: &Identity, r: &Rotation) -> u64 {
    words([i.seq(), 1, pair(r.angle, r.spin)])
}

/// [`AI`], tag 2: platformer footing.
#[inline(always)]
pub(super) fn footing(i: &Identity, f: &Footing) -> u64 {
    words([
        i.seq(),
        2,
        f.grounded_at.unwrap_or(u64::MAX),
        pair(f.ground_velocity.x, f.ground_velocity.y),
        f.jump_pressed_at.unwrap_or(u64::MAX),
        u64::from(f.rising),
    ])
}

/// [`VELOCITIES`].
#[inline(always)]
pub(super) fn velocity(i: &Identity, v: &Velocity) -> u64 {
    words(velocity_words(i, v))
}

/// The words of [`velocity`]'s record.
#[inline(always)]
pub(super) fn velocity_words(i: &Identity, v: &Velocity) -> [u64; 2] {
    [i.seq(), pair(v.0.x, v.0.y)]
}

/// [`HEALTH`]: current, maximum (the world's: see `SimWorld::max_health`), invulnerability
/// deadline (the world's, where it keeps one for the entity: see `SimWorld::invulnerable`).
#[inline(always)]
pub(super) fn health(i: &Identity, h: &Health, max: i32, until: Deadline) -> u64 {
    words(health_words(i, h, max, until))
}

/// The words of [`health`]'s record.
#[inline(always)]
pub(super) fn health_words(i: &Identity, h: &Health, max: i32, until: Deadline) -> [u64; 4] {
    [
        i.seq(),
        i64::from(h.current) as u64,
        i64::from(max) as u64,
        until.word(),
    ]
}

/// The words of [`mind`]'s record of an entity with a brain and no control.
#[inline(always)]
pub(super) fn brain_words(i: &Identity, br: &Brain, aim: Option<&Aim>) -> [u64; 5] {
    [
        i.seq(),
        pair(br.intent.x, br.intent.y),
        aim.and_then(|a| a.target()).unwrap_or(0),
        u64::from(br.decided()),
        br.next_decision(),
    ]
}

/// [`AI`]: the brain's intent, target and decision tick, then the control's facing; `None`
/// for an entity with neither.
#[inline(always)]
pub(super) fn mind(
    i: &Identity,
    brain: Option<&Brain>,
    aim: Option<&Aim>,
    control: Option<&Control>,
) -> Option<u64> {
    let facing = control.map(|c| pair(c.facing.x, c.facing.y));
    let Some(br) = brain else {
        return facing.map(|f| words([i.seq(), f]));
    };
    let m = brain_words(i, br, aim);
    Some(match facing {
        Some(f) => words([m[0], m[1], m[2], m[3], m[4], f]),
        None => words(m),
    })
}

/// [`DEADLINES`]: every cooldown, then the lifetime; `None` for an entity with neither.
#[inline(always)]
pub(super) fn clocks(
    i: &Identity,
    cds: Option<&Cooldowns>,
    life: Option<&Lifetime>,
    b: &mut Bytes,
) -> Option<u64> {
    match (cds, life) {
        (None, None) => None,
        (None, Some(l)) => Some(words(lifetime_words(i, l))),
        (Some(c), life) => {
            b.u64(i.seq());
            for d in &c.0 {
                b.deadline(*d);
            }
            if let Some(l) = life {
                b.deadline(l.0);
            }
            Some(b.take())
        }
    }
}

/// The words of [`clocks`]' record of an entity with a lifetime and no cooldowns.
#[inline(always)]
pub(super) fn lifetime_words(i: &Identity, l: &Lifetime) -> [u64; 2] {
    [i.seq(), l.0.word()]
}

/// [`DEADLINES`], tag 3: the animation playing and since when.
#[inline(always)]
pub(super) fn animation(i: &Identity, a: &Animation) -> u64 {
    words([i.seq(), 3, u64::from(a.slot), a.since])
}

/// [`DEADLINES`], tag 4: whether an entity destroyed off screen has been seen.
#[inline(always)]
pub(super) fn offscreen(i: &Identity, o: &Offscreen) -> u64 {
    words([i.seq(), 4, u64::from(o.seen)])
}

/// [`SCRIPT_STATE`]: every key and value, in key order.
#[inline(always)]
pub(super) fn script_state(i: &Identity, s: &ScriptState, b: &mut Bytes) -> u64 {
    b.u64(i.seq());
    for (k, v) in s.iter() {
        b.str(k).f64(v);
    }
    b.take()
}

/// [`POSITIONS`], tag 0x4C4F4F4B ("LOOK"), on an entity whose look changed: a word of which
/// parts are set (and the flags' values), then the set values (0 for the rest).
pub(super) fn look(i: &Identity, l: &Look) -> u64 {
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
        .u64(i.seq())
        .u64(0x4C4F_4F4B)
        .u64(set)
        .f32(scale.x)
        .f32(scale.y)
        .f32(l.alpha.unwrap_or(0.0))
        .put(c.to_le_bytes())
        .put(layer.to_le_bytes())
        .hash()
}

/// [`POSITIONS`], tag 5, on an attached entity: its parent, offset and angle rule.
pub(super) fn attachment(i: &Identity, a: &Attached) -> u64 {
    let mut record = Fixed::<40>::new();
    record.u64(i.seq()).u64(5).u64(a.parent);
    record
        .f32(a.offset.x)
        .f32(a.offset.y)
        .u64(u64::from(a.angle))
        .hash()
}

/// [`AI`], tag 6, on an entity whose behaviour was set at run time: its settings.
pub(super) fn own_behaviour(i: &Identity, own: &OwnBehaviour) -> u64 {
    let b = own.0;
    let mut record = Fixed::<64>::new();
    record.u64(i.seq()).u64(6).u64(b.kind as u64);
    record
        .u64(b.target)
        .u64(b.cadence.map_or(0, u64::from))
        .u64(u64::from(b.navigate))
        .u64(b.range.map_or(u64::MAX, |r| u64::from(r.to_bits())))
        .u64(b.idle as u64)
        .hash()
}
