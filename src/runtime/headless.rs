//! Headless driving of a game, shared by `ludus sim` and the browser build's test API: the
//! [`HeadlessRun`] (records ticks into a recording, writes trace lines), the per-tick input loop of
//! `--input`, the frame loop of `--frames` ([`run_frames`]), and the one-line JSON summary both
//! print.
//!
//! Nothing here reads a clock, a file or the command line: callers pass elapsed time and
//! writers in, so the same code runs natively and in the browser.

use crate::runtime::builds::{level_build, rewind_cost};
use crate::runtime::frames::Line;
use crate::runtime::project::Project;
use crate::runtime::recorder::Recorder;
use crate::runtime::work::{FramesWork, Work};
use ludus_core::*;
use std::io::Write;

/// Turns `--input` lines into each tick's `TickInput`: a line applies at its tick; held
/// buttons and axis values persist until a later line changes them, or until the level
/// changes: then, as in the window, held buttons are cancelled and axes return to rest, and a
/// later line must press them again.
#[derive(Clone, Debug, Default)]
pub struct PerTick {
    lines: Vec<Line>,
    next: usize,
    held: TickInput,
    /// Buttons cancelled by a level change, reported with the next input.
    cancelled: u64,
}

impl PerTick {
    pub fn new(lines: Vec<Line>) -> PerTick {
        PerTick {
            lines,
            next: 0,
            held: TickInput::neutral(),
            cancelled: 0,
        }
    }

    /// Back to the state after tick `tick` (a rewind): the lines up to it applied again.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus sim` rewinds")
    )]
    pub fn rewind_to(&mut self, tick: u64) {
        let lines = std::mem::take(&mut self.lines);
        *self = PerTick::new(lines);
        for t in 1..=tick {
            self.input(t);
        }
    }

    /// A new level began: what was held is let go (cancelled, not released).
    pub fn level_changed(&mut self) {
        self.cancelled |= self.held.held;
        self.held.held = 0;
        self.held.axes.iter_mut().for_each(|a| *a = 0.0);
    }

    /// The input of `tick` (ticks must be asked in increasing order).
    pub fn input(&mut self, tick: u64) -> TickInput {
        while self.next < self.lines.len() && self.lines[self.next].tick.is_some_and(|t| t < tick) {
            self.next += 1;
        }
        let line = match self.lines.get(self.next) {
            Some(l) if l.tick == Some(tick) => {
                self.next += 1;
                Some(l)
            }
            _ => None,
        };
        held_input(&mut self.held, &mut self.cancelled, line)
    }

    /// What is held now: buttons, axes, the pointer and touches.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus sim --agent` reads it")
    )]
    pub fn held(&self) -> &TickInput {
        &self.held
    }

    /// The next step's input from `line` (`None`: no line, what is held goes on), applied on
    /// top of what is held: how an agent's decisions become input.
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "`ludus sim --agent` applies it")
    )]
    pub fn apply(&mut self, line: Option<&Line>) -> TickInput {
        held_input(&mut self.held, &mut self.cancelled, line)
    }
}

/// A step's input: `line` applied on top of `held`, with the buttons `cancelled` since.
fn held_input(held: &mut TickInput, cancelled: &mut u64, line: Option<&Line>) -> TickInput {
    let mut input = match line {
        Some(l) => l.apply_to(held),
        None => TickInput {
            held: held.held,
            axes: held.axes.clone(),
            pointer: held.pointer,
            touches: held.touches.clone(),
            ..TickInput::default()
        },
    };
    input.cancelled |= std::mem::take(cancelled) & !input.held;
    input
}

/// Records ticks into segments and writes trace lines; the session drives it.
pub struct HeadlessRun {
    /// Replaces the session's input when set (`--input` with `--frames`).
    pub per_tick: Option<PerTick>,
    pub game: Game,
    pub recorder: Option<Recorder>,
    pub trace: Option<Box<dyn Write>>,
    pub ticks: u64,
    pub last_hash: Option<StateHash>,
    /// Set when the run must end with this message (a trace that cannot be written, a
    /// recording past its limit); runs stop at the next tick.
    pub error: Option<String>,
    /// Where the lines scripts print go, as they are printed (`ludus sim`: standard error).
    pub log: Option<Box<dyn Write>>,
    /// The ticks run and levels built so far, rewinds' re-simulations included.
    pub work: Work,
    /// What the profiler measures, added up (and written as trace events), when profiling.
    pub profiling: Option<crate::runtime::profiling::Profiling>,
    /// The entity `--inspect` follows: its record ends the summary.
    pub watch: Option<crate::runtime::inspect::Watch>,
}

