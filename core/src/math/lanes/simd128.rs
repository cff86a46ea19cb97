//! [`Lanes`] in wasm `v128`s (the browser build enables `simd128`).

use super::four::Lanes;
use crate::math::Vec2;
use std::arch::wasm32::*;

/// Four floats in a wasm `v128`.
#[derive(Clone, Copy)]
pub(crate) struct Simd128(v128);

impl Lanes for Simd128 {
    const PACKED: bool = true;
    // IEEE compares: `le` and `lt` false with a NaN, `ne` true.
    binary! {
        Simd128,
        add => f32x4_add,
        sub => f32x4_sub,
        mul => f32x4_mul,
        le => f32x4_le,
        lt => f32x4_lt,
        ne => f32x4_ne,
        and => v128_and,
        or => v128_or,
    }
    #[inline(always)]
    fn splat(v: f32) -> Self {
        Simd128(f32x4_splat(v))
    }
    #[inline(always)]
    fn pairs(v: Vec2) -> Self {
        Simd128(f32x4(v.x, v.y, v.x, v.y))
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's promise; wasm loads need no alignment.
        Simd128(unsafe { v128_load(p.cast::<v128>()) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller's promise; wasm stores need no alignment.
        unsafe { v128_store(p.cast::<v128>(), self.0) }
    }
    #[inline(always)]
    fn clear(self, mask: Self) -> Self {
        Simd128(v128_andnot(self.0, mask.0))
    }
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        Simd128(v128_bitselect(a.0, b.0, mask.0))
    }
    #[inline(always)]
    fn at_least(self, lo: Self) -> Self {
        // `pmax(a, b)` is `a < b ? b : a`.
        Simd128(f32x4_pmax(self.0, lo.0))
    }
    #[inline(always)]
    fn at_most(self, hi: Self) -> Self {
        // `pmin(a, b)` is `b < a ? b : a`.
        Simd128(f32x4_pmin(self.0, hi.0))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Simd128(f32x4_abs(self.0))
    }
    #[inline(always)]
    fn swap_pairs(self) -> Self {
        Simd128(i32x4_shuffle::<1, 0, 3, 2>(self.0, self.0))
    }
    #[inline(always)]
    fn both_zero(self) -> Self {
        // A `v - v` is +0 (all bits clear) or NaN (some set): the pair's 64 bits are zero
        // exactly where both are +0.
        Simd128(i64x2_eq(self.0, i64x2_splat(0)))
    }
    #[inline(always)]
    fn evens(self, o: Self) -> Self {
        Simd128(i32x4_shuffle::<0, 2, 4, 6>(self.0, o.0))
    }
    #[inline(always)]
    fn odds(self, o: Self) -> Self {
        Simd128(i32x4_shuffle::<1, 3, 5, 7>(self.0, o.0))
    }
    #[inline(always)]
    fn lows(self, o: Self) -> Self {
        Simd128(i32x4_shuffle::<0, 1, 4, 5>(self.0, o.0))
    }
    #[inline(always)]
    fn twice_low(self) -> Self {
        Simd128(i32x4_shuffle::<0, 0, 1, 1>(self.0, self.0))
    }
    #[inline(always)]
    fn twice_high(self) -> Self {
        Simd128(i32x4_shuffle::<2, 2, 3, 3>(self.0, self.0))
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        u32::from(i32x4_bitmask(self.0))
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        v128_any_true(self.0)
    }
    #[inline(always)]
    fn top_or_at_most8(records: &[[u64; 2]; 8], mask: u64, at: u64, top: u64) -> (bool, u32) {
        // Every value below 2^63, so a difference's sign says which is larger: `at - w` is
        // negative where `w` is above `at` (not due: its sign bit, two records a step, makes
        // the due bits' complement), `w - top` where `w` is below `top` (the sign bits of the
        // lanes' `and` are all set only where every lane's is). Subtractions and sign bits
        // are single instructions where the browser's 64-bit compares may not be.
        let p = records.as_ptr().cast::<v128>();
        let (m, at, top) = (u64x2_splat(mask), u64x2_splat(at), u64x2_splat(top));
        let (mut above, mut below) = (0u32, u64x2_splat(u64::MAX));
        for k in 0..4 {
            // SAFETY: records `2k` and `2k + 1` of the eight (sixteen bytes each); wasm loads
            // need no alignment.
            let (a, b) = unsafe { (v128_load(p.add(2 * k)), v128_load(p.add(2 * k + 1))) };
            let w = i64x2_shuffle::<1, 3>(a, b);
            above |= u32::from(i64x2_bitmask(i64x2_sub(at, v128_and(w, m)))) << (2 * k);
            below = v128_and(below, i64x2_sub(w, top));
        }
        (i64x2_bitmask(below) != 0b11, !above & 0xFF)
    }
    #[inline(always)]
    unsafe fn marks8(cells: &[u32; 8], bits: &[u8]) -> u32 {
        // The cells' addresses, the bytes' start added to four at once, are stored and read
        // back one at a time (as loads the compiler keeps): each lane taken out of a vector
        // instead is two of the engine's instructions on the port its shuffles share, which
        // this loop's chunks wait on.
        let base = u32x4_splat(bits.as_ptr().expose_provenance() as u32);
        let (c, mut at) = (cells.as_ptr().cast::<v128>(), [0u32; 8]);
        let to = at.as_mut_ptr().cast::<v128>();
        // SAFETY: eight `u32`s each; wasm loads and stores need no alignment.
        unsafe {
            v128_store(to, u32x4_add(v128_load(c), base));
            v128_store(to.add(1), u32x4_add(v128_load(c.add(1)), base));
        }
        let mut marked = 0u32;
        // By index: read by an iterator, the addresses were all taken first, and held apart
        // until their loads, took registers the engine then spilled.
        for j in 0..8 {
            // SAFETY: `j` is an index into `at`, and the address it holds a byte of `bits`
            // (the function's contract).
            let byte = unsafe {
                let addr = std::ptr::read_volatile(at.as_ptr().add(j));
                *std::ptr::with_exposed_provenance::<u8>(addr as usize)
            };
            marked |= u32::from(byte) << j;
        }
        marked
    }
    #[inline(always)]
    fn cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
        // Saturating, which in range is the truncation.
        index(i32x4_trunc_sat_f32x4(x.0), i32x4_trunc_sat_f32x4(y.0), grid)
    }
    #[inline(always)]
    fn small_cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
        // In `0..2^22` the floor is the truncation, and the floor plus 2^23 is exact: its low
        // 23 bits are the floor, all the grid's masks keep.
        let bits = |v: v128| f32x4_add(f32x4_floor(v), f32x4_splat(8_388_608.0));
        index(bits(x.0), bits(y.0), grid)
    }
    #[inline(always)]
    fn floor_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
        // The saturating truncation is `as i32`'s; less one (wrapping) where it is above
        // the value, as `floor_i32` does.
        let floor = |v: v128| {
            let t = i32x4_trunc_sat_f32x4(v);
            i32x4_add(t, f32x4_gt(f32x4_convert_i32x4(t), v))
        };
        index(floor(x.0), floor(y.0), grid)
    }
}

/// Each lane's cell index from its column `cx` and row `cy` (see [`Lanes::cell_index`]).
#[inline(always)]
fn index(cx: v128, cy: v128, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
    let col = v128_and(cx, u32x4_splat(cmask));
    let row = i32x4_shl(v128_and(cy, u32x4_splat(rmask)), shift);
    let mut out = [0u32; 4];
    // SAFETY: four writable `u32`s; wasm stores need no alignment.
    unsafe { v128_store(out.as_mut_ptr().cast::<v128>(), v128_or(row, col)) };
    out
}
