//! The session: modes, lifecycle signals and the frame function the platform calls.
//!
//! # One presentation frame
//!
//! The platform calls [`Session::frame`] once per presentation callback, after it has pumped
//! its events into the session ([`Session::input`], [`Session::signal`], or the bridge through
//! a key map). The frame then runs, in this order:
//!
//! 1. **Transitions.** A pending load is polled; a ready level is published here, at the frame
//!    boundary: tick index, clock debt, baseline and input are reset and the level's entry mode
//!    is selected.
//! 2. **Clock.** One monotonic timestamp is sampled and clamped; in Playing (and not hidden) the
//!    accepted time becomes debt, otherwise it is excluded.
//! 3. **Ticks.** While a tick is due and the catch-up budget allows, the bridge hands over one
//!    [`TickInput`] and the simulation runs one tick; the tick index increments only after it
//!    succeeds. In [`TickMode::Turns`] no time accumulates: the first tick of a level runs at
//!    once with no input (a press waiting in the bridge is kept for the next tick), then one
//!    tick runs in each frame in which a button was pressed. In Paused, a
//!    requested single step runs exactly one tick with its supplied input, or with the input
//!    the bridge gathered since the pause or the last step. A fault stops the
//!    chain and selects Faulted; a tick that ends the game ([`Flow::Over`]) selects Over; a
//!    tick that switches level ([`Flow::Switch`]) or starts again ([`Flow::Restart`]) ends the
//!    chain and requests the load, which the next frame's transitions publish (the tick
//!    boundary: never inside a tick); a tick that asks to pause ([`Flow::Pause`]) selects
//!    Paused.
//! 4. **Trim.** Whole ticks left over are discarded and counted; the fraction is kept and render
//!    alpha is reported.
//!
//! Presentation (extracting and drawing the latest completed world) follows, outside the
//! session, using the returned [`FrameReport`].
//!
//! # Modes
//!
//! | mode | ticks | input |
//! | --- | --- | --- |
//! | Playing | accumulate bounded time, run normal ticks | gameplay input after UI consumption |
//! | Paused | no accumulation; an explicit step runs one tick | gathered for the next step, dropped on resume |
//! | Faulted | none until restart or a new level | UI only; the fault stays inspectable |
//! | Over | none until restart or a new level | UI only; the world stays as it ended |
//!
//! Loading is independent of the mode: a load may progress over several frames while the
//! current world stays in its mode. Changing mode never runs gameplay code.

use crate::fault::{Fault, FaultKind};
use crate::frame::clock::{FrameClock, PolicyError, TickMode, TickPolicy};
use crate::frame::input::{ActionId, InputBridge, ResetReason, TickInput};
use crate::frame::mode::Mode;
use crate::frame::pacer::{FrameKind, FramePacer, PacerPolicy};
pub use crate::frame::report::{FrameReport, SessionStats};

/// Lifecycle and control signals, pumped before the frame that should see them.
#[derive(Clone, Debug, PartialEq)]
pub enum Signal {
    Pause,
    Resume,
    TogglePause,
    /// Run exactly one tick while paused, with this input (use [`TickInput::neutral`] unless a
    /// scenario needs otherwise). Ignored, and counted, in other modes.
    Step(TickInput),
    /// Run exactly one tick while paused, with the input gathered since the pause or the last
    /// step: keys held, and presses and taps made while paused (a window's N, a `--frames`
    /// `step` line with its `press`/`tap`). Ignored, and counted, in other modes.
    StepGathered,
    /// The window was minimised or the page hidden: no time accumulates until shown.
    Hide,
    Show,
    FocusLost,
    FocusGained,
    /// Start again, everything afresh, from the level the game began in (or the level last
    /// loaded by name; a script's level switches do not count).
    Restart,
    /// Load another level by name.
    Load(String),
}

/// A gameplay input event at action level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputEvent {
    Press(ActionId),
    Release(ActionId),
    Cancel(ActionId),
    Axis(ActionId, f32),
    /// The pointer moved (world units), or left the game's view (`None`).
    Pointer(Option<[f32; 2]>),
    /// Finger `id` went down or moved (world units), or lifted (`None`); the first finger down
    /// is also the pointer (see [`InputBridge::set_touch`]).
    Touch(u32, Option<[f32; 2]>),
}

/// What the simulation is asked to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadRequest {
    /// The level the game began in (or was last loaded by name), everything afresh.
    Restart,
    /// Another level by name, afresh (the player or a tool asked).
    Level(String),
    /// Level number `n`, keeping the score, game variables and scripts' state (a script's
    /// `load_level`).
    Switch(usize),
}

