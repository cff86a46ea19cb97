//! [`MindSlots::positions`] four rows at a time in the browser's 128-bit lanes (wasm
//! `simd128`, which the browser build enables): a chunk's kept values compared with its rows'
//! in a few packed compares (a chunk where any differ is checked row by row, as the scalar
//! pass checks it), and the position records' second halves two rows a vector
//! (`hash::packed::tails`).

use super::slots::{Chunk, MindRows, MindSlots};
use crate::world::hash::packed::{lane_sum, load, tails};
use crate::world::health::MaxHealth;
use std::arch::wasm32::*;

/// [`MindSlots::positions`] of the whole chunks of four rows: how many rows, and their
/// position records' sum (the caller hashes the rest).
///
/// # Safety
///
/// `s` holds a slot a row of `rows`, every column of `rows` and `s` of one length.
pub(super) unsafe fn positions(
    s: &mut MindSlots<'_>,
    rows: &MindRows<'_>,
    max: &MaxHealth,
    delta: &mut [u64; 3],
) -> (usize, u64) {
    let n = rows.len() / 4 * 4;
    let mut sums = u64x2_splat(0);
    for r in (0..n).step_by(4) {
        // SAFETY: rows `r..r + 4` of every column are in bounds (`r + 4 <= n`, every column
        // of the rows' length, as the function's contract says).
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
    (n, lane_sum(sums))
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
