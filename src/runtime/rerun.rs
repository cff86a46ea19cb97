//! Re-running a recording's input on content that may differ from the recorded one: `ludus
//! replay --game DIR` after a rule change, and `ludus run`'s hot reload by re-simulation.
//!
//! The new content's game starts afresh with the recording's seed and stress entities, then
//! every recorded tick's input runs in order, segment by segment (a level loaded afresh is
//! loaded again; a script's `load_level` is followed where the new rules ask for it too, and
//! forced where they do not). Background work runs anew (the recorded results belong to the
//! old rules), unless the rerun is a rewind that feeds them back ([`Rerun::with_recorded_work`]).
//! The state hash after a tick is compared with the recorded one where [`Checks`] says so (the
//! hash costs a 1,000-entity game about two fifths of its tick): the first difference found is
//! kept, not an error. A fault, or the game ending, stops the run.
//!
//! A rerun advances a bounded number of ticks per call, so a window can draw its progress.

use crate::runtime::builds::level_name;
use crate::runtime::headless::{HeadlessRun, header, headless_run};
use crate::runtime::project::Project;
use crate::runtime::verify::recorded_batches;
use ludus_core::*;

/// Ticks apart at which a rerun that does not hash every tick hashes one (see [`Checks`]).
pub const CHECK_EVERY: u64 = 16;

/// Which of the ticks the recording hashed a rerun hashes (and compares, and keeps in its
/// new history): every one, or those at multiples of [`CHECK_EVERY`] and the recording's
/// last. A world diverged stays diverged in all but contrived rules (its state would have to
/// become again, bit for bit, what the recorded rules made), so a check finds a difference at
/// most `CHECK_EVERY - 1` ticks after it arose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// Every tick, until the state first differs, then the sampled ones: `ludus replay
    /// --game`, which names the first tick that differs.
    UntilDifferent,
    /// The sampled ticks; the new history keeps the recorded hash of the others. For a rerun
    /// of the content recorded on its recorded input (a rewind, an agent's snapshot
    /// restored), which makes every tick's state again exactly (a check that fails is a bug).
    Same,
    /// The sampled ticks; the new history keeps no hash of the others (a replay of it checks
    /// their tick number, not their state): hot reload, whose new rules' history no
    /// recording holds yet.
    Sampled,
}

impl Checks {
    /// Whether tick `tick` is hashed (`last`: the recording's last; `differed`: a difference
    /// was found before it).
    fn hashes(self, tick: u64, last: bool, differed: bool) -> bool {
        let sampled = last || tick.is_multiple_of(CHECK_EVERY);
        match self {
            Checks::UntilDifferent => !differed || sampled,
            Checks::Same | Checks::Sampled => sampled,
        }
    }
}

/// A rerun in progress (see the module documentation).
pub struct Rerun {
    rec: Recording,
    /// The new content's run, recording its own hashes (the new history).
    pub run: HeadlessRun,
    segment: usize,
    index: usize,
    ticks_run: u64,
    /// The first tick whose state differs from the recording's: (segment from 1, tick).
    pub first_difference: Option<(usize, u64)>,
    /// The fault the rerun ended in.
    pub fault: Option<Fault>,
    /// The new rules ended the game before the recording did.
    pub over: bool,
    /// The recorded background results are fed back instead of computed anew (see
    /// [`Rerun::with_recorded_work`]).
    recorded_work: bool,
    /// Which ticks are hashed ([`Checks::UntilDifferent`] unless [`Rerun::checking`] says).
    checks: Checks,
}

impl Rerun {
    /// Starts rerunning `rec` on `project` (whose game folder is `dir`, for the new
    /// recording's header).
    pub fn new(rec: Recording, project: &Project, dir: Option<&str>) -> Result<Rerun, String> {
        let project = project.clone().with_seed(rec.header.seed);
        let entities = rec.header.entities;
        let mut run = headless_run(&project, entities)
            .map_err(|f| format!("the game could not start: {f}"))?;
        run.game
            .set_saved(rec.saved.clone())
            .map_err(|f| format!("the recording's saved data: {f}"))?;
        let first = rec.segments.first().map(|s| s.level.clone());
        if let Some(level) = first.filter(|l| *l != level_name(&run.game)) {
            run.build(&LoadRequest::Level(level))?;
        }
        run.start_recording(header(&project, dir, entities), false);
        Ok(Rerun {
            rec,
            run,
            segment: 0,
            index: 0,
            ticks_run: 0,
            first_difference: None,
            fault: None,
            over: false,
            recorded_work: false,
            checks: Checks::UntilDifferent,
        })
    }

    /// Hashes the ticks `checks` says.
    pub fn checking(mut self, checks: Checks) -> Rerun {
        self.checks = checks;
        self
    }

    /// Feeds the recording's background results back at the ticks they were applied, as a
    /// replay does, instead of computing them anew: for a rewind on the content recorded whose
    /// results came from elsewhere (a recording played in the window).
    pub fn with_recorded_work(mut self) -> Rerun {
        let jobs = self.run.game.def().limits.jobs;
        let first = self.rec.segments.first().map(recorded_batches);
        self.run
            .game
            .set_completions(Completions::replaying(jobs, first.unwrap_or_default()));
        self.recorded_work = true;
        self
    }

    /// The recording's ticks, and how many have been rerun.
    pub fn progress(&self) -> (u64, u64) {
        (self.ticks_run, self.rec.total_ticks() as u64)
    }

