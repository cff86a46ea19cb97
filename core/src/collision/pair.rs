//! What the broadphase finds: contact pairs, and the bounds on finding them.

use crate::math::Vec2;

/// Candidates the broadphase may examine in one tick: this many per pair `[limits] contacts`
/// allows, plus `CANDIDATES_PER_BODY` per collider. A well-sized grid examines a few per body
/// and per pair found (about 4 and 6 in crowds), so only piles of bodies that do not look at
/// each other, or a fixed cell far from the bodies' size, come near it.
pub(crate) const CANDIDATES_PER_CONTACT: u64 = 256;
pub(crate) const CANDIDATES_PER_BODY: u64 = 64;

/// A contact between two bodies found this tick.
///
/// The search finds it between colliders: `i` and `j` are then collider indices (the normal
/// points from `i` to `j`). `Broadphase::finish` makes it canonical: `i` and `j` the indices
/// in the body list of the body of the lower creation sequence and of the higher (see
/// [`Broadphase::seqs`](super::Broadphase::seqs)), the normal from `i` to `j`. 24 bytes: a
/// pile's pairs are written and read by several steps a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pair {
    pub i: u32,
    pub j: u32,
    pub report: bool,
    pub push: bool,
    pub trigger: bool,
    pub stay: bool,
    pub normal: Vec2,
    pub depth: f32,
}

const _: () = assert!(std::mem::size_of::<Pair>() == 24);

/// Why `Broadphase::search` stopped before finding every pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overflow {
    /// One more pair than `max_pairs`.
    Pairs,
    /// More candidates than the budget.
    Work,
}
