//! What the frame loop reports: one frame's numbers, and the totals over a session's life.

use crate::frame::clock::FrameTime;
use crate::frame::mode::Mode;

/// Everything one frame did, in the frame loop's own numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameReport {
    /// Frame index, from 1.
    pub frame: u64,
    pub time: FrameTime,
    /// Ticks that ran and succeeded this frame (a single step counts).
    pub ticks_run: u32,
    /// Whole ticks discarded by the catch-up budget this frame.
    pub ticks_discarded: u64,
    /// The last completed tick after this frame (0: none yet in this world).
    pub tick: u64,
    /// Carried fraction of a tick, in `[0, 1)`.
    pub alpha: f32,
    pub mode: Mode,
    /// A load is in progress.
    pub loading: bool,
    /// A level was published at the start of this frame.
    pub published: bool,
    /// A fault happened during this frame.
    pub faulted: bool,
}

/// Totals over the session's life, for diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionStats {
    pub frames: u64,
    pub ticks: u64,
    pub discarded_ticks: u64,
    pub accepted_ns: u64,
    pub clamped_ns: u64,
    pub excluded_ns: u64,
    pub steps: u64,
    pub ignored_steps: u64,
    pub ui_consumed: u64,
    pub faults: u64,
    pub levels_published: u64,
}
