//! What a recording holds, and the checks on every value a replay uses.

use crate::def::{AiPolicy, Limits};
use crate::fault::MAX_FAULT_MESSAGE_BYTES;
use crate::frame::clock::TickPolicy;
use crate::frame::input::{MAX_ACTIONS, TickInput};
use crate::jobs::{Completion, JobOutput, JobStatus};
use crate::saved::SaveStore;
use crate::world::hash::StateHash;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"LUDUSREC";
pub const FORMAT_VERSION: u32 = 6;

/// The largest recording file read or written, in bytes (128 MiB).
pub const MAX_RECORDING_BYTES: u64 = 128 * 1024 * 1024;

/// The most memory the lists of one recording may take once decoded, in bytes (512 MiB).
pub const MAX_DECODED_BYTES: usize = 512 * 1024 * 1024;

/// The longest header string (build, game name, game folder) and level name, in bytes.
pub const MAX_RECORDED_NAME_BYTES: usize = 4096;

/// The most segments (level activations) one recording may hold: each costs a replay a level
/// build, however few bytes it takes in the file. See [`Recording::most_segments`].
pub const MAX_SEGMENTS: usize = 10_000;

/// The segments a recording may hold whatever its length (see [`Recording::most_segments`]).
pub const FREE_SEGMENTS: usize = 256;

/// Past [`FREE_SEGMENTS`], a recording holds at most one segment per this many recorded ticks
/// (see [`Recording::most_segments`]).
pub const TICKS_PER_SEGMENT: usize = 16;

/// Everything a replay must match before it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingHeader {
    /// The build that recorded it (`ludus-core` version).
    pub build: String,
    pub game: String,
    /// The game folder as given when recording (`None`: the bundled example).
    pub game_dir: Option<String>,
    pub content_hash: u64,
    pub tick: TickPolicy,
    pub ai: AiPolicy,
    pub seed: u64,
    pub limits: Limits,
    /// Stress entities added at every level build.
    pub entities: u32,
}

/// One completed tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TickRecord {
    pub tick: u64,
    pub input: TickInput,
    /// The background completions BeginTick took, in request-id order.
    #[serde(deserialize_with = "crate::budget::vec")]
    pub completions: Vec<Completion>,
    pub hash: StateHash,
    /// Optional per-entity detail for pinpointing divergences (see [`EntityValues`]).
    #[serde(deserialize_with = "crate::budget::opt_vec")]
    pub detail: Option<Vec<EntityValues>>,
}

/// The canonical values of one entity (for divergence reports).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntityValues {
    pub seq: u64,
    pub archetype: u16,
    pub pos: [f32; 2],
    pub vel: [f32; 2],
    pub health: Option<i32>,
}

/// The ticks of one level activation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub level: String,
    /// A script's `load_level` started it: the score, game variables and scripts' state
    /// carried over from the previous segment (otherwise it is a fresh start).
    pub switched: bool,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub ticks: Vec<TickRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub header: RecordingHeader,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub segments: Vec<Segment>,
    /// The run ended in a fault at the tick after the last segment's last: a replay runs it
    /// and expects the same fault.
    pub fault: Option<RecordedFault>,
    /// The game's saved data when the recording began (empty for a run that had none, and in
    /// recordings of earlier versions): a replay starts from it.
    pub saved: SaveStore,
}

/// The tick a recorded run faulted in: what it was given and how it failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedFault {
    pub tick: u64,
    pub input: TickInput,
    /// The background completions BeginTick took, in request-id order.
    #[serde(deserialize_with = "crate::budget::vec")]
    pub completions: Vec<Completion>,
    /// The fault's message: at most [`MAX_FAULT_MESSAGE_BYTES`] bytes, as every fault's is
    /// (earlier builds kept its first 1024 characters; a replay compares the replay's fault
    /// message's beginning with it).
    pub message: String,
}

/// Why a recording could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordingError {
    NotARecording,
    Version {
        found: u32,
        expected: u32,
    },
    Truncated {
        expected: u64,
        found: u64,
    },
    Corrupt(String),
    /// The file, or what it decodes to, is larger than a recording may be.
    TooLarge(String),
    /// A value no run could have recorded, with where it is.
    Invalid(String),
}

