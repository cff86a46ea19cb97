//! The broadphase's records and bucket grid: colliders' compact records and their runs,
//! binning by counting sort and the 3x3 neighbourhood scans.

use crate::def::{ArchetypeId, Shape};
use crate::math::{Vec2, cells8, copy_finite, floor_cells4, floor_i32, in_box8};
use crate::world::components::vectors;

/// The bucket grid: `cols * rows` buckets that tile the plane by wrapping, so neighbouring cells
/// are neighbouring buckets (grid rows are contiguous in memory) and memory stays linear in the
/// number of bodies however far they spread. Far cells that share a bucket only add candidates,
/// which the overlap test rejects.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grid {
    pub(super) inv_cell: f32,
    pub(super) cols: u32,
    pub(super) rows: u32,
}

impl Grid {
    /// At least `buckets` buckets (and 16); both sides are powers of two so wrapping is a
    /// mask.
    pub(super) fn new(buckets: usize, cell: f32) -> Grid {
        let buckets = buckets.max(16);
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

    pub(super) fn len(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    /// The bucket of each of four points, as [`place`](Self::place) gives them
    /// (`row * cols + col`).
    #[inline(always)]
    fn buckets4(&self, p: &[Vec2; 4]) -> [u32; 4] {
        let grid = (self.cols - 1, self.rows - 1, self.cols.trailing_zeros());
        floor_cells4(p, self.inv_cell, grid)
    }

    /// The bucket holding point `p` (`row * cols + col`).
    #[inline(always)]
    pub(super) fn bucket(&self, p: Vec2) -> u32 {
        let (row, col) = self.place(p);
        row * self.cols + col
    }

    /// Row and column of the bucket holding point `p`.
    pub(super) fn place(&self, p: Vec2) -> (u32, u32) {
        let cx = floor_i32(p.x * self.inv_cell);
        let cy = floor_i32(p.y * self.inv_cell);
        // Two's complement and power-of-two sides: the mask is a Euclidean remainder.
        (cy as u32 & (self.rows - 1), cx as u32 & (self.cols - 1))
    }
}

/// The cells around the queriers of a sparse search, one bit each (kept in a byte), on a
/// wrapping grid of cells whose sides are powers of two (at least 64), anchored at the corner
/// of the queriers' box. When the box fits it with a spare cell each way (up to
/// [`Marks::MOST_BITS_PER_QUERIER`] bits per querier), no two cells of the box share a bit, so
/// for a point inside the box the test is exact; points outside it, or inside a box too large
/// to fit, may share a bit with a marked cell (false positives, which the caller's overlap
/// tests reject: with few queriers, few of the bits are marked).
#[derive(Clone, Debug, Default)]
pub(super) struct Marks {
    /// A byte a cell's bit (1 where marked): testing a point's cell is one load.
    bits: Vec<u8>,
    set: Vec<u32>, // the bits marked since the last reset, which the next clears
    at: MarkGrid,
}

/// Where [`Marks`] keeps each cell's bit: the box, the cell and the grid's sides.
#[derive(Clone, Copy, Debug, Default)]
struct MarkGrid {
    inv_cell: f32,
    lo: Vec2,
    hi: Vec2,
    cmask: u32,
    rmask: u32,
    shift: u32,
    /// Whether the box is under 2^31 cells across each way, so that a point inside it is
    /// under 2^31 cells from its corner (subtraction and multiplication round monotonically):
    /// its cell is then a plain truncation ([`cells8`]), the same as [`cell`](Self::cell)'s
    /// saturating conversion, which costs three times the instructions.
    fits: bool,
}

impl MarkGrid {
    /// The cell of `p`, counted from the box's corner (saturating at 0 below it).
    #[inline(always)]
    fn cell(&self, p: Vec2) -> (u32, u32) {
        (
            ((p.x - self.lo.x) * self.inv_cell) as u32,
            ((p.y - self.lo.y) * self.inv_cell) as u32,
        )
    }

    /// The bit of cell (`cx`, `cy`).
    #[inline(always)]
    fn bit(&self, cx: u32, cy: u32) -> usize {
        (((cy & self.rmask) << self.shift) | (cx & self.cmask)) as usize
    }
}

impl Marks {
    /// Bits per querier the grid may take (and never fewer than 4096 in all).
    const MOST_BITS_PER_QUERIER: usize = 4096;

    /// Clears the marks for `queriers` queriers whose box (grown by a cell) is `lo..hi`.
    pub(super) fn reset(&mut self, queriers: usize, lo: Vec2, hi: Vec2, cell: f32) {
        let inv_cell = 1.0 / cell;
        // Cells across the box (saturating: a box beyond 2^30 cells simply wraps).
        let span = |d: f32| ((d * inv_cell) as u64).saturating_add(1).min(1 << 30);
        let (w, h) = (span(hi.x - lo.x), span(hi.y - lo.y));
        let cap =
            (queriers.saturating_mul(Self::MOST_BITS_PER_QUERIER)).clamp(4096, 1 << 24) as u64;
        let side = |cells: u64| (cells + 2).next_power_of_two().max(64);
        let (mut cols, mut rows) = (side(w), side(h));
        while cols * rows > cap {
            if cols >= rows {
                cols /= 2;
            } else {
                rows /= 2;
            }
        }
        self.at = MarkGrid {
            inv_cell,
            lo,
            hi,
            cmask: cols as u32 - 1,
            rmask: rows as u32 - 1,
            shift: cols.trailing_zeros(),
            // The largest value a point inside the box gives, by the same operations.
            fits: (hi.x - lo.x) * inv_cell < 2_147_483_520.0
                && (hi.y - lo.y) * inv_cell < 2_147_483_520.0,
        };
        for &b in &self.set {
            self.bits[b as usize] = 0;
        }
        self.set.clear();
        self.bits.resize((cols * rows) as usize, 0);
    }

    /// Marks the 3x3 cells around the cell of `p` (a querier: at least a cell inside the box).
    pub(super) fn mark_around(&mut self, p: Vec2) {
        let (cx, cy) = self.at.cell(p);
        for dy in [u32::MAX, 0, 1] {
            for dx in [u32::MAX, 0, 1] {
                let b = self.at.bit(cx.wrapping_add(dx), cy.wrapping_add(dy));
                if std::mem::replace(&mut self.bits[b], 1) == 0 {
                    self.set.push(b as u32);
                }
            }
        }
    }

    /// Calls `near(k)` for each `pos[k]` inside the box in a marked cell, in order: every
    /// point in a cell around a querier (the box holds them all), and no other point of a box
    /// that fits. The box test takes eight points at a time without a branch (points inside
    /// and outside a box that covers part of a crowd come in no order); only the points inside
    /// go on to their cell's bit, the eight cells found at once in packed floats where any is
    /// inside (in a box that fits).
    #[inline(always)]
    pub(super) fn each_near(&self, pos: &[Vec2], near: impl FnMut(usize)) {
        let at = self.at;
        if at.fits {
            let grid = (at.cmask, at.rmask, at.shift);
            self.each_near_by(pos, near, |p| cells8(p, at.lo, at.inv_cell, grid));
        } else {
            self.each_near_by(pos, near, |p| {
                p.map(|p| {
                    let (cx, cy) = at.cell(p);
                    at.bit(cx, cy) as u32
                })
            });
        }
    }

    /// [`each_near`](Self::each_near), finding eight points' cell bits with `cells8`.
    #[inline(always)]
    fn each_near_by(
        &self,
        pos: &[Vec2],
        mut near: impl FnMut(usize),
        cells8: impl Fn(&[Vec2; 8]) -> [u32; 8],
    ) {
        // Locals, which stay in registers whatever `near` writes.
        let (at, bits) = (self.at, &self.bits[..]);
        let (lo, hi) = (at.lo, at.hi);
        // A cell's byte (1 where marked). Every cell `cells8` and `bit` give is masked into
        // the grid, whose size is a power of two (see `reset`), outside the box too: `& last`
        // changes no index and spares a bounds check a point.
        let Some(last) = bits.len().checked_sub(1) else {
            return;
        };
        let bits = &bits[..=last];
        let marked = |b: u32| u32::from(bits[b as usize & last]);
        // Whole chunks of eight by packed compares, then the rest padded with a point
        // outside every box (NaN).
        let (whole, rest) = pos.as_chunks::<8>();
        let mut last = [Vec2::new(f32::NAN, f32::NAN); 8];
        last[..rest.len()].copy_from_slice(rest);
        let chunks = whole.iter().map(|chunk| in_box8(chunk, lo, hi));
        let rest = in_box8(&last, lo, hi);
        for (c, mut inside) in chunks.chain(std::iter::once(rest)).enumerate() {
            if inside == 0 {
                continue;
            }
            // Inside the box: finite, and at least its corner. The eight cells' marks are
            // gathered without a branch a point (which of a crowd's points lie in marked cells
            // follows no pattern a branch predicts), then only the marked ones visited.
            let cells = cells8(whole.get(c).unwrap_or(&last));
            let mut hits = 0u32;
            for (j, &cell) in cells.iter().enumerate() {
                hits |= marked(cell) << j;
            }
            inside &= hits;
            while inside != 0 {
                let j = inside.trailing_zeros() as usize;
                inside &= inside - 1;
                near(c * 8 + j);
            }
        }
    }
}

/// What the grid loop needs of a body, stored in bucket order for locality.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Compact {
    pub x: f32,
    pub y: f32,
    /// Collider index.
    pub index: u32,
    /// Its run's index (its extent, layer and looks are the run's).
    pub run: u32,
}

impl Compact {
    #[inline(always)]
    pub fn pos(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
}

/// Twice the extent covering 95% of the bodies, from the per-archetype statistics.
pub(super) fn typical_cell(arch: &mut Vec<(f32, usize)>, n: usize) -> f32 {
    arch.retain(|e| e.1 > 0);
    arch.sort_by(|a, b| a.0.total_cmp(&b.0));
    let need = (n * 95).div_ceil(100);
    let mut seen = 0;
    for &(extent, count) in arch.iter() {
        seen += count;
        if seen >= need {
            return (extent * 2.0).max(1.0);
        }
    }
    1.0
}

/// Bodies binned by bucket: a counting sort into compact records.
#[derive(Clone, Debug, Default)]
pub(super) struct Bins {
    /// Bucket of each binned body (`u32::MAX` for large bodies): of each querier in a sparse
    /// grid; of each collider, the first of them, in a dense one (entries past them are
    /// earlier ticks', overwritten rather than cleared).
    keys: Vec<u32>,
    /// Where each bucket's records start in `sorted` (and the end, last).
    pub starts: Vec<u32>,
    /// Compact copies of the binned bodies, sorted by bucket: the first `binned` (those past
    /// them are earlier ticks', kept so a tick overwrites them instead of clearing first).
    sorted: Vec<Compact>,
    binned: usize,
}

/// Up to nine ranges of sorted records (see [`Bins::neighbourhood`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ranges {
    ranges: [(u32, u32); 9],
    len: usize,
}

impl Ranges {
    pub fn push(&mut self, s: u32, e: u32) {
        self.ranges[self.len] = (s, e);
        self.len += 1;
    }

