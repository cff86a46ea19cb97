//! Live entities by tag: what the tick looks up when it wants the entities that carry some
//! tags (behaviour targets, the navigation goal, aims), without visiting every entity.

use crate::def::GameDef;
use crate::world::components::{Identity, Tags};
use crate::world::ecs::Ecs;

/// Per watched tag bit, the entities spawned with it: `(creation sequence, entity, all its
/// tags)` in creation order. Only the tags the tick looks entities up by are watched (see
/// [`TagIndex::watching`]), so an entity costs an entry per watched tag it has, not per tag.
///
/// Invariants: tags never change after spawn, and sequences grow, so each list is sorted by
/// sequence. Destroyed entities leave lazily: an entry counts while its entity is alive in the
/// world, and a list is compacted when it holds more than twice the live entities (plus a
/// little), so memory stays linear in the live entities.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagIndex {
    lists: Vec<Vec<(u64, hecs::Entity, u64)>>,
    watched: u64,
}

/// Entries a list may hold beyond twice the live entities before it is compacted.
const SLACK: usize = 64;

impl TagIndex {
    /// An index of the tags a game's tick looks entities up by: behaviour targets, navigation
    /// goals, the tags triggers aim at and those archetypes attach to (behaviours set at run
    /// time add theirs: see [`watch`](Self::watch)). [`each`](Self::each) answers for those
    /// only.
    pub fn watching(def: &GameDef) -> TagIndex {
        let mut watched = 0u64;
        for a in &def.archetypes {
            watched |= a.behaviour.as_ref().map_or(0, |b| b.target);
            watched |= a.attach.as_ref().map_or(0, |at| at.to);
            if let Some(c) = &a.control {
                watched |= c.triggers.iter().fold(0, |acc, t| acc | t.aim);
            }
        }
        for l in &def.levels {
            watched |= l.nav.as_ref().map_or(0, |n| n.goal);
        }
        TagIndex {
            lists: Vec::new(),
            watched,
        }
    }

    /// Watches `tags` too from now on, indexing the live entities that carry them (once per
    /// tag a world watches: a behaviour set at run time may look for a tag no archetype's
    /// does).
    pub fn watch(&mut self, ecs: &Ecs, tags: u64) {
        let mut new = tags & !self.watched;
        if new == 0 {
            return;
        }
        self.watched |= new;
        if self.lists.len() < 64 {
            self.lists.resize_with(64, Vec::new);
        }
        let mut found: Vec<(u64, hecs::Entity, u64)> = ecs
            .query::<(hecs::Entity, &Identity, &Tags)>()
            .iter()
            .filter(|(_, _, t)| t.0 & new != 0)
            .map(|(e, id, t)| (id.seq, e, t.0))
            .collect();
        found.sort_unstable_by_key(|f| f.0);
        while new != 0 {
            let bit = new.trailing_zeros();
            new &= new - 1;
            let list = &mut self.lists[bit as usize];
            list.clear();
            list.extend(found.iter().filter(|f| f.2 & (1 << bit) != 0));
        }
    }

    /// Records a new entity; `live` is the number of live entities (the compaction bound).
    pub fn add(&mut self, ecs: &Ecs, seq: u64, entity: hecs::Entity, tags: u64, live: usize) {
        let mut bits = tags & self.watched;
        if bits == 0 {
            return;
        }
        if self.lists.len() < 64 {
            self.lists.resize_with(64, Vec::new);
        }
        while bits != 0 {
            let list = &mut self.lists[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            if list.len() > live * 2 + SLACK {
                list.retain(|e| ecs.raw().contains(e.1));
            }
            list.push((seq, entity, tags));
        }
    }

    /// Calls `f(seq, entity, tags)` for each live entity carrying any of `tags`, once each, in
    /// creation order (a read of which entities exist); drops the dead entries it meets. `scratch` holds the merge of several
    /// tags' lists.
    pub fn each(
        &mut self,
        ecs: &Ecs,
        tags: u64,
        scratch: &mut Vec<(u64, hecs::Entity, u64)>,
        mut f: impl FnMut(u64, hecs::Entity, u64),
    ) {
        debug_assert!(tags & !self.watched == 0, "only watched tags are indexed");
        // Which entities exist, by tag; dropping the dead entries changes nothing a reader
        // sees.
        crate::resource::touch(crate::resource::Resource::EntitySet, false);
        let ecs = ecs.raw();
        if tags == 0 || self.lists.is_empty() {
            return;
        }
        if tags.count_ones() == 1 {
            let list = &mut self.lists[tags.trailing_zeros() as usize];
            list.retain(|e| ecs.contains(e.1));
            for &(seq, e, t) in list.iter() {
                f(seq, e, t);
            }
            return;
        }
        scratch.clear();
        let mut bits = tags;
        while bits != 0 {
            let list = &mut self.lists[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            list.retain(|e| ecs.contains(e.1));
            scratch.extend_from_slice(list);
        }
        scratch.sort_unstable_by_key(|e| e.0);
        scratch.dedup_by_key(|e| e.0);
        for &(seq, e, t) in scratch.iter() {
            f(seq, e, t);
        }
    }
}
