//! Eight floats at once in 256-bit registers, where an x86_64 CPU has AVX2 (checked at run
//! time by [`each_marked`](super::each_marked), [`step_within`](super::step_within) and
//! [`step_free`](super::step_free)): the sparse search's box test and cells of eight points,
//! which SSE registers take four at a time, with the loads and shuffles twice over; and the
//! step-and-clamp and the plain step of four bodies.
//!
//! Each lane gives the bits the SSE loop gives: the same ordered compares (false with a NaN),
//! the same subtraction, multiplication and truncation, no fused multiply-add. The eight
//! marks are then read one at a time: AVX2's gather of them was slower on the AMD machine
//! the bench runs on (docs/performance.md). The points that hit are packed into a batch
//! without a branch ([`PACK`]) and handed on a batch at a time.

use super::four::{FULL, PACK, batch, hand_on};
use crate::math::Vec2;
use std::arch::x86_64::*;

/// [`each_marked`](super::each_marked) in AVX2 registers, of the whole chunks of eight
/// points `whole` (the caller tests the rest), for the box `lo..=hi` and cells `1 / inv` wide
/// on `grid`.
///
/// # Safety
///
/// The CPU has AVX2, and `bits` holds the grid: `(rmask + 1) << shift` bytes, where
/// `cmask + 1 == 1 << shift`.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn each_marked(
    whole: &[[Vec2; 8]],
    (lo, hi, inv): (Vec2, Vec2, f32),
    grid: (u32, u32, u32),
    bits: &[u8],
    near: &mut impl FnMut(usize),
) {
    let (cmask, rmask, shift) = grid;
    debug_assert!(bits.len() >= (rmask as usize + 1) << shift);
    let (lx, ly) = (_mm256_set1_ps(lo.x), _mm256_set1_ps(lo.y));
    let (hx, hy) = (_mm256_set1_ps(hi.x), _mm256_set1_ps(hi.y));
    let inv = _mm256_set1_ps(inv);
    let (cm, rm) = (
        _mm256_set1_epi32(cmask as i32),
        _mm256_set1_epi32(rmask as i32),
    );
    let count = _mm_cvtsi32_si128(shift as i32);
    // The hits so far (indices into the points, ascending), handed on past `FULL` of them.
    // Invariant: its first `len` slots are written.
    let (mut batch, mut len) = (batch(), 0usize);
    for (c, chunk) in whole.iter().enumerate() {
        let f = chunk.as_ptr().cast::<f32>();
        // SAFETY: the sixteen floats of `chunk` (`Vec2` is `repr(C)`); unaligned loads.
        let (a, b) = unsafe { (_mm256_loadu_ps(f), _mm256_loadu_ps(f.add(8))) };
        // Within each 128-bit half: points 0, 1, 4, 5 then 2, 3, 6, 7; the 64-bit swap of
        // the middle quarters puts them in order.
        let order =
            |v: __m256| _mm256_castpd_ps(_mm256_permute4x64_pd::<0xd8>(_mm256_castps_pd(v)));
        let xs = order(_mm256_shuffle_ps::<0x88>(a, b));
        let ys = order(_mm256_shuffle_ps::<0xdd>(a, b));
        let inside = _mm256_and_ps(
            _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_LE_OQ>(lx, xs),
                _mm256_cmp_ps::<_CMP_LE_OQ>(xs, hx),
            ),
            _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_LE_OQ>(ly, ys),
                _mm256_cmp_ps::<_CMP_LE_OQ>(ys, hy),
            ),
        );
        let inside = _mm256_movemask_ps(inside) as u32;
        if inside == 0 {
            continue;
        }
        let cx = _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_sub_ps(xs, lx), inv));
        let cy = _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_sub_ps(ys, ly), inv));
        let row = _mm256_sll_epi32(_mm256_and_si256(cy, rm), count);
        let cell = _mm256_or_si256(row, _mm256_and_si256(cx, cm));
        let mut cells = [0u32; 8];
        // SAFETY: eight writable `u32`s; an unaligned store.
        unsafe { _mm256_storeu_si256(cells.as_mut_ptr().cast(), cell) };
        // The eight marks without a branch a point, as the SSE loop reads them.
        let mut marked = 0u32;
        for (j, &k) in cells.iter().enumerate() {
            // SAFETY: every lane's cell is masked into the grid (even a point outside the
            // box: its lanes are dropped below).
            marked |= u32::from(unsafe { *bits.get_unchecked(k as usize) }) << j;
        }
        let hits = (inside & marked) as usize & 0xff;
        let lanes = _mm256_add_epi32(
            _mm256_set1_epi32((c * 8) as i32),
            // SAFETY: a row of eight `u32`s; an unaligned load.
            unsafe { _mm256_loadu_si256(PACK[hits].as_ptr().cast()) },
        );
        // SAFETY: `len <= FULL`, so eight `u32`s from `len` are within the batch (which
        // writes them all: `len` then grows by the hits among them, at most eight).
        unsafe { _mm256_storeu_si256(batch.as_mut_ptr().add(len).cast(), lanes) };
        len += hits.count_ones() as usize;
        if len > FULL {
            // SAFETY: the first `len` slots are written (the invariant).
            unsafe { hand_on(&batch, len, near) };
            len = 0;
        }
    }
    // SAFETY: as above.
    unsafe { hand_on(&batch, len, near) };
}

