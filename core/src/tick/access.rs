//! What each phase reads and writes, derived from its systems' declarations, and the check
//! that the phase order agrees with it.

use crate::event::EventKind;
use crate::phase::Phase;
use crate::resource::Resource;

/// What one phase touches.
///
/// - `reads`: state the phase needs as earlier phases of this tick left it. A later phase
///   writing it would mean the read sees a stale value: an ordering error (unless every tick
///   starts it empty: see [`Resource::tick_local`]).
/// - `reads_previous`: state the phase reads knowing that later phases of this tick also write
///   it, so their writes reach it only in the next tick (for example Motion integrates the
///   positions Commit's teleports and spawns set at the end of the previous tick).
/// - `writes`, `produces`, `consumes`: what it changes and which event queues it fills and reads.
/// - `consumes_carried`: events a previous tick produced (spawn outcomes, late damage).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseAccess {
    pub phase: Phase,
    pub reads: Vec<Resource>,
    pub reads_previous: Vec<Resource>,
    pub writes: Vec<Resource>,
    pub produces: Vec<EventKind>,
    pub consumes: Vec<EventKind>,
    /// Events consumed that a previous tick produced (carried queues).
    pub consumes_carried: Vec<EventKind>,
}

/// An ordering problem found by [`check_order`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// `reader` reads `resource`, which the later phase `writer` writes, without declaring that
    /// it reads the previous tick's value.
    ReadBeforeWrite {
        reader: Phase,
        writer: Phase,
        resource: Resource,
    },
    /// `consumer` consumes `event`, which no phase up to and including it produces.
    ConsumedBeforeProduced { consumer: Phase, event: EventKind },
    /// The table is not in [`Phase::ALL`] order.
    OutOfOrder { position: usize, phase: Phase },
}

/// Verifies that the fixed call order agrees with the declared access.
pub fn check_order(table: &[PhaseAccess]) -> Result<(), Vec<OrderError>> {
    let mut errors = Vec::new();
    for (i, access) in table.iter().enumerate() {
        if Phase::ALL.get(i) != Some(&access.phase) {
            errors.push(OrderError::OutOfOrder {
                position: i,
                phase: access.phase,
            });
        }
        for &resource in access.reads.iter().filter(|r| !r.tick_local()) {
            for later in &table[i + 1..] {
                if later.writes.contains(&resource) {
                    errors.push(OrderError::ReadBeforeWrite {
                        reader: access.phase,
                        writer: later.phase,
                        resource,
                    });
                }
            }
        }
        for &event in &access.consumes {
            let produced = table[..=i].iter().any(|p| p.produces.contains(&event))
                || table[..=i]
                    .iter()
                    .any(|p| p.consumes_carried.contains(&event));
            if !produced {
                errors.push(OrderError::ConsumedBeforeProduced {
                    consumer: access.phase,
                    event,
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}
