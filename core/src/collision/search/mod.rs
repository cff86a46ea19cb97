//! The broadphase's search: the pairs of the planned colliders that touch (see
//! [`Broadphase::search`]).

use crate::collision::body::Flags;
use crate::collision::grid::{Binning, Bins, Compact, Grid, Member, NearBody};
use crate::collision::lanes::Lanes;
use crate::collision::narrow::overlap;
use crate::collision::{Broadphase, Overflow, Pair, Run};
use crate::def::Shape;
use crate::limits::push_within;
use crate::math::Vec2;
use crate::par::{self, Apart};

mod noted;
mod rest;

/// Colliders from which a bucket scan whose runs differ fills [`Bins::kinds`] and passes
/// over the buckets where they say no pair can be: the bundled games' scans of a few dozen
/// bodies, that mostly look for each other, took 0.1% to 1.7% more instructions with them
/// (the fill and the test of each bucket); a bullet hell whose 700 bullets each looked for
/// the ship (a dense scan, before the ship looked in their place: `LEND_RATIO`) took 14%
/// fewer in all (callgrind, every hash the same).
const KINDS_MIN: usize = 256;

/// What the search reads: the planned colliders.
struct Space<'a> {
    bins: &'a Bins,
    /// A sparse search's binned queriers as its near bodies' tests read them.
    lanes: &'a Lanes,
    runs: &'a [Run],
    flags: &'a [Flags],
    /// The positions the broadphase holds, run by run (see [`Run::at`]): those of every run
    /// the search reads by index.
    pos: &'a [Vec2],
    /// Colliders planned.
    count: usize,
    /// A sparse search's near bodies: these, then `near_second`'s (see
    /// `Broadphase::near_second`).
    near: &'a [NearBody],
    near_second: &'a [NearBody],
    large: &'a [Member],
    queriers: &'a [Member],
    /// The queriers run by run (see `Broadphase::querier_runs`).
    querier_runs: &'a [(u32, u32)],
    cell: f32,
    /// Per bucket, its bodies' layers and looks ([`Bins::kinds`]; empty: not filled).
    kinds: &'a [u64],
}

/// What a search, or one half of its bucket scan, has found so far, and what it may still
/// examine.
struct Found<'a> {
    /// The pairs, at most `max_pairs`.
    pairs: &'a mut Vec<Pair>,
    max_pairs: usize,
    /// Candidates examined so far, and the most the search may examine.
    work: u64,
    budget: u64,
    /// Why the search stopped early, if it did.
    stop: Option<Overflow>,
    /// The last two runs whose colliders [`test`](Found::test) met, and what their pairs are.
    met: Option<Met>,
}

/// What every pair of a collider of run `runs.0` and one of run `runs.1` is (their archetypes'
/// flags and layers and their shapes say all of it): most of a search's pairs are of one pair
/// of runs after another (a pile's drones against the player), so [`Found::test`] works it out
/// once a pair of runs it meets in a row, not once a pair.
#[derive(Clone, Copy)]
struct Met {
    runs: (u32, u32),
    shapes: (Shape, Shape),
    /// `None` where neither side reports or pushes the other: no pair.
    kinds: Option<Kinds>,
}

/// A pair's kinds, as [`Pair`] holds them.
#[derive(Clone, Copy)]
struct Kinds {
    report: bool,
    push: bool,
    trigger: bool,
    stay: bool,
}

impl Met {
    /// What pairs of runs `ri` and `rj` of `space` are.
    fn of(space: &Space<'_>, ri: u32, rj: u32) -> Met {
        let (a, b) = (&space.runs[ri as usize], &space.runs[rj as usize]);
        let none = Flags::default();
        let fa = space.flags.get(a.archetype.0 as usize).unwrap_or(&none);
        let fb = space.flags.get(b.archetype.0 as usize).unwrap_or(&none);
        let report = fa.mask & b.layer != 0 || fb.mask & a.layer != 0;
        let trigger = fa.trigger || fb.trigger;
        let push = !trigger && (fa.push & b.layer != 0 || fb.push & a.layer != 0);
        let kinds = (report || push).then_some(Kinds {
            report,
            push,
            trigger,
            stay: fa.stay || fb.stay,
        });
        Met {
            runs: (ri, rj),
            shapes: (a.shape, b.shape),
            kinds,
        }
    }
}

