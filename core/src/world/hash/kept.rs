//! Record hashes kept from one state hash to the next, for the records that often stay the
//! same from tick to tick (velocity, health, and the AI state of an entity with a brain and an
//! aim): a drone's position changes every tick, but its velocity and decision only when it
//! decides again and its health seldom, and those three records are most of what hashing it
//! costs.
//!
//! A kept hash is reused only when the record's words are exactly the words it was hashed
//! from (its sequence among them), and the hash is a function of the words, so a kept hash is
//! always the record's hash: where rows move, entities come and go or the cache belongs to
//! another world, a row's words differ and it is hashed again. Nothing here is world state.

use super::record::{brain_words, health, position_after, position_head, velocity, words};
use crate::world::components::{Aim, Brain, Health, Identity, Position, Velocity};

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
/// a row whose records all stay costs one comparison of seven words; and the part of its
/// position record that its sequence and archetype make ([`position_head`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct KeptMind {
    /// Sequence; velocity; health; brain; aim, each as the words of its bytes (none has
    /// padding, and floats compare by their bits, so equal words are equal values). Every
    /// word of the three records is a function of these.
    key: [u64; 7],
    /// The velocity, health and AI records' hashes.
    hashes: [u64; 3],
    /// [`position_head`] of the sequence in `key` (an entity's archetype is its for life).
    head: u64,
}

// The key reads these components as whole words: they must be exactly that many bytes.
const _: () = assert!(size_of::<Velocity>() == 8 && size_of::<Health>() == 16);
const _: () = assert!(size_of::<Brain>() == 16 && size_of::<Aim>() == 8);

/// The bytes of a component of `K` words with no padding, as words.
///
/// # Safety
///
/// `T` is `K * 8` bytes with no padding (every byte initialised), as the assertions above
/// check of the sizes and each type's fields make it (`Health`: two `i32` and a word;
/// `Brain`: two `f32` and a word; `Velocity`: two `f32`; `Aim`: an optional non-zero word).
#[inline(always)]
unsafe fn raw<T: Copy, const K: usize>(c: &T) -> [u64; K] {
    // SAFETY: as the function's contract says; `read_unaligned` because `T` may align to 4.
    unsafe { std::ptr::read_unaligned((c as *const T).cast::<[u64; K]>()) }
}

impl KeptMind {
    /// A slot that matches no row (no sequence reaches `u64::MAX`), so its first use hashes.
    fn empty() -> Self {
        KeptMind {
            key: [u64::MAX; 7],
            hashes: [0; 3],
            head: 0,
        }
    }

    /// The position, velocity, health and AI records' hashes of this row: the kept ones where
    /// the values they were hashed from are the row's.
    #[inline(always)]
    pub(super) fn hashes(
        &mut self,
        i: &Identity,
        p: &Position,
        v: &Velocity,
        h: &Health,
        br: &Brain,
        a: &Aim,
    ) -> [u64; 4] {
        // SAFETY: each is the size `raw` asks for, with no padding (see `raw`).
        let ([vel], [h0, h1], [b0, b1], [aim]) = unsafe { (raw(v), raw(h), raw(br), raw(a)) };
        let key = [i.seq, vel, h0, h1, b0, b1, aim];
        let differ = (0..7).fold(0, |d, k| d | (self.key[k] ^ key[k]));
        if differ != 0 {
            self.refresh(key, i, v, h, br, a);
        }
        let [hv, hh, hb] = self.hashes;
        [position_after(self.head, i, p), hv, hh, hb]
    }

    /// Hashes again the records whose values differ from the kept key's (apart: few rows
    /// take it, and inlined it crowds the comparison's registers).
    #[inline(never)]
    fn refresh(
        &mut self,
        key: [u64; 7],
        i: &Identity,
        v: &Velocity,
        h: &Health,
        br: &Brain,
        a: &Aim,
    ) {
        let old = self.key;
        let seq = key[0] != old[0];
        if seq {
            self.head = position_head(i);
        }
        if seq || key[1] != old[1] {
            self.hashes[0] = velocity(i, v);
        }
        if seq || key[2..4] != old[2..4] {
            self.hashes[1] = health(i, h);
        }
        if seq || key[4..7] != old[4..7] {
            self.hashes[2] = words(brain_words(i, br, Some(a)));
        }
        self.key = key;
    }
}

/// One archetype's kept records, by row.
#[derive(Clone, Debug, Default)]
pub(super) struct KeptRows {
    velocity: Vec<Kept<2>>,
    health: Vec<Kept<4>>,
    brain: Vec<Kept<5>>,
    mind: Vec<KeptMind>,
}

impl KeptRows {
    /// The slots of the first `rows` rows, of the records the archetype has (`velocity`,
    /// `health`, `brain`: whether it has each; the others are empty): all three in one
    /// [`KeptMind`] a row where it has them all.
    pub(super) fn rows(&mut self, rows: usize, has: [bool; 3]) -> KeptPart<'_> {
        if has == [true; 3] {
            return KeptPart {
                mind: slots(&mut self.mind, rows, true, KeptMind::empty),
                ..KeptPart::default()
            };
        }
        let [velocity, health, brain] = has;
        KeptPart {
            velocity: slots(&mut self.velocity, rows, velocity, Kept::empty),
            health: slots(&mut self.health, rows, health, Kept::empty),
            brain: slots(&mut self.brain, rows, brain, Kept::empty),
            mind: &mut [],
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

/// The kept records of a run of rows: each slice empty or one slot a row.
#[derive(Debug, Default)]
pub(super) struct KeptPart<'a> {
    pub velocity: &'a mut [Kept<2>],
    pub health: &'a mut [Kept<4>],
    pub brain: &'a mut [Kept<5>],
    pub mind: &'a mut [KeptMind],
}

impl<'a> KeptPart<'a> {
    /// The first `rows` rows' slots, taken off the front.
    pub(super) fn take_front(&mut self, rows: usize) -> KeptPart<'a> {
        fn front<'a, T>(s: &mut &'a mut [T], rows: usize) -> &'a mut [T] {
            if s.is_empty() {
                return &mut [];
            }
            let (head, tail) = std::mem::take(s).split_at_mut(rows);
            *s = tail;
            head
        }
        KeptPart {
            velocity: front(&mut self.velocity, rows),
            health: front(&mut self.health, rows),
            brain: front(&mut self.brain, rows),
            mind: front(&mut self.mind, rows),
        }
    }
}

/// The kept records of every archetype, by its place in the world's list of archetypes (see
/// the module documentation). Kept by the tick between its hashes.
#[derive(Clone, Debug, Default)]
pub struct HashCache {
    archetypes: Vec<KeptRows>,
}

impl HashCache {
    /// The most entities a world may hold for its records to be kept (past it, 88 bytes a
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

    /// The first `n` archetypes' rows.
    pub(super) fn archetypes(&mut self, n: usize) -> &mut [KeptRows] {
        if self.archetypes.len() < n {
            self.archetypes.resize_with(n, KeptRows::default);
        }
        &mut self.archetypes[..n]
    }
}
