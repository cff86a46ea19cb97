//! Commands: what gameplay consequences ask the simulation to do.
//!
//! Consequences never touch the world. They read the stage's events and a few read-only values
//! through [`Gameplay`], and send [`Command`]s, which Rust validates and applies after the stage
//! in the order they were sent. Structural commands (spawn, destroy, teleport) are recorded for
//! Commit. Timers are scheduled and cancelled at once, so a cancellation suppresses a timer that
//! is due later in the same stage.

use crate::def::{ArchetypeId, EffectId, Overrides, SoundId};
use crate::fault::{Fault, FaultKind};
use crate::math::{Color, Vec2};
use std::fmt;

/// A request from gameplay consequences. Entities are named by creation sequence.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Lower health by `amount` (>= 0); Rust produces a damage event for the next stage.
    Damage {
        target: u64,
        amount: i32,
        source: Option<u64>,
    },
    /// Raise health by `amount` (>= 0), up to the maximum.
    Heal { target: u64, amount: i32 },
    /// Add to the score.
    Score(i64),
    /// Set a named game variable (shown in the HUD, readable by scripts, hashed).
    SetVar(String, f64),
    /// Set a value in an entity's script state.
    SetState {
        target: u64,
        key: String,
        value: f64,
    },
    /// Forget an entity's whole script state.
    ClearState(u64),
    /// Create an entity at Commit; it is visible to events from the next tick.
    Spawn {
        archetype: ArchetypeId,
        pos: Vec2,
        overrides: Overrides,
    },
    /// Destroy an entity at Commit. Later commands naming it this tick are discarded.
    Destroy(u64),
    /// Move an entity at Commit without interpolating across the jump.
    Teleport { target: u64, pos: Vec2 },
    /// Replace an entity's velocity.
    SetVelocity { target: u64, velocity: Vec2 },
    /// Stage a visual effect at a position.
    Effect {
        effect: EffectId,
        pos: Vec2,
        color: Option<Color>,
    },
    /// Stage a sound.
    Sound {
        sound: SoundId,
        volume: f32,
        pitch: f32,
    },
    /// End the game with a message (shown by the app; ticks continue).
    GameOver(String),
}

/// Why a command was refused when it was sent. The script host adds the script location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError {
    pub kind: FaultKind,
    pub message: String,
}

impl CommandError {
    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        CommandError {
            kind: FaultKind::Script,
            message: message.into(),
        }
    }

    pub fn into_fault(self) -> Fault {
        Fault::new(self.kind, self.message)
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CommandError {}

/// The gameplay stages of a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Level start, spawns, actions, collisions, triggers, expirations, timers.
    One,
    /// Damage outcomes.
    Two,
}