impl Broadphase {
    /// Finds every overlapping pair of the planned colliders that either side looks for, as
    /// pairs of colliders (see [`Pair`]; [`finish`](Self::finish) makes them canonical).
    ///
    /// At most `max_pairs` pairs are kept, and room for no more is ever reserved: the first
    /// pair past it stops the search with [`Overflow::Pairs`]. Likewise the search examines at most `budget` candidates (bodies in the buckets around
    /// a querier, bodies a large body is tested against): piles of bodies that do not look at
    /// each other, or a fixed cell far from the bodies' size, stop it instead of taking time
    /// quadratic in the number of bodies ([`Overflow::Work`]).
    ///
    /// A bucket scan of `split_from` bodies or more ([`par::SPLIT_MIN`] in a tick that may
    /// split, `usize::MAX` in one that may not) scans the grid's top and bottom rows on two
    /// threads, each with half the pairs and half the budget, and joins their pairs in row
    /// order: the pairs of the serial scan. Where a half stops early, the serial scan runs
    /// instead, so where and why a search stops never depends on the split. A sparse search's
    /// near bodies split likewise, from fewer of them (see `rest`).
    pub fn search(
        &mut self,
        max_pairs: usize,
        budget: u64,
        split_from: usize,
    ) -> Result<(), Overflow> {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        let mut found = Found::new(&mut pairs, max_pairs, budget);
        let result = self.search_into(&mut found, split_from);
        self.pairs = pairs;
        result
    }

    /// [`search`](Self::search), into `found`.
    fn search_into(&mut self, found: &mut Found<'_>, split_from: usize) -> Result<(), Overflow> {
        let Some((grid, sparse)) = self.bin() else {
            return Ok(());
        };
        if sparse {
            self.lanes.fill(self.bins.sorted(), &self.runs);
        }
        let mut second = std::mem::take(&mut self.pairs_second);
        let space = self.space();
        // Every pair of binned bodies in neighbouring buckets, once (sparse: the queriers).
        let halves = self.bins.sorted().len() >= split_from;
        if !halves || !space.halves(&grid, found, &mut second) {
            space.half_scan(&grid, 0..grid.rows, found);
        }
        if sparse && found.stop.is_none() {
            space.near_bodies(&grid, found, &mut second, split_from);
        }
        if found.stop.is_none() {
            space.large(found);
        }
        self.pairs_second = second;
        found.stop.map_or(Ok(()), Err)
    }

    /// Bins the planned colliders; their grid, and whether only the queriers are binned
    /// (`None` before a plan).
    fn bin(&mut self) -> Option<(Grid, bool)> {
        let (grid, sparse) = self.grid?;
        let kinds = !sparse && self.count >= KINDS_MIN && !uniform(&self.runs);
        #[cfg(test)]
        let kinds = kinds && !self.no_kinds;
        let binning = if sparse {
            Binning::Queriers
        } else {
            Binning::Every { kinds }
        };
        self.bins.bin(
            &grid,
            &self.pos[..self.held],
            &self.runs,
            &self.queriers,
            binning,
            self.cell,
        );
        Some((grid, sparse))
    }

    /// What the search reads of the planned, binned colliders.
    fn space(&self) -> Space<'_> {
        Space {
            bins: &self.bins,
            lanes: &self.lanes,
            runs: &self.runs,
            flags: &self.flags,
            pos: &self.pos[..self.held],
            count: self.count,
            near: &self.near,
            near_second: &self.near_second,
            large: &self.large,
            queriers: &self.queriers,
            querier_runs: &self.querier_runs,
            cell: self.cell,
            kinds: &self.bins.kinds,
        }
    }
}

