//! Recordings: what a run needs to be replayed tick for tick, and the versioned file format.
//!
//! A recording holds a header (format version, build, content hash, and every policy that
//! affects the simulation: tick policy, AI cadence, seed, limits, stress entities) and, per
//! level activation (a *segment*: restarts start a new one), every completed tick's
//! [`TickInput`], the background completions applied at its BeginTick, and its EndTick
//! [`StateHash`]. Entities are never named by runtime handle: inputs carry none, completions
//! name their target by creation sequence.
//!
//! File layout (all integers little-endian):
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `LUDUSREC` |
//! | 4 | format version ([`FORMAT_VERSION`]; version 1 is still read) |
//! | 8 | payload length |
//! | n | payload: the [`Recording`] encoded with postcard 1.x |
//! | 8 | XXH3-64 of the payload |
//!
//! The checksum only catches damage: anyone can write a payload and its checksum, so
//! [`Recording::from_bytes`] trusts nothing in it. A file is at most [`MAX_RECORDING_BYTES`],
//! its lists are decoded under a memory budget of [`MAX_DECODED_BYTES`] enforced while they
//! fill (see `budget.rs`), and every decoded value a replay uses is checked by
//! [`Recording::validate`] before it is used.

use crate::def::{AiPolicy, Limits};
use crate::frame::clock::TickPolicy;
use crate::frame::input::{MAX_ACTIONS, TickInput};
use crate::jobs::{Completion, JobOutput, JobStatus};
use crate::world::hash::StateHash;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"LUDUSREC";
pub const FORMAT_VERSION: u32 = 2;

/// The largest recording file read or written, in bytes (128 MiB).
pub const MAX_RECORDING_BYTES: u64 = 128 * 1024 * 1024;

/// The most memory the lists of one recording may take once decoded, in bytes (512 MiB).
pub const MAX_DECODED_BYTES: usize = 512 * 1024 * 1024;

/// The longest header string (build, game name, game folder) and level name, in bytes.
pub const MAX_RECORDED_NAME_BYTES: usize = 4096;

