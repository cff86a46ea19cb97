//! What a tick was asked to do besides simulating, and what it did.

use crate::world::hash::StateHash;

/// Optional work at EndTick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickOptions {
    /// Compute the canonical state hash.
    pub hash: bool,
    /// Run debug invariant checks (on by default in debug builds of the app).
    pub check_invariants: bool,
    /// Run every pass on one thread. Passes that split large archetypes between two threads
    /// give exactly the serial results; this is for measuring and for tests that prove it.
    pub serial: bool,
}

/// What one successful tick did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickReport {
    pub tick: u64,
    pub hash: Option<StateHash>,
    pub entities: usize,
    pub events: usize,
    pub commands: usize,
    pub contacts: usize,
    pub spawned: usize,
    pub destroyed: usize,
    pub completions_applied: usize,
}
