//! The sprites of a frame: each archetype's columns read straight, row by row, into the
//! frame's draws; an archetype of many sprites is split between two threads (each half writes
//! its own part of the draws, in row order, so the result is the serial one).

use crate::def::GameDef;
use crate::math::Vec2;
use crate::math::wrap_angle;
use crate::par;
use crate::render::draw::{Draw, Interpolation};
use crate::world::components::{
    Animation, Identity, Look, Position, PrevPosition, Rotation, Sprite,
};
use std::mem::MaybeUninit;

/// How this frame places, turns and animates a sprite.
#[derive(Clone, Copy)]
pub(super) struct Placing<'d> {
    pub interpolation: Interpolation,
    /// The frame's time in ticks (a fraction between ticks when interpolating).
    pub now: f64,
    pub tick_seconds: f64,
    pub def: &'d GameDef,
}

impl Placing<'_> {
    /// Inlined into both of its callers: the row loop of every sprite is the hot one.
    #[inline(always)]
    fn draw(
        &self,
        id: &Identity,
        (cur, prev): (&Position, &PrevPosition),
        s: &Sprite,
        rot: Option<&Rotation>,
        anim: Option<&Animation>,
    ) -> Draw {
        let (pos, angle) = match self.interpolation {
            Interpolation::Exact => (cur.0, rot.map_or(0.0, |r| r.angle)),
            // Turning along the shorter arc, so a wrap from pi to -pi does not spin it round.
            Interpolation::Alpha(a) => (
                prev.0.lerp(cur.0, a),
                rot.map_or(0.0, |r| r.prev + wrap_angle(r.angle - r.prev) * a),
            ),
        };
        let s = &s.0;
        let frame = anim
            .and_then(|a| {
                let def = self.def.archetype(id.archetype)?;
                let animation = def.animations.get(a.slot as usize)?;
                Some(animation.frame_after((self.now - a.since as f64) * self.tick_seconds))
            })
            .unwrap_or(s.frame);
        Draw {
            pos,
            angle,
            size: s.size,
            // Most sprites are opaque: their colour as it is, without the arithmetic.
            color: if s.alpha < 1.0 {
                s.color.faded(s.alpha)
            } else {
                s.color
            },
            shape: s.shape,
            frame,
            flip_x: s.flip_x,
            flip_y: s.flip_y,
            layer: s.layer,
            depth: s.depth,
            seq: id.seq,
        }
    }
}

/// Sprite `s`'s draw `d` as its entity's look `k` changes it; `None` when it is hidden.
fn styled(mut d: Draw, s: &Sprite, k: &Look) -> Option<Draw> {
    if !k.visible() {
        return None;
    }
    if let Some(scale) = k.scale {
        d.size = Vec2::new(d.size.x * scale.x, d.size.y * scale.y);
    }
    if k.color.is_some() || k.alpha.is_some() {
        d.color = k
            .color
            .unwrap_or(s.0.color)
            .faded(k.alpha.unwrap_or(s.0.alpha));
    }
    d.flip_x = k.flip_x.unwrap_or(d.flip_x);
    d.flip_y = k.flip_y.unwrap_or(d.flip_y);
    d.layer = k.layer.unwrap_or(d.layer);
    Some(d)
}

/// One archetype's columns of what a sprite's draw reads (all of one length).
#[derive(Clone, Copy)]
struct Columns<'a> {
    id: &'a [Identity],
    pos: &'a [Position],
    prev: &'a [PrevPosition],
    sprite: &'a [Sprite],
    rot: Option<&'a [Rotation]>,
    anim: Option<&'a [Animation]>,
}

impl<'a> Columns<'a> {
    fn len(&self) -> usize {
        self.id.len()
    }