impl HeadlessRun {
    fn record(&mut self, tick: u64, input: &TickInput, report: &TickReport) {
        // A tick that was not hashed is hashed on demand, from the world it left; a level
        // change replaces that world before anyone asks, so its tick is hashed now.
        self.last_hash = report.hash.or_else(|| {
            matches!(self.game.flow(), Flow::Switch(_) | Flow::Restart)
                .then(|| StateHash::of(self.game.world()))
        });
        let hash = report.hash.unwrap_or_default();
        self.ticks += 1;
        if let Some(r) = &mut self.recorder
            && let Err(e) = r.tick(&mut self.game, tick, input, hash)
        {
            self.recorder = None;
            self.error = Some(e);
        }
        if let Some(t) = &mut self.trace {
            let line = crate::runtime::trace::tick_line(tick, hash, report.entities);
            if t.write_all(line.as_bytes()).is_err() {
                self.error = Some("cannot write the trace file".into());
            }
        }
    }

    /// Starts a recording with this header; its first segment is the current level. A
    /// recording stops, with [`error`](Self::error) set, before its file would pass
    /// [`MAX_RECORDING_BYTES`] or hold more than [`MAX_SEGMENTS`] segments.
    pub fn start_recording(&mut self, header: RecordingHeader, detail: bool) {
        let saved = self.game.world().saved().clone();
        let level = level_build(&self.game);
        self.recorder = Some(Recorder::new(header, saved, level, detail));
    }

    /// Hashes every tick only where a recording or a trace keeps the hashes: a summary's hash
    /// is the last tick's, hashed when asked for (see [`record`](Self::record)). Call it once
    /// the recording and the trace are set up.
    pub fn hash_as_needed(&mut self) {
        self.game.options_mut().hash = self.recorder.is_some() || self.trace.is_some();
    }

    /// The recording made so far, if one is being made.
    pub fn recording(&self) -> Option<&Recording> {
        self.recorder.as_ref().map(|r| &r.recording)
    }

    /// Writes the lines scripts printed since the last call to [`log`](Self::log).
    fn flush_log(&mut self) {
        let mut lines = self.game.consequences_mut().drain_log();
        lines.extend(self.game.take_warnings());
        if let Some(w) = &mut self.log {
            for line in lines {
                // One line per call, as it reaches a terminal: control characters escaped.
                let _ = writeln!(w, "{}", printable_line(&line));
            }
        }
    }

    /// Starts a segment for the level now current; `switched`: a script's `load_level`.
    fn new_segment(&mut self, switched: bool) {
        let (level, built) = level_build(&self.game);
        if let Some(r) = &mut self.recorder
            && let Err(e) = r.segment(level, switched, built)
        {
            self.recorder = None;
            self.error = Some(e);
        }
    }

    /// Runs one tick directly (without a session) and records it; says what the game asks
    /// next (see [`Game::flow`]).
    pub fn step(&mut self, input: &TickInput) -> Result<Flow, Fault> {
        let tick = self.game.world().tick() + 1;
        self.work.ticks += 1;
        let report = self.game.step(input);
        self.flush_log();
        let report = match report {
            Ok(r) => r,
            Err(f) => {
                if let Some(r) = &mut self.recorder {
                    r.fault(&mut self.game, tick, input, &f);
                }
                return Err(f);
            }
        };
        self.record(tick, input, &report);
        if let Some(p) = &mut self.profiling
            && let Err(e) = p.take(&mut self.game, tick)
        {
            self.error = Some(e);
        }
        if let Some(w) = &mut self.watch {
            w.after_tick(&self.game);
        }
        Ok(self.game.flow())
    }

    /// Loads `request` now, outside a session (a rerun's level loaded afresh): no segment is
    /// started (see [`restarted`](Self::restarted)).
    pub fn build(&mut self, request: &LoadRequest) -> Result<(), String> {
        self.work.builds += 1;
        match self.game.load(request) {
            LoadStatus::Ready(_) => Ok(()),
            LoadStatus::Failed(f) => Err(f.to_string()),
            LoadStatus::Pending => Err("a level did not load".into()),
        }
    }

