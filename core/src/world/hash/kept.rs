//! Record hashes kept from one state hash to the next, for the records that often stay the
//! same from tick to tick (velocity, health, and the AI state of an entity with a brain and an
//! aim): a drone's position changes every tick, but its velocity and decision only when it
//! decides again and its health seldom, and those three records are most of what hashing it
//! costs.
//!
//! A kept hash is reused only when the record's words are exactly the words it was hashed
//! from (its sequence among them), and the hash is a function of the words, so a kept hash is
//! always the record's hash: where rows move or entities come and go, a row's words differ
//! and it is hashed again. The position record's first part is kept by sequence alone, as a
//! sequence is one entity's in a world, and its archetype with it: a cache serves one world
//! ([`HashCache::serve`] empties it for another). Nothing here is world state.

use super::record::{
    Bytes, Head3, brain_words, health, position_after, position_head, velocity, words,
};
use crate::world::components::{Aim, Brain, Deadline, Health, Identity, Position, Velocity};
use crate::world::health::MaxHealth;

/// One record's words and their hash.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept<const K: usize> {
    words: [u64; K],
    hash: u64,
}

impl<const K: usize> Kept<K> {
    /// A slot that holds the hash of `K` zero words (so it is right for them, too).
    fn empty() -> Self {
        Kept {
            words: [0; K],
            hash: words([0u64; K]),
        }
    }

    /// The hash of `w`: the kept one when `w` is what it was hashed from.
    #[inline(always)]
    pub(super) fn hash(&mut self, w: [u64; K]) -> u64 {
        // Word by word, without a branch (`!=` on the arrays calls `memcmp`).
        let differ = (0..K).fold(0, |d, k| d | (self.words[k] ^ w[k]));
        if differ != 0 {
            self.words = w;
            self.hash = words(w);
        }
        self.hash
    }
}

/// The three kept records of a row that has them all (a velocity, health, and a brain with
/// an aim and no control: a drone's), compared as one key of the bytes they are made of, so
/// a row whose records all stay costs one comparison of five words and the aim's fields; and the part of its
/// position record that its sequence and archetype make ([`position_head`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct KeptMind {
    /// Identity ([`Identity::word`]); velocity; current health; brain, each as the words of
    /// its bytes (none has padding, and floats compare by their bits, so equal words are
    /// equal values). Every word of the three records is a function of these (the health's
    /// maximum is the entity's for life, and the record's deadline inactive: the world's
    /// deadlines are added apart, see `StateHash`).
    key: [u64; 5],
    /// The aim, beside the key (compared as its two fields: it is 6 bytes).
    aim: Aim,
    /// The velocity, health and AI records' hashes.
    hashes: [u64; 3],
    /// [`position_head`] of the sequence in `key` (an entity's archetype is its for life).
    head: Head3,
}

// The key reads these components as whole words: they must be exactly that many bytes.
const _: () = assert!(size_of::<Velocity>() == 8 && size_of::<Health>() == 4);
const _: () = assert!(size_of::<Brain>() == 16);

/// The bytes of a component of `K` words with no padding, as words.
///
/// # Safety
///
/// `T` is `K * 8` bytes with no padding (every byte initialised), as the assertions above
/// check of the sizes and each type's fields make it (`Brain`: two `f32` and a word; `Velocity`: two `f32`).
#[inline(always)]
unsafe fn raw<T: Copy, const K: usize>(c: &T) -> [u64; K] {
    // SAFETY: as the function's contract says; `read_unaligned` because `T` may align to 4.
    unsafe { std::ptr::read_unaligned((c as *const T).cast::<[u64; K]>()) }
}

impl KeptMind {
    /// A slot that matches no row (no sequence reaches `u64::MAX`), so its first use hashes.
    fn empty() -> Self {
        KeptMind {
            key: [u64::MAX; 5],
            aim: Aim::default(),
            hashes: [0; 3],
            head: Head3::default(),
        }
    }

