//! Where entities are, for scripts' spatial reads (`ludus.nearest`, `ludus.within`); its
//! [`Entry`] is also how the parents that spawns of an attaching archetype look for are held
//! (`world::nearest`, a tree: the search of a level's many attachments is not charged to any
//! budget, so it must not depend on how the entities crowd together).
//!
//! A uniform grid over every entity with a position, built at most once per tick, the first
//! time a script asks where entities are (positions do not change during the gameplay stages;
//! BeginTick marks the grid stale). It also keeps the tick's answers to `ludus.find` and
//! `ludus.count`, per tag set asked: those come from the live entities by archetype
//! (`world::census`), with no grid, visiting only the rows of archetypes that carry the tags (a
//! `count` none at all). A query of the grid visits only the cells a circle overlaps
//! (`within`), or rings of cells outward from a point until no closer entity can remain
//! (`nearest`); it never scans the world. Every query reports the work it did (cells visited
//! and entities examined), which the script host charges to the budget.
//!
//! What the reads are charged does not depend on which of them built what: the first read of
//! a tick is charged one unit an entity ([`charge`](SpatialIndex::charge)), as the grid's build
//! always was, and the first `find` or `count` of a tag set in a tick one an entity, then the
//! entities carrying it ([`ask`](SpatialIndex::ask)).

use crate::math::Vec2;

/// One entity as the grid holds it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub seq: u64,
    pub tags: u64,
    pub pos: Vec2,
}

/// One entity as the grid's cells hold it (16 bytes: a build places one of these an entity
/// at random in the cells' list, which costs by the bytes): its position, and its sequence
/// with the index of its tag set among the grid's `sets` in the top 16 bits.
///
/// Invariant: a sequence fits in 48 bits (as an [`Identity`](crate::Identity)'s does), and
/// a grid holds at most 2^16 tag sets (one an archetype at most).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    pos: Vec2,
    seq_set: u64,
}

impl Slot {
    const SEQ: u64 = (1 << 48) - 1;

    fn seq(self) -> u64 {
        self.seq_set & Slot::SEQ
    }

    fn set(self) -> usize {
        (self.seq_set >> 48) as usize
    }
}

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct SpatialIndex {
    /// The tick whose reads were charged for every entity (0: none yet, or stale).
    charged: u64,
    /// The tick the grid was built for (0: never, or stale).
    built: u64,
    /// Tag sets asked by `find`/`count` in the tick charged (see [`Asked`]).
    tagged: Vec<Asked>,
    /// The live entities the tick's charge counted.
    counted: u64,
    origin: Vec2,
    cell: f32,
    cols: u32,
    rows: u32,
    /// Per cell, the range of its entities in `slots` (`starts[c]..starts[c + 1]`).
    starts: Vec<u32>,
    slots: Vec<Slot>,
    /// The distinct tag sets of the entities in `slots` (each slot names its own).
    sets: Vec<u64>,
    /// Buffers kept from tick to tick (no allocation per build once they have grown): the
    /// entries as gathered and each one's cell.
    input: Vec<Entry>,
    keys: Vec<u32>,
}

/// A tag set asked by `find` or `count` in the tick charged: how many live entities carry
/// it and, once a `find` listed them, their ids in creation order.
#[derive(Clone, Debug)]
struct Asked {
    tags: u64,
    carrying: u64,
    ids: Option<Vec<u64>>,
}

/// The most cells a grid has (the rest is covered by making cells larger).
const MAX_CELLS: usize = 1 << 20;

impl SpatialIndex {
    /// Whether the reads of `tick` were charged for every entity: a read then reports the
    /// same work each time it is asked the same.
    pub(crate) fn is_charged_for(&self, tick: u64) -> bool {
        self.charged == tick && tick != 0
    }

    pub(crate) fn is_built_for(&self, tick: u64) -> bool {
        self.built == tick && tick != 0
    }

    /// Marks the grid and the charge stale (the world moved on).
    pub(crate) fn invalidate(&mut self) {
        self.charged = 0;
        self.built = 0;
    }

    /// The work the first read of `tick` is charged: one unit for each of the `live` entities
    /// with a position (counted only then); 0 for a later read.
    pub(crate) fn charge(&mut self, tick: u64, live: impl FnOnce() -> u64) -> u64 {
        if self.is_charged_for(tick) {
            return 0;
        }
        self.counted = live();
        self.charged = tick;
        self.tagged.clear();
        self.counted
    }

