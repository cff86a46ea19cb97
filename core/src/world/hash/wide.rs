//! The position record's second half ([`tail3`]) of four rows at a time in 256-bit registers,
//! where an x86_64 CPU has AVX2 (the callers ask at run time): what the wide passes over kept
//! rows (`minds`, `movers`) share. Each 64-bit lane is the word `tail3` gives.
//!
//! XXH3's 128-bit product has no packed instruction: it is made of four 32-bit products
//! (`_mm256_mul_epu32`), as its low 64 bits in the avalanche are of three.
//!
//! [`tail3`]: crate::world::hash::record::tail3

use crate::world::components::Position;
use crate::world::hash::record::{AVALANCHE, Head3, TAIL_SECRET};
use std::arch::x86_64::*;

/// The wrapping sum of the four lanes.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn lane_sum(v: __m256i) -> u64 {
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
pub(super) unsafe fn load<T>(p: *const T) -> __m256i {
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
pub(super) unsafe fn tails(head: &[Head3; 4], pos: *const Position) -> __m256i {
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
