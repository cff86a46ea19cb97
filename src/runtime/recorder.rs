//! A recording filled as a game runs: `ludus sim --record`, the page's recordings, and the
//! window's history (time travel, fault recordings). Every bound is checked while it fills.

use crate::runtime::builds::{MAX_REPLAY_BUILT, too_many_built};
use ludus_core::*;

/// A recording being made. Invariants: `bytes` is an upper bound of the recording's encoded
/// size, and never passes [`MAX_RECORDING_BYTES`]; it holds at most
/// [`Recording::most_segments`] segments for the ticks it holds, and its level activations
/// build at most [`MAX_REPLAY_BUILT`] entities: whatever it records replays within the bounds
/// a replay checks.
pub struct Recorder {
    pub recording: Recording,
    /// Each tick also keeps every entity's values (pinpoints a divergence; much larger).
    pub detail: bool,
    bytes: u64,
    /// The ticks recorded.
    ticks: u64,
    /// The entities the segments' level builds make, together.
    built: u64,
}

impl Recorder {
    /// A recording with `header` of a game whose saved data is `saved`, whose first segment
    /// is `level`, begun afresh (its build made `built` entities).
    pub fn new(
        header: RecordingHeader,
        saved: SaveStore,
        (level, built): (String, u64),
        detail: bool,
    ) -> Recorder {
        // A saved entry takes at most twice its text's bytes in the recording (a number's nine
        // bytes are at least one digit there, and its key's quotes, colon and comma are four).
        let bytes = 1024
            + header.game.len() as u64
            + header.build.len() as u64
            + header.game_dir.as_ref().map_or(0, |d| d.len() as u64)
            + 2 * saved.bytes() as u64;
        let mut r = Recorder {
            recording: Recording {
                header,
                segments: Vec::new(),
                fault: None,
                saved,
            },
            detail,
            bytes,
            ticks: 0,
            built: 0,
        };
        // The first segment always fits: nothing came before it (a stress count past the bound
        // is refused before a run starts).
        let _ = r.segment(level, false, built);
        r
    }

    /// An upper bound of the file's size so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Tests: a recording already this large.
    #[cfg(test)]
    pub fn pretend_size(&mut self, bytes: u64) {
        self.bytes = bytes;
    }

    /// Tests: a recording that has recorded this many ticks.
    #[cfg(test)]
    pub fn pretend_ticks(&mut self, ticks: u64) {
        self.ticks = ticks;
    }

    /// Starts a segment for `level`, whose build made `built` entities; `switched`: a
    /// script's `load_level`.
    pub fn segment(&mut self, level: String, switched: bool, built: u64) -> Result<(), String> {
        let segments = self.recording.segments.len();
        if segments >= Recording::most_segments(self.ticks) {
            return Err(format!(
                "the recording reached its limit of level activations at {segments} in {} ticks \
                 ({FREE_SEGMENTS} plus one per {TICKS_PER_SEGMENT} ticks, at most {MAX_SEGMENTS}); \
                 record fewer restarts or level switches",
                self.ticks
            ));
        }
        if segments > 0
            && let Some(why) = too_many_built(self.built, built, segments + 1)
        {
            return Err(format!(
                "the recording reached its limit: {why} (at most {MAX_REPLAY_BUILT}); record fewer restarts"
            ));
        }
        self.grow(16 + level.len() as u64, 0)?;
        self.built = self.built.saturating_add(built);
        self.recording.segments.push(Segment {
            level,
            switched,
            ticks: Vec::new(),
        });
        Ok(())
    }

    /// Records tick `tick` that `game` just completed with `input` (`hash`: its state hash).
    pub fn tick(
        &mut self,
        game: &mut Game,
        tick: u64,
        input: &TickInput,
        hash: StateHash,
    ) -> Result<(), String> {
        let record = TickRecord {
            tick,
            input: input.clone(),
            completions: game.completions().last_batch().to_vec(),
            hash,
            detail: self.detail.then(|| entity_values(game.world())),
        };
        self.grow(encoded_bound(&record), tick)?;
        if let Some(seg) = self.recording.segments.last_mut() {
            seg.ticks.push(record);
            self.ticks += 1;
        }
        Ok(())
    }

