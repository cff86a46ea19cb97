//! Earlier versions of the format, read into the current types.
//!
//! - Version 1: the header's limits had no `contacts`, `variables` or `state_keys` (they take
//!   their defaults, which is what the recorded game ran with).
//! - Versions 1 to 4: a recording held no saved data (none could be saved), and the header's
//!   limits had no `save_bytes` (it takes its default).
//! - Version 3: a recording did not say whether the run ended in a fault (none was recorded).
//! - Versions 1 to 5: a tick's input had no `touches` (none were recorded: there were none).
//! - Versions 1 and 2: a tick's input had no `pointer` (none was recorded: there was none);
//!   the tick policy had no `mode` (every game ran in real time); a segment did not say
//!   whether a script switched to it (none could).

use crate::def::{AiPolicy, Limits};
use crate::frame::clock::{TickMode, TickPolicy};
use crate::frame::input::TickInput;
use crate::jobs::Completion;
use crate::replay::types::{
    EntityValues, RecordedFault, Recording, RecordingHeader, Segment, TickRecord,
};
use crate::saved::SaveStore;
use crate::world::hash::StateHash;
use serde::{Deserialize, Deserializer};

/// Decodes a payload of format `version` (1 to 5).
pub(crate) fn decode(version: u32, payload: &[u8]) -> postcard::Result<Recording> {
    match version {
        1 => postcard::from_bytes::<V1>(payload).map(Recording::from),
        2 => postcard::from_bytes::<V2>(payload).map(Recording::from),
        3 => postcard::from_bytes::<V3>(payload).map(|v| Recording {
            header: v.header.into(),
            segments: v.segments,
            fault: None,
            saved: SaveStore::default(),
        }),
        4 => postcard::from_bytes::<V4>(payload).map(|v| Recording {
            header: v.header.into(),
            segments: v.segments,
            fault: v.fault.map(RecordedFault::from),
            saved: SaveStore::default(),
        }),
        _ => postcard::from_bytes::<V5>(payload).map(|v| Recording {
            header: v.header,
            segments: v.segments,
            fault: v.fault.map(RecordedFault::from),
            saved: v.saved,
        }),
    }
}

/// Segments of versions 3 to 5, each tick's input converted as it is decoded.
fn segments_v5<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Segment>, D::Error> {
    crate::budget::vec_into::<D, SegmentV5, Segment>(d)
}

fn ticks_v5<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<TickRecord>, D::Error> {
    crate::budget::vec_into::<D, TickRecordV5, TickRecord>(d)
}

#[derive(Deserialize)]
struct V5 {
    header: RecordingHeader,
    #[serde(deserialize_with = "segments_v5")]
    segments: Vec<Segment>,
    fault: Option<FaultV5>,
    saved: SaveStore,
}

#[derive(Deserialize)]
struct V4 {
    header: HeaderV4,
    #[serde(deserialize_with = "segments_v5")]
    segments: Vec<Segment>,
    fault: Option<FaultV5>,
}

#[derive(Deserialize)]
struct V3 {
    header: HeaderV4,
    #[serde(deserialize_with = "segments_v5")]
    segments: Vec<Segment>,
}

/// A segment of versions 3 to 5 (its ticks already converted).
#[derive(Deserialize)]
struct SegmentV5 {
    level: String,
    switched: bool,
    #[serde(deserialize_with = "ticks_v5")]
    ticks: Vec<TickRecord>,
}

impl From<SegmentV5> for Segment {
    fn from(s: SegmentV5) -> Self {
        Segment {
            level: s.level,
            switched: s.switched,
            ticks: s.ticks,
        }
    }
}

/// A tick of versions 3 to 5.
#[derive(Deserialize)]
#[cfg_attr(test, derive(serde::Serialize))]
pub(super) struct TickRecordV5 {
    pub tick: u64,
    pub input: InputV5,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub completions: Vec<Completion>,
    pub hash: StateHash,
    #[serde(deserialize_with = "crate::budget::opt_vec")]
    pub detail: Option<Vec<EntityValues>>,
}

impl From<TickRecordV5> for TickRecord {
    fn from(t: TickRecordV5) -> Self {
        TickRecord {
            tick: t.tick,
            input: t.input.into(),
            completions: t.completions,
            hash: t.hash,
            detail: t.detail,
        }
    }
}

