//! Positions left in their archetypes' columns: a fused motion pass need not copy the
//! positions of colliders that only a sparse search's marks read (a crowd that does not look
//! and is looked for by a few), and the plan reads them where they are. At 256k drones the
//! copy was a twentieth of the tick: a second 2 MiB written, and read back, every tick.

use crate::collision::Broadphase;
use crate::collision::grid::{LEFT, Span};
use crate::limits::resize_snug;
use crate::math::Vec2;

/// Positions the broadphase keeps room for however few a tick holds (8 KiB): a small game's
/// room is never given back and taken again tick after tick.
const POS_MIN: usize = 1024;

impl Broadphase {
    /// Whether archetype `arch` (by place) leaves its colliders' positions in its column this
    /// tick: the last plan that saw them read them for its marks alone. A guess: where it is
    /// wrong, the plan copies them in itself.
    pub(super) fn may_leave(&self, arch: usize) -> bool {
        self.leave.get(arch).copied().unwrap_or(false)
    }

    /// This tick's spans, in collider order.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Run `ri`'s positions in the column its span left them in (`cols`: a column per span),
    /// if it left them there.
    fn in_column<'a>(&self, ri: usize, cols: &[&'a [Vec2]]) -> Option<&'a [Vec2]> {
        let r = &self.runs[ri];
        (r.at == LEFT).then(|| {
            // Spans ascend, and the run lies in one (see `Span`).
            let si = (self.spans).partition_point(|s| s.start + s.len <= r.start);
            let from = (r.start - self.spans[si].start) as usize;
            &cols[si][from..from + r.len as usize]
        })
    }

    /// Copies run `ri`'s positions in from its column, if it left them there, after those
    /// held so far.
    pub(super) fn bring(&mut self, ri: usize, cols: &[&[Vec2]]) {
        if let Some(column) = self.in_column(ri, cols) {
            let at = self.held;
            self.held += column.len();
            if self.pos.len() < self.held {
                resize_snug(&mut self.pos, self.held, Vec2::ZERO);
            }
            self.pos[at..self.held].copy_from_slice(column);
            self.runs[ri].at = at as u32;
        }
    }

    /// Copies in every position left in a column.
    pub(super) fn bring_all(&mut self, cols: &[&[Vec2]]) {
        for ri in 0..self.runs.len() {
            self.bring(ri, cols);
        }
    }

    /// Run `ri`'s positions: in its column, or the broadphase's.
    pub(super) fn run_pos<'a>(&'a self, ri: usize, cols: &[&'a [Vec2]]) -> &'a [Vec2] {
        self.in_column(ri, cols)
            .unwrap_or_else(|| &self.pos[self.runs[ri].held()])
    }

    /// Gives back the room for positions this tick does not need, where it is more than twice
    /// what the tick holds (and [`POS_MIN`]): the first tick of a level copies a crowd's
    /// positions in that later ticks leave in their column, and the room stays to the crowd's
    /// measure only while a tick still copies them in.
    pub(super) fn keep_snug(&mut self) {
        let keep = self.held.max(POS_MIN);
        if self.pos.capacity() > 2 * keep {
            self.pos.truncate(keep);
            self.pos.shrink_to(keep);
        }
    }

    /// Notes which archetypes may leave their positions next tick: those whose every run the
    /// plan read for its marks alone (`marks_only`: a sparse search with no large body that
    /// looks; a run that does not look, of small finite bodies).
    pub(super) fn note_leave(&mut self, marks_only: bool) {
        let (runs, mut r) = (&self.runs, 0);
        for span in &self.spans {
            let end = span.start + span.len;
            while r < runs.len() && runs[r].start < span.start {
                r += 1;
            }
            let mut only = marks_only;
            while r < runs.len() && runs[r].start < end {
                let run = &runs[r];
                only &= run.looks == 0 && run.all_small(self.cell);
                r += 1;
            }
            let arch = span.arch as usize;
            if self.leave.len() <= arch {
                self.leave.resize(arch + 1, false);
            }
            self.leave[arch] = only;
        }
    }
}

#[cfg(test)]
mod tests;
