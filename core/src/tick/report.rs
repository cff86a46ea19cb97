//! What a tick was asked to do besides simulating, and what it did.

use crate::world::hash::StateHash;

/// What a tick does besides simulating: optional work at EndTick, and state only a window
/// needs. None of it changes a state hash or any later tick's simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickOptions {
    /// Compute the canonical state hash.
    pub hash: bool,
    /// Run debug invariant checks (on by default in debug builds of the app).
    pub check_invariants: bool,
    /// Run every pass on one thread. Passes that split large archetypes between two threads
    /// give exactly the serial results; this is for measuring and for tests that prove it.
    /// Off, a tick splits only where ticks run faster so on the machine
    /// ([`par::Threads`](crate::par::Threads)).
    pub serial: bool,
    /// Keep what interpolating between ticks needs (each entity's previous position and
    /// angle; on by default). A re-simulation that no window shows until its last tick turns
    /// it off: BeginTick then leaves previous transforms as they were (the motion pass from
    /// 128 entities still copies positions in its step loop, where the store costs nothing
    /// measurable), and [`crate::Game::settle_previous`] makes them current where the last
    /// tick ran without it.
    pub interpolate: bool,
}

impl Default for TickOptions {
    fn default() -> Self {
        TickOptions {
            hash: false,
            check_invariants: false,
            serial: false,
            interpolate: true,
        }
    }
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
