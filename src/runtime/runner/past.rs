//! The ring of recent frames rewinding runs back through (see `rewind.rs`): about ten seconds
//! of frames within [`PAST_BYTES`], every tick's frame for a small world, every few ticks'
//! for a large one (rewinding then steps by that many ticks).

use ludus_core::{Draw, RenderFrame};
use std::collections::VecDeque;

/// The most memory the ring of past frames holds.
pub const PAST_BYTES: usize = 64 << 20;
/// The ticks the ring aims to reach back (ten seconds at 60 Hz).
const PAST_TICKS: u64 = 600;

/// Recent frames, each with how many ticks the history held when it was drawn.
#[derive(Default)]
pub struct Past {
    pub(super) frames: VecDeque<(u64, RenderFrame)>,
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
