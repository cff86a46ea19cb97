//! The level's bounds: confine, bounce, wrap or destroy.

use crate::def::{BoundsPolicy, GameDef};
use crate::event::{ExpireEvent, ExpireReason, push_bounded};
use crate::fault::Fault;
use crate::ids::SeqSet;
use crate::limits::{Limit, push_within};
use crate::math::{Rect, Vec2, in_box8};
use crate::tick::scratch::Scratch;
use crate::world::SimWorld;
use crate::world::components::*;

/// Applies each entity's bounds rule (see [`BoundsPolicy`]).
///
/// - Confine and bounce keep the collider's bounding box inside (its centre at the middle when
///   the box is wider than the bounds); confine removes the velocity into the wall, bounce
///   reflects it, scaled by the collider's `bounce` (1 without one).
/// - Wrap moves a centre that left through one edge in by the opposite edge (positions wrap
///   modulo the bounds), and the previous position with it, so nothing is drawn sweeping
///   across the screen. Velocity is unchanged.
/// - Destroy records the destruction and an `expired` event once.
///
/// An entity with a [`BoundsMargin`] applies its rule to the level's bounds grown by it.
pub(crate) fn bounds(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(), Fault> {
    let Some(level) = def.levels.get(world.level) else {
        return Ok(());
    };
    let mut ctx = Bounds {
        def,
        area: level.bounds,
        tick,
        live: world.index.len(),
        cap: def.limits.events_per_tick,
        pending: &mut s.pending,
        destroys: &mut s.destroys,
        expired: &mut s.events.expired,
    };
    // Archetype by archetype through the columns' known places, with no borrow counted (a
    // hecs query looked its eight columns up in every archetype every tick), in a query's
    // order: archetypes, then rows.
    for a in world.ecs.thaw().archetypes() {
        if a.is_empty() || !a.has::<BoundsRule>() {
            continue;
        }
        let (Some(ids), Some(t), Some(prev), Some(v)) = (
            a.read::<Identity>(),
            a.write::<Position>(),
            a.write::<PrevPosition>(),
            a.write::<Velocity>(),
        ) else {
            continue;
        };
        let (own, shared, margin) = (
            a.read::<Collider>(),
            a.has::<SharedCollider>(),
            a.read::<BoundsMargin>(),
        );
        if ctx.destroy_outside(ids, t, margin)? {
            continue;
        }
        let rows = ids.iter().zip(t).zip(prev).zip(v).enumerate();
        for (i, (((id, t), prev), v)) in rows {
            let declared = shared.then(|| Collider::declared(def, id.archetype));
            let c = own.map(|o| &o[i]).or(declared.as_ref());
            let rule = def.bounds_of(id.archetype);
            match margin.map(|m| m[i]) {
                None => ctx.apply(id, rule, t, prev, v, c)?,
                Some(m) => {
                    let area = ctx.area.grown(m.0);
                    ctx.apply_in(area, id, rule, t, prev, v, c)?;
                }
            }
        }
    }
    Ok(())
}

/// What applying one entity's bounds rule needs besides the entity.
pub(crate) struct Bounds<'a> {
    /// The definition the world was built from (colliders' bounce).
    pub def: &'a GameDef,
    pub area: Rect,
    pub tick: u64,
    /// Live entities: the most destroys one tick can record.
    pub live: usize,
    /// `[limits] events_per_tick`.
    pub cap: u32,
    /// Entities marked for destruction this tick, the destroys and the expired events.
    pub pending: &'a mut SeqSet,
    pub destroys: &'a mut Vec<u64>,
    pub expired: &'a mut Vec<ExpireEvent>,
}