/// What a completed tick asks of the session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Flow {
    /// Keep ticking.
    #[default]
    Continue,
    /// The game ended: no further ticks.
    Over,
    /// Switch to level number `n` at the tick boundary.
    Switch(usize),
    /// Start again from the level a restart begins from, at the tick boundary, as
    /// [`Signal::Restart`] does (a script's `restart`).
    Restart,
    /// Pause after this tick, as [`Signal::Pause`] does (a script's `pause`).
    Pause,
}

/// The answer to polling a load.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadStatus {
    /// Still loading; the current world keeps its mode.
    Pending,
    /// The new world is installed; publish it in this entry mode.
    Ready(Mode),
    /// The level could not be built.
    Failed(Fault),
}

/// What the session drives. The real implementation runs the tick pipeline over a world; tests
/// use doubles.
pub trait Simulation {
    /// Runs tick number `tick` (the first tick of a world is 1) with `input`; says whether play
    /// goes on.
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault>;

    /// Starts or continues a load. Called once per frame while a load is pending.
    fn load(&mut self, request: &LoadRequest) -> LoadStatus;
}

/// The frame loop's owner of time, input and mode. See the module documentation for the order
/// of one frame.
#[derive(Clone, Debug)]
pub struct Session {
    clock: FrameClock,
    bridge: InputBridge,
    pacer: FramePacer,
    mode: Mode,
    suspended: bool,
    loading: Option<LoadRequest>,
    /// A tick asked for the pending load (a level switch, a restart): no tick runs until it
    /// is published, so it happens at the tick boundary.
    boundary: bool,
    /// A tick asked to pause: the chain ends, and the session pauses when the frame's ticks
    /// are done (the tick that asked is paid for first).
    pausing: bool,
    /// A step asked for: its input, or `None` for the input the bridge gathered while paused.
    step: Option<Option<TickInput>>,
    tick: u64,
    frame: u64,
    fault: Option<Fault>,
    stats: SessionStats,
    /// The game's own pause and restart actions (`[flow]`): pressing one is a signal, never
    /// gameplay input.
    flow: FlowActions,
}

/// The actions that pause/resume and restart the game (`[flow] pause` and `restart`): a press
/// of one is [`Signal::TogglePause`] or [`Signal::Restart`], consumed by the session; its
/// release never reaches gameplay either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowActions {
    pub pause: Option<ActionId>,
    pub restart: Option<ActionId>,
}

impl FlowActions {
    /// Whether `action` is one of them.
    pub fn has(&self, action: ActionId) -> bool {
        self.pause == Some(action) || self.restart == Some(action)
    }
}

impl Session {
    /// A session over an already built world, starting in `entry_mode`.
    pub fn new(
        policy: TickPolicy,
        action_count: usize,
        entry_mode: Mode,
    ) -> Result<Self, PolicyError> {
        let mut session = Session {
            clock: FrameClock::new(policy)?,
            bridge: InputBridge::new(action_count),
            pacer: FramePacer::new(PacerPolicy::default()),
            mode: entry_mode,
            suspended: false,
            loading: None,
            boundary: false,
            pausing: false,
            step: None,
            tick: 0,
            frame: 0,
            fault: None,
            stats: SessionStats::default(),
            flow: FlowActions::default(),
        };
        session.sync_bridge();
        Ok(session)
    }

    /// Numbers ticks after `tick`, for a world restored at that tick (snapshots, tests of the
    /// index limit). The next tick run is `tick + 1`.
    pub fn with_start_tick(mut self, tick: u64) -> Self {
        self.tick = tick;
        self
    }

    /// A session over a world that a re-simulation left faulted (`fault`) or over (`over`):
    /// it starts in that mode, as if its last tick had just ended that way.
    pub fn ended(mut self, fault: Option<Fault>, over: bool) -> Self {
        match fault {
            Some(f) => self.enter_fault(f),
            None if over => self.end_game(),
            None => {}
        }
        self
    }

    /// The game's own pause and restart actions (see [`FlowActions`]).
    pub fn with_flow(mut self, flow: FlowActions) -> Self {
        self.flow = flow;
        self
    }

    pub fn flow(&self) -> FlowActions {
        self.flow
    }

    pub fn with_pacer(mut self, policy: PacerPolicy) -> Self {
        self.pacer = FramePacer::new(policy);
        self
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The last completed tick of the current world.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
    }

    pub fn is_suspended(&self) -> bool {
        self.suspended
    }

    pub fn is_loading(&self) -> bool {
        self.loading.is_some()
    }

    pub fn policy(&self) -> &TickPolicy {
        self.clock.policy()
    }

    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    pub fn clock(&self) -> &FrameClock {
        &self.clock
    }

    pub fn bridge(&self) -> &InputBridge {
        &self.bridge
    }

