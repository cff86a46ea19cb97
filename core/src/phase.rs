//! The phases of one tick, in their only order: [`Phase::ALL`] is the one statement of it
//! ([`run_tick`](crate::tick::run_tick) runs them so, the schedule orders systems by it, and
//! docs/architecture.md's tick table is generated from it); and the Gameplay phase's two
//! [`Stage`]s.

use serde::{Deserialize, Serialize};

/// The phases of one tick, declared in their only order (what each does: [`Phase::summary`]).
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
    /// Every phase, in the order a tick runs them (their declaration order).
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

    /// What the phase does, in one line.
    pub fn summary(self) -> &'static str {
        match self {
            Phase::BeginTick => {
                "clear the tick's queues; apply the background results in request-id order; \
                 deliver last tick's spawn outcomes, carried damage and the level start; \
                 snapshot due timers; copy current to previous transforms"
            }
            Phase::Intent => {
                "lifetimes; level spawners; player intent from the tick's input; navigation \
                 requests; behaviours decide on their cadence and keep their intent between \
                 decisions"
            }
            Phase::Motion => {
                "integrate; turn; bounds; attached entities follow their parents; broadphase, \
                 pushes and responses; the contact cache gives enter, stay and exit events in \
                 canonical pair order"
            }
            Phase::Gameplay => {
                "stage 1: consequences of the level start, spawns, actions, contacts, \
                 expirations and timers; Rust applies their commands (damage makes damage \
                 events); stage 2: consequences of damage; Rust applies their commands"
            }
            Phase::Commit => {
                "preflight the entity bound, then destroys (with what is attached to them; \
                 leaving the contact cache without exits), teleports and spawns (previous equal \
                 to current; outcomes for the next tick), then commands naming this tick's \
                 spawns, attachments, and attached entities put in place"
            }
            Phase::EndTick => {
                "optional invariants; the state hash; publish the tick number and its \
                 presentation requests"
            }
        }
    }
}

/// The two stages of the Gameplay phase: consequences of what the tick's earlier phases made,
/// then of what Rust made of stage 1's commands (damage). Which event kinds each stage
/// delivers is declared with the kinds (`event/kinds.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Level start, the tick, spawns, actions, collisions, triggers, expirations, timers.
    One,
    /// Damage outcomes.
    Two,
}

#[cfg(test)]
mod tests {
    use super::Phase;

    #[test]
    fn all_lists_every_phase_in_declaration_order() {
        for (i, p) in Phase::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i, "{p:?} is not where it is declared");
        }
    }
}
