//! Broadphase, narrow phase and the contact cache.
//!
//! - **Broadphase**: a uniform grid stored as a spatial hash rebuilt every tick with a counting
//!   sort (no per-cell allocation; memory is linear in the number of colliders). Each collider is
//!   binned by its centre; one whose diameter exceeds a cell goes to a short "large" list tested
//!   against everything. Only colliders with a non-empty mask or push set query neighbours, so
//!   100k bodies that do not look for each other cost one pass to bin.
//! - **Pairs**: a pair is reported when either side's mask contains the other's layer; it is
//!   pushed apart (half the penetration each) when either side's push set contains the other's
//!   layer and neither is a trigger. A pair is a trigger contact when either side is a trigger.
//! - **Canonical order**: pairs are keyed by creation sequences `(lo, hi)` with `lo < hi` and
//!   processed in ascending key order; events of each kind come out in that order, and push
//!   corrections accumulate in that order, so results never depend on storage order.
//! - **Contact cache**: the sorted keys of last tick's reported contacts. Merging with this tick's
//!   gives enter (new), stay (kept, only if either side asked for stay events) and exit (gone
//!   while both entities live). Destroyed entities leave the cache at Commit without an exit.

use crate::def::{ArchetypeId, Shape};
use crate::math::Vec2;

/// One collider as the broadphase sees it this tick.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Body {
    pub entity: hecs::Entity,
    pub seq: u64,
    pub archetype: ArchetypeId,
    pub tags: u64,
    pub pos: Vec2,
    pub shape: Shape,
    pub layer: u32,
    pub mask: u32,
    pub push: u32,
    pub trigger: bool,
    pub stay: bool,
}

impl Body {
    fn queries(&self) -> u32 {
        self.mask | self.push
    }
}

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

/// A contact remembered from the previous tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ContactKey {
    pub lo: u64,
    pub hi: u64,
    pub trigger: bool,
    pub stay: bool,
}

/// Reported contacts of the last completed Motion phase, sorted by `(lo, hi)`.
#[derive(Clone, Debug, Default)]
pub struct ContactCache {
    pub(crate) keys: Vec<ContactKey>,
}

impl ContactCache {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> &[ContactKey] {
        &self.keys
    }

    /// Drops every contact of a destroyed entity (no exit is fabricated).
    pub(crate) fn remove_destroyed(&mut self, destroyed: &impl Fn(u64) -> bool) {
        self.keys.retain(|k| !destroyed(k.lo) && !destroyed(k.hi));
    }
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
    pub pairs: Vec<Pair>,
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

/// Overlap test; returns the normal from `a` to `b` and the penetration depth.
fn overlap(a: &Body, b: &Body) -> Option<(Vec2, f32)> {
    let d = b.pos - a.pos;
    match (a.shape, b.shape) {
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            let r = ra + rb;
            let dist2 = d.length_squared();
            if dist2 >= r * r {
                return None;
            }
            let dist = dist2.sqrt();
            let normal = if dist > 0.0 {
                Vec2::new(d.x / dist, d.y / dist)
            } else {
                Vec2::new(1.0, 0.0)
            };
            Some((normal, r - dist))
        }
        (Shape::Box { half: ha }, Shape::Box { half: hb }) => {
            let ox = ha.x + hb.x - d.x.abs();
            let oy = ha.y + hb.y - d.y.abs();
            if ox <= 0.0 || oy <= 0.0 {
                return None;
            }
            if ox < oy {
                Some((Vec2::new(if d.x < 0.0 { -1.0 } else { 1.0 }, 0.0), ox))
            } else {
                Some((Vec2::new(0.0, if d.y < 0.0 { -1.0 } else { 1.0 }), oy))
            }
        }
        (Shape::Circle { radius }, Shape::Box { half }) => circle_box(a.pos, radius, b.pos, half),
        (Shape::Box { half }, Shape::Circle { radius }) => {
            circle_box(b.pos, radius, a.pos, half).map(|(n, depth)| (-n, depth))
        }
    }
}

