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

use crate::def::GameDef;
use crate::fault::Fault;
use crate::tick::motion::bounds::Bounds;
use crate::tick::motion::{accelerate, step, turn};
use crate::world::SimWorld;
use crate::world::components::*;

/// Integrates, turns and bounds every entity, and adds every collider to the broadphase.
pub(crate) fn motion(world: &mut SimWorld, def: &GameDef, tick: u64) -> Result<(), Fault> {
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
                    let (rule, prev) = (&rule[..n], &mut prev[..n]);
                    for i in 0..n {
                        let (t, v) = (&mut pos[i], &mut vel[i]);
                        prev[i].0 = t.0;
                        step(t, v, dt);
                        let c = &colliders[i];
                        let tag = tags.map(|c| &c[i]);
                        bounds.apply(&ident[i], rule[i].0, t, &mut prev[i], v, Some(c), tag)?;
                        let c = &c.0;
                        bp.add(ident[i].archetype, t.0, c.shape, c.layer, c.mask | c.push);
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