    /// The game loaded a level afresh (outside a session): starts a segment for it.
    pub fn restarted(&mut self) {
        self.new_segment(false);
    }

    /// Switches level for a script's `load_level`, starting a segment that says so.
    pub fn switch(&mut self, level: usize) -> Result<(), Fault> {
        self.work.builds += 1;
        self.game.switch(level)?;
        self.new_segment(true);
        Ok(())
    }

    /// Runs `steps` steps fed by `--input` lines (see [`PerTick`]) without a session: each
    /// step runs a tick. In [`TickMode::Turns`], as in the window, a level's first tick runs
    /// at once with no input (taking no step), and a step runs a tick only when it presses a
    /// button. A level switch happens between ticks; the game's end stops the run. Stops at
    /// the first fault and returns it.
    pub fn run_input(&mut self, lines: Vec<Line>, steps: u64) -> Option<Fault> {
        let turns = self.game.def().tick.mode == TickMode::Turns;
        let mut per_tick = PerTick::new(lines);
        for step in 1..=steps {
            let level = self.game.world().id();
            let ended = self.run_step(&mut per_tick, step, turns);
            if self.game.world().id() != level {
                per_tick.level_changed();
            }
            match ended {
                Ok(true) => {}
                Ok(false) => break,
                Err(f) => return Some(f),
            }
        }
        None
    }

    /// One `--input` step (see [`run_input`](Self::run_input)). `Ok(false)`: stop (the game
    /// is over, or the run hit an error).
    fn run_step(&mut self, per_tick: &mut PerTick, step: u64, turns: bool) -> Result<bool, Fault> {
        let input = per_tick.input(step);
        self.input_step(&input, turns)
    }

    /// One step with `input`, as [`run_input`](Self::run_input) takes it (`turns`: the game
    /// is in [`TickMode::Turns`]); the caller tells its input source when the level changed.
    /// `Ok(false)`: stop (the game is over, or the run hit an error).
    pub fn input_step(&mut self, input: &TickInput, turns: bool) -> Result<bool, Fault> {
        if self.error.is_some() {
            return Ok(false);
        }
        if turns && self.game.world().tick() == 0 && !self.follow(&TickInput::neutral())? {
            return Ok(false);
        }
        if turns && input.pressed == 0 {
            return Ok(true);
        }
        self.follow(input)
    }

    /// Runs one tick and follows the game's flow: a level switch or a script's restart
    /// happens now, between ticks, as the window does it (a restart is a level loaded afresh,
    /// as the `restart` signal loads it); a script's pause changes nothing here.
    /// `Ok(false)`: the game is over.
    fn follow(&mut self, input: &TickInput) -> Result<bool, Fault> {
        match self.step(input)? {
            Flow::Continue | Flow::Pause => Ok(true),
            Flow::Over => Ok(false),
            Flow::Switch(level) => self.switch(level).map(|()| true),
            Flow::Restart => {
                self.build(&LoadRequest::Restart)
                    .map_err(|e| Fault::new(FaultKind::Load, e))?;
                self.restarted();
                Ok(true)
            }
        }
    }

    /// The one-line JSON summary of a run (what `ludus sim` prints).
    pub fn summary(&self, run: &RunFigures) -> String {
        let world = self.game.world();
        let hash = self
            .last_hash
            .map(|h| h.hex())
            .unwrap_or_else(|| StateHash::of(world).hex());
        let fault_json = match &run.fault {
            None => "null".to_string(),
            Some(f) => format!(
                "{{\"message\":{},\"location\":{},\"tick\":{},\"phase\":{}}}",
                json_string(&f.message),
                f.location.as_deref().map_or("null".into(), json_string),
                f.tick,
                f.phase.map_or("null".into(), |p| json_string(p.name()))
            ),
        };
        let c = world.counters();
        let game_over = match world.game_over() {
            None => "null".to_string(),
            Some((tick, message)) => {
                format!("{{\"tick\":{tick},\"message\":{}}}", json_string(message))
            }
        };
        let level = world
            .level_def(self.game.def())
            .map_or("null".to_string(), |l| json_string(&l.name));
        let inspect = self.watch.as_ref().map_or(String::new(), |w| {
            let record = w.record(&self.game);
            format!(
                ",\"inspect\":{}",
                record.map_or("null".into(), |r| r.json())
            )
        });
        format!(
            "{{\"ticks\":{},\"hash\":\"{hash}\",\"entities\":{},\"faulted\":{},\"fault\":{fault_json},\"discarded_ticks\":{},\"frames\":{},\"score\":{},\"game_over\":{game_over},\"level\":{level},\"vars\":{},\"world_tick\":{},\"stale_commands\":{},\"after_death\":{},\"unattached\":{},\"spawned_outside\":{},\"elapsed_ms\":{:.3},\"ticks_per_second\":{}{inspect}}}",
            self.ticks,
            world.entity_count(),
            run.fault.is_some(),
            run.discarded,
            run.frames,
            world.score(),
            vars_json(world),
            world.tick(),
            c.stale_commands,
            c.after_death,
            c.unattached,
            c.spawned_outside,
            run.elapsed_ns as f64 / 1e6,
            ticks_per_second(self.ticks, run.elapsed_ns)
        )
    }
}

