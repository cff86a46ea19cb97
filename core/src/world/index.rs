//! The live entities by creation sequence: what every handle a script holds resolves through.

use crate::ids::SeqMap;
use std::collections::VecDeque;

/// Live entities by creation sequence.
///
/// Sequences only grow, and a level's build (or any spawn) takes the next ones, so most live
/// entities sit in one run of consecutive sequences: that run is a column of hecs ids (4 bytes
/// an entity, a look-up is an index and hecs's generation of the id), and only entities
/// outside it live in a hash map (about 35 bytes an entity). Invariants:
/// - `dense[i]` is the hecs id ([`hecs::Entity::id`]) of the live entity of sequence
///   `base + i` in the world the index belongs to, or [`NONE`] (gone, or a sequence skipped):
///   an entity's id leaves the index when it is despawned, before hecs can give the id to
///   another. `dense_live` counts the ids, and `dense` never begins with a `NONE` (it is
///   trimmed).
/// - A sequence is in `dense`'s range or in `sparse`, never both.
/// - At least a quarter of `dense` is live once it holds more than [`SeqIndex::DENSE_MIN`]
///   slots: below that, its live entities move to `sparse` and it starts afresh, so its slots
///   never cost more than about four times the entities they hold.
///
/// The methods that take a `hecs::World` resolve ids through it (hecs's
/// `find_entity_from_id`, whose id must be a live entity's): they must be given the index's own
/// world, never another. So the index is not `Clone`: a copy would name another world's
/// entities.
#[derive(Debug, Default)]
pub struct SeqIndex {
    base: u64,
    dense: VecDeque<u32>,
    dense_live: usize,
    sparse: SeqMap<hecs::Entity>,
    /// One past the highest sequence ever added: only a sequence from here on may extend the
    /// run or start a new one.
    next: u64,
}

/// A slot of the run with no live entity. hecs never gives this id out: the world's limit on
/// live entities is far below 2^32 (see `insert`).
const NONE: u32 = u32::MAX;

/// The live entity of hecs id `id` in `ecs`.
///
/// # Safety
///
/// `id` is the id of an entity live in `ecs` (the index's invariant for its ids).
#[inline(always)]
unsafe fn resolve(ecs: &hecs::World, id: u32) -> hecs::Entity {
    // SAFETY: the caller's: the id is a live entity's.
    unsafe { ecs.find_entity_from_id(id) }
}

impl SeqIndex {
    /// Slots below which the run is kept however few of them are live.
    const DENSE_MIN: usize = 1024;
    /// Sequences an addition may skip and still extend the run (the skipped slots stay empty).
    const GAP_MAX: u64 = 64;

    /// Live entities.
    pub fn len(&self) -> usize {
        self.dense_live + self.sparse.len()
    }

    /// The slot of `seq` in the run, if it is in its range.
    #[inline]
    fn slot(&self, seq: u64) -> Option<usize> {
        usize::try_from(seq.wrapping_sub(self.base))
            .ok()
            .filter(|&i| i < self.dense.len())
    }

    /// The entity of sequence `seq`, if it lives; `ecs` is the world the index belongs to.
    #[inline]
    pub fn get(&self, seq: &u64, ecs: &hecs::World) -> Option<hecs::Entity> {
        match self.slot(*seq) {
            Some(i) => {
                let id = self.dense[i];
                // SAFETY: an id in the run is a live entity's in the index's world (the type's
                // invariant), which `ecs` is.
                (id != NONE).then(|| unsafe { resolve(ecs, id) })
            }
            None => self.sparse.get(seq).copied(),
        }
    }

    #[inline]
    pub fn contains_key(&self, seq: &u64) -> bool {
        match self.slot(*seq) {
            Some(i) => self.dense[i] != NONE,
            None => self.sparse.contains_key(seq),
        }
    }

    /// Room for `more` entities of the next sequences.
    pub fn reserve(&mut self, more: usize) {
        self.dense.reserve_exact(more);
    }

    /// Room in the run for `more` slots: where it is full, it grows by an eighth (at least
    /// `more`, and [`SeqIndex::DENSE_MIN`]) rather than doubling, so a spawn past a large
    /// level's build adds an eighth of the run's bytes, not the run again.
    #[inline]
    fn room(&mut self, more: usize) {
        if self.dense.capacity() - self.dense.len() < more {
            let grow = (self.dense.len() / 8).max(more).max(Self::DENSE_MIN);
            self.dense.reserve_exact(grow);
        }
    }