    /// Whether every tick has run, or the run stopped (a fault, the game over, an error).
    pub fn finished(&self) -> bool {
        self.fault.is_some() || self.over || self.segment >= self.rec.segments.len()
    }

    /// Runs at most `ticks` more ticks; returns whether the rerun is finished.
    pub fn advance(&mut self, ticks: u64) -> Result<bool, String> {
        let mut left = ticks;
        while left > 0 && !self.finished() {
            let segment = &self.rec.segments[self.segment];
            let Some(record) = segment.ticks.get(self.index) else {
                self.segment += 1;
                self.index = 0;
                if let Some(next) = self.rec.segments.get(self.segment) {
                    self.enter(next.level.clone(), next.switched)?;
                    if self.recorded_work {
                        let batches = recorded_batches(&self.rec.segments[self.segment]);
                        self.run.game.completions().set_recorded(batches);
                    }
                }
                continue;
            };
            let (recorded, tick) = (record.hash, record.tick);
            self.index += 1;
            left -= 1;
            // No window sees a rerun's world before its last tick (see `settle`).
            let last = self.last_of_recording();
            // Hash where the recording did (the window leaves large worlds' hashes out), and
            // of those ticks the ones the checks ask for.
            let compared = recorded != StateHash::default()
                && (self.checks).hashes(tick, last, self.first_difference.is_some());
            let options = self.run.game.options_mut();
            options.hash = compared;
            options.interpolate = last;
            match self.run.step(&record.input) {
                Ok(flow) => {
                    self.ticks_run += 1;
                    if compared
                        && self.first_difference.is_none()
                        && self.run.last_hash != Some(recorded)
                    {
                        self.first_difference = Some((self.segment + 1, tick));
                    }
                    if !compared
                        && self.checks == Checks::Same
                        && let Some(r) = &mut self.run.recorder
                    {
                        r.set_last_hash(recorded);
                    }
                    self.over = flow == Flow::Over && !self.last_of_recording();
                }
                Err(f) => self.fault = Some(f),
            }
        }
        if self.finished() {
            self.settle();
        }
        if let Some(e) = self.run.error.take() {
            return Err(e);
        }
        Ok(self.finished())
    }

    /// A finished rerun's world as a window shows it: its last tick ran with interpolation
    /// state kept, as every tick did when it was played, or (where a fault or the game's end
    /// stopped it early) its previous transforms are made current; later ticks keep it.
    fn settle(&mut self) {
        let game = &mut self.run.game;
        if !game.options_mut().interpolate {
            game.settle_previous();
            game.options_mut().interpolate = true;
        }
    }

    /// Whether the tick just run was the recording's last.
    fn last_of_recording(&self) -> bool {
        self.segment + 1 >= self.rec.segments.len()
            && self.index >= self.rec.segments[self.segment].ticks.len()
    }

    /// Starts the next segment: a script's switch where the new rules ask for it (or forced
    /// where they do not), else the level loaded afresh.
    fn enter(&mut self, level: String, switched: bool) -> Result<(), String> {
        let game = &self.run.game;
        let Some(index) = game.def().level_index(&level) else {
            return Err(format!("the game has no level named `{level}` any more"));
        };
        if switched {
            self.run
                .switch(index)
                .map_err(|f| format!("level `{level}` could not be built: {f}"))
        } else {
            self.run.build(&LoadRequest::Level(level))?;
            self.run.restarted();
            Ok(())
        }
    }
}

/// `rec` without its last `n` ticks (and without a recorded fault): the input up to the tick
/// a rewind returns to. Segments left empty go, except the first.
pub fn without_last(rec: &Recording, n: u64) -> Recording {
    let mut out = rec.clone();
    out.fault = None;
    let mut left = n;
    while left > 0 {
        let Some(segment) = out.segments.last_mut() else {
            break;
        };
        let drop = (segment.ticks.len() as u64).min(left);
        segment.ticks.truncate(segment.ticks.len() - drop as usize);
        left -= drop;
        if segment.ticks.is_empty() && out.segments.len() > 1 {
            out.segments.pop();
        } else if drop == 0 {
            break;
        }
    }
    out
}

impl HeadlessRun {
    /// Rewinds `n` ticks (`ludus sim --frames`' `rewind`): the run's recording without its
    /// last `n` ticks is run again on `project`, and that run replaces this one. Returns the
    /// tick it is at now; `Err` when the run keeps no recording, or the rerun differs from
    /// the recording (rewinding is exact, or it is a bug).
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus sim` rewinds")
    )]
    pub fn rewind(&mut self, project: &Project, dir: Option<&str>, n: u64) -> Result<u64, String> {
        let Some(rec) = self.recording() else {
            return Err("rewinding needs the run's recording".into());
        };
        let rec = without_last(rec, n);
        let kept = rec.total_ticks() as u64;
        let mut rerun = Rerun::new(rec, project, dir)?.checking(Checks::Same);
        rerun.advance(u64::MAX)?;
        if let Some((segment, tick)) = rerun.first_difference {
            return Err(format!(
                "rewinding is not exact: tick {tick} of segment {segment} differs from the recording"
            ));
        }
        if let Some(f) = rerun.fault {
            return Err(format!("rewinding faulted: {f}"));
        }
        let Rerun { run, .. } = rerun;
        // The rerun's start is a level build too.
        self.work.builds += 1;
        self.work.add(run.work);
        self.game = run.game;
        self.recorder = run.recorder;
        self.last_hash = run.last_hash;
        self.ticks = kept;
        if let Some(p) = &mut self.per_tick {
            p.rewind_to(kept);
        }
        Ok(self.game.world().tick())
    }
}