/// `--frames`: drives the real frame clock with the recorded frame timings (the file `path`'s
/// `lines`). Returns the fault the session ended in, if any, the ticks discarded and the
/// frames run. Rewinds and restarts are bounded by what the file has read and run (see
/// `runtime/work.rs`): past the bound, the error names the line.
#[cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, reason = "`ludus sim` runs frames")
)]
pub fn run_frames(
    d: &mut HeadlessRun,
    project: &Project,
    (path, lines): (&str, &[Line]),
    max_ticks: Option<u64>,
) -> Result<(Option<Fault>, u64, usize), String> {
    let def = &project.def;
    let entry = def
        .levels
        .get(def.entry_level)
        .map_or(Mode::Playing, |l| l.entry_mode);
    let mut session = Session::new(def.tick, def.actions.len(), entry)
        .map_err(|e| format!("tick policy: {e}"))?
        .with_flow(def.flow.actions());
    let (mut now, mut discarded, mut frames_run) = (0u64, 0u64, 0usize);
    let mut work = FramesWork::default();
    for (i, line) in lines.iter().enumerate() {
        if max_ticks.is_some_and(|t| d.ticks >= t) || d.error.is_some() {
            break;
        }
        work.line();
        let at = |e: String| format!("{path}:{}: {e}", line.line);
        now = now.saturating_add(line.dt_ns.unwrap_or(0));
        if line.signal == Some(Signal::Restart) {
            work.restart().map_err(at)?;
        }
        if let Some(n) = line.rewind {
            if let Some(rec) = d.recording() {
                let (ticks, builds) = rewind_cost(rec, n);
                work.rewind(ticks, builds).map_err(at)?;
            }
            let tick = d.rewind(project, None, n).map_err(at)?;
            session = session.clone().with_start_tick(tick);
            let hash = d.last_hash.unwrap_or_else(|| StateHash::of(d.game.world()));
            if let Some(t) = &mut d.trace {
                let text = format!(
                    "{{\"frame\":{i},\"rewound\":{n},\"tick\":{tick},\"hash\":\"{}\"}}\n",
                    hash.hex()
                );
                if t.write_all(text.as_bytes()).is_err() {
                    d.error = Some("cannot write the trace file".into());
                }
            }
        }
        line.pump(&mut session);
        let r = session.frame(now, d);
        work.ran(u64::from(r.ticks_run));
        frames_run += 1;
        discarded += r.ticks_discarded;
        if let Some(t) = &mut d.trace {
            let text = format!(
                "{{\"frame\":{i},\"raw_ns\":{},\"accepted_ns\":{},\"clamped_ns\":{},\"excluded_ns\":{},\"ticks\":{},\"discarded\":{},\"tick\":{},\"alpha\":{},\"mode\":\"{}\",\"tick_mode\":\"{}\"}}\n",
                r.time.raw_ns,
                r.time.accepted_ns,
                r.time.clamped_ns,
                r.time.excluded_ns,
                r.ticks_run,
                r.ticks_discarded,
                r.tick,
                r.alpha,
                r.mode.name(),
                def.tick.mode.name()
            );
            if t.write_all(text.as_bytes()).is_err() {
                d.error = Some("cannot write the trace file".into());
            }
        }
    }
    Ok((session.fault().cloned(), discarded, frames_run))
}