    /// The bridge, for platform key maps. Routing UI input away is the caller's job.
    pub fn bridge_mut(&mut self) -> &mut InputBridge {
        &mut self.bridge
    }

    /// A gameplay input event that UI did not consume. The game's own pause and restart
    /// actions are signals here ([`FlowActions`]).
    pub fn input(&mut self, event: InputEvent) {
        match event {
            InputEvent::Press(a) | InputEvent::Release(a) | InputEvent::Cancel(a)
                if self.flow.has(a) =>
            {
                self.stats.ui_consumed += 1;
                if event == InputEvent::Press(a) {
                    let signal = if self.flow.pause == Some(a) {
                        Signal::TogglePause
                    } else {
                        Signal::Restart
                    };
                    self.signal(signal);
                }
            }
            InputEvent::Press(a) => self.bridge.press(a),
            InputEvent::Release(a) => self.bridge.release(a),
            InputEvent::Cancel(a) => self.bridge.cancel(a),
            InputEvent::Axis(a, v) => self.bridge.set_axis(a, v),
            InputEvent::Pointer(at) => self.bridge.set_pointer(at),
            InputEvent::Touch(id, at) => self.bridge.set_touch(id, at),
        }
    }

    /// An input event that a menu or overlay consumed: it never reaches gameplay.
    pub fn ui_consumed(&mut self, _event: InputEvent) {
        self.stats.ui_consumed += 1;
    }

    /// Applies a lifecycle or control signal. Mode changes run no gameplay code.
    pub fn signal(&mut self, signal: Signal) {
        match signal {
            Signal::Pause => self.pause(),
            Signal::Resume => self.resume(),
            Signal::TogglePause => match self.mode {
                Mode::Playing => self.pause(),
                Mode::Paused => self.resume(),
                Mode::Faulted | Mode::Over => {}
            },
            Signal::Step(input) => self.ask_step(Some(input)),
            Signal::StepGathered => self.ask_step(None),
            Signal::Hide => {
                if !self.suspended {
                    self.suspended = true;
                    self.clock.reset();
                    self.bridge.reset(ResetReason::Suspended);
                    self.pacer.reset();
                    self.sync_bridge();
                }
            }
            Signal::Show => {
                if self.suspended {
                    self.suspended = false;
                    self.clock.reset();
                    self.pacer.reset();
                    self.sync_bridge();
                }
            }
            Signal::FocusLost => self.bridge.reset(ResetReason::FocusLost),
            Signal::FocusGained => {}
            Signal::Restart => self.loading = Some(LoadRequest::Restart),
            Signal::Load(name) => self.loading = Some(LoadRequest::Level(name)),
        }
    }

    fn ask_step(&mut self, input: Option<TickInput>) {
        if self.mode == Mode::Paused && self.loading.is_none() {
            self.step = Some(input);
        } else {
            self.stats.ignored_steps += 1;
        }
    }

    fn pause(&mut self) {
        if self.mode == Mode::Playing {
            self.mode = Mode::Paused;
            self.clock.reset();
            self.bridge.reset(ResetReason::Paused);
            self.sync_bridge();
        }
    }

    fn resume(&mut self) {
        if self.mode == Mode::Paused {
            self.mode = Mode::Playing;
            self.step = None;
            self.clock.reset();
            // What was gathered for steps does not leak into play: keys pressed while paused
            // count once released and pressed again, as before the pause.
            self.bridge.resume();
            self.sync_bridge();
        }
    }

    fn sync_bridge(&mut self) {
        // Open while paused too: it gathers the input of the next step.
        let open = matches!(self.mode, Mode::Playing | Mode::Paused);
        self.bridge.set_open(open && !self.suspended);
    }

    /// Replaces the key bindings' meaning: held controls are cancelled and must be released.
    pub fn bindings_replaced(&mut self) {
        self.bridge.reset(ResetReason::BindingsReplaced);
    }

    fn publish(&mut self, mode: Mode) {
        self.loading = None;
        self.boundary = false;
        self.step = None;
        self.fault = None;
        self.tick = 0;
        self.mode = mode;
        self.clock.reset();
        self.bridge.reset(ResetReason::LevelActivated);
        self.pacer.reset();
        self.sync_bridge();
        self.stats.levels_published += 1;
    }

    fn enter_fault(&mut self, fault: Fault) {
        self.mode = Mode::Faulted;
        self.fault = Some(fault);
        self.step = None;
        self.clock.reset();
        self.stats.faults += 1;
        self.sync_bridge();
    }

    /// The game ended: no more ticks. The clock is left as it is (the frame in progress still
    /// pays for the tick that ran and trims the rest); from the next frame no time accumulates.
    fn end_game(&mut self) {
        self.mode = Mode::Over;
        self.step = None;
        self.sync_bridge();
    }

