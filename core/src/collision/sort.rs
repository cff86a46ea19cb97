//! Sorting the tick's pairs by key: a radix sort of packed keys where there are many.

/// Pairs from which sorting packs `(lo, hi)` keys (with each pair's index) and sorts those.
const PACKED_MIN: usize = 32;
/// Pairs from which the packed keys are sorted by radix.
const RADIX_MIN: usize = 1024;
/// Pairs up to which a sort that may split does (past them, one radix sort on one thread
/// takes less than two comparison sorts of halves and their merge: a pushing crowd's).
const SPLIT_UNTIL: usize = 4096;
/// Keys from which a sort that may split makes and merges their halves' runs on two threads
/// (below, the join costs more than it saves: measured by pair count in the swarm's piles).
pub(crate) const HALVES_MIN: usize = 2048;
/// Most bits per radix digit (a digit's counts, 16 KiB, stay in the first-level cache).
const DIGIT: u32 = 12;
/// Keys per ascending run from which keys that come in a few such runs (a pile's pairs, found
/// querier by querier in the rows' order) are sorted by merging the runs: a walk a level,
/// about log2(runs) levels, where radix takes its passes and its counts whatever the order.
const KEYS_PER_RUN: usize = 16;

/// Reused buffers of [`PairSort::sort_packed`].
///
/// Invariant: between sorts `keys` and `spare` hold no meaning, only room: a sort packs each
/// item's key and its index into one word (see [`PairSort::sort_packed`]).
#[derive(Clone, Debug)]
pub(crate) struct PairSort<T> {
    keys: Vec<u64>,
    spare: Vec<u64>,
    counts: Vec<u32>,
    items: Vec<T>,
    /// Where each ascending run of the keys starts, and their end (see `merge_runs`): of all
    /// the keys, or of the first half's and the second half's where the halves merge their
    /// runs on two threads.
    runs: [Vec<usize>; 2],
}

impl<T> Default for PairSort<T> {
    fn default() -> Self {
        PairSort {
            keys: Vec::new(),
            spare: Vec::new(),
            counts: Vec::new(),
            items: Vec::new(),
            runs: [Vec::new(), Vec::new()],
        }
    }
}

/// What packing the keys found (see [`PairSort::packing`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed {
    /// Every key's halves ORed: its bits are the widest half's.
    top: u64,
    /// How many keys came below the one before (0: in ascending order).
    descents: usize,
}

/// Keys being packed, one an item in the items' order: `lo << 32 | hi`, which orders the
/// items as `(lo, hi)` does while both halves fit in 32 bits (else the items are sorted by
/// comparison); the item's index is its key's place.
pub(crate) struct Packing<'a> {
    keys: &'a mut [u64],
    at: usize,
    top: u64,
    last: u64,
    descents: usize,
}

impl Packing<'_> {
    /// The next item's key.
    #[inline(always)]
    pub fn push(&mut self, (lo, hi): (u64, u64)) {
        let key = (lo << 32) | hi;
        self.top |= lo | hi;
        self.descents += usize::from(key <= self.last);
        self.last = key;
        self.keys[self.at] = key;
        self.at += 1;
    }

    pub fn done(self) -> Packed {
        debug_assert_eq!(self.at, self.keys.len(), "a key packed an item");
        Packed {
            top: self.top,
            descents: self.descents,
        }
    }
}

impl<T: Copy> PairSort<T> {
    /// Sorts `items` by `key(item) = (lo, hi)`, keys unique: the same order as a comparison
    /// sort (see [`sort_packed`](Self::sort_packed)).
    #[cfg(test)]
    pub fn sort(&mut self, items: &mut Vec<T>, key: impl Fn(&T) -> (u64, u64), split_from: usize) {
        let n = items.len();
        let packed = if n >= split_from && n >= 2 {
            let mid = n / 2;
            let (mut a, mut b) = self.packing_halves(n, mid);
            items[..mid].iter().for_each(|p| a.push(key(p)));
            items[mid..].iter().for_each(|p| b.push(key(p)));
            let (a, b) = (a.done(), b.done());
            self.joined(a, b, mid)
        } else {
            let mut packing = self.packing(n);
            items.iter().for_each(|p| packing.push(key(p)));
            packing.done()
        };
        self.sort_packed(items, packed, key, split_from);
    }

