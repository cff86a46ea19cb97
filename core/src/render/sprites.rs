//! The sprites of a frame: each archetype's columns read straight, row by row, into the
//! frame's draws; an archetype of many sprites is split between two threads (each half writes
//! its own part of the draws, in row order, so the result is the serial one).

use crate::def::{GameDef, SpriteDef, SpriteShape};
use crate::math::Vec2;
use crate::math::wrap_angle;
use crate::par;
use crate::render::draw::{Draw, Interpolation};
use crate::world::components::{
    Animation, Drawn, Identity, Look, Position, PrevPosition, Rotation, Sprite,
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
        s: &SpriteDef,
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
            seq: id.seq(),
        }
    }
}

/// Sprite `s`'s draw `d` as its entity's look `k` changes it; `None` when it is hidden.
fn styled(mut d: Draw, s: &SpriteDef, k: &Look) -> Option<Draw> {
    if !k.visible() {
        return None;
    }
    if let Some(scale) = k.scale {
        d.size = Vec2::new(d.size.x * scale.x, d.size.y * scale.y);
    }
    if k.color.is_some() || k.alpha.is_some() {
        d.color = k.color.unwrap_or(s.color).faded(k.alpha.unwrap_or(s.alpha));
    }
    d.flip_x = k.flip_x.unwrap_or(d.flip_x);
    d.flip_y = k.flip_y.unwrap_or(d.flip_y);
    d.layer = k.layer.unwrap_or(d.layer);
    Some(d)
}

/// The sprites of an archetype's rows: a column of their own ([`Sprite`]), or each row's
/// archetype's as declared ([`Drawn`]).
#[derive(Clone, Copy)]
enum Sprites<'a> {
    Own(&'a [Sprite]),
    Declared,
}

impl<'a> Sprites<'a> {
    fn split_at(self, mid: usize) -> (Sprites<'a>, Sprites<'a>) {
        match self {
            Sprites::Own(s) => {
                let (a, b) = s.split_at(mid);
                (Sprites::Own(a), Sprites::Own(b))
            }
            Sprites::Declared => (Sprites::Declared, Sprites::Declared),
        }
    }

    /// Row `i`'s sprite (`id` its identity).
    #[inline(always)]
    fn at<'r, 'd: 'r>(self, i: usize, id: &Identity, declared: &mut Declared<'d>) -> &'r SpriteDef
    where
        'a: 'r,
    {
        match self {
            Sprites::Own(own) => &own[i].0,
            Sprites::Declared => declared.of(id),
        }
    }

    fn take(self, n: usize) -> Sprites<'a> {
        match self {
            Sprites::Own(s) => Sprites::Own(&s[..n]),
            Sprites::Declared => Sprites::Declared,
        }
    }
}

/// What a [`Drawn`] entity whose archetype declares no sprite draws, which spawning never
/// makes: nothing to see.
const NOTHING: SpriteDef = SpriteDef {
    shape: SpriteShape::Rect,
    size: Vec2::ZERO,
    color: SpriteDef::COLOR,
    layer: SpriteDef::LAYER,
    depth: SpriteDef::DEPTH,
    frame: SpriteDef::FRAME,
    flip_x: false,
    flip_y: false,
    alpha: 0.0,
};

/// The declared sprites of [`Drawn`] rows, looked up once per run of rows of one archetype
/// (an archetype's entities share a column, so a run is usually all of it).
struct Declared<'d> {
    def: &'d GameDef,
    last: Option<(crate::ArchetypeId, &'d SpriteDef)>,
}

impl<'d> Declared<'d> {
    fn new(def: &'d GameDef) -> Declared<'d> {
        Declared { def, last: None }
    }

    #[inline(always)]
    fn of(&mut self, id: &Identity) -> &'d SpriteDef {
        match self.last {
            Some((a, s)) if a == id.archetype => s,
            _ => {
                let s = self
                    .def
                    .archetype(id.archetype)
                    .and_then(|a| a.sprite.as_ref())
                    .unwrap_or(&NOTHING);
                self.last = Some((id.archetype, s));
                s
            }
        }
    }
}

/// One archetype's columns of what a sprite's draw reads (all of one length).
#[derive(Clone, Copy)]
struct Columns<'a> {
    id: &'a [Identity],
    pos: &'a [Position],
    prev: &'a [PrevPosition],
    sprite: Sprites<'a>,
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
        let mut declared = Declared::new(placing.def);
        for (i, slot) in out.iter_mut().enumerate() {
            let rot = self.rot.map(|r| &r[i]);
            let anim = self.anim.map(|a| &a[i]);
            let at = (&self.pos[i], &self.prev[i]);
            let id = &self.id[i];
            let s = self.sprite.at(i, id, &mut declared);
            slot.write(placing.draw(id, at, s, rot, anim));
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
    let mut declared = Declared::new(placing.def);
    for arch in world.archetypes() {
        let (Some(id), Some(pos), Some(prev)) = (
            arch.get::<&Identity>(),
            arch.get::<&Position>(),
            arch.get::<&PrevPosition>(),
        ) else {
            continue;
        };
        let own = arch.get::<&Sprite>();
        let sprite = match own.as_deref() {
            Some(own) => Sprites::Own(own),
            None if arch.has::<Drawn>() => Sprites::Declared,
            None => continue,
        };
        let (rot, anim) = (arch.get::<&Rotation>(), arch.get::<&Animation>());
        if let Some(looks) = arch.get::<&Look>() {
            // Few entities have a changed look: drawn one by one, the hidden ones left out.
            for i in 0..arch.len() as usize {
                let (r, a) = (
                    rot.as_deref().map(|r| &r[i]),
                    anim.as_deref().map(|a| &a[i]),
                );
                let s = sprite.at(i, &id[i], &mut declared);
                let d = placing.draw(&id[i], (&pos[i], &prev[i]), s, r, a);
                let Some(d) = styled(d, s, &looks[i]) else {
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
            sprite: sprite.take(take),
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
