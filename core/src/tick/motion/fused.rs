//! Motion's steps for every entity in one visit: integrate, rotate, bounds and the
//! broadphase's record, walking each hecs archetype's columns once.
//!
//! Used when BeginTick, Intent and Motion hold only the native systems (no system of the
//! embedding program runs before or between them). The pass also copies each entity's
//! position to its previous position first, which BeginTick does otherwise: nothing moves
//! an entity between the two (Intent sets velocities; commands move entities at Gameplay and
//! Commit). Each entity's steps run in the order the systems declare, and the steps of different entities never read each other's results, so the
//! outcome equals running the systems one after another: positions, velocities and angles,
//! the order of bounds events (archetype by archetype, row by row, as every query visits
//! them) and the broadphase's collider order. A fault may leave other entities' steps of
//! this phase done or not; a faulted tick is never published.

use crate::collision::Stretch;
use crate::def::{BoundsPolicy, GameDef, Shape};
use crate::fault::Fault;
use crate::math::Rect;
use crate::par;
use crate::tick::motion::bounds::{Bounds, Walls, keep};
use crate::tick::motion::{accelerate, step, turn};
use crate::world::SimWorld;
use crate::world::components::*;

/// Integrates, turns and bounds every entity, and adds every collider to the broadphase.
/// `split`: large archetypes' common pass may run on two threads (see [`par`]).
pub(crate) fn motion(
    world: &mut SimWorld,
    def: &GameDef,
    tick: u64,
    split: bool,
) -> Result<(), Fault> {
    let dt = def.tick.tick_seconds();
    let area = def.levels.get(world.level).map(|l| l.bounds);
    let s = &mut world.scratch;
    let bp = &mut s.broadphase;
    bp.begin();
    let mut bounds = Bounds {
        area: area.unwrap_or_default(),
        tick,
        live: world.index.len(),
        cap: def.limits.events_per_tick,
        pending: &mut s.pending,
        destroys: &mut s.destroys,
        expired: &mut s.events.expired,
    };
    for arch in world.ecs.archetypes() {
        if arch.is_empty() {
            continue;
        }
        let Some(mut pos) = arch.get::<&mut Position>() else {
            continue;
        };
        let mut vel = arch.get::<&mut Velocity>();
        let motion = arch.get::<&Motion>();
        let moves = !arch.has::<StaticBody>();
        let mut rot = arch.get::<&mut Rotation>();
        let control = arch.get::<&Control>();
        let rule = arch.get::<&BoundsRule>().filter(|_| area.is_some());
        let mut prev = arch.get::<&mut PrevPosition>();
        let collider = arch.get::<&Collider>();
        let ident = arch.get::<&Identity>();
        let tags = arch.get::<&Tags>();
        let n = arch.len() as usize;
        // The common archetype: plain steps, no rotation; one loop per combination of
        // bounds and collider, so the loop body has no per-entity checks of what exists.
        if let (Some(vel), true, None, None) = (vel.as_deref_mut(), moves, &motion, &rot) {
            let pos = &mut pos[..n];
            let vel = &mut vel[..n];
            let ident = ident.as_deref().map(|c| &c[..n]);
            let colliders = collider.as_deref().map(|c| &c[..n]);
            let tags = tags.as_deref();
            match (rule.as_deref(), prev.as_deref_mut(), ident, colliders) {
                (Some(rule), Some(prev), Some(ident), Some(colliders)) => {
                    let cols = Cols {
                        pos: &mut pos[..],
                        vel: &mut vel[..],
                        prev: &mut prev[..n],
                        rule: &rule[..n],
                        ident,
                        colliders,
                    };
                    let (area, mut gone) = (bounds.area, Vec::new());
                    if split && n >= par::SPLIT_MIN {
                        // Two halves on two threads, joined in row order.
                        let mid = n / 2;
                        let (a, b) = cols.split_at(mid);
                        let (mut sa, mut sb) = bp.stretches(n, mid);
                        let mut gone_b = Vec::new();
                        par::join(
                            || rows(a, area, dt, &mut sa, &mut gone, 0),
                            || rows(b, area, dt, &mut sb, &mut gone_b, mid),
                        );
                        let (ra, rb) = (sa.finish(), sb.finish());
                        bp.join(ra, rb);
                        gone.extend(gone_b);
                    } else {
                        let (mut all, _) = bp.stretches(n, n);
                        rows(cols, area, dt, &mut all, &mut gone, 0);
                        let runs = all.finish();
                        bp.join(runs, Vec::new());
                    }
                    for &i in &gone {
                        bounds.destroy(&ident[i], &pos[i], tags.map(|c| &c[i]))?;
                    }
                }
                (None, prev, Some(ident), Some(colliders)) => {
                    let mut prev = prev.map(|p| &mut p[..n]);
                    for i in 0..n {
                        let t = &mut pos[i];
                        if let Some(prev) = prev.as_deref_mut() {
                            prev[i].0 = t.0;
                        }
                        step(t, &vel[i], dt);
                        let c = &colliders[i].0;
                        bp.add(ident[i].archetype, t.0, c.shape, c.layer, c.mask | c.push);
                    }
                }
                (None, Some(prev), _, None) => {
                    for ((t, v), p) in pos.iter_mut().zip(vel.iter()).zip(&mut prev[..n]) {
                        p.0 = t.0;
                        step(t, v, dt);
                    }
                }
                (None, None, _, None) => {
                    for (t, v) in pos.iter_mut().zip(vel.iter()) {
                        step(t, v, dt);
                    }
                }
                _ => {
                    for i in 0..n {
                        let (t, v) = (&mut pos[i], &mut vel[i]);
                        if let Some(prev) = prev.as_deref_mut() {
                            prev[i].0 = t.0;
                        }
                        step(t, v, dt);
                        if let (Some(rule), Some(prev), Some(ident)) =
                            (rule.as_deref(), prev.as_deref_mut(), ident)
                        {
                            let c = colliders.map(|c| &c[i]);
                            let tag = tags.map(|c| &c[i]);
                            bounds.apply(&ident[i], rule[i].0, t, &mut prev[i], v, c, tag)?;
                        }
                        if let (Some(c), Some(ident)) = (colliders, ident) {
                            let c = &c[i].0;
                            bp.add(ident[i].archetype, t.0, c.shape, c.layer, c.mask | c.push);
                        }
                    }
                }
            }
            continue;
        }
        for i in 0..n {
            let t = &mut pos[i];
            if let Some(prev) = prev.as_deref_mut() {
                prev[i].0 = t.0;
            }
            if let Some(vel) = vel.as_deref_mut() {
                let v = &mut vel[i];
                if moves {
                    match motion.as_deref() {
                        None => step(t, v, dt),
                        Some(m) => accelerate(t, v, &m[i], dt),
                    }
                }
                if let Some(rot) = rot.as_deref_mut() {
                    turn(&mut rot[i], v, control.as_deref().map(|c| &c[i]), dt);
                }
                if let (Some(rule), Some(prev), Some(ident)) =
                    (rule.as_deref(), prev.as_deref_mut(), ident.as_deref())
                {
                    bounds.apply(
                        &ident[i],
                        rule[i].0,
                        t,
                        &mut prev[i],
                        v,
                        collider.as_deref().map(|c| &c[i]),
                        tags.as_deref().map(|c| &c[i]),
                    )?;
                }
            }
            if let (Some(c), Some(ident)) = (collider.as_deref(), ident.as_deref()) {
                let c = &c[i].0;
                bp.add(ident[i].archetype, t.0, c.shape, c.layer, c.mask | c.push);
            }
        }
    }
    Ok(())
}