    /// The ranges as `start..end` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.ranges[..self.len]
            .iter()
            .map(|&(s, e)| (s as usize, e as usize))
    }
}

impl Bins {
    /// Counting sort into grid buckets, as compact records: the small queriers (sparse) or
    /// every small body (dense; small for cells of size `cell`). Each bucket's records keep
    /// the order of the colliders.
    pub(super) fn bin(
        &mut self,
        grid: &Grid,
        pos: &[Vec2],
        runs: &[Run],
        queriers: &[Member],
        sparse: bool,
        cell: f32,
    ) {
        let size = grid.len();
        self.starts.clear();
        self.starts.resize(size + 1, 0);
        // Counts.
        if sparse {
            self.keys.clear();
            for q in queriers {
                let key = grid.bucket(pos[q.index as usize]);
                self.keys.push(key);
                self.starts[key as usize] += 1;
            }
        } else {
            self.count_dense(grid, pos, runs, cell);
        }
        // Each bucket's end; then filling backwards moves each down to where the bucket's
        // records start (`starts[b]`), its end being `starts[b + 1]`.
        let mut sum = 0;
        for start in &mut self.starts[..size] {
            sum += *start;
            *start = sum;
        }
        self.starts[size] = sum;
        self.binned = sum as usize;
        if self.sorted.len() < self.binned {
            self.sorted.resize(self.binned, Compact::default());
        }
        let (starts, sorted) = (&mut self.starts[..], &mut self.sorted[..self.binned]);
        let mut put = |key: u32, i: usize, p: Vec2, run: usize| {
            let slot = &mut starts[key as usize];
            *slot -= 1;
            sorted[*slot as usize] = Compact {
                x: p.x,
                y: p.y,
                index: i as u32,
                run: run as u32,
            };
        };
        if sparse {
            for (q, &key) in queriers.iter().zip(&self.keys).rev() {
                let i = q.index as usize;
                put(key, i, pos[i], q.run as usize);
            }
        } else {
            // A key per body, in collider order; a run of small bodies has no large one.
            for (ri, r) in runs.iter().enumerate().rev() {
                let keys = self.keys[r.range()].iter().zip(&pos[r.range()]);
                let at = r.start as usize;
                if r.all_small(cell) {
                    for (k, (&key, &p)) in keys.enumerate().rev() {
                        put(key, at + k, p, ri);
                    }
                    continue;
                }
                for (k, (&key, &p)) in keys.enumerate().rev() {
                    if key != u32::MAX {
                        put(key, at + k, p, ri);
                    }
                }
            }
        }
    }

