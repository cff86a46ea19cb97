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

use super::record::words;

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

/// One archetype's kept records, by row.
#[derive(Clone, Debug, Default)]
pub(super) struct KeptRows {
    velocity: Vec<Kept<2>>,
    health: Vec<Kept<4>>,
    brain: Vec<Kept<5>>,
}

impl KeptRows {
    /// The slots of the first `rows` rows, of the records the archetype has (`velocity`,
    /// `health`, `brain`: whether it has each; the others are empty).
    pub(super) fn rows(&mut self, rows: usize, has: [bool; 3]) -> KeptPart<'_> {
        let [velocity, health, brain] = has;
        KeptPart {
            velocity: slots(&mut self.velocity, rows, velocity),
            health: slots(&mut self.health, rows, health),
            brain: slots(&mut self.brain, rows, brain),
        }
    }
}

fn slots<const K: usize>(v: &mut Vec<Kept<K>>, rows: usize, has: bool) -> &mut [Kept<K>] {
    if !has {
        return &mut [];
    }
    if v.len() < rows {
        v.resize(rows, Kept::empty());
    }
    &mut v[..rows]
}

/// The kept records of a run of rows: each slice empty or one slot a row.
#[derive(Debug, Default)]
pub(super) struct KeptPart<'a> {
    pub velocity: &'a mut [Kept<2>],
    pub health: &'a mut [Kept<4>],
    pub brain: &'a mut [Kept<5>],
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
    /// The most entities a world may hold for its records to be kept (past it, 112 bytes an
    /// entity would be spent on a hash that runs on two threads anyway): a larger world is
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