impl Bounds<'_> {
    /// Applies `rule` to one entity (see [`bounds`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn apply(
        &mut self,
        id: &Identity,
        rule: BoundsPolicy,
        t: &mut Position,
        prev: &mut PrevPosition,
        v: &mut Velocity,
        c: Option<&Collider>,
    ) -> Result<(), Fault> {
        self.apply_in(self.area, id, rule, t, prev, v, c)
    }

    /// [`apply`](Self::apply) within `area` (the level's bounds grown by a margin).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn apply_in(
        &mut self,
        area: Rect,
        id: &Identity,
        rule: BoundsPolicy,
        t: &mut Position,
        prev: &mut PrevPosition,
        v: &mut Velocity,
        c: Option<&Collider>,
    ) -> Result<(), Fault> {
        if !keep(self.def, area, rule, t, prev, v, c) {
            self.destroy(id, t)?;
        }
        Ok(())
    }

    /// Where the rows of `ids` are all of one archetype whose rule destroys (bullets,
    /// sparks): destroys, in row order, those whose centre (`pos`) lies outside the area
    /// grown by the row's margin (`margins`, where the rows have them), as [`keep`] tests it,
    /// with the rule found once rather than a row at a time; `false`, having done nothing,
    /// for any other rows. The rows are tested 64 at a time without a branch (a loop the
    /// compiler packs), then those outside destroyed.
    pub fn destroy_outside(
        &mut self,
        ids: &[Identity],
        pos: &[Position],
        margins: Option<&[BoundsMargin]>,
    ) -> Result<bool, Fault> {
        if Identity::sole(ids).map(|a| self.def.bounds_of(a)) != Some(BoundsPolicy::Destroy) {
            return Ok(false);
        }
        let n = ids.len().min(pos.len());
        for from in (0..n).step_by(64) {
            let to = (from + 64).min(n);
            let mut out = match margins {
                Some(m) => outside(self.area, &pos[from..to], &m[from..to]),
                None => outside(self.area, &pos[from..to], &[]),
            };
            while out != 0 {
                let i = from + out.trailing_zeros() as usize;
                self.destroy(&ids[i], &pos[i])?;
                out &= out - 1;
            }
        }
        Ok(true)
    }

    /// Records the destruction of an entity its bounds rule removes, once.
    pub fn destroy(&mut self, id: &Identity, t: &Position) -> Result<(), Fault> {
        if self.pending.insert(id.seq()) {
            // Each live entity at most once.
            if !push_within(self.destroys, id.seq(), self.live) {
                return Err(Limit::Entities.exceeded(self.live as u64, "destroys in one tick"));
            }
            let entity = id.party(self.def, t);
            push_bounded(
                self.expired,
                ExpireEvent {
                    tick: self.tick,
                    entity,
                    reason: ExpireReason::Bounds,
                },
                self.cap,
                "expired",
            )?;
        }
        Ok(())
    }
}

/// Bit `i` set where `pos[i]` (at most 64) lies outside `area` grown by its margin
/// (`margins[i]`; none, an empty list: the area as it is), as `Rect::grown` and
/// `Rect::contains` test it. Where every row's margin is one value (bit for bit), as a
/// one-archetype chunk's rows most often are, eight rows a step in packed floats
/// ([`in_box8`]); else row by row.
#[inline(always)]
fn outside(area: Rect, pos: &[Position], margins: &[BoundsMargin]) -> u64 {
    let first = margins.first().map_or(0, |m| m.0.to_bits());
    // A fold of the bits that differ, not `all`: no branch a row, and packed.
    let same = margins
        .iter()
        .fold(0, |differ, m| differ | (m.0.to_bits() ^ first))
        == 0;
    let mut out = 0u64;
    if !same {
        for (i, (t, m)) in pos.iter().zip(margins).enumerate() {
            out |= u64::from(!area.grown(m.0).contains(t.0)) << i;
        }
        return out;
    }
    // With no margins the area as it is (grown by none).
    let a = match margins.first() {
        Some(m) => area.grown(m.0),
        None => area,
    };
    let p = vectors(pos);
    let eights = p.chunks_exact(8);
    let rest = eights.remainder();
    for (k, eight) in eights.enumerate() {
        let eight: &[Vec2; 8] = eight.try_into().expect("chunks of eight");
        out |= u64::from(!in_box8(eight, a.min, a.max) & 0xff) << (8 * k);
    }
    let base = p.len() - rest.len();
    for (i, &v) in rest.iter().enumerate() {
        out |= u64::from(!a.contains(v)) << (base + i);
    }
    out
}

/// Moves an entity by its bounds rule (confine, bounce, wrap; see [`bounds`]); returns whether
/// it stays (false: a destroy rule and a centre outside). Touches nothing but the entity.
#[inline(always)]
pub(crate) fn keep(
    def: &GameDef,
    area: Rect,
    rule: BoundsPolicy,
    t: &mut Position,
    prev: &mut PrevPosition,
    v: &mut Velocity,
    c: Option<&Collider>,
) -> bool {
    match rule {
        BoundsPolicy::Ignore => {}
        BoundsPolicy::Confine | BoundsPolicy::Bounce => {
            let walls = Walls::new(area, c.map_or(Vec2::ZERO, |c| c.shape().half_extents()));
            if rule == BoundsPolicy::Confine {
                walls.confine(t, v);
            } else {
                walls.bounce(t, v, c.and_then(|c| c.def(def).bounce).unwrap_or(1.0));
            }
        }
        BoundsPolicy::Wrap => {
            let size = area.max - area.min;
            let p = t.0;
            let wrap = |v: f32, lo: f32, size: f32| {
                if size > 0.0 && (v < lo || v >= lo + size) {
                    let w = lo + (v - lo).rem_euclid(size);
                    // Rounding can land a hair short of `lo` exactly on the far edge.
                    if w >= lo + size { lo } else { w }
                } else {
                    v
                }
            };
            let w = Vec2::new(wrap(p.x, area.min.x, size.x), wrap(p.y, area.min.y, size.y));
            if w != p && w.is_finite() {
                prev.0 += w - p;
                t.0 = w;
            }
        }
        BoundsPolicy::Destroy => return area.contains(t.0),
    }
    true
}