    /// The position record's hash of this row; the velocity, health and AI records' are the
    /// kept ones where the values they were hashed from are the row's, else hashed again and
    /// what that changed their sums by added to `delta` (see [`KeptRows`]).
    #[inline(always)]
    pub(super) fn hashes(
        &mut self,
        (i, p): (&Identity, &Position),
        v: &Velocity,
        (h, max): (&Health, &MaxHealth),
        (br, a): (&Brain, &Aim),
        delta: &mut [u64; 3],
    ) -> u64 {
        // SAFETY: each is the size `raw` asks for, with no padding (see `raw`).
        let ([vel], [b0, b1]) = unsafe { (raw(v), raw(br)) };
        // The health's maximum is the entity's for life, as its sequence is: the current
        // health alone keys the record.
        let health = u64::from(h.current as u32);
        // The identity's word stands for its sequence (an entity's archetype is its for life).
        let key = [i.word(), vel, health, b0, b1];
        let differ = (0..5).fold(0, |d, k| d | (self.key[k] ^ key[k]));
        if differ != 0 || self.aim != *a {
            self.refresh(key, i, v, (h, max), (br, a), delta);
        }
        position_after(self.head, p)
    }

    /// Hashes again the records whose values differ from the kept key's, adding what each
    /// changed by to `delta` (apart: few rows take it, and inlined it crowds the
    /// comparison's registers).
    #[inline(never)]
    fn refresh(
        &mut self,
        key: [u64; 5],
        i: &Identity,
        v: &Velocity,
        (h, max): (&Health, &MaxHealth),
        (br, a): (&Brain, &Aim),
        delta: &mut [u64; 3],
    ) {
        let (old, was) = (self.key, self.hashes);
        let seq = key[0] != old[0];
        if seq {
            self.head = position_head(i);
        }
        if seq || key[1] != old[1] {
            self.hashes[0] = velocity(i, v);
        }
        if seq || key[2] != old[2] {
            self.hashes[1] = health(i, h, max.of(i), Deadline::INACTIVE);
        }
        if seq || key[3..5] != old[3..5] || self.aim != *a {
            self.hashes[2] = words(brain_words(i, br, Some(a)));
        }
        for ((d, now), was) in delta.iter_mut().zip(self.hashes).zip(was) {
            *d = d.wrapping_add(now.wrapping_sub(was));
        }
        self.key = key;
        self.aim = *a;
    }
}

/// One archetype's kept records, by row.
///
/// Invariant: `mind_sums` is the wrapping sum of the velocity, health and AI hashes of
/// `mind[..summed]`, with the changes in `deltas` added (a hash pass writes them there, and
/// [`HashCache::settle`] adds them in): a row whose records stay costs the hash nothing past
/// its comparison and its position.
#[derive(Clone, Debug, Default)]
pub(super) struct KeptRows {
    velocity: Vec<Kept<2>>,
    health: Vec<Kept<4>>,
    brain: Vec<Kept<5>>,
    mind: Vec<KeptMind>,
    mind_sums: [u64; 3],
    summed: usize,
    /// What each run of rows' changed records changed the sums by, in the pass under way.
    deltas: Vec<[u64; 3]>,
}

impl KeptRows {
    /// The slots of the first `rows` rows, of the records the archetype has (`velocity`,
    /// `health`, `brain`: whether it has each; the others are empty): all three in one
    /// [`KeptMind`] a row where it has them all, taken in `runs` runs (each with a slot for
    /// its changes to the sums).
    pub(super) fn rows(&mut self, rows: usize, has: [bool; 3], runs: usize) -> KeptPart<'_> {
        if has == [true; 3] {
            if self.mind.len() < rows {
                self.mind.resize(rows, KeptMind::empty());
            }
            // The sums of exactly the first `rows` slots (an empty slot's hashes are zero).
            let (from, to, sign) = if self.summed <= rows {
                (self.summed, rows, 1u64)
            } else {
                (rows, self.summed, u64::MAX)
            };
            for m in &self.mind[from..to] {
                for (s, h) in self.mind_sums.iter_mut().zip(m.hashes) {
                    *s = s.wrapping_add(h.wrapping_mul(sign));
                }
            }
            self.summed = rows;
            self.deltas.clear();
            self.deltas.resize(runs, [0; 3]);
            return KeptPart {
                mind: &mut self.mind[..rows],
                mind_sums: self.mind_sums,
                deltas: &mut self.deltas,
                ..KeptPart::default()
            };
        }
        let [velocity, health, brain] = has;
        KeptPart {
            velocity: slots(&mut self.velocity, rows, velocity, Kept::empty),
            health: slots(&mut self.health, rows, health, Kept::empty),
            brain: slots(&mut self.brain, rows, brain, Kept::empty),
            ..KeptPart::default()
        }
    }

    /// Adds the pass's changes to the sums.
    fn settle(&mut self) {
        for d in self.deltas.drain(..) {
            for (s, d) in self.mind_sums.iter_mut().zip(d) {
                *s = s.wrapping_add(d);
            }
        }
    }
}

