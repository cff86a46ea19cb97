//! The contact cache: the sorted keys of last tick's reported contacts. Merging with this tick's
//! gives enter (new), stay (kept, only if either side asked for stay events) and exit (gone
//! while both entities live). Destroyed entities leave the cache at Commit without an exit. It
//! holds at most the pairs of one tick, so at most `[limits] contacts`.

/// A contact remembered from the previous tick: its two entities' creation sequences, the
/// lower first, and whether it was a trigger's and reported stays. 16 bytes: the flags ride
/// in the top bits of the second sequence's word (sequences are below 2^48, see
/// [`Identity::SEQ_END`](crate::Identity::SEQ_END)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactKey {
    lo: u64,
    /// The higher sequence, with [`ContactKey::TRIGGER`] and [`ContactKey::STAY`].
    hi: u64,
}

impl ContactKey {
    const TRIGGER: u64 = 1 << 63;
    const STAY: u64 = 1 << 62;

    /// The contact of entities `lo < hi` (both below `2^48`).
    #[inline]
    pub fn new(lo: u64, hi: u64, trigger: bool, stay: bool) -> ContactKey {
        debug_assert!(hi < crate::Identity::SEQ_END && lo < hi);
        let flags = if trigger { Self::TRIGGER } else { 0 } | if stay { Self::STAY } else { 0 };
        ContactKey { lo, hi: hi | flags }
    }

    /// The lower creation sequence.
    #[inline]
    pub fn lo(&self) -> u64 {
        self.lo
    }

    /// The higher creation sequence.
    #[inline]
    pub fn hi(&self) -> u64 {
        self.hi & !(Self::TRIGGER | Self::STAY)
    }

    /// The two sequences, as the cache is sorted by them.
    #[inline]
    pub fn pair(&self) -> (u64, u64) {
        (self.lo(), self.hi())
    }

    /// Whether it was a trigger's contact.
    #[inline]
    pub fn trigger(&self) -> bool {
        self.hi & Self::TRIGGER != 0
    }

    /// Whether its stays were reported.
    #[inline]
    pub fn stay(&self) -> bool {
        self.hi & Self::STAY != 0
    }
}

/// Reported contacts of the last completed Motion phase, sorted by `(lo, hi)`.
#[derive(Clone, Debug, Default)]
pub struct ContactCache {
    pub(crate) keys: Vec<ContactKey>,
}

impl ContactCache {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> &[ContactKey] {
        &self.keys
    }

    /// Drops every contact of a destroyed entity (no exit is fabricated).
    pub(crate) fn remove_destroyed(&mut self, destroyed: &impl Fn(u64) -> bool) {
        self.keys
            .retain(|k| !destroyed(k.lo()) && !destroyed(k.hi()));
    }
}