    /// How many of the entities of the tick charged carry tag set `tags` (`carrying` counts
    /// them the first time it is asked), and the work it is charged: every entity the first
    /// time a tag set is asked in a tick, the entities carrying it after that.
    pub(crate) fn ask(&mut self, tags: u64, carrying: impl FnOnce() -> u64) -> (u64, u64) {
        match self.tagged.iter().find(|a| a.tags == tags) {
            Some(a) => (a.carrying, a.carrying),
            None => {
                let (carrying, ids) = (carrying(), None);
                self.tagged.push(Asked {
                    tags,
                    carrying,
                    ids,
                });
                (carrying, self.counted)
            }
        }
    }

    /// The live entities the tick's charge counted.
    pub(crate) fn counted(&self) -> u64 {
        self.counted
    }

    /// The ids of the entities carrying tag set `tags`, in creation order: one [`ask`]ed in
    /// the tick charged, whose ids `list` adds (in any order) the first time.
    ///
    /// [`ask`]: Self::ask
    pub(crate) fn listed(&mut self, tags: u64, list: impl FnOnce(&mut Vec<u64>)) -> &[u64] {
        let Some(asked) = self.tagged.iter_mut().find(|a| a.tags == tags) else {
            debug_assert!(false, "a tag set is asked before it is listed");
            return &[];
        };
        asked.ids.get_or_insert_with(|| {
            let mut ids = Vec::with_capacity(asked.carrying as usize);
            list(&mut ids);
            // Sequences are unique: any sort gives the same order.
            ids.sort_unstable();
            debug_assert_eq!(ids.len() as u64, asked.carrying);
            ids
        })
    }

    /// Rebuilds the grid over `entries` (any order) for `tick`; returns how many there are.
    #[cfg(test)]
    pub(crate) fn build(&mut self, tick: u64, entries: impl IntoIterator<Item = Entry>) -> usize {
        self.build_with(tick, |gathered| gathered.extend(entries))
    }

    /// Rebuilds the grid for `tick` over the entries `gather` adds to an empty list (in any
    /// order); returns how many there are.
    pub(crate) fn build_with(&mut self, tick: u64, gather: impl FnOnce(&mut Vec<Entry>)) -> usize {
        let mut gathered = std::mem::take(&mut self.input);
        gathered.clear();
        gather(&mut gathered);
        self.fill_grid(tick, &gathered);
        let n = gathered.len();
        self.input = gathered;
        n
    }

    /// [`build_with`](Self::build_with) over the gathered `entries`.
    fn fill_grid(&mut self, tick: u64, entries: &[Entry]) {
        self.built = tick;
        self.starts.clear();
        self.sets.clear();
        let Some(&first) = entries.first() else {
            self.slots.clear();
            self.starts.extend([0, 0]);
            self.cols = 1;
            self.rows = 1;
            self.cell = 1.0;
            return;
        };
        let (mut min, mut max) = (first.pos, first.pos);
        for e in entries {
            min = Vec2::new(min.x.min(e.pos.x), min.y.min(e.pos.y));
            max = Vec2::new(max.x.max(e.pos.x), max.y.max(e.pos.y));
        }
        let span = Vec2::new((max.x - min.x).max(1.0), (max.y - min.y).max(1.0));
        // About one entity per cell on average, within MAX_CELLS.
        let cells = entries.len().clamp(1, MAX_CELLS) as f32;
        let cell = (span.x * span.y / cells).sqrt().max(1.0);
        let cols = ((span.x / cell).floor() as u32 + 1).min(4096);
        let rows = ((span.y / cell).floor() as u32 + 1).min(4096);
        let cell = cell.max(span.x / cols as f32).max(span.y / rows as f32);
        self.origin = min;
        self.cell = cell;
        self.cols = cols;
        self.rows = rows;
        let key = |p: Vec2| -> u32 {
            let c = (((p.x - min.x) / cell) as u32).min(cols - 1);
            let r = (((p.y - min.y) / cell) as u32).min(rows - 1);
            r * cols + c
        };
        // Counting sort by cell, stable: entries keep their gathered order inside a cell. Each
        // cell's count, then where it ends; the entries placed last first, each cell's end
        // moving back to where it starts.
        let n = (cols * rows) as usize;
        let (starts, keys) = (&mut self.starts, &mut self.keys);
        starts.resize(n + 1, 0);
        keys.clear();
        keys.extend(entries.iter().map(|e| {
            let k = key(e.pos);
            starts[k as usize] += 1;
            k
        }));
        let mut end = 0;
        for s in &mut starts[..n] {
            end += *s;
            *s = end;
        }
        starts[n] = end;
        // Every slot is written below (the keys place each entry once): only a longer list
        // needs filling first.
        self.slots.resize(entries.len(), Slot::default());
        let (sets, mut last) = (&mut self.sets, (first.tags, 0u64));
        sets.push(first.tags);
        for (e, &k) in entries.iter().zip(keys.iter()).rev() {
            // An archetype's entities come one after another: their set is the last one's.
            if e.tags != last.0 {
                let set = match sets.iter().position(|&t| t == e.tags) {
                    Some(i) => i,
                    None => {
                        sets.push(e.tags);
                        sets.len() - 1
                    }
                };
                last = (e.tags, set as u64);
            }
            debug_assert!(e.seq <= Slot::SEQ && last.1 < 1 << 16);
            let at = &mut starts[k as usize];
            *at -= 1;
            self.slots[*at as usize] = Slot {
                pos: e.pos,
                seq_set: e.seq | last.1 << 48,
            };
        }
    }