fn slots<T: Clone>(v: &mut Vec<T>, rows: usize, has: bool, empty: fn() -> T) -> &mut [T] {
    if !has {
        return &mut [];
    }
    if v.len() < rows {
        v.resize(rows, empty());
    }
    &mut v[..rows]
}

/// The kept records of a run of rows: each slice empty or one slot a row; where `mind` is
/// not empty, the sums of the velocity, health and AI hashes kept before the pass (given to
/// the first run only: zero in the others) and a slot a run for what the run changes them by.
#[derive(Debug, Default)]
pub(super) struct KeptPart<'a> {
    pub velocity: &'a mut [Kept<2>],
    pub health: &'a mut [Kept<4>],
    pub brain: &'a mut [Kept<5>],
    pub mind: &'a mut [KeptMind],
    pub mind_sums: [u64; 3],
    pub deltas: &'a mut [[u64; 3]],
}

impl<'a> KeptPart<'a> {
    /// The first `rows` rows' slots, taken off the front (with the sums, and one run's slot
    /// for its changes).
    pub(super) fn take_front(&mut self, rows: usize) -> KeptPart<'a> {
        fn front<'a, T>(s: &mut &'a mut [T], rows: usize) -> &'a mut [T] {
            if s.is_empty() {
                return &mut [];
            }
            let (head, tail) = std::mem::take(s).split_at_mut(rows);
            *s = tail;
            head
        }
        let rows_of_deltas = usize::from(!self.deltas.is_empty());
        KeptPart {
            velocity: front(&mut self.velocity, rows),
            health: front(&mut self.health, rows),
            brain: front(&mut self.brain, rows),
            mind: front(&mut self.mind, rows),
            mind_sums: std::mem::take(&mut self.mind_sums),
            deltas: front(&mut self.deltas, rows_of_deltas),
        }
    }
}

/// The kept records of every archetype, by its place in the world's list of archetypes (see
/// the module documentation). Kept by the tick between its hashes.
#[derive(Clone, Debug, Default)]
pub struct HashCache {
    archetypes: Vec<KeptRows>,
    /// The hash's record writer and its list of pending timers' slots, kept for their room
    /// (a hash every tick allocated both anew).
    pub(super) bytes: Bytes,
    pub(super) timers: Vec<(u64, u64, usize)>,
    /// The world whose rows are kept (its `SimWorld::instance`).
    world: Option<u64>,
}

impl HashCache {
    /// The cache for the rows of the world built as `instance` (`SimWorld::instance`):
    /// emptied where it kept another world's (see the module documentation).
    pub(super) fn serve(&mut self, instance: u64) -> &mut HashCache {
        if self.world != Some(instance) {
            self.release();
            self.world = Some(instance);
        }
        self
    }

    /// The most entities a world may hold for its records to be kept (past it, 96 bytes a
    /// drone would be spent on a hash that runs on two threads anyway): a larger world is
    /// hashed without the cache, which lets its memory go.
    pub(super) const MOST_ENTITIES: usize = 65_536;

    /// Lets every kept record go, with its memory.
    pub(super) fn release(&mut self) {
        self.archetypes = Vec::new();
    }

    /// Whether nothing is kept.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.archetypes.is_empty()
    }

    /// Adds every archetype's changes in the pass just done to its sums (see [`KeptRows`]).
    pub(super) fn settle(&mut self) {
        self.archetypes.iter_mut().for_each(KeptRows::settle);
    }

    /// The first `n` archetypes' rows.
    pub(super) fn archetypes(&mut self, n: usize) -> &mut [KeptRows] {
        if self.archetypes.len() < n {
            self.archetypes.resize_with(n, KeptRows::default);
        }
        &mut self.archetypes[..n]
    }
}