impl fmt::Display for RecordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordingError::NotARecording => write!(f, "not a Ludus recording (bad magic bytes)"),
            RecordingError::Version { found, expected } => write!(
                f,
                "recording format version {found}; this build reads version {expected}"
            ),
            RecordingError::Truncated { expected, found } => write!(
                f,
                "the recording is truncated ({found} of {expected} payload bytes present)"
            ),
            RecordingError::Corrupt(why) => write!(f, "the recording is corrupt: {why}"),
            RecordingError::TooLarge(why) => write!(f, "the recording is too large: {why}"),
            RecordingError::Invalid(why) => {
                write!(f, "the recording holds a value no run records: {why}")
            }
        }
    }
}

impl std::error::Error for RecordingError {}

impl Recording {
    /// The most segments a recording may have begun once it holds `ticks` ticks:
    /// [`FREE_SEGMENTS`], plus one per [`TICKS_PER_SEGMENT`] ticks, and never more than
    /// [`MAX_SEGMENTS`]; a segment may begin only while fewer have (so the ticks that earn a
    /// segment come before it, as they do when a run is recorded). Each segment costs a replay
    /// a level build (a fresh script VM, the level's placements and the stress entities), which
    /// takes as long as many ticks and only a few bytes to record: bounding segments by ticks
    /// keeps a replay's work proportional to its file's size, and its builds no faster than
    /// its ticks earn them. A run that restarts or switches level more often than that stops
    /// recording, saying so.
    pub fn most_segments(ticks: u64) -> usize {
        let earned = usize::try_from(ticks / TICKS_PER_SEGMENT as u64).unwrap_or(usize::MAX);
        FREE_SEGMENTS.saturating_add(earned).min(MAX_SEGMENTS)
    }

    /// Checks every value a replay uses, whatever wrote it: each segment begun within
    /// [`most_segments`](Self::most_segments) of the ticks before it, the first not a switch,
    /// names short and printable, tick numbers increase from 1, inputs name at most
    /// [`MAX_ACTIONS`] actions with axis values in [-1, 1] and touches as
    /// [`check_touches`](crate::check_touches) accepts, the saved data within the
    /// limits' `save_bytes` (its keys and values are checked as it decodes), a tick applies at most
    /// `limits.jobs` completions, and every flow field is well formed
    /// ([`crate::FlowField::check`]). The error says where the first bad value is.
    pub fn validate(&self) -> Result<(), String> {
        let h = &self.header;
        check_name("build", &h.build)?;
        check_name("game name", &h.game)?;
        if let Some(dir) = &h.game_dir {
            check_name("game folder", dir)?;
        }
        if self.saved.bytes() > h.limits.save_bytes as usize {
            return Err(format!(
                "the saved data takes {} bytes, more than the recorded limits' save_bytes, {}",
                self.saved.bytes(),
                h.limits.save_bytes
            ));
        }
        if self.segments.first().is_some_and(|s| s.switched) {
            return Err(
                "segment 1: a recording begins with a level started afresh, not a switch".into(),
            );
        }
        let jobs = h.limits.jobs.max(1) as usize;
        // Ticks recorded before the segment at hand.
        let mut before = 0u64;
        for (si, segment) in self.segments.iter().enumerate() {
            let most = Recording::most_segments(before);
            if si >= most {
                return Err(format!(
                    "{} segments (level activations); segment {} begins after {before} ticks, \
                     and a recording begins at most {FREE_SEGMENTS} plus one per \
                     {TICKS_PER_SEGMENT} ticks recorded before them (here {most}), never more \
                     than {MAX_SEGMENTS}: each costs a replay a level build",
                    self.segments.len(),
                    si + 1
                ));
            }
            before += segment.ticks.len() as u64;
            let at_segment = |m: String| format!("segment {}: {m}", si + 1);
            check_name("level name", &segment.level).map_err(at_segment)?;
            let mut last = 0u64;
            for record in &segment.ticks {
                let at = |m: String| format!("segment {}, tick {}: {m}", si + 1, record.tick);
                if record.tick <= last {
                    return Err(at(format!(
                        "tick numbers must increase within a segment (after tick {last})"
                    )));
                }
                last = record.tick;
                check_input(&record.input).map_err(at)?;
                if record.completions.len() > jobs {
                    return Err(at(format!(
                        "{} background results, more than the {jobs} slots of the recorded limits",
                        record.completions.len()
                    )));
                }
                check_completions(&record.completions).map_err(at)?;
            }
        }
        match &self.fault {
            Some(f) => self.check_fault(f, jobs),
            None => Ok(()),
        }
    }

