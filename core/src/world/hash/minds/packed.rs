//! [`MindSlots::positions`] four rows at a time in the browser's 128-bit lanes (wasm
//! `simd128`, which the browser build enables): a chunk's kept values compared with its rows'
//! in a few packed compares (a chunk where any differ is checked row by row, as the scalar
//! pass checks it), and the position records' second halves two rows a vector, their 128-bit
//! products made of 32-bit ones (`u64x2_extmul_*`), as the x86 wide pass makes them.

use super::slots::{Chunk, MindRows, MindSlots};
use crate::world::hash::record::{AVALANCHE, Head3, TAIL_SECRET};
use crate::world::health::MaxHealth;
use std::arch::wasm32::*;

/// [`MindSlots::positions`] of the whole chunks of four rows: how many rows, and their
/// position records' sum (the caller hashes the rest).
pub(super) fn positions(
    s: &mut MindSlots<'_>,
    rows: &MindRows<'_>,
    max: &MaxHealth,
    delta: &mut [u64; 3],
) -> (usize, u64) {
    assert!(rows.even() && rows.len() == s.len(), "a slot a row");
    let n = rows.len() / 4 * 4;
    let mut sums = u64x2_splat(0);
    for r in (0..n).step_by(4) {
        // SAFETY: rows `r..r + 4` of every column are in bounds (`r + 4 <= n`, every column
        // of the rows' length, asserted above).
        let same = unsafe { same_rows(&s.chunks[r / 4], rows, r) };
        let mut differ = !same & 0b1111;
        while differ != 0 {
            s.refresh(r + differ.trailing_zeros() as usize, rows, max, delta);
            differ &= differ - 1;
        }
        // SAFETY: as above.
        let h = unsafe { tails(&s.chunks[r / 4].head, rows.pos.as_ptr().add(r)) };
        sums = i64x2_add(sums, h);
    }
    let sum = u64x2_extract_lane::<0>(sums).wrapping_add(u64x2_extract_lane::<1>(sums));
    (n, sum)
}

/// 16 bytes from `p`, unaligned.
///
/// # Safety
///
/// `p` points to 16 readable bytes.
#[inline(always)]
unsafe fn load<T>(p: *const T) -> v128 {
    // SAFETY: as the function's contract says; wasm loads need no alignment.
    unsafe { v128_load(p.cast()) }
}

/// Which of rows `r..r + 4` hold exactly the values `c` keeps of them (bit `j` for row `j`):
/// identity, velocity, brain (as words), health (as a 32-bit word) and aim (as its 6 bytes).
/// All four at once in the common case, row by row only where one differs.
///
/// # Safety
///
/// Rows `r..r + 4` of every column of `rows` are in bounds.
#[inline(always)]
unsafe fn same_rows(c: &Chunk, rows: &MindRows<'_>, r: usize) -> u32 {
    // SAFETY: the components are the bytes the chunk keeps (asserted in `slots`: identity,
    // velocity 8 bytes; brain 16; health 4; aim 6), rows `r..r + 4` of each in bounds: 32
    // bytes of words (two loads each), 64 of brains, 16 of health and 24 of aims (read as 16
    // and 8), as the chunk's arrays of four are.
    unsafe {
        let pair = |a: *const u64, b: *const u64| i64x2_eq(load(a), load(b));
        let (ri, rv) = (
            rows.id.as_ptr().add(r).cast::<u64>(),
            rows.vel.as_ptr().add(r),
        );
        let rv = rv.cast::<u64>();
        let (ci, cv) = (c.id.as_ptr(), c.vel.as_ptr());
        let words = [
            pair(ri, ci),
            pair(ri.add(2), ci.add(2)),
            pair(rv, cv),
            pair(rv.add(2), cv.add(2)),
        ];
        let brains: [v128; 4] = std::array::from_fn(|j| {
            i64x2_eq(
                load(rows.brain.as_ptr().add(r + j)),
                load(c.brain.as_ptr().add(j)),
            )
        });
        let health = i32x4_eq(load(rows.health.as_ptr().add(r)), load(c.health.as_ptr()));
        let (ra, ca) = (
            rows.aim.as_ptr().add(r).cast::<u8>(),
            c.aim.as_ptr().cast::<u8>(),
        );
        let aims = [
            i8x16_eq(load(ra), load(ca)),
            // The last 8 bytes (the loads' upper halves are zero in both).
            i8x16_eq(
                v128_load64_zero(ra.add(16).cast()),
                v128_load64_zero(ca.add(16).cast()),
            ),
        ];
        let all = [
            words[1], words[2], words[3], brains[0], brains[1], brains[2], brains[3],
        ]
        .into_iter()
        .fold(words[0], |a, b| v128_and(a, b));
        if i64x2_all_true(all)
            && i32x4_all_true(health)
            && i8x16_all_true(v128_and(aims[0], aims[1]))
        {
            return 0b1111;
        }
        let two = |v: v128| u32::from(i64x2_bitmask(v));
        let ids = two(words[0]) | two(words[1]) << 2;
        let vels = two(words[2]) | two(words[3]) << 2;
        let brains = (0..4).fold(0, |m, j| m | u32::from(i64x2_all_true(brains[j])) << j);
        let health = u32::from(i32x4_bitmask(health));
        let bytes = u32::from(i8x16_bitmask(aims[0])) | (u32::from(i8x16_bitmask(aims[1])) << 16);
        let aims = (0..4).fold(0, |m, j| {
            m | u32::from(bytes >> (6 * j) & 0x3f == 0x3f) << j
        });
        ids & vels & brains & health & aims
    }
}

/// The position records of four rows from their heads and positions: `tail3` of rows 0 and
/// 2's, then 1 and 3's, added lane by lane (wrapping: only their sum is wanted).
///
/// # Safety
///
/// `pos` points to four readable rows.
#[inline(always)]
unsafe fn tails(head: &[Head3; 4], pos: *const crate::world::components::Position) -> v128 {
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