/// The fault of versions 4 and 5.
#[derive(Deserialize)]
#[cfg_attr(test, derive(serde::Serialize))]
pub(super) struct FaultV5 {
    pub tick: u64,
    pub input: InputV5,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub completions: Vec<Completion>,
    pub message: String,
}

impl From<FaultV5> for RecordedFault {
    fn from(f: FaultV5) -> Self {
        RecordedFault {
            tick: f.tick,
            input: f.input.into(),
            completions: f.completions,
            message: f.message,
        }
    }
}

/// A tick's input in versions 3 to 5: no touches.
#[derive(Deserialize)]
#[cfg_attr(test, derive(serde::Serialize))]
pub(super) struct InputV5 {
    pub held: u64,
    pub pressed: u64,
    pub released: u64,
    pub cancelled: u64,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub axes: Vec<f32>,
    pub pointer: Option<[f32; 2]>,
}

impl From<InputV5> for TickInput {
    fn from(i: InputV5) -> Self {
        TickInput {
            held: i.held,
            pressed: i.pressed,
            released: i.released,
            cancelled: i.cancelled,
            axes: i.axes,
            pointer: i.pointer,
            touches: Vec::new(),
        }
    }
}

/// The header of versions 3 and 4.
#[derive(Deserialize)]
struct HeaderV4 {
    build: String,
    game: String,
    game_dir: Option<String>,
    content_hash: u64,
    tick: TickPolicy,
    ai: AiPolicy,
    seed: u64,
    limits: LimitsV4,
    entities: u32,
}

impl From<HeaderV4> for RecordingHeader {
    fn from(h: HeaderV4) -> Self {
        RecordingHeader {
            build: h.build,
            game: h.game,
            game_dir: h.game_dir,
            content_hash: h.content_hash,
            tick: h.tick,
            ai: h.ai,
            seed: h.seed,
            limits: h.limits.into(),
            entities: h.entities,
        }
    }
}

/// The limits of versions 2 to 4: all but `save_bytes`.
#[derive(Deserialize)]
struct LimitsV4([u32; 10]);

impl From<LimitsV4> for Limits {
    fn from(l: LimitsV4) -> Self {
        let [
            max_entities,
            events_per_tick,
            commands_per_tick,
            outbox,
            timers,
            draws,
            jobs,
            contacts_per_tick,
            variables,
            state_keys,
        ] = l.0;
        Limits {
            max_entities,
            events_per_tick,
            commands_per_tick,
            outbox,
            timers,
            draws,
            jobs,
            contacts_per_tick,
            variables,
            state_keys,
            ..Limits::default()
        }
    }
}

#[derive(Deserialize)]
struct V1 {
    header: HeaderV1,
    segments: Vec<OldSegment>,
}

#[derive(Deserialize)]
struct V2 {
    header: HeaderV2,
    segments: Vec<OldSegment>,
}

#[derive(Deserialize)]
struct HeaderV1 {
    build: String,
    game: String,
    game_dir: Option<String>,
    content_hash: u64,
    tick: OldTickPolicy,
    ai: AiPolicy,
    seed: u64,
    limits: [u32; 7],
    entities: u32,
}

#[derive(Deserialize)]
struct HeaderV2 {
    build: String,
    game: String,
    game_dir: Option<String>,
    content_hash: u64,
    tick: OldTickPolicy,
    ai: AiPolicy,
    seed: u64,
    limits: LimitsV4,
    entities: u32,
}

#[derive(Deserialize)]
struct OldTickPolicy {
    rate_hz: u32,
    max_frame_delta_ns: u64,
    max_catch_up_ticks: u32,
}

impl From<OldTickPolicy> for TickPolicy {
    fn from(t: OldTickPolicy) -> Self {
        TickPolicy {
            rate_hz: t.rate_hz,
            max_frame_delta_ns: t.max_frame_delta_ns,
            max_catch_up_ticks: t.max_catch_up_ticks,
            mode: TickMode::Realtime,
        }
    }
}

#[derive(Deserialize)]
struct OldSegment {
    level: String,
    ticks: Vec<OldTickRecord>,
}

#[derive(Deserialize)]
struct OldTickRecord {
    tick: u64,
    input: OldInput,
    completions: Vec<Completion>,
    hash: StateHash,
    detail: Option<Vec<EntityValues>>,
}

#[derive(Deserialize)]
struct OldInput {
    held: u64,
    pressed: u64,
    released: u64,
    cancelled: u64,
    #[serde(deserialize_with = "crate::budget::vec")]
    axes: Vec<f32>,
}

