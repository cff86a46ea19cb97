//! Tick-exact playback in the window: `ludus run --input FILE` and `ludus replay RECORDING
//! --window` play recorded input by tick, whatever the frame timing.
//!
//! The window's frame loop runs as it always does: wall-clock frames decide how many ticks run
//! in each frame, and pause, step (N) and rewind (Backspace) work. Only the input of each tick
//! comes from here instead of the keyboard, so the world at every tick is the one `ludus sim`
//! makes of the same input (`ludus replay` of the same recording).
#![cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, reason = "the page plays no input file")
)]

use crate::runtime::frames::Line;
use crate::runtime::headless::PerTick;
use crate::runtime::verify::recorded_batches;
use ludus_core::*;

/// Input played by tick (see the module documentation).
///
/// Invariants:
/// - The N-th tick run under a playback (N counts from 1 across level switches and restarts,
///   as `ludus sim --input` and its summary's `ticks` count) gets the source's input for N:
///   an input file's held state and edges as `ludus sim --input` applies them (in a turn-based
///   game, N numbers steps and a step runs a tick only when it presses), or a recording's
///   N-th recorded tick. Past the end, the held state the source left persists, with no
///   edges; a turn-based game then waits.
/// - `ran` counts the ticks completed; `history_start` is `ran` when the level last began
///   afresh (the window's history begins there), so a rewind never goes back past it, and
///   `switched_at` holds the values of `ran` since then after which a script's switch loaded
///   a level: a rewind never stops there, where the switch the tick asked for would be lost
///   (at most [`MAX_SEGMENTS`] of them, as many as the history holds before it stops).
/// - A recording's level changes happen where its segments change, as a rerun follows them
///   (`rerun.rs`); the game's own switches and restarts elsewhere are not followed. An input
///   file's follow the game, as in `ludus sim --input`.
/// - The game's own pauses (a level's paused entry mode, `ludus.pause()`) do not stop it, as
///   they do not stop `ludus sim --input`; the player's pause and step do.
/// - With a stop tick (`--screenshot-at`), the session pauses right after that tick completes,
///   so the frame then shows the world exactly at it.
pub struct Playback {
    source: Source,
    ran: u64,
    history_start: u64,
    switched_at: Vec<u64>,
    stop_at: Option<u64>,
    /// A turn-based game: when the next step is due (one per tick period of wall time).
    turns: Option<Turns>,
    /// The player was told that keys do not reach the game.
    pub(crate) said: bool,
}

struct Turns {
    period_ns: u64,
    next_ns: u64,
}

enum Source {
    Input(Steps),
    Recording(Box<Recorded>),
}

/// An input file's lines, taken step by step.
struct Steps {
    per_tick: PerTick,
    /// The line ticks, increasing (to find the next line without walking empty steps).
    ticks: Vec<u64>,
    /// The last step taken.
    step: u64,
    /// Turns: the step when the history began, then after each tick since.
    steps: Vec<u64>,
}

/// A recording, tick by tick.
struct Recorded {
    rec: Recording,
    /// Each segment's level number.
    levels: Vec<usize>,
    segment: usize,
    /// The next tick of the segment.
    index: usize,
    /// The recorded background results are fed back (the content is the one recorded).
    exact: bool,
    /// The last tick's input: its held state persists past the end.
    last: TickInput,
    /// The recorded fault's tick has run.
    fault_run: bool,
}

impl Playback {
    /// Plays the `--input` file's `lines` on a game with tick policy `policy`.
    pub fn input(lines: Vec<Line>, policy: &TickPolicy) -> Playback {
        let ticks = lines.iter().filter_map(|l| l.tick).collect();
        Playback::new(
            Source::Input(Steps {
                per_tick: PerTick::new(lines),
                ticks,
                step: 0,
                steps: vec![0],
            }),
            policy,
        )
    }

