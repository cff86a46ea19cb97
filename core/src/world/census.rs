//! How many live entities each of the game's archetypes has: what `ludus.count` answers from,
//! and what the first spatial read of a tick is charged (one unit an entity). Counted per
//! hecs archetype from its identities and kept while that archetype's rows stay as they were
//! ([`Ecs::rows_changed`]), so a count in a tick whose archetypes kept their rows costs the
//! archetypes, not the entities; an archetype whose rows changed is counted again.

use crate::def::{ArchetypeId, GameDef};
use crate::world::components::{Identity, Position};
use crate::world::ecs::Ecs;

/// See the module documentation.
///
/// Invariants: `kept[i]`, where `Some`, holds the entities of hecs archetype `i` of world
/// `instance` by game archetype, as its rows stood when they had changed `changes` times; after
/// [`take`](Census::take), `live[a]` is game archetype `a`'s live entities with an identity and
/// a position, and `total` their sum over every archetype.
#[derive(Clone, Debug, Default)]
pub(crate) struct Census {
    instance: Option<u64>,
    kept: Vec<Option<Kept>>,
    live: Vec<u32>,
    total: u64,
}

/// One hecs archetype's entities by game archetype, as its rows stood at `changes`.
#[derive(Clone, Debug)]
struct Kept {
    changes: u64,
    /// (game archetype, entities), in the order first met in the rows.
    by_kind: Vec<(ArchetypeId, u32)>,
}

impl Census {
    /// Counts `ecs` (of world `instance`) as it stands: again only where rows changed.
    pub(crate) fn take(&mut self, ecs: &Ecs, instance: u64) {
        if self.instance != Some(instance) {
            self.kept.clear();
            self.instance = Some(instance);
        }
        self.live.clear();
        self.total = 0;
        for (i, a) in ecs.archetypes_placed().enumerate() {
            if a.is_empty() || !a.has::<Position>() {
                continue;
            }
            let Some(ids) = a.read::<Identity>() else {
                continue;
            };
            if self.kept.len() <= i {
                self.kept.resize(i + 1, None);
            }
            let changes = ecs.rows_changed(i);
            let kept = &mut self.kept[i];
            if kept.as_ref().is_none_or(|k| k.changes != changes) {
                let mut by_kind = kept.take().map(|k| k.by_kind).unwrap_or_default();
                by_kind.clear();
                count_kinds(&ids, &mut by_kind);
                *kept = Some(Kept { changes, by_kind });
            }
            for &(kind, n) in kept.as_ref().map_or(&[][..], |k| &k.by_kind) {
                let at = kind.0 as usize;
                if self.live.len() <= at {
                    self.live.resize(at + 1, 0);
                }
                self.live[at] += n;
                self.total += u64::from(n);
            }
        }
    }

    /// The live entities counted by the last [`take`](Census::take).
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Of those, the ones whose archetype's tags include all of `tags`.
    pub(crate) fn tagged(&self, def: &GameDef, tags: u64) -> u64 {
        let carries = |a: usize| def.tags_of(ArchetypeId(a as u16)) & tags == tags;
        (self.live.iter().enumerate())
            .filter(|&(a, _)| carries(a))
            .map(|(_, &n)| u64::from(n))
            .sum()
    }

    /// Adds to `out` the sequences of [`tagged`](Census::tagged)'s entities, in `ecs` as it
    /// stood at the last [`take`](Census::take), visiting only the rows of the archetypes that
    /// hold some of them (in no particular order).
    pub(crate) fn list(&self, ecs: &Ecs, def: &GameDef, tags: u64, out: &mut Vec<u64>) {
        let carries = |a: ArchetypeId| def.tags_of(a) & tags == tags;
        for (a, kept) in ecs.archetypes_placed().zip(&self.kept) {
            let Some(kept) = kept.as_ref().filter(|_| !a.is_empty()) else {
                continue;
            };
            let wanted = kept.by_kind.iter().filter(|(k, _)| carries(*k)).count();
            if wanted == 0 {
                continue;
            }
            let Some(ids) = a.read::<Identity>() else {
                continue;
            };
            // An archetype whose every kind carries the tags is taken whole.
            let every = wanted == kept.by_kind.len();
            let rows = ids.iter().filter(|i| every || carries(i.archetype));
            out.extend(rows.map(Identity::seq));
        }
    }
}

/// Adds the identities' entities to `by_kind`, by game archetype (a run of one archetype, as
/// a spawn lays them out, costs a comparison an entity).
fn count_kinds(ids: &[Identity], by_kind: &mut Vec<(ArchetypeId, u32)>) {
    let mut rest = ids;
    while let Some(first) = rest.first() {
        let kind = first.archetype;
        let run = rest.iter().take_while(|i| i.archetype == kind).count();
        match by_kind.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += run as u32,
            None => by_kind.push((kind, run as u32)),
        }
        rest = &rest[run..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn id(seq: u64, kind: u16) -> Identity {
        Identity::new(seq, ArchetypeId(kind))
    }

    /// The counts follow spawns and despawns in every archetype, kept or counted again, across
    /// a world's rows changing and a new world in the same census.
    #[test]
    fn the_census_counts_what_lives_as_its_rows_change() {
        let mut ecs = Ecs::default();
        let mut census = Census::default();
        let p = Position(Vec2::ZERO);
        let a = ecs.spawn((id(1, 0), p));
        ecs.spawn((id(2, 1), p));
        ecs.spawn((id(3, 0), p, crate::world::components::Velocity(Vec2::ZERO)));
        // No position: not counted, as the spatial reads leave it out.
        ecs.spawn((id(4, 0),));
        census.take(&ecs, 7);
        assert_eq!((census.total(), &census.live[..]), (3, &[2, 1][..]));
        census.take(&ecs, 7);
        assert_eq!((census.total(), &census.live[..]), (3, &[2, 1][..]));
        ecs.despawn(a).unwrap();
        ecs.spawn((id(5, 2), p));
        census.take(&ecs, 7);
        assert_eq!((census.total(), &census.live[..]), (3, &[1, 1, 1][..]));
        // Another world whose rows changed as often: counted afresh, not taken as kept.
        let mut other = Ecs::default();
        let b = other.spawn((id(1, 1), p));
        other.spawn((id(2, 1), p));
        other.despawn(b).unwrap();
        other.spawn((id(3, 1), p));
        other.spawn((id(6, 1), p, crate::world::components::Velocity(Vec2::ZERO)));
        other.spawn((id(7, 1), p));
        census.take(&other, 8);
        assert_eq!((census.total(), &census.live[..]), (4, &[0, 4][..]));
    }

    #[test]
    fn runs_of_kinds_are_counted_by_kind() {
        /// The identities' kinds, and (kind, entities) in the order first met.
        type Case = (&'static [u16], &'static [(u16, u32)]);
        let cases: &[Case] = &[
            (&[], &[]),
            (&[3], &[(3, 1)]),
            (&[0, 0, 0], &[(0, 3)]),
            (&[1, 1, 2, 1, 2, 2, 0], &[(1, 3), (2, 3), (0, 1)]),
        ];
        for &(kinds, want) in cases {
            let ids: Vec<Identity> = (kinds.iter().enumerate())
                .map(|(s, &k)| id(s as u64 + 1, k))
                .collect();
            let mut by_kind = vec![(ArchetypeId(9), 9)];
            by_kind.clear();
            count_kinds(&ids, &mut by_kind);
            let want: Vec<(ArchetypeId, u32)> =
                want.iter().map(|&(k, n)| (ArchetypeId(k), n)).collect();
            assert_eq!(by_kind, want, "{kinds:?}");
        }
    }
}
