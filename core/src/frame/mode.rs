//! The session's simulation modes (a leaf: game definitions name the entry mode).

use serde::{Deserialize, Serialize};

/// The simulation mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Playing,
    Paused,
    Faulted,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Playing => "playing",
            Mode::Paused => "paused",
            Mode::Faulted => "faulted",
        }
    }
}