    /// Adds the live entity `e` of sequence `seq` (`ecs`: the index's world, which holds it);
    /// returns whether the sequence was taken (the entity it named is forgotten).
    pub fn insert(&mut self, seq: u64, e: hecs::Entity, ecs: &hecs::World) -> bool {
        // hecs's ids count its live entities and free slots: far below `NONE` within the
        // world's limits.
        assert_ne!(e.id(), NONE, "hecs id {NONE} is the index's empty slot");
        // The usual case: the sequence right after the run's last.
        if seq == self.next && seq == self.base.wrapping_add(self.dense.len() as u64) {
            self.room(1);
            self.dense.push_back(e.id());
            self.dense_live += 1;
            self.next = seq + 1;
            return false;
        }
        if let Some(i) = self.slot(seq) {
            let old = std::mem::replace(&mut self.dense[i], e.id());
            self.dense_live += usize::from(old == NONE);
            return old != NONE;
        }
        if seq < self.next {
            return self.sparse.insert(seq, e).is_some();
        }
        self.next = seq + 1;
        if self.dense.is_empty() {
            self.base = seq;
        }
        let gap = seq - (self.base + self.dense.len() as u64);
        if gap > Self::GAP_MAX {
            // A far jump: a new run from here.
            self.retire(ecs);
            self.base = seq;
        } else if gap > 0 {
            self.room(gap as usize + 1);
            self.dense.extend(std::iter::repeat_n(NONE, gap as usize));
        }
        self.room(1);
        self.dense.push_back(e.id());
        self.dense_live += 1;
        // Room is given back only as entities go: here it may be what `reserve` set aside.
        self.keep_dense(ecs, false);
        false
    }

    /// Removes the entity of sequence `seq`, returning it if it lived; `ecs` is the world the
    /// index belongs to, which still holds the entity.
    pub fn remove(&mut self, seq: &u64, ecs: &hecs::World) -> Option<hecs::Entity> {
        let Some(i) = self.slot(*seq) else {
            return self.sparse.remove(seq);
        };
        let id = std::mem::replace(&mut self.dense[i], NONE);
        if id == NONE {
            return None;
        }
        // SAFETY: the id was in the run, so its entity lives in `ecs` (the type's invariant).
        let e = unsafe { resolve(ecs, id) };
        self.dense_live -= 1;
        // Destroyed oldest first, as often, the run shrinks from its front one slot at a time.
        while self.dense.front().is_some_and(|&s| s == NONE) {
            self.dense.pop_front();
            self.base += 1;
        }
        self.keep_dense(ecs, true);
        Some(e)
    }

    /// Moves the run's live entities to the map, if too few of its slots hold one (`ecs`: the
    /// index's world), and (`shrink`) gives back memory the run no longer needs.
    fn keep_dense(&mut self, ecs: &hecs::World, shrink: bool) {
        if self.dense.len() > Self::DENSE_MIN && self.dense_live * 4 < self.dense.len() {
            self.retire(ecs);
        }
        let keep = self.dense.len().max(Self::DENSE_MIN);
        if shrink && self.dense.capacity() > 2 * keep {
            self.dense.shrink_to(keep);
        }
    }

    /// Moves the run's live entities to the map (`ecs`: the index's world); the run is empty
    /// after.
    fn retire(&mut self, ecs: &hecs::World) {
        let base = self.base;
        let live = self
            .dense
            .drain(..)
            .enumerate()
            .filter(|&(_, id)| id != NONE);
        // SAFETY: every id in the run is a live entity's in `ecs` (the type's invariant).
        self.sparse
            .extend(live.map(|(k, id)| (base + k as u64, unsafe { resolve(ecs, id) })));
        self.dense_live = 0;
    }

