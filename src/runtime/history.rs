//! The window's history: every tick's input since the current level began afresh (a start, a
//! restart or a level loaded by name; a script's `load_level` continues it), recorded as it
//! plays. It is what hot reload re-simulates, and the recording F8 and a fault write.
//!
//! It is bounded like any recording ([`MAX_RECORDING_BYTES`], about six hours at 60 Hz for
//! a game without background work): past it the history stops, and says so when it is needed.

use crate::runtime::Runner;
use crate::runtime::headless::level_name;
use crate::runtime::recorder::Recorder;
use ludus_core::*;

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
        let recorder = Recorder::new(header.clone(), level_name(game), false);
        History {
            header,
            recorder: Some(recorder),
            stopped: None,
        }
    }

    /// `game` has a new level: afresh (a new history), or a script's switch (`switched`: a
    /// new segment of this one).
    pub fn level(&mut self, game: &Game, switched: bool) {
        let level = level_name(game);
        if !switched {
            self.recorder = Some(Recorder::new(self.header.clone(), level, false));
            self.stopped = None;
            return;
        }
        if let Some(r) = &mut self.recorder
            && let Err(e) = r.segment(level, true)
        {
            self.stop(e);
        }
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

impl Runner {
    /// Keeps the history as a recording (F8, and every fault): a file in the game folder's
    /// `recordings/` (a download in the browser). Says where, or why not, in the log and on
    /// the fault screen.
    pub fn save_history(&mut self) {
        let history = &self.timed.history;
        let saved = match history.recording() {
            Some(rec) => crate::platform::save_recording(
                self.project.dir.as_deref(),
                &self.project.def.name,
                &rec.to_bytes(),
            )
            .map(|place| format!("recording written: {place}\nreplay it: ludus replay {place}")),
            None => Err(history
                .stopped
                .clone()
                .unwrap_or_else(|| "there is no history to record".into())),
        };
        let line = saved.unwrap_or_else(|e| format!("no recording kept: {e}"));
        // To the terminal (the fault screen shows it too); the console holds scripts' lines.
        self.fresh_log.push(line.clone());
        self.saved = Some(line);
    }
}
