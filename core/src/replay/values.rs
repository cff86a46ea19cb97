//! Per-entity values of a world, for pinpointing where two runs diverge.

use crate::replay::types::EntityValues;

/// The canonical per-entity values of a world, in creation order.
pub fn entity_values(world: &crate::world::SimWorld) -> Vec<EntityValues> {
    use crate::world::components::{Health, Identity, Position, Velocity};
    let mut v: Vec<EntityValues> = world
        .ecs()
        .query::<(&Identity, &Position, Option<&Velocity>, Option<&Health>)>()
        .iter()
        .map(|(id, t, vel, h)| EntityValues {
            seq: id.seq(),
            archetype: id.archetype.0,
            pos: [t.0.x, t.0.y],
            vel: vel.map_or([0.0, 0.0], |v| [v.0.x, v.0.y]),
            health: h.map(|h| h.current),
        })
        .collect();
    v.sort_unstable_by_key(|e| e.seq);
    v
}

/// The first difference between two entity lists, described for a person.
pub fn describe_difference(expected: &[EntityValues], found: &[EntityValues]) -> Option<String> {
    let mut i = 0;
    let mut j = 0;
    while i < expected.len() || j < found.len() {
        match (expected.get(i), found.get(j)) {
            (Some(a), Some(b)) if a.seq == b.seq => {
                if a.pos != b.pos {
                    return Some(format!(
                        "entity #{}: position {:?}, expected {:?}",
                        a.seq, b.pos, a.pos
                    ));
                }
                if a.vel != b.vel {
                    return Some(format!(
                        "entity #{}: velocity {:?}, expected {:?}",
                        a.seq, b.vel, a.vel
                    ));
                }
                if a.health != b.health {
                    return Some(format!(
                        "entity #{}: health {:?}, expected {:?}",
                        a.seq, b.health, a.health
                    ));
                }
                if a.archetype != b.archetype {
                    return Some(format!(
                        "entity #{}: archetype {}, expected {}",
                        a.seq, b.archetype, a.archetype
                    ));
                }
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a.seq < b.seq => {
                return Some(format!("entity #{} is missing", a.seq));
            }
            (Some(_), Some(b)) => return Some(format!("entity #{} should not exist", b.seq)),
            (Some(a), None) => return Some(format!("entity #{} is missing", a.seq)),
            (None, Some(b)) => return Some(format!("entity #{} should not exist", b.seq)),
            (None, None) => break,
        }
    }
    None
}
