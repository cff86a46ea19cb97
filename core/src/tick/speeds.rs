//! The speeds brains steer at: a row's own [`Speed`] where its archetype's rows hold one, else
//! its game archetype's, read from the runs of rows of one speed (which the tick keeps from
//! tick to tick: [`RunCache`]): one number for a crowd of one archetype.

use crate::def::{ArchetypeId, GameDef};
use crate::world::components::{Identity, Speed};

/// Rows whose brains `Deciding::think_rows` checks for a due decision at once (and steers at
/// their speeds as a group).
pub(crate) const GROUP: usize = 8;

/// Consecutive rows of one speed in a hecs archetype without a [`Speed`] column (rows of game
/// archetypes of one speed): the first of them, and the speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Run {
    pub start: u32,
    pub speed: f32,
}

/// The speeds of a run of rows, row for row.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Speeds<'a> {
    /// Each row's own (the rows' hecs archetype holds a [`Speed`] column).
    Own(&'a [Speed]),
    /// Each row's game archetype's: `runs` cover the hecs archetype's rows in order (the first
    /// from row 0; one at least where there are rows), and these rows start at its row
    /// `from`.
    Runs { runs: &'a [Run], from: usize },
}

impl Default for Speeds<'_> {
    fn default() -> Self {
        Speeds::Own(&[])
    }
}

impl<'a> Speeds<'a> {
    /// Rows `start..end` (`start <= end`, within the rows).
    #[inline]
    pub fn rows(self, start: usize, end: usize) -> Self {
        match self {
            Speeds::Own(own) => Speeds::Own(&own[start..end]),
            Speeds::Runs { runs, from } => Speeds::Runs {
                runs,
                from: from + start,
            },
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
            Speeds::Runs { runs, from } => (
                self,
                Speeds::Runs {
                    runs,
                    from: from + mid,
                },
            ),
        }
    }

    /// The rows' speeds in order, from the first (as many as there are rows of a
    /// [`Speeds::Own`], without end for [`Speeds::Runs`]).
    #[inline]
    pub fn each(self) -> Each<'a> {
        match self {
            Speeds::Own(own) => Each::Own(own.iter()),
            Speeds::Runs { runs, from } => Each::Runs(Cursor::new(runs, from)),
        }
    }

    /// The one speed of the first `n` rows, if they have one (a run of rows of one speed
    /// holds them).
    #[inline]
    pub fn one(self, n: usize) -> Option<f32> {
        match self {
            Speeds::Own(_) => None,
            Speeds::Runs { runs, from } => {
                let c = Cursor::new(runs, from);
                (from + n <= c.next).then_some(c.speed)
            }
        }
    }

    /// The speeds of the rows into `out`, one a row from the first.
    #[inline]
    pub fn fill(self, out: &mut [f32]) {
        out.iter_mut().zip(self.each()).for_each(|(o, s)| *o = s);
    }
}

/// The speeds of [`Speeds::each`].
pub(crate) enum Each<'a> {
    Own(std::slice::Iter<'a, Speed>),
    Runs(Cursor<'a>),
}

impl Iterator for Each<'_> {
    type Item = f32;

    #[inline]
    fn next(&mut self) -> Option<f32> {
        match self {
            Each::Own(own) => own.next().map(|s| s.0),
            Each::Runs(c) => {
                let s = c.at(c.row);
                c.row += 1;
                Some(s)
            }
        }
    }
}

/// A place among runs, which moves only forward: the speeds of rows asked for in order.
pub(crate) struct Cursor<'a> {
    runs: &'a [Run],
    /// The run of the last row asked for, its speed, and where the run after it starts
    /// (`usize::MAX` past the last).
    run: usize,
    speed: f32,
    next: usize,
    /// The next row [`Each`] gives.
    row: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at row `row` (found by halving, however many runs there are).
    fn new(runs: &'a [Run], row: usize) -> Self {
        let run = runs
            .partition_point(|r| r.start as usize <= row)
            .saturating_sub(1);
        Cursor {
            runs,
            run,
            speed: runs.get(run).map_or(0.0, |r| r.speed),
            next: runs.get(run + 1).map_or(usize::MAX, |r| r.start as usize),
            row,
        }
    }

    /// Row `row`'s speed (`row` at least the last asked for).
    #[inline(always)]
    fn at(&mut self, row: usize) -> f32 {
        while row >= self.next {
            self.run += 1;
            self.speed = self.runs[self.run].speed;
            self.next = self
                .runs
                .get(self.run + 1)
                .map_or(usize::MAX, |r| r.start as usize);
        }
        self.speed
    }
}

