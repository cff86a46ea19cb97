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
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 8 | payload length |
//! | n | payload: the [`Recording`] encoded with postcard 1.x |
//! | 8 | XXH3-64 of the payload |

use crate::def::{AiPolicy, Limits};
use crate::frame::clock::TickPolicy;
use crate::frame::input::TickInput;
use crate::jobs::Completion;
use crate::world::hash::StateHash;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"LUDUSREC";
pub const FORMAT_VERSION: u32 = 2;

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
    pub completions: Vec<Completion>,
    pub hash: StateHash,
    /// Optional per-entity detail for pinpointing divergences (see [`EntityValues`]).
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
    pub ticks: Vec<TickRecord>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub header: RecordingHeader,
    pub segments: Vec<Segment>,
}

/// Why a recording could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordingError {
    NotARecording,
    Version { found: u32, expected: u32 },
    Truncated { expected: u64, found: u64 },
    Corrupt(String),
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

    /// Decodes the file format, refusing anything damaged.
    pub fn from_bytes(bytes: &[u8]) -> Result<Recording, RecordingError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(RecordingError::NotARecording);
        }
        let word = |at: usize, n: usize| -> Option<&[u8]> { bytes.get(at..at + n) };
        let version = word(8, 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or(RecordingError::Truncated {
                expected: 12,
                found: bytes.len() as u64,
            })?;
        if version != FORMAT_VERSION {
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
        postcard::from_bytes(payload).map_err(|e| RecordingError::Corrupt(e.to_string()))
    }

    pub fn total_ticks(&self) -> usize {
        self.segments.iter().map(|s| s.ticks.len()).sum()
    }
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
