//! What four floats do ([`Lanes`]), the scalar floor every packed floor matches, and four
//! floats one at a time ([`Plain`]): the lanes every platform's packed floats implement.

use crate::math::Vec2;
use std::mem::MaybeUninit;

/// Four floats; a mask is a value whose lanes are all ones or all zeros.
pub(crate) trait Lanes: Copy {
    /// Whether these are packed in hardware: the loops that a compiler vectorises on its own
    /// one body at a time (`step_within`, `copy_finite`) run one at a time without them.
    const PACKED: bool;
    /// Every lane `v`.
    fn splat(v: f32) -> Self;
    /// `[v.x, v.y, v.x, v.y]`: one vector for two bodies.
    fn pairs(v: Vec2) -> Self;
    /// Four floats from `p`, unaligned.
    ///
    /// # Safety
    ///
    /// `p` points to four readable floats.
    unsafe fn load(p: *const f32) -> Self;
    /// Writes the four floats to `p`, unaligned.
    ///
    /// # Safety
    ///
    /// `p` points to four writable floats.
    unsafe fn store(self, p: *mut f32);
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// For cells at columns `x` and rows `y` (each lane truncated toward zero), each cell's
    /// index in a grid of `grid.0 + 1` columns (a power of two, `1 << grid.2`) and `grid.1 + 1`
    /// rows that wraps: `((row & grid.1) << grid.2) | (column & grid.0)`. Only where both
    /// lanes are in `0..2^31` (where the truncation is `to_int_unchecked`'s): elsewhere the
    /// index differs by platform. `grid.2` is under 32.
    fn cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4];
    /// As [`cell_index`](Lanes::cell_index) where both lanes are in `0..2^22` and the grid's
    /// masks under `2^22` (elsewhere any cell of the grid): the browser's lanes take it from
    /// the floats' bits in two instructions where their saturating truncation takes seven.
    #[inline(always)]
    fn small_cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
        Self::cell_index(x, y, grid)
    }
    /// As [`cell_index`](Lanes::cell_index), at the floors of `x` and `y` as [`floor_i32`]
    /// gives them, for every input (NaN, infinities and values past `i32` included).
    fn floor_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4];
    /// The mask of `self <= o` (false where either is NaN).
    fn le(self, o: Self) -> Self;
    /// The mask of `self < o` (false where either is NaN).
    fn lt(self, o: Self) -> Self;
    /// The mask of `self != o` (true where either is NaN).
    fn ne(self, o: Self) -> Self;
    /// Bitwise and.
    fn and(self, o: Self) -> Self;
    /// Bitwise or.
    fn or(self, o: Self) -> Self;
    /// `self` where `mask` is clear, zero where it is set.
    fn clear(self, mask: Self) -> Self;
    /// `a` where `mask` is set, else `b`.
    fn select(mask: Self, a: Self, b: Self) -> Self;
    /// `self < lo ? lo : self`: a NaN stays, a tie keeps `self`.
    fn at_least(self, lo: Self) -> Self;
    /// `hi < self ? hi : self`: a NaN stays, a tie keeps `self`.
    fn at_most(self, hi: Self) -> Self;
    /// The sign bits cleared.
    fn abs(self) -> Self;
    /// Lanes 1, 0, 3, 2: each body's other coordinate.
    fn swap_pairs(self) -> Self;
    /// The mask, in both lanes of each pair (a body's two coordinates), of the pairs whose
    /// lanes are both zero, where every lane is a `v - v`: +0 where `v` is finite, NaN where
    /// not (so the pairs of bodies with both coordinates finite). The sum of each lane and its
    /// pair's is not NaN exactly there; the browser's lanes compare the pair's 64 bits with
    /// zero in one instruction instead (the sum's shuffle, add and compare are three).
    #[inline(always)]
    fn both_zero(self) -> Self {
        let both = self.add(self.swap_pairs());
        both.le(both)
    }
    /// Lanes 0 and 2 of `self`, then of `o`: the x of four points.
    fn evens(self, o: Self) -> Self;
    /// Lanes 1 and 3 of `self`, then of `o`: the y of four points.
    fn odds(self, o: Self) -> Self;
    /// Lanes 0 and 1 of `self`, then of `o`: the first two floats of two records.
    fn lows(self, o: Self) -> Self;
    /// Lanes 0, 0, 1, 1: the first two lanes each for a body's two coordinates.
    fn twice_low(self) -> Self;
    /// Lanes 2, 2, 3, 3.
    fn twice_high(self) -> Self;
    /// Bit `i` set where lane `i`'s sign bit is (a mask's set lanes).
    fn bits(self) -> u32;
    /// Whether any bit of any lane is set.
    fn any_set(self) -> bool;
    /// Of eight records of two words: whether any second word is at least `top`, and the
    /// records whose second word's bits under `mask` may be at most `at`, bit `k` for record
    /// `k`: every such record's bit is set, and here all eight where any is (setting a bit a
    /// record cost more instructions natively than the caller's test of each row; the
    /// browser's lanes set exactly theirs). Every second word, `top` and `at` are below
    /// 2^63, `top` above 0. Not floats, but the packed lanes' registers: the browser's
    /// lanes take two words a step (its scalar code for this keeps the words on the stack);
    /// SSE2 took longer than the scalar code natively (motion's pass at 64k drones, by the
    /// clock), which every other platform keeps. `.ci/web-test` checks the browser's through
    /// the state hash of 16,000 drones, whose decisions it times.
    #[inline(always)]
    fn top_or_at_most8(records: &[[u64; 2]; 8], mask: u64, at: u64, top: u64) -> (bool, u32) {
        let (mut high, mut under) = (0, false);
        for [_, w] in records {
            high = high.max(*w);
            under |= w & mask <= at;
        }
        (high >= top, if under { 0xFF } else { 0 })
    }
    /// The bytes of `bits` (each 0 or 1) at the eight `cells` as a mask, bit `j` for cell
    /// `j`'s. Not floats either: the browser's lanes add the bytes' start to the cells four
    /// at a time (each address an add apart otherwise), and read the addresses from memory
    /// rather than out of the vector.
    ///
    /// # Safety
    ///
    /// Every cell is an index into `bits`.
    #[inline(always)]
    unsafe fn marks8(cells: &[u32; 8], bits: &[u8]) -> u32 {
        let mut marked = 0u32;
        for (j, &k) in cells.iter().enumerate() {
            // SAFETY: as the function's contract says.
            marked |= u32::from(unsafe { *bits.get_unchecked(k as usize) }) << j;
        }
        marked
    }
}

