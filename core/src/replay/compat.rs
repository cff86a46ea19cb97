//! Earlier versions of the format, read into the current types.
//!
//! - Version 1: the header's limits had no `contacts`, `variables` or `state_keys` (they take
//!   their defaults, which is what the recorded game ran with).
//! - Versions 1 to 4: a recording held no saved data (none could be saved), and the header's
//!   limits had no `save_bytes` (it takes its default).
//! - Version 3: a recording did not say whether the run ended in a fault (none was recorded).
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
use serde::Deserialize;

/// Decodes a payload of format `version` (1 to 4).
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
        _ => postcard::from_bytes::<V4>(payload).map(|v| Recording {
            header: v.header.into(),
            segments: v.segments,
            fault: v.fault,
            saved: SaveStore::default(),
        }),
    }
}

#[derive(Deserialize)]
struct V4 {
    header: HeaderV4,
    #[serde(deserialize_with = "crate::budget::vec")]
    segments: Vec<Segment>,
    fault: Option<RecordedFault>,
}

#[derive(Deserialize)]
struct V3 {
    header: HeaderV4,
    #[serde(deserialize_with = "crate::budget::vec")]
    segments: Vec<Segment>,
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
