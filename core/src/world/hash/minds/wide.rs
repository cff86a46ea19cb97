//! [`MindSlots::positions`] four rows at a time in 256-bit registers, where an x86_64 CPU has
//! AVX2 (asked at run time by `MindSlots::wide`): a chunk's kept values compared with its
//! rows' in a few wide compares (a chunk where any differ is checked row by row, as the
//! scalar pass checks it), and the four position records' second halves in 64-bit lanes
//! (`hash::wide::tails`).

use super::slots::{Chunk, MindRows, MindSlots};
use crate::world::hash::wide::{lane_sum, load, tails};
use crate::world::health::MaxHealth;
use std::arch::x86_64::*;

/// [`MindSlots::positions`] of the whole chunks of four rows: how many rows, and their
/// position records' sum (the caller hashes the rest).
///
/// # Safety
///
/// The CPU has AVX2, and `s` holds a slot a row of `rows`, every column of `rows` and `s` of
/// one length.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn positions(
    s: &mut MindSlots<'_>,
    rows: &MindRows<'_>,
    max: &MaxHealth,
    delta: &mut [u64; 3],
) -> (usize, u64) {
    let n = rows.len() / 4 * 4;
    let (mut r, mut sum) = (0, 0u64);
    loop {
        // SAFETY: chunks from `r` to `n` are in bounds, as the function's contract makes
        // them in `s` too.
        let (to, part) = unsafe { same_run(s, rows, r, n) };
        (r, sum) = (to, sum.wrapping_add(part));
        if r == n {
            return (n, sum);
        }
        // SAFETY: rows `r..r + 4` of every column are in bounds (`r < n`, a multiple of 4).
        let mut differ = !unsafe { compare(&s.chunks[r / 4], rows, r) }.same_rows() & 0b1111;
        while differ != 0 {
            s.refresh(r + differ.trailing_zeros() as usize, rows, max, delta);
            differ &= differ - 1;
        }
        // SAFETY: as above.
        let h = unsafe { tails(&s.chunks[r / 4].head, rows.pos.as_ptr().add(r)) };
        sum = sum.wrapping_add(lane_sum(h));
        r += 4;
    }
}

/// The chunks from row `r` whose rows all hold exactly their slots' values, up to the first
/// that does not or row `n`: where they end, and their position records' sum (a loop with no
/// call, whose sums stay in registers).
///
/// # Safety
///
/// The CPU has AVX2; `r` and `n` are multiples of 4, and rows `r..n` of every column of
/// `rows` are in bounds, as their chunks in `s`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn same_run(s: &MindSlots<'_>, rows: &MindRows<'_>, r: usize, n: usize) -> (usize, u64) {
    let mut sums = _mm256_setzero_si256();
    let mut at = r;
    for c in &s.chunks[r / 4..n / 4] {
        // SAFETY: rows `at..at + 4` in bounds, as the function's contract says.
        if !unsafe { compare(c, rows, at) }.all_same() {
            break;
        }
        // SAFETY: as above.
        let h = unsafe { tails(&c.head, rows.pos.as_ptr().add(at)) };
        sums = _mm256_add_epi64(sums, h);
        at += 4;
    }
    (at, lane_sum(sums))
}

/// Rows `r..r + 4` compared with the values `c` keeps of them: identity, velocity, brain
/// (as words), health (as a 32-bit word) and aim (as its 6 bytes).
///
/// # Safety
///
/// The CPU has AVX2; rows `r..r + 4` of every column of `rows` are in bounds.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn compare(c: &Chunk, rows: &MindRows<'_>, r: usize) -> Compared {
    // SAFETY: the components are the bytes the chunk keeps (asserted in `slots`: identity,
    // velocity 8 bytes; brain 16; health 4; aim 6), rows `r..r + 4` of each in bounds: 32
    // bytes of words, 64 of brains, 16 of health and 24 of aims (read as 16 and 8), as the
    // chunk's arrays of four are.
    unsafe {
        let eq = |a: __m256i, b: __m256i| _mm256_cmpeq_epi64(a, b);
        let id = eq(load(rows.id.as_ptr().add(r)), load(c.id.as_ptr()));
        let vel = eq(load(rows.vel.as_ptr().add(r)), load(c.vel.as_ptr()));
        let brain = |k: usize| {
            eq(
                load(rows.brain.as_ptr().add(r + k)),
                load(c.brain.as_ptr().add(k)),
            )
        };
        let (ra, ca) = (
            rows.aim.as_ptr().add(r).cast::<u8>(),
            c.aim.as_ptr().cast::<u8>(),
        );
        Compared {
            words: _mm256_and_si256(id, vel),
            brains: [brain(0), brain(2)],
            health: _mm_cmpeq_epi32(
                _mm_loadu_si128(rows.health.as_ptr().add(r).cast()),
                _mm_loadu_si128(c.health.as_ptr().cast()),
            ),
            aims: [
                _mm_cmpeq_epi8(_mm_loadu_si128(ra.cast()), _mm_loadu_si128(ca.cast())),
                // The last 8 bytes (the loads' upper halves are zero in both).
                _mm_cmpeq_epi8(
                    _mm_loadl_epi64(ra.add(16).cast()),
                    _mm_loadl_epi64(ca.add(16).cast()),
                ),
            ],
        }
    }
}

/// Four rows' compares with their slots, each lane all ones where equal: identity and
/// velocity (a word a row), the two pairs of rows' brains (two words a row), health (32 bits
/// a row) and aims (bytes: six a row, the first 16 then the last 8).
struct Compared {
    words: __m256i,
    brains: [__m256i; 2],
    health: __m128i,
    aims: [__m128i; 2],
}

impl Compared {
    /// Whether every row holds exactly its slot's values.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn all_same(&self) -> bool {
        let ones = _mm256_set1_epi64x(-1);
        let bytes = _mm_and_si128(self.health, _mm_and_si128(self.aims[0], self.aims[1]));
        let words = _mm256_and_si256(self.words, _mm256_and_si256(self.brains[0], self.brains[1]));
        let all = _mm256_and_si256(words, _mm256_inserti128_si256::<0>(ones, bytes));
        _mm256_testc_si256(all, ones) != 0
    }

    /// Which rows hold exactly their slots' values (bit `j` for row `j`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn same_rows(&self) -> u32 {
        let lanes = |v: __m256i| _mm256_movemask_pd(_mm256_castsi256_pd(v)) as u32;
        // A brain's two words are two lanes (bits 0 and 1 of its pair's mask: the pair's
        // first row; 2 and 3: its second), an aim's six bytes six bits.
        let pairs = |m: u32| (m & m >> 1 & 1) | (m >> 1 & m >> 2 & 2);
        let brains = pairs(lanes(self.brains[0])) | pairs(lanes(self.brains[1])) << 2;
        let health = _mm_movemask_ps(_mm_castsi128_ps(self.health)) as u32;
        let bytes =
            _mm_movemask_epi8(self.aims[0]) as u32 | (_mm_movemask_epi8(self.aims[1]) as u32) << 16;
        let aims = (0..4).fold(0, |m, j| {
            m | u32::from(bytes >> (6 * j) & 0x3f == 0x3f) << j
        });
        lanes(self.words) & brains & health & aims
    }
}
