//! The cells around a sparse search's queriers ([`Marks`]): which of the many bodies that do
//! not look lie near one that does.

use crate::collision::grid::NearBody;
use crate::limits::room;
use crate::math::{MarkTest, Vec2, each_marked, in_box8};

/// Puts the near bodies `apart` (the second part of a run whose marks test split between the
/// threads) at `at` in `near`, before those of the runs after it.
pub(super) fn rejoin(near: &mut Vec<NearBody>, apart: &mut Vec<NearBody>, at: usize) {
    if !apart.is_empty() {
        room(near, apart.len());
        near.extend_from_slice(apart);
        near[at..].rotate_right(apart.len());
        apart.clear();
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
    /// its cell is then a plain truncation ([`each_marked`]), the same as [`cell`](Self::cell)'s
    /// saturating conversion, which costs three times the instructions.
    fits: bool,
    /// Whether, further, the box is under 2^22 cells across each way and the grid's masks
    /// under 2^22 (`MarkTest::small`).
    small: bool,
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
        // The largest value a point inside the box gives, by the same operations, under `most`.
        let under = |most: f32| (hi.x - lo.x) * inv_cell < most && (hi.y - lo.y) * inv_cell < most;
        let small_grid = cols <= 1 << 22 && rows <= 1 << 22;
        self.at = MarkGrid {
            inv_cell,
            lo,
            hi,
            cmask: cols as u32 - 1,
            rmask: rows as u32 - 1,
            shift: cols.trailing_zeros(),
            fits: under(2_147_483_520.0),
            small: small_grid && under(4_194_304.0),
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
    /// and outside a box that covers part of a crowd come in no order); where any of the eight
    /// is inside, their marks are read without a branch a point either (their cells found at
    /// once in packed floats in a box that fits: [`each_marked`]), and only the points both
    /// inside and marked are visited.
    #[inline(always)]
    pub(super) fn each_near(&self, pos: &[Vec2], mut near: impl FnMut(usize)) {
        let at = self.at;
        if at.fits {
            let test = MarkTest {
                lo: at.lo,
                hi: at.hi,
                inv: at.inv_cell,
                grid: (at.cmask, at.rmask, at.shift),
                small: at.small,
            };
            each_marked(pos, &test, &self.bits, &mut near);
        } else {
            self.each_near_apart(pos, near);
        }
    }

    /// [`each_near`](Self::each_near) in a box that does not fit: a point's cell by the
    /// saturating conversion, one at a time.
    fn each_near_apart(&self, pos: &[Vec2], mut near: impl FnMut(usize)) {
        let (at, bits) = (self.at, &self.bits[..]);
        let (lo, hi) = (at.lo, at.hi);
        // A cell's byte (1 where marked). Every cell `bit` gives is masked into the grid,
        // whose size is a power of two (see `reset`): `& top` changes no index and spares a
        // bounds check a point.
        let Some(top) = bits.len().checked_sub(1) else {
            return;
        };
        let bits = &bits[..=top];
        let marked = |b: usize| u32::from(bits[b & top]);
        // Whole chunks of eight by packed compares, then the rest padded with a point
        // outside every box (NaN).
        let (whole, rest) = pos.as_chunks::<8>();
        let mut last = [Vec2::new(f32::NAN, f32::NAN); 8];
        last[..rest.len()].copy_from_slice(rest);
        for (c, chunk) in whole.iter().chain(std::iter::once(&last)).enumerate() {
            let mut inside = in_box8(chunk, lo, hi);
            if inside == 0 {
                continue;
            }
            let mut hits = 0u32;
            for (j, &p) in chunk.iter().enumerate() {
                let (cx, cy) = at.cell(p);
                hits |= marked(at.bit(cx, cy)) << j;
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
