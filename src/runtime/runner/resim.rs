//! Hot reload by re-simulation: when the game's files change and load, the level's kept input
//! (the window's history, `history.rs`) runs again on the new content from the level's first
//! tick up to the tick on screen, and play goes on from there: the world is what the new rules
//! would have made of the same play.
//!
//! It runs a slice of ticks per frame (about 30 ms), so the window stays responsive; after
//! 100 ms a banner shows its progress, and input is ignored until it is done (the log says
//! so). A re-simulation that faults shows the fault screen at the faulting tick, and keeps the
//! old history: fixing the file re-simulates the whole of it again. `--reload keep` reloads
//! the old way (`reload.rs`).

use crate::runtime::project::Project;
use crate::runtime::rerun::{Checks, Rerun};
use crate::runtime::runner::{Resim, Runner};
use ludus_core::*;

/// The time a re-simulation takes per frame, and before its progress is shown.
const SLICE_NS: u64 = 30_000_000;
const SHOW_AFTER_NS: u64 = 100_000_000;

impl Runner {
    /// Starts re-simulating the history on `fresh` (`Err`: it cannot, and why).
    pub(super) fn start_resim(&mut self, fresh: Project) -> Result<(), String> {
        let history = &self.play.timed.history;
        let Some(rec) = history.recording() else {
            let why = history.stopped.clone().unwrap_or_default();
            return Err(format!("the level's input was not kept ({why})"));
        };
        if let Some(why) = crate::runtime::verify::unfit(rec, &fresh) {
            return Err(why);
        }
        let rec = rec.clone();
        self.start_rerun(fresh, rec, None)
    }

    /// Starts rerunning `rec` on `project`; `rewind`: it is this runner's history less that
    /// many ticks.
    pub(super) fn start_rerun(
        &mut self,
        project: Project,
        rec: Recording,
        rewind: Option<u64>,
    ) -> Result<(), String> {
        // A rewind makes the recorded states again; a reload, the new rules' own.
        let checks = match rewind {
            Some(_) => Checks::Same,
            None => Checks::Sampled,
        };
        let mut rerun = Rerun::new(rec, &project, project.dir.as_deref())?.checking(checks);
        let playback = self.play.timed.playback.as_ref();
        if rewind.is_some() && playback.is_some_and(|p| p.feeds_recorded_work()) {
            rerun = rerun.with_recorded_work();
        }
        self.resim = Some(Box::new(Resim {
            rerun,
            project,
            started_ns: (self.play.timed.clock())(),
            ignored: 0,
            rewind,
        }));
        Ok(())
    }

    /// Runs a slice of the re-simulation; installs its world when it is done. Returns whether
    /// it is still running.
    pub(super) fn step_resim(&mut self) -> bool {
        let clock = self.play.timed.clock();
        let Some(r) = &mut self.resim else {
            return false;
        };
        let start = clock();
        loop {
            match r.rerun.advance(16) {
                Ok(true) => break,
                Ok(false) if clock().saturating_sub(start) < SLICE_NS => {}
                Ok(false) => return true,
                Err(e) => {
                    self.ui.reload_error = Some(format!(
                        "reload failed, still running the previous version: {e}"
                    ));
                    self.resim = None;
                    return false;
                }
            }
        }
        if let Some(r) = self.resim.take() {
            self.finish_resim(*r);
        }
        false
    }

    /// Makes the re-simulated world the running one.
    fn finish_resim(&mut self, r: Resim) {
        let clock = self.play.timed.clock();
        let ms = clock().saturating_sub(r.started_ns) as f64 / 1e6;
        let (ticks, _) = r.rerun.progress();
        let (rewind, inexact) = (
            r.rewind,
            r.rerun.first_difference.filter(|_| r.rewind.is_some()),
        );
        let Rerun {
            run, fault, over, ..
        } = r.rerun;
        let mut game = run.game;
        // What the re-simulated ticks asked presentation for is past; the music playing is not.
        let mut music = None;
        for request in game.outbox().drain() {
            if let Presentation::Music(m) = request.what {
                music = Some(m);
            }
        }
        let tick = game.world().tick();
        let mut fresh = match Runner::with_game(r.project, game, clock) {
            Ok(f) => f,
            Err(f) => {
                self.ui.reload_error = Some(format!("reload failed: {f}"));
                return;
            }
        };
        fresh.adopt(self, self.settings);
        let play = &mut fresh.play;
        play.session = play
            .session
            .clone()
            .with_start_tick(tick)
            .ended(fault.clone(), over);
        play.music = music;
        match &fault {
            // The old history keeps every tick played: fixing the file re-simulates them all.
            Some(_) => std::mem::swap(&mut play.timed.history, &mut self.play.timed.history),
            None => {
                let header = run.recorder.as_ref().map(|r| r.recording.header.clone());
                if let Some(header) = header {
                    play.timed.history.replace(header, run.recorder);
                }
            }
        }
        let line = match (&fault, rewind, inexact) {
            (_, Some(_), Some((segment, at))) => format!(
                "rewind: the rerun differs from the recording at tick {at} of segment {segment} (a bug in ludus: please report it)"
            ),
            (None, Some(n), None) => {
                format!("rewound {n} ticks to tick {tick}: {ticks} ticks rerun in {ms:.0} ms")
            }
            (None, None, _) => {
                format!("reloaded: re-simulated {ticks} ticks with the new rules in {ms:.0} ms")
            }
            (Some(f), _, _) => format!(
                "reloaded: the re-simulation faulted at tick {}: {f}",
                f.tick
            ),
        };
        fresh.ui.log.push(line.clone());
        fresh.ui.fresh.push(line);
        if let (Some(n), None) = (rewind, &fault) {
            fresh.playback_rewound(n);
        }
        *self = fresh;
    }

    /// While re-simulating: counts a key press, saying once that input is ignored.
    pub(super) fn resim_ignores_input(&mut self) -> bool {
        let Some(r) = &mut self.resim else {
            return false;
        };
        if r.ignored == 0 {
            let line = "input is ignored while the reload re-simulates".to_string();
            self.ui.fresh.push(line);
        }
        r.ignored += 1;
        true
    }

    /// The banner's lines while a re-simulation has taken more than 100 ms.
    pub(super) fn resim_banner(&self) -> Option<Vec<String>> {
        let r = self.resim.as_ref()?;
        let now = (self.play.timed.clock())();
        if now.saturating_sub(r.started_ns) < SHOW_AFTER_NS {
            return None;
        }
        let (done, total) = r.rerun.progress();
        let what = match r.rewind {
            Some(_) => "to the tick rewound to",
            None => "with the new rules",
        };
        Some(vec![
            format!("tick {done} of {total} {what}"),
            "input is ignored until it is done".into(),
        ])
    }
}
