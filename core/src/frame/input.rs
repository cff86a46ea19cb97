//! Game-defined actions and the bridge that hands each tick exactly the input it should see.

use crate::frame::touch::{self, Touch};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most actions one game may declare (one bit each in [`TickInput`]).
pub const MAX_ACTIONS: usize = 64;

/// An action declared by the game, by index in its [`ActionSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ActionId(pub u8);

impl ActionId {
    fn bit(self) -> u64 {
        1u64 << (self.0 as u32 % 64)
    }
}

/// A button is held or not; an axis has a value in `[-1, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionKind {
    Button,
    Axis,
}

/// One declared action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionDef {
    pub name: String,
    pub kind: ActionKind,
}

/// The game's actions in declaration order; an action's index is its [`ActionId`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionSet {
    actions: Vec<ActionDef>,
}

/// Why an action could not be declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    TooMany,
    Duplicate(String),
    EmptyName,
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::TooMany => write!(f, "a game may declare at most {MAX_ACTIONS} actions"),
            ActionError::Duplicate(name) => write!(f, "action `{name}` is declared twice"),
            ActionError::EmptyName => write!(f, "an action name must not be empty"),
        }
    }
}

impl std::error::Error for ActionError {}

impl ActionSet {
    pub fn new() -> Self {
        ActionSet::default()
    }

    /// Declares an action; returns its id.
    pub fn add(&mut self, name: &str, kind: ActionKind) -> Result<ActionId, ActionError> {
        if name.is_empty() {
            return Err(ActionError::EmptyName);
        }
        if self.find(name).is_some() {
            return Err(ActionError::Duplicate(name.to_string()));
        }
        if self.actions.len() >= MAX_ACTIONS {
            return Err(ActionError::TooMany);
        }
        self.actions.push(ActionDef {
            name: name.to_string(),
            kind,
        });
        Ok(ActionId((self.actions.len() - 1) as u8))
    }

    pub fn find(&self, name: &str) -> Option<ActionId> {
        self.actions
            .iter()
            .position(|a| a.name == name)
            .map(|i| ActionId(i as u8))
    }

    pub fn get(&self, id: ActionId) -> Option<&ActionDef> {
        self.actions.get(id.0 as usize)
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (ActionId, &ActionDef)> {
        self.actions
            .iter()
            .enumerate()
            .map(|(i, a)| (ActionId(i as u8), a))
    }
}

/// The input one tick sees: a plain value, and exactly what a recording stores per tick.
///
/// Buttons are bit sets indexed by [`ActionId`]; `axes` holds one value per action (zero for
/// buttons) and may be shorter than the action count, missing values reading as zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TickInput {
    /// Buttons held when the frame was sampled.
    pub held: u64,
    /// Buttons that went down since the last tick that consumed edges.
    pub pressed: u64,
    /// Buttons that went up since the last tick that consumed edges.
    pub released: u64,
    /// Buttons whose hold was cancelled (focus loss, pause, level change). Never a release.
    pub cancelled: u64,
    #[serde(deserialize_with = "crate::budget::vec")]
    pub axes: Vec<f32>,
    /// Where the pointer is, in world units, when the game has a pointer over its view.
    pub pointer: Option<[f32; 2]>,
    /// The fingers down on the game's view, in the order they went down, in world units: at
    /// most [`MAX_TOUCHES`](crate::frame::touch::MAX_TOUCHES), refused past it as a
    /// recording decodes (see `frame/touch.rs` for the rules every input path keeps them by).
    #[serde(deserialize_with = "crate::frame::touch::bounded")]
    pub touches: Vec<Touch>,
}

impl TickInput {
    /// No buttons, no edges, all axes at rest: what a single step uses unless told otherwise.
    pub fn neutral() -> Self {
        TickInput::default()
    }

    pub fn is_neutral(&self) -> bool {
        self.held | self.pressed | self.released | self.cancelled == 0
            && self.axes.iter().all(|v| *v == 0.0)
            && self.pointer.is_none()
            && self.touches.is_empty()
    }

    pub fn held(&self, a: ActionId) -> bool {
        self.held & a.bit() != 0
    }

    pub fn pressed(&self, a: ActionId) -> bool {
        self.pressed & a.bit() != 0
    }

    pub fn released(&self, a: ActionId) -> bool {
        self.released & a.bit() != 0
    }

    pub fn cancelled(&self, a: ActionId) -> bool {
        self.cancelled & a.bit() != 0
    }

    pub fn axis(&self, a: ActionId) -> f32 {
        self.axes.get(a.0 as usize).copied().unwrap_or(0.0)
    }

    /// Sets a button's held bit (for building inputs by hand: tests, replays, `--input`).
    pub fn set_held(&mut self, a: ActionId, on: bool) {
        set_bit(&mut self.held, a, on);
    }

    pub fn set_pressed(&mut self, a: ActionId, on: bool) {
        set_bit(&mut self.pressed, a, on);
    }

    pub fn set_released(&mut self, a: ActionId, on: bool) {
        set_bit(&mut self.released, a, on);
    }

