//! Debug invariant checks run at EndTick when enabled.

use crate::def::GameDef;
use crate::fault::{Fault, FaultKind};
use crate::world::SimWorld;
use crate::world::components::{Attached, Drawn, Health, Identity, Position, PrevPosition, Sprite};

fn broken(message: String) -> Fault {
    Fault::new(FaultKind::Invariant, message)
}

/// Every invulnerability deadline is a live entity's with health.
fn deadlines(world: &SimWorld) -> Result<(), Fault> {
    for seq in world.invulnerable.keys() {
        let health = world
            .index
            .get(seq, world.ecs.raw())
            .map(|e| world.ecs.get::<&Health>(e).is_ok());
        if health != Some(true) {
            return Err(broken(format!(
                "entity #{seq} has an invulnerability deadline but no health, or is gone"
            )));
        }
    }
    Ok(())
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
    for (seq, e) in world.index.iter(world.ecs.raw()) {
        let id = world
            .ecs
            .get::<&Identity>(e)
            .map_err(|_| broken(format!("entity #{seq} is indexed but not alive")))?;
        let carried = id.seq();
        if carried != seq {
            return Err(broken(format!("entity #{seq} carries sequence {carried}")));
        }
        if id.seq() >= *world.next_seq {
            return Err(broken(format!(
                "entity #{seq} is not below the next sequence"
            )));
        }
    }
    deadlines(world)?;
    if world.index.len() > def.limits.max_entities as usize {
        return Err(broken(format!(
            "more entities than {}",
            crate::limits::Limit::Entities
        )));
    }
    for (id, t, prev, h) in world
        .ecs
        .query::<(&Identity, &Position, &PrevPosition, Option<&Health>)>()
        .iter()
    {
        if !t.0.is_finite() || !prev.0.is_finite() {
            return Err(broken("a position is not finite".into()));
        }
        if let Some(h) = h
            && h.current > world.max_health.of(id)
        {
            return Err(broken(format!(
                "health {} above its maximum {}",
                h.current,
                world.max_health.of(id)
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
            id.seq()
        )));
    }
    let keys = world.contacts.keys();
    for w in keys.windows(2) {
        if w[0].pair() >= w[1].pair() {
            return Err(broken("the contact cache is not strictly sorted".into()));
        }
    }
    for k in keys {
        let (lo, hi) = k.pair();
        if lo >= hi || !world.index.contains_key(&lo) || !world.index.contains_key(&hi) {
            return Err(broken(format!("contact ({lo}, {hi}) names a dead entity")));
        }
    }
    let mut links: Vec<(u64, u64)> = Vec::new();
    for (id, a) in world.ecs.query::<(&Identity, &Attached)>().iter() {
        if !world.index.contains_key(&a.parent) {
            return Err(broken(format!(
                "entity #{} is attached to #{}, which is gone",
                id.seq(),
                a.parent
            )));
        }
        links.push((id.seq(), a.parent));
    }
    if let Some(seq) = in_a_cycle(&mut links) {
        return Err(broken(format!(
            "entity #{seq} hangs from itself through its attachments"
        )));
    }
    if world.timers.len() > world.timers.capacity() as usize {
        return Err(broken("more timers than their capacity".into()));
    }
    Ok(())
}

/// An entity of `links` (`(child, parent)`, sorted here) that hangs from itself, if any:
/// each chain walked once (a walk stops at an entity an earlier walk passed).
fn in_a_cycle(links: &mut [(u64, u64)]) -> Option<u64> {
    links.sort_unstable();
    let up = |i: usize| links.binary_search_by_key(&links[i].1, |l| l.0).ok();
    // Per link, the walk that passed it first (0: none yet).
    let mut walk = vec![0usize; links.len()];
    for start in 0..links.len() {
        let mut at = start;
        while walk[at] == 0 {
            walk[at] = start + 1;
            match up(at) {
                Some(next) => at = next,
                None => break,
            }
        }
        // Back at a link this walk passed, by a parent: a cycle.
        if walk[at] == start + 1 && up(at).is_some_and(|next| walk[next] == start + 1) {
            return Some(links[at].0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::in_a_cycle;

    #[test]
    fn a_cycle_of_attachments_is_found_and_chains_are_not_one() {
        // (links as (child, parent), whether some entity hangs from itself)
        let cases: [(&[(u64, u64)], bool); 6] = [
            (&[], false),
            (&[(2, 1), (3, 2), (4, 3), (5, 3)], false),
            (&[(1, 2), (2, 3), (3, 4)], false),
            (&[(1, 1)], true),
            (&[(9, 1), (1, 2), (2, 3), (3, 1)], true),
            (&[(5, 6), (7, 6), (6, 8), (8, 7)], true),
        ];
        for (links, cyclic) in cases {
            let mut links = links.to_vec();
            assert_eq!(in_a_cycle(&mut links).is_some(), cyclic, "{links:?}");
        }
    }
}