/// How a run went, for [`HeadlessRun::summary`].
#[derive(Debug, Default)]
pub struct RunFigures {
    pub fault: Option<Fault>,
    /// Whole ticks the frame clock discarded (`--frames` runs).
    pub discarded: u64,
    /// Presentation callbacks run (`--frames` runs).
    pub frames: usize,
    /// Wall-clock time of the run, measured by the caller.
    pub elapsed_ns: u64,
}

impl Simulation for HeadlessRun {
    /// With `--input`, its line for this run's tick count replaces the session's input.
    fn tick(&mut self, _tick: u64, input: &TickInput) -> Result<Flow, Fault> {
        let input = match &mut self.per_tick {
            Some(p) => p.input(self.ticks + 1),
            None => input.clone(),
        };
        self.step(&input)
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        self.work.builds += 1;
        let status = self.game.load(request);
        if matches!(status, LoadStatus::Ready(_)) {
            self.new_segment(matches!(request, LoadRequest::Switch(_)));
            if let Some(p) = &mut self.per_tick {
                p.level_changed();
            }
        }
        status
    }
}

/// The header of a recording of `project` (`dir`: the game folder as given; `None` for the
/// embedded game).
pub fn header(project: &Project, dir: Option<&str>, entities: u32) -> RecordingHeader {
    let def = &project.def;
    RecordingHeader {
        build: format!("ludus {}", env!("CARGO_PKG_VERSION")),
        game: def.name.clone(),
        game_dir: dir.map(str::to_string),
        content_hash: def.content_hash,
        tick: def.tick,
        ai: def.ai,
        seed: def.seed,
        limits: def.limits,
        entities,
    }
}

/// Builds a driver for a project: hashing on, background work on the serial executor.
pub fn headless_run(project: &Project, entities: u32) -> Result<HeadlessRun, Fault> {
    let mut game = project.start(entities)?;
    game.options_mut().hash = true;
    Ok(HeadlessRun {
        per_tick: None,
        game,
        recorder: None,
        trace: None,
        ticks: 0,
        last_hash: None,
        error: None,
        log: None,
        work: Work::default(),
        profiling: None,
        watch: None,
    })
}

/// The game variables as a JSON object (numbers as numbers, texts as strings).
pub fn vars_json(world: &SimWorld) -> String {
    let mut out = String::from("{");
    for (i, (name, value)) in world.vars().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&json_string(name));
        out.push(':');
        match value {
            Var::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => {
                out.push_str(&(*n as i64).to_string())
            }
            Var::Num(n) => out.push_str(
                &serde_json::Number::from_f64(*n).map_or("null".into(), |n| n.to_string()),
            ),
            Var::Text(t) => out.push_str(&json_string(t)),
        }
    }
    out.push('}');
    out
}

/// Ticks per second of a run of `ticks` ticks in `elapsed_ns` nanoseconds, as JSON: a whole
/// number, or `null` when no time passed (a run on virtual time, or faster than the clock
/// ticks), where the rate is a division by zero.
fn ticks_per_second(ticks: u64, elapsed_ns: u64) -> String {
    if elapsed_ns == 0 {
        return "null".into();
    }
    format!("{:.0}", ticks as f64 / (elapsed_ns as f64 / 1e9))
}

/// `s` as a JSON string that is also safe on a terminal: serde_json escapes C0 controls, and
/// the other characters a terminal acts on (DEL, C1, bidirectional controls) are escaped too.
pub fn json_string(s: &str) -> String {
    terminal_safe(serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into()))
}

/// JSON text with the characters a terminal acts on that serde_json leaves as they are (DEL,
/// C1, bidirectional controls) escaped, so it is safe to print.
pub fn terminal_safe(json: String) -> String {
    if !json.chars().any(terminal_control) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if terminal_control(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn ticks_per_second_is_null_when_no_time_passed() {
        // (ticks, elapsed ns, JSON)
        let cases = [
            (600, 0, "null"),
            (0, 0, "null"),
            (600, 1_000_000_000, "600"),
            (600, 2_000_000_000, "300"),
            (0, 5, "0"),
            (1, 1, "1000000000"),
        ];
        for (ticks, ns, expect) in cases {
            assert_eq!(
                super::ticks_per_second(ticks, ns),
                expect,
                "{ticks} ticks in {ns} ns"
            );
        }
    }
}
