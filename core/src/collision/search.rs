//! The broadphase's search: the pairs of the planned colliders that touch (see
//! [`Broadphase::search`]).

use crate::collision::body::Flags;
use crate::collision::grid::small_body;
use crate::collision::grid::{Bins, Compact, Grid, Member};
use crate::collision::narrow::overlap;
use crate::collision::{Broadphase, FEW_QUERIERS, Overflow, Pair, Run};
use crate::def::Shape;
use crate::limits::push_within;
use crate::math::Vec2;
use crate::par;

/// What the search reads: the planned colliders.
struct Space<'a> {
    bins: &'a Bins,
    runs: &'a [Run],
    flags: &'a [Flags],
    pos: &'a [Vec2],
    near: &'a [Member],
    large: &'a [Member],
    queriers: &'a [Member],
    cell: f32,
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
    /// instead, so where and why a search stops never depends on the split.
    pub fn search(
        &mut self,
        max_pairs: usize,
        budget: u64,
        split_from: usize,
    ) -> Result<(), Overflow> {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        let mut found = Found {
            pairs: &mut pairs,
            max_pairs,
            work: 0,
            budget,
            stop: None,
        };
        let result = self.search_into(&mut found, split_from);
        self.pairs = pairs;
        result
    }

    /// [`search`](Self::search), into `found`.
    fn search_into(&mut self, found: &mut Found<'_>, split_from: usize) -> Result<(), Overflow> {
        let n = self.count;
        let Some((grid, sparse)) = self.grid else {
            return Ok(());
        };
        self.bins.bin(
            &grid,
            &self.pos[..n],
            &self.runs,
            &self.queriers,
            sparse,
            self.cell,
        );
        let mut second = std::mem::take(&mut self.pairs_second);
        let space = Space {
            bins: &self.bins,
            runs: &self.runs,
            flags: &self.flags,
            pos: &self.pos[..n],
            near: &self.near,
            large: &self.large,
            queriers: &self.queriers,
            cell: self.cell,
        };
        // Every pair of binned bodies in neighbouring buckets, once (sparse: the queriers).
        let halves = self.bins.sorted.len() >= split_from;
        if !halves || !space.halves(&grid, found, &mut second) {
            space.half_scan(&grid, 0..grid.rows, found);
        }
        self.pairs_second = second;
        if found.stop.is_none() {
            space.rest(&grid, sparse, found);
        }
        found.stop.map_or(Ok(()), Err)
    }
}

