//! Simulation faults: the one way a tick fails.

use crate::tick::phase::Phase;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of rule a fault broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultKind {
    /// A script raised an error, exceeded its budget or sent a malformed command.
    Script,
    /// A bounded queue or pool that must not drop anything was full.
    Capacity,
    /// A debug invariant check failed.
    Invariant,
    /// A counter or deadline would have overflowed (tick index, timer deadline).
    Exhausted,
    /// A level could not be built.
    Load,
}

/// A simulation fault. The tick it happened in is not published; the session stops ticking
/// and keeps the world for inspection until a restart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub kind: FaultKind,
    /// The tick that failed (0 when no tick was running).
    pub tick: u64,
    pub phase: Option<Phase>,
    pub message: String,
    /// Where in content or scripts, as `file:line` when known.
    pub location: Option<String>,
}

impl Fault {
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Self {
        Fault {
            kind,
            tick: 0,
            phase: None,
            message: message.into(),
            location: None,
        }
    }

    pub fn at(mut self, tick: u64, phase: Phase) -> Self {
        self.tick = tick;
        self.phase = Some(phase);
        self
    }

    pub fn with_location(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{}", self.message)?;
        if self.tick > 0 {
            write!(f, " (tick {}", self.tick)?;
            if let Some(p) = self.phase {
                write!(f, ", {}", p.name())?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}