/// [`Walls::confine`] for walls whose [`span`](Walls::span) is `(lo, hi)`: the same
/// results.
#[inline(always)]
pub(crate) fn confine_within(t: &mut Position, v: &mut Velocity, lo: Vec2, hi: Vec2) {
    let p = t.0;
    let to = Vec2::new(clamp(p.x, lo.x, hi.x), clamp(p.y, lo.y, hi.y));
    v.0.x = if to.x != p.x { 0.0 } else { v.0.x };
    v.0.y = if to.y != p.y { 0.0 } else { v.0.y };
    t.0 = to;
}

/// `v.clamp(lo, hi)` for `lo <= hi`, bit for bit (a NaN stays NaN, a signed zero keeps its
/// sign), as two selects without `clamp`'s check of its bounds.
#[inline(always)]
fn clamp(v: f32, lo: f32, hi: f32) -> f32 {
    let v = if v < lo { lo } else { v };
    if v > hi { hi } else { v }
}

/// Where the centre of a collider with half extents `half` may be inside an area: its box
/// inside the area, or the area's centre on an axis where the box is wider than the area.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walls {
    lo: Vec2,
    hi: Vec2,
    center: Vec2,
}

impl Walls {
    pub fn new(area: Rect, half: Vec2) -> Walls {
        Walls {
            lo: area.min + half,
            hi: area.max - half,
            center: area.center(),
        }
    }

    /// The place inside the walls nearest to `p`.
    #[inline(always)]
    fn place(&self, p: Vec2) -> Vec2 {
        let (lo, hi) = (self.lo, self.hi);
        let x = if lo.x <= hi.x {
            clamp(p.x, lo.x, hi.x)
        } else {
            self.center.x
        };
        let y = if lo.y <= hi.y {
            clamp(p.y, lo.y, hi.y)
        } else {
            self.center.y
        };
        Vec2::new(x, y)
    }

    /// The walls' corners when the area is wide enough on both axes (else a confined centre
    /// goes to the area's middle on the narrow axis: see [`confine`](Self::confine)).
    pub fn span(&self) -> Option<(Vec2, Vec2)> {
        (self.lo.x <= self.hi.x && self.lo.y <= self.hi.y).then_some((self.lo, self.hi))
    }

    /// Confine: inside the walls, without the velocity into a wall hit.
    #[inline(always)]
    pub fn confine(&self, t: &mut Position, v: &mut Velocity) {
        let p = t.0;
        let to = self.place(p);
        // Selects rather than branches, so a loop over many stays vectorisable.
        v.0.x = if to.x != p.x { 0.0 } else { v.0.x };
        v.0.y = if to.y != p.y { 0.0 } else { v.0.y };
        t.0 = to;
    }

    /// Bounce: inside the walls, the velocity out through a wall hit reflected and scaled by
    /// `e`.
    #[inline(always)]
    pub fn bounce(&self, t: &mut Position, v: &mut Velocity, e: f32) {
        let p = t.0;
        let to = self.place(p);
        // Reflect only a velocity that points out through the wall hit.
        if (to.x > p.x && v.0.x < 0.0) || (to.x < p.x && v.0.x > 0.0) {
            v.0.x = -v.0.x * e;
        }
        if (to.y > p.y && v.0.y < 0.0) || (to.y < p.y && v.0.y > 0.0) {
            v.0.y = -v.0.y * e;
        }
        t.0 = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunk's test gives each row what `Rect::grown` and `Rect::contains` give it: rows
    /// of one margin (packed, eight at a time, and the rest) or of several, margins none,
    /// zero, negative, infinite or NaN, and positions on the edges, far out, infinite or NaN.
    #[test]
    fn a_chunks_outside_rows_are_those_the_rectangle_leaves_out() {
        let mut rng = fastrand::Rng::with_seed(41);
        let area = Rect::new(Vec2::new(-400.0, -300.0), Vec2::new(400.0, 300.0));
        let coords = [
            -450.0, -440.0, -400.0, -300.0, 0.0, -0.0, 300.0, 400.0, 440.0, 1e30,
        ];
        let odd = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        let coord = |rng: &mut fastrand::Rng| match rng.u8(..10) {
            0 => odd[rng.usize(..odd.len())],
            1..=4 => coords[rng.usize(..coords.len())],
            _ => rng.f32() * 1000.0 - 500.0,
        };
        let margins = [0.0, 40.0, -50.0, f32::INFINITY, f32::NAN, 1e-3];
        for case in 0..3_000 {
            let n = rng.usize(0..=64);
            let pos: Vec<Position> = (0..n)
                .map(|_| Position(Vec2::new(coord(&mut rng), coord(&mut rng))))
                .collect();
            let one = margins[rng.usize(..margins.len())];
            let m: Vec<BoundsMargin> = match case % 3 {
                0 => Vec::new(),
                1 => vec![BoundsMargin(one); n],
                _ => (0..n)
                    .map(|_| BoundsMargin(margins[rng.usize(..margins.len())]))
                    .collect(),
            };
            let want = (0..n).fold(0u64, |out, i| {
                let a = m.get(i).map_or(area, |m| area.grown(m.0));
                out | u64::from(!a.contains(pos[i].0)) << i
            });
            assert_eq!(outside(area, &pos, &m), want, "{pos:?} {m:?}");
        }
    }
}
