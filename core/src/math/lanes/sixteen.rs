//! Sixteen floats at once in 512-bit registers, where an x86_64 CPU has AVX-512 (its
//! foundation, checked at run time by [`each_marked`](super::each_marked)): the sparse
//! search's box test and marks of sixteen points a step, where AVX2 takes eight.
//!
//! Each lane gives the bits AVX2's lane gives (`wide.rs`): the same ordered compares (false
//! with a NaN), the same subtraction, multiplication and truncation, the same masks. The
//! marks of the points inside the box are gathered at once, four bytes about each cell's
//! (the grid's bytes, a multiple of four, are read in whole aligned words only), and the
//! points that hit are packed into the batch by the CPU's compress, in order.

use super::four::{FULL, batch, hand_on};
use crate::math::Vec2;
use std::arch::x86_64::*;

/// [`each_marked`](super::each_marked) in AVX-512 registers, of the whole chunks of sixteen
/// points `whole` (the caller tests the rest), for the box `lo..=hi` and cells `1 / inv`
/// wide on `grid` (its hits handed on a batch at a time, past [`FULL`] less eight of them,
/// so that a chunk's sixteen lanes always fit past the batch's last).
///
/// # Safety
///
/// The CPU has AVX-512F, and `bits` holds the grid: `(rmask + 1) << shift` bytes, where
/// `cmask + 1 == 1 << shift` and `shift >= 2` (so the bytes are whole words of four).
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn each_marked(
    whole: &[[Vec2; 16]],
    (lo, hi, inv): (Vec2, Vec2, f32),
    grid: (u32, u32, u32),
    bits: &[u8],
    near: &mut impl FnMut(usize),
) {
    let (cmask, rmask, shift) = grid;
    debug_assert!(shift >= 2 && bits.len() >= (rmask as usize + 1) << shift);
    let (lx, ly) = (_mm512_set1_ps(lo.x), _mm512_set1_ps(lo.y));
    let (hx, hy) = (_mm512_set1_ps(hi.x), _mm512_set1_ps(hi.y));
    let inv = _mm512_set1_ps(inv);
    let (cm, rm) = (
        _mm512_set1_epi32(cmask as i32),
        _mm512_set1_epi32(rmask as i32),
    );
    let count = _mm_cvtsi32_si128(shift as i32);
    let (evens, odds) = (
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
        _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
    );
    let lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let (three, byte) = (_mm512_set1_epi32(3), _mm512_set1_epi32(0xff));
    // Invariant: the batch's first `len` slots are written, and `len + 16 <= FULL + 8`.
    let (mut batch, mut len) = (batch(), 0usize);
    for (c, chunk) in whole.iter().enumerate() {
        let f = chunk.as_ptr().cast::<f32>();
        // SAFETY: the 32 floats of `chunk` (`Vec2` is `repr(C)`); unaligned loads.
        let (a, b) = unsafe { (_mm512_loadu_ps(f), _mm512_loadu_ps(f.add(16))) };
        let xs = _mm512_permutex2var_ps(a, evens, b);
        let ys = _mm512_permutex2var_ps(a, odds, b);
        let inside = _mm512_cmp_ps_mask::<_CMP_LE_OQ>(lx, xs)
            & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(xs, hx)
            & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(ly, ys)
            & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(ys, hy);
        if inside == 0 {
            continue;
        }
        let cx = _mm512_cvttps_epi32(_mm512_mul_ps(_mm512_sub_ps(xs, lx), inv));
        let cy = _mm512_cvttps_epi32(_mm512_mul_ps(_mm512_sub_ps(ys, ly), inv));
        let row = _mm512_sll_epi32(_mm512_and_si512(cy, rm), count);
        let cell = _mm512_or_si512(row, _mm512_and_si512(cx, cm));
        // The word of four bytes that holds each cell's, then its byte.
        // SAFETY: every lane's cell is masked into the grid, and the grid's bytes are whole
        // words of four (`shift >= 2`), so each word read lies within `bits`; only the
        // lanes inside the box are read.
        let words = unsafe {
            _mm512_mask_i32gather_epi32::<4>(
                _mm512_setzero_si512(),
                inside,
                _mm512_srli_epi32::<2>(cell),
                bits.as_ptr().cast(),
            )
        };
        let shifts = _mm512_slli_epi32::<3>(_mm512_and_si512(cell, three));
        let marks = _mm512_and_si512(_mm512_srlv_epi32(words, shifts), byte);
        let hits = inside & _mm512_test_epi32_mask(marks, marks);
        let at = _mm512_add_epi32(_mm512_set1_epi32((c * 16) as i32), lanes);
        // SAFETY: `len + 16 <= FULL + 8` (the invariant), so sixteen `u32`s from `len` are
        // within the batch; `len` then grows by the hits among them, written in order.
        unsafe {
            _mm512_storeu_si512(
                batch.as_mut_ptr().add(len).cast(),
                _mm512_maskz_compress_epi32(hits, at),
            )
        };
        len += hits.count_ones() as usize;
        if len > FULL - 8 {
            // SAFETY: the first `len` slots are written (the invariant).
            unsafe { hand_on(&batch, len, near) };
            len = 0;
        }
    }
    // SAFETY: as above.
    unsafe { hand_on(&batch, len, near) };
}