/// The most segments (level activations) one recording may hold: each costs a replay a level
/// build, however few bytes it takes in the file.
pub const MAX_SEGMENTS: usize = 100_000;

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
    #[serde(deserialize_with = "crate::budget::vec")]
    pub ticks: Vec<TickRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub header: RecordingHeader,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub segments: Vec<Segment>,
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
    /// Encodes to the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = postcard::to_allocvec(self).unwrap_or_default();
        let mut out = Vec::with_capacity(payload.len() + 28);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload);
        out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&payload).to_le_bytes());
        out
    }

    /// Decodes the file format, refusing anything damaged, oversized or out of range.
    pub fn from_bytes(bytes: &[u8]) -> Result<Recording, RecordingError> {
        Recording::decode_within(bytes, MAX_DECODED_BYTES)
    }

    /// [`from_bytes`](Self::from_bytes) with another budget for the decoded lists, in bytes.
    pub fn decode_within(bytes: &[u8], budget: usize) -> Result<Recording, RecordingError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(RecordingError::NotARecording);
        }
        if bytes.len() as u64 > MAX_RECORDING_BYTES {
            return Err(RecordingError::TooLarge(format!(
                "{} bytes; a recording may be at most {} bytes",
                bytes.len(),
                MAX_RECORDING_BYTES
            )));
        }
        let word = |at: usize, n: usize| -> Option<&[u8]> { bytes.get(at..at + n) };
        let version = word(8, 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or(RecordingError::Truncated {
                expected: 12,
                found: bytes.len() as u64,
            })?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(RecordingError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let len = word(12, 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
            .ok_or(RecordingError::Truncated {
                expected: 20,
                found: bytes.len() as u64,
            })?;
        let have = bytes.len().saturating_sub(20) as u64;
        if have < len.saturating_add(8) {
            return Err(RecordingError::Truncated {
                expected: len,
                found: have.saturating_sub(8).min(len),
            });
        }
        let payload = &bytes[20..20 + len as usize];
        let sum = u64::from_le_bytes(
            bytes[20 + len as usize..28 + len as usize]
                .try_into()
                .unwrap_or([0; 8]),
        );
        if sum != xxhash_rust::xxh3::xxh3_64(payload) {
            return Err(RecordingError::Corrupt("checksum mismatch".into()));
        }
        if have > len + 8 {
            return Err(RecordingError::Corrupt(
                "trailing bytes after the checksum".into(),
            ));
        }
        let (decoded, exhausted) = crate::budget::decoding(budget, || match version {
            1 => postcard::from_bytes::<v1::Recording>(payload).map(Recording::from),
            _ => postcard::from_bytes::<Recording>(payload),
        });
        let recording = match decoded {
            Ok(r) => r,
            Err(_) if exhausted => {
                return Err(RecordingError::TooLarge(format!(
                    "it would take more than {} MiB of memory once decoded",
                    budget >> 20
                )));
            }
            Err(e) => return Err(RecordingError::Corrupt(e.to_string())),
        };
        recording.validate().map_err(RecordingError::Invalid)?;
        Ok(recording)
    }

    /// Checks every value a replay uses, whatever wrote it: at most [`MAX_SEGMENTS`] segments,
    /// names are short and printable, tick
    /// numbers increase from 1, inputs name at most [`MAX_ACTIONS`] actions with axis values
    /// in [-1, 1], a tick applies at most `limits.jobs` completions, and every flow field is
    /// well formed ([`crate::FlowField::check`]). The error says where the first bad value is.
    pub fn validate(&self) -> Result<(), String> {
        let h = &self.header;
        let name = |what: &str, s: &str| -> Result<(), String> {
            if s.len() > MAX_RECORDED_NAME_BYTES {
                return Err(format!(
                    "the {what} is {} bytes long (at most {MAX_RECORDED_NAME_BYTES})",
                    s.len()
                ));
            }
            if s.chars().any(char::is_control) {
                return Err(format!("the {what} contains control characters"));
            }
            Ok(())
        };
        name("build", &h.build)?;
        name("game name", &h.game)?;
        if let Some(dir) = &h.game_dir {
            name("game folder", dir)?;
        }
        if self.segments.len() > MAX_SEGMENTS {
            return Err(format!(
                "{} segments (level activations); a recording holds at most {MAX_SEGMENTS}",
                self.segments.len()
            ));
        }
        let jobs = h.limits.jobs.max(1) as usize;
        for (si, segment) in self.segments.iter().enumerate() {
            let at_segment = |m: String| format!("segment {}: {m}", si + 1);
            name("level name", &segment.level).map_err(at_segment)?;
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
                for c in &record.completions {
                    match &c.status {
                        JobStatus::Done(JobOutput::FlowField(field)) => field
                            .check()
                            .map_err(|m| at(format!("request {}: {m}", c.id.0)))?,
                        JobStatus::Failed(why) if why.len() > MAX_RECORDED_NAME_BYTES => {
                            return Err(at(format!(
                                "request {}: a failure message of {} bytes",
                                c.id.0,
                                why.len()
                            )));
                        }
                        JobStatus::Failed(_) => {}
                    }
                }
            }
        }
        Ok(())
    }

    pub fn total_ticks(&self) -> usize {
        self.segments.iter().map(|s| s.ticks.len()).sum()
    }
}

/// Version 1 of the format: the header's limits had no `contacts`, `variables` or
/// `state_keys` (they take their defaults, which is what the recorded game ran with).
mod v1 {
    use super::{RecordingHeader, Segment};
    use crate::def::{AiPolicy, Limits};
    use crate::frame::clock::TickPolicy;
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Recording {
        header: Header,
        segments: Vec<Segment>,
    }

    #[derive(Deserialize)]
    struct Header {
        build: String,
        game: String,
        game_dir: Option<String>,
        content_hash: u64,
        tick: TickPolicy,
        ai: AiPolicy,
        seed: u64,
        limits: [u32; 7],
        entities: u32,
    }

    impl From<Recording> for super::Recording {
        fn from(r: Recording) -> Self {
            let h = r.header;
            let [
                max_entities,
                events_per_tick,
                commands_per_tick,
                outbox,
                timers,
                draws,
                jobs,
            ] = h.limits;
            super::Recording {
                header: RecordingHeader {
                    build: h.build,
                    game: h.game,
                    game_dir: h.game_dir,
                    content_hash: h.content_hash,
                    tick: h.tick,
                    ai: h.ai,
                    seed: h.seed,
                    limits: Limits {
                        max_entities,
                        events_per_tick,
                        commands_per_tick,
                        outbox,
                        timers,
                        draws,
                        jobs,
                        ..Limits::default()
                    },
                    entities: h.entities,
                },
                segments: r.segments,
            }
        }
    }
}

