//! Record hashes kept from one state hash to the next, for the records that often stay the
//! same from tick to tick (velocity, health, the AI state of an entity with a brain and an
//! aim, and the lifetime of one without cooldowns): a drone's position changes every tick, but
//! its velocity and decision only when it decides again and its health seldom, and those three
//! records are most of what hashing it costs; a bullet's lifetime ends at one tick all its
//! life.
//!
//! A kept hash is reused only when the record's words are exactly the words it was hashed
//! from (its sequence among them), and the hash is a function of the words, so a kept hash is
//! always the record's hash: where rows move or entities come and go, a row's words differ
//! and it is hashed again. The position record's first part is kept by sequence alone, as a
//! sequence is one entity's in a world, and its archetype with it: a cache serves one world
//! ([`HashCache::serve`] empties it for another). Nothing here is world state.

use super::minds::{MindSlots, Minds};
use super::movers::{MoverSlots, Movers};
use super::record::{Bytes, words};

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
///
/// Invariant: `mind_sums` is the wrapping sum of the velocity, health and AI hashes of
/// `mind[..summed]`, with the changes in `deltas` added (a hash pass writes them there, and
/// [`HashCache::settle`] adds them in): a row whose records stay costs the hash nothing past
/// its comparison and its position.
#[derive(Clone, Debug, Default)]
pub(super) struct KeptRows {
    movers: Movers,
    health: Vec<Kept<4>>,
    brain: Vec<Kept<5>>,
    life: Vec<Kept<2>>,
    mind: Minds,
    mind_sums: [u64; 3],
    summed: usize,
    /// What each run of rows' changed records changed the sums by, in the pass under way.
    deltas: Vec<[u64; 3]>,
}

impl KeptRows {
    /// The slots of the first `rows` rows, of the records the archetype has (`velocity`,
    /// `health`, `brain`, `life`: whether it has each; the others are empty): the first three
    /// in one slot of [`Minds`] a row where it has them all, taken in `runs` runs (each with a
    /// slot for its changes to the sums); else the velocity and lifetime in one slot of
    /// [`Movers`] a row where it has a velocity.
    pub(super) fn rows(&mut self, rows: usize, has: [bool; 4], runs: usize) -> KeptPart<'_> {
        let minds = has[..3] == [true; 3];
        let life = slots(
            &mut self.life,
            rows,
            has[3] && (minds || !has[0]),
            Kept::empty,
        );
        if minds {
            self.mind.grow(rows);
            // The sums of exactly the first `rows` slots (an empty slot's hashes are zero).
            let (from, to, sign) = if self.summed <= rows {
                (self.summed, rows, 1u64)
            } else {
                (rows, self.summed, u64::MAX)
            };
            for hashes in self.mind.hashes(from..to) {
                for (s, h) in self.mind_sums.iter_mut().zip(hashes) {
                    *s = s.wrapping_add(h.wrapping_mul(sign));
                }
            }
            self.summed = rows;
            self.deltas.clear();
            self.deltas.resize(runs, [0; 3]);
            return KeptPart {
                mind: self.mind.slots(rows),
                mind_sums: self.mind_sums,
                deltas: &mut self.deltas,
                life,
                ..KeptPart::default()
            };
        }
        let [velocity, health, brain, _] = has;
        KeptPart {
            movers: if velocity {
                self.movers.slots(rows)
            } else {
                MoverSlots::default()
            },
            health: slots(&mut self.health, rows, health, Kept::empty),
            brain: slots(&mut self.brain, rows, brain, Kept::empty),
            life,
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

/// The kept records of a run of rows: each slice empty or one slot a row (`life` not for rows
/// in `movers`, which keeps their lifetimes); where `mind` is
/// not empty, the sums of the velocity, health and AI hashes kept before the pass (given to
/// the first run only: zero in the others) and a slot a run for what the run changes them by.
#[derive(Debug, Default)]
pub(super) struct KeptPart<'a> {
    pub movers: MoverSlots<'a>,
    pub health: &'a mut [Kept<4>],
    pub brain: &'a mut [Kept<5>],
    pub life: &'a mut [Kept<2>],
    pub mind: MindSlots<'a>,
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
            movers: self.movers.take_front(rows),
            health: front(&mut self.health, rows),
            brain: front(&mut self.brain, rows),
            life: front(&mut self.life, rows),
            mind: self.mind.take_front(rows),
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
