//! The speeds brains steer at: a row's own [`Speed`] where its archetype's rows hold one, else
//! its game archetype's, one number for a crowd whose rows are all of one archetype (which the
//! tick keeps from tick to tick: [`SoleCache`]).

use crate::def::{ArchetypeDef, ArchetypeId, GameDef};
use crate::world::components::{Identity, Speed};

/// Rows whose brains `Deciding::think_rows` checks for a due decision at once (and steers at
/// their speeds as a group).
pub(crate) const GROUP: usize = 8;

/// The speeds of a run of rows, row for row.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Speeds<'a> {
    /// Each row's own (the rows' hecs archetype holds a [`Speed`] column).
    Own(&'a [Speed]),
    /// Every row's: its one game archetype's (as many times as a group has rows).
    All([f32; GROUP]),
    /// Each row's game archetype's, by the row's [`Identity::archetype`] (0 for one the
    /// definition does not have).
    Each(&'a [ArchetypeDef]),
}

impl Default for Speeds<'_> {
    fn default() -> Self {
        Speeds::Own(&[])
    }
}

impl<'a> Speeds<'a> {
    /// The speeds of a hecs archetype's rows: `own`, its column, where it has one; else its
    /// game archetypes' in `def`, one where `sole` says every row is of that one.
    pub fn of(own: Option<&'a [Speed]>, sole: Option<ArchetypeId>, def: &'a GameDef) -> Self {
        match (own, sole) {
            (Some(own), _) => Speeds::Own(own),
            (None, Some(a)) => Speeds::All([def.archetype(a).map_or(0.0, |a| a.speed); GROUP]),
            (None, None) => Speeds::Each(&def.archetypes),
        }
    }

    /// Rows `start..end` (`start <= end`, within the rows).
    #[inline]
    pub fn rows(self, start: usize, end: usize) -> Self {
        match self {
            Speeds::Own(own) => Speeds::Own(&own[start..end]),
            other => other,
        }
    }

    /// Rows `..mid` and `mid..` (`mid` at most the rows).
    #[inline]
    pub fn split_at(self, mid: usize) -> (Self, Self) {
        match self {
            Speeds::Own(own) => {
                let (a, b) = own.split_at(mid);
                (Speeds::Own(a), Speeds::Own(b))
            }
            other => (other, other),
        }
    }

    /// Row `i`'s speed (`id`: its identity).
    #[inline(always)]
    pub fn at(&self, i: usize, id: &Identity) -> f32 {
        match *self {
            Speeds::Own(own) => own[i].0,
            Speeds::All(s) => s[0],
            Speeds::Each(defs) => defs.get(id.archetype.0 as usize).map_or(0.0, |a| a.speed),
        }
    }
}

/// The speeds of a run of rows a group of [`GROUP`] rows at a time (group `g` is rows
/// `g * GROUP..(g + 1) * GROUP`): a type for each kind of [`Speeds`], so that a loop over the
/// groups is made for each and reads them where they are.
pub(crate) trait GroupSpeeds {
    /// Group `g`'s speeds.
    fn group(&mut self, g: usize) -> &[f32; GROUP];
}

/// [`Speeds::Own`] by groups.
pub(crate) struct OwnGroups<'a>(pub &'a [Speed]);

impl GroupSpeeds for OwnGroups<'_> {
    #[inline(always)]
    fn group(&mut self, g: usize) -> &[f32; GROUP] {
        Speed::floats(self.0[g * GROUP..][..GROUP].try_into().expect("a group"))
    }
}

/// [`Speeds::All`] by groups: every group's the same.
impl GroupSpeeds for [f32; GROUP] {
    #[inline(always)]
    fn group(&mut self, _: usize) -> &[f32; GROUP] {
        self
    }
}

/// [`Speeds::Each`] by groups: the speeds of `ids`' archetypes, looked up into `buf`.
pub(crate) struct EachGroups<'a> {
    pub speeds: Speeds<'a>,
    pub ids: &'a [Identity],
    pub buf: [f32; GROUP],
}

