//! Positions left in their archetypes' columns: a fused motion pass need not copy the
//! positions of colliders that only a sparse search's marks read (a crowd that does not look
//! and is looked for by a few), and the plan reads them where they are. At 256k drones the
//! copy was a twentieth of the tick: a second 2 MiB written, and read back, every tick.

use crate::collision::Broadphase;
use crate::collision::grid::{COPIED, Span};
use crate::math::Vec2;

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

    /// Per run, the index of the span that left its positions in a column, or [`COPIED`]
    /// (runs and spans both ascend; a run never straddles a span's edge: see `Span`).
    pub(super) fn find_left(&mut self) {
        self.run_left.clear();
        let (spans, mut s) = (&self.spans, 0);
        for r in &self.runs {
            while s < spans.len() && spans[s].start + spans[s].len <= r.start {
                s += 1;
            }
            let left = spans
                .get(s)
                .is_some_and(|span| span.left && span.start <= r.start);
            self.run_left.push(if left { s as u32 } else { COPIED });
        }
    }

    /// Run `ri`'s positions in the column its span left them in (`cols`: a column per span),
    /// if it left them there.
    fn in_column<'a>(&self, ri: usize, cols: &[&'a [Vec2]]) -> Option<&'a [Vec2]> {
        let si = self.run_left[ri];
        (si != COPIED).then(|| {
            let r = &self.runs[ri];
            let from = (r.start - self.spans[si as usize].start) as usize;
            &cols[si as usize][from..from + r.len as usize]
        })
    }

    /// Copies run `ri`'s positions in from its column, if it left them there.
    pub(super) fn bring(&mut self, ri: usize, cols: &[&[Vec2]]) {
        if let Some(column) = self.in_column(ri, cols) {
            let range = self.runs[ri].range();
            self.pos[range].copy_from_slice(column);
            self.run_left[ri] = COPIED;
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
            .unwrap_or_else(|| &self.pos[self.runs[ri].range()])
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