impl From<OldSegment> for Segment {
    fn from(s: OldSegment) -> Self {
        Segment {
            level: s.level,
            switched: false,
            ticks: s
                .ticks
                .into_iter()
                .map(|t| TickRecord {
                    tick: t.tick,
                    input: TickInput {
                        held: t.input.held,
                        pressed: t.input.pressed,
                        released: t.input.released,
                        cancelled: t.input.cancelled,
                        axes: t.input.axes,
                        pointer: None,
                        touches: Vec::new(),
                    },
                    completions: t.completions,
                    hash: t.hash,
                    detail: t.detail,
                })
                .collect(),
        }
    }
}

impl From<V2> for Recording {
    fn from(r: V2) -> Self {
        let h = r.header;
        Recording {
            header: RecordingHeader {
                build: h.build,
                game: h.game,
                game_dir: h.game_dir,
                content_hash: h.content_hash,
                tick: h.tick.into(),
                ai: h.ai,
                seed: h.seed,
                limits: h.limits.into(),
                entities: h.entities,
            },
            segments: r.segments.into_iter().map(Segment::from).collect(),
            fault: None,
            saved: SaveStore::default(),
        }
    }
}

impl From<V1> for Recording {
    fn from(r: V1) -> Self {
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
        Recording {
            header: RecordingHeader {
                build: h.build,
                game: h.game,
                game_dir: h.game_dir,
                content_hash: h.content_hash,
                tick: h.tick.into(),
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
            segments: r.segments.into_iter().map(Segment::from).collect(),
            fault: None,
            saved: SaveStore::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::types::MAGIC;
    use crate::var::Var;

    /// A file of format `version` holding `payload`.
    fn file(version: u32, payload: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(payload);
        out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(payload).to_le_bytes());
        out
    }

    fn input_v5(held: u64, pointer: Option<[f32; 2]>) -> InputV5 {
        InputV5 {
            held,
            pressed: held,
            released: 0,
            cancelled: 0,
            axes: vec![0.0, -0.5],
            pointer,
        }
    }

    #[test]
    fn a_version_5_recording_reads_with_no_touches_and_everything_else_kept() {
        let header = RecordingHeader {
            build: "ludus 0.1.0".into(),
            game: "g".into(),
            game_dir: None,
            content_hash: 9,
            tick: TickPolicy::default(),
            ai: AiPolicy::default(),
            seed: 4,
            limits: Limits::default(),
            entities: 0,
        };
        let hash = |t: u64| StateHash {
            total: t,
            parts: [t; 8],
        };
        let ticks: Vec<TickRecordV5> = (1..=3)
            .map(|t| TickRecordV5 {
                tick: t,
                input: input_v5(t, (t == 2).then_some([12.5, -3.0])),
                completions: Vec::new(),
                hash: hash(t),
                detail: None,
            })
            .collect();
        let fault = FaultV5 {
            tick: 4,
            input: input_v5(1, Some([1.0, 2.0])),
            completions: Vec::new(),
            message: "boom".into(),
        };
        let mut saved = SaveStore::default();
        saved.set("best", Some(Var::Num(3.0)), 100).unwrap();
        // A segment as versions 3 to 5 wrote it: level, switched, ticks.
        let segments = vec![("main".to_string(), false, ticks)];
        let payload = postcard::to_allocvec(&(&header, &segments, Some(&fault), &saved)).unwrap();
        let read = Recording::from_bytes(&file(5, &payload)).expect("version 5 reads");
        let want_input = |held: u64, pointer| TickInput {
            held,
            pressed: held,
            axes: vec![0.0, -0.5],
            pointer,
            ..TickInput::default()
        };
        let want = Recording {
            header,
            segments: vec![Segment {
                level: "main".into(),
                switched: false,
                ticks: (1..=3)
                    .map(|t| TickRecord {
                        tick: t,
                        input: want_input(t, (t == 2).then_some([12.5, -3.0])),
                        completions: Vec::new(),
                        hash: hash(t),
                        detail: None,
                    })
                    .collect(),
            }],
            fault: Some(RecordedFault {
                tick: 4,
                input: want_input(1, Some([1.0, 2.0])),
                completions: Vec::new(),
                message: "boom".into(),
            }),
            saved,
        };
        assert_eq!(read, want, "every value kept, touches empty");
        assert!(
            read.segments[0]
                .ticks
                .iter()
                .all(|t| t.input.touches.is_empty()),
            "no touches"
        );
    }
}
