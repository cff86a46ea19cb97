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
    large: Vec<u32>,
    pub pairs: Vec<Pair>,
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
    pub fn find_pairs(&mut self, cell: f32) {
        self.pairs.clear();
        self.large.clear();
        let n = self.bodies.len();
        if n < 2 {
            return;
        }
        let cell = if cell.is_finite() && cell > 0.0 {
            cell
        } else {
            1.0
        };
        let grid = Grid::new(n, cell);
        let size = grid.len();

        // Counting sort of bodies by bucket.
        self.keys.clear();
        self.starts.clear();
        self.starts.resize(size + 1, 0);
        for (i, b) in self.bodies.iter().enumerate() {
            if b.shape.extent() * 2.0 > cell || !b.pos.is_finite() {
                self.large.push(i as u32);
                self.keys.push(u32::MAX);
                continue;
            }
            let (row, col) = grid.place(b.pos);
            let h = row * grid.cols + col;
            self.keys.push(h);
            self.starts[h as usize + 1] += 1;
        }
        for k in 1..=size {
            self.starts[k] += self.starts[k - 1];
        }
        self.sorted.clear();
        self.sorted
            .resize(self.starts[size] as usize, Compact::default());
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts[..size]);
        for (i, &h) in self.keys.iter().enumerate() {
            if h == u32::MAX {
                continue;
            }
            let b = &self.bodies[i];
            let slot = &mut self.fill[h as usize];
            self.sorted[*slot as usize] = Compact {
                x: b.pos.x,
                y: b.pos.y,
                extent: b.shape.extent(),
                layer: b.layer,
                looks: b.queries(),
                index: i as u32,
                row: h / grid.cols,
                col: h % grid.cols,
            };
            *slot += 1;
        }

        // Grid queries in bucket order: each querier scans its 3x3 neighbourhood of buckets;
        // the three buckets of one grid row are one contiguous range unless the row wraps.
        let (cols, rows) = (grid.cols, grid.rows);
        let (cmask, rmask) = (cols - 1, rows - 1);
        for qi in 0..self.sorted.len() {
            let a = self.sorted[qi];
            if a.looks == 0 {
                continue;
            }
            for dy in [rmask, 0, 1] {
                let row = ((a.row + dy) & rmask) * cols;
                if a.col >= 1 && a.col < cmask {
                    let s = self.starts[(row + a.col - 1) as usize] as usize;
                    let e = self.starts[(row + a.col + 2) as usize] as usize;
                    self.scan(qi, &a, s, e);
                } else {
                    for dx in [cmask, 0, 1] {
                        let h = (row + ((a.col + dx) & cmask)) as usize;
                        let (s, e) = (self.starts[h] as usize, self.starts[h + 1] as usize);
                        self.scan(qi, &a, s, e);
                    }
                }
            }
        }
        // Large bodies against everything.
        for li in 0..self.large.len() {
            let i = self.large[li] as usize;
            for j in 0..n {
                if j == i {
                    continue;
                }
                let (a, b) = (&self.bodies[i], &self.bodies[j]);
                let a_looks = a.queries() & b.layer != 0;
                let b_looks = b.queries() & a.layer != 0;
                if !a_looks && !b_looks {
                    continue;
                }
                // A large pair is visited from both sides; keep one.
                if self.keys[j] == u32::MAX && j < i {
                    continue;
                }
                self.test(i, j);
            }
        }
        self.pairs.sort_unstable_by_key(|p| (p.lo, p.hi));
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
        /// The grid finds exactly the pairs an all-pairs test finds, each once, in key order.
        #[test]
        fn grid_matches_brute_force(
            specs in proptest::collection::vec(
                (-200.0f32..200.0, -200.0f32..200.0, 0.5f32..12.0, any::<bool>(), 1u32..4, 0u32..4, 0u8..20),
                0..120,
            ),
            cell in 4.0f32..40.0,
        ) {
            let bodies: Vec<Body> = specs
                .iter()
                .enumerate()
                .map(|(i, &(x, y, r, boxed, layer, mask, big))| {
                    // A few bodies far larger than a cell exercise the large list.
                    let r = if big == 0 { r * 10.0 } else { r };
                    body(i as u64 * 3 + 1, x, y, r, boxed, layer, mask)
                })
                .collect();
            let mut bp = Broadphase { bodies: bodies.clone(), ..Broadphase::default() };
            bp.find_pairs(cell);
            let found: Vec<(u64, u64)> = bp.pairs.iter().filter(|p| p.report).map(|p| (p.lo, p.hi)).collect();
            prop_assert_eq!(found, brute(&bodies));
        }
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
