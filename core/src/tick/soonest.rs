//! The soonest decision of each group of eight brains in motion's one pass, kept from tick to
//! tick ([`Soonest`]): a group none of whose brains is due this tick, and none a straight
//! mover, only steers, without reading its brains' words for the due test.
//!
//! A crowd's brains decide once every cadence, spread over the rows by creation sequence: at
//! a cadence of 30, a group of eight consecutive sequences has a brain due in 8 of 30 ticks,
//! and the other 22 ticks its test finds none (docs/performance.md has the measurements).

use crate::tick::speeds::GROUP;
use crate::world::components::Brain;

/// Per hecs archetype (by its place among the world's archetypes, which hecs never removes),
/// the soonest decision of each whole group of [`GROUP`] rows from its first ([`Notes`]),
/// and what they were kept for.
///
/// Invariant: where an archetype's notes are served ([`Soonest::serve`]), each group's note
/// is at most the tick they are served for (0, or the tick after a tick in which one of the
/// group's brains may have been due: [`Notes::after`]), which lets no group pass, or a tick
/// at or before the next decision of every brain of the group, none of which is a straight
/// mover. Kept only while nothing but the pass that keeps them writes those
/// brains: they are served for the tick right after the one they were left at, in the same
/// world, to the same rows; a behaviour set at run time forgets them all ([`forget`]).
///
/// [`forget`]: Soonest::forget
#[derive(Clone, Debug, Default)]
pub(crate) struct Soonest {
    arch: Vec<Kept>,
}

#[derive(Clone, Debug, Default)]
struct Kept {
    /// The world's instance, the archetype's count of row changes, its rows and the tick the
    /// notes were served for (`None`: forgotten).
    at: Option<(u64, u64, usize, u64)>,
    notes: Vec<u64>,
}

impl Soonest {
    /// The notes of archetype `index` (of `rows` rows, whose count of row changes is
    /// `changes`, in world `instance`) for tick `tick`: those left at the tick before for the
    /// same rows, else all 0 (every group's brains read).
    pub fn serve(
        &mut self,
        index: usize,
        (instance, changes, rows): (u64, u64, usize),
        tick: u64,
    ) -> Notes<'_> {
        if self.arch.len() <= index {
            self.arch.resize_with(index + 1, Kept::default);
        }
        let k = &mut self.arch[index];
        let follows = k.at.is_some_and(|(i, c, r, t)| {
            (i, c, r) == (instance, changes, rows) && t.checked_add(1) == Some(tick)
        });
        if !follows {
            k.notes.clear();
            k.notes.resize(rows / GROUP, 0);
        }
        k.at = Some((instance, changes, rows, tick));
        Notes(&mut k.notes)
    }

    /// Forgets every note: some brain was written outside the pass (a behaviour set).
    pub fn forget(&mut self) {
        for k in &mut self.arch {
            k.at = None;
        }
    }
}

/// The notes of the whole groups of some rows of an archetype, the first row a group's
/// first (or none: empty), each 0 (read the group's brains) or a tick before which none of
/// them is due and none is a straight mover (see [`Soonest`]'s invariant).
#[derive(Debug, Default)]
pub(crate) struct Notes<'a>(&'a mut [u64]);

impl<'a> Notes<'a> {
    /// The notes of rows `start..end` of these (`start <= end`): the groups wholly inside
    /// them, where `start` begins a group; none where it does not, whose groups are then read
    /// (their notes set to 0), as is the group that `end` cuts, where it cuts one.
    pub fn rows(&mut self, start: usize, end: usize) -> Notes<'_> {
        let len = self.0.len();
        let (first, last) = (start / GROUP, end.div_ceil(GROUP).min(len));
        if !start.is_multiple_of(GROUP) {
            if let Some(read) = self.0.get_mut(first..last) {
                read.fill(0);
            }
            return Notes::default();
        }
        let whole = (end / GROUP).min(len);
        if let Some(cut) = self.0.get_mut(whole..last) {
            cut.fill(0);
        }
        Notes(self.0.get_mut(first.min(whole)..whole).unwrap_or_default())
    }

    /// Rows `..mid` and `mid..` of these, as [`rows`](Self::rows) gives them.
    pub fn split_at(self, mid: usize) -> (Notes<'a>, Notes<'a>) {
        let whole = (mid / GROUP).min(self.0.len());
        let (a, b) = self.0.split_at_mut(whole);
        if !mid.is_multiple_of(GROUP) {
            // The group `mid` cuts and every one after it: read.
            b.fill(0);
            return (Notes(a), Notes::default());
        }
        (Notes(a), Notes(b))
    }

    /// Group `g`'s note, where there is one (0 where there is none).
    #[inline(always)]
    pub fn get(&self, g: usize) -> u64 {
        self.0.get(g).copied().unwrap_or(0)
    }

    /// Sets group `g`'s note from its brains, where it has one.
    #[inline(always)]
    pub fn keep(&mut self, g: usize, group: &[Brain; GROUP]) {
        if let Some(n) = self.0.get_mut(g) {
            *n = soonest(group);
        }
    }

    /// Sets group `g`'s note, where it has one, to `tick + 1`, after a tick in which some of
    /// its brains may have been due: none is due again before it (each decided brain's next
    /// decision is after `tick`, every other's was). It costs no read of the brains where
    /// [`keep`](Self::keep) reads all eight, and where the cadence spreads a group's brains
    /// over its ticks (a crowd's consecutive rows), one is due every tick or so and an exact
    /// note would skip none of them; a tick in which none was due keeps the exact one.
    #[inline(always)]
    pub fn after(&mut self, g: usize, tick: u64) {
        if let Some(n) = self.0.get_mut(g) {
            *n = tick.saturating_add(1);
        }
    }

    /// Sets every note to 0 (the brains were decided without them).
    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The soonest next decision of `group`'s brains: 0 where one of them is a straight mover or
