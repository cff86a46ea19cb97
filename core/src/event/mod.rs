//! Typed events: value records of facts that happened in a tick.
//!
//! Events are plain copies: a consumer never dereferences a component through an event, so an
//! event about an entity destroyed later in the tick is still safe to read. Queues belong to the
//! tick, are cleared at BeginTick and are bounded by `[limits] events` (spawn events by the
//! spawns of one Commit, at most `[limits] entities`); a full queue faults, because gameplay
//! events are required.
//!
//! Every kind is declared once, in `kinds.rs`: its records and its entry in the event list,
//! from which `declare.rs`'s macro generates the queues and all that is read from the list.

pub(crate) mod declare;
mod docs;
pub(crate) mod kinds;
#[cfg(test)]
mod tests;

pub use declare::{EventField, EventSpec, FieldSink, FieldType, QueueBound};
pub use docs::{events_markdown, stages_markdown};
pub use kinds::*;

use crate::fault::Fault;
use crate::limits::{Limit, push_within};

impl Events {
    /// Whether this is the level's first tick.
    pub fn level_started(&self) -> bool {
        !self.level_start.is_empty()
    }
}

/// Pushes into a bounded event queue; a full queue is a capacity fault naming the queue and
/// `[limits] events`. The queue never reserves room past `capacity`.
pub(crate) fn push_bounded<T>(
    queue: &mut Vec<T>,
    event: T,
    capacity: u32,
    name: &str,
) -> Result<(), Fault> {
    if push_within(queue, event, capacity as usize) {
        Ok(())
    } else {
        Err(Limit::Events.exceeded(capacity, format_args!("{name} events in one tick")))
    }
}
