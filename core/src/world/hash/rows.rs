//! Every entity's records summed by category, one pass per record kind over an archetype's
//! columns.
//!
//! The records are the ones laid out in [`super`]'s module docs, byte for byte as every
//! recording was hashed; the sums are wrapping additions, so neither the order of the passes
//! nor the order of the rows changes them. A pass reads only the columns its record needs,
//! with no per-row test of which components an entity has (its archetype says).

use super::record::Bytes;
use crate::par;
use crate::world::components::*;
use crate::world::ecs::{Archetype, Ecs};
use std::iter::zip;
use xxhash_rust::xxh3::xxh3_64;

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

/// Two floats in one word, the first in the low half: the bytes of `x` then `y`.
#[inline(always)]
pub(super) fn pair(x: f32, y: f32) -> u64 {
    u64::from(x.to_bits()) | u64::from(y.to_bits()) << 32
}

/// One archetype's column guards (the borrows [`Rows`] reads through).
struct Columns<'w> {
    id: hecs::ArchetypeColumn<'w, Identity>,
    pos: hecs::ArchetypeColumn<'w, Position>,
    vel: Option<hecs::ArchetypeColumn<'w, Velocity>>,
    health: Option<hecs::ArchetypeColumn<'w, Health>>,
    brain: Option<hecs::ArchetypeColumn<'w, Brain>>,
    aim: Option<hecs::ArchetypeColumn<'w, Aim>>,
    cds: Option<hecs::ArchetypeColumn<'w, Cooldowns>>,
    life: Option<hecs::ArchetypeColumn<'w, Lifetime>>,
    control: Option<hecs::ArchetypeColumn<'w, Control>>,
    state: Option<hecs::ArchetypeColumn<'w, ScriptState>>,
    rot: Option<hecs::ArchetypeColumn<'w, Rotation>>,
    footing: Option<hecs::ArchetypeColumn<'w, Footing>>,
    anim: Option<hecs::ArchetypeColumn<'w, Animation>>,
    off: Option<hecs::ArchetypeColumn<'w, Offscreen>>,
}

impl<'w> Columns<'w> {
    /// The archetype's hashed columns; `None` for one without an identity or a position
    /// (nothing of it is hashed) or without rows.
    fn of(a: Archetype<'w>) -> Option<Columns<'w>> {
        if a.is_empty() {
            return None;
        }
        Some(Columns {
            id: a.get::<&Identity>()?,
            pos: a.get::<&Position>()?,
            vel: a.get::<&Velocity>(),
            health: a.get::<&Health>(),
            brain: a.get::<&Brain>(),
            aim: a.get::<&Aim>(),
            cds: a.get::<&Cooldowns>(),
            life: a.get::<&Lifetime>(),
            control: a.get::<&Control>(),
            state: a.get::<&ScriptState>(),
            rot: a.get::<&Rotation>(),
            footing: a.get::<&Footing>(),
            anim: a.get::<&Animation>(),
            off: a.get::<&Offscreen>(),
        })
    }

    fn rows(&self) -> Rows<'_> {
        Rows {
            id: &self.id,
            pos: &self.pos,
            vel: self.vel.as_deref(),
            health: self.health.as_deref(),
            brain: self.brain.as_deref(),
            aim: self.aim.as_deref(),
            cds: self.cds.as_deref(),
            life: self.life.as_deref(),
            control: self.control.as_deref(),
            state: self.state.as_deref(),
            rot: self.rot.as_deref(),
            footing: self.footing.as_deref(),
            anim: self.anim.as_deref(),
            off: self.off.as_deref(),
        }
    }
}

/// A run of one archetype's rows: every present column has the identities' length.
#[derive(Clone, Copy)]
struct Rows<'a> {
    id: &'a [Identity],
    pos: &'a [Position],
    vel: Option<&'a [Velocity]>,
    health: Option<&'a [Health]>,
    brain: Option<&'a [Brain]>,
    aim: Option<&'a [Aim]>,
    cds: Option<&'a [Cooldowns]>,
    life: Option<&'a [Lifetime]>,
    control: Option<&'a [Control]>,
    state: Option<&'a [ScriptState]>,
    rot: Option<&'a [Rotation]>,
    footing: Option<&'a [Footing]>,
    anim: Option<&'a [Animation]>,
    off: Option<&'a [Offscreen]>,
}

