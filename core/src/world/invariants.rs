//! Debug invariant checks run at EndTick when enabled.

use crate::def::GameDef;
use crate::fault::{Fault, FaultKind};
use crate::world::SimWorld;
use crate::world::components::{Attached, Drawn, Health, Identity, Position, PrevPosition, Sprite};

fn broken(message: String) -> Fault {
    Fault::new(FaultKind::Invariant, message)
}

/// Checks the world's internal consistency.
pub(crate) fn check(world: &SimWorld, def: &GameDef) -> Result<(), Fault> {
    if world.ecs.len() as usize != world.index.len() {
        return Err(broken(format!(
            "{} entities in the ECS but {} in the sequence index",
            world.ecs.len(),
            world.index.len()
        )));
    }
    for (seq, e) in world.index.iter() {
        let id = world
            .ecs
            .get::<&Identity>(*e)
            .map_err(|_| broken(format!("entity #{seq} is indexed but not alive")))?;
        let carried = id.seq;
        if carried != seq {
            return Err(broken(format!("entity #{seq} carries sequence {carried}")));
        }
        if id.seq >= *world.next_seq {
            return Err(broken(format!(
                "entity #{seq} is not below the next sequence"
            )));
        }
    }
    if world.index.len() > def.limits.max_entities as usize {
        return Err(broken(format!(
            "more entities than {}",
            crate::limits::Limit::Entities
        )));
    }
    for (t, prev, h) in world
        .ecs
        .query::<(&Position, &PrevPosition, Option<&Health>)>()
        .iter()
    {
        if !t.0.is_finite() || !prev.0.is_finite() {
            return Err(broken("a position is not finite".into()));
        }
        if let Some(h) = h
            && h.current > h.max
        {
            return Err(broken(format!(
                "health {} above its maximum {}",
                h.current, h.max
            )));
        }
    }
    if let Some(id) = world
        .ecs
        .query::<&Identity>()
        .with::<(&Sprite, &Drawn)>()
        .iter()
        .next()
    {
        return Err(broken(format!(
            "entity #{} has its own sprite and draws its archetype's",
            { id.seq }
        )));
    }
    let keys = world.contacts.keys();
    for w in keys.windows(2) {
        if (w[0].lo, w[0].hi) >= (w[1].lo, w[1].hi) {
            return Err(broken("the contact cache is not strictly sorted".into()));
        }
    }
    for k in keys {
        if k.lo >= k.hi || !world.index.contains_key(&k.lo) || !world.index.contains_key(&k.hi) {
            return Err(broken(format!(
                "contact ({}, {}) names a dead entity",
                k.lo, k.hi
            )));
        }
    }
    for (id, a) in world.ecs.query::<(&Identity, &Attached)>().iter() {
        if !world.index.contains_key(&a.parent) {
            return Err(broken(format!(
                "entity #{} is attached to #{}, which is gone",
                { id.seq },
                a.parent
            )));
        }
        if world.hangs_from(a.parent, id.seq) {
            return Err(broken(format!(
                "entity #{} hangs from itself through its attachments",
                { id.seq }
            )));
        }
    }
    if world.timers.len() > world.timers.capacity() as usize {
        return Err(broken("more timers than their capacity".into()));
    }
    Ok(())
}
