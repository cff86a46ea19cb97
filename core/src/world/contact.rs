//! The contact cache: the sorted keys of last tick's reported contacts. Merging with this tick's
//! gives enter (new), stay (kept, only if either side asked for stay events) and exit (gone
//! while both entities live). Destroyed entities leave the cache at Commit without an exit. It
//! holds at most the pairs of one tick, so at most `[limits] contacts`.

/// A contact remembered from the previous tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ContactKey {
    pub lo: u64,
    pub hi: u64,
    pub trigger: bool,
    pub stay: bool,
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
        self.keys.retain(|k| !destroyed(k.lo) && !destroyed(k.hi));
    }
}
