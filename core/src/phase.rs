//! The phases of one tick, by name ([`run_tick`](crate::tick::run_tick) runs them in order).

use serde::{Deserialize, Serialize};

/// The phases of one tick, in their only order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Phase {
    BeginTick,
    Intent,
    Motion,
    Gameplay,
    Commit,
    EndTick,
}

impl Phase {
    pub const ALL: [Phase; 6] = [
        Phase::BeginTick,
        Phase::Intent,
        Phase::Motion,
        Phase::Gameplay,
        Phase::Commit,
        Phase::EndTick,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::BeginTick => "BeginTick",
            Phase::Intent => "Intent",
            Phase::Motion => "Motion and collision",
            Phase::Gameplay => "Gameplay",
            Phase::Commit => "Commit",
            Phase::EndTick => "EndTick",
        }
    }
}
