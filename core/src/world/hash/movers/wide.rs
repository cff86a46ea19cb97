//! [`MoverSlots::sums`] four rows at a time in 256-bit registers, where an x86_64 CPU has AVX2
//! (asked at run time by `MoverSlots::wide`): a chunk's kept values compared with its rows' in
//! three wide compares (a row that differs is hashed again as the scalar pass does), the four
//! position records' second halves in 64-bit lanes (`hash::wide::tails`), and the kept hashes
//! added four at a time.

use super::slots::{Chunk, MoverRows, MoverSlots};
use crate::world::hash::wide::{lane_sum, load, tails};
use std::arch::x86_64::*;

/// [`MoverSlots::sums`] of the whole chunks of four rows: how many rows, and their position,
/// velocity and lifetime records' sums (the caller hashes the rest).
///
/// # Safety
///
/// The CPU has AVX2, and `s` holds a slot a row of `rows`, every column of `rows` and `s` of
/// one length.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn sums(s: &mut MoverSlots<'_>, rows: &MoverRows<'_>) -> (usize, [u64; 3]) {
    let n = rows.len() / 4 * 4;
    let zero = _mm256_setzero_si256();
    let (mut pos, mut vel, mut life) = (zero, zero, zero);
    for r in (0..n).step_by(4) {
        // SAFETY: rows `r..r + 4` of every column are in bounds (`r < n`, a multiple of 4).
        let mut differ = !unsafe { same(&s.chunks[r / 4], rows, r) } & 0b1111;
        while differ != 0 {
            s.refresh(r + differ.trailing_zeros() as usize, rows);
            differ &= differ - 1;
        }
        let c = &s.chunks[r / 4];
        // SAFETY: as above; a chunk's columns are arrays of four words.
        unsafe {
            pos = _mm256_add_epi64(pos, tails(&c.head, rows.pos.as_ptr().add(r)));
            vel = _mm256_add_epi64(vel, load(c.vel_hash.as_ptr()));
            life = _mm256_add_epi64(life, load(c.life_hash.as_ptr()));
        }
    }
    (n, [lane_sum(pos), lane_sum(vel), lane_sum(life)])
}

/// Which of rows `r..r + 4` hold exactly the values `c` keeps of them (bit `j` for row `j`):
/// identity, velocity and lifetime as words (a lifetime's word 0 where the rows keep none).
///
/// # Safety
///
/// The CPU has AVX2; rows `r..r + 4` of every column of `rows` are in bounds.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn same(c: &Chunk, rows: &MoverRows<'_>, r: usize) -> u32 {
    // SAFETY: identities, velocities and lifetimes are 8 bytes each, as the words the chunk
    // keeps of them (asserted in `movers`; a lifetime is its deadline's word, an identity its
    // `word`, a velocity its two floats' bits, the first in the low half, on this
    // little-endian CPU); rows `r..r + 4` of each in bounds: 32 bytes.
    unsafe {
        let eq = |a: __m256i, b: __m256i| _mm256_cmpeq_epi64(a, b);
        let id = eq(load(rows.id.as_ptr().add(r)), load(c.id.as_ptr()));
        let vel = eq(load(rows.vel.as_ptr().add(r)), load(c.vel.as_ptr()));
        let now = rows
            .life
            .map_or(_mm256_setzero_si256(), |l| load(l.as_ptr().add(r)));
        let life = eq(now, load(c.life.as_ptr()));
        let all = _mm256_and_si256(_mm256_and_si256(id, vel), life);
        _mm256_movemask_pd(_mm256_castsi256_pd(all)) as u32
    }
}
