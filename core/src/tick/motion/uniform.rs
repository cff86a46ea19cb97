//! Which rows of an archetype share one collider and confine, kept between ticks: colliders
//! and bounds rules are fixed at spawn, so the rows' answer changes only when rows do (see
//! [`SimWorld::structure`](crate::world::SimWorld)). Motion's pass over every entity asks it
//! per chunk of rows instead of reading every row's collider and rule each tick.

use crate::def::BoundsPolicy;
use crate::world::components::{BoundsRule, Colliders};

/// One archetype's rows as of one structure of the world: where the collider changes from
/// the row before, and which rows do not confine.
#[derive(Clone, Debug, Default)]
pub(crate) struct Uniformity {
    /// The world's structure and the archetype's length it was taken at (`None`: never).
    at: Option<(u64, usize)>,
    /// Rows `i >= 1` whose collider differs from row `i - 1`'s, ascending.
    changes: Vec<u32>,
    /// Rows whose bounds rule is not to confine, ascending.
    free: Vec<u32>,
}

impl Uniformity {
    /// Whether rows `start..end` (`start < end`) have one collider and all confine.
    #[inline]
    pub fn uniform(&self, start: usize, end: usize) -> bool {
        let none_in = |rows: &[u32], from: usize| {
            let i = rows.partition_point(|&r| (r as usize) < from);
            rows.get(i).is_none_or(|&r| r as usize >= end)
        };
        none_in(&self.changes, start + 1) && none_in(&self.free, start)
    }

    /// The answer for `colliders` and `rules` (one archetype's columns, one length).
    fn take(&mut self, colliders: &Colliders<'_>, rules: &[BoundsRule]) {
        self.changes.clear();
        self.free.clear();
        fn changes<K: PartialEq>(keys: impl Iterator<Item = K>, out: &mut Vec<u32>) {
            let mut last = None;
            for (i, key) in keys.enumerate() {
                if last.as_ref().is_some_and(|k| *k != key) {
                    out.push(i as u32);
                }
                last = Some(key);
            }
        }
        match *colliders {
            Colliders::Own(c) => changes(c.iter().map(|c| c.key()), &mut self.changes),
            // A shared collider is its archetype's, and its key holds the archetype: it
            // changes exactly where the archetype does.
            Colliders::Shared(ids, _) => {
                changes(ids.iter().map(|i| i.archetype), &mut self.changes)
            }
        }
        for (i, r) in rules.iter().enumerate() {
            if r.0 != BoundsPolicy::Confine {
                self.free.push(i as u32);
            }
        }
    }
}

/// [`Uniformity`] per hecs archetype, by its place among the world's archetypes (hecs never
/// removes one, so the place stays).
#[derive(Clone, Debug, Default)]
pub(crate) struct UniformCache {
    arch: Vec<Uniformity>,
}

impl UniformCache {
    /// Archetype `index`'s rows (`colliders`, `rules`) in the world of structure `structure`,
    /// taken again if rows changed since.
    pub fn get(
        &mut self,
        index: usize,
        structure: u64,
        colliders: &Colliders<'_>,
        rules: &[BoundsRule],
    ) -> &Uniformity {
        if self.arch.len() <= index {
            self.arch.resize_with(index + 1, Uniformity::default);
        }
        let u = &mut self.arch[index];
        let now = Some((structure, colliders.len()));
        if u.at != now {
            u.take(colliders, rules);
            u.at = now;
        }
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::{ArchetypeId, Shape};
    use crate::world::components::{Collider, Identity};

    #[test]
    fn chunks_are_uniform_exactly_where_rows_agree() {
        let circle = |r| Collider::new(ArchetypeId(1), Shape::Circle { radius: r });
        let (c4, c5) = (circle(4.0), circle(5.0));
        let colliders = [c4, c4, c5, c5, c5, c4];
        let rule = |p| BoundsRule(p);
        let (conf, wrap) = (BoundsPolicy::Confine, BoundsPolicy::Wrap);
        let rules = [conf, conf, conf, wrap, conf, conf].map(rule);
        let mut cache = UniformCache::default();
        let u = cache.get(2, 7, &Colliders::Own(&colliders), &rules).clone();
        let expect = |s: usize, e: usize| {
            let k = colliders[s].key();
            (s..e).all(|i| colliders[i].key() == k && rules[i].0 == conf)
        };
        for s in 0..6 {
            for e in s + 1..=6 {
                assert_eq!(u.uniform(s, e), expect(s, e), "rows {s}..{e}");
            }
        }
        // Same structure and length: kept; another structure: taken again.
        let all = [c4; 6];
        let all = Colliders::Own(&all);
        assert!(!cache.get(2, 7, &all, &[rule(conf); 6]).uniform(0, 6));
        assert!(cache.get(2, 8, &all, &[rule(conf); 6]).uniform(0, 6));
    }

    #[test]
    fn shared_colliders_change_exactly_where_their_keys_do() {
        // Archetypes 0 and 1 declare one shape, 2 another, 3 none: each archetype's key
        // differs from every other's, the same shape or not.
        let shape = |r| {
            Some(crate::def::ColliderDef::new(
                Shape::Circle { radius: r },
                1,
                1,
                0,
            ))
        };
        let def = crate::def::GameDef {
            archetypes: [shape(4.0), shape(4.0), shape(5.0), None]
                .into_iter()
                .map(|collider| crate::def::ArchetypeDef {
                    collider,
                    ..crate::def::ArchetypeDef::default()
                })
                .collect(),
            ..crate::def::GameDef::default()
        };
        let id = |a| Identity::new(1, ArchetypeId(a));
        let ids = [0, 0, 1, 1, 1, 2, 2, 3, 0, 0].map(id);
        let colliders = Colliders::Shared(&ids, &def);
        let rules = [BoundsRule(BoundsPolicy::Confine); 10];
        let u = UniformCache::default()
            .get(0, 1, &colliders, &rules)
            .clone();
        let keys: Vec<_> = (0..ids.len()).map(|i| colliders.get(i).key()).collect();
        for s in 0..ids.len() {
            for e in s + 1..=ids.len() {
                let one = keys[s..e].iter().all(|k| *k == keys[s]);
                assert_eq!(u.uniform(s, e), one, "rows {s}..{e}");
            }
        }
    }
}