/// A recorded input: at most [`MAX_ACTIONS`] axis values, each a number in [-1, 1].
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
    Ok(())
}

/// The canonical per-entity values of a world, in creation order.
pub fn entity_values(world: &crate::world::SimWorld) -> Vec<EntityValues> {
    use crate::world::components::{Health, Identity, Position, Velocity};
    let mut v: Vec<EntityValues> = world
        .ecs()
        .query::<(&Identity, &Position, Option<&Velocity>, Option<&Health>)>()
        .iter()
        .map(|(id, t, vel, h)| EntityValues {
            seq: id.seq,
            archetype: id.archetype.0,
            pos: [t.0.x, t.0.y],
            vel: vel.map_or([0.0, 0.0], |v| [v.0.x, v.0.y]),
            health: h.map(|h| h.current),
        })
        .collect();
    v.sort_unstable_by_key(|e| e.seq);
    v
}

/// The first difference between two entity lists, described for a person.
pub fn describe_difference(expected: &[EntityValues], found: &[EntityValues]) -> Option<String> {
    let mut i = 0;
    let mut j = 0;
    while i < expected.len() || j < found.len() {
        match (expected.get(i), found.get(j)) {
            (Some(a), Some(b)) if a.seq == b.seq => {
                if a.pos != b.pos {
                    return Some(format!(
                        "entity #{}: position {:?}, expected {:?}",
                        a.seq, b.pos, a.pos
                    ));
                }
                if a.vel != b.vel {
                    return Some(format!(
                        "entity #{}: velocity {:?}, expected {:?}",
                        a.seq, b.vel, a.vel
                    ));
                }
                if a.health != b.health {
                    return Some(format!(
                        "entity #{}: health {:?}, expected {:?}",
                        a.seq, b.health, a.health
                    ));
                }
                if a.archetype != b.archetype {
                    return Some(format!(
                        "entity #{}: archetype {}, expected {}",
                        a.seq, b.archetype, a.archetype
                    ));
                }
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a.seq < b.seq => {
                return Some(format!("entity #{} is missing", a.seq));
            }
            (Some(_), Some(b)) => return Some(format!("entity #{} should not exist", b.seq)),
            (Some(a), None) => return Some(format!("entity #{} is missing", a.seq)),
            (None, Some(b)) => return Some(format!("entity #{} should not exist", b.seq)),
            (None, None) => break,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Recording {
        Recording {
            header: RecordingHeader {
                build: "0.1.0".into(),
                game: "g".into(),
                game_dir: Some("examples/g".into()),
                content_hash: 7,
                tick: TickPolicy::default(),
                ai: AiPolicy::default(),
                seed: 3,
                limits: Limits::default(),
                entities: 0,
            },
            segments: vec![Segment {
                level: "main".into(),
                ticks: (1..=5)
                    .map(|t| TickRecord {
                        tick: t,
                        input: TickInput {
                            held: t,
                            ..TickInput::default()
                        },
                        completions: Vec::new(),
                        hash: StateHash {
                            total: t * 11,
                            parts: [t; 8],
                        },
                        detail: None,
                    })
                    .collect(),
            }],
        }
    }

    #[test]
    fn round_trip_and_every_kind_of_damage_is_refused() {
        let r = sample();
        let bytes = r.to_bytes();
        assert_eq!(Recording::from_bytes(&bytes), Ok(r));
        assert_eq!(
            Recording::from_bytes(b"hello world, not a recording"),
            Err(RecordingError::NotARecording)
        );
        assert_eq!(
            Recording::from_bytes(&[]),
            Err(RecordingError::NotARecording)
        );
        for cut in [9, 15, 25, bytes.len() - 1] {
            assert!(
                matches!(
                    Recording::from_bytes(&bytes[..cut]),
                    Err(RecordingError::Truncated { .. })
                ),
                "cut at {cut}"
            );
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 0x40;
        assert_eq!(
            Recording::from_bytes(&flipped),
            Err(RecordingError::Corrupt("checksum mismatch".into()))
        );
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            Recording::from_bytes(&version),
            Err(RecordingError::Version {
                found: 9,
                expected: FORMAT_VERSION
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            Recording::from_bytes(&long),
            Err(RecordingError::Corrupt(_))
        ));
        let mut huge = bytes.clone();
        huge[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            Recording::from_bytes(&huge),
            Err(RecordingError::Truncated { .. })
        ));
    }
}