    fn split_at(self, mid: usize) -> (Columns<'a>, Columns<'a>) {
        let (id, id2) = self.id.split_at(mid);
        let (pos, pos2) = self.pos.split_at(mid);
        let (prev, prev2) = self.prev.split_at(mid);
        let (sprite, sprite2) = self.sprite.split_at(mid);
        let (rot, rot2) = match self.rot.map(|r| r.split_at(mid)) {
            Some((a, b)) => (Some(a), Some(b)),
            None => (None, None),
        };
        let (anim, anim2) = match self.anim.map(|r| r.split_at(mid)) {
            Some((a, b)) => (Some(a), Some(b)),
            None => (None, None),
        };
        (
            Columns {
                id,
                pos,
                prev,
                sprite,
                rot,
                anim,
            },
            Columns {
                id: id2,
                pos: pos2,
                prev: prev2,
                sprite: sprite2,
                rot: rot2,
                anim: anim2,
            },
        )
    }

    /// Writes row `i`'s draw into `out[i]`, for every row (`out` is as long as the columns).
    fn fill(self, placing: Placing<'_>, out: &mut [MaybeUninit<Draw>]) {
        for (i, slot) in out.iter_mut().enumerate() {
            let rot = self.rot.map(|r| &r[i]);
            let anim = self.anim.map(|a| &a[i]);
            let at = (&self.pos[i], &self.prev[i]);
            slot.write(placing.draw(&self.id[i], at, &self.sprite[i], rot, anim));
        }
    }
}

/// Appends the draw of every sprite of `world` to `draws` (archetype by archetype, rows in
/// order), at most `capacity` in all; returns how many were left out.
pub(super) fn extract(
    world: &hecs::World,
    placing: Placing<'_>,
    draws: &mut Vec<Draw>,
    capacity: usize,
) -> usize {
    let mut left_out = 0;
    for arch in world.archetypes() {
        let (Some(id), Some(pos), Some(prev), Some(sprite)) = (
            arch.get::<&Identity>(),
            arch.get::<&Position>(),
            arch.get::<&PrevPosition>(),
            arch.get::<&Sprite>(),
        ) else {
            continue;
        };
        let (rot, anim) = (arch.get::<&Rotation>(), arch.get::<&Animation>());
        if let Some(looks) = arch.get::<&Look>() {
            // Few entities have a changed look: drawn one by one, the hidden ones left out.
            for i in 0..arch.len() as usize {
                let (r, a) = (
                    rot.as_deref().map(|r| &r[i]),
                    anim.as_deref().map(|a| &a[i]),
                );
                let d = placing.draw(&id[i], (&pos[i], &prev[i]), &sprite[i], r, a);
                let Some(d) = styled(d, &sprite[i], &looks[i]) else {
                    continue;
                };
                if draws.len() < capacity {
                    draws.push(d);
                } else {
                    left_out += 1;
                }
            }
            continue;
        }
        let n = arch.len() as usize;
        let take = n.min(capacity.saturating_sub(draws.len()));
        left_out += n - take;
        let columns = Columns {
            id: &id[..take],
            pos: &pos[..take],
            prev: &prev[..take],
            sprite: &sprite[..take],
            rot: rot.as_deref().map(|r| &r[..take]),
            anim: anim.as_deref().map(|a| &a[..take]),
        };
        draws.reserve(take);
        let out = &mut draws.spare_capacity_mut()[..take];
        if take >= par::SPLIT_MIN && par::available() {
            let mid = take / 2;
            let (a, b) = columns.split_at(mid);
            let (out_a, out_b) = out.split_at_mut(mid);
            par::join(|| a.fill(placing, out_a), || b.fill(placing, out_b));
        } else {
            columns.fill(placing, out);
        }
        debug_assert_eq!(columns.len(), take);
        // SAFETY: `fill` wrote every one of the `take` slots after the old length (each half
        // wrote its own; `join` returned only after both finished, a panic in either would
        // have unwound past this line).
        unsafe { draws.set_len(draws.len() + take) };
    }
    left_out
}
