//! Broadphase: which colliders touch this tick (the narrow phase is in `narrow`, the contact
//! cache in `contact`).
//!
//! - **Broadphase**: a uniform grid stored as a spatial hash rebuilt every tick with a counting
//!   sort (no per-cell allocation; memory is linear in the number of colliders). Each collider is
//!   binned by its centre; one whose diameter exceeds a cell goes to a short "large" list tested
//!   against everything. Only colliders with a non-empty mask or push set query neighbours, so
//!   100k bodies that do not look for each other cost one pass to bin.
//! - **Pairs**: a pair is reported when either side's mask contains the other's layer; it is
//!   pushed apart when either side's push set contains the other's layer and neither is a
//!   trigger (see `response`). A pair is a trigger contact when either side is a trigger.
//! - **Canonical order**: pairs are keyed by creation sequences `(lo, hi)` with `lo < hi` and
//!   processed in ascending key order; events of each kind come out in that order, and push
//!   corrections accumulate in that order, so results never depend on storage order.
//! - **Bounds**: at most `[limits] contacts` pairs are kept and room for no more is reserved;
//!   the search also examines a bounded number of candidates (see [`CANDIDATES_PER_CONTACT`]).
//!   Either bound stops the search at once, so piled-up colliders fault in bounded time and
//!   memory.

pub(crate) mod body;
pub(crate) mod contact;
pub(crate) mod narrow;
mod response;

pub(crate) use crate::collision::body::Body;
use crate::collision::narrow::overlap;
use crate::limits::push_within;
use crate::math::Vec2;

/// Candidates the broadphase may examine in one tick: this many per pair `[limits] contacts`
/// allows, plus [`CANDIDATES_PER_BODY`] per collider. A well-sized grid examines a few per body
/// and per pair found (about 4 and 6 in crowds), so only piles of bodies that do not look at
/// each other, or a fixed cell far from the bodies' size, come near it.
pub(crate) const CANDIDATES_PER_CONTACT: u64 = 256;
pub(crate) const CANDIDATES_PER_BODY: u64 = 64;

/// A contact between two bodies found this tick (indices into the body list).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair {
    pub lo: u64,
    pub hi: u64,
    pub i: u32,
    pub j: u32,
    pub report: bool,
    pub push: bool,
    pub trigger: bool,
    pub stay: bool,
    pub normal: Vec2,
    pub depth: f32,
}

/// Why [`Broadphase::find_pairs`] stopped before finding every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overflow {
    /// One more pair than `max_pairs`.
    Pairs,
    /// More candidates than the budget.
    Work,
}

/// Reusable scratch for one tick's collision pass.
#[derive(Clone, Debug, Default)]
pub(crate) struct Broadphase {
    pub bodies: Vec<Body>,
    /// Bucket of each body (`u32::MAX` for large bodies).
    keys: Vec<u32>,
    starts: Vec<u32>,
    fill: Vec<u32>,
    /// Compact copies of the binned bodies, sorted by bucket.
    sorted: Vec<Compact>,
    /// What the passes over all bodies read, 24 bytes per body.
    hot: Vec<Hot>,
    /// Per archetype: largest extent and body count.
    arch: Vec<(f32, usize)>,
    /// Small bodies with effective looks.
    queriers: Vec<u32>,
    large: Vec<u32>,
    /// The pairs found, at most `max_pairs`.
    pub pairs: Vec<Pair>,
    max_pairs: usize,
    /// Candidates examined so far, and the most the search may examine.
    work: u64,
    budget: u64,
    /// Why the search stopped early, if it did.
    stop: Option<Overflow>,
    /// Push corrections per body (see [`Broadphase::respond`]).
    pub offsets: Vec<Vec2>,
    /// Velocities after the responses, per body (empty when no contact needed them).
    pub velocities: Vec<Vec2>,
    /// Bodies whose velocity a response changed (repeats possible).
    pub turned: Vec<u32>,
    /// Bodies with footing that stood on something: the velocity of what they stood on
    /// (empty when none did).
    pub grounded: Vec<Option<Vec2>>,
    /// Push properties of the bodies that are not plain (see [`Body::phys`]).
    pub physics: Vec<body::Phys>,
    /// Per body, the corrections from immovable bodies, kept as the largest each way per axis.
    fixed: Vec<Option<(Vec2, Vec2)>>,
}

/// A body's position, size, layers and flags, for the passes over every body.
#[derive(Clone, Copy, Debug, Default)]
struct Hot {
    x: f32,
    y: f32,
    extent: f32,
    layer: u32,
    /// Effective looks after pass 2 (raw looks before).
    looks: u32,
    large: bool,
}