impl Space<'_> {
    /// The bucket scan in two halves of the rows on two threads (see
    /// [`Broadphase::search`]); `false`, with nothing found, where a half stopped early.
    fn halves(&self, grid: &Grid, found: &mut Found<'_>, second: &mut Vec<Pair>) -> bool {
        second.clear();
        let mid = grid.rows / 2;
        let (max_a, budget_a) = (found.max_pairs.div_ceil(2), found.budget.div_ceil(2));
        let mut b = Found {
            pairs: second,
            max_pairs: found.max_pairs - max_a,
            work: 0,
            budget: found.budget - budget_a,
            stop: None,
        };
        let mut a = Found {
            pairs: &mut *found.pairs,
            max_pairs: max_a,
            work: 0,
            budget: budget_a,
            stop: None,
        };
        par::join(
            || self.half_scan(grid, 0..mid, &mut a),
            || self.half_scan(grid, mid..grid.rows, &mut b),
        );
        let (work, whole) = (a.work + b.work, a.stop.is_none() && b.stop.is_none());
        if !whole {
            found.pairs.clear();
            return false;
        }
        found.pairs.reserve_exact(b.pairs.len());
        found.pairs.extend_from_slice(b.pairs);
        found.work = work;
        true
    }

    /// After the bucket scan: a sparse search's near bodies, then the large bodies.
    ///
    /// Long because it is the search's inner loops, each stopping the whole search (`return`)
    /// the moment the work or pair budget runs out; split, every loop would pass that stop
    /// back up through its caller, on the broadphase's hot path.
    fn rest(&self, grid: &Grid, sparse: bool, found: &mut Found<'_>) {
        let n = self.pos.len();
        // Sparse: every other small body near a querier looks up the queriers around it.
        // With a handful of queriers, each near body checks them all: the same pairs (a querier
        // within reach is in the 3x3 buckets around), at most 8 candidates per body either way.
        if sparse {
            let few = self.bins.sorted.len() as u32;
            let starts = &self.bins.starts[..];
            let (cols, cmask, rmask) = (grid.cols, grid.cols - 1, grid.rows - 1);
            for &m in self.near {
                let b = self.pos[m.index as usize];
                // The queriers' records that can be within reach: every one, or the 3x3
                // buckets around as one range per row (nine at an edge of the grid, where
                // rows wrap apart), spent at once. (Written as one `if` on the count and one on
                // the edge: nesting the edge inside the count's `else` took 11% more instructions.)
                let (row, col) = if few as usize <= FEW_QUERIERS {
                    (0, 0)
                } else {
                    grid.place(b)
                };
                let mut rows3 = [(0, few), (0, 0), (0, 0)];
                if few as usize > FEW_QUERIERS {
                    if col < 1 || col >= cmask {
                        let around = self.bins.neighbourhood(grid, row, col);
                        for (s, e) in around.iter() {
                            if !found.near_pairs(self, (m, b), s as u32..e as u32, true) {
                                return;
                            }
                        }
                        continue;
                    }
                    for (range, dy) in rows3.iter_mut().zip([rmask, 0, 1]) {
                        let r = ((row + dy) & rmask) * cols;
                        *range = (
                            starts[(r + col - 1) as usize],
                            starts[(r + col + 2) as usize],
                        );
                    }
                }
                let spent = rows3.iter().map(|&(s, e)| (e - s) as u64).sum::<u64>();
                if found.work + spent <= found.budget {
                    // Within the budget: spent at once (as range by range, no stop).
                    found.work += spent;
                    if spent != 0 {
                        for (s, e) in rows3 {
                            if !found.near_pairs(self, (m, b), s..e, false) {
                                return;
                            }
                        }
                    }
                    continue;
                }
                // The budget runs out at this body: range by range, where it stops.
                for (s, e) in rows3 {
                    if !found.near_pairs(self, (m, b), s..e, true) {
                        return;
                    }
                }
            }
        }
        // Large bodies: against each other, and against the small bodies that can matter.
        for li in 0..self.large.len() {
            let mi = self.large[li];
            let (i, a) = (mi.index, self.runs[mi.run as usize]);
            let pi = self.pos[i as usize];
            found.spend(self.large.len() - li - 1);
            if found.stop.is_some() {
                return;
            }
            for lj in li + 1..self.large.len() {
                let mj = self.large[lj];
                let b = &self.runs[mj.run as usize];
                let pj = self.pos[mj.index as usize];
                if (a.raw & b.layer != 0 || b.raw & a.layer != 0)
                    && !apart(a.shape, pi, b.shape, pj)
                {
                    found.test(self, i, mi.run, pi, mj.index, mj.run, pj);
                    if found.stop.is_some() {
                        return;
                    }
                }
            }
            let (looks_i, layer_i) = (a.raw, a.layer);
            let relevant = |b: &Run| looks_i & b.layer != 0 || b.raw & layer_i != 0;
            if looks_i == 0 {
                // Only bodies that look at its layer can pair with it; their effective looks
                // keep that layer (it is not covered: this body of it looks at nothing).
                found.spend(self.queriers.len());
                if found.stop.is_some() {
                    return;
                }
                for qi in 0..self.queriers.len() {
                    let m = self.queriers[qi];
                    let r = &self.runs[m.run as usize];
                    let pj = self.pos[m.index as usize];
                    if relevant(r) && !apart(a.shape, pi, r.shape, pj) {
                        found.test(self, i, mi.run, pi, m.index, m.run, pj);
                        if found.stop.is_some() {
                            return;
                        }
                    }
                }
            } else {
                found.spend(n);
                if found.stop.is_some() {
                    return;
                }
                for ri in 0..self.runs.len() {
                    let r = self.runs[ri];
                    if !relevant(&r) {
                        continue;
                    }
                    for j in r.range() {
                        let pj = self.pos[j];
                        if small_body(&r, pj, self.cell) && !apart(a.shape, pi, r.shape, pj) {
                            found.test(self, i, mi.run, pi, j as u32, ri as u32, pj);
                            if found.stop.is_some() {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every pair of binned bodies in the same or neighbouring buckets that either side looks
    /// for, each pair once: each bucket with itself, with the bucket east of it and with the
    /// three below it (the grid wraps and has at least 4 buckets a side, so no two of these
    /// are the same bucket, and every neighbouring pair of buckets is visited from one side).
    fn half_scan(&self, grid: &Grid, rows: std::ops::Range<u32>, found: &mut Found<'_>) {
        if self.uniform() {
            self.scan::<true>(grid, rows, found);
        } else {
            self.scan::<false>(grid, rows, found);
        }
    }

    /// Whether every run has one extent, layer and looks, and looks at its own layer: then
    /// any two binned bodies within reach are a candidate pair, with one reach for all.
    fn uniform(&self) -> bool {
        let Some(first) = self.runs.first() else {
            return false;
        };
        let same = |r: &Run| {
            r.extent.to_bits() == first.extent.to_bits()
                && r.layer == first.layer
                && r.looks == first.looks
        };
        first.looks & first.layer != 0 && self.runs.iter().all(same)
    }

    /// [`half_scan`](Self::half_scan); `UNIFORM`: as [`uniform`](Self::uniform) says.
    fn scan<const UNIFORM: bool>(
        &self,
        grid: &Grid,
        rows: std::ops::Range<u32>,
        found: &mut Found<'_>,
    ) {
        let cols = grid.cols;
        let (cmask, rmask) = (cols - 1, grid.rows - 1);
        let starts = &self.bins.starts[..];
        let width = cols as usize;
        for row in rows {
            let below = ((row + 1) & rmask) * cols;
            // This row's bucket starts and the next row's, each with the end after them.
            let here = &starts[(row * cols) as usize..][..=width];
            let next = &starts[below as usize..][..=width];
            for col in 0..cols {
                let c = col as usize;
                let (s, e) = (here[c] as usize, here[c + 1] as usize);
                if s == e {
                    continue;
                }
                // The bucket east of this one, and the three below it: ranges of records.
                let go = if c >= 1 && c + 1 < width {
                    // The east bucket follows this one; the three below are one range.
                    let end = here[c + 2] as usize;
                    self.bucket::<UNIFORM>(found, s..e, end, &[(next[c - 1], next[c + 2])])
                } else {
                    // At an edge: the east bucket wraps to the row's first (then it is a
                    // range of its own, first), and so may the ones below.
                    let mut around = [(0, 0); 4];
                    let (end, first) = if col < cmask {
                        (here[c + 2] as usize, 1)
                    } else {
                        around[0] = (here[0], here[1]);
                        (e, 0)
                    };
                    for (i, dx) in [cmask, 0, 1].into_iter().enumerate() {
                        let h = ((col + dx) & cmask) as usize;
                        around[i + 1] = (next[h], next[h + 1]);
                    }
                    self.bucket::<UNIFORM>(found, s..e, end, &around[first..])
                };
                if !go {
                    return;
                }
            }
        }
    }

    /// The pairs of the bodies `bucket` of one bucket: each with those after it up to `end`
    /// and with every record of the ranges `around`. `false` where the search stopped.
    #[inline(always)]
    fn bucket<const UNIFORM: bool>(
        &self,
        found: &mut Found<'_>,
        bucket: std::ops::Range<usize>,
        end: usize,
        around: &[(u32, u32)],
    ) -> bool {
        let sorted = &self.bins.sorted[..];
        let others: usize = around.iter().map(|&(rs, re)| (re - rs) as usize).sum();
        // Where the budget covers every candidate of the bucket, no body's spending can stop
        // the search: all spent at once, and each body's tests run without the check (the
        // bucket is not empty: a scan skips those). A uniform search's runs all have the
        // first's extent, layers and looks.
        let n = bucket.len();
        let all = n * (end - bucket.start) - n * (n + 1) / 2 + n * others;
        if UNIFORM && found.work + all as u64 <= found.budget {
            found.work += all as u64;
            let ra = &self.runs[sorted[bucket.start].run as usize];
            for k in bucket {
                let a = &sorted[k];
                found.pairs_in::<UNIFORM>(self, a, ra, &sorted[k + 1..end]);
                for &(rs, re) in around {
                    found.pairs_in::<UNIFORM>(self, a, ra, &sorted[rs as usize..re as usize]);
                }
                if found.stop.is_some() {
                    return false;
                }
            }
            return true;
        }
        for k in bucket {
            found.spend(end - k - 1 + others);
            if found.stop.is_some() {
                return false;
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

impl Found<'_> {
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
    /// `a`'s extent and layers and looks at its own layer (see [`Space::uniform`]).
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
        for q in &space.bins.sorted[records.start as usize..records.end as usize] {
            let qr = &space.runs[q.run as usize];
            let (dx, dy) = (b.x - q.x, b.y - q.y);
            let reach = qr.extent + r.extent;
            if qr.looks & r.layer != 0 && dx * dx + dy * dy < reach * reach {
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
        let (a, b) = (&space.runs[ri as usize], &space.runs[rj as usize]);
        let none = Flags::default();
        let fa = space.flags.get(a.archetype.0 as usize).unwrap_or(&none);
        let fb = space.flags.get(b.archetype.0 as usize).unwrap_or(&none);
        let report = fa.mask & b.layer != 0 || fb.mask & a.layer != 0;
        let trigger = fa.trigger || fb.trigger;
        let push = !trigger && (fa.push & b.layer != 0 || fb.push & a.layer != 0);
        if !report && !push {
            return;
        }
        let Some((normal, depth)) = overlap(a.shape, pi, b.shape, pj) else {
            return;
        };
        let pair = Pair {
            lo: 0,
            hi: 0,
            i,
            j,
            report,
            push,
            trigger,
            stay: fa.stay || fb.stay,
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
mod tests {
    use super::*;

    /// Shapes and places where `apart` could be wrong: touching, grazing within an ulp, tiny
    /// and huge sizes, far and near, every pairing of circle and box.
    #[test]
    fn apart_only_where_the_narrow_phase_finds_no_overlap() {
        let mut rng = fastrand::Rng::with_seed(37);
        let size = |rng: &mut fastrand::Rng| match rng.u8(0..4) {
            0 => rng.f32() * 1e-3 + 1e-6,
            1 => rng.f32() * 64.0 + 0.5,
            2 => rng.f32() * 1e6 + 1.0,
            _ => f32::from_bits(rng.u32(0x3f00_0000..0x4400_0000)),
        };
        let shape = |rng: &mut fastrand::Rng| {
            if rng.bool() {
                Shape::Circle { radius: size(rng) }
            } else {
                Shape::Box {
                    half: Vec2::new(size(rng), size(rng)),
                }
            }
        };
        let (mut apart_seen, mut near_seen) = (0, 0);
        for _ in 0..400_000 {
            let (sa, sb) = (shape(&mut rng), shape(&mut rng));
            let pa = Vec2::new(rng.f32() * 2e3 - 1e3, rng.f32() * 2e3 - 1e3);
            let (ha, hb) = (sa.half_extents(), sb.half_extents());
            // Around the distance where the bounding boxes meet, by up to a few ulps or 1%.
            let reach = Vec2::new(ha.x + hb.x, ha.y + hb.y);
            let nudge = |r: f32, rng: &mut fastrand::Rng| match rng.u8(0..3) {
                0 => f32::from_bits((r.to_bits() as i64 + rng.i64(-4..5)).max(0) as u32),
                1 => r * (0.99 + rng.f32() * 0.02),
                _ => r * rng.f32() * 3.0,
            };
            let sign = |rng: &mut fastrand::Rng| if rng.bool() { 1.0 } else { -1.0 };
            let d = Vec2::new(
                sign(&mut rng) * nudge(reach.x, &mut rng),
                sign(&mut rng) * nudge(reach.y, &mut rng),
            );
            let pb = pa + d;
            if apart(sa, pa, sb, pb) {
                apart_seen += 1;
                assert_eq!(
                    overlap(sa, pa, sb, pb),
                    None,
                    "{sa:?} at {pa:?}, {sb:?} at {pb:?}"
                );
            } else {
                near_seen += 1;
            }
        }
        assert!(
            apart_seen > 50_000 && near_seen > 50_000,
            "{apart_seen} {near_seen}"
        );
        // What is not surely apart is left to the narrow phase: NaN and infinite places.
        let c = Shape::Circle { radius: 2.0 };
        for p in [Vec2::new(f32::NAN, 0.0), Vec2::new(0.0, f32::NAN)] {
            assert!(!apart(c, Vec2::ZERO, c, p));
        }
        let inf = Vec2::new(f32::INFINITY, 0.0);
        assert!(apart(c, Vec2::ZERO, c, inf));
        assert_eq!(overlap(c, Vec2::ZERO, c, inf), None);
    }
}
