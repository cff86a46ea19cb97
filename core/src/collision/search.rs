//! The broadphase's search: the pairs of the planned colliders that touch (see
//! [`Broadphase::search`]).

use crate::collision::grid::{self, Compact, Grid};
use crate::collision::narrow::overlap;
use crate::collision::{Broadphase, FEW_QUERIERS, Overflow, Pair, Run, small_body};
use crate::limits::push_within;
use crate::math::Vec2;

impl Broadphase {
    /// Finds every overlapping pair of the planned colliders that either side looks for, as
    /// pairs of colliders (see [`Pair`]; [`finish`](Self::finish) makes them canonical).
    ///
    /// At most `max_pairs` pairs are kept, and room for no more is ever reserved: the first
    /// pair past it stops the search and returns `false`.
    /// Likewise the search examines at most `budget` candidates (bodies in the buckets around
    /// a querier, bodies a large body is tested against): piles of bodies that do not look at
    /// each other, or a fixed cell far from the bodies' size, stop it instead of taking time
    /// quadratic in the number of bodies.
    ///
    /// One function on purpose: it is a single pass over the grid whose loop state (bucket
    /// bounds, budgets, the pair list) would otherwise be threaded through helpers on the
    /// hottest path of the tick.
    pub fn search(&mut self, max_pairs: usize, budget: u64) -> Result<(), Overflow> {
        self.pairs.clear();
        self.max_pairs = max_pairs;
        self.work = 0;
        self.budget = budget;
        self.stop = None;
        let n = self.count;
        let Some((grid, sparse)) = self.grid else {
            return Ok(());
        };
        let cell = self.cell;
        self.bins.bin(
            &grid,
            &self.pos[..n],
            &self.runs,
            &self.queriers,
            sparse,
            cell,
        );

        // Every pair of binned bodies in neighbouring buckets, once (sparse: the queriers).
        self.half_scan(&grid);
        if self.stop.is_some() {
            return self.result();
        }
        // Sparse: every other small body near a querier looks up the queriers around it.
        // With a handful of queriers, each near body checks them all: the same pairs (a querier
        // within reach is in the 3x3 buckets around), at most 8 candidates per body either way.
        if sparse {
            let few = self.bins.sorted.len();
            for ni in 0..self.near.len() {
                let m = self.near[ni];
                let (j, b, r) = (
                    m.index,
                    self.pos[m.index as usize],
                    self.runs[m.run as usize],
                );
                let ranges = if few <= FEW_QUERIERS {
                    let mut all = grid::Ranges::default();
                    all.push(0, few as u32);
                    all
                } else {
                    let (row, col) = grid.place(b);
                    self.bins.neighbourhood(&grid, row, col)
                };
                for (s, e) in ranges.iter() {
                    self.spend(e - s);
                    if self.stop.is_some() {
                        return self.result();
                    }
                    for k in s..e {
                        let q = self.bins.sorted[k];
                        let qr = &self.runs[q.run as usize];
                        let (dx, dy) = (b.x - q.x, b.y - q.y);
                        let reach = qr.extent + r.extent;
                        if qr.looks & r.layer != 0 && dx * dx + dy * dy < reach * reach {
                            self.test(q.index, q.run, q.pos(), j, m.run, b);
                            if self.stop.is_some() {
                                return self.result();
                            }
                        }
                    }
                }
            }
        }
        // Large bodies: against each other, and against the small bodies that can matter.
        for li in 0..self.large.len() {
            let mi = self.large[li];
            let (i, a) = (mi.index, self.runs[mi.run as usize]);
            let pi = self.pos[i as usize];
            self.spend(self.large.len() - li - 1);
            if self.stop.is_some() {
                return self.result();
            }
            for lj in li + 1..self.large.len() {
                let mj = self.large[lj];
                let b = &self.runs[mj.run as usize];
                if a.raw & b.layer != 0 || b.raw & a.layer != 0 {
                    let pj = self.pos[mj.index as usize];
                    self.test(i, mi.run, pi, mj.index, mj.run, pj);
                    if self.stop.is_some() {
                        return self.result();
                    }
                }
            }
            let (looks_i, layer_i) = (a.raw, a.layer);
            let relevant = |b: &Run| looks_i & b.layer != 0 || b.raw & layer_i != 0;
            if looks_i == 0 {
                // Only bodies that look at its layer can pair with it; their effective looks
                // keep that layer (it is not covered: this body of it looks at nothing).
                self.spend(self.queriers.len());
                if self.stop.is_some() {
                    return self.result();
                }
                for qi in 0..self.queriers.len() {
                    let m = self.queriers[qi];
                    if relevant(&self.runs[m.run as usize]) {
                        let pj = self.pos[m.index as usize];
                        self.test(i, mi.run, pi, m.index, m.run, pj);
                        if self.stop.is_some() {
                            return self.result();
                        }
                    }
                }
            } else {
                self.spend(n);
                if self.stop.is_some() {
                    return self.result();
                }
                for ri in 0..self.runs.len() {
                    let r = self.runs[ri];
                    if !relevant(&r) {
                        continue;
                    }
                    for j in r.range() {
                        let pj = self.pos[j];
                        if small_body(&r, pj, cell) {
                            self.test(i, mi.run, pi, j as u32, ri as u32, pj);
                            if self.stop.is_some() {
                                return self.result();
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// How the search ended.
    fn result(&self) -> Result<(), Overflow> {
        self.stop.map_or(Ok(()), Err)
    }

    /// Counts `candidates` about to be examined; past the budget, the search stops.
    #[inline]
    fn spend(&mut self, candidates: usize) {
        self.work += candidates as u64;
        if self.work > self.budget && self.stop.is_none() {
            self.stop = Some(Overflow::Work);
        }
    }

    /// Every pair of binned bodies in the same or neighbouring buckets that either side looks
    /// for, each pair once: each bucket with itself, with the bucket east of it and with the
    /// three below it (the grid wraps and has at least 4 buckets a side, so no two of these
    /// are the same bucket, and every neighbouring pair of buckets is visited from one side).
    fn half_scan(&mut self, grid: &Grid) {
        let (cols, rows) = (grid.cols, grid.rows);
        let (cmask, rmask) = (cols - 1, rows - 1);
        for row in 0..rows {
            let below = ((row + 1) & rmask) * cols;
            for col in 0..cols {
                let b = (row * cols + col) as usize;
                let (s, e) = (
                    self.bins.starts[b] as usize,
                    self.bins.starts[b + 1] as usize,
                );
                if s == e {
                    continue;
                }
                // The bucket east of this one, and the three below it: ranges of records.
                let mut around = grid::Ranges::default();
                let east = if col < cmask {
                    // Right after this bucket: scanned with it.
                    None
                } else {
                    Some(row * cols)
                };
                let end = match east {
                    None => self.bins.starts[b + 2] as usize,
                    Some(w) => {
                        around.push(
                            self.bins.starts[w as usize],
                            self.bins.starts[w as usize + 1],
                        );
                        e
                    }
                };
                if col >= 1 && col < cmask {
                    let (f, l) = ((below + col - 1) as usize, (below + col + 2) as usize);
                    around.push(self.bins.starts[f], self.bins.starts[l]);
                } else {
                    for dx in [cmask, 0, 1] {
                        let h = (below + ((col + dx) & cmask)) as usize;
                        around.push(self.bins.starts[h], self.bins.starts[h + 1]);
                    }
                }
                // Each body's candidates at once: those after it up to `end`, and every
                // record around.
                let others: usize = around.iter().map(|(rs, re)| re - rs).sum();
                for k in s..e {
                    self.spend(end - k - 1 + others);
                    if self.stop.is_some() {
                        return;
                    }
                    let a = self.bins.sorted[k];
                    self.pairs_in(&a, k + 1, end);
                    for (rs, re) in around.iter() {
                        self.pairs_in(&a, rs, re);
                    }
                    if self.stop.is_some() {
                        return;
                    }
                }
            }
        }
    }

    /// Tests binned body `a` against the sorted range `s..e`: the pairs either side looks
    /// for (the caller has spent the candidates).
    #[inline]
    fn pairs_in(&mut self, a: &Compact, s: usize, e: usize) {
        let ra = &self.runs[a.run as usize];
        let (looks, layer, extent) = (ra.looks, ra.layer, ra.extent);
        for k in s..e {
            let b = self.bins.sorted[k];
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let rb = &self.runs[b.run as usize];
            let reach = extent + rb.extent;
            if dx * dx + dy * dy >= reach * reach || (looks & rb.layer) | (rb.looks & layer) == 0 {
                continue;
            }
            self.test(a.index, a.run, a.pos(), b.index, b.run, b.pos());
            if self.stop.is_some() {
                return;
            }
        }
    }

    /// Tests collider `i` (of run `ri`, at `pi`) against collider `j` (of run `rj`, at `pj`)
    /// and keeps their pair if they touch.
    fn test(&mut self, i: u32, ri: u32, pi: Vec2, j: u32, rj: u32, pj: Vec2) {
        let (a, b) = (&self.runs[ri as usize], &self.runs[rj as usize]);
        let none = super::body::Flags::default();
        let fa = self.flags.get(a.archetype.0 as usize).unwrap_or(&none);
        let fb = self.flags.get(b.archetype.0 as usize).unwrap_or(&none);
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
        if !push_within(&mut self.pairs, pair, self.max_pairs) {
            self.stop = Some(Overflow::Pairs);
        }
    }
}
