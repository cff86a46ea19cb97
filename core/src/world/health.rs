//! Every live entity's maximum health, kept by the world beside its [`Health`] column.

use crate::def::GameDef;
use crate::ids::SeqMap;
use crate::world::components::Identity;

#[cfg(doc)]
use crate::world::components::Health;

/// The maximum health of each live entity with [`Health`]: its archetype's `health.max`, but
/// for an entity spawned with more health than that, whose maximum is its health at the spawn
/// (`raised`). Nothing changes a maximum after the spawn, so an entity's maximum is a function
/// of its sequence and archetype. Invariants: `by_archetype[a]` is archetype `a`'s maximum
/// (0 without health); `raised` holds only live entities, each with a maximum above its
/// archetype's.
#[derive(Clone, Debug, Default)]
pub struct MaxHealth {
    by_archetype: Vec<i32>,
    raised: SeqMap<i32>,
}

impl MaxHealth {
    /// No entity yet, in a world of `def`'s archetypes.
    pub fn new(def: &GameDef) -> MaxHealth {
        MaxHealth {
            by_archetype: def
                .archetypes
                .iter()
                .map(|a| a.health.map_or(0, |h| h.max))
                .collect(),
            raised: SeqMap::default(),
        }
    }

    /// Archetypes' maxima alone, by archetype id (for tests of what reads them).
    #[cfg(test)]
    pub fn of_archetypes(by_archetype: Vec<i32>) -> MaxHealth {
        MaxHealth {
            by_archetype,
            raised: SeqMap::default(),
        }
    }

    /// Entities whose maximum is their own.
    #[cfg(test)]
    pub fn raised_count(&self) -> usize {
        self.raised.len()
    }

    /// Archetype `archetype`'s maximum.
    #[inline(always)]
    pub fn of_archetype(&self, archetype: crate::def::ArchetypeId) -> i32 {
        self.by_archetype
            .get(archetype.0 as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The maximum of the live entity `id`.
    #[inline(always)]
    pub fn of(&self, id: &Identity) -> i32 {
        if !self.raised.is_empty()
            && let Some(&max) = self.raised.get(&id.seq())
        {
            return max;
        }
        self.of_archetype(id.archetype)
    }

    /// Entity `seq` spawned with health `max`, more than its archetype's maximum: its own.
    pub fn raised(&mut self, seq: u64, max: i32) {
        self.raised.insert(seq, max);
    }

    /// Entity `seq` is gone.
    #[inline]
    pub fn despawned(&mut self, seq: u64) {
        if !self.raised.is_empty() {
            self.raised.remove(&seq);
        }
    }
}