    /// Every live entity with its sequence, in no particular order (`ecs`: the index's world).
    pub fn iter<'a>(
        &'a self,
        ecs: &'a hecs::World,
    ) -> impl Iterator<Item = (u64, hecs::Entity)> + 'a {
        let base = self.base;
        let dense = self.dense.iter().enumerate().filter(|&(_, &id)| id != NONE);
        // SAFETY: every id in the run is a live entity's in `ecs` (the type's invariant).
        dense
            .map(move |(k, &id)| (base + k as u64, unsafe { resolve(ecs, id) }))
            .chain(self.sparse.iter().map(|(s, e)| (*s, *e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level's build reserves its entities' slots: the run takes that room and no more (it
    /// does not shrink on the first insertion and grow again by doubling).
    #[test]
    fn a_reserved_run_holds_its_entities_in_the_room_reserved() {
        let mut world = hecs::World::new();
        let mut index = SeqIndex::default();
        index.reserve(5000);
        for seq in 1..=5000 {
            let e = world.spawn(());
            assert!(!index.insert(seq, e, &world));
        }
        assert_eq!((index.dense.len(), index.dense.capacity()), (5000, 5000));
        // One more past the room reserved: the run grows by an eighth, not by doubling.
        let e = world.spawn(());
        assert!(!index.insert(5001, e, &world));
        assert_eq!(index.dense.capacity(), 5000 + 1024);
        assert_eq!(index.remove(&5001, &world), Some(e));
        world.despawn(e).unwrap();
        // Most of them gone, the room goes with them.
        for seq in 1..=4000 {
            let e = index.remove(&seq, &world).unwrap();
            world.despawn(e).unwrap();
        }
        assert!(index.dense.capacity() <= 2 * 1024.max(index.dense.len()));
    }

    /// Every operation on the index and on a plain map, side by side: the same answers, and the
    /// run's slots bounded by its live entities.
    #[test]
    fn it_answers_as_a_map_does_through_spawns_and_destructions() {
        let mut world = hecs::World::new();
        let mut index = SeqIndex::default();
        let mut map: SeqMap<hecs::Entity> = Default::default();
        let mut live: Vec<u64> = Vec::new();
        let mut rng = fastrand::Rng::with_seed(7);
        let mut next = 1u64;
        for step in 0..20_000 {
            let spawn = live.is_empty() || rng.u32(0..100) < if step < 10_000 { 55 } else { 45 };
            if spawn {
                // Bursts, as a level's build and a wave spawn; now and then sequences that
                // were taken without an entity, a few or many.
                next += match rng.u32(0..200) {
                    0 => 5_000,
                    1..=10 => rng.u64(1..80),
                    _ => 0,
                };
                for _ in 0..rng.usize(1..40) {
                    let e = world.spawn(());
                    assert!(!index.insert(next, e, &world));
                    map.insert(next, e);
                    live.push(next);
                    next += 1;
                }
            } else {
                // Despawned as the world does, after the index let it go: hecs gives its id
                // to a later spawn, with the next generation.
                let seq = live.swap_remove(rng.usize(0..live.len()));
                let e = map.remove(&seq);
                assert_eq!(index.remove(&seq, &world), e);
                assert_eq!(index.remove(&seq, &world), None, "gone once");
                world.despawn(e.unwrap()).unwrap();
            }
            assert_eq!(index.len(), map.len());
            for _ in 0..8 {
                let seq = rng.u64(0..next + 2);
                assert_eq!(
                    index.get(&seq, &world),
                    map.get(&seq).copied(),
                    "sequence {seq}"
                );
                assert_eq!(index.contains_key(&seq), map.contains_key(&seq));
            }
            if step % 997 == 0 {
                let mut all: Vec<(u64, hecs::Entity)> = index.iter(&world).collect();
                let mut want: Vec<(u64, hecs::Entity)> =
                    map.iter().map(|(s, e)| (*s, *e)).collect();
                all.sort_by_key(|p| p.0);
                want.sort_by_key(|p| p.0);
                assert_eq!(all, want);
                assert!(
                    live.iter()
                        .all(|s| index.get(s, &world) == map.get(s).copied())
                );
            }
            let slots = index.dense.len();
            assert!(
                slots <= SeqIndex::DENSE_MIN || index.dense_live * 4 >= slots,
                "{slots} slots for {} entities",
                index.dense_live
            );
        }
        assert!(
            index.dense_live > 0 && !index.sparse.is_empty(),
            "both parts used"
        );
    }
}