/// Per mask of eight lanes, the lanes set in it, in order (the rest zero): a chunk's hits
/// are written as the chunk's first index plus this row, all eight, and the count moves on
/// by the lanes set. Which of a crowd's points hit follows no pattern a branch predicts; at
/// 256k drones a branch a chunk cost about as much as the rest of the test.
pub(crate) static PACK: [[u32; 8]; 256] = {
    let mut rows = [[0u32; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut lane, mut k) = (0, 0);
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                rows[mask][k] = lane as u32;
                k += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    rows
};

/// Indices a batch of [`PACK`]ed hits keeps before handing them on; it has room for a chunk
/// past them.
pub(crate) const FULL: usize = 256;

/// A batch of [`PACK`]ed hits: [`FULL`] and a chunk's eight lanes past them, left
/// unwritten until a chunk writes them (zeroed, its kilobyte cost a run of a few points more
/// than testing them: 2% of Breakout's replay).
pub(crate) type Batch = [MaybeUninit<u32>; FULL + 8];

/// An unwritten batch.
#[inline(always)]
pub(crate) const fn batch() -> Batch {
    [MaybeUninit::uninit(); FULL + 8]
}

/// Hands on the first `len` hits of `batch`, in order.
///
/// # Safety
///
/// The first `len` slots of `batch` are written.
#[inline(always)]
pub(crate) unsafe fn hand_on(batch: &Batch, len: usize, near: &mut impl FnMut(usize)) {
    for k in &batch[..len] {
        // SAFETY: written, as the caller promises.
        near(unsafe { k.assume_init() } as usize);
    }
}

/// The floor of `v` as a whole number: `v as i32` (saturating, NaN 0), less one where that
/// is above `v`; past `i32::MIN` it wraps to `i32::MAX`, as the saturated minimum less one.
#[inline(always)]
pub(crate) fn floor_i32(v: f32) -> i32 {
    let i = v as i32;
    if (i as f32) > v { i.wrapping_sub(1) } else { i }
}

/// Four floats one at a time: what `Packed` is where the platform has no packed floats, and
/// what the tests compare it with.
#[derive(Clone, Copy, Debug)]
#[allow(
    dead_code,
    reason = "the packed lanes where the platform has none, else the tests'"
)]
pub(crate) struct Plain([f32; 4]);

