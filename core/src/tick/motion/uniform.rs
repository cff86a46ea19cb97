//! Which rows of an archetype share one collider and confine, kept between ticks: colliders
//! and bounds rules are fixed at spawn, so the rows' answer changes only when the archetype's
//! rows do (which the world counts: `Ecs::rows_changed`). Motion's pass over every entity asks it
//! per chunk of rows instead of reading every row's collider and rule each tick.

use crate::def::{BoundsPolicy, GameDef};
use crate::world::components::{Colliders, Identity};

/// One archetype's rows as of one count of their changes: where the collider changes from
/// the row before, and which rows do not confine.
#[derive(Clone, Debug, Default)]
pub(crate) struct Uniformity {
    /// The count of the archetype's row changes and its length it was taken at (`None`: never).
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

    /// The answer for `colliders` and `ids` (one archetype's columns, one length), whose
    /// archetypes' bounds rules are `def`'s.
    fn take(&mut self, colliders: &Colliders<'_>, ids: &[Identity], def: &GameDef) {
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
        if let Colliders::Own(c) = *colliders {
            changes(c.iter().map(|c| c.key()), &mut self.changes);
        }
        // Most hecs archetypes hold one game archetype: then the answer is its rule's, found
        // without a branch a row (and a shared collider, its archetype's, never changes).
        if let Some(a) = Identity::sole(ids) {
            if def.bounds_of(a) != BoundsPolicy::Confine {
                self.free.extend(0..ids.len() as u32);
            }
            return;
        }
        // One pass over the archetypes: the rule is looked up where the archetype changes
        // from the row before (rows of an archetype lie together), and a shared collider,
        // which is its archetype's and whose key holds the archetype, changes exactly there.
        let shared = matches!(colliders, Colliders::Shared(..));
        let mut last = None;
        for (i, id) in ids.iter().enumerate() {
            let a = id.archetype;
            let free = match last {
                Some((l, free)) if l == a => free,
                _ => {
                    if shared && last.is_some() {
                        self.changes.push(i as u32);
                    }
                    let free = def.bounds_of(a) != BoundsPolicy::Confine;
                    last = Some((a, free));
                    free
                }
            };
            if free {
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
    /// Archetype `index`'s rows (`colliders`, `ids`, whose archetypes' bounds rules are
    /// `def`'s) as of `changes` changes of its rows, taken again if the rows changed since.
    pub fn get(
        &mut self,
        index: usize,
        changes: u64,
        colliders: &Colliders<'_>,
        ids: &[Identity],
        def: &GameDef,
    ) -> &Uniformity {
        if self.arch.len() <= index {
            self.arch.resize_with(index + 1, Uniformity::default);
        }
        let u = &mut self.arch[index];
        let now = Some((changes, colliders.len()));
        if u.at != now {
            u.take(colliders, ids, def);
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
        // Archetype 0 confines, 1 wraps: the rows' rules are their archetypes'.
        let (conf, wrap) = (BoundsPolicy::Confine, BoundsPolicy::Wrap);
        let def = GameDef {
            archetypes: [conf, wrap]
                .map(|bounds| crate::def::ArchetypeDef {
                    bounds,
                    ..crate::def::ArchetypeDef::default()
                })
                .into(),
            ..GameDef::default()
        };
        let ids = [0, 0, 0, 1, 0, 0].map(|a| Identity::new(1, ArchetypeId(a)));
        let mut cache = UniformCache::default();
        let u = cache
            .get(2, 7, &Colliders::Own(&colliders), &ids, &def)
            .clone();
        let expect = |s: usize, e: usize| {
            let k = colliders[s].key();
            (s..e).all(|i| colliders[i].key() == k && def.bounds_of(ids[i].archetype) == conf)
        };
        for s in 0..6 {
            for e in s + 1..=6 {
                assert_eq!(u.uniform(s, e), expect(s, e), "rows {s}..{e}");
            }
        }
        // Same count of changes and length: kept; another count: taken again.
        let all = [c4; 6];
        let all = Colliders::Own(&all);
        let confined = [Identity::new(1, ArchetypeId(0)); 6];
        assert!(!cache.get(2, 7, &all, &confined, &def).uniform(0, 6));
        assert!(cache.get(2, 8, &all, &confined, &def).uniform(0, 6));
        // Rows of one game archetype: its rule for every row, the own colliders' changes kept.
        let wrapping = [Identity::new(1, ArchetypeId(1)); 6];
        let u = cache.get(2, 9, &all, &wrapping, &def).clone();
        assert!((0..6).all(|s| !u.uniform(s, s + 1)));
        let own = Colliders::Own(&colliders);
        let u = cache.get(2, 10, &own, &confined, &def).clone();
        for s in 0..6 {
            for e in s + 1..=6 {
                let one = (s..e).all(|i| colliders[i].key() == colliders[s].key());
                assert_eq!(u.uniform(s, e), one, "rows {s}..{e}");
            }
        }
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
                    bounds: BoundsPolicy::Confine,
                    ..crate::def::ArchetypeDef::default()
                })
                .collect(),
            ..crate::def::GameDef::default()
        };
        let id = |a| Identity::new(1, ArchetypeId(a));
        let ids = [0, 0, 1, 1, 1, 2, 2, 3, 0, 0].map(id);
        let colliders = Colliders::Shared(&ids, &def);
        let u = UniformCache::default()
            .get(0, 1, &colliders, &ids, &def)
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
