//! Live entities by tag: what the tick looks up when it wants the entities that carry some
//! tags (behaviour targets, the navigation goal, aims), without visiting every entity.

use crate::def::GameDef;
use crate::math::Vec2;
use crate::world::components::{Identity, Position};
use crate::world::ecs::Ecs;

/// Per watched tag bit, the entities spawned with it, in creation order (8 bytes an entry:
/// the list a tag's bit indexes says the entity has that tag; its sequence is its identity's,
/// read as the list is walked). Only the tags the tick looks entities up by are watched (see
/// [`TagIndex::watching`]), so an entity costs an entry per watched tag it has, not per tag.
///
/// Invariants: tags never change after spawn, and entities are added as they are created (by
/// increasing sequence), so each list is in sequence order. Destroyed entities leave lazily:
/// an entry counts while its entity is alive in the world (a hecs id is never alive again
/// once despawned: its generation changes), and a list is compacted when it holds more than
/// twice the live entities (plus a little), so memory stays linear in the live entities.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagIndex {
    lists: Vec<Vec<hecs::Entity>>,
    watched: u64,
}

/// Entries a list may hold beyond twice the live entities before it is compacted.
const SLACK: usize = 64;

/// Entries of one tag up to which [`TagIndex::each`] reads each entry where it is rather than
/// through a view of the whole world.
const FEW: usize = 4;

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
    pub fn watch(&mut self, ecs: &Ecs, def: &GameDef, tags: u64) {
        let mut new = tags & !self.watched;
        if new == 0 {
            return;
        }
        self.watched |= new;
        if self.lists.len() < 64 {
            self.lists.resize_with(64, Vec::new);
        }
        let mut found: Vec<(u64, hecs::Entity, u64)> = ecs
            .query::<(hecs::Entity, &Identity)>()
            .iter()
            .map(|(e, id)| (id.seq, e, def.tags_of(id.archetype)))
            .filter(|f| f.2 & new != 0)
            .collect();
        found.sort_unstable_by_key(|f| f.0);
        while new != 0 {
            let bit = new.trailing_zeros();
            new &= new - 1;
            let list = &mut self.lists[bit as usize];
            list.clear();
            list.extend(found.iter().filter(|f| f.2 & (1 << bit) != 0).map(|f| f.1));
        }
    }

    /// Records a new entity, created after every entity recorded so far; `live` is the number
    /// of live entities (the compaction bound).
    pub fn add(&mut self, ecs: &Ecs, entity: hecs::Entity, tags: u64, live: usize) {
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
                list.retain(|&e| ecs.raw().contains(e));
            }
            list.push(entity);
        }
    }

    /// Calls `f(seq, entity, has, position)` for each live entity carrying any of `tags`,
    /// once each, in creation order, where `has` is which of `tags` it carries (a read of which
    /// entities exist); drops the dead entries it meets. `scratch` holds the merge of several
    /// tags' lists.
    pub fn each(
        &mut self,
        ecs: &Ecs,
        tags: u64,
        scratch: &mut Vec<Tagged>,
        mut f: impl FnMut(u64, hecs::Entity, u64, Vec2),
    ) {
        debug_assert!(tags & !self.watched == 0, "only watched tags are indexed");
        // Which entities exist, by tag; dropping the dead entries changes nothing a reader
        // sees.
        crate::resource::touch(crate::resource::Resource::EntitySet, false);
        if tags == 0 || self.lists.is_empty() {
            return;
        }
        if tags.count_ones() == 1 {
            let list = &mut self.lists[tags.trailing_zeros() as usize];
            let each = |seq, e, p| f(seq, e, tags, p);
            if list.len() <= FEW {
                // A few entries (a player or two): each read where it is, without a view,
                // which takes the two columns of every archetype that has them (a search and
                // a borrow each, taken and given back: more than a few entries' own look-ups).
                walk(list, |e| one(ecs, e), each);
            } else {
                let view = ecs.view::<(&Identity, &Position)>();
                walk(list, |e| view.get(e).map(|(id, p)| (id.seq, p.0)), each);
            }
            return;
        }
        // Each entry's identity and position, through one view (every live entity has both;
        // a dead one is not in it).
        let view = ecs.view::<(&Identity, &Position)>();
        scratch.clear();
        let mut bits = tags;
        while bits != 0 {
            let bit = 1 << bits.trailing_zeros();
            let list = &mut self.lists[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            let read = |e| view.get(e).map(|(id, p)| (id.seq, p.0));
            walk(list, read, |seq, e, p| scratch.push((seq, e, bit, p)));
        }
        // By sequence, then each entity's entries as one with the union of their bits.
        scratch.sort_unstable_by_key(|e| e.0);
        scratch.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.2 |= later.2;
            }
            same
        });
        for &(seq, e, has, p) in scratch.iter() {
            f(seq, e, has, p);
        }
    }
}

