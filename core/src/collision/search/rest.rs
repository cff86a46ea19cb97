//! After the bucket scan: a sparse search's near bodies (on two threads where there are
//! many), then the large bodies.

use super::{Found, Space, apart};
use crate::collision::grid::{Grid, NearBody, small_body};
use crate::collision::{Pair, Run};

/// A near body's look-ups are several motion rows' work (the swarm's drones: about 260
/// instructions a near body, 45 a motion row): the list splits from this share of the rows a
/// pass splits from, 256 near bodies. Measured with the split's halves on lines of their own
/// (see `Found::in_halves`): at 16k drones, splitting from 256 rather than 1,024 near bodies
/// took the near-body search from 5.7 to 6.0 µs a tick to 4.7 to 5.6 (three alternating runs
/// of `ludus bench`, both cores).
const NEAR_SHARE: usize = 32;

impl Space<'_> {
    /// A sparse search's near bodies ([`near`](Self::near)): in two halves of the list on two
    /// threads where there are a [`NEAR_SHARE`]th of `split_from` or more, each half with half
    /// the pairs and half the budget left, their pairs joined in list order (those of the one
    /// list); where a half stops early, on this thread, so where and why a search stops never
    /// depends on the split.
    pub(super) fn near_bodies(
        &self,
        grid: &Grid,
        found: &mut Found<'_>,
        second: &mut Vec<Pair>,
        split_from: usize,
    ) {
        let all = self.near.len() + self.near_second.len();
        if all < split_from / NEAR_SHARE || !self.near_halves(grid, found, second) {
            self.near(grid, self.near, found);
            if found.stop.is_none() {
                self.near(grid, self.near_second, found);
            }
        }
    }

    /// [`near`](Self::near) in two halves of the list on two threads (where the plan's marks
    /// test split, each thread's own near bodies); `false`, with nothing found, where a half
    /// stopped early.
    fn near_halves(&self, grid: &Grid, found: &mut Found<'_>, second: &mut Vec<Pair>) -> bool {
        let (first, rest) = match self.near_second {
            [] => self.near.split_at(self.near.len() / 2),
            apart => (self.near, apart),
        };
        found.in_halves(
            second,
            |a| self.near(grid, first, a),
            |b| self.near(grid, rest, b),
        )
    }

    /// The near bodies `near` of a sparse search (every other small body near a querier)
    /// each look up the queriers around them.
    ///
    /// Long because it is the search's inner loops, each stopping the whole search (`return`)
    /// the moment the work or pair budget runs out; split, every loop would pass that stop
    /// back up through its caller, on the broadphase's hot path.
    fn near(&self, grid: &Grid, near: &[NearBody], found: &mut Found<'_>) {
        // With a handful of queriers, each near body checks them all: the same pairs (a querier
        // within reach is in the 3x3 buckets around), at most 8 candidates per body either way.
        let side_by_side = self.lanes.few();
        if let Some(lanes) = side_by_side {
            // Few queriers: a near body is tested against all of them at once.
            let queriers = self.bins.sorted();
            let few = queriers.len() as u32;
            for &NearBody { member: m, pos: b } in near {
                if found.work + u64::from(few) > found.budget {
                    // The budget runs out at this body, where the search stops.
                    if !found.near_pairs(self, (m, b), 0..few, true) {
                        return;
                    }
                    continue;
                }
                found.work += u64::from(few);
                let r = &self.runs[m.run as usize];
                let mut hits = lanes.within(b, r.extent, r.layer);
                while hits != 0 {
                    let q = &queriers[hits.trailing_zeros() as usize];
                    hits &= hits - 1;
                    found.test(self, q.index, q.run, q.pos(), m.index, m.run, b);
                    if found.stop.is_some() {
                        return;
                    }
                }
            }
        } else {
            // Many queriers: those in the 3x3 buckets around a near body.
            let starts = &self.bins.starts[..];
            let (cols, cmask, rmask) = (grid.cols, grid.cols - 1, grid.rows - 1);
            for &NearBody { member: m, pos: b } in near {
                // The queriers' records that can be within reach: the 3x3 buckets around, as
                // one range per row, or two at an edge of the grid, where a row wraps (the
                // buckets in the order `neighbourhood` gives them), spent at once.
                let (row, col) = grid.place(b);
                let edge = col < 1 || col >= cmask;
                let mut ranges = [(0, 0); 6];
                for (k, dy) in [rmask, 0, 1].into_iter().enumerate() {
                    let r = ((row + dy) & rmask) * cols;
                    let at = |c: u32| starts[(r + c) as usize];
                    if !edge {
                        ranges[k] = (at(col - 1), at(col + 2));
                    } else if col == 0 {
                        (ranges[2 * k], ranges[2 * k + 1]) =
                            ((at(cmask), at(cols)), (at(0), at(2)));
                    } else {
                        (ranges[2 * k], ranges[2 * k + 1]) =
                            ((at(cmask - 1), at(cols)), (at(0), at(1)));
                    }
                }
                let ranges = &ranges[..if edge { 6 } else { 3 }];
                let spent = ranges.iter().map(|&(s, e)| (e - s) as u64).sum::<u64>();
                if found.work + spent <= found.budget {
                    // Within the budget: spent at once (as bucket by bucket, no stop).
                    found.work += spent;
                    if spent != 0 {
                        for &(s, e) in ranges {
                            if !found.near_pairs(self, (m, b), s..e, false) {
                                return;
                            }
                        }
                    }
                    continue;
                }
                // The budget runs out at this body: bucket by bucket (a row's three at once
                // where they are one range), where it stops.
                if edge {
                    let around = self.bins.neighbourhood(grid, row, col);
                    for (s, e) in around.iter() {
                        if !found.near_pairs(self, (m, b), s as u32..e as u32, true) {
                            return;
                        }
                    }
                    continue;
                }
                for &(s, e) in ranges {
                    if !found.near_pairs(self, (m, b), s..e, true) {
                        return;
                    }
                }
            }
        }
    }

    /// The large bodies: against each other, and against the small bodies that can matter.
    ///
    /// Long for the reason [`near`](Self::near) is.
    pub(super) fn large(&self, found: &mut Found<'_>) {
        let n = self.count;
        for li in 0..self.large.len() {
            let mi = self.large[li];
            let (i, a) = (mi.index, self.runs[mi.run as usize]);
            let pi = a.pos(i, self.pos);
            found.spend(self.large.len() - li - 1);
            if found.stop.is_some() {
                return;
            }
            for lj in li + 1..self.large.len() {
                let mj = self.large[lj];
                let b = &self.runs[mj.run as usize];
                let pj = b.pos(mj.index, self.pos);
                if (a.raw & b.layer != 0 || b.raw & a.layer != 0)
                    && !apart(a.shape, pi, b.shape, pj)
                {
                    found.test(self, i, mi.run, pi, mj.index, mj.run, pj);
                    if found.stop.is_some() {
                        return;
                    }
                }
            }
            // Its own looks and those its layer was lent (see `Broadphase::plan`).
            let (looks_i, layer_i) = (a.raw | a.looks, a.layer);
            let relevant = |b: &Run| looks_i & b.layer != 0 || b.raw & layer_i != 0;
            if looks_i == 0 {
                // Only bodies that look at its layer can pair with it; their effective looks
                // keep that layer (it is not covered: this body of it looks at nothing, and
                // was lent nothing).
                found.spend(self.queriers.len());
                if found.stop.is_some() {
                    return;
                }
                // Run by run: the queriers of a run that cannot pair with it passed over at once.
                let mut from = 0;
                for &(run, end) in self.querier_runs {
                    let (r, block) = (&self.runs[run as usize], from..end as usize);
                    from = end as usize;
                    if !relevant(r) {
                        continue;
                    }
                    for m in &self.queriers[block] {
                        let pj = r.pos(m.index, self.pos);
                        if !apart(a.shape, pi, r.shape, pj) {
                            found.test(self, i, mi.run, pi, m.index, m.run, pj);
                            if found.stop.is_some() {
                                return;
                            }
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
                    for (j, &pj) in r.range().zip(&self.pos[r.held()]) {
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
}
