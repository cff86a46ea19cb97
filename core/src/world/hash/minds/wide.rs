//! [`MindSlots::positions`] four rows at a time in 256-bit registers, where an x86_64 CPU has
//! AVX2 (asked at run time by `MindSlots::wide`): a chunk's kept values compared with its
//! rows' in a few wide compares (a chunk where any differ is checked row by row, as the
//! scalar pass checks it), and the four position records' second halves ([`tail3`]) in
//! 64-bit lanes, each lane the word `tail3` gives.
//!
//! XXH3's 128-bit product has no packed instruction: it is made of four 32-bit products
//! (`_mm256_mul_epu32`), as its low 64 bits in the avalanche are of three.
//!
//! [`tail3`]: crate::world::hash::record::tail3

use super::slots::{Chunk, MindRows, MindSlots};
use crate::world::components::Position;
use crate::world::hash::record::{AVALANCHE, Head3, TAIL_SECRET};
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

/// The wrapping sum of the four lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn lane_sum(v: __m256i) -> u64 {
    let half = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let sum = _mm_add_epi64(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(sum) as u64
}

/// 32 bytes from `p`, unaligned.
///
/// # Safety
///
/// `p` points to 32 readable bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load<T>(p: *const T) -> __m256i {
    // SAFETY: as the function's contract says.
    unsafe { _mm256_loadu_si256(p.cast()) }
}

/// The position records of four rows from their heads and positions: `tail3` of row 0, 2,
/// 1 and 3's head with its position's word, in lanes 0 to 3.
///
/// # Safety
///
/// The CPU has AVX2; `pos` points to four readable rows.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn tails(head: &[Head3; 4], pos: *const Position) -> __m256i {
    // SAFETY: as the function's contract says, and four heads are 64 bytes; `Head3` is its
    // sum then its second word (`repr(C)`), a position its two floats (`repr(transparent)`
    // over `repr(C)`), whose bits as one little-endian word are the record's last word
    // (`record::pair`).
    let (h01, h23, pos) = unsafe { (load(head.as_ptr()), load(head.as_ptr().add(2)), load(pos)) };
    // Rows 0, 2, 1, 3 in the lanes: the heads' sums, their second words, the positions.
    let (sum, b) = (
        _mm256_unpacklo_epi64(h01, h23),
        _mm256_unpackhi_epi64(h01, h23),
    );
    let c = _mm256_permute4x64_epi64::<0b11_01_10_00>(pos);
    let secret = _mm256_set1_epi64x(TAIL_SECRET as i64);
    let mut h = _mm256_add_epi64(sum, mix(b, _mm256_xor_si256(c, secret)));
    h = _mm256_xor_si256(h, _mm256_srli_epi64::<37>(h));
    h = mul_low(h, _mm256_set1_epi64x(AVALANCHE as i64));
    _mm256_xor_si256(h, _mm256_srli_epi64::<32>(h))
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

/// XXH3's 128-bit product of each lane's words folded to 64 bits (`record::mix`): the low
/// word of the product xor its high word.
#[target_feature(enable = "avx2")]
#[inline]
fn mix(a: __m256i, b: __m256i) -> __m256i {
    let low32 = _mm256_set1_epi64x(0xffff_ffff);
    let (a_hi, b_hi) = (_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    // The four 32-bit products, each in a 64-bit lane.
    let ll = _mm256_mul_epu32(a, b);
    let lh = _mm256_mul_epu32(a, b_hi);
    let hl = _mm256_mul_epu32(a_hi, b);
    let hh = _mm256_mul_epu32(a_hi, b_hi);
    // Bits 32 to 95 of the product, with the carry into the high word above bit 63.
    let cross = _mm256_add_epi64(
        _mm256_add_epi64(_mm256_srli_epi64::<32>(ll), _mm256_and_si256(lh, low32)),
        _mm256_and_si256(hl, low32),
    );
    let low = _mm256_or_si256(_mm256_and_si256(ll, low32), _mm256_slli_epi64::<32>(cross));
    let high = _mm256_add_epi64(
        _mm256_add_epi64(hh, _mm256_srli_epi64::<32>(lh)),
        _mm256_add_epi64(_mm256_srli_epi64::<32>(hl), _mm256_srli_epi64::<32>(cross)),
    );
    _mm256_xor_si256(low, high)
}

/// Each lane's wrapping product, the low 64 bits.
#[target_feature(enable = "avx2")]
#[inline]
fn mul_low(a: __m256i, b: __m256i) -> __m256i {
    let (a_hi, b_hi) = (_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let cross = _mm256_add_epi64(_mm256_mul_epu32(a_hi, b), _mm256_mul_epu32(a, b_hi));
    _mm256_add_epi64(_mm256_mul_epu32(a, b), _mm256_slli_epi64::<32>(cross))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::world::hash::record::{head3, pair, tail3};

    /// Each lane of the packed tails is `tail3` of its row's head and position, for words
    /// whose halves carry into each other (all ones among them) and floats of every kind.
    #[test]
    fn packed_tails_are_tail3() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = fastrand::Rng::with_seed(37);
        let edge = [0, 1, u64::MAX, 0xffff_ffff, 1 << 32, 1 << 63];
        let word = |rng: &mut fastrand::Rng| match rng.u8(..4) {
            0 => edge[rng.usize(..edge.len())],
            _ => rng.u64(..),
        };
        for _ in 0..10_000 {
            let heads: [Head3; 4] = std::array::from_fn(|_| head3(word(&mut rng), word(&mut rng)));
            let pos: [Position; 4] = std::array::from_fn(|_| {
                let w = word(&mut rng);
                Position(Vec2::new(
                    f32::from_bits(w as u32),
                    f32::from_bits((w >> 32) as u32),
                ))
            });
            let mut lanes = [0u64; 4];
            // SAFETY: the CPU has AVX2 (checked above); four rows each; four writable words.
            unsafe {
                let t = tails(&heads, pos.as_ptr());
                _mm256_storeu_si256(lanes.as_mut_ptr().cast(), t);
            }
            for (lane, row) in [0, 2, 1, 3].into_iter().enumerate() {
                let p = pos[row].0;
                let want = tail3(heads[row], pair(p.x, p.y));
                assert_eq!(lanes[lane], want, "{heads:x?} {pos:?} row {row}");
            }
        }
    }
}
