//! The position record's second half ([`tail3`]) of four rows at a time in the browser's
//! 128-bit lanes (wasm `simd128`, which the browser build enables), as `hash::wide` makes it
//! natively: two rows a vector, each 64-bit lane the word `tail3` gives. The packed pass over
//! the drones' kept records (`minds::packed`) takes it; the movers' rows go one at a time in
//! the browser (four at a time measured no faster in a bullet hell's replay there).
//!
//! XXH3's 128-bit product has no packed instruction: it is made of four 32-bit products
//! (`u64x2_extmul_low_u32x4` and `_high`), as `record::product_by_halves` makes it.
//!
//! [`tail3`]: crate::world::hash::record::tail3

use crate::world::components::Position;
use crate::world::hash::record::{AVALANCHE, Head3, TAIL_SECRET};
use std::arch::wasm32::*;

/// The wrapping sum of the two lanes.
#[inline(always)]
pub(super) fn lane_sum(v: v128) -> u64 {
    u64x2_extract_lane::<0>(v).wrapping_add(u64x2_extract_lane::<1>(v))
}

/// 16 bytes from `p`, unaligned.
///
/// # Safety
///
/// `p` points to 16 readable bytes.
#[inline(always)]
pub(super) unsafe fn load<T>(p: *const T) -> v128 {
    // SAFETY: as the function's contract says; wasm loads need no alignment.
    unsafe { v128_load(p.cast()) }
}

/// The position records of four rows from their heads and positions: `tail3` of rows 0 and
/// 2's, then 1 and 3's, added lane by lane (wrapping: only their sum is wanted).
///
/// # Safety
///
/// `pos` points to four readable rows.
#[inline(always)]
pub(super) unsafe fn tails(head: &[Head3; 4], pos: *const Position) -> v128 {
    // SAFETY: as the function's contract says, and four heads are 64 bytes; `Head3` is its
    // sum then its second word (`repr(C)`), a position its two floats (`repr(transparent)`
    // over `repr(C)`), whose bits as one little-endian word are the record's last word
    // (`record::pair`).
    let (h0, h1, h2, h3, p01, p23) = unsafe {
        let h = head.as_ptr();
        (
            load(h),
            load(h.add(1)),
            load(h.add(2)),
            load(h.add(3)),
            load(pos),
            load(pos.add(2)),
        )
    };
    let two = |ha: v128, hb: v128, c: v128| {
        // Rows a and b in the lanes: the heads' sums, their second words, the positions.
        let (sum, b) = (i64x2_shuffle::<0, 2>(ha, hb), i64x2_shuffle::<1, 3>(ha, hb));
        let mut h = i64x2_add(sum, mix(b, v128_xor(c, u64x2_splat(TAIL_SECRET))));
        h = v128_xor(h, u64x2_shr(h, 37));
        h = i64x2_mul(h, u64x2_splat(AVALANCHE));
        v128_xor(h, u64x2_shr(h, 32))
    };
    i64x2_add(two(h0, h1, p01), two(h2, h3, p23))
}

/// XXH3's 128-bit product of each lane's words folded to 64 bits (`record::mix`): the low
/// word of the product xor its high word, from the four products of the words' 32-bit halves.
#[inline(always)]
fn mix(a: v128, b: v128) -> v128 {
    // Each word's halves: the low halves of both lanes, then the high ones.
    let a = i32x4_shuffle::<0, 2, 1, 3>(a, a);
    let (b, b_swapped) = (
        i32x4_shuffle::<0, 2, 1, 3>(b, b),
        i32x4_shuffle::<1, 3, 0, 2>(b, b),
    );
    let ll = u64x2_extmul_low_u32x4(a, b);
    let hh = u64x2_extmul_high_u32x4(a, b);
    let lh = u64x2_extmul_low_u32x4(a, b_swapped);
    let hl = u64x2_extmul_high_u32x4(a, b_swapped);
    let low32 = u64x2_splat(0xffff_ffff);
    // Bits 32 to 95 of the product, with the carry into the high word above bit 63.
    let cross = i64x2_add(
        i64x2_add(u64x2_shr(ll, 32), v128_and(lh, low32)),
        v128_and(hl, low32),
    );
    let low = v128_or(v128_and(ll, low32), i64x2_shl(cross, 32));
    let high = i64x2_add(
        i64x2_add(hh, u64x2_shr(lh, 32)),
        i64x2_add(u64x2_shr(hl, 32), u64x2_shr(cross, 32)),
    );
    v128_xor(low, high)
}
