//! Recordings: what a run needs to be replayed tick for tick, and the versioned file format.
//!
//! A recording holds a header (format version, build, content hash, and every policy that
//! affects the simulation: tick policy, AI cadence, seed, limits, stress entities), the
//! game's saved data as the run began, and, per
//! level activation (a *segment*: restarts start a new one), every completed tick's
//! [`TickInput`](crate::TickInput), the background completions applied at its BeginTick, and its EndTick
//! [`StateHash`](crate::StateHash). Entities are never named by runtime handle: inputs carry none, completions
//! name their target by creation sequence.
//!
//! File layout (all integers little-endian):
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `LUDUSREC` |
//! | 4 | format version ([`FORMAT_VERSION`]; versions 1 to 5 are still read, see `compat.rs`) |
//! | 8 | payload length |
//! | n | payload: the [`Recording`] encoded with postcard 1.x |
//! | 8 | XXH3-64 of the payload |
//!
//! The checksum only catches damage: anyone can write a payload and its checksum, so
//! [`Recording::from_bytes`] trusts nothing in it. A file is at most [`MAX_RECORDING_BYTES`],
//! its lists are decoded under a memory budget of [`MAX_DECODED_BYTES`] enforced while they
//! fill (see `budget.rs`), and every decoded value a replay uses is checked by
//! [`Recording::validate`] before it is used.
//!
//! The work a replay does is bounded by the file's size: each recorded tick runs once (a tick
//! takes at least 18 bytes of payload), and each segment costs a level build, so a recording
//! begins at most [`FREE_SEGMENTS`] segments plus one per [`TICKS_PER_SEGMENT`] ticks recorded
//! before them, and never more than [`MAX_SEGMENTS`] ([`Recording::most_segments`]).

mod compat;
mod file;
mod types;
mod values;

pub use types::{
    EntityValues, FORMAT_VERSION, FREE_SEGMENTS, MAGIC, MAX_DECODED_BYTES, MAX_RECORDED_NAME_BYTES,
    MAX_RECORDING_BYTES, MAX_SEGMENTS, RecordedFault, Recording, RecordingError, RecordingHeader,
    Segment, TICKS_PER_SEGMENT, TickRecord,
};
pub use values::{describe_difference, entity_values};