/// The speeds of a run of rows a group of [`GROUP`] rows at a time (group `g` is rows
/// `g * GROUP..(g + 1) * GROUP`, asked for in order): a type for each kind of [`Speeds`], so
/// that a loop over the groups is made for each and reads them where they are.
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

/// Rows of one speed by groups: every group's the same.
impl GroupSpeeds for [f32; GROUP] {
    #[inline(always)]
    fn group(&mut self, _: usize) -> &[f32; GROUP] {
        self
    }
}

/// [`Speeds::Runs`] of several runs by groups: one speed for a group within a run, else each
/// row's, into `buf`.
pub(crate) struct RunGroups<'a> {
    cursor: Cursor<'a>,
    buf: [f32; GROUP],
}

impl<'a> RunGroups<'a> {
    /// The groups of rows from row `from` of `runs`.
    pub fn new(runs: &'a [Run], from: usize) -> Self {
        RunGroups {
            cursor: Cursor::new(runs, from),
            buf: [0.0; GROUP],
        }
    }
}

impl GroupSpeeds for RunGroups<'_> {
    #[inline(always)]
    fn group(&mut self, g: usize) -> &[f32; GROUP] {
        let c = &mut self.cursor;
        let first = c.row + g * GROUP;
        let speed = c.at(first);
        self.buf = if first + GROUP <= c.next {
            [speed; GROUP]
        } else {
            std::array::from_fn(|k| c.at(first + k))
        };
        &self.buf
    }
}

/// The runs of rows of one speed ([`Run`]) of each hecs archetype without a [`Speed`] column
/// (by its place among the world's archetypes, which hecs never removes), kept between ticks:
/// game archetypes are fixed at spawn, so the runs change only when the rows do
/// (`Ecs::rows_changed`). A crowd of one archetype is one run.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunCache {
    arch: Vec<Runs>,
}

/// One hecs archetype's runs (see [`RunCache`]).
#[derive(Clone, Debug, Default)]
struct Runs {
    /// The count of the archetype's row changes and its length the runs were taken at
    /// (`None`: never).
    at: Option<(u64, usize)>,
    runs: Vec<Run>,
}

