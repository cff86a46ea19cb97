//! Live entities by tag: what the tick looks up when it wants the entities that carry some
//! tags (behaviour targets, the navigation goal, aims), without visiting every entity.

use crate::def::GameDef;
use crate::math::Vec2;
use crate::world::components::{Identity, Position};
use crate::world::ecs::Ecs;
use crate::world::index::SeqIndex;

/// Per watched tag bit, the sequences of the entities spawned with it, in creation order, as
/// runs of consecutive sequences ([`Runs`]: a level's build or a wave of one archetype is one
/// run, two words however many entities it holds). The list a tag's bit indexes says the
/// entity has that tag; its entity and position are found through the live entities by
/// sequence ([`SeqIndex`]) as the list is walked. Only the tags the tick looks entities up by
/// are watched (see [`TagIndex::watching`]).
///
/// Invariants: tags never change after spawn, and entities are added as they are created (by
/// increasing sequence), so each list is in sequence order. Destroyed entities leave lazily:
/// a sequence counts while [`SeqIndex`] holds it (a sequence is never taken again), and a list
/// is compacted when it covers more than twice the live entities (plus a little), so memory
/// stays linear in the live entities.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagIndex {
    lists: Vec<Runs>,
    watched: u64,
}

/// Sequences in increasing order, as runs: a run's first sequence is a word, and a run of more
/// than one is followed by a word with the top bit set holding how many more it has (so a
/// word an entity at most, and two a run).
///
/// Invariant: every sequence is below 2^63 (one is taken per spawn: a world never gets near).
#[derive(Clone, Debug, Default, PartialEq)]
struct Runs {
    words: Vec<u64>,
    /// The sequences the runs cover, live or not.
    covered: usize,
}

/// [`Runs`]: the top bit of a word that lengthens the run before it.
const MORE: u64 = 1 << 63;

impl Runs {
    /// Adds `seq`, above every sequence added so far.
    fn push(&mut self, seq: u64) {
        debug_assert!(seq < MORE, "sequences stay below 2^63");
        self.covered += 1;
        match self.words[..] {
            [.., start, more] if more & MORE != 0 && start + (more & !MORE) + 1 == seq => {
                *self.words.last_mut().expect("two words") += 1;
            }
            [.., last] if last & MORE == 0 && last + 1 == seq => self.words.push(MORE | 1),
            _ => self.words.push(seq),
        }
    }

    /// Each run as its first sequence and its length, in order.
    fn each_run(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let w = &self.words;
        (0..w.len())
            .filter(move |&k| w[k] & MORE == 0)
            .map(move |k| {
                let more = w
                    .get(k + 1)
                    .filter(|&&m| m & MORE != 0)
                    .map_or(0, |m| m & !MORE);
                (w[k], more + 1)
            })
    }

    /// Each sequence covered, in order.
    fn each_seq(&self) -> impl Iterator<Item = u64> + '_ {
        self.each_run().flat_map(|(start, n)| start..start + n)
    }

    /// Keeps only the sequences `index` holds.
    fn compact(&mut self, index: &SeqIndex) {
        let mut kept = Runs::default();
        for seq in self.each_seq().filter(|s| index.contains_key(s)) {
            kept.push(seq);
        }
        *self = kept;
    }

    /// Compacts the list if it covers more than twice `live` sequences (plus a little).
    fn bound(&mut self, index: &SeqIndex, live: usize) {
        if self.covered > live * 2 + SLACK {
            self.compact(index);
        }
    }
}

