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
use crate::runtime::rerun::Rerun;
use crate::runtime::{Runner, Settings};
use ludus_core::*;

/// The time a re-simulation takes per frame, and before its progress is shown.
const SLICE_NS: u64 = 30_000_000;
const SHOW_AFTER_NS: u64 = 100_000_000;

/// A re-simulation in progress.
pub struct Resim {
    rerun: Rerun,
    project: Project,
    started_ns: u64,
    /// Keys pressed meanwhile (ignored).
    ignored: u64,
    /// A rewind of this many ticks (same content: the result must equal the recording).
    rewind: Option<u64>,
}

impl Runner {
    pub fn set_reload(&mut self, mode: crate::runtime::Reload) {
        self.settings.reload = mode;
    }

    /// Starts re-simulating the history on `fresh` (`Err`: it cannot, and why).
    pub(super) fn start_resim(&mut self, fresh: Project) -> Result<(), String> {
        let history = &self.timed.history;
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
        let rerun = Rerun::new(rec, &project, project.dir.as_deref())?;
        self.resim = Some(Box::new(Resim {
            rerun,
            project,
            started_ns: (self.timed.clock())(),
            ignored: 0,
            rewind,
        }));
        Ok(())
    }

    /// Runs a slice of the re-simulation; installs its world when it is done. Returns whether
    /// it is still running.
    pub(super) fn step_resim(&mut self) -> bool {
        let clock = self.timed.clock();
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
                    self.reload_error = Some(format!(
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
        let clock = self.timed.clock();
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
                self.reload_error = Some(format!("reload failed: {f}"));
                return;
            }
        };
        fresh.adopt(self, Settings { ..self.settings });
        fresh.session = fresh
            .session
            .clone()
            .with_start_tick(tick)
            .ended(fault.clone(), over);
        fresh.music = music;
        match &fault {
            // The old history keeps every tick played: fixing the file re-simulates them all.
            Some(_) => std::mem::swap(&mut fresh.timed.history, &mut self.timed.history),
            None => {
                let header = run.recorder.as_ref().map(|r| r.recording.header.clone());
                if let Some(header) = header {
                    fresh.timed.history.replace(header, run.recorder);
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
        fresh.log.push(line.clone());
        fresh.fresh_log.push(line);
        *self = fresh;
    }

    /// Takes over what the app set on `old` (settings, overlay, log, stress entities).
    pub(super) fn adopt(&mut self, old: &mut Runner, settings: Settings) {
        self.settings = settings;
        self.set_pacer(settings.pacer);
        if settings.threads > 0 {
            self.use_threads(settings.threads);
        }
        self.overlay = old.overlay;
        self.console = old.console;
        self.stress = old.stress;
        self.log = std::mem::take(&mut old.log);
    }

    /// While re-simulating: counts a key press, saying once that input is ignored.
    pub(super) fn resim_ignores_input(&mut self) -> bool {
        let Some(r) = &mut self.resim else {
            return false;
        };
        if r.ignored == 0 {
            let line = "input is ignored while the reload re-simulates".to_string();
            self.fresh_log.push(line);
        }
        r.ignored += 1;
        true
    }

    /// The banner's lines while a re-simulation has taken more than 100 ms.
    pub(super) fn resim_banner(&self) -> Option<Vec<String>> {
        let r = self.resim.as_ref()?;
        let now = (self.timed.clock())();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::path::{Path, PathBuf};

    thread_local! {
        /// Frame time, advanced by each test on its own thread.
        static NOW: Cell<u64> = const { Cell::new(1) };
    }

    fn clock() -> u64 {
        NOW.get()
    }

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let path = entry.path();
            let target = to.join(entry.file_name());
            if path.is_dir() {
                copy_dir(&path, &target);
            } else {
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }

    /// A copy of the bundled swarm to edit.
    fn swarm(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludus-resim-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm"),
            &dir,
        );
        dir
    }

    /// A runner of a fresh copy of the swarm, and the copy's folder.
    fn start(name: &str) -> (PathBuf, Runner) {
        let dir = swarm(name);
        let project = crate::platform::load_folder(&dir).unwrap();
        (dir, Runner::new(project, 0, clock).unwrap())
    }

    /// Plays `frames` frames at 60 Hz: `keys(frame)` says which keys go down and up.
    fn play(
        runner: &mut Runner,
        frames: u64,
        keys: impl Fn(u64) -> (&'static [&'static str], &'static [&'static str]),
    ) {
        for f in 0..frames {
            let (down, up) = keys(f);
            down.iter().for_each(|k| runner.key_down(k));
            up.iter().for_each(|k| runner.key_up(k));
            let now = NOW.get() + 16_666_667;
            NOW.set(now);
            runner.frame(now, 1.0 / 60.0);
        }
    }

    fn finish(runner: &mut Runner) {
        let mut frames = 0;
        while runner.resim.is_some() {
            runner.frame(clock(), 0.0);
            frames += 1;
            assert!(frames < 10_000, "the re-simulation ends");
        }
    }

    fn edit(dir: &Path, file: &str, from: &str, to: &str) {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} holds {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }

    /// What `ludus replay --game DIR` makes of `rec` on the folder's content.
    fn rerun_of(rec: &Recording, dir: &Path) -> Rerun {
        let fresh = crate::platform::load_folder(dir).unwrap();
        let mut rerun = Rerun::new(rec.clone(), &fresh, None).unwrap();
        rerun.advance(u64::MAX).unwrap();
        rerun
    }

    #[test]
    fn a_reload_re_simulates_the_level_with_the_new_rules_up_to_the_tick_shown() {
        let (dir, mut runner) = start("rules");
        // Right and firing, a restart at frame 60 (a fresh history; keys held through it
        // must be pressed again), then on.
        play(&mut runner, 300, |f| match f {
            0 => (&["d", "space"], &[]),
            60 => (&["r"], &[]),
            61 => (&[], &["d", "space"]),
            62 => (&["d", "space"], &[]),
            150 => (&[], &["d"]),
            _ => (&[], &[]),
        });
        let tick = runner.session.tick();
        assert!(tick > 200, "{tick}");
        let kept = runner.timed.history.recording().unwrap().clone();
        assert_eq!(
            kept.total_ticks() as u64,
            tick,
            "the history holds the level's ticks"
        );
        // Faster enemies.
        edit(&dir, "enemies.toml", "speed = 115", "speed = 300");
        runner.reload();
        assert!(runner.resim.is_some());
        finish(&mut runner);
        assert_eq!(runner.reload_error(), None);
        assert_eq!(
            runner.session.tick(),
            tick,
            "play goes on from the same tick"
        );
        assert_eq!(runner.session.mode(), Mode::Playing);
        let rerun = rerun_of(&kept, &dir);
        assert!(
            rerun.first_difference.is_some(),
            "the new rules changed the play"
        );
        let world = runner.timed.game.world();
        assert_eq!(world.tick(), rerun.run.game.world().tick());
        assert_eq!(StateHash::of(world), StateHash::of(rerun.run.game.world()));
        // The history now holds the new rules' hashes, and play goes on.
        let now = runner.timed.history.recording().unwrap().clone();
        assert_eq!(now.total_ticks(), kept.total_ticks());
        play(&mut runner, 10, |_| (&[], &[]));
        assert_eq!(runner.session.tick(), tick + 10);
        // A script edit: every shot scores. Again what a rerun of the kept input makes.
        let kept = runner.timed.history.recording().unwrap().clone();
        let shoot = "ludus.sound(\"shoot\")";
        edit(
            &dir,
            "scripts/combat.lua",
            shoot,
            "ludus.sound(\"shoot\") ludus.add_score(1)",
        );
        runner.reload();
        finish(&mut runner);
        assert_eq!(runner.session.tick(), tick + 10);
        let rerun = rerun_of(&kept, &dir);
        assert!(rerun.first_difference.is_some(), "shots score now");
        assert!(runner.timed.game.world().score() > 0);
        assert_eq!(
            StateHash::of(runner.timed.game.world()),
            StateHash::of(rerun.run.game.world())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_re_simulation_that_faults_shows_it_and_a_fix_re_simulates_again() {
        let (dir, mut runner) = start("fault");
        play(&mut runner, 120, |f| {
            if f == 0 {
                (&["space"], &[])
            } else {
                (&[], &[])
            }
        });
        let tick = runner.session.tick();
        let kept = runner.timed.history.recording().unwrap().total_ticks();
        // Every shot fired now faults.
        let combat = "scripts/combat.lua";
        edit(
            &dir,
            combat,
            "ludus.sound(\"shoot\")",
            "error(\"no more shots\")",
        );
        runner.reload();
        finish(&mut runner);
        assert_eq!(runner.session.mode(), Mode::Faulted);
        let fault = runner.session.fault().unwrap().clone();
        assert!(fault.message.contains("no more shots"), "{fault}");
        assert!(fault.tick < tick, "it faulted on the way: {}", fault.tick);
        assert_eq!(
            runner.timed.history.recording().unwrap().total_ticks(),
            kept,
            "the old history is kept whole"
        );
        // The fix: the whole history again, to the tick shown before.
        edit(
            &dir,
            combat,
            "error(\"no more shots\")",
            "ludus.sound(\"shoot\")",
        );
        runner.reload();
        finish(&mut runner);
        assert_eq!(runner.session.mode(), Mode::Playing);
        assert_eq!(runner.session.tick(), tick);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reload_keep_swaps_the_scripts_under_the_running_world() {
        let (dir, mut runner) = start("keep");
        runner.set_reload(crate::runtime::Reload::Keep);
        play(&mut runner, 60, |_| (&[], &[]));
        let before = StateHash::of(runner.timed.game.world());
        edit(
            &dir,
            "scripts/combat.lua",
            "ludus.sound(\"shoot\")",
            "ludus.sound(\"hit\")",
        );
        runner.reload();
        assert!(runner.resim.is_none());
        assert_eq!(
            StateHash::of(runner.timed.game.world()),
            before,
            "the world is kept"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The hash the history recorded for its `n`-th tick (1-based, across segments).
    fn recorded_hash(rec: &Recording, n: u64) -> StateHash {
        let ticks: Vec<&TickRecord> = rec.segments.iter().flat_map(|s| &s.ticks).collect();
        ticks[n as usize - 1].hash
    }

    #[test]
    fn a_rewind_returns_exactly_to_the_tick_and_new_input_goes_on_from_there() {
        let (dir, mut runner) = start("rewind");
        play(&mut runner, 240, |f| match f {
            0 => (&["d", "space"], &[]),
            120 => (&["s"], &["d"]),
            _ => (&[], &[]),
        });
        let tick = runner.session.tick();
        let before = runner.timed.history.recording().unwrap().clone();
        runner.rewind(90);
        finish(&mut runner);
        assert_eq!(runner.session.tick(), tick - 90);
        assert_eq!(
            StateHash::of(runner.timed.game.world()),
            recorded_hash(&before, tick - 90),
            "the state is the one that tick had"
        );
        // Other input from there on.
        play(&mut runner, 60, |f| match f {
            0 => (&["a"], &["s"]),
            _ => (&[], &[]),
        });
        assert_eq!(runner.session.tick(), tick - 30);
        // A fresh run of the kept input, then the new, reaches the same state.
        let after = runner.timed.history.recording().unwrap().clone();
        assert_eq!(after.total_ticks() as u64, tick - 30);
        let fresh = rerun_of(&after, &dir);
        assert_eq!(fresh.first_difference, None);
        assert_eq!(
            StateHash::of(fresh.run.game.world()),
            StateHash::of(runner.timed.game.world())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn holding_backspace_runs_back_through_kept_frames_and_release_resumes_there() {
        let (dir, mut runner) = start("scrub");
        play(&mut runner, 200, |f| {
            if f == 0 { (&["d"], &[]) } else { (&[], &[]) }
        });
        let tick = runner.session.tick();
        let before = runner.timed.history.recording().unwrap().clone();
        let overlay = runner.past.timeline(tick);
        assert!(overlay.starts_with("rewind ["), "{overlay}");
        // Held for 50 frames: the view runs back 50 kept frames; no tick runs.
        play(&mut runner, 50, |f| {
            if f == 0 {
                (&["backspace"], &[])
            } else {
                (&[], &[])
            }
        });
        assert_eq!(runner.session.tick(), tick, "time does not run forward");
        let shown = runner.drawn().tick;
        assert!(shown < tick, "an older frame is shown: {shown}");
        play(&mut runner, 1, |_| (&[], &["backspace"]));
        finish(&mut runner);
        let now = runner.session.tick();
        assert!(now < tick && now + 60 >= tick - 50, "resumed at {now}");
        assert_eq!(
            StateHash::of(runner.timed.game.world()),
            recorded_hash(&before, now)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
