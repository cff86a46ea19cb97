//! The colliders a tick's pairs want full records of, and the pairs made canonical and
//! sorted once those are filled.

use super::{Broadphase, Pair, sort};
use crate::limits::{push_snug, resize_snug};

impl Broadphase {
    /// Collider `k`'s index in [`bodies`](Self::bodies), if it is wanted (once every wanted
    /// collider is filled, in [`wanted_list`](Self::wanted_list)'s order).
    #[inline]
    pub fn body_of(&self, k: usize) -> Option<usize> {
        rank(&self.wanted_bits, &self.ranks, k)
    }

    /// Marks the colliders whose full records are wanted, those in a pair the search found,
    /// and lists them in `wanted_list`.
    pub fn want(&mut self) {
        let n = self.count;
        let bits = &mut self.wanted_bits;
        for &k in &self.wanted_list {
            bits[k as usize >> 6] = 0;
        }
        debug_assert!(!bits.iter().any(|&w| w != 0), "last tick's bits cleared");
        let words = n.div_ceil(64);
        if bits.len() < words {
            resize_snug(bits, words, 0);
            resize_snug(&mut self.ranks, words, 0);
        }
        let list = &mut self.wanted_list;
        list.clear();
        if self.pairs.len() * 64 >= n {
            // Many pairs: the bits set, then read out a word at a time.
            for p in &self.pairs {
                for k in [p.i, p.j] {
                    bits[k as usize >> 6] |= 1 << (k & 63);
                }
            }
            for (w, &word) in bits[..words].iter().enumerate() {
                let mut word = word;
                if word != 0 {
                    self.ranks[w] = list.len() as u32;
                }
                while word != 0 {
                    push_snug(list, w as u32 * 64 + word.trailing_zeros());
                    word &= word - 1;
                }
            }
        } else {
            // Each collider listed as it is first marked, then the list sorted: a collider in
            // many pairs (a player under a pile of drones) is sorted once, not once a pair.
            for p in &self.pairs {
                for k in [p.i, p.j] {
                    let (w, bit) = (k as usize >> 6, 1u64 << (k & 63));
                    if bits[w] & bit == 0 {
                        bits[w] |= bit;
                        push_snug(list, k);
                    }
                }
            }
            list.sort_unstable();
            let mut last = usize::MAX;
            for (rank, &k) in list.iter().enumerate() {
                if k as usize >> 6 != last {
                    last = k as usize >> 6;
                    self.ranks[last] = rank as u32;
                }
            }
        }
    }

    /// Makes the pairs canonical (see [`Pair`]) once every wanted collider is filled, and
    /// sorts them by creation sequence key: from `split_from` pairs, on two threads where
    /// the machine has them.
    pub fn finish(&mut self, split_from: usize) {
        // A pair's bodies are ranks among the wanted colliders: a count of bits, one
        // instruction where the CPU has it (x86-64 CPUs have since 2008), a
        // dozen without, as the baseline x86-64 build counts.
        #[cfg(target_arch = "x86_64")]
        let packed = if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has `popcnt`.
            unsafe { self.canonical_popcnt() }
        } else {
            self.canonical()
        };
        #[cfg(not(target_arch = "x86_64"))]
        let packed = self.canonical();
        let bodies = &self.bodies;
        let seqs = |p: &Pair| (bodies[p.i as usize].seq, bodies[p.j as usize].seq);
        (self.sorter).sort_packed(&mut self.pairs, packed, seqs, split_from);
    }

    /// The creation sequences of a canonical pair's bodies: `(lo, hi)`, `lo < hi`.
    #[inline]
    pub fn seqs(&self, p: &Pair) -> (u64, u64) {
        (self.bodies[p.i as usize].seq, self.bodies[p.j as usize].seq)
    }

    /// [`canonical`](Self::canonical), compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn canonical_popcnt(&mut self) -> sort::Packed {
        self.canonical()
    }

    /// Each pair between bodies, the lower creation sequence first (see [`Pair`]), its key
    /// packed for the sort in the same walk.
    #[inline(always)]
    fn canonical(&mut self) -> sort::Packed {
        // A wanted collider not filled: `fill` checks each is filled in order, and a pair of
        // one past the last filled indexes past `bodies`.
        let (bits, ranks) = (&self.wanted_bits, &self.ranks);
        let body = |k: u32| rank(bits, ranks, k as usize).expect("a pair's colliders are wanted");
        let mut packing = self.sorter.packing(self.pairs.len());
        for p in &mut self.pairs {
            let (i, j) = (body(p.i) as u32, body(p.j) as u32);
            let (a, b) = (self.bodies[i as usize].seq, self.bodies[j as usize].seq);
            let (lo, hi);
            (lo, hi, p.i, p.j) = if a < b { (a, b, i, j) } else { (b, a, j, i) };
            if a > b {
                p.normal = -p.normal;
            }
            packing.push((lo, hi));
        }
        packing.done()
    }
}

/// Collider `k`'s rank among the wanted colliders (see [`Broadphase::wanted_bits`]), if it is
/// one.
#[inline(always)]
fn rank(bits: &[u64], ranks: &[u32], k: usize) -> Option<usize> {
    let (w, bit) = (k >> 6, 1u64 << (k & 63));
    let word = bits[w];
    (word & bit != 0).then(|| ranks[w] as usize + (word & (bit - 1)).count_ones() as usize)
}