    /// Starts packing the keys of `n` items, in the items' order, for
    /// [`sort_packed`](Self::sort_packed): the walk that makes the keys packs them.
    pub fn packing(&mut self, n: usize) -> Packing<'_> {
        self.keys.clear();
        crate::limits::resize_snug(&mut self.keys, n, 0);
        packing(&mut self.keys)
    }

    /// [`packing`](Self::packing) in two halves, items `..mid` and `mid..`, which two walks
    /// may pack at once: their [`Packed`]s then make one ([`joined`](Self::joined)).
    pub fn packing_halves(&mut self, n: usize, mid: usize) -> (Packing<'_>, Packing<'_>) {
        self.keys.clear();
        crate::limits::resize_snug(&mut self.keys, n, 0);
        let (a, b) = self.keys.split_at_mut(mid);
        (packing(a), packing(b))
    }

    /// What packing all the keys finds, from what packing the halves split at `mid` found:
    /// the descents of both, and one more where the second half's first key is not above
    /// the first half's last.
    pub fn joined(&self, a: Packed, b: Packed, mid: usize) -> Packed {
        let at_mid = mid > 0 && mid < self.keys.len() && self.keys[mid] <= self.keys[mid - 1];
        // The second half's first key was counted as a descent only where it is 0 (its
        // packing began with `last` 0), as the first half's first key was.
        let counted = mid < self.keys.len() && self.keys[mid] == 0;
        Packed {
            top: a.top | b.top,
            descents: a.descents + b.descents + usize::from(at_mid) - usize::from(counted),
        }
    }

    /// Sorts `items` by `key(item) = (lo, hi)`, keys unique, whose keys were just packed
    /// ([`packing`](Self::packing)): the same order as a comparison sort. Where each half
    /// fits in `bits` bits and `2 * bits` and an index's bits fit in a word, each key becomes
    /// one word, its halves' unused high bits squeezed out, its item's index below them; the
    /// words are sorted (by radix when there are many; from `split_from` of them up to
    /// [`SPLIT_UNTIL`], in two halves on two threads where the machine has them, then
    /// merged; where they came in a few ascending runs, by merging those) and the items
    /// gathered by the indices. Items already in order stay as they are; others are sorted by
    /// comparison.
    pub fn sort_packed(
        &mut self,
        items: &mut Vec<T>,
        packed: Packed,
        key: impl Fn(&T) -> (u64, u64),
        split_from: usize,
    ) {
        let n = items.len();
        debug_assert_eq!(self.keys.len(), n, "a key packed an item");
        let bits = 64 - packed.top.leading_zeros();
        let index_bits = usize::BITS - n.saturating_sub(1).leading_zeros();
        if n < PACKED_MIN || bits > 32 || 2 * bits + index_bits > 64 {
            items.sort_unstable_by_key(key);
            return;
        }
        if packed.descents == 0 {
            return;
        }
        // Each key as its halves' `2 * bits` bits, then its item's index.
        for (i, k) in self.keys.iter_mut().enumerate() {
            let squeezed = ((*k >> 32) << bits) | (*k & u64::from(u32::MAX));
            *k = (squeezed << index_bits) | i as u64;
        }
        if (packed.descents + 1) * KEYS_PER_RUN <= n {
            self.merge_runs(n >= split_from.max(HALVES_MIN) && crate::par::available());
        } else if (split_from..SPLIT_UNTIL).contains(&n) && crate::par::available() {
            // A pile's pairs, sorted on one thread after the search: its halves sort at once,
            // and two sorted halves merge in one walk.
            let mid = n / 2;
            let (a, b) = self.keys.split_at_mut(mid);
            crate::par::join(|| a.sort_unstable(), || b.sort_unstable());
            crate::limits::resize_snug(&mut self.spare, n, 0);
            merge_into(&self.keys[..mid], &self.keys[mid..], &mut self.spare);
            std::mem::swap(&mut self.keys, &mut self.spare);
        } else if n < RADIX_MIN {
            self.keys.sort_unstable();
        } else {
            self.radix(index_bits, 2 * bits);
        }
        let index = (1u64 << index_bits) - 1;
        self.items.clear();
        crate::limits::room(&mut self.items, n);
        self.items
            .extend(self.keys.iter().map(|&k| items[(k & index) as usize]));
        std::mem::swap(items, &mut self.items);
    }

    /// Sorts `keys` (unique) by merging their ascending runs (see [`merge_levels`]); `halves`:
    /// each half's runs on one of two threads at once, then the two halves in one walk.
    fn merge_runs(&mut self, halves: bool) {
        let n = self.keys.len();
        crate::limits::resize_snug(&mut self.spare, n, 0);
        let (keys, spare) = (&mut self.keys, &mut self.spare);
        if !halves {
            if merge_levels(keys, spare, &mut self.runs[0]) {
                std::mem::swap(keys, spare);
            }
            return;
        }
        let mid = n / 2;
        let ((ka, kb), (sa, sb)) = (keys.split_at_mut(mid), spare.split_at_mut(mid));
        let [ra, rb] = &mut self.runs;
        let (a, b) = crate::par::join(|| merge_levels(ka, sa, ra), || merge_levels(kb, sb, rb));
        // Both sorted halves in `keys`, then merged into `spare`.
        if a {
            ka.copy_from_slice(sa);
        }
        if b {
            kb.copy_from_slice(sb);
        }
        merge_into(ka, kb, spare);
        std::mem::swap(keys, spare);
    }

    /// Sorts `keys` by radix on their `bits` bits from bit `from` (the bits below are the
    /// indices, unique, which decide no order among unique keys): the fewest passes of at
    /// most [`DIGIT`] bits, every pass's counts taken in one walk.
    fn radix(&mut self, from: u32, bits: u32) {
        let n = self.keys.len();
        let passes = bits.div_ceil(DIGIT).max(1);
        let digit = bits.div_ceil(passes);
        let size = 1usize << digit;
        let mask = (size - 1) as u64;
        self.spare.clear();
        crate::limits::resize_snug(&mut self.spare, n, 0);
        self.counts.clear();
        self.counts.resize(size * passes as usize, 0);
        for k in &self.keys {
            let mut k = k >> from;
            for counts in self.counts.chunks_exact_mut(size) {
                counts[(k & mask) as usize] += 1;
                k >>= digit;
            }
        }
        for (p, counts) in self.counts.chunks_exact_mut(size).enumerate() {
            let mut sum = 0u32;
            for c in counts.iter_mut() {
                let here = *c;
                *c = sum;
                sum += here;
            }
            let shift = from + p as u32 * digit;
            for &k in &self.keys {
                let d = ((k >> shift) & mask) as usize;
                self.spare[counts[d] as usize] = k;
                counts[d] += 1;
            }
            std::mem::swap(&mut self.keys, &mut self.spare);
        }
    }
}