impl RunCache {
    /// The speeds of hecs archetype `index`'s rows: `own`, its column, where it has one; else
    /// its runs (see [`get`](Self::get)).
    pub fn speeds<'a>(
        &'a mut self,
        own: Option<&'a [Speed]>,
        index: usize,
        changes: u64,
        ids: &[Identity],
        def: &GameDef,
    ) -> Speeds<'a> {
        match own {
            Some(own) => Speeds::Own(own),
            None => Speeds::Runs {
                runs: self.get(index, changes, ids, def),
                from: 0,
            },
        }
    }

    /// The runs of hecs archetype `index`, whose identities are `ids` as of `changes` changes
    /// of its rows (their archetypes' speeds `def`'s), taken again if they changed since.
    pub fn get(&mut self, index: usize, changes: u64, ids: &[Identity], def: &GameDef) -> &[Run] {
        if self.arch.len() <= index {
            self.arch.resize_with(index + 1, Runs::default);
        }
        let r = &mut self.arch[index];
        let now = Some((changes, ids.len()));
        if r.at != now {
            r.at = now;
            r.runs.clear();
            let speed = |a: ArchetypeId| Speed::of(None, a, def);
            match Identity::sole(ids) {
                Some(a) => r.runs.push(Run {
                    start: 0,
                    speed: speed(a),
                }),
                None => {
                    let mut last: Option<(ArchetypeId, f32)> = None;
                    for (i, id) in ids.iter().enumerate() {
                        if last.is_some_and(|(a, _)| a == id.archetype) {
                            continue;
                        }
                        let s = speed(id.archetype);
                        if last.is_none_or(|(_, l)| l.to_bits() != s.to_bits()) {
                            r.runs.push(Run {
                                start: i as u32,
                                speed: s,
                            });
                        }
                        last = Some((id.archetype, s));
                    }
                }
            }
        }
        &r.runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::ArchetypeDef;

    /// Archetypes 0 (speed 10), 1 (30), 2 (10 again).
    fn def() -> GameDef {
        let kind = |name: &str, speed| ArchetypeDef {
            name: name.into(),
            speed,
            ..ArchetypeDef::default()
        };
        GameDef {
            archetypes: vec![kind("slow", 10.0), kind("fast", 30.0), kind("also", 10.0)],
            ..GameDef::default()
        }
    }

    fn ids(archetypes: &[u16]) -> Vec<Identity> {
        let each = archetypes.iter().enumerate();
        each.map(|(i, &a)| Identity::new(i as u64 + 1, ArchetypeId(a)))
            .collect()
    }

    #[test]
    fn runs_are_rows_of_one_speed_taken_again_only_when_rows_change() {
        let def = def();
        let run = |start, speed| Run { start, speed };
        let mut cache = RunCache::default();
        // (archetype's place, count of its row changes, its rows' archetypes, runs)
        let cases: &[(usize, u64, &[u16], Vec<Run>)] = &[
            (2, 0, &[1, 1, 1], vec![run(0, 30.0)]),
            // The same count and length: the runs kept (these rows are not asked about).
            (2, 0, &[0, 1, 1], vec![run(0, 30.0)]),
            (2, 1, &[0, 1, 1], vec![run(0, 10.0), run(1, 30.0)]),
            // Archetypes of one speed are one run; one the definition lacks moves at 0.
            (
                2,
                2,
                &[0, 2, 0, 1, 9, 9],
                vec![run(0, 10.0), run(3, 30.0), run(4, 0.0)],
            ),
            (2, 3, &[], vec![]),
            (0, 0, &[2], vec![run(0, 10.0)]),
        ];
        for (index, changes, rows, want) in cases {
            let got = cache.get(*index, *changes, &ids(rows), &def);
            assert_eq!(got, &want[..], "archetype {index} at {changes}: {rows:?}");
        }
    }

    #[test]
    fn a_row_moves_at_its_own_speed_else_at_its_runs() {
        let runs = [
            Run {
                start: 0,
                speed: 1.0,
            },
            Run {
                start: 3,
                speed: 2.0,
            },
            Run {
                start: 12,
                speed: 3.0,
            },
        ];
        let own: Vec<Speed> = (0..24).map(|k| Speed(k as f32)).collect();
        let by_runs: Vec<f32> = (0..24)
            .map(|r| [1.0, 2.0, 3.0][usize::from(r >= 3) + usize::from(r >= 12)])
            .collect();
        let whole: [(Speeds<'_>, Vec<f32>); 3] = [
            (Speeds::Own(&own), (0..24).map(|k| k as f32).collect()),
            (
                Speeds::Runs {
                    runs: &runs,
                    from: 0,
                },
                by_runs,
            ),
            (
                Speeds::Runs {
                    runs: &runs[..1],
                    from: 0,
                },
                vec![1.0; 24],
            ),
        ];
        for (speeds, want) in whole {
            let each: Vec<f32> = speeds.each().take(24).collect();
            assert_eq!(each, want, "{speeds:?}");
            let mut filled = [f32::NAN; 24];
            speeds.fill(&mut filled);
            assert_eq!(filled[..], want[..], "{speeds:?}");
            // Rows from 5, by rows and by a split, and by groups of eight.
            let (_, from5) = speeds.split_at(5);
            let rows: Vec<f32> = speeds.rows(5, 24).each().take(19).collect();
            assert_eq!(rows, want[5..], "{speeds:?}");
            assert_eq!(from5.each().take(19).collect::<Vec<_>>(), want[5..]);
            let groups: Vec<f32> = match speeds.rows(5, 21) {
                Speeds::Own(own) => {
                    let mut g = OwnGroups(own);
                    (0..2).flat_map(|k| *g.group(k)).collect()
                }
                Speeds::Runs { runs, from } => {
                    let mut g = RunGroups::new(runs, from);
                    (0..2).flat_map(|k| *g.group(k)).collect()
                }
            };
            assert_eq!(groups, want[5..21], "{speeds:?}");
            // One speed where the rows lie within one run.
            let one = |from: usize, n: usize| {
                let w = &want[from..from + n];
                matches!(speeds, Speeds::Runs { .. })
                    .then_some(w[0])
                    .filter(|s| w.iter().all(|x| x == s))
            };
            for (from, n) in [(0, 3), (0, 4), (3, 9), (4, 9), (12, 12), (11, 2)] {
                assert_eq!(
                    speeds.rows(from, from + n).one(n),
                    one(from, n),
                    "{speeds:?}"
                );
            }
        }
    }
}