    /// Whether the tick chain must stop after a tick (the game ended, or a level switch is
    /// waiting for the boundary).
    fn chain_ends(&self) -> bool {
        self.mode != Mode::Playing || self.boundary || self.pausing
    }

    /// A load a tick asked for: it is published before any further tick runs.
    fn load_at_boundary(&mut self, request: LoadRequest) {
        self.loading = Some(request);
        self.boundary = true;
    }

    /// Runs one tick; the index advances only on success.
    fn run_one(&mut self, sim: &mut dyn Simulation, input: &TickInput) -> bool {
        let Some(next) = self.tick.checked_add(1) else {
            self.enter_fault(Fault::new(
                FaultKind::Exhausted,
                "the tick index is exhausted (u64); restart the level",
            ));
            return false;
        };
        match sim.tick(next, input) {
            Ok(flow) => {
                self.tick = next;
                self.stats.ticks += 1;
                match flow {
                    Flow::Continue => {}
                    Flow::Over => self.end_game(),
                    Flow::Switch(level) => self.load_at_boundary(LoadRequest::Switch(level)),
                    Flow::Restart => self.load_at_boundary(LoadRequest::Restart),
                    Flow::Pause => self.pausing = true,
                }
                true
            }
            Err(fault) => {
                self.enter_fault(fault);
                false
            }
        }
    }

    /// One presentation callback at monotonic time `now_ns`. See the module documentation.
    pub fn frame(&mut self, now_ns: u64, sim: &mut dyn Simulation) -> FrameReport {
        self.frame += 1;
        self.stats.frames += 1;
        let faults_before = self.stats.faults;

        // 1. Transitions: a ready level is published at the frame boundary.
        let mut published = false;
        if let Some(request) = self.loading.clone() {
            match sim.load(&request) {
                LoadStatus::Pending => {}
                LoadStatus::Ready(mode) => {
                    self.publish(mode);
                    published = true;
                }
                LoadStatus::Failed(fault) => {
                    self.loading = None;
                    self.boundary = false;
                    self.enter_fault(fault);
                }
            }
        }

        // 2. Clock.
        let turns = self.clock.policy().mode == TickMode::Turns;
        let accumulate = self.mode == Mode::Playing && !self.suspended && !turns;
        let time = self.clock.sample(now_ns, accumulate);

        // 3. Ticks.
        let mut ticks_run = 0u32;
        let live = self.mode == Mode::Playing && !self.suspended && !self.boundary;
        if live && turns {
            // A level's first tick lays it out: it runs at once, with no input, and leaves a
            // press that arrived meanwhile for the first turn. Then one tick per press.
            let input = if self.tick == 0 {
                Some(TickInput::neutral())
            } else if self.bridge.has_press() {
                Some(self.bridge.take_tick_input())
            } else {
                None
            };
            if let Some(input) = input
                && self.run_one(sim, &input)
            {
                ticks_run = 1;
            }
        } else if live {
            let budget = self.clock.policy().max_catch_up_ticks;
            while self.clock.due_ticks() > 0 && ticks_run < budget {
                let input = self.bridge.take_tick_input();
                if !self.run_one(sim, &input) {
                    break;
                }
                self.clock.consume_tick();
                ticks_run += 1;
                if self.chain_ends() {
                    break;
                }
            }
        } else if self.mode == Mode::Paused
            && let Some(input) = self.step.take()
        {
            let input = input.unwrap_or_else(|| self.bridge.take_tick_input());
            self.stats.steps += 1;
            if self.run_one(sim, &input) {
                ticks_run = 1;
            }
        }

        if std::mem::take(&mut self.pausing) {
            self.pause();
        }

        // 4. Trim.
        let ticks_discarded = self.clock.discard_excess();
        self.stats.discarded_ticks += ticks_discarded;
        self.stats.accepted_ns += time.accepted_ns;
        self.stats.clamped_ns += time.clamped_ns;
        self.stats.excluded_ns += time.excluded_ns;

        FrameReport {
            frame: self.frame,
            time,
            ticks_run,
            ticks_discarded,
            tick: self.tick,
            alpha: self.clock.alpha(),
            mode: self.mode,
            loading: self.loading.is_some(),
            published,
            faulted: self.stats.faults > faults_before,
        }
    }

    /// Where the platform should wait until before its next frame (`None`: do not wait).
    /// Call after presenting; `presented` says whether the frame drew anything.
    pub fn next_frame_target(&mut self, now_ns: u64, presented: bool) -> Option<u64> {
        let kind = if self.suspended {
            FrameKind::Hidden
        } else if presented {
            FrameKind::Presented
        } else {
            FrameKind::Idle
        };
        self.pacer.next_target(now_ns, kind)
    }
}