impl Space<'_> {
    /// The bucket scan in two halves of the rows on two threads (see
    /// [`Broadphase::search`]); `false`, with nothing found, where a half stopped early.
    fn halves(&self, grid: &Grid, found: &mut Found<'_>, second: &mut Vec<Pair>) -> bool {
        let mid = grid.rows / 2;
        found.in_halves(
            second,
            |a| self.half_scan(grid, 0..mid, a),
            |b| self.half_scan(grid, mid..grid.rows, b),
        )
    }

    /// Every pair of binned bodies in the same or neighbouring buckets that either side looks
    /// for, each pair once: each bucket with itself, with the bucket east of it and with the
    /// three below it (the grid wraps and has at least 4 buckets a side, so no two of these
    /// are the same bucket, and every neighbouring pair of buckets is visited from one side).
    /// A uniform search notes its candidates within reach and tests them after
    /// ([`scan_noted`](Self::scan_noted)) up to the first bucket the work bound does not
    /// cover, where it goes on body by body (and stops).
    fn half_scan(&self, grid: &Grid, rows: std::ops::Range<u32>, found: &mut Found<'_>) {
        if uniform(self.runs) {
            if let Err((row, col)) = self.scan_noted(grid, rows.clone(), found) {
                self.scan::<true>(grid, row..rows.end, col, found);
            }
        } else {
            self.scan::<false>(grid, rows, 0, found);
        }
    }

    /// [`half_scan`](Self::half_scan) from column `first_col` of its first row; `UNIFORM`:
    /// as [`uniform`] says.
    fn scan<const UNIFORM: bool>(
        &self,
        grid: &Grid,
        rows: std::ops::Range<u32>,
        first_col: u32,
        found: &mut Found<'_>,
    ) {
        let cols = grid.cols;
        let (cmask, rmask) = (cols - 1, grid.rows - 1);
        let starts = &self.bins.starts[..];
        let width = cols as usize;
        let kinds = !UNIFORM && !self.kinds.is_empty();
        for row in rows.clone() {
            let below = ((row + 1) & rmask) * cols;
            // This row's bucket starts and the next row's, each with the end after them.
            let here = &starts[(row * cols) as usize..][..=width];
            let next = &starts[below as usize..][..=width];
            let from = if row == rows.start { first_col } else { 0 };
            for col in from..cols {
                let c = col as usize;
                let (s, e) = (here[c] as usize, here[c + 1] as usize);
                if s == e {
                    continue;
                }
                let (end, around, ranges) = neighbours(here, next, c, cmask);
                let around = &around[ranges];
                if kinds && self.apart_kinds(row * cols, below, col, cmask) {
                    // No pair: the candidates spent as body by body (see `bucket`).
                    let others: usize = around.iter().map(|&(rs, re)| (re - rs) as usize).sum();
                    let n = e - s;
                    found.spend(n * (end - 1 + others) - n * (s + e - 1) / 2);
                    if found.stop.is_some() {
                        return;
                    }
                    continue;
                }
                let go = self.bucket::<UNIFORM>(found, s..e, end, around);
                if !go {
                    return;
                }
            }
        }
    }

    /// Whether the bodies of the bucket in column `col` of the row from bucket `row` neither
    /// look for nor are looked for by any body of it or of the buckets it is scanned with
    /// (east of it, and the three of the row below, from bucket `below`): then its scan finds
    /// no pair. [`kinds`](Space::kinds) is filled.
    #[inline(always)]
    fn apart_kinds(&self, row: u32, below: u32, col: u32, cmask: u32) -> bool {
        let at = |start: u32, c: u32| self.kinds[(start + (c & cmask)) as usize];
        let here = at(row, col);
        let with =
            here | at(row, col + 1) | at(below, col + cmask) | at(below, col) | at(below, col + 1);
        let (layers, looks) = ((here >> 32) as u32, here as u32);
        let (with_layers, with_looks) = ((with >> 32) as u32, with as u32);
        looks & with_layers == 0 && with_looks & layers == 0
    }

    /// The pairs of the bodies `bucket` of one bucket: each with those after it up to `end`
    /// and with every record of the ranges `around`, each body spending its candidates first.
    /// `false` where the search stopped.
    #[inline(always)]
    fn bucket<const UNIFORM: bool>(
        &self,
        found: &mut Found<'_>,
        bucket: std::ops::Range<usize>,
        end: usize,
        around: &[(u32, u32)],
    ) -> bool {
        let others: usize = around.iter().map(|&(rs, re)| (re - rs) as usize).sum();
        self.bodies::<UNIFORM>(found, bucket, end, around, Some(others))
    }

    /// The tests of the bodies `bucket` of one bucket (see [`bucket`](Self::bucket)), each
    /// spending its candidates first where `spend` gives the candidates of `around` (`None`:
    /// the caller has spent them all). `false` where the search stopped.
    #[inline(always)]
    fn bodies<const UNIFORM: bool>(
        &self,
        found: &mut Found<'_>,
        bucket: std::ops::Range<usize>,
        end: usize,
        around: &[(u32, u32)],
        spend: Option<usize>,
    ) -> bool {
        let sorted = self.bins.sorted();
        for k in bucket {
            if let Some(others) = spend {
                found.spend(end - k - 1 + others);
                if found.stop.is_some() {
                    return false;
                }
            }
            let a = &sorted[k];
            let ra = &self.runs[a.run as usize];
            found.pairs_in::<UNIFORM>(self, a, ra, &sorted[k + 1..end]);
            for &(rs, re) in around {
                found.pairs_in::<UNIFORM>(self, a, ra, &sorted[rs as usize..re as usize]);
            }
            if found.stop.is_some() {
                return false;
            }
        }
        true
    }
}

