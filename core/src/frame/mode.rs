//! The session's simulation modes (a leaf: game definitions name the entry mode).

use serde::{Deserialize, Serialize};

/// The simulation mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Playing,
    Paused,
    Faulted,
    /// The game ended (a script's `game_over`): no ticks until a restart or another level.
    Over,
}

impl Mode {
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Playing => "playing",
            Mode::Paused => "paused",
            Mode::Faulted => "faulted",
            Mode::Over => "over",
        }
    }
}
