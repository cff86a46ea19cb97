//! The fused motion pass's room for an archetype's colliders: two stretches, one for each
//! thread where the pass splits its rows, filled apart and joined back in collider order; and
//! where the worker's stretch began, for the passes after motion that split a list in
//! collider order.

use crate::collision::Broadphase;
use crate::collision::grid::{LEFT, Run, Span, Stretch};
use crate::limits::resize_snug;
use crate::math::Vec2;

impl Broadphase {
    /// Room for the next `n` colliders, split at `mid`: two stretches that can be filled
    /// apart (on two threads) and then [`join`](Self::join)ed, as if added in order.
    ///
    /// They are rows `0..n` of archetype `arch` (by place); where it [`may
    /// leave`](Self::may_leave) them, their positions stay in its column (a [`Span`] says so),
    /// the stretches write none and the broadphase holds none. Where `mid < n`, the second
    /// stretch's first collider may become [`moved_from`](Self::moved_from).
    pub fn stretches(&mut self, n: usize, mid: usize, arch: usize) -> (Stretch<'_>, Stretch<'_>) {
        let leave = self.may_leave(arch);
        let start = self.count;
        self.count += n;
        self.spans.push(Span {
            start: start as u32,
            len: n as u32,
            arch: arch as u32,
            left: leave,
        });
        if mid < n && self.moved_apart.is_none_or(|(_, rows)| (rows as usize) < n) {
            self.moved_apart = Some(((start + mid) as u32, n as u32));
        }
        let (start, mid) = (start as u32, (start + mid) as u32);
        let [ra, rb] = std::mem::take(&mut self.spare_runs);
        if leave {
            return (
                Stretch::new(&mut [], start, LEFT, ra),
                Stretch::new(&mut [], mid, LEFT, rb),
            );
        }
        let at = self.held;
        self.held += n;
        if self.pos.len() < self.held {
            resize_snug(&mut self.pos, self.held, Vec2::ZERO);
        }
        let (left, right) = self.pos[at..self.held].split_at_mut((mid - start) as usize);
        let held_mid = at as u32 + (mid - start);
        (
            Stretch::new(left, start, at as u32, ra),
            Stretch::new(right, mid, held_mid, rb),
        )
    }

    /// Takes the runs of filled [`stretches`](Self::stretches), left then right (a run that
    /// continues across the join stays one; one before the stretches' span never takes them:
    /// see `Span`).
    pub fn join(&mut self, mut left: Vec<Run>, mut right: Vec<Run>) {
        let from = self.spans.last().map_or(0, |s| s.start);
        for &r in left.iter().chain(&right) {
            match self.runs.last_mut() {
                Some(last)
                    if last.start + last.len == r.start
                        && last.start >= from
                        && last.archetype == r.archetype
                        && last.shape == r.shape
                        && (last.layer, last.raw) == (r.layer, r.raw) =>
                {
                    // One span's: both left, or held side by side.
                    debug_assert!(
                        (last.at, r.at) == (LEFT, LEFT) || last.held().end == r.at as usize,
                        "a run's positions are consecutive"
                    );
                    last.len += r.len;
                    last.finite &= r.finite;
                }
                _ => self.runs.push(r),
            }
        }
        left.clear();
        right.clear();
        self.spare_runs = [left, right];
    }

    /// The collider index from which the worker moved the rows of this tick's largest span
    /// that motion's pass split between the threads (a [`stretches`](Self::stretches) with
    /// `mid < n`), `None` where none split: a list in collider order that a later pass splits
    /// (the wanted colliders' full records) splits there, so each thread reads the rows it
    /// wrote, still in its core's caches.
    pub(crate) fn moved_from(&self) -> Option<u32> {
        self.moved_apart.map(|(from, _)| from)
    }
}