    /// The recorded fault: after the last tick, in a segment, its input, results and message
    /// within their bounds.
    fn check_fault(&self, f: &RecordedFault, jobs: usize) -> Result<(), String> {
        let last = self
            .segments
            .last()
            .and_then(|s| s.ticks.last())
            .map_or(0, |t| t.tick);
        let at = |m: String| format!("the fault at tick {}: {m}", f.tick);
        if f.tick <= last {
            return Err(at(format!("it must come after the last tick, {last}")));
        }
        if self.segments.is_empty() {
            return Err(at("a fault needs a segment to happen in".into()));
        }
        check_input(&f.input).map_err(at)?;
        if f.completions.len() > jobs {
            return Err(at(format!("{} background results", f.completions.len())));
        }
        if f.message.len() > MAX_FAULT_MESSAGE_BYTES {
            return Err(at(format!(
                "a message of {} bytes (a fault message has at most {MAX_FAULT_MESSAGE_BYTES})",
                f.message.len()
            )));
        }
        Ok(())
    }

    pub fn total_ticks(&self) -> usize {
        self.segments.iter().map(|s| s.ticks.len()).sum()
    }
}

/// A name a recording holds (`what` it is): at most [`MAX_RECORDED_NAME_BYTES`] bytes,
/// without control characters.
fn check_name(what: &str, s: &str) -> Result<(), String> {
    if s.len() > MAX_RECORDED_NAME_BYTES {
        return Err(format!(
            "the {what} is {} bytes long (at most {MAX_RECORDED_NAME_BYTES})",
            s.len()
        ));
    }
    if crate::fault::printable_line(s) != s {
        return Err(format!("the {what} contains control characters"));
    }
    Ok(())
}

/// A tick's recorded background results: each flow field well formed, each failure message
/// within [`MAX_RECORDED_NAME_BYTES`].
fn check_completions(completions: &[Completion]) -> Result<(), String> {
    for c in completions {
        match &c.status {
            JobStatus::Done(JobOutput::FlowField(field)) => field
                .check()
                .map_err(|m| format!("request {}: {m}", c.id.0))?,
            JobStatus::Failed(why) if why.len() > MAX_RECORDED_NAME_BYTES => {
                return Err(format!(
                    "request {}: a failure message of {} bytes",
                    c.id.0,
                    why.len()
                ));
            }
            JobStatus::Failed(_) => {}
        }
    }
    Ok(())
}

/// A recorded input: at most [`MAX_ACTIONS`] axis values, each a number in [-1, 1]; the
/// pointer and every touch within ±1e9; at most ten touches, their ids distinct.
fn check_input(input: &TickInput) -> Result<(), String> {
    if input.axes.len() > MAX_ACTIONS {
        return Err(format!(
            "{} axis values (a game has at most {MAX_ACTIONS} actions)",
            input.axes.len()
        ));
    }
    for (i, v) in input.axes.iter().enumerate() {
        if !(v.is_finite() && (-1.0..=1.0).contains(v)) {
            return Err(format!(
                "axis value {v:?} for action {i} (axis values are numbers in [-1, 1])"
            ));
        }
    }
    if let Some(p) = input.pointer
        && !crate::frame::touch::valid_position(p)
    {
        return Err(format!(
            "pointer {p:?} (a pointer is two finite coordinates within ±1e9)"
        ));
    }
    crate::frame::touch::check(&input.touches)
}
