//! The window's history: every tick's input since the current level began afresh (a start, a
//! restart or a level loaded by name; a script's `load_level` continues it), recorded as it
//! plays. It is what hot reload re-simulates, and the recording F8 and a fault write.
//!
//! It is bounded like any recording ([`MAX_RECORDING_BYTES`], more than two hours at 60 Hz):
//! past it the history stops, and says so when it is needed.
//!
//! Each tick's state hash is recorded while the world holds at most [`HASHED_ENTITIES`]
//! entities; beyond, hashing every entity would cost more than the tick itself, so the hash is
//! left out (all zero) and a replay of such ticks checks their tick number but not their state.

use crate::runtime::builds::level_build;
use crate::runtime::recorder::Recorder;
use ludus_core::*;

/// The most entities a world may hold for the window to hash its every tick.
pub const HASHED_ENTITIES: usize = 16_384;

/// See the module documentation.
pub struct History {
    header: RecordingHeader,
    recorder: Option<Recorder>,
    /// Why there is no history now (it passed its bound); cleared by the next fresh level.
    pub stopped: Option<String>,
}

impl History {
    /// A history of `game`, just started, with recordings headed `header`.
    pub fn new(header: RecordingHeader, game: &Game) -> History {
        let saved = game.world().saved().clone();
        let recorder = Recorder::new(header.clone(), saved, level_build(game), false);
        History {
            header,
            recorder: Some(recorder),
            stopped: None,
        }
    }

    /// `game` has a new level: afresh (a new history), or a script's switch (`switched`: a
    /// new segment of this one).
    pub fn level(&mut self, game: &Game, switched: bool) {
        if !switched {
            let saved = game.world().saved().clone();
            let recorder = Recorder::new(self.header.clone(), saved, level_build(game), false);
            self.recorder = Some(recorder);
            self.stopped = None;
            return;
        }
        let (level, built) = level_build(game);
        if let Some(r) = &mut self.recorder
            && let Err(e) = r.segment(level, true, built)
        {
            self.stop(e);
        }
    }

    /// Whether the tick about to run should compute its state hash.
    pub fn wants_hash(game: &Game) -> bool {
        game.world().entity_count() <= HASHED_ENTITIES
    }

    /// `game` completed tick `tick` with `input`.
    pub fn tick(&mut self, game: &mut Game, tick: u64, input: &TickInput) {
        let hash = game.last_report().and_then(|r| r.hash).unwrap_or_default();
        if let Some(r) = &mut self.recorder
            && let Err(e) = r.tick(game, tick, input, hash)
        {
            self.stop(e);
        }
    }

    /// Tick `tick`, run with `input`, faulted.
    pub fn fault(&mut self, game: &mut Game, tick: u64, input: &TickInput, fault: &Fault) {
        if let Some(r) = &mut self.recorder {
            r.fault(game, tick, input, fault);
        }
    }

    /// One line for the overlay: how much is kept.
    pub fn describe(&self) -> String {
        match &self.recorder {
            Some(r) => format!(
                "history {} ticks, {} KiB (F8 writes it)",
                r.recording.total_ticks(),
                r.bytes() / 1024
            ),
            None => format!("history off: {}", self.stopped.as_deref().unwrap_or("")),
        }
    }

    fn stop(&mut self, why: String) {
        self.recorder = None;
        self.stopped = Some(why);
    }

    /// Tests: a history already this large.
    #[cfg(test)]
    pub fn pretend_size(&mut self, bytes: u64) {
        if let Some(r) = &mut self.recorder {
            r.pretend_size(bytes);
        }
    }

    /// The ticks the history holds (0 once it stopped).
    pub fn kept_ticks(&self) -> u64 {
        self.recording().map_or(0, |r| r.total_ticks() as u64)
    }

    /// The history as a recording (`None`: it stopped at its bound).
    pub fn recording(&self) -> Option<&Recording> {
        self.recorder.as_ref().map(|r| &r.recording)
    }

    /// Replaces the history with `recorder` (a re-simulation's, with the new rules' hashes).
    pub fn replace(&mut self, header: RecordingHeader, recorder: Option<Recorder>) {
        self.header = header;
        self.stopped = recorder
            .is_none()
            .then(|| "the re-simulation's history passed its bound".to_string());
        self.recorder = recorder;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_stops_at_its_bound_says_so_and_a_fresh_level_starts_another() {
        let project = crate::runtime::bundled::project().unwrap();
        let mut game = project.start(0).unwrap();
        game.options_mut().hash = true;
        let header = crate::runtime::headless::header(&project, None, 0);
        let mut history = History::new(header, &game);
        let input = TickInput::neutral();
        for tick in 1..=3 {
            game.step(&input).unwrap();
            history.tick(&mut game, tick, &input);
        }
        assert_eq!(history.recording().unwrap().total_ticks(), 3);
        assert!(
            history.describe().starts_with("history 3 ticks"),
            "{}",
            history.describe()
        );
        // Filled to within a tick of its bound: the next tick stops it, not past it.
        history.pretend_size(MAX_RECORDING_BYTES - 10);
        game.step(&input).unwrap();
        history.tick(&mut game, 4, &input);
        assert!(history.recording().is_none());
        let why = history.stopped.clone().unwrap();
        assert!(
            why.contains("reached its limit of 128 MiB at tick 4"),
            "{why}"
        );
        assert!(history.describe().starts_with("history off"));
        // A restart begins a new one.
        history.level(&game, false);
        assert_eq!(history.recording().unwrap().total_ticks(), 0);
        assert!(history.stopped.is_none());
    }

    #[test]
    fn a_large_worlds_history_leaves_hashes_out_and_still_replays() {
        let project = crate::runtime::bundled::project().unwrap();
        let mut game = project.start(HASHED_ENTITIES as u32 + 100).unwrap();
        let header = crate::runtime::headless::header(&project, None, HASHED_ENTITIES as u32 + 100);
        let mut history = History::new(header, &game);
        let input = TickInput::neutral();
        for tick in 1..=3 {
            game.options_mut().hash = History::wants_hash(&game);
            game.step(&input).unwrap();
            history.tick(&mut game, tick, &input);
        }
        let rec = history.recording().unwrap();
        assert!(
            rec.segments[0]
                .ticks
                .iter()
                .all(|t| t.hash == StateHash::default())
        );
        let outcome = crate::runtime::verify::replay(rec, &project, None).unwrap();
        assert_eq!(
            outcome,
            crate::runtime::verify::Outcome::Identical { ticks: 3 }
        );
    }
}