/// Whether every run of `runs` has one extent, layer and looks, and looks at its own layer:
/// then any two binned bodies within reach are a candidate pair, with one reach for all.
fn uniform(runs: &[Run]) -> bool {
    let Some(first) = runs.first() else {
        return false;
    };
    let same = |r: &Run| {
        r.extent.to_bits() == first.extent.to_bits()
            && r.layer == first.layer
            && r.looks == first.looks
    };
    first.looks & first.layer != 0 && runs.iter().all(same)
}

/// The records bucket `c` of a row is scanned against, from the row's bucket starts `here`
/// and the next row's `next` (each with the end after them; `cmask`: the columns less one):
/// the end of the records from the bucket's start (itself, and the bucket east of it where
/// that follows it), and the ranges of the other buckets, `around[ranges]`. In the middle of
/// a row the three buckets below are one range; at an edge the east bucket wraps to the row's
/// first (then it is a range of its own, first), and so may the ones below.
#[inline(always)]
fn neighbours(
    here: &[u32],
    next: &[u32],
    c: usize,
    cmask: u32,
) -> (usize, [(u32, u32); 4], std::ops::Range<usize>) {
    let mut around = [(0, 0); 4];
    if c >= 1 && c < cmask as usize {
        around[0] = (next[c - 1], next[c + 2]);
        return (here[c + 2] as usize, around, 0..1);
    }
    let col = c as u32;
    let (end, first) = if col < cmask {
        (here[c + 2] as usize, 1)
    } else {
        around[0] = (here[0], here[1]);
        (here[c + 1] as usize, 0)
    };
    for (i, dx) in [cmask, 0, 1].into_iter().enumerate() {
        let h = ((col + dx) & cmask) as usize;
        around[i + 1] = (next[h], next[h + 1]);
    }
    (end, around, first..4)
}