/// Circle at `c` against box at `b`; the normal points from the circle to the box.
fn circle_box(c: Vec2, r: f32, b: Vec2, half: Vec2) -> Option<(Vec2, f32)> {
    let local = c - b;
    let closest = Vec2::new(
        local.x.clamp(-half.x, half.x),
        local.y.clamp(-half.y, half.y),
    );
    let inside = closest == local;
    if inside {
        // Centre inside the box: leave along the axis of least penetration.
        let ox = half.x - local.x.abs();
        let oy = half.y - local.y.abs();
        return if ox < oy {
            Some((
                Vec2::new(if local.x < 0.0 { 1.0 } else { -1.0 }, 0.0),
                ox + r,
            ))
        } else {
            Some((
                Vec2::new(0.0, if local.y < 0.0 { 1.0 } else { -1.0 }),
                oy + r,
            ))
        };
    }
    let d = local - closest;
    let dist2 = d.length_squared();
    if dist2 >= r * r {
        return None;
    }
    let dist = dist2.sqrt();
    Some((Vec2::new(-d.x / dist, -d.y / dist), r - dist))
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
    pub fn find_pairs(&mut self, fixed_cell: Option<f32>) {
        self.pairs.clear();
        self.large.clear();
        self.queriers.clear();
        let n = self.bodies.len();
        if n < 2 {
            return;
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
                    for k in s..e {
                        let q = bp.sorted[k];
                        if q.looks & b.layer == 0 {
                            continue;
                        }
                        let (dx, dy) = (b.x - q.x, b.y - q.y);
                        let reach = q.extent + b.extent;
                        if dx * dx + dy * dy < reach * reach {
                            bp.test(q.index as usize, j);
                        }
                    }
                });
            }
        }
        // Large bodies: against each other, and against the small bodies that can matter.
        for li in 0..self.large.len() {
            let i = self.large[li] as usize;
            for lj in li + 1..self.large.len() {
                let j = self.large[lj] as usize;
                let (a, b) = (&self.bodies[i], &self.bodies[j]);
                if a.queries() & b.layer != 0 || b.queries() & a.layer != 0 {
                    self.test(i, j);
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
                for qi in 0..self.queriers.len() {
                    let j = self.queriers[qi] as usize;
                    if relevant(self, j) {
                        self.test(i, j);
                    }
                }
            } else {
                for j in 0..n {
                    if !self.hot[j].large && relevant(self, j) {
                        self.test(i, j);
                    }
                }
            }
        }
        self.pairs.sort_unstable_by_key(|p| (p.lo, p.hi));
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
        self.pairs.push(Pair {
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
        });
    }

    /// Positional corrections from push pairs, accumulated in canonical pair order:
    /// `(body index, offset)`.
    pub fn push_corrections(&self) -> Vec<(u32, Vec2)> {
        let mut out: Vec<(u32, Vec2)> = Vec::new();
        for p in self.pairs.iter().filter(|p| p.push) {
            let half = p.normal * (p.depth * 0.5);
            out.push((p.i, -half));
            out.push((p.j, half));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn body(seq: u64, x: f32, y: f32, r: f32, boxed: bool, layer: u32, mask: u32) -> Body {
        Body {
            entity: hecs::Entity::DANGLING,
            seq,
            archetype: ArchetypeId(0),
            tags: 0,
            pos: Vec2::new(x, y),
            shape: if boxed {
                Shape::Box {
                    half: Vec2::new(r, r * 0.5),
                }
            } else {
                Shape::Circle { radius: r }
            },
            layer,
            mask,
            push: 0,
            trigger: false,
            stay: false,
        }
    }

    fn brute(bodies: &[Body]) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                let (a, b) = (&bodies[i], &bodies[j]);
                let looks = a.mask & b.layer != 0 || b.mask & a.layer != 0;
                if looks && overlap(a, b).is_some() {
                    out.push((a.seq.min(b.seq), a.seq.max(b.seq)));
                }
            }
        }
        out.sort_unstable();
        out
    }

    proptest! {
        /// The grid finds exactly the pairs an all-pairs test finds, each once, in key order;
        /// with a chosen cell or the automatic one, with mixed masks or one mask per layer (so
        /// whole layers leave their queries to a smaller layer).
        #[test]
        fn grid_matches_brute_force(
            specs in proptest::collection::vec(
                (-200.0f32..200.0, -200.0f32..200.0, 0.5f32..12.0, any::<bool>(), 0u32..4, 0u32..16, 0u8..20),
                0..120,
            ),
            layer_masks in proptest::collection::vec(0u32..16, 4),
            uniform in any::<bool>(),
            cell in proptest::option::of(4.0f32..40.0),
        ) {
            let bodies: Vec<Body> = specs
                .iter()
                .enumerate()
                .map(|(i, &(x, y, r, boxed, layer, mask, big))| {
                    // A few bodies far larger than a cell exercise the large list.
                    let r = if big == 0 { r * 10.0 } else { r };
                    let (layer, mask) = if uniform {
                        (1 << layer, layer_masks[layer as usize])
                    } else {
                        (layer.max(1), mask)
                    };
                    let mut b = body(i as u64 * 3 + 1, x, y, r, boxed, layer, mask);
                    b.archetype = ArchetypeId((i % 3) as u16);
                    b
                })
                .collect();
            let mut bp = Broadphase { bodies: bodies.clone(), ..Broadphase::default() };
            bp.find_pairs(cell);
            let found: Vec<(u64, u64)> = bp.pairs.iter().filter(|p| p.report).map(|p| (p.lo, p.hi)).collect();
            prop_assert_eq!(found, brute(&bodies));
        }
    }

    #[test]
    fn a_few_queriers_among_a_crowd_find_the_same_pairs() {
        // 2000 bodies that look at nothing, three that look at them, two large walls.
        let mut rng = fastrand::Rng::with_seed(9);
        let mut bodies = Vec::new();
        for i in 0..2000u64 {
            bodies.push(body(
                i + 10,
                rng.f32() * 400.0 - 200.0,
                rng.f32() * 400.0 - 200.0,
                3.0,
                false,
                2,
                0,
            ));
        }
        for (k, (x, y)) in [(0.0, 0.0), (50.0, 50.0), (-120.0, 80.0)]
            .into_iter()
            .enumerate()
        {
            let mut q = body(k as u64 + 1, x, y, 10.0, false, 1, 2 | 4);
            q.archetype = ArchetypeId(1);
            bodies.push(q);
        }
        for (k, x) in [-60.0f32, 90.0].into_iter().enumerate() {
            let mut w = body(5000 + k as u64, x, 0.0, 40.0, true, 4, 0);
            w.archetype = ArchetypeId(2);
            bodies.push(w);
        }
        let mut bp = Broadphase {
            bodies: bodies.clone(),
            ..Broadphase::default()
        };
        bp.find_pairs(None);
        let found: Vec<(u64, u64)> = bp
            .pairs
            .iter()
            .filter(|p| p.report)
            .map(|p| (p.lo, p.hi))
            .collect();
        let expected = brute(&bodies);
        assert!(
            expected.len() > 20,
            "the scene has contacts: {}",
            expected.len()
        );
        assert_eq!(found, expected);
    }

    #[test]
    fn circle_box_normals_point_from_a_to_b() {
        let c = body(1, 0.0, 0.0, 5.0, false, 1, 1);
        let b = body(2, 6.0, 0.0, 4.0, true, 1, 1); // half (4, 2)
        let (n, depth) = overlap(&c, &b).unwrap();
        assert_eq!(n, Vec2::new(1.0, 0.0));
        assert_eq!(depth, 3.0);
        let (n2, d2) = overlap(&b, &c).unwrap();
        assert_eq!((n2, d2), (Vec2::new(-1.0, 0.0), 3.0));
    }
}