impl<'a> Rows<'a> {
    /// The rows `at..at + len`.
    fn part(&self, at: usize, len: usize) -> Rows<'a> {
        fn cut<T>(c: Option<&[T]>, at: usize, len: usize) -> Option<&[T]> {
            c.map(|c| &c[at..at + len])
        }
        Rows {
            id: &self.id[at..at + len],
            pos: &self.pos[at..at + len],
            vel: cut(self.vel, at, len),
            health: cut(self.health, at, len),
            brain: cut(self.brain, at, len),
            aim: cut(self.aim, at, len),
            cds: cut(self.cds, at, len),
            life: cut(self.life, at, len),
            control: cut(self.control, at, len),
            state: cut(self.state, at, len),
            rot: cut(self.rot, at, len),
            footing: cut(self.footing, at, len),
            anim: cut(self.anim, at, len),
            off: cut(self.off, at, len),
        }
    }

    /// Adds these rows' records to the category sums.
    fn sum(&self, parts: &mut [u64; 8], b: &mut Bytes) {
        self.bodies(parts);
        self.minds(parts);
        self.clocks(parts, b);
    }

    /// Positions, rotations, footing, velocities and health.
    fn bodies(&self, parts: &mut [u64; 8]) {
        let id = self.id;
        let mut add = |part: usize, h: u64| parts[part] = parts[part].wrapping_add(h);
        for (i, p) in zip(id, self.pos) {
            add(
                2,
                words([i.seq, u64::from(i.archetype.0), pair(p.0.x, p.0.y)]),
            );
        }
        if let Some(rot) = self.rot {
            // A record of its own: entities that never rotate hash as they always did.
            for (i, r) in zip(id, rot) {
                add(2, words([i.seq, 1, pair(r.angle, r.spin)]));
            }
        }
        if let Some(footing) = self.footing {
            for (i, f) in zip(id, footing) {
                add(
                    5,
                    words([
                        i.seq,
                        2,
                        f.grounded_at.unwrap_or(u64::MAX),
                        pair(f.ground_velocity.x, f.ground_velocity.y),
                        f.jump_pressed_at.unwrap_or(u64::MAX),
                        u64::from(f.rising),
                    ]),
                );
            }
        }
        if let Some(vel) = self.vel {
            for (i, v) in zip(id, vel) {
                add(3, words([i.seq, pair(v.0.x, v.0.y)]));
            }
        }
        if let Some(health) = self.health {
            for (i, h) in zip(id, health) {
                add(
                    4,
                    words([
                        i.seq,
                        i64::from(h.current) as u64,
                        i64::from(h.max) as u64,
                        h.invulnerable_until.word(),
                    ]),
                );
            }
        }
    }

    /// AI state and control facing: one record an entity with either.
    fn minds(&self, parts: &mut [u64; 8]) {
        let id = self.id;
        let mut add = |h: u64| parts[5] = parts[5].wrapping_add(h);
        let target = |aim: Option<&Aim>| aim.and_then(|a| a.target()).unwrap_or(0);
        let mind = |i: &Identity, br: &Brain, aim: Option<&Aim>| {
            [
                i.seq,
                pair(br.intent.x, br.intent.y),
                target(aim),
                u64::from(br.decided()),
                br.next_decision(),
            ]
        };
        match (self.brain, self.aim, self.control) {
            (Some(brain), Some(aim), None) => {
                for ((i, br), a) in zip(zip(id, brain), aim) {
                    add(words(mind(i, br, Some(a))));
                }
            }
            (Some(brain), aim, control) => {
                for (n, (i, br)) in zip(id, brain).enumerate() {
                    let [s, intent, t, decided, next] = mind(i, br, aim.map(|a| &a[n]));
                    add(match control {
                        Some(c) => {
                            let f = c[n].facing;
                            words([s, intent, t, decided, next, pair(f.x, f.y)])
                        }
                        None => words([s, intent, t, decided, next]),
                    });
                }
            }
            (None, _, Some(control)) => {
                for (i, c) in zip(id, control) {
                    add(words([i.seq, pair(c.facing.x, c.facing.y)]));
                }
            }
            (None, _, None) => {}
        }
    }

    /// Cooldowns and lifetimes, animations, off-screen marks and script state.
    fn clocks(&self, parts: &mut [u64; 8], b: &mut Bytes) {
        let id = self.id;
        let mut add = |part: usize, h: u64| parts[part] = parts[part].wrapping_add(h);
        match (self.cds, self.life) {
            (None, None) => {}
            (None, Some(life)) => {
                for (i, l) in zip(id, life) {
                    add(6, words([i.seq, l.0.word()]));
                }
            }
            (Some(cds), life) => {
                for (n, (i, c)) in zip(id, cds).enumerate() {
                    b.u64(i.seq);
                    for d in &c.0 {
                        b.deadline(*d);
                    }
                    if let Some(l) = life {
                        b.deadline(l[n].0);
                    }
                    add(6, b.take());
                }
            }
        }
        if let Some(anim) = self.anim {
            // Its own record: entities without animations hash as they always did.
            for (i, a) in zip(id, anim) {
                add(6, words([i.seq, 3, u64::from(a.slot), a.since]));
            }
        }
        if let Some(off) = self.off {
            // Its own record: only entities destroyed off screen have one.
            for (i, o) in zip(id, off) {
                add(6, words([i.seq, 4, u64::from(o.seen)]));
            }
        }
        if let Some(state) = self.state {
            for (i, s) in zip(id, state) {
                b.u64(i.seq);
                for (k, v) in s.iter() {
                    b.str(k).f64(v);
                }
                add(7, b.take());
            }
        }
    }
}

/// Every entity's records summed by category: on two threads from `split_from` entities,
/// each summing alternate runs of about a sixteenth of them; wrapping addition makes the
/// halves' sums the serial one.
pub(super) fn entity_sums(ecs: &Ecs, split_from: usize) -> [u64; 8] {
    let columns: Vec<Columns<'_>> = ecs.archetypes().filter_map(Columns::of).collect();
    let n: usize = columns.iter().map(|c| c.id.len()).sum();
    let mut parts = [0u64; 8];
    let mut b = Bytes::default();
    if n >= split_from && par::available() {
        let size = n.div_ceil(16).max(64);
        let (mut even, mut odd) = (Vec::new(), Vec::new());
        for rows in columns.iter().map(Columns::rows) {
            let len = rows.id.len();
            for at in (0..len).step_by(size) {
                let half = if even.len() <= odd.len() {
                    &mut even
                } else {
                    &mut odd
                };
                half.push(rows.part(at, size.min(len - at)));
            }
        }
        let sum = |half: Vec<Rows<'_>>| {
            let (mut parts, mut b) = ([0u64; 8], Bytes::default());
            for rows in half {
                rows.sum(&mut parts, &mut b);
            }
            parts
        };
        let (x, y) = par::join(|| sum(even), || sum(odd));
        for (p, (x, y)) in parts.iter_mut().zip(zip(x, y)) {
            *p = x.wrapping_add(y);
        }
    } else {
        for c in &columns {
            c.rows().sum(&mut parts, &mut b);
        }
    }
    parts
}