impl<'a> Found<'a> {
    /// Nothing found yet, into `pairs`.
    fn new(pairs: &'a mut Vec<Pair>, max_pairs: usize, budget: u64) -> Found<'a> {
        Found {
            pairs,
            max_pairs,
            work: 0,
            budget,
            stop: None,
            met: None,
        }
    }

    /// Runs `first` and `rest`, the two halves of the search's next part in order, on two
    /// threads: each with half the pairs and half the candidates left, `first` into these
    /// pairs, `rest` into `second`, whose pairs then follow them (the pairs of the part run
    /// whole). `false`, with nothing of the part kept, where a half stopped early: the part
    /// is then run whole, so where and why a search stops never depends on the split.
    fn in_halves(
        &mut self,
        second: &mut Vec<Pair>,
        first: impl FnOnce(&mut Found<'_>) + Send,
        rest: impl FnOnce(&mut Found<'_>) + Send,
    ) -> bool {
        second.clear();
        // A search that has not stopped is within both bounds.
        let (had, work) = (self.pairs.len(), self.work);
        let (pairs_left, work_left) = (
            self.max_pairs.saturating_sub(had),
            self.budget.saturating_sub(work),
        );
        let (pairs_a, work_a) = (pairs_left.div_ceil(2), work_left.div_ceil(2));
        // Each half's counts and its list's length on lines of their own: the two threads
        // write them for every candidate and pair (side by side, a split near-body search took
        // as long as a whole one).
        let mut b_pairs = Apart(std::mem::take(second));
        let mut a = Apart(Found::new(&mut *self.pairs, had + pairs_a, work + work_a));
        a.0.work = work;
        let mut b = Apart(Found::new(
            &mut b_pairs.0,
            pairs_left - pairs_a,
            work_left - work_a,
        ));
        par::join(|| first(&mut a.0), || rest(&mut b.0));
        let (Apart(a), Apart(b)) = (a, b);
        let (spent, whole) = (a.work + b.work, a.stop.is_none() && b.stop.is_none());
        *second = b_pairs.0;
        if !whole {
            self.pairs.truncate(had);
            return false;
        }
        crate::limits::room_within(self.pairs, second.len(), self.max_pairs);
        self.pairs.extend_from_slice(second);
        self.work = spent;
        true
    }

    /// Counts `candidates` about to be examined; past the budget, the search stops.
    #[inline]
    fn spend(&mut self, candidates: usize) {
        self.work += candidates as u64;
        if self.work > self.budget && self.stop.is_none() {
            self.stop = Some(Overflow::Work);
        }
    }

    /// Tests binned body `a` (of run `ra`) against the binned bodies `others`: the pairs
    /// either side looks for (the caller has spent the candidates). `UNIFORM`: every run has
    /// `a`'s extent and layers and looks at its own layer (see [`uniform`]).
    #[inline(always)]
    fn pairs_in<const UNIFORM: bool>(
        &mut self,
        space: &Space<'_>,
        a: &Compact,
        ra: &Run,
        others: &[Compact],
    ) {
        let (looks, layer, extent) = (ra.looks, ra.layer, ra.extent);
        for b in others {
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let apart = if UNIFORM {
                let reach = extent + extent;
                dx * dx + dy * dy >= reach * reach
            } else {
                let rb = &space.runs[b.run as usize];
                let reach = extent + rb.extent;
                dx * dx + dy * dy >= reach * reach || (looks & rb.layer) | (rb.looks & layer) == 0
            };
            if apart {
                continue;
            }
            self.test(space, a.index, a.run, a.pos(), b.index, b.run, b.pos());
            if self.stop.is_some() {
                return;
            }
        }
    }

    /// Tests near body `m` (at `b`) against the binned queriers `records`: the pairs a querier
    /// looks for. With `spend`, spends them first (else the caller has). `false` where the
    /// search stopped.
    #[inline(always)]
    fn near_pairs(
        &mut self,
        space: &Space<'_>,
        (m, b): (Member, Vec2),
        records: std::ops::Range<u32>,
        spend: bool,
    ) -> bool {
        if spend {
            self.spend((records.end - records.start) as usize);
            if self.stop.is_some() {
                return false;
            }
        }
        let r = &space.runs[m.run as usize];
        let (from, to) = (records.start as usize, records.end as usize);
        for (k, l) in space.lanes.get(from, to).iter().enumerate() {
            if l.reaches(b, r.extent, r.layer) {
                let q = &space.bins.sorted()[from + k];
                self.test(space, q.index, q.run, q.pos(), m.index, m.run, b);
                if self.stop.is_some() {
                    return false;
                }
            }
        }
        true
    }

    /// Tests collider `i` (of run `ri`, at `pi`) against collider `j` (of run `rj`, at `pj`)
    /// and keeps their pair if they touch.
    #[allow(clippy::too_many_arguments)]
    fn test(&mut self, space: &Space<'_>, i: u32, ri: u32, pi: Vec2, j: u32, rj: u32, pj: Vec2) {
        // From the collider added first, however the search met them: a contact's normal
        // (two boxes exactly aligned on an axis, two circles on one centre: the narrow phase
        // picks a side) is then the same whichever way a search finds the pair.
        let ((i, ri, pi), (j, rj, pj)) = if i < j {
            ((i, ri, pi), (j, rj, pj))
        } else {
            ((j, rj, pj), (i, ri, pi))
        };
        let met = match self.met {
            Some(m) if m.runs == (ri, rj) => m,
            _ => *self.met.insert(Met::of(space, ri, rj)),
        };
        let Some(Kinds {
            report,
            push,
            trigger,
            stay,
        }) = met.kinds
        else {
            return;
        };
        let Some((normal, depth)) = overlap(met.shapes.0, pi, met.shapes.1, pj) else {
            return;
        };
        let pair = Pair {
            i,
            j,
            report,
            push,
            trigger,
            stay,
            normal,
            depth,
        };
        if !push_within(self.pairs, pair, self.max_pairs) {
            self.stop = Some(Overflow::Pairs);
        }
    }
}

/// Whether shapes `sa` at `pa` and `sb` at `pb` are surely apart: further apart on an axis
/// than their half-extents together, by a margin far above rounding, so that
/// [`overlap`] would find no overlap. The large bodies' loops, which have no reach test of
/// their own, test every candidate through here: a pillar against every querier costs a
/// subtraction and two compares, not the flags and the narrow phase (about 150 instructions a
/// pair). The other loops test the reach first. NaN and infinite sizes or positions
/// are never apart here; the narrow phase decides them as before.
#[inline(always)]
fn apart(sa: Shape, pa: Vec2, sb: Shape, pb: Vec2) -> bool {
    /// Rounding moves a sum or difference of two `f32`s by at most 2^-24 of it.
    const MARGIN: f32 = 1.0 + 1.0 / 1024.0;
    let (ha, hb) = (sa.half_extents(), sb.half_extents());
    let d = pb - pa;
    d.x.abs() > (ha.x + hb.x) * MARGIN || d.y.abs() > (ha.y + hb.y) * MARGIN
}

#[cfg(test)]
mod tests;
