//! [`Lanes`] in SSE2 registers (part of every x86_64 CPU).

use super::four::Lanes;
use crate::math::Vec2;
use std::arch::x86_64::*;

/// Four floats in an SSE register (SSE2 is part of x86_64).
#[derive(Clone, Copy)]
pub(crate) struct Sse(__m128);

impl Lanes for Sse {
    const PACKED: bool = true;
    // `le` and `lt` are ordered (false with a NaN), `ne` unordered (true with one).
    binary! {
        Sse,
        add => _mm_add_ps,
        sub => _mm_sub_ps,
        mul => _mm_mul_ps,
        le => _mm_cmple_ps,
        lt => _mm_cmplt_ps,
        ne => _mm_cmpneq_ps,
        and => _mm_and_ps,
        or => _mm_or_ps,
    }
    #[inline(always)]
    fn splat(v: f32) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_set1_ps(v) })
    }
    #[inline(always)]
    fn pairs(v: Vec2) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_setr_ps(v.x, v.y, v.x, v.y) })
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's promise; the load is unaligned.
        Sse(unsafe { _mm_loadu_ps(p) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller's promise; the store is unaligned.
        unsafe { _mm_storeu_ps(p, self.0) }
    }
    #[inline(always)]
    fn clear(self, mask: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_andnot_ps(mask.0, self.0) })
    }
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_or_ps(_mm_and_ps(mask.0, a.0), _mm_andnot_ps(mask.0, b.0)) })
    }
    #[inline(always)]
    fn at_least(self, lo: Self) -> Self {
        // `max(a, b)` is `a > b ? a : b`: the second operand wins a tie or a NaN.
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_max_ps(lo.0, self.0) })
    }
    #[inline(always)]
    fn at_most(self, hi: Self) -> Self {
        // `min(a, b)` is `a < b ? a : b`.
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_min_ps(hi.0, self.0) })
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_and_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(i32::MAX))) })
    }
    #[inline(always)]
    fn swap_pairs(self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_shuffle_ps::<0b10_11_00_01>(self.0, self.0) })
    }
    #[inline(always)]
    fn evens(self, o: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_shuffle_ps::<0b10_00_10_00>(self.0, o.0) })
    }
    #[inline(always)]
    fn odds(self, o: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_shuffle_ps::<0b11_01_11_01>(self.0, o.0) })
    }
    #[inline(always)]
    fn lows(self, o: Self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_movelh_ps(self.0, o.0) })
    }
    #[inline(always)]
    fn twice_low(self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_unpacklo_ps(self.0, self.0) })
    }
    #[inline(always)]
    fn twice_high(self) -> Self {
        // SAFETY: SSE2 is part of x86_64.
        Sse(unsafe { _mm_unpackhi_ps(self.0, self.0) })
    }
    #[inline(always)]
    fn bits(self) -> u32 {
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_movemask_ps(self.0) as u32 }
    }
    #[inline(always)]
    fn any_set(self) -> bool {
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let zero = _mm_cmpeq_epi8(_mm_castps_si128(self.0), _mm_setzero_si128());
            _mm_movemask_epi8(zero) != 0xFFFF
        }
    }
    #[inline(always)]
    fn cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
        // SAFETY: SSE2 is part of x86_64. Out of range, the conversion gives `i32::MIN`.
        unsafe { index(_mm_cvttps_epi32(x.0), _mm_cvttps_epi32(y.0), grid) }
    }
    #[inline(always)]
    fn floor_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
        /// `floor_i32` of each lane: the truncation (`i32::MIN` out of range and for NaN),
        /// less one where it is above the value (where the truncation is `i32::MIN`
        /// below range, that wraps to `i32::MAX`, as the scalar does), `i32::MAX` from
        /// 2^31 up (the truncation is `i32::MIN` there and nothing is subtracted: flipping
        /// every bit makes it `i32::MAX`), and 0 for NaN.
        ///
        /// # Safety
        ///
        /// SSE2 is part of x86_64.
        #[inline(always)]
        unsafe fn floor(v: __m128) -> __m128i {
            unsafe {
                let t = _mm_cvttps_epi32(v);
                let above = _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), v));
                let t = _mm_add_epi32(t, above);
                let high = _mm_castps_si128(_mm_cmpge_ps(v, _mm_set1_ps(2147483648.0)));
                let number = _mm_castps_si128(_mm_cmpord_ps(v, v));
                _mm_and_si128(_mm_xor_si128(t, high), number)
            }
        }
        // SAFETY: SSE2 is part of x86_64.
        unsafe { index(floor(x.0), floor(y.0), grid) }
    }
}

/// Each lane's cell index from its column `cx` and row `cy` (see [`Lanes::cell_index`]).
///
/// # Safety
///
/// SSE2 is part of x86_64.
#[inline(always)]
unsafe fn index(cx: __m128i, cy: __m128i, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
    let mut out = [0u32; 4];
    // SAFETY: the caller's promise; the store is unaligned, to four `u32`s.
    unsafe {
        let col = _mm_and_si128(cx, _mm_set1_epi32(cmask as i32));
        let row = _mm_and_si128(cy, _mm_set1_epi32(rmask as i32));
        let row = _mm_sll_epi32(row, _mm_cvtsi32_si128(shift as i32));
        _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_or_si128(row, col));
    }
    out
}
