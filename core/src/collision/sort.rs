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
/// querier by querier in the rows' order) are sorted by merging the runs (see
/// [`sort_runs`]), where radix takes its passes and its counts whatever the order.
const KEYS_PER_RUN: usize = 16;
/// Most keys of the kept run that one descent moves out of it (see [`sort_runs`]).
const POPS: usize = 8;
/// The share of the keys, as a divisor, up to which [`sort_runs`] sorts the keys out of the
/// kept run on their own; past it they are merged run by run with it ([`merge_levels`]).
const OUT_OF_RUN: usize = 4;

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
    /// The keys out of the kept run (see [`sort_runs`]), of all the keys or of each half's.
    out: [Vec<u64>; 2],
}

impl<T> Default for PairSort<T> {
    fn default() -> Self {
        PairSort {
            keys: Vec::new(),
            spare: Vec::new(),
            counts: Vec::new(),
            items: Vec::new(),
            runs: [Vec::new(), Vec::new()],
            out: [Vec::new(), Vec::new()],
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

    /// Sorts `keys` (unique) that come in few ascending runs (see [`sort_runs`]); `halves`:
    /// each half on one of two threads at once, then the two halves in one walk.
    fn merge_runs(&mut self, halves: bool) {
        let n = self.keys.len();
        crate::limits::resize_snug(&mut self.spare, n, 0);
        let (keys, spare) = (&mut self.keys, &mut self.spare);
        if !halves {
            if sort_runs(keys, spare, &mut self.out[0], &mut self.runs[0]) {
                std::mem::swap(keys, spare);
            }
            return;
        }
        let mid = n / 2;
        let ((ka, kb), (sa, sb)) = (keys.split_at_mut(mid), spare.split_at_mut(mid));
        let ([ra, rb], [oa, ob]) = (&mut self.runs, &mut self.out);
        let (a, b) = crate::par::join(|| sort_runs(ka, sa, oa, ra), || sort_runs(kb, sb, ob, rb));
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

/// Sorts `keys` (unique) that come in few ascending runs, from `keys` into `spare` (as long)
/// and back: whether the sorted keys end in `spare`. One walk keeps a run ascending in place
/// and moves the keys that break it to `out`: a key below the run's last is the run's next
/// where at most [`POPS`] keys at the run's end are above it (those move out), else it moves
/// out. A pile's keys come so: its body's pairs in the rows' order, among them the few of
/// other bodies. Where at most a [`OUT_OF_RUN`]th of the keys moved out, they are sorted on
/// their own and merged with the run in one walk; else, after the run, every run is merged
/// with its neighbour a level at a time (see [`merge_levels`], `runs` its buffer).
fn sort_runs(
    keys: &mut [u64],
    spare: &mut [u64],
    out: &mut Vec<u64>,
    runs: &mut Vec<usize>,
) -> bool {
    let n = keys.len();
    out.clear();
    // Every key ends in the run or in `out`, once: `out` holds at most `n`.
    let mut kept = 0;
    for i in 0..n {
        let k = keys[i];
        if kept == 0 || k > keys[kept - 1] {
            keys[kept] = k;
            kept += 1;
            continue;
        }
        // The run's keys above `k`, up to `POPS` of them.
        let mut from = kept;
        while from > 0 && kept - from < POPS && keys[from - 1] > k {
            from -= 1;
        }
        if from == 0 || keys[from - 1] < k {
            crate::limits::room_within(out, kept - from, n);
            out.extend_from_slice(&keys[from..kept]);
            keys[from] = k;
            kept = from + 1;
        } else {
            crate::limits::room_within(out, 1, n);
            out.push(k);
        }
    }
    keys[kept..].copy_from_slice(out);
    if out.len() * OUT_OF_RUN > n {
        return merge_levels(keys, spare, runs);
    }
    let (run, rest) = keys.split_at_mut(kept);
    rest.sort_unstable();
    merge_into(run, rest, spare);
    true
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

    /// One run broken by a few keys: a pile's pairs with other bodies' among them (two
    /// together, above the run), a row out of place below it, keys above it up to and past
    /// `POPS` in a row, two bodies' pairs alternating, and runs of random keys. Each sorts as
    /// `sort_unstable` does, by the kept run and the keys out of it (a quarter of the keys
    /// at most: exactly those expected) or by merging the runs.
    #[test]
    fn a_run_broken_by_a_few_keys_sorts_apart_from_them() {
        let pile = |k: u64| (1 << 32) | (k * 3);
        let other = |k: u64| (k << 32) | 16_010;
        // The keys, and how many leave the run (`None`: more than a quarter, merged by runs).
        let mut cases: Vec<(Vec<u64>, Option<usize>)> = Vec::new();
        // Two of other bodies after every 30 of the pile, both above it.
        let mut keys = Vec::new();
        for k in 0..600u64 {
            keys.push(pile(k));
            if k % 30 == 29 {
                keys.extend([other(k * 3 + 1), other(k * 3 + 2)]);
            }
        }
        cases.push((keys.clone(), Some(38)));
        // A row out of place: one key far below its neighbours, another far above.
        let mut low = keys.clone();
        low.insert(300, pile(2));
        low.remove(3);
        cases.push((low, Some(39)));
        // `POPS` keys above the run in a row leave it; one more, and the run's next keys
        // leave it instead (more than a quarter: merged by runs).
        for (above, out) in [(POPS, Some(POPS)), (POPS + 1, None)] {
            let mut high: Vec<u64> = (0..100).map(pile).collect();
            high.splice(50..50, (0..above as u64).map(|k| other(1000 + k)));
            cases.push((high, out));
        }
        // Two bodies' pairs alternating: every other key leaves the run, in order.
        let two: Vec<u64> = (0..200u64)
            .flat_map(|k| [(1 << 32) | k, (2 << 32) | k])
            .collect();
        cases.push((two, None));
        // Runs of random keys.
        let mut rng = fastrand::Rng::with_seed(5);
        for runs in [2, 5, 20] {
            let mut keys: Vec<u64> = (1..3000).collect();
            rng.shuffle(&mut keys);
            keys.truncate(640);
            for run in keys.chunks_mut(640 / runs) {
                run.sort_unstable();
            }
            cases.push((keys, None));
        }
        for (keys, out_of_run) in cases {
            let mut expected = keys.clone();
            expected.sort_unstable();
            let (mut sorted, mut spare) = (keys.clone(), vec![0; keys.len()]);
            let (mut out, mut runs) = (Vec::new(), Vec::new());
            if sort_runs(&mut sorted, &mut spare, &mut out, &mut runs) {
                std::mem::swap(&mut sorted, &mut spare);
            }
            assert_eq!(sorted, expected, "{} keys", keys.len());
            assert!(out.len() <= keys.len(), "at most every key out of the run");
            if let Some(n) = out_of_run {
                assert_eq!(out.len(), n, "{} keys", keys.len());
            } else {
                assert!(out.len() * OUT_OF_RUN > keys.len(), "{} keys", keys.len());
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
