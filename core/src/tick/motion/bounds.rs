//! The level's bounds: confine, bounce, wrap or destroy.

use crate::def::{BoundsPolicy, GameDef};
use crate::event::{ExpireEvent, ExpireReason, Party, push_bounded};
use crate::fault::Fault;
use crate::limits::{Limit, push_within};
use crate::math::{Rect, Vec2};
use crate::world::components::*;
use crate::world::{SeqSet, SimWorld};

/// Applies each entity's bounds rule (see [`BoundsPolicy`]).
///
/// - Confine and bounce keep the collider's bounding box inside (its centre at the middle when
///   the box is wider than the bounds); confine removes the velocity into the wall, bounce
///   reflects it, scaled by the collider's `bounce` (1 without one).
/// - Wrap moves a centre that left through one edge in by the opposite edge (positions wrap
///   modulo the bounds), and the previous position with it, so nothing is drawn sweeping
///   across the screen. Velocity is unchanged.
/// - Destroy records the destruction and an `expired` event once.
pub(crate) fn bounds(world: &mut SimWorld, def: &GameDef, tick: u64) -> Result<(), Fault> {
    let Some(level) = def.levels.get(world.level) else {
        return Ok(());
    };
    let mut ctx = Bounds {
        area: level.bounds,
        tick,
        live: world.index.len(),
        cap: def.limits.events_per_tick,
        pending: &mut world.scratch.pending,
        destroys: &mut world.scratch.destroys,
        expired: &mut world.scratch.events.expired,
    };
    for (id, rule, t, prev, v, c, tags) in world.ecs.query_mut::<(
        &Identity,
        &BoundsRule,
        &mut Position,
        &mut PrevPosition,
        &mut Velocity,
        Option<&Collider>,
        Option<&Tags>,
    )>() {
        ctx.apply(id, rule.0, t, prev, v, c, tags)?;
    }
    Ok(())
}

/// What applying one entity's bounds rule needs besides the entity.
pub(crate) struct Bounds<'a> {
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
        tags: Option<&Tags>,
    ) -> Result<(), Fault> {
        if !keep(self.area, rule, t, prev, v, c) {
            self.destroy(id, t, tags)?;
        }
        Ok(())
    }

    /// Records the destruction of an entity its bounds rule removes, once.
    pub fn destroy(
        &mut self,
        id: &Identity,
        t: &Position,
        tags: Option<&Tags>,
    ) -> Result<(), Fault> {
        if self.pending.insert(id.seq) {
            // Each live entity at most once.
            if !push_within(self.destroys, id.seq, self.live) {
                return Err(Limit::Entities.exceeded(self.live as u64, "destroys in one tick"));
            }
            let entity = Party::new(id, tags, t);
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

/// Moves an entity by its bounds rule (confine, bounce, wrap; see [`bounds`]); returns whether
/// it stays (false: a destroy rule and a centre outside). Touches nothing but the entity.
#[inline(always)]
pub(crate) fn keep(
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
            let half = c.map_or(Vec2::ZERO, |c| c.0.shape.half_extents());
            let lo = area.min + half;
            let hi = area.max - half;
            let p = t.0;
            let x = if lo.x <= hi.x {
                clamp(p.x, lo.x, hi.x)
            } else {
                area.center().x
            };
            let y = if lo.y <= hi.y {
                clamp(p.y, lo.y, hi.y)
            } else {
                area.center().y
            };
            if rule == BoundsPolicy::Confine {
                if x != p.x {
                    v.0.x = 0.0;
                }
                if y != p.y {
                    v.0.y = 0.0;
                }
            } else {
                let e = c.and_then(|c| c.0.bounce).unwrap_or(1.0);
                // Reflect only a velocity that points out through the wall hit.
                if (x > p.x && v.0.x < 0.0) || (x < p.x && v.0.x > 0.0) {
                    v.0.x = -v.0.x * e;
                }
                if (y > p.y && v.0.y < 0.0) || (y < p.y && v.0.y > 0.0) {
                    v.0.y = -v.0.y * e;
                }
            }
            t.0 = Vec2::new(x, y);
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

/// `v.clamp(lo, hi)` for `lo <= hi`, bit for bit (a NaN stays NaN, a signed zero keeps its
/// sign), as two selects without `clamp`'s check of its bounds.
#[inline(always)]
fn clamp(v: f32, lo: f32, hi: f32) -> f32 {
    let v = if v < lo { lo } else { v };
    if v > hi { hi } else { v }
}