    pub fn set_cancelled(&mut self, a: ActionId, on: bool) {
        set_bit(&mut self.cancelled, a, on);
    }

    /// Sets an axis value, clamped to `[-1, 1]`; NaN reads as zero.
    pub fn set_axis(&mut self, a: ActionId, value: f32) {
        let i = a.0 as usize;
        if self.axes.len() <= i {
            self.axes.resize(i + 1, 0.0);
        }
        self.axes[i] = clean_axis(value);
    }
}

fn set_bit(bits: &mut u64, a: ActionId, on: bool) {
    if on {
        *bits |= a.bit();
    } else {
        *bits &= !a.bit();
    }
}

fn clean_axis(v: f32) -> f32 {
    if v.is_nan() { 0.0 } else { v.clamp(-1.0, 1.0) }
}

/// Why the bridge reset gameplay input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResetReason {
    FocusLost,
    Suspended,
    BindingsReplaced,
    Paused,
    LevelActivated,
}

/// Counters the bridge keeps for diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BridgeStats {
    /// Input events that arrived while the bridge was closed (paused, faulted).
    pub closed_events: u64,
    /// Presses ignored because the control was still held from before a reset.
    pub blocked_presses: u64,
    /// Edges dropped by resets before any tick consumed them.
    pub dropped_edges: u64,
    pub resets: u64,
    /// Touches ignored: a finger past the tenth, or at a position that is not finite.
    pub ignored_touches: u64,
}

/// Carries sampled action state from presentation frames to ticks.
///
/// Guarantees:
/// - Per frame, after event pumping, the bridge holds the final held and axis values plus
///   OR-accumulated Pressed, Released and Cancelled edges. A press and release inside one frame
///   carries both edges with a final unheld value; several presses before a tick coalesce.
/// - The first tick that takes its input consumes the edges exactly once; further catch-up ticks
///   of the same frame see held and axis values but no edges. A frame that runs no tick keeps
///   its edges pending for the next tick.
/// - Cancelled never fabricates Released.
/// - A reset (focus loss, suspension, binding replacement, pause, level activation) drops
///   pending edges, cancels every held button (a Cancelled edge, not a Released one) and zeroes
///   axes. A control still physically down at the reset is blocked: it is not accepted again
///   until it has been released (an axis: returned to zero).
/// - While closed (paused, faulted) the bridge only tracks physical state: a control that goes
///   down while closed is blocked the same way, so nothing held through a menu or pause
///   triggers gameplay on resume.
/// - Input consumed by UI never reaches the bridge; the session routes it away.
#[derive(Clone, Debug)]
pub struct InputBridge {
    count: usize,
    open: bool,
    physical: u64,
    held: u64,
    blocked: u64,
    pressed: u64,
    released: u64,
    cancelled: u64,
    raw_axes: Vec<f32>,
    axes: Vec<f32>,
    blocked_axes: u64,
    pointer: Option<[f32; 2]>,
    touches: Vec<Touch>,
    stats: BridgeStats,
}

impl InputBridge {
    /// A bridge for `count` actions (at most [`MAX_ACTIONS`]), open.
    pub fn new(count: usize) -> Self {
        let count = count.min(MAX_ACTIONS);
        InputBridge {
            count,
            open: true,
            physical: 0,
            held: 0,
            blocked: 0,
            pressed: 0,
            released: 0,
            cancelled: 0,
            raw_axes: vec![0.0; count],
            axes: vec![0.0; count],
            blocked_axes: 0,
            pointer: None,
            touches: Vec::new(),
            stats: BridgeStats::default(),
        }
    }

    fn valid(&self, a: ActionId) -> bool {
        (a.0 as usize) < self.count
    }

