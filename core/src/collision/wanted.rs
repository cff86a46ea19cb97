//! The colliders a tick's pairs want full records of, and the pairs made canonical and
//! sorted once those are filled.

use super::{Body, Broadphase, Pair, sort};
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
    /// the machine has them (from [`sort::HALVES_MIN`] and `split_from`, each half is made
    /// canonical and its keys packed at once).
    pub fn finish(&mut self, split_from: usize) {
        let n = self.pairs.len();
        let look = Look {
            bits: &self.wanted_bits,
            ranks: &self.ranks,
            bodies: &self.bodies,
        };
        let packed = if n >= split_from.max(sort::HALVES_MIN) && crate::par::available() {
            let mid = n / 2;
            let (pa, pb) = self.pairs.split_at_mut(mid);
            let (ka, kb) = self.sorter.packing_halves(n, mid);
            let (a, b) = crate::par::join(|| look.canonical(pa, ka), || look.canonical(pb, kb));
            self.sorter.joined(a, b, mid)
        } else {
            look.canonical(&mut self.pairs, self.sorter.packing(n))
        };
        let bodies = &self.bodies;
        let seqs = |p: &Pair| (bodies[p.i as usize].seq, bodies[p.j as usize].seq);
        (self.sorter).sort_packed(&mut self.pairs, packed, seqs, split_from);
    }

    /// The creation sequences of a canonical pair's bodies: `(lo, hi)`, `lo < hi`.
    #[inline]
    pub fn seqs(&self, p: &Pair) -> (u64, u64) {
        (self.bodies[p.i as usize].seq, self.bodies[p.j as usize].seq)
    }
}

/// What making pairs canonical reads: which colliders are wanted, their ranks, and their
/// full records.
struct Look<'a> {
    bits: &'a [u64],
    ranks: &'a [u32],
    bodies: &'a [Body],
}

impl Look<'_> {
    /// Each of `pairs` between bodies, the lower creation sequence first (see [`Pair`]), its
    /// key packed for the sort in the same walk. A pair's bodies are ranks among the wanted
    /// colliders: a count of bits, one instruction where the CPU has it (x86-64 CPUs have
    /// since 2008), a dozen without, as the baseline x86-64 build counts.
    fn canonical(&self, pairs: &mut [Pair], packing: sort::Packing<'_>) -> sort::Packed {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has `popcnt`.
            return unsafe { self.canonical_popcnt(pairs, packing) };
        }
        self.canonical_walk(pairs, packing)
    }

    /// [`canonical`](Self::canonical), compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn canonical_popcnt(
        &self,
        pairs: &mut [Pair],
        packing: sort::Packing<'_>,
    ) -> sort::Packed {
        self.canonical_walk(pairs, packing)
    }

    #[inline(always)]
    fn canonical_walk(&self, pairs: &mut [Pair], mut packing: sort::Packing<'_>) -> sort::Packed {
        // A wanted collider not filled: `fill` checks each is filled in order, and a pair of
        // one past the last filled indexes past `bodies`.
        let body = |k: u32| {
            rank(self.bits, self.ranks, k as usize).expect("a pair's colliders are wanted")
        };
        for p in pairs {
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