    fn cell_of(&self, p: Vec2) -> (i64, i64) {
        (
            ((p.x - self.origin.x) / self.cell).floor() as i64,
            ((p.y - self.origin.y) / self.cell).floor() as i64,
        )
    }

    /// The entries of the cells of row `r` from column `c0` to `c1`, clipped to the grid: one
    /// run, cell after cell, each cell's entries in creation order; and how many cells.
    fn row(&self, r: i64, c0: i64, c1: i64) -> (&[Slot], u64) {
        let (c0, c1) = (c0.max(0), c1.min(i64::from(self.cols) - 1));
        if r < 0 || r >= i64::from(self.rows) || c0 > c1 {
            return (&[], 0);
        }
        let base = r as usize * self.cols as usize;
        let (from, to) = (base + c0 as usize, base + c1 as usize + 1);
        let run = &self.slots[self.starts[from] as usize..self.starts[to] as usize];
        (run, (c1 - c0 + 1) as u64)
    }

    /// Entities within `radius` of `at` whose tags include `tags` and that `keep` accepts, by
    /// distance then id, with the work done.
    pub(crate) fn within(
        &self,
        at: Vec2,
        radius: f32,
        tags: u64,
        keep: impl Fn(u64) -> bool,
    ) -> (Vec<u64>, u64) {
        let mut found: Vec<(f32, u64)> = Vec::new();
        let mut work = 0u64;
        let (c0, r0) = self.cell_of(at - Vec2::new(radius, radius));
        let (c1, r1) = self.cell_of(at + Vec2::new(radius, radius));
        let (c0, r0) = (c0.max(0), r0.max(0));
        let (c1, r1) = (
            c1.min(i64::from(self.cols) - 1),
            r1.min(i64::from(self.rows) - 1),
        );
        let r2 = radius * radius;
        for r in r0..=r1 {
            let (run, cells) = self.row(r, c0, c1);
            work += cells + run.len() as u64;
            for e in run {
                let d2 = (e.pos - at).length_squared();
                if d2 <= r2 && self.sets[e.set()] & tags == tags && keep(e.seq()) {
                    found.push((d2, e.seq()));
                }
            }
        }
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        work += found.len() as u64;
        (found.into_iter().map(|(_, s)| s).collect(), work)
    }

