//! Rewind: holding Backspace runs time backwards through the last seconds of play, drawn from
//! a bounded ring of recent frames; releasing it resumes from the tick shown. The world there
//! is made exactly, never approximately: the level's history without the ticks after it runs
//! again (a re-simulation, `resim.rs`), so its state hash is the one the tick had, and the
//! input after it is discarded.
//!
//! The ring keeps about ten seconds of frames within [`PAST_BYTES`]: every tick's frame for a
//! small world, every few ticks' for a large one (rewinding then steps by that many ticks).

use crate::runtime::rerun::without_last;
use crate::runtime::runner::{PlayState, Runner};
use ludus_core::*;
use std::collections::VecDeque;

/// The most memory the ring of past frames holds.
pub const PAST_BYTES: usize = 64 << 20;
/// The ticks the ring aims to reach back (ten seconds at 60 Hz).
const PAST_TICKS: u64 = 600;

/// Recent frames, each with how many ticks the history held when it was drawn.
#[derive(Default)]
pub struct Past {
    frames: VecDeque<(u64, RenderFrame)>,
    bytes: usize,
    /// While Backspace is held: the frame shown, an index into `frames`.
    pub scrub: Option<usize>,
}

/// What a frame's copy costs.
fn size_of(frame: &RenderFrame) -> usize {
    let texts: usize = frame.texts.iter().map(|t| t.text.len() + 64).sum();
    frame.draws.len() * std::mem::size_of::<Draw>() + texts + 256
}

impl Past {
    /// Keeps `frame`, drawn when the history held `kept` ticks, if its stride asks for it.
    pub fn push(&mut self, kept: u64, frame: &RenderFrame) {
        let size = size_of(frame);
        // Ten seconds of frames within the budget: a frame every `stride` ticks.
        let stride = (PAST_TICKS * size as u64)
            .div_ceil(PAST_BYTES as u64)
            .max(1);
        if !kept.is_multiple_of(stride)
            || size > PAST_BYTES
            || self.frames.back().is_some_and(|b| b.0 >= kept)
        {
            return;
        }
        while self.bytes + size > PAST_BYTES
            || self
                .frames
                .front()
                .is_some_and(|f| f.0 + PAST_TICKS * stride < kept)
        {
            let Some((_, old)) = self.frames.pop_front() else {
                break;
            };
            self.bytes -= size_of(&old);
        }
        self.bytes += size;
        self.frames.push_back((kept, frame.clone()));
    }

    /// Forgets every frame (a fresh level, a reload: the history starts over).
    pub fn clear(&mut self) {
        self.frames.clear();
        self.bytes = 0;
        self.scrub = None;
    }

    /// The frame shown while scrubbing.
    pub fn shown(&self) -> Option<&RenderFrame> {
        self.scrub.and_then(|i| self.frames.get(i)).map(|f| &f.1)
    }

    /// The overlay's timeline: the ticks kept and where the view is.
    pub fn timeline(&self, now: u64) -> String {
        let (Some(first), Some(_)) = (self.frames.front(), self.frames.back()) else {
            return "rewind: nothing kept yet".into();
        };
        const WIDTH: u64 = 24;
        let span = now.saturating_sub(first.0).max(1);
        let at = self
            .scrub
            .and_then(|i| self.frames.get(i))
            .map_or(now, |f| f.0);
        let mark = ((at - first.0.min(at)) * WIDTH / span).min(WIDTH - 1);
        let bar: String = (0..WIDTH)
            .map(|i| if i == mark { '|' } else { '=' })
            .collect();
        format!(
            "rewind [{bar}] {} frames, {span} ticks, {} KiB",
            self.frames.len(),
            self.bytes / 1024
        )
    }
}

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
        let n = ticks.min(rec.total_ticks() as u64);
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