/// What the grid loop needs of a body, stored in bucket order for locality.
#[derive(Clone, Copy, Debug, Default)]
struct Compact {
    x: f32,
    y: f32,
    extent: f32,
    layer: u32,
    looks: u32,
    /// Original body index.
    index: u32,
    /// Grid row and column of the body's bucket.
    row: u32,
    col: u32,
}

#[inline]
fn floor_i32(v: f32) -> i32 {
    let i = v as i32;
    if (i as f32) > v { i - 1 } else { i }
}

/// The bucket grid: `cols * rows` buckets that tile the plane by wrapping, so neighbouring cells
/// are neighbouring buckets (grid rows are contiguous in memory) and memory stays linear in the
/// number of bodies however far they spread. Far cells that share a bucket only add candidates,
/// which the overlap test rejects.
#[derive(Clone, Copy, Debug)]
struct Grid {
    inv_cell: f32,
    cols: u32,
    rows: u32,
}

impl Grid {
    /// About two buckets per body; both sides are powers of two so wrapping is a mask.
    fn new(n: usize, cell: f32) -> Grid {
        let buckets = (n * 2).max(16);
        let cols = ((buckets as f64).sqrt().ceil() as u32)
            .next_power_of_two()
            .max(4);
        let rows = (buckets as u32).div_ceil(cols).next_power_of_two().max(4);
        Grid {
            inv_cell: 1.0 / cell,
            cols,
            rows,
        }
    }

