//! Rewind: holding Backspace runs time backwards through the last seconds of play, drawn from
//! a bounded ring of recent frames; releasing it resumes from the tick shown. The world there
//! is made exactly, never approximately: the level's history without the ticks after it runs
//! again (a re-simulation, `resim.rs`), so its state hash is the one the tick had, and the
//! input after it is discarded.
//!
//! The frames come from the ring in `past.rs`.

use crate::runtime::rerun::without_last;
use crate::runtime::runner::{PlayState, Runner};
use ludus_core::*;

impl Runner {
    /// Runs time back `ticks` ticks of the level's history, exactly (scripted rewinds, and
    /// the release of Backspace).
    pub fn rewind(&mut self, ticks: u64) {
        if self.resim.is_some() || ticks == 0 {
            return;
        }
        let Some(rec) = self.play.timed.history.recording() else {
            let why = self.play.timed.history.stopped.clone().unwrap_or_default();
            self.ui.fresh.push(format!(
                "cannot rewind: the level's input was not kept ({why})"
            ));
            return;
        };
        let n = self.playback_rewind_span(ticks.min(rec.total_ticks() as u64));
        let rec = without_last(rec, n);
        self.play.past.scrub = None;
        if let Err(e) = self.start_rerun(self.play.project.clone(), rec, Some(n)) {
            self.ui.fresh.push(format!("cannot rewind: {e}"));
        }
    }

    /// Backspace came up: play resumes from the frame shown.
    pub(super) fn end_scrub(&mut self) {
        let past = &mut self.play.past;
        let Some(i) = past.scrub.take() else {
            return;
        };
        let kept = self.play.timed.history.kept_ticks();
        if let Some((at, _)) = past.frames.get(i) {
            let back = kept.saturating_sub(*at);
            // The frames after it are the future no more.
            past.frames.truncate(i + 1);
            self.rewind(back);
        }
    }
}

impl PlayState {
    /// Backspace went down: the view starts running back through the kept frames.
    pub(super) fn start_scrub(&mut self) {
        if !self.past.frames.is_empty() && self.session.mode() != Mode::Faulted {
            self.past.scrub = Some(self.past.frames.len() - 1);
        }
    }

    /// One frame of scrubbing: one kept frame further back. Returns whether scrubbing.
    pub(super) fn scrub_frame(&mut self) -> bool {
        match &mut self.past.scrub {
            Some(i) => {
                *i = i.saturating_sub(1);
                true
            }
            None => false,
        }
    }

    /// After a frame: keeps it for rewinding when ticks ran.
    pub(super) fn keep_past(&mut self, report: &FrameReport) {
        if report.published {
            self.past.clear();
        }
        if report.ticks_run > 0 && report.mode == Mode::Playing {
            let kept = self.timed.history.kept_ticks();
            self.past.push(kept, &self.frame);
        }
    }
}
