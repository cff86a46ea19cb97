//! The frame loop: time, input, pacing and the session's modes, around the fixed tick.

pub(crate) mod bindings;
pub(crate) mod clock;
pub(crate) mod input;
pub(crate) mod mode;
pub(crate) mod pacer;
pub(crate) mod report;
pub(crate) mod session;
pub(crate) mod touch;