#[allow(dead_code, reason = "as `Plain`")]
impl Plain {
    #[inline(always)]
    fn each(self, o: Plain, f: impl Fn(f32, f32) -> f32) -> Plain {
        Plain(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }
    #[inline(always)]
    fn mask(self, o: Plain, f: impl Fn(f32, f32) -> bool) -> Plain {
        self.each(o, |a, b| f32::from_bits(if f(a, b) { u32::MAX } else { 0 }))
    }
    #[inline(always)]
    fn bitwise(self, o: Plain, f: impl Fn(u32, u32) -> u32) -> Plain {
        self.each(o, |a, b| f32::from_bits(f(a.to_bits(), b.to_bits())))
    }
}

impl Lanes for Plain {
    const PACKED: bool = false;
    fn splat(v: f32) -> Self {
        Plain([v; 4])
    }
    fn pairs(v: Vec2) -> Self {
        Plain([v.x, v.y, v.x, v.y])
    }
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's promise.
        Plain(unsafe { p.cast::<[f32; 4]>().read_unaligned() })
    }
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller's promise.
        unsafe { p.cast::<[f32; 4]>().write_unaligned(self.0) }
    }
    fn add(self, o: Self) -> Self {
        self.each(o, |a, b| a + b)
    }
    fn sub(self, o: Self) -> Self {
        self.each(o, |a, b| a - b)
    }
    fn mul(self, o: Self) -> Self {
        self.each(o, |a, b| a * b)
    }
    fn cell_index(x: Self, y: Self, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
        // Saturating, which in range is the truncation.
        std::array::from_fn(|i| ((y.0[i] as u32 & rmask) << shift) | (x.0[i] as u32 & cmask))
    }
    fn floor_index(x: Self, y: Self, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
        std::array::from_fn(|i| {
            let (col, row) = (floor_i32(x.0[i]) as u32, floor_i32(y.0[i]) as u32);
            ((row & rmask) << shift) | (col & cmask)
        })
    }
    fn le(self, o: Self) -> Self {
        self.mask(o, |a, b| a <= b)
    }
    fn lt(self, o: Self) -> Self {
        self.mask(o, |a, b| a < b)
    }
    fn ne(self, o: Self) -> Self {
        self.mask(o, |a, b| a != b)
    }
    fn and(self, o: Self) -> Self {
        self.bitwise(o, |a, b| a & b)
    }
    fn or(self, o: Self) -> Self {
        self.bitwise(o, |a, b| a | b)
    }
    fn clear(self, mask: Self) -> Self {
        self.bitwise(mask, |a, m| a & !m)
    }
    fn select(mask: Self, a: Self, b: Self) -> Self {
        let m = mask.0.map(f32::to_bits);
        Plain(std::array::from_fn(|i| {
            f32::from_bits(m[i] & a.0[i].to_bits() | !m[i] & b.0[i].to_bits())
        }))
    }
    fn at_least(self, lo: Self) -> Self {
        self.each(lo, |v, lo| if v < lo { lo } else { v })
    }
    fn at_most(self, hi: Self) -> Self {
        self.each(hi, |v, hi| if hi < v { hi } else { v })
    }
    fn abs(self) -> Self {
        Plain(self.0.map(|v| f32::from_bits(v.to_bits() & 0x7fff_ffff)))
    }
    fn swap_pairs(self) -> Self {
        let [a, b, c, d] = self.0;
        Plain([b, a, d, c])
    }
    fn evens(self, o: Self) -> Self {
        Plain([self.0[0], self.0[2], o.0[0], o.0[2]])
    }
    fn odds(self, o: Self) -> Self {
        Plain([self.0[1], self.0[3], o.0[1], o.0[3]])
    }
    fn lows(self, o: Self) -> Self {
        Plain([self.0[0], self.0[1], o.0[0], o.0[1]])
    }
    fn twice_low(self) -> Self {
        Plain([self.0[0], self.0[0], self.0[1], self.0[1]])
    }
    fn twice_high(self) -> Self {
        Plain([self.0[2], self.0[2], self.0[3], self.0[3]])
    }
    fn bits(self) -> u32 {
        (0..4).fold(0, |b, i| b | (self.0[i].to_bits() >> 31) << i)
    }
    fn any_set(self) -> bool {
        self.0.iter().any(|v| v.to_bits() != 0)
    }
}
