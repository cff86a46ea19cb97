//! Ludus simulation core: time, input, modes and the fixed tick over a hecs world.
//!
//! No I/O, no graphics, no Lua: time arrives as nanoseconds, input as action events, gameplay
//! consequences through a trait the script host implements. Every rule here is testable headless.

mod bindings;
mod clock;
mod fault;
mod input;
mod pacer;
mod phase;
mod session;

pub use bindings::{KEY_NAMES, KeyBinding, KeyMap};
pub use clock::{FrameClock, FrameTime, PolicyError, TICK_PHASE, TickPolicy};
pub use fault::{Fault, FaultKind};
pub use input::{
    ActionDef, ActionError, ActionId, ActionKind, ActionSet, BridgeStats, InputBridge, MAX_ACTIONS,
    ResetReason, TickInput,
};
pub use pacer::{FrameKind, FramePacer, PacerPolicy};
pub use phase::Phase;
pub use session::{
    FrameReport, InputEvent, LoadRequest, LoadStatus, Mode, Session, SessionStats, Signal,
    Simulation,
};