    /// Plays `rec` on `def`'s game; `exact`: the game is the content recorded, and its
    /// recorded background results are fed back. `Err`: a segment's level is not the game's.
    pub fn recording(rec: Recording, def: &GameDef, exact: bool) -> Result<Playback, String> {
        let levels = rec
            .segments
            .iter()
            .map(|s| {
                def.level_index(&s.level)
                    .ok_or_else(|| format!("the game has no level named `{}`", s.level))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let source = Source::Recording(Box::new(Recorded {
            rec,
            levels,
            segment: 0,
            index: 0,
            exact,
            last: TickInput::neutral(),
            fault_run: false,
        }));
        Ok(Playback::new(source, &def.tick))
    }

    fn new(source: Source, policy: &TickPolicy) -> Playback {
        let turns = (policy.mode == TickMode::Turns).then(|| Turns {
            period_ns: 1_000_000_000 / u64::from(policy.rate_hz.max(1)),
            next_ns: 0,
        });
        Playback {
            source,
            ran: 0,
            history_start: 0,
            switched_at: Vec::new(),
            stop_at: None,
            turns,
            said: false,
        }
    }

    /// Stops right after the `tick`-th tick (see the type's invariants).
    pub fn stop_at(mut self, tick: u64) -> Playback {
        self.stop_at = Some(tick);
        self
    }

    /// The tick it stops after, if any.
    pub fn stop_tick(&self) -> Option<u64> {
        self.stop_at
    }

    /// The ticks run under the playback.
    pub fn ran(&self) -> u64 {
        self.ran
    }

    /// Whether it feeds a recording's background results back (a rewind's re-simulation
    /// must too, to be exact).
    pub fn feeds_recorded_work(&self) -> bool {
        matches!(&self.source, Source::Recording(r) if r.exact)
    }

    /// Whether the stop tick has completed.
    pub fn reached(&self) -> bool {
        self.stop_at.is_some_and(|t| self.ran >= t)
    }

    /// The level a recording starts at, where it is not the game's entry level, and the
    /// background results its first segment applied: called on the game before its first
    /// tick.
    pub fn start(&mut self, game: &mut Game) -> Result<(), String> {
        let Source::Recording(r) = &mut self.source else {
            return Ok(());
        };
        if let Some(first) = r.rec.segments.first()
            && game.world().level_def(game.def()).map(|l| &l.name) != Some(&first.level)
        {
            match game.load(&LoadRequest::Level(first.level.clone())) {
                LoadStatus::Ready(_) => {}
                LoadStatus::Failed(f) => return Err(format!("segment 1: {f}")),
                LoadStatus::Pending => return Err("a level did not load".into()),
            }
        }
        if r.exact {
            let jobs = game.def().limits.jobs;
            game.set_completions(Completions::replaying(jobs, r.batches(0)));
        }
        Ok(())
    }

    /// The input of the next tick, for a world now at tick `world_tick`.
    pub fn next_input(&mut self, world_tick: u64) -> TickInput {
        let turns = self.turns.is_some();
        match &mut self.source {
            Source::Input(s) if turns => s.next_turn(world_tick),
            Source::Input(s) => {
                s.step += 1;
                s.per_tick.input(s.step)
            }
            Source::Recording(r) => r.next(),
        }
    }

    /// A tick completed and asked for `flow`: what the session is to do next (see the type's
    /// invariants).
    pub fn after_tick(&mut self, flow: Flow) -> Flow {
        self.ran += 1;
        if let Source::Input(s) = &mut self.source
            && self.turns.is_some()
        {
            s.steps.push(s.step);
        }
        let flow = match &self.source {
            Source::Recording(r) if flow != Flow::Over => r.flow_after(),
            _ => flow,
        };
        match flow {
            Flow::Over => Flow::Over,
            _ if self.reached() => Flow::Pause,
            Flow::Pause => Flow::Continue,
            other => other,
        }
    }

    /// The load to make of `request`: a recording's next segment where it has one.
    pub fn load_request(&self, request: &LoadRequest) -> LoadRequest {
        match &self.source {
            Source::Recording(r) => r.next_load().unwrap_or_else(|| request.clone()),
            Source::Input(_) => request.clone(),
        }
    }

    /// A level was loaded (`switched`: a script's switch) into `game`.
    pub fn level_loaded(&mut self, switched: bool, game: &mut Game) {
        if switched {
            // No more than a history holds segments: past that it stops, and rewinds with it.
            if self.switched_at.len() < MAX_SEGMENTS {
                self.switched_at.push(self.ran);
            }
        } else {
            self.history_start = self.ran;
            self.switched_at.clear();
        }
        match &mut self.source {
            Source::Input(s) => {
                s.per_tick.level_changed();
                if !switched {
                    s.steps = vec![s.step];
                }
            }
            Source::Recording(r) => {
                // The next segment's level (a restart asked elsewhere, by a `--script` line,
                // leaves the recording where it is).
                if r.next_load().is_some() {
                    r.segment += 1;
                    r.index = 0;
                }
                if r.exact {
                    game.completions().set_recorded(r.batches(r.segment));
                }
            }
        }
    }

    /// How many ticks a rewind of `ticks` goes back: no further than the history's start,
    /// and not onto a tick after which a level was switched to (one more tick back).
    pub fn rewind_span(&self, ticks: u64) -> u64 {
        let mut n = ticks.min(self.ran - self.history_start);
        while n < self.ran - self.history_start && self.switched_at.contains(&(self.ran - n)) {
            n += 1;
        }
        n
    }

    /// The world went back `n` ticks (a rewind's re-simulation, now `game`): the source
    /// goes back as far.
    pub fn rewound(&mut self, n: u64, game: &mut Game) {
        let n = n.min(self.ran - self.history_start);
        self.ran -= n;
        self.switched_at.retain(|t| *t < self.ran);
        let kept = (self.ran - self.history_start) as usize;
        match &mut self.source {
            Source::Input(s) => {
                if self.turns.is_some() {
                    s.steps.truncate(kept + 1);
                    s.step = s.steps[kept];
                } else {
                    s.step = self.ran;
                }
                // As `ludus sim --frames` rewinds an `--input` run (`rerun.rs`).
                s.per_tick.rewind_to(s.step);
            }
            Source::Recording(r) => {
                r.seek(self.ran);
                if r.exact {
                    game.completions().set_recorded(r.batches(r.segment));
                }
            }
        }
    }

    /// A turn-based game in play at `now_ns`: one step per tick period, while the source has
    /// steps left, makes the session run a tick (a press it does not read: the tick's input
    /// is the source's).
    pub fn pump_turn(&mut self, now_ns: u64, session: &mut Session) {
        let Some(turns) = &mut self.turns else {
            return;
        };
        let more = match &self.source {
            Source::Input(s) => s.has_more(),
            Source::Recording(r) => !r.ended(),
        };
        let playing = session.mode() == Mode::Playing && !session.is_loading();
        if !more || !playing || session.tick() == 0 || self.stop_at.is_some_and(|t| self.ran >= t) {
            return;
        }
        if now_ns < turns.next_ns {
            return;
        }
        turns.next_ns = now_ns.saturating_add(turns.period_ns);
        let bridge = session.bridge_mut();
        bridge.press(ActionId(0));
        bridge.release(ActionId(0));
    }

    /// Why the stop tick can never come, if it cannot: the session ended, or a turn-based
    /// game's input ran out. `None` without a stop tick or while it may still come.
    pub fn missed(&self, session: &Session) -> Option<String> {
        let at = self.stop_at.filter(|t| self.ran < *t)?;
        let ran = self.ran;
        match session.mode() {
            Mode::Over => Some(format!("the game ended after tick {ran}, before tick {at}")),
            Mode::Faulted => Some(format!(
                "the game faulted after tick {ran}, before tick {at}: {}",
                session.fault().map_or("", |f| f.message.as_str())
            )),
            _ if self.turns.is_some() && !session.is_loading() && session.tick() > 0 => {
                let more = match &self.source {
                    Source::Input(s) => s.has_more(),
                    Source::Recording(r) => !r.ended(),
                };
                (!more).then(|| {
                    format!(
                        "the input ends after tick {ran}, before tick {at} (a turn-based game waits for input)"
                    )
                })
            }
            _ => None,
        }
    }
}

impl Steps {
    /// Whether a line is left to take.
    fn has_more(&self) -> bool {
        self.ticks.last().is_some_and(|t| *t > self.step)
    }

    /// A turn's input: a level's first tick runs with none (taking no step); then the steps
    /// up to the next one that presses, as `ludus sim --input` takes them.
    fn next_turn(&mut self, world_tick: u64) -> TickInput {
        if world_tick == 0 {
            return TickInput::neutral();
        }
        loop {
            // The next line's step: the steps between have no line and press nothing.
            let i = self.ticks.partition_point(|t| *t <= self.step);
            let Some(next) = self.ticks.get(i) else {
                self.step += 1;
                return self.per_tick.input(self.step);
            };
            self.step = *next;
            let input = self.per_tick.input(self.step);
            if input.pressed != 0 {
                return input;
            }
        }
    }
}

impl Recorded {
    /// The next recorded tick's input (the recorded fault's after the last), or past the end
    /// the held state the last one left.
    fn next(&mut self) -> TickInput {
        if let Some(t) = self
            .rec
            .segments
            .get(self.segment)
            .and_then(|s| s.ticks.get(self.index))
        {
            self.index += 1;
            self.last = t.input.clone();
            return t.input.clone();
        }
        if self.last_segment()
            && !self.fault_run
            && let Some(f) = &self.rec.fault
        {
            self.fault_run = true;
            return f.input.clone();
        }
        TickInput {
            held: self.last.held,
            axes: self.last.axes.clone(),
            pointer: self.last.pointer,
            touches: self.last.touches.clone(),
            ..TickInput::default()
        }
    }

    fn last_segment(&self) -> bool {
        self.segment + 1 >= self.rec.segments.len()
    }

    /// Whether every recorded tick has run.
    fn ended(&self) -> bool {
        self.last_segment()
            && self
                .rec
                .segments
                .get(self.segment)
                .is_none_or(|s| self.index >= s.ticks.len())
            && (self.fault_run || self.rec.fault.is_none())
    }

    /// After a tick: the next segment's level change where the segment just ended.
    fn flow_after(&self) -> Flow {
        match self.next_load() {
            Some(LoadRequest::Switch(level)) => Flow::Switch(level),
            Some(_) => Flow::Restart,
            None => Flow::Continue,
        }
    }

    /// The load the next segment begins with, once the current one has run all its ticks.
    fn next_load(&self) -> Option<LoadRequest> {
        let done = self.rec.segments.get(self.segment)?.ticks.len() <= self.index;
        let next = self.rec.segments.get(self.segment + 1).filter(|_| done)?;
        Some(if next.switched {
            LoadRequest::Switch(self.levels[self.segment + 1])
        } else {
            LoadRequest::Level(next.level.clone())
        })
    }

    /// The background results segment `si` applied, by tick (the recorded fault's in the
    /// last).
    fn batches(&self, si: usize) -> std::collections::BTreeMap<u64, Vec<Completion>> {
        let mut batches = self
            .rec
            .segments
            .get(si)
            .map(recorded_batches)
            .unwrap_or_default();
        if si + 1 == self.rec.segments.len()
            && let Some(f) = self
                .rec
                .fault
                .as_ref()
                .filter(|f| !f.completions.is_empty())
        {
            batches.insert(f.tick, f.completions.clone());
        }
        batches
    }

    /// Goes to the place after `ran` recorded ticks: at the end of a segment, the start of
    /// the next (a rewind stops there only at the history's start, after the level loaded).
    fn seek(&mut self, ran: u64) {
        let mut left = ran;
        self.fault_run = false;
        for (si, segment) in self.rec.segments.iter().enumerate() {
            let len = segment.ticks.len() as u64;
            if left < len || si + 1 == self.rec.segments.len() {
                self.segment = si;
                self.index = left.min(len) as usize;
                break;
            }
            left -= len;
        }
        self.last = match self.index.checked_sub(1) {
            Some(i) => self.rec.segments[self.segment].ticks[i].input.clone(),
            None => TickInput::neutral(),
        };
    }
}