impl GroupSpeeds for EachGroups<'_> {
    #[inline(always)]
    fn group(&mut self, g: usize) -> &[f32; GROUP] {
        let (speeds, ids) = (self.speeds, &self.ids[g * GROUP..][..GROUP]);
        self.buf = std::array::from_fn(|k| speeds.at(g * GROUP + k, &ids[k]));
        &self.buf
    }
}

/// Whether every row of each hecs archetype (by its place among the world's archetypes, which
/// hecs never removes) is of one game archetype, kept between ticks: game archetypes are
/// fixed at spawn, so the answer changes only when the rows do (`Ecs::rows_changed`).
#[derive(Clone, Debug, Default)]
pub(crate) struct SoleCache {
    arch: Vec<Sole>,
}

/// One hecs archetype's answer (see [`SoleCache`]).
#[derive(Clone, Copy, Debug, Default)]
struct Sole {
    /// The count of the archetype's row changes and its length the answer was taken at
    /// (`None`: never).
    at: Option<(u64, usize)>,
    archetype: Option<ArchetypeId>,
}

impl SoleCache {
    /// The one game archetype of every row of hecs archetype `index`, whose identities are
    /// `ids` as of `changes` changes of its rows, taken again if they changed since.
    pub fn get(&mut self, index: usize, changes: u64, ids: &[Identity]) -> Option<ArchetypeId> {
        if self.arch.len() <= index {
            self.arch.resize(index + 1, Sole::default());
        }
        let sole = &mut self.arch[index];
        let now = Some((changes, ids.len()));
        if sole.at != now {
            *sole = Sole {
                at: now,
                archetype: Identity::sole(ids),
            };
        }
        sole.archetype
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::ArchetypeDef;

    fn def() -> GameDef {
        let kind = |name: &str, speed| ArchetypeDef {
            name: name.into(),
            speed,
            ..ArchetypeDef::default()
        };
        GameDef {
            archetypes: vec![kind("slow", 10.0), kind("fast", 30.0)],
            ..GameDef::default()
        }
    }

    #[test]
    fn a_row_moves_at_its_own_speed_else_its_archetypes() {
        let def = def();
        let ids: [Identity; GROUP] = std::array::from_fn(|k| {
            // Archetypes 0, 1, 0, 5 (one the definition does not have), 0, 1, 0, 5.
            Identity::new(k as u64 + 1, ArchetypeId([0, 1, 0, 5][k % 4]))
        });
        let own: [Speed; GROUP] = std::array::from_fn(|k| Speed(k as f32));
        // (speeds, each row's)
        let cases: [(Speeds<'_>, [f32; GROUP]); 3] = [
            (
                Speeds::of(Some(&own), None, &def),
                std::array::from_fn(|k| k as f32),
            ),
            (Speeds::of(None, Some(ArchetypeId(1)), &def), [30.0; GROUP]),
            (
                Speeds::of(None, None, &def),
                [10.0, 30.0, 10.0, 0.0, 10.0, 30.0, 10.0, 0.0],
            ),
        ];
        for (speeds, want) in cases {
            let each: Vec<f32> = (0..GROUP).map(|i| speeds.at(i, &ids[i])).collect();
            assert_eq!(each, want, "{speeds:?}");
            let (a, b) = speeds.split_at(1);
            assert_eq!(
                (a.at(0, &ids[0]), b.rows(1, 3).at(1, &ids[3])),
                (want[0], want[3]),
                "{speeds:?}"
            );
        }
    }

    #[test]
    fn the_sole_archetype_is_taken_again_only_when_rows_change() {
        let of = |a: &[u16]| -> Vec<Identity> {
            a.iter()
                .enumerate()
                .map(|(i, &a)| Identity::new(i as u64 + 1, ArchetypeId(a)))
                .collect()
        };
        let mut cache = SoleCache::default();
        assert_eq!(cache.get(2, 0, &of(&[1, 1, 1])), Some(ArchetypeId(1)));
        // The same count and length: the answer kept (these rows are not asked about).
        assert_eq!(cache.get(2, 0, &of(&[0, 1, 1])), Some(ArchetypeId(1)));
        assert_eq!(cache.get(2, 1, &of(&[0, 1, 1])), None);
        assert_eq!(cache.get(2, 2, &of(&[])), None);
        assert_eq!(cache.get(0, 0, &of(&[3])), Some(ArchetypeId(3)));
    }
}