/// Packing into `keys`, as long as the items.
fn packing(keys: &mut [u64]) -> Packing<'_> {
    Packing {
        keys,
        at: 0,
        top: 0,
        last: 0,
        descents: 0,
    }
}

/// Sorts `keys` (unique) by merging their ascending runs, neighbours two by two, a level at
/// a time, from `keys` into `spare` (as long) and back: whether the sorted keys end in
/// `spare`. `runs` is its buffer for where the runs start.
fn merge_levels(keys: &mut [u64], spare: &mut [u64], runs: &mut Vec<usize>) -> bool {
    runs.clear();
    runs.push(0);
    runs.extend((1..keys.len()).filter(|&i| keys[i] < keys[i - 1]));
    runs.push(keys.len());
    let (mut from, mut to) = (keys, spare);
    let mut in_spare = false;
    // `runs` holds each run's start and the end: merged, run `2k` and `2k + 1` become run
    // `k` (its start is written after the three bounds it reads).
    while runs.len() > 2 {
        let (mut k, mut w) = (0, 1);
        while k + 2 < runs.len() {
            let (a, b, end) = (runs[k], runs[k + 1], runs[k + 2]);
            merge_into(&from[a..b], &from[b..end], &mut to[a..end]);
            runs[w] = end;
            (k, w) = (k + 2, w + 1);
        }
        if k + 1 < runs.len() {
            let (a, end) = (runs[k], runs[k + 1]);
            to[a..end].copy_from_slice(&from[a..end]);
            runs[w] = end;
            w += 1;
        }
        runs.truncate(w);
        std::mem::swap(&mut from, &mut to);
        in_spare = !in_spare;
    }
    in_spare
}