    /// The counts of a dense grid ([`bin`](Self::bin)): a key per collider, in collider order
    /// (`u32::MAX`: a large body), and each small body counted in its bucket.
    #[inline(always)]
    fn count_dense(&mut self, grid: &Grid, pos: &[Vec2], runs: &[Run], cell: f32) {
        if self.keys.len() < pos.len() {
            self.keys.resize(pos.len(), u32::MAX);
        }
        let starts = &mut self.starts[..];
        for r in runs {
            let (pos, keys) = (&pos[r.range()], &mut self.keys[r.range()]);
            if r.all_small(cell) {
                // A run of small bodies: all binned, four at a time.
                let (fours, rest) = pos.as_chunks::<4>();
                let (key_fours, key_rest) = keys.as_chunks_mut::<4>();
                for (p, k) in fours.iter().zip(key_fours) {
                    *k = grid.buckets4(p);
                    for &key in k.iter() {
                        starts[key as usize] += 1;
                    }
                }
                for (&p, k) in rest.iter().zip(key_rest) {
                    *k = grid.bucket(p);
                    starts[*k as usize] += 1;
                }
                continue;
            }
            for (&p, k) in pos.iter().zip(keys) {
                *k = u32::MAX;
                if small_body(r, p, cell) {
                    *k = grid.bucket(p);
                    starts[*k as usize] += 1;
                }
            }
        }
    }