    /// The last tick recorded keeps `hash`: a rerun of the content recorded did not hash it,
    /// and gives the hash it had (see `rerun.rs`).
    pub fn set_last_hash(&mut self, hash: StateHash) {
        let last = self.recording.segments.last_mut();
        if let Some(t) = last.and_then(|s| s.ticks.last_mut()) {
            t.hash = hash;
        }
    }

    /// Records that tick `tick`, run with `input`, faulted with `fault` (the recording ends
    /// there).
    pub fn fault(&mut self, game: &mut Game, tick: u64, input: &TickInput, fault: &Fault) {
        self.recording.fault = Some(RecordedFault {
            tick,
            input: input.clone(),
            completions: game.completions().last_batch().to_vec(),
            // At most MAX_FAULT_MESSAGE_BYTES, as every fault's message.
            message: fault.message.clone(),
        });
    }

    fn grow(&mut self, by: u64, tick: u64) -> Result<(), String> {
        let bytes = self.bytes.saturating_add(by);
        if bytes > MAX_RECORDING_BYTES {
            return Err(format!(
                "the recording reached its limit of {} MiB at tick {tick}; record fewer ticks{}",
                MAX_RECORDING_BYTES >> 20,
                if self.detail {
                    " or leave out --record-detail"
                } else {
                    ""
                }
            ));
        }
        self.bytes = bytes;
        Ok(())
    }
}

/// An upper bound of a tick record's postcard encoding: every integer at its longest varint,
/// every list with its length prefix.
fn encoded_bound(t: &TickRecord) -> u64 {
    const VARINT: u64 = 10;
    let input = 4 * VARINT + VARINT + 4 * t.input.axes.len() as u64;
    let completions: u64 = t
        .completions
        .iter()
        .map(|c| {
            8 * VARINT
                + match &c.status {
                    JobStatus::Done(JobOutput::FlowField(f)) => {
                        12 + 4 * VARINT + f.dirs.len() as u64
                    }
                    JobStatus::Failed(why) => why.len() as u64,
                }
        })
        .sum();
    let detail = t
        .detail
        .as_ref()
        .map_or(0, |d| d.len() as u64 * (3 * VARINT + 16));
    VARINT * 12 + input + completions + detail + 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> RecordingHeader {
        let project = crate::runtime::bundled::project().unwrap();
        crate::runtime::headless::header(&project, None, 0)
    }

    #[test]
    fn level_activations_stop_a_recording_at_the_bound_a_replay_checks() {
        let mut r = Recorder::new(header(), SaveStore::default(), ("a".into(), 10), false);
        for _ in 1..FREE_SEGMENTS {
            r.segment("a".into(), false, 10).unwrap();
        }
        assert_eq!(r.recording.segments.len(), FREE_SEGMENTS);
        let why = r.segment("a".into(), true, 10).unwrap_err();
        assert!(
            why.contains("limit of level activations at 256 in 0 ticks (256 plus one per 16 ticks, at most 10000)"),
            "{why}"
        );
        // (ticks recorded, segments it may reach)
        for (ticks, most) in [(15, 256), (16, 257), (160, 266), (1_000_000, MAX_SEGMENTS)] {
            r.pretend_ticks(ticks);
            while r.segment("a".into(), false, 10).is_ok() {}
            assert_eq!(r.recording.segments.len(), most, "after {ticks} ticks");
            assert_eq!(r.recording.segments.len(), Recording::most_segments(ticks));
        }
        let rec = Recording::from_bytes(&r.recording.to_bytes()).map(|_| ());
        assert!(
            rec.is_err(),
            "no ticks were really recorded: a replay refuses it too"
        );
    }

    #[test]
    fn level_builds_stop_a_recording_before_a_replay_would_build_too_many_entities() {
        let mut r = Recorder::new(
            header(),
            SaveStore::default(),
            ("a".into(), 6_000_000),
            false,
        );
        r.pretend_ticks(1000);
        r.segment("a".into(), false, 3_000_000).unwrap();
        let why = r.segment("a".into(), false, 1_000_001).unwrap_err();
        assert!(
            why.contains("its 3 level activations would build 10000001 entities; a replay builds at most 10000000"),
            "{why}"
        );
        r.segment("a".into(), false, 1_000_000).unwrap();
        assert_eq!(r.recording.segments.len(), 3);
    }
}