/// The keys of `a` and `b` (each sorted, all unique) in order, in `out` (as long as both).
fn merge_into(a: &[u64], b: &[u64], out: &mut [u64]) {
    assert_eq!(out.len(), a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    for o in out.iter_mut() {
        let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) else {
            break;
        };
        if x < y {
            *o = x;
            i += 1;
        } else {
            *o = y;
            j += 1;
        }
    }
    let k = i + j;
    out[k..k + a.len() - i].copy_from_slice(&a[i..]);
    out[k + a.len() - i..].copy_from_slice(&b[j..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys packed in two halves, at any split, find what packing them in one walk finds:
    /// the same bits, and the same descents (keys of 0 among them, a half's first key
    /// above, equal to or below the other half's last).
    #[test]
    fn halves_packed_apart_find_what_one_packing_finds() {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut sorter = PairSort::<()>::default();
        for case in 0..2_000 {
            let n = rng.usize(2..40);
            let top = [1u64, 3, 50, 1 << 20][case % 4];
            let keys: Vec<(u64, u64)> =
                (0..n).map(|_| (rng.u64(0..top), rng.u64(0..top))).collect();
            let mut one = sorter.packing(n);
            keys.iter().for_each(|&k| one.push(k));
            let one = one.done();
            for mid in 1..n {
                let (mut a, mut b) = sorter.packing_halves(n, mid);
                keys[..mid].iter().for_each(|&k| a.push(k));
                keys[mid..].iter().for_each(|&k| b.push(k));
                let (a, b) = (a.done(), b.done());
                let halves = sorter.joined(a, b, mid);
                assert_eq!(
                    (halves.top, halves.descents),
                    (one.top, one.descents),
                    "{keys:?} split at {mid}"
                );
            }
        }
    }

    #[test]
    fn radix_comparison_and_split_sorts_agree() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut sorter = PairSort::default();
        // Each case sorted on one thread and from 32 items in two halves (on two threads
        // where the machine has them).
        let mut check = |items: &[(u64, u64, u32)], what: &str| {
            let mut expected = items.to_vec();
            expected.sort_unstable_by_key(|p| (p.0, p.1));
            for split_from in [usize::MAX, 32] {
                let mut sorted = items.to_vec();
                sorter.sort(&mut sorted, |p| (p.0, p.1), split_from);
                assert_eq!(sorted, expected, "{what}, split from {split_from}");
                // Sorted already: they stay.
                sorter.sort(&mut sorted, |p| (p.0, p.1), split_from);
                assert_eq!(sorted, expected, "{what} sorted, split from {split_from}");
            }
        };
        // Radix from 1,024 items: one pass of 12 bits, three of 9, three of 12, four of 10.
        for (n, top) in [
            (10, 100u64),
            (40, 1000),
            (700, 1 << 20),
            (1100, 64),
            (4000, 1 << 13),
            (5000, 1 << 18),
            (5000, 1 << 20),
            (3000, u32::MAX as u64),
            (2000, 1 << 40),
        ] {
            let mut seen = std::collections::BTreeSet::new();
            let mut items: Vec<(u64, u64, u32)> = Vec::new();
            while items.len() < n {
                let (a, b) = (rng.u64(1..top), rng.u64(1..top));
                if a != b && seen.insert((a.min(b), a.max(b))) {
                    items.push((a.min(b), a.max(b), items.len() as u32));
                }
            }
            check(&items, &format!("{n} items below {top}"));
        }
        // Keys in a few ascending runs (a pile's pairs, querier by querier): merged runs,
        // from two runs to one a sixteenth of the keys, and a run's keys past the next's.
        for (n, runs) in [
            (64, 2),
            (1100, 3),
            (1333, 28),
            (3000, 187),
            (5000, 9),
            (40, 1),
        ] {
            let mut keys: Vec<u64> = (1..=n as u64 * 3).collect();
            rng.shuffle(&mut keys);
            keys.truncate(n);
            let mut items: Vec<(u64, u64, u32)> =
                keys.iter().map(|&k| (k % 5, k, k as u32)).collect();
            let cut = |rng: &mut fastrand::Rng| rng.usize(0..=n);
            let mut bounds: Vec<usize> = (1..runs).map(|_| cut(&mut rng)).collect();
            bounds.extend([0, n]);
            bounds.sort_unstable();
            for w in bounds.windows(2) {
                items[w[0]..w[1]].sort_unstable_by_key(|p| (p.0, p.1));
            }
            check(&items, &format!("{n} items in {runs} runs"));
        }
        // A pile on one body: every key's low half is its; the high halves differ in the
        // bits from `from` to `top`.
        for (n, from, top) in [
            (3000, 0u64, 1u64 << 17),
            (3000, 1 << 20, 1 << 21),
            (2000, 1 << 30, (1 << 30) + 4096),
            (1500, 0, 1 << 32),
        ] {
            let mut items: Vec<(u64, u64, u32)> = (0..n)
                .map(|k| (7, from + rng.u64(0..top - from), k as u32))
                .collect();
            items.sort_unstable_by_key(|p| p.1);
            items.dedup_by_key(|p| p.1);
            rng.shuffle(&mut items);
            check(
                &items,
                &format!("{n} items on one body from {from} below {top}"),
            );
        }
    }
}