    /// The binned bodies' records, sorted by bucket.
    #[inline(always)]
    pub(super) fn sorted(&self) -> &[Compact] {
        &self.sorted[..self.binned]
    }

    /// The sorted ranges of the 3x3 buckets around a bucket; the three buckets of one grid row
    /// are one contiguous range unless the row wraps.
    pub(super) fn neighbourhood(&self, grid: &Grid, row: u32, col: u32) -> Ranges {
        let (cols, rows) = (grid.cols, grid.rows);
        let (cmask, rmask) = (cols - 1, rows - 1);
        let mut out = Ranges::default();
        for dy in [rmask, 0, 1] {
            let r = ((row + dy) & rmask) * cols;
            if col >= 1 && col < cmask {
                let s = self.starts[(r + col - 1) as usize];
                let e = self.starts[(r + col + 2) as usize];
                out.push(s, e);
            } else {
                for dx in [cmask, 0, 1] {
                    let h = (r + ((col + dx) & cmask)) as usize;
                    out.push(self.starts[h], self.starts[h + 1]);
                }
            }
        }
        out
    }
}

/// Consecutive colliders `start..start + len` of one archetype, shape, layer and raw looks:
/// what the passes over every collider read of a body besides its position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub start: u32,
    pub len: u32,
    pub archetype: ArchetypeId,
    pub shape: Shape,
    /// The shape's extent.
    pub extent: f32,
    pub layer: u32,
    /// Raw looks: mask and push.
    pub raw: u32,
    /// Every position is finite.
    pub finite: bool,
    /// Effective looks (see the plan).
    pub looks: u32,
}

impl Run {
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }

    /// Whether every body of the run is small for cells of size `cell` (finite, and no wider
    /// than a cell): all of them are binned.
    #[inline(always)]
    pub fn all_small(&self, cell: f32) -> bool {
        self.finite && self.extent * 2.0 <= cell
    }

    /// A run of one collider, `index`, at `pos`.
    #[inline]
    pub(super) fn new(
        index: u32,
        archetype: ArchetypeId,
        pos: Vec2,
        shape: Shape,
        layer: u32,
        raw: u32,
    ) -> Run {
        Run {
            start: index,
            len: 1,
            archetype,
            shape,
            extent: shape.extent(),
            layer,
            raw,
            finite: pos.is_finite(),
            looks: 0,
        }
    }

    /// Whether a collider of this kind continues the run.
    #[inline(always)]
    pub(super) fn takes(&self, archetype: ArchetypeId, shape: Shape, layer: u32, raw: u32) -> bool {
        self.archetype == archetype && self.shape == shape && self.layer == layer && self.raw == raw
    }
}