/// [`step_within`](super::step_within) four bodies at a time: the SSE loop's operations lane
/// for lane (the same add after the multiply, no fused multiply-add; the same `max` and `min`
/// with the bound first, so a tie or a NaN keeps the same operand), but for the finite test:
/// the `and` of each coordinate's mask with its body's other (the SSE loop tests their `v - v`
/// summed, the same lanes; LLVM's x86 code for the sum is longer: 167,000 more instructions
/// over the 1,000-drone replay).
/// Moves the first `n` bodies (a multiple of 4) of the positions, velocities and previous
/// positions whose first floats are `p`, `v` and `q`, and returns `n` and whether their new
/// positions are all finite (as the packed loop finds it).
///
/// # Safety
///
/// The CPU has AVX2, and each of `p`, `v` and `q` points to `n` bodies (`2 * n` floats) that
/// nothing else reads or writes during the call.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step_within(
    n: usize,
    [p, v, q]: [*mut f32; 3],
    dt: f32,
    (lo, hi): (Vec2, Vec2),
) -> (usize, bool) {
    debug_assert!(n.is_multiple_of(4));
    let pairs = |a: Vec2| _mm256_setr_ps(a.x, a.y, a.x, a.y, a.x, a.y, a.x, a.y);
    let (lo, hi, dt) = (pairs(lo), pairs(hi), _mm256_set1_ps(dt));
    let mut nonfinite = _mm256_setzero_ps();
    for i in (0..n).step_by(4) {
        // SAFETY: bodies `i..i + 4` (`i + 4 <= n`) of `n` of each: eight floats; unaligned
        // loads and stores.
        unsafe {
            let (t, w, next, both) = stepped(i, [p, v, q], dt);
            let t = _mm256_or_ps(_mm256_and_ps(both, next), _mm256_andnot_ps(both, t));
            let to = _mm256_min_ps(hi, _mm256_max_ps(lo, t));
            let w = _mm256_andnot_ps(_mm256_cmp_ps::<_CMP_NEQ_UQ>(to, t), w);
            nonfinite = _mm256_or_ps(nonfinite, _mm256_sub_ps(to, to));
            _mm256_storeu_ps(p.add(i * 2), to);
            _mm256_storeu_ps(v.add(i * 2), w);
        }
    }
    let finite = _mm256_cmp_ps::<_CMP_ORD_Q>(nonfinite, nonfinite);
    (n, _mm256_movemask_ps(finite) == 0xff)
}

/// [`step_free`](super::step_free) four bodies at a time: the packed loop's operations lane
/// for lane (the same add after the multiply, no fused multiply-add), without a clamp.
/// Moves the first `n` bodies (a multiple of 4) of the positions, velocities and previous
/// positions whose first floats are `p`, `v` and `q`, and returns `n`.
///
/// # Safety
///
/// The CPU has AVX2, and each of `p`, `v` and `q` points to `n` bodies (`2 * n` floats) that
/// nothing else writes during the call (`v` is only read).
#[target_feature(enable = "avx2")]
pub(super) unsafe fn step_free(n: usize, [p, v, q]: [*mut f32; 3], dt: f32) -> usize {
    debug_assert!(n.is_multiple_of(4));
    let dt = _mm256_set1_ps(dt);
    for i in (0..n).step_by(4) {
        // SAFETY: bodies `i..i + 4` (`i + 4 <= n`) of `n` of each: eight floats; unaligned
        // loads and stores.
        unsafe {
            let (t, _, next, both) = stepped(i, [p, v, q], dt);
            _mm256_storeu_ps(p.add(i * 2), _mm256_blendv_ps(t, next, both));
        }
    }
    n
}

/// Bodies `i..i + 4` of a step: their positions and velocities loaded, the positions kept in
/// `q`, the next positions (`t + w * dt`, the add after the multiply) and the mask of the
/// lanes whose body has both coordinates of the next position finite.
///
/// # Safety
///
/// The CPU has AVX2; bodies `i..i + 4` of `p`, `v` and `q` are in bounds (eight floats
/// each), `q` writable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn stepped(
    i: usize,
    [p, v, q]: [*mut f32; 3],
    dt: __m256,
) -> (__m256, __m256, __m256, __m256) {
    // SAFETY: as the function's contract says; unaligned loads and a store.
    let (t, w) = unsafe { (_mm256_loadu_ps(p.add(i * 2)), _mm256_loadu_ps(v.add(i * 2))) };
    // SAFETY: as above.
    unsafe { _mm256_storeu_ps(q.add(i * 2), t) };
    let next = _mm256_add_ps(t, _mm256_mul_ps(w, dt));
    // `v - v` is +0 (all bits clear) for a finite `v`, NaN for the rest: a body's 64 bits
    // are zero exactly where both its coordinates are finite.
    let zero = _mm256_castps_si256(_mm256_sub_ps(next, next));
    let both = _mm256_castsi256_ps(_mm256_cmpeq_epi64(zero, _mm256_setzero_si256()));
    (t, w, next, both)
}

/// Whether any of the words of `chunks` is at most `at` and not `u64::MAX`, four words a
/// step: each lane's unsigned compare made signed by flipping the sign bits, the lanes that
/// are not due (above `at`, or `u64::MAX`) kept in a mask, one test at the end.
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn any_due(chunks: &[[u64; 4]], at: u64) -> bool {
    let flip = _mm256_set1_epi64x(i64::MIN);
    let (at, inactive) = (
        _mm256_xor_si256(_mm256_set1_epi64x(at as i64), flip),
        _mm256_set1_epi64x(-1),
    );
    let mut idle = _mm256_set1_epi64x(-1);
    for c in chunks {
        // SAFETY: four words; an unaligned load.
        let w = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
        let later = _mm256_cmpgt_epi64(_mm256_xor_si256(w, flip), at);
        let off = _mm256_cmpeq_epi64(w, inactive);
        idle = _mm256_and_si256(idle, _mm256_or_si256(later, off));
    }
    _mm256_testc_si256(idle, _mm256_set1_epi64x(-1)) == 0
}