/// Calls `f(seq, entity, position)` for each entry of `list` that `read` finds (its sequence
/// and position), in order, and drops the entries it does not (dead entities).
#[inline(always)]
fn walk(
    list: &mut Vec<hecs::Entity>,
    read: impl Fn(hecs::Entity) -> Option<(u64, Vec2)>,
    mut f: impl FnMut(u64, hecs::Entity, Vec2),
) {
    list.retain(|&e| match read(e) {
        Some((seq, p)) => {
            f(seq, e, p);
            true
        }
        None => false,
    });
}

/// Entity `e`'s sequence and position, read where it is; `None` when it is dead.
fn one(ecs: &Ecs, e: hecs::Entity) -> Option<(u64, Vec2)> {
    let r = ecs.entity(e).ok()?;
    let (id, p) = (r.get::<&Identity>()?, r.get::<&Position>()?);
    Some((id.seq, p.0))
}

/// An entry of [`TagIndex::each`]'s merge: sequence, entity, which of the asked tags it has,
/// position.
pub(crate) type Tagged = (u64, hecs::Entity, u64, Vec2);

#[cfg(test)]
mod tests {
    use super::TagIndex;
    use crate::ArchetypeId;
    use crate::def::{ArchetypeDef, GameDef};
    use crate::math::Vec2;
    use crate::world::components::{Identity, Position, Tags};
    use crate::world::ecs::Ecs;

    /// Entities of tags 1, 2, 1|2, 4 and 2|4 (the 1|2 one destroyed; each of an archetype of
    /// its own, whose tags are its), watching 1, 2 and 4.
    fn world() -> (Ecs, TagIndex, Vec<hecs::Entity>) {
        let tags = [1u64, 2, 3, 4, 6];
        let def = GameDef {
            archetypes: tags
                .iter()
                .map(|&tags| ArchetypeDef {
                    tags,
                    ..ArchetypeDef::default()
                })
                .collect(),
            ..GameDef::default()
        };
        let mut ecs = Ecs::default();
        let mut index = TagIndex::default();
        let mut ids = Vec::new();
        for (k, seq) in (1u64..=5).enumerate() {
            let id = Identity {
                seq,
                archetype: ArchetypeId(k as u16),
            };
            let e = ecs.spawn((id, Position(Vec2::ZERO), Tags));
            ids.push(e);
        }
        index.watch(&ecs, &def, 1 | 2);
        index.watch(&ecs, &def, 4);
        ecs.despawn(ids[2]).unwrap();
        (ecs, index, ids)
    }

    #[test]
    fn each_live_entity_comes_once_by_sequence_with_the_asked_tags_it_has() {
        // (asked tags, every (seq, which of them it has))
        let table: [(u64, &[(u64, u64)]); 5] = [
            (1, &[(1, 1)]),
            (2, &[(2, 2), (5, 2)]),
            (1 | 2, &[(1, 1), (2, 2), (5, 2)]),
            (2 | 4, &[(2, 2), (4, 4), (5, 6)]),
            (1 | 2 | 4, &[(1, 1), (2, 2), (4, 4), (5, 6)]),
        ];
        let (ecs, mut index, ids) = world();
        let mut scratch = Vec::new();
        for (asked, want) in table {
            let mut got = Vec::new();
            index.each(&ecs, asked, &mut scratch, |seq, e, has, _| {
                assert_eq!(e, ids[seq as usize - 1]);
                got.push((seq, has));
            });
            assert_eq!(got, want, "asked {asked:b}");
        }
    }

    /// A tag's list read entry by entry (a few entries) and through a view (more) gives each
    /// live entity once by sequence, and leaves the dead entries out of the list.
    #[test]
    fn a_few_entries_and_many_read_alike() {
        let def = GameDef {
            archetypes: vec![ArchetypeDef {
                tags: 1,
                ..ArchetypeDef::default()
            }],
            ..GameDef::default()
        };
        for n in [1usize, super::FEW, super::FEW + 1, 3 * super::FEW] {
            let mut ecs = Ecs::default();
            let mut index = TagIndex::default();
            let ids: Vec<hecs::Entity> = (1..=n as u64)
                .map(|seq| {
                    let id = Identity {
                        seq,
                        archetype: ArchetypeId(0),
                    };
                    ecs.spawn((id, Position(Vec2::new(seq as f32, 0.0)), Tags))
                })
                .collect();
            index.watch(&ecs, &def, 1);
            // Every other entity destroyed, from the first.
            for e in ids.iter().step_by(2) {
                ecs.despawn(*e).unwrap();
            }
            let want: Vec<(u64, f32)> = (2..=n as u64).step_by(2).map(|s| (s, s as f32)).collect();
            for round in 0..2 {
                let mut got = Vec::new();
                index.each(&ecs, 1, &mut Vec::new(), |seq, e, has, p| {
                    assert_eq!((e, has), (ids[seq as usize - 1], 1));
                    got.push((seq, p.x));
                });
                assert_eq!(got, want, "{n} entries, round {round}");
                assert_eq!(
                    index.lists[0].len(),
                    want.len(),
                    "{n} entries: the dead left"
                );
            }
        }
    }
}