/// has never decided (its next decision is at tick 0).
#[inline(always)]
fn soonest(group: &[Brain; GROUP]) -> u64 {
    let (mut soonest, mut straight) = (u64::MAX, false);
    for b in group {
        soonest = soonest.min(b.next_decision());
        straight |= b.straight();
    }
    if straight { 0 } else { soonest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::BehaviourKind;
    use crate::math::Vec2;

    fn brain(kind: BehaviourKind, next: u64) -> Brain {
        let mut b = Brain::new(kind, Vec2::ZERO);
        b.set_next_decision(next);
        b
    }

    #[test]
    fn a_groups_note_is_its_soonest_decision_or_0_with_a_straight_mover_or_none_made() {
        let chase = BehaviourKind::Chase;
        let group = |next: [u64; 8]| next.map(|n| brain(chase, n));
        assert_eq!(soonest(&group([40, 31, 35, 90, 33, 32, 60, 70])), 31);
        assert_eq!(soonest(&group([40, 31, 0, 90, 33, 32, 60, 70])), 0);
        let mut g = group([40, 31, 35, 90, 33, 32, 60, 70]);
        g[5] = brain(BehaviourKind::Straight, 50);
        assert_eq!(soonest(&g), 0);
    }

    #[test]
    fn after_a_tick_with_a_due_brain_a_groups_note_is_the_next_tick() {
        let mut v = vec![0u64, 40, 52];
        let mut n = Notes(&mut v);
        n.after(1, 30);
        // A group past the notes has none to set.
        n.after(3, 30);
        assert_eq!(v, [0, 31, 52]);
        // Served for tick 31, it lets the group pass no tick: `tick < note` is false.
        let mut n = Notes(&mut v);
        n.after(0, u64::MAX);
        assert_eq!(n.get(0), u64::MAX);
    }

    #[test]
    fn notes_are_served_for_the_next_tick_of_the_same_rows_only() {
        let mut s = Soonest::default();
        let at = (7, 3, 20);
        let n = s.serve(2, at, 10);
        assert_eq!(n.0, &[0, 0]);
        n.0.copy_from_slice(&[15, 12]);
        // The next tick: kept.
        assert_eq!(s.serve(2, at, 11).0, &[15, 12]);
        // A tick skipped, another world, changed rows, more rows, or forgotten: read again.
        let again = |s: &mut Soonest, at, tick| {
            s.serve(2, at, tick).0.copy_from_slice(&[15, 12]);
        };
        assert_eq!(s.serve(2, at, 13).0, &[0, 0]);
        for other in [(8, 3, 20), (7, 4, 20), (7, 3, 23)] {
            again(&mut s, at, 20);
            let n = s.serve(2, other, 21);
            assert_eq!(n.0.len(), other.2 / 8);
            assert!(n.0.iter().all(|&n| n == 0), "{other:?}");
        }
        again(&mut s, at, 30);
        s.forget();
        assert_eq!(s.serve(2, at, 31).0, &[0, 0]);
        // Tick 0 follows none.
        assert_eq!(s.serve(5, at, 0).0, &[0, 0]);
    }

    #[test]
    fn rows_and_halves_keep_the_notes_of_whole_groups_from_a_groups_first_row() {
        let fresh = || vec![10u64, 11, 12, 13, 14, 15];
        // Rows 16..40: groups 2 to 4, none cut.
        let mut v = fresh();
        assert_eq!(Notes(&mut v).rows(16, 40).0, &[12, 13, 14]);
        assert_eq!(v, fresh());
        // Rows 16..44: group 5 cut by the end, read.
        let mut v = fresh();
        assert_eq!(Notes(&mut v).rows(16, 44).0, &[12, 13, 14]);
        assert_eq!(v, [10, 11, 12, 13, 14, 0]);
        // Rows 20..44: starting inside group 2: none, groups 2 to 5 read.
        let mut v = fresh();
        assert!(Notes(&mut v).rows(20, 44).0.is_empty());
        assert_eq!(v, [10, 11, 0, 0, 0, 0]);
        // The rows past the last whole group (a tail of under eight) have none.
        let mut v = fresh();
        assert!(Notes(&mut v).rows(48, 52).0.is_empty());
        assert_eq!(v, fresh());
        // Halves at a group's first row, and inside one.
        let mut v = fresh();
        let (a, b) = Notes(&mut v).split_at(24);
        assert_eq!((a.0.len(), b.0.len()), (3, 3));
        let mut v = fresh();
        let (a, b) = Notes(&mut v).split_at(27);
        assert_eq!((&a.0[..], b.0.len()), (&[10, 11, 12][..], 0));
        assert_eq!(v, [10, 11, 12, 0, 0, 0]);
    }
}