/// A collider by index and the index of its run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Member {
    pub index: u32,
    pub run: u32,
}

/// A near body of a sparse search (see `Broadphase::plan`) with its position, copied as the
/// plan reads the positions in order: the search then reads its near bodies in order too,
/// where looking each one's position up by index read a crowd's positions scattered.
///
/// Invariant: `pos` is the broadphase's position of collider `member.index` this tick.
#[derive(Clone, Copy, Debug)]
pub(super) struct NearBody {
    pub member: Member,
    pub pos: Vec2,
}

/// Records of consecutive colliders filled apart from the broadphase (see
/// `Broadphase::stretches`): every slot is filled, in order.
pub(crate) struct Stretch<'a> {
    pos: &'a mut [Vec2],
    start: u32,
    next: usize,
    /// The run being added to, and those before it.
    cur: Option<Run>,
    runs: Vec<Run>,
}

impl<'a> Stretch<'a> {
    pub(super) fn new(pos: &'a mut [Vec2], start: u32) -> Stretch<'a> {
        Stretch {
            pos,
            start,
            next: 0,
            cur: None,
            runs: Vec::new(),
        }
    }

    /// Adds the next collider (as `Broadphase::add`).
    #[inline(always)]
    pub fn add(&mut self, archetype: ArchetypeId, pos: Vec2, shape: Shape, layer: u32, looks: u32) {
        match &mut self.cur {
            Some(r) if r.takes(archetype, shape, layer, looks) => {
                r.len += 1;
                r.finite &= pos.is_finite();
            }
            cur => {
                let index = self.start + self.next as u32;
                let next = Run::new(index, archetype, pos, shape, layer, looks);
                if let Some(done) = cur.replace(next) {
                    self.runs.push(done);
                }
            }
        }
        self.put(pos);
    }

    /// Adds the next collider, of the same archetype, shape, layer and looks as the last one
    /// added (which there is).
    #[inline(always)]
    pub fn same(&mut self, pos: Vec2) {
        debug_assert!(self.cur.is_some(), "a collider was added before");
        if let Some(r) = &mut self.cur {
            r.len += 1;
            r.finite &= pos.is_finite();
        }
        self.put(pos);
    }

    /// Adds the next colliders, all of one archetype, shape, layer and looks, at `pos`.
    #[inline]
    pub fn extend(
        &mut self,
        archetype: ArchetypeId,
        shape: Shape,
        layer: u32,
        looks: u32,
        pos: &[crate::world::components::Position],
    ) {
        let Some((head, rest)) = pos.split_first() else {
            return;
        };
        self.add(archetype, head.0, shape, layer, looks);
        let to = self.next + rest.len();
        debug_assert!(to <= self.pos.len(), "a stretch holds its colliders");
        let Some(slots) = self.pos.get_mut(self.next..to) else {
            return;
        };
        let finite = copy_finite(slots, vectors(rest));
        if let Some(r) = &mut self.cur {
            r.len += rest.len() as u32;
            r.finite &= finite;
        }
        self.next = to;
    }

    #[inline(always)]
    fn put(&mut self, pos: Vec2) {
        debug_assert!(self.next < self.pos.len(), "a stretch holds its colliders");
        if let Some(slot) = self.pos.get_mut(self.next) {
            *slot = pos;
        }
        self.next += 1;
    }

    /// The runs of the colliders added, in order.
    pub fn finish(mut self) -> Vec<Run> {
        self.runs.extend(self.cur.take());
        self.runs
    }
}

/// Whether a collider of run `r` at `p` is small for cells of size `cell`: finite, and fits a
/// cell (else it is a large body, tested against everything).
#[inline(always)]
pub(crate) fn small_body(r: &Run, p: Vec2, cell: f32) -> bool {
    // A NaN extent is small (it never exceeds the cell).
    (r.extent * 2.0).partial_cmp(&cell) != Some(std::cmp::Ordering::Greater) && p.is_finite()
}