/// The columns of the common archetype's pass (see [`rows`]).
struct Cols<'a> {
    pos: &'a mut [Position],
    vel: &'a mut [Velocity],
    prev: &'a mut [PrevPosition],
    rule: &'a [BoundsRule],
    ident: &'a [Identity],
    colliders: &'a [Collider],
}

impl<'a> Cols<'a> {
    /// Rows `..mid` and `mid..`.
    fn split_at(self, mid: usize) -> (Cols<'a>, Cols<'a>) {
        let (pos, pos_b) = self.pos.split_at_mut(mid);
        let (vel, vel_b) = self.vel.split_at_mut(mid);
        let (prev, prev_b) = self.prev.split_at_mut(mid);
        let (rule, rule_b) = self.rule.split_at(mid);
        let (ident, ident_b) = self.ident.split_at(mid);
        let (colliders, colliders_b) = self.colliders.split_at(mid);
        (
            Cols {
                pos,
                vel,
                prev,
                rule,
                ident,
                colliders,
            },
            Cols {
                pos: pos_b,
                vel: vel_b,
                prev: prev_b,
                rule: rule_b,
                ident: ident_b,
                colliders: colliders_b,
            },
        )
    }
}

/// The common archetype's pass over its rows: previous position, plain step, bounds rule and
/// the collider's record, touching nothing shared; rows its bounds rule destroys are listed in
/// `gone` (offset by `row0`) for [`Bounds::destroy`], in row order.
fn rows(
    c: Cols<'_>,
    area: Rect,
    dt: f32,
    out: &mut Stretch<'_>,
    gone: &mut Vec<usize>,
    row0: usize,
) {
    let n = c.pos.len();
    let (vel, prev, rule) = (&mut c.vel[..n], &mut c.prev[..n], &c.rule[..n]);
    let (ident, colliders) = (&c.ident[..n], &c.colliders[..n]);
    // The confining walls of the last collider shape seen (rows of one archetype share it).
    let mut walls: Option<(Shape, Walls)> = None;
    for (i, t) in c.pos.iter_mut().enumerate() {
        let v = &mut vel[i];
        prev[i].0 = t.0;
        step(t, v, dt);
        let collider = &colliders[i];
        let c = &collider.0;
        let policy = rule[i].0;
        if policy == BoundsPolicy::Confine {
            let w = match &walls {
                Some((shape, w)) if *shape == c.shape => w,
                _ => {
                    &walls
                        .insert((c.shape, Walls::new(area, c.shape.half_extents())))
                        .1
                }
            };
            w.confine(t, v);
        } else if !keep(area, policy, t, &mut prev[i], v, Some(collider)) {
            gone.push(row0 + i);
        }
        out.add(ident[i].archetype, t.0, c.shape, c.layer, c.mask | c.push);
    }
}