    /// Opens or closes the bridge to gameplay input (the session closes it while paused or
    /// faulted). Closing does not reset; the session resets explicitly where the contract says.
    pub fn set_open(&mut self, open: bool) {
        self.open = open;
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether a button went down since the last tick took its input (a turn, in
    /// [`TickMode::Turns`](crate::frame::clock::TickMode)).
    pub fn has_press(&self) -> bool {
        self.pressed != 0
    }

    /// A button went down. Repeats of a control already down are ignored.
    pub fn press(&mut self, a: ActionId) {
        if !self.valid(a) {
            return;
        }
        let bit = a.bit();
        if self.physical & bit != 0 {
            if self.blocked & bit != 0 {
                self.stats.blocked_presses += 1;
            }
            return;
        }
        self.physical |= bit;
        if !self.open {
            self.stats.closed_events += 1;
            self.blocked |= bit;
            return;
        }
        self.held |= bit;
        self.pressed |= bit;
    }

    /// A button went up. Releasing a blocked control only unblocks it.
    pub fn release(&mut self, a: ActionId) {
        if !self.valid(a) {
            return;
        }
        let bit = a.bit();
        self.physical &= !bit;
        if self.blocked & bit != 0 {
            self.blocked &= !bit;
            return;
        }
        if !self.open {
            self.stats.closed_events += 1;
        }
        if self.held & bit != 0 {
            self.held &= !bit;
            self.released |= bit;
        }
    }

    /// A button's hold was cancelled by the platform (the control is gone, not released).
    pub fn cancel(&mut self, a: ActionId) {
        if !self.valid(a) {
            return;
        }
        let bit = a.bit();
        self.physical &= !bit;
        self.blocked &= !bit;
        if self.held & bit != 0 {
            self.held &= !bit;
            self.cancelled |= bit;
        }
    }

    /// An axis moved. Values are clamped to `[-1, 1]`; NaN reads as zero.
    pub fn set_axis(&mut self, a: ActionId, value: f32) {
        if !self.valid(a) {
            return;
        }
        let i = a.0 as usize;
        let bit = a.bit();
        let v = clean_axis(value);
        self.raw_axes[i] = v;
        if self.blocked_axes & bit != 0 {
            if v == 0.0 {
                self.blocked_axes &= !bit;
            }
            return;
        }
        if !self.open {
            self.stats.closed_events += 1;
            if v != 0.0 {
                self.blocked_axes |= bit;
            }
            return;
        }
        self.axes[i] = v;
    }

    /// The input for the next tick. The first call after new edges consumes them; later calls
    /// (catch-up ticks of the same frame) see held and axis values only.
    pub fn take_tick_input(&mut self) -> TickInput {
        let input = TickInput {
            held: self.held,
            pressed: self.pressed,
            released: self.released,
            cancelled: self.cancelled,
            axes: if self.axes.iter().all(|v| *v == 0.0) {
                Vec::new()
            } else {
                self.axes.clone()
            },
            pointer: self.pointer,
            touches: self.touches.clone(),
        };
        self.pressed = 0;
        self.released = 0;
        self.cancelled = 0;
        input
    }

    /// The pointer's position in world units (`None`: no pointer over the game's view). It
    /// persists until changed, like a held button; non-finite coordinates read as no pointer.
    pub fn set_pointer(&mut self, at: Option<[f32; 2]>) {
        self.pointer = at.filter(|[x, y]| x.is_finite() && y.is_finite());
    }

    /// Finger `id` went down or moved to `at` (world units), or lifted (`None`). Touches
    /// persist until lifted, like the pointer, through resets and pauses. The first finger
    /// down is the pointer: going down or moving, it moves the pointer there; a lift moves
    /// nothing (the pointer stays where it was, also when the finger that becomes first
    /// has not moved since), so fingers lifting together leave it where it was whatever
    /// their order. A finger past the tenth, or at a position that is not finite within
    /// ±1e9, is ignored and counted.
    pub fn set_touch(&mut self, id: u32, at: Option<[f32; 2]>) {
        if !touch::set(&mut self.touches, id, at) {
            self.stats.ignored_touches += 1;
            return;
        }
        if at.is_some()
            && let Some(first) = self.touches.first().filter(|t| t.id == id)
        {
            self.pointer = Some(first.at());
        }
    }

    /// The fingers down, in the order they went down.
    pub fn touches(&self) -> &[Touch] {
        &self.touches
    }

    /// What the next tick would see, without consuming anything.
    pub fn peek(&self) -> TickInput {
        self.clone().take_tick_input()
    }

    /// Drops pending edges, cancels held buttons and blocks every control still down.
    pub fn reset(&mut self, _reason: ResetReason) {
        self.stats.resets += 1;
        self.stats.dropped_edges += u64::from((self.pressed | self.released).count_ones());
        self.pressed = 0;
        self.released = 0;
        self.cancelled = self.held;
        self.held = 0;
        self.blocked = self.physical;
        for (i, v) in self.axes.iter_mut().enumerate() {
            *v = 0.0;
            if self.raw_axes[i] != 0.0 {
                self.blocked_axes |= 1u64 << i;
            }
        }
    }

    /// Play resumes: what was gathered while paused for steps is dropped as [`reset`]
    /// drops it, and controls still down must be released first; the cancellations the pause
    /// made are kept for the next tick.
    ///
    /// [`reset`]: InputBridge::reset
    pub fn resume(&mut self) {
        let cancelled = self.cancelled;
        self.reset(ResetReason::Paused);
        self.cancelled |= cancelled;
    }

    /// New key bindings: like [`reset`](InputBridge::reset), but the physical state is forgotten
    /// because the key layer above now owns the "release first" rule for keys that were down.
    pub fn rebind(&mut self) {
        self.reset(ResetReason::BindingsReplaced);
        self.physical = 0;
        self.blocked = 0;
        self.blocked_axes = 0;
        self.raw_axes.iter_mut().for_each(|v| *v = 0.0);
    }

    /// Replaces the action count (new bindings): everything is reset and forgotten.
    pub fn replace_actions(&mut self, count: usize) {
        let stats = self.stats;
        let open = self.open;
        *self = InputBridge::new(count);
        self.stats = stats;
        self.open = open;
        self.stats.resets += 1;
    }

    pub fn stats(&self) -> BridgeStats {
        self.stats
    }

    /// Whether edges are waiting for a tick.
    pub fn has_pending_edges(&self) -> bool {
        self.pressed | self.released | self.cancelled != 0
    }
}
