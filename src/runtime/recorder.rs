//! A recording filled as a game runs: `ludus sim --record`, the page's recordings, and the
//! window's history (time travel, fault recordings). Every bound is checked while it fills.

use ludus_core::*;

/// A recording being made. Invariant: `bytes` is an upper bound of the recording's encoded
/// size, and never passes [`MAX_RECORDING_BYTES`]; it holds at most [`MAX_SEGMENTS`] segments.
pub struct Recorder {
    pub recording: Recording,
    /// Each tick also keeps every entity's values (pinpoints a divergence; much larger).
    pub detail: bool,
    bytes: u64,
}

impl Recorder {
    /// A recording with `header` whose first segment is `level`, begun afresh.
    pub fn new(header: RecordingHeader, level: String, detail: bool) -> Recorder {
        let bytes = 1024
            + header.game.len() as u64
            + header.build.len() as u64
            + header.game_dir.as_ref().map_or(0, |d| d.len() as u64);
        let mut r = Recorder {
            recording: Recording {
                header,
                segments: Vec::new(),
                fault: None,
            },
            detail,
            bytes,
        };
        // The first segment always fits: nothing came before it.
        let _ = r.segment(level, false);
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

    /// Starts a segment for `level`; `switched`: a script's `load_level`.
    pub fn segment(&mut self, level: String, switched: bool) -> Result<(), String> {
        if self.recording.segments.len() >= MAX_SEGMENTS {
            return Err(format!(
                "the recording reached its limit of {MAX_SEGMENTS} level activations; record fewer restarts"
            ));
        }
        self.grow(16 + level.len() as u64, 0)?;
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
        }
        Ok(())
    }

    /// Records that tick `tick`, run with `input`, faulted with `fault` (the recording ends
    /// there).
    pub fn fault(&mut self, game: &mut Game, tick: u64, input: &TickInput, fault: &Fault) {
        self.recording.fault = Some(RecordedFault {
            tick,
            input: input.clone(),
            completions: game.completions().last_batch().to_vec(),
            message: fault
                .message
                .chars()
                .take(MAX_RECORDED_NAME_BYTES / 4)
                .collect(),
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