    fn len(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    /// Row and column of the bucket holding point `p`.
    fn place(&self, p: Vec2) -> (u32, u32) {
        let cx = floor_i32(p.x * self.inv_cell);
        let cy = floor_i32(p.y * self.inv_cell);
        // Two's complement and power-of-two sides: the mask is a Euclidean remainder.
        (cy as u32 & (self.rows - 1), cx as u32 & (self.cols - 1))
    }
}

impl Broadphase {
    /// Finds every overlapping pair of `self.bodies` that either side looks for, sorted by
    /// creation sequence key.
    ///
    /// - **Cell size**: `fixed` when the game sets one; otherwise twice the extent that covers
    ///   95% of the bodies (counted per archetype), grown to fit the largest querier (up to 16
    ///   times), so a few big colliders such as walls go to the large list instead of making
    ///   every cell huge.
    /// - **Effective queries**: layers nobody is on are never queried; when every body of layer
    ///   P looks at layer E and P has fewer bodies (ties by layer index), bodies of E leave P
    ///   to them. A crowd that looks at one player does not query at all: the player finds it.
    /// - **Sparse or dense**: when queriers are few (a player and its bullets among a crowd),
    ///   only they are binned and every other body near them looks them up; otherwise every
    ///   body is binned and each querier scans its 3x3 neighbourhood of buckets.
    /// - **Large bodies** are tested against each other and against the bodies that can form a
    ///   pair with them.
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
    pub fn find_pairs(
        &mut self,
        fixed_cell: Option<f32>,
        max_pairs: usize,
        budget: u64,
    ) -> Result<(), Overflow> {
        self.pairs.clear();
        self.large.clear();
        self.queriers.clear();
        self.max_pairs = max_pairs;
        self.work = 0;
        self.budget = budget;
        self.stop = None;
        let n = self.bodies.len();
        if n < 2 {
            return Ok(());
        }

        // Pass 1: a compact hot copy, per-archetype extents, per-layer counts and common looks.
        self.hot.clear();
        self.arch.clear();
        let mut count = [0usize; 32];
        let mut all = [u32::MAX; 32];
        let mut present = 0u32;
        for b in &self.bodies {
            let extent = b.shape.extent();
            let a = b.archetype.0 as usize;
            if self.arch.len() <= a {
                self.arch.resize(a + 1, (0.0, 0));
            }
            let e = &mut self.arch[a];
            e.0 = e.0.max(extent);
            e.1 += 1;
            present |= b.layer;
            if b.layer.count_ones() == 1 {
                let l = b.layer.trailing_zeros() as usize;
                count[l] += 1;
                all[l] &= b.queries();
            }
            self.hot.push(Hot {
                x: b.pos.x,
                y: b.pos.y,
                extent,
                layer: b.layer,
                looks: b.queries(),
                large: false,
            });
        }
        let mut covered = [0u32; 32];
        for own in 0..32 {
            for p in 0..32 {
                if p != own
                    && count[own] > 0
                    && count[p] > 0
                    && all[p] & (1 << own) != 0
                    && (count[p], p) < (count[own], own)
                {
                    covered[own] |= 1 << p;
                }
            }
        }

        // Pass 2: effective looks; the largest querier.
        let mut biggest = 0.0f32;
        for h in &mut self.hot {
            h.looks &= present;
            if h.layer.count_ones() == 1 {
                h.looks &= !covered[h.layer.trailing_zeros() as usize];
            }
            if h.looks != 0 {
                biggest = biggest.max(h.extent * 2.0);
            }
        }
        let cell = match fixed_cell.filter(|c| c.is_finite() && *c > 0.0) {
            Some(c) => c,
            None => {
                let typical = self.typical_cell(n);
                typical.max(biggest.min(typical * 16.0))
            }
        };

        // Pass 3: large bodies and small queriers.
        let mut small = 0;
        for (i, h) in self.hot.iter_mut().enumerate() {
            if h.extent * 2.0 > cell || !(h.x.is_finite() && h.y.is_finite()) {
                h.large = true;
                self.large.push(i as u32);
            } else {
                small += 1;
                if h.looks != 0 {
                    self.queriers.push(i as u32);
                }
            }
        }
        let sparse = self.queriers.len() * 8 < small;
        let grid = Grid::new(if sparse { self.queriers.len() } else { small }, cell);
        self.bin(&grid, sparse);

        // Binned queriers scan their 3x3 neighbourhood of buckets.
        for qi in 0..self.sorted.len() {
            let a = self.sorted[qi];
            if a.looks != 0 {
                self.neighbourhood(&grid, a.row, a.col, |bp, s, e| bp.scan(qi, &a, s, e));
                if self.stop.is_some() {
                    return self.result();
                }
            }
        }
        // Sparse: every other small body near a querier looks up the queriers around it.
        if sparse && !self.sorted.is_empty() {
            // The queriers' bounding box, grown by a cell: bodies outside it cannot touch one.
            let (mut lo, mut hi) = (Vec2::new(f32::MAX, f32::MAX), Vec2::new(f32::MIN, f32::MIN));
            for q in &self.sorted {
                lo = Vec2::new(lo.x.min(q.x), lo.y.min(q.y));
                hi = Vec2::new(hi.x.max(q.x), hi.y.max(q.y));
            }
            let (lo, hi) = (lo - Vec2::new(cell, cell), hi + Vec2::new(cell, cell));
            for j in 0..n {
                let b = self.hot[j];
                if b.large || b.looks != 0 || b.x < lo.x || b.y < lo.y || b.x > hi.x || b.y > hi.y {
                    continue;
                }
                let (row, col) = grid.place(Vec2::new(b.x, b.y));
                self.neighbourhood(&grid, row, col, |bp, s, e| {
                    bp.spend(e - s);
                    if bp.stop.is_some() {
                        return;
                    }
                    for k in s..e {
                        let q = bp.sorted[k];
                        if q.looks & b.layer == 0 {
                            continue;
                        }
                        let (dx, dy) = (b.x - q.x, b.y - q.y);
                        let reach = q.extent + b.extent;
                        if dx * dx + dy * dy < reach * reach {
                            bp.test(q.index as usize, j);
                            if bp.stop.is_some() {
                                return;
                            }
                        }
                    }
                });
                if self.stop.is_some() {
                    return self.result();
                }
            }
        }
        // Large bodies: against each other, and against the small bodies that can matter.
        for li in 0..self.large.len() {
            let i = self.large[li] as usize;
            self.spend(self.large.len() - li - 1);
            if self.stop.is_some() {
                return self.result();
            }
            for lj in li + 1..self.large.len() {
                let j = self.large[lj] as usize;
                let (a, b) = (&self.bodies[i], &self.bodies[j]);
                if a.queries() & b.layer != 0 || b.queries() & a.layer != 0 {
                    self.test(i, j);
                    if self.stop.is_some() {
                        return self.result();
                    }
                }
            }
            let (looks_i, layer_i) = (self.bodies[i].queries(), self.bodies[i].layer);
            let relevant = |bp: &Broadphase, j: usize| {
                let b = &bp.bodies[j];
                looks_i & b.layer != 0 || b.queries() & layer_i != 0
            };
            if looks_i == 0 {
                // Only bodies that look at its layer can pair with it; their effective looks
                // keep that layer (it is not covered: this body of it looks at nothing).
                self.spend(self.queriers.len());
                if self.stop.is_some() {
                    return self.result();
                }
                for qi in 0..self.queriers.len() {
                    let j = self.queriers[qi] as usize;
                    if relevant(self, j) {
                        self.test(i, j);
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
                for j in 0..n {
                    if !self.hot[j].large && relevant(self, j) {
                        self.test(i, j);
                        if self.stop.is_some() {
                            return self.result();
                        }
                    }
                }
            }
        }
        self.pairs.sort_unstable_by_key(|p| (p.lo, p.hi));
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

    /// Twice the extent covering 95% of the bodies, from the per-archetype statistics.
    fn typical_cell(&mut self, n: usize) -> f32 {
        self.arch.retain(|e| e.1 > 0);
        self.arch.sort_by(|a, b| a.0.total_cmp(&b.0));
        let need = (n * 95).div_ceil(100);
        let mut seen = 0;
        for &(extent, count) in &self.arch {
            seen += count;
            if seen >= need {
                return (extent * 2.0).max(1.0);
            }
        }
        1.0
    }

    /// Counting sort into grid buckets, as compact records: the small queriers (sparse) or
    /// every small body (dense).
    fn bin(&mut self, grid: &Grid, sparse: bool) {
        let size = grid.len();
        self.keys.clear();
        self.starts.clear();
        self.starts.resize(size + 1, 0);
        let place = |h: &Hot| {
            let (row, col) = grid.place(Vec2::new(h.x, h.y));
            row * grid.cols + col
        };
        if sparse {
            for &i in &self.queriers {
                let key = place(&self.hot[i as usize]);
                self.keys.push(key);
                self.starts[key as usize + 1] += 1;
            }
        } else {
            for h in &self.hot {
                let key = if h.large { u32::MAX } else { place(h) };
                self.keys.push(key);
                if key != u32::MAX {
                    self.starts[key as usize + 1] += 1;
                }
            }
        }
        for k in 1..=size {
            self.starts[k] += self.starts[k - 1];
        }
        self.sorted.clear();
        self.sorted
            .resize(self.starts[size] as usize, Compact::default());
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts[..size]);
        for (k, &key) in self.keys.iter().enumerate() {
            if key == u32::MAX {
                continue;
            }
            let i = if sparse { self.queriers[k] as usize } else { k };
            let h = &self.hot[i];
            let slot = &mut self.fill[key as usize];
            self.sorted[*slot as usize] = Compact {
                x: h.x,
                y: h.y,
                extent: h.extent,
                layer: h.layer,
                looks: h.looks,
                index: i as u32,
                row: key / grid.cols,
                col: key % grid.cols,
            };
            *slot += 1;
        }
    }

    /// Calls `f(self, start, end)` for the sorted ranges of the 3x3 buckets around a bucket;
    /// the three buckets of one grid row are one contiguous range unless the row wraps.
    fn neighbourhood(
        &mut self,
        grid: &Grid,
        row: u32,
        col: u32,
        mut f: impl FnMut(&mut Self, usize, usize),
    ) {
        let (cols, rows) = (grid.cols, grid.rows);
        let (cmask, rmask) = (cols - 1, rows - 1);
        for dy in [rmask, 0, 1] {
            let r = ((row + dy) & rmask) * cols;
            if col >= 1 && col < cmask {
                let s = self.starts[(r + col - 1) as usize] as usize;
                let e = self.starts[(r + col + 2) as usize] as usize;
                f(self, s, e);
            } else {
                for dx in [cmask, 0, 1] {
                    let h = (r + ((col + dx) & cmask)) as usize;
                    let (s, e) = (self.starts[h] as usize, self.starts[h + 1] as usize);
                    f(self, s, e);
                }
            }
        }
    }

    /// Tests querier `a` (at sorted position `qi`) against the sorted range `s..e`.
    #[inline]
    fn scan(&mut self, qi: usize, a: &Compact, s: usize, e: usize) {
        self.spend(e - s);
        if self.stop.is_some() {
            return;
        }
        for k in s..e {
            let b = self.sorted[k];
            if a.looks & b.layer == 0 || k == qi {
                continue;
            }
            // Found from both sides when both look: keep the lower index's find.
            if b.looks & a.layer != 0 && b.index < a.index {
                continue;
            }
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let reach = a.extent + b.extent;
            if dx * dx + dy * dy >= reach * reach {
                continue;
            }
            self.test(a.index as usize, b.index as usize);
            if self.stop.is_some() {
                return;
            }
        }
    }

    fn test(&mut self, i: usize, j: usize) {
        let (a, b) = (&self.bodies[i], &self.bodies[j]);
        let report = a.mask & b.layer != 0 || b.mask & a.layer != 0;
        let trigger = a.trigger || b.trigger;
        let push = !trigger && (a.push & b.layer != 0 || b.push & a.layer != 0);
        if !report && !push {
            return;
        }
        let Some((normal, depth)) = overlap(a, b) else {
            return;
        };
        let (lo_i, hi_i, normal) = if a.seq < b.seq {
            (i, j, normal)
        } else {
            (j, i, -normal)
        };
        let (lo, hi) = (&self.bodies[lo_i], &self.bodies[hi_i]);
        let pair = Pair {
            lo: lo.seq,
            hi: hi.seq,
            i: lo_i as u32,
            j: hi_i as u32,
            report,
            push,
            trigger,
            stay: lo.stay || hi.stay,
            normal,
            depth,
        };
        if !push_within(&mut self.pairs, pair, self.max_pairs) {
            self.stop = Some(Overflow::Pairs);
        }
    }
}

#[cfg(test)]
mod tests;
