//! The broadphase's records and bucket grid: colliders' compact records and their runs,
//! binning by counting sort and the 3x3 neighbourhood scans.

use crate::def::{ArchetypeId, Shape};
use crate::limits::room;
use crate::math::{Vec2, all_finite, copy_finite, floor_cells4, floor_i32};
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

/// What [`Bins::bin`] bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binning {
    /// A sparse search's small queriers.
    Queriers,
    /// Every small body (a dense search); `kinds`: and its buckets' [`Bins::kinds`].
    Every { kinds: bool },
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
    /// Per bucket of a dense grid binned with them (see [`bin`](Self::bin)): its bodies'
    /// layers (high word) and effective looks (low word), ORed, so that a bucket scan passes
    /// over a bucket whose bodies neither look for nor are looked for by any body of the
    /// buckets it is scanned with (700 bullets that look only for the player, scanned among
    /// themselves, find no pair but the player's). Empty for every other search.
    pub kinds: Vec<u64>,
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
    /// every small body (dense; small for cells of size `cell`), as `binning` says, their
    /// positions held in `pos` (see [`Run::at`]). Each bucket's records keep the order of the
    /// colliders.
    pub(super) fn bin(
        &mut self,
        grid: &Grid,
        pos: &[Vec2],
        runs: &[Run],
        queriers: &[Member],
        binning: Binning,
        cell: f32,
    ) {
        let sparse = binning == Binning::Queriers;
        let size = grid.len();
        self.starts.clear();
        self.starts.resize(size + 1, 0);
        // Counts.
        if sparse {
            self.keys.clear();
            for q in queriers {
                let key = grid.bucket(q.pos(runs, pos));
                self.keys.push(key);
                self.starts[key as usize] += 1;
            }
        } else {
            self.count_dense(grid, pos, runs, cell);
        }
        self.kinds.clear();
        if binning == (Binning::Every { kinds: true }) {
            self.fill_kinds(runs, size);
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
                put(key, q.index as usize, q.pos(runs, pos), q.run as usize);
            }
        } else {
            // A key per body, in collider order; a run of small bodies has no large one.
            for (ri, r) in runs.iter().enumerate().rev() {
                let keys = self.keys[r.range()].iter().zip(&pos[r.held()]);
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

    /// The [`kinds`](Self::kinds) of a dense grid's `size` buckets, from each collider's key
    /// (apart from the binning's loops, whose code they would crowd).
    #[inline(never)]
    fn fill_kinds(&mut self, runs: &[Run], size: usize) {
        room(&mut self.kinds, size);
        self.kinds.resize(size, 0);
        for r in runs {
            let kind = u64::from(r.layer) << 32 | u64::from(r.looks);
            for &key in &self.keys[r.range()] {
                // A large body's key (`u32::MAX`) is no bucket.
                if let Some(k) = self.kinds.get_mut(key as usize) {
                    *k |= kind;
                }
            }
        }
    }

    /// The counts of a dense grid ([`bin`](Self::bin)): a key per collider, in collider order
    /// (`u32::MAX`: a large body), and each small body counted in its bucket.
    #[inline(always)]
    fn count_dense(&mut self, grid: &Grid, pos: &[Vec2], runs: &[Run], cell: f32) {
        // The runs take every collider, in order.
        let count = runs.last().map_or(0, |r| r.range().end);
        if self.keys.len() < count {
            self.keys.resize(count, u32::MAX);
        }
        let starts = &mut self.starts[..];
        for r in runs {
            let (pos, keys) = (&pos[r.held()], &mut self.keys[r.range()]);
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
///
/// Invariant: unless `at` is [`LEFT`], the broadphase's positions `at..at + len` are its
/// colliders', in order; where it is `LEFT`, they lie in its span's column (see [`Span`]) and
/// the broadphase holds none of them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    pub start: u32,
    pub len: u32,
    /// Where its first collider's position is in the broadphase's, or [`LEFT`].
    pub at: u32,
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

    /// Where its positions are in the broadphase's; only for a run that is held (not
    /// [`LEFT`]: on a 32-bit target its range would wrap into other runs' slots).
    #[inline(always)]
    pub fn held(&self) -> std::ops::Range<usize> {
        debug_assert!(
            self.at != LEFT,
            "a run left in its column is read where it is"
        );
        self.at as usize..self.at as usize + self.len as usize
    }

    /// Its collider `index`'s position among `pos`, the broadphase's positions (the run is
    /// held: see [`held`](Self::held)).
    #[inline(always)]
    pub(super) fn pos(&self, index: u32, pos: &[Vec2]) -> Vec2 {
        debug_assert!(
            self.at != LEFT,
            "a run left in its column is read where it is"
        );
        pos[self.at as usize + (index - self.start) as usize]
    }

    /// Whether every body of the run is small for cells of size `cell` (finite, and no wider
    /// than a cell): all of them are binned.
    #[inline(always)]
    pub fn all_small(&self, cell: f32) -> bool {
        self.finite && self.extent * 2.0 <= cell
    }

    /// A run of one collider, `index`, at `pos`, its position held at `at` (or [`LEFT`]).
    #[inline]
    pub(super) fn new(
        index: u32,
        at: u32,
        archetype: ArchetypeId,
        pos: Vec2,
        shape: Shape,
        layer: u32,
        raw: u32,
    ) -> Run {
        Run {
            start: index,
            len: 1,
            at,
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

impl Member {
    /// Its position among `pos`, the broadphase's positions (its run, of `runs`, is held).
    #[inline(always)]
    pub(super) fn pos(self, runs: &[Run], pos: &[Vec2]) -> Vec2 {
        runs[self.run as usize].pos(self.index, pos)
    }
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

/// Consecutive colliders a fused motion pass recorded from one archetype (see
/// `Broadphase::stretches`): collider indices `start..start + len` are rows `0..len` of the
/// archetype placed `arch`th among the world's (as `Ecs::archetypes_placed` gives them).
///
/// Invariant: where `left`, their positions were left in that archetype's position column
/// and the broadphase holds none of them (their runs' `at` is [`LEFT`]) until the plan copies
/// a run's in (`Broadphase::bring`); else it reads them in the column. Every run of colliders
/// lies wholly inside one span or outside them all: two hecs archetypes of one declared
/// archetype (its rows with and without a behaviour of their own, say) make two spans side
/// by side whose colliders a run would otherwise take as one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub start: u32,
    pub len: u32,
    pub arch: u32,
    pub left: bool,
}

/// A run's `at` while its positions are left in its span's column (see [`Run`]).
pub(super) const LEFT: u32 = u32::MAX;

/// Records of consecutive colliders filled apart from the broadphase (see
/// `Broadphase::stretches`): every slot of `pos` is filled, in order, unless the positions
/// stay in their column (`keep` false: then `pos` is empty and only the runs are recorded).
pub(crate) struct Stretch<'a> {
    /// The broadphase's positions from `at` on, one per collider where `keep`.
    pos: &'a mut [Vec2],
    start: u32,
    /// Where `pos` starts in the broadphase's positions, or [`LEFT`].
    at: u32,
    next: usize,
    keep: bool,
    /// The run being added to, and those before it.
    cur: Option<Run>,
    runs: Vec<Run>,
}

impl<'a> Stretch<'a> {
    /// Colliders from `start` on, their positions held from `at` in `pos` (or, where `at` is
    /// [`LEFT`], left in their column), their runs listed in `runs` (emptied first: a list
    /// kept for its room).
    pub(super) fn new(pos: &'a mut [Vec2], start: u32, at: u32, mut runs: Vec<Run>) -> Stretch<'a> {
        runs.clear();
        Stretch {
            pos,
            start,
            at,
            next: 0,
            keep: at != LEFT,
            cur: None,
            runs,
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
                let at = if self.keep {
                    self.at + self.next as u32
                } else {
                    LEFT
                };
                let next = Run::new(index, at, archetype, pos, shape, layer, looks);
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
    /// `finite`: whether every coordinate of `pos` is finite, where the caller found it on the
    /// way (a step that moved them); `None`, read here.
    #[inline]
    pub fn extend(
        &mut self,
        archetype: ArchetypeId,
        shape: Shape,
        layer: u32,
        looks: u32,
        pos: &[crate::world::components::Position],
        finite: Option<bool>,
    ) {
        let Some((head, rest)) = pos.split_first() else {
            return;
        };
        debug_assert!(
            finite.is_none_or(|f| f == pos.iter().all(|p| p.0.is_finite())),
            "the caller's word on the positions' finiteness is true"
        );
        self.add(archetype, head.0, shape, layer, looks);
        let to = self.next + rest.len();
        let finite = if self.keep {
            debug_assert!(to <= self.pos.len(), "a stretch holds its colliders");
            let Some(slots) = self.pos.get_mut(self.next..to) else {
                return;
            };
            match finite {
                Some(f) => {
                    slots.copy_from_slice(vectors(rest));
                    f
                }
                None => copy_finite(slots, vectors(rest)),
            }
        } else {
            finite.unwrap_or_else(|| all_finite(vectors(rest)))
        };
        if let Some(r) = &mut self.cur {
            r.len += rest.len() as u32;
            r.finite &= finite;
        }
        self.next = to;
    }

    #[inline(always)]
    fn put(&mut self, pos: Vec2) {
        debug_assert!(
            !self.keep || self.next < self.pos.len(),
            "a stretch holds its colliders"
        );
        if self.keep
            && let Some(slot) = self.pos.get_mut(self.next)
        {
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