/// Sequences a list may cover beyond twice the live entities before it is compacted.
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
            self.lists.resize_with(64, Runs::default);
        }
        let mut found: Vec<(u64, u64)> = ecs
            .query::<&Identity>()
            .iter()
            .map(|id| (id.seq(), def.tags_of(id.archetype)))
            .filter(|f| f.1 & new != 0)
            .collect();
        found.sort_unstable_by_key(|f| f.0);
        while new != 0 {
            let bit = new.trailing_zeros();
            new &= new - 1;
            let list = &mut self.lists[bit as usize];
            *list = Runs::default();
            for f in found.iter().filter(|f| f.1 & (1 << bit) != 0) {
                list.push(f.0);
            }
        }
    }

    /// Records a new entity of sequence `seq`, created after every entity recorded so far;
    /// `index` holds the live entities (the compaction's measure).
    pub fn add(&mut self, index: &SeqIndex, seq: u64, tags: u64) {
        let mut bits = tags & self.watched;
        if bits == 0 {
            return;
        }
        if self.lists.len() < 64 {
            self.lists.resize_with(64, Runs::default);
        }
        while bits != 0 {
            let list = &mut self.lists[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            list.bound(index, index.len());
            list.push(seq);
        }
    }

    /// How many sequences the lists of `tags` cover, live or not, counting an entity once
    /// per tag it carries (a bound on the live entities [`each`](Self::each) would visit).
    pub fn covered(&self, tags: u64) -> usize {
        let mut bits = tags & self.watched;
        let mut n = 0;
        while bits != 0 {
            n += self
                .lists
                .get(bits.trailing_zeros() as usize)
                .map_or(0, |l| l.covered);
            bits &= bits - 1;
        }
        n
    }

    /// Calls `f(seq, entity, has, position)` for each live entity carrying any of `tags`,
    /// once each, in creation order, where `has` is which of `tags` it carries (a read of which
    /// entities exist); compacts a list that covers many dead entities. `scratch` holds the
    /// merge of several tags' lists.
    pub fn each(
        &mut self,
        ecs: &Ecs,
        index: &SeqIndex,
        tags: u64,
        scratch: &mut Vec<Tagged>,
        mut f: impl FnMut(u64, hecs::Entity, u64, Vec2),
    ) {
        debug_assert!(tags & !self.watched == 0, "only watched tags are indexed");
        // Which entities exist, by tag; compacting a list changes nothing a reader sees.
        crate::resource::touch(crate::resource::Resource::EntitySet, false);
        if tags == 0 || self.lists.is_empty() {
            return;
        }
        if tags.count_ones() == 1 {
            let list = &mut self.lists[tags.trailing_zeros() as usize];
            let each = |seq, e, p| f(seq, e, tags, p);
            if list.covered <= FEW {
                // A few entries (a player or two): each read where it is, without a view,
                // which takes the column of every archetype that has it (a search and a
                // borrow each, taken and given back: more than a few entries' own look-ups).
                walk(list, (index, ecs), |e| one(ecs, e), each);
            } else {
                let view = ecs.view::<&Position>();
                walk(list, (index, ecs), |e| view.get(e).map(|p| p.0), each);
            }
            return;
        }
        // Each entity's position, through one view (every live entity has one).
        let view = ecs.view::<&Position>();
        scratch.clear();
        let mut bits = tags;
        while bits != 0 {
            let bit = 1 << bits.trailing_zeros();
            let list = &mut self.lists[bits.trailing_zeros() as usize];
            bits &= bits - 1;
            let read = |e| view.get(e).map(|p| p.0);
            walk(list, (index, ecs), read, |seq, e, p| {
                scratch.push((seq, e, bit, p))
            });
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

/// Calls `f(seq, entity, position)` for each sequence of `list` that lives (`index` holds it
/// and `read` finds its position), in order; compacts the list if it covers more than twice
/// the live ones (plus a little).
#[inline(always)]
fn walk(
    list: &mut Runs,
    (index, ecs): (&SeqIndex, &Ecs),
    read: impl Fn(hecs::Entity) -> Option<Vec2>,
    mut f: impl FnMut(u64, hecs::Entity, Vec2),
) {
    let mut live = 0;
    for (start, n) in list.each_run() {
        for seq in start..start + n {
            let Some(e) = index.get(&seq, ecs.raw()) else {
                continue;
            };
            if let Some(p) = read(e) {
                live += 1;
                f(seq, e, p);
            }
        }
    }
    list.bound(index, live);
}

/// Entity `e`'s position, read where it is; `None` when it is dead.
fn one(ecs: &Ecs, e: hecs::Entity) -> Option<Vec2> {
    let r = ecs.entity(e).ok()?;
    Some(r.get::<&Position>()?.0)
}

/// An entry of [`TagIndex::each`]'s merge: sequence, entity, which of the asked tags it has,
/// position.
pub(crate) type Tagged = (u64, hecs::Entity, u64, Vec2);

#[cfg(test)]
mod tests {
    use super::{Runs, TagIndex};
    use crate::ArchetypeId;
    use crate::def::{ArchetypeDef, GameDef};
    use crate::math::Vec2;
    use crate::world::components::{Identity, Position, Tags};
    use crate::world::ecs::Ecs;
    use crate::world::index::SeqIndex;

    /// Entities of tags 1, 2, 1|2, 4 and 2|4 (the 1|2 one destroyed; each of an archetype of
    /// its own, whose tags are its), watching 1, 2 and 4.
    fn world() -> (Ecs, SeqIndex, TagIndex, Vec<hecs::Entity>) {
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
        let mut seqs = SeqIndex::default();
        let mut index = TagIndex::default();
        let mut ids = Vec::new();
        for (k, seq) in (1u64..=5).enumerate() {
            let id = Identity::new(seq, ArchetypeId(k as u16));
            let e = ecs.spawn((id, Position(Vec2::ZERO), Tags));
            seqs.insert(seq, e, ecs.raw());
            ids.push(e);
        }
        index.watch(&ecs, &def, 1 | 2);
        index.watch(&ecs, &def, 4);
        seqs.remove(&3, ecs.raw());
        ecs.despawn(ids[2]).unwrap();
        (ecs, seqs, index, ids)
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
        let (ecs, seqs, mut index, ids) = world();
        let mut scratch = Vec::new();
        for (asked, want) in table {
            let mut got = Vec::new();
            index.each(&ecs, &seqs, asked, &mut scratch, |seq, e, has, _| {
                assert_eq!(e, ids[seq as usize - 1]);
                got.push((seq, has));
            });
            assert_eq!(got, want, "asked {asked:b}");
        }
    }

    /// A tag's list read entry by entry (a few entries) and through a view (more) gives each
    /// live entity once by sequence, with its position.
    #[test]
    fn a_few_entries_and_many_read_alike() {
        let def = GameDef {
            archetypes: vec![ArchetypeDef {
                tags: 1,
                ..ArchetypeDef::default()
            }],
            ..GameDef::default()
        };
        for n in [1usize, super::FEW, super::FEW + 1, 3 * super::FEW, 300] {
            let mut ecs = Ecs::default();
            let mut seqs = SeqIndex::default();
            let mut index = TagIndex::default();
            let ids: Vec<hecs::Entity> = (1..=n as u64)
                .map(|seq| {
                    let id = Identity::new(seq, ArchetypeId(0));
                    let e = ecs.spawn((id, Position(Vec2::new(seq as f32, 0.0)), Tags));
                    seqs.insert(seq, e, ecs.raw());
                    e
                })
                .collect();
            index.watch(&ecs, &def, 1);
            assert_eq!(index.lists[0].words.len(), n.min(2), "one run");
            // Every other entity destroyed, from the first.
            for (k, e) in ids.iter().enumerate().step_by(2) {
                seqs.remove(&(k as u64 + 1), ecs.raw());
                ecs.despawn(*e).unwrap();
            }
            let want: Vec<(u64, f32)> = (2..=n as u64).step_by(2).map(|s| (s, s as f32)).collect();
            for round in 0..2 {
                let mut got = Vec::new();
                index.each(&ecs, &seqs, 1, &mut Vec::new(), |seq, e, has, p| {
                    assert_eq!((e, has), (ids[seq as usize - 1], 1));
                    got.push((seq, p.x));
                });
                assert_eq!(got, want, "{n} entries, round {round}");
            }
            let covered = index.lists[0].covered;
            assert!(
                covered <= want.len() * 2 + super::SLACK,
                "{n}: {covered} covered"
            );
        }
    }

    /// Runs give back the sequences pushed, in order, a word an entity at most and two words
    /// a run; compaction keeps exactly the live ones.
    #[test]
    fn runs_hold_what_was_pushed() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..200 {
            let mut runs = Runs::default();
            let mut pushed = Vec::new();
            let mut seq = rng.u64(1..5);
            for _ in 0..rng.usize(0..200) {
                seq += if rng.u32(0..4) == 0 { rng.u64(2..9) } else { 1 };
                runs.push(seq);
                pushed.push(seq);
            }
            assert_eq!(runs.each_seq().collect::<Vec<_>>(), pushed);
            assert_eq!(runs.covered, pushed.len());
            let gaps = pushed.windows(2).filter(|w| w[1] != w[0] + 1).count();
            let run_count = if pushed.is_empty() { 0 } else { gaps + 1 };
            assert!(runs.words.len() <= pushed.len().min(2 * run_count));
            // A world holding every third sequence pushed.
            let mut ecs = hecs::World::new();
            let mut index = SeqIndex::default();
            let live: Vec<u64> = pushed.iter().copied().step_by(3).collect();
            for &s in &live {
                let e = ecs.spawn(());
                index.insert(s, e, &ecs);
            }
            runs.compact(&index);
            assert_eq!(runs.each_seq().collect::<Vec<_>>(), live);
            assert_eq!(runs.covered, live.len());
        }
    }

    /// Spawning while most of a tag's entities are gone keeps the list within twice the live
    /// ones (plus a little).
    #[test]
    fn a_list_stays_linear_in_the_live_entities() {
        let mut ecs = hecs::World::new();
        let mut seqs = SeqIndex::default();
        let mut index = TagIndex {
            watched: 1,
            ..TagIndex::default()
        };
        let mut live = std::collections::VecDeque::new();
        for seq in 1..=10_000u64 {
            let e = ecs.spawn(());
            seqs.insert(seq, e, &ecs);
            index.add(&seqs, seq, 1);
            let list = &index.lists[0];
            assert!(
                list.covered <= 2 * seqs.len() + super::SLACK + 1,
                "at {seq}"
            );
            assert!(list.words.len() <= list.covered);
            live.push_back(seq);
            if live.len() > 10 {
                let gone = live.pop_front().unwrap();
                ecs.despawn(seqs.remove(&gone, &ecs).unwrap()).unwrap();
            }
        }
    }
}