    /// The entity nearest `at` (within `radius`, if given) whose tags include `tags` and that
    /// `keep` accepts; ties go to the lower id. With the work done.
    pub(crate) fn nearest(
        &self,
        at: Vec2,
        radius: Option<f32>,
        tags: u64,
        keep: impl Fn(u64) -> bool,
    ) -> (Option<u64>, u64) {
        let mut best: Option<(f32, u64)> = None;
        let mut work = 0u64;
        let (cc, cr) = self.cell_of(at);
        let limit2 = radius.map(|r| r * r);
        let (cols, rows) = (i64::from(self.cols), i64::from(self.rows));
        let outside = |v: i64, n: i64| {
            if v < 0 {
                -v
            } else if v >= n {
                v - n + 1
            } else {
                0
            }
        };
        // Rings of cells outward, clipped to the grid; a ring at Chebyshev distance k holds
        // nothing nearer than k - 1 cells, so the search stops once that exceeds the best
        // distance found (or the radius).
        let first = outside(cc, cols).max(outside(cr, rows));
        let last = cc.max(cols - 1 - cc).max(cr).max(rows - 1 - cr);
        for k in first..=last {
            let inner = (k - 1).max(0) as f32 * self.cell;
            if best.is_some_and(|(d2, _)| inner * inner > d2)
                || limit2.is_some_and(|l2| inner * inner > l2)
            {
                break;
            }
            for r in (cr - k).max(0)..=(cr + k).min(rows - 1) {
                // Cells in their order: a whole row of the ring is one run of entries.
                let mut visit = |(run, cells): (&[Slot], u64)| {
                    work += cells + run.len() as u64;
                    for e in run {
                        let d2 = (e.pos - at).length_squared();
                        if limit2.is_some_and(|l2| d2 > l2) || self.sets[e.set()] & tags != tags {
                            continue;
                        }
                        let better = match best {
                            None => true,
                            Some((bd, bs)) => d2 < bd || (d2 == bd && e.seq() < bs),
                        };
                        if better && keep(e.seq()) {
                            best = Some((d2, e.seq()));
                        }
                    }
                };
                if r == cr - k || r == cr + k {
                    visit(self.row(r, cc - k, cc + k));
                } else {
                    visit(self.row(r, cc - k, cc - k));
                    visit(self.row(r, cc + k, cc + k));
                }
            }
        }
        (best.map(|(_, s)| s), work)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rebuilt tick after tick in the same buffers, from entries gathered in runs of rising
    /// sequences (as archetypes give them), the grid answers as a scan of the entries does.
    #[test]
    fn a_rebuilt_grid_answers_as_a_scan_of_its_entries() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut grid = SpatialIndex::default();
        for tick in 1..=40u64 {
            let n = [0, 1, 5, 60, 300][tick as usize % 5];
            let mut entries = Vec::new();
            let runs = 1 + rng.usize(..4);
            for r in 0..runs {
                for i in 0..n / runs {
                    entries.push(Entry {
                        seq: (i * runs + r) as u64 + 1,
                        tags: rng.u64(..4),
                        pos: Vec2::new(rng.f32() * 500.0 - 250.0, rng.f32() * 80.0),
                    });
                }
            }
            let mut scan = entries.clone();
            scan.sort_by_key(|e| e.seq);
            grid.build(tick, entries);
            assert!(grid.is_built_for(tick));
            for tags in 0..4 {
                let at = Vec2::new(rng.f32() * 600.0 - 300.0, rng.f32() * 100.0);
                let d2 = |e: &Entry| (e.pos - at).length_squared();
                let nearest = scan
                    .iter()
                    .filter(|e| e.tags & tags == tags)
                    .min_by(|a, b| d2(a).total_cmp(&d2(b)).then(a.seq.cmp(&b.seq)))
                    .map(|e| e.seq);
                assert_eq!(grid.nearest(at, None, tags, |_| true).0, nearest);
                let mut near: Vec<&Entry> = scan
                    .iter()
                    .filter(|e| e.tags & tags == tags && d2(e) <= 50.0 * 50.0)
                    .collect();
                near.sort_by(|a, b| d2(a).total_cmp(&d2(b)).then(a.seq.cmp(&b.seq)));
                let near: Vec<u64> = near.iter().map(|e| e.seq).collect();
                assert_eq!(grid.within(at, 50.0, tags, |_| true).0, near);
            }
        }
    }

    /// The work a search reports (cells and entries visited, charged to the script's budget)
    /// is part of a run's behaviour: fixed here for one grid.
    #[test]
    fn a_search_reports_the_cells_and_entries_it_visits() {
        let mut rng = fastrand::Rng::with_seed(3);
        let entries: Vec<Entry> = (1..=60)
            .map(|seq| Entry {
                seq,
                tags: rng.u64(..4),
                pos: Vec2::new(rng.f32() * 300.0, rng.f32() * 120.0),
            })
            .collect();
        let mut grid = SpatialIndex::default();
        assert_eq!(grid.build(1, entries), 60);
        let odd = |s: u64| s % 2 == 1;
        // (at, radius, tags, odd ids only) -> (nearest, work)
        let nearest = [
            ((150.0, 60.0), None, 0, false),
            ((150.0, 60.0), None, 3, false),
            ((-40.0, 200.0), None, 1, true),
            ((10.0, 10.0), Some(15.0), 2, false),
        ];
        let got: Vec<_> = nearest
            .iter()
            .map(|&((x, y), r, t, only_odd)| {
                let at = Vec2::new(x, y);
                if only_odd {
                    grid.nearest(at, r, t, odd)
                } else {
                    grid.nearest(at, r, t, |_| true)
                }
            })
            .collect();
        assert_eq!(
            got,
            [
                (Some(43), 19),
                (Some(22), 51),
                (Some(49), 12),
                (Some(28), 6)
            ]
        );
        let within: Vec<_> = [((150.0, 60.0), 40.0, 0), ((0.0, 0.0), 90.0, 1)]
            .iter()
            .map(|&((x, y), r, t)| grid.within(Vec2::new(x, y), r, t, |_| true))
            .collect();
        assert_eq!(
            within,
            [
                (vec![43, 38, 22, 51, 24, 5, 13, 10, 17, 33, 6, 15], 52),
                (vec![36, 59, 53, 58, 37], 39)
            ]
        );
    }
}
