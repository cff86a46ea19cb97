//! How things move beyond their velocity: body kinds, gravity, drag and speed limits, rotation,
//! and the control kinds. All of it is optional; an archetype that declares none of it moves by
//! its velocity alone, exactly as before these existed.

use crate::frame::input::ActionId;
use serde::{Deserialize, Serialize};

/// How a collider takes part in pushes.
///
/// - `Dynamic` (the default) is pushed by what it touches, in proportion to the other's mass.
/// - `Kinematic` moves by its own velocity but is never pushed (a paddle, a moving platform).
/// - `Static` never moves: not by its velocity, not by pushes (walls, bricks, floors). Scripts
///   may still teleport it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BodyKind {
    #[default]
    Dynamic,
    Kinematic,
    Static,
}

/// Motion rules an entity follows every tick, in the Motion phase: what accelerates it, what
/// slows it, how fast it may go.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotionDef {
    /// How strongly `[physics] gravity` pulls it. `None`: 1 for a dynamic, non-trigger
    /// collider, 0 for anything else.
    pub gravity_scale: Option<f32>,
    /// Linear damping per second: each tick the velocity is divided by `1 + drag * dt`.
    pub drag: f32,
    /// The fastest it may go, in world units per second.
    pub max_speed: Option<f32>,
}

impl MotionDef {
    /// No motion rules: the gravity scale its collider gives, no drag, no speed limit.
    pub const DEFAULT: MotionDef = MotionDef {
        gravity_scale: None,
        drag: 0.0,
        max_speed: None,
    };
}

impl Default for MotionDef {
    fn default() -> Self {
        MotionDef::DEFAULT
    }
}

/// How an entity's angle changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RotateMode {
    /// Only by its spin (and by scripts).
    #[default]
    None,
    /// It faces where it moves (while it moves).
    Velocity,
    /// It faces its controller's facing.
    Facing,
}

/// An entity's rotation: an angle in radians (0 faces +x, positive turns toward +y, which is
/// down on screen), a spin in radians per second, and what else turns it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RotationDef {
    pub angle: f32,
    pub spin: f32,
    pub rotate: RotateMode,
}

impl RotationDef {
    /// Facing +x, not spinning, turned by nothing else.
    pub const DEFAULT: RotationDef = RotationDef {
        angle: 0.0,
        spin: 0.0,
        rotate: RotateMode::None,
    };
}

impl Default for RotationDef {
    fn default() -> Self {
        RotationDef::DEFAULT
    }
}

/// How player control moves an entity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum ControlKind {
    /// `move_x`/`move_y` set the velocity to the direction times `speed` (at once, or
    /// approaching it at `accel` units/s² when set).
    #[default]
    TopDown,
    /// Asteroids: `turn` rotates, `thrust` accelerates along the facing.
    Thrust(ThrustDef),
    /// A side view: `run` moves along the ground, `jump` leaves it.
    Platformer(PlatformerDef),
}

/// `kind = "thrust"`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThrustDef {
    /// An axis (or a button: turning one way) that turns the entity.
    pub turn: Option<ActionId>,
    /// A button or an axis (its positive half) that pushes it forward.
    pub thrust: Option<ActionId>,
    /// Radians per second at full turn.
    pub turn_speed: f32,
    /// World units per second² at full thrust.
    pub accel: f32,
}

impl ThrustDef {
    /// The turning speed of a thrust control that sets none, in radians per second.
    pub const TURN_SPEED: f32 = 3.0;
    /// The thrust of a thrust control that sets none, in world units per second².
    pub const ACCEL: f32 = 300.0;
}

/// `kind = "platformer"`. Up is against `[physics] gravity` (screen up when there is none).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlatformerDef {
    /// The axis that runs left and right, at up to the archetype's `speed`.
    pub run: Option<ActionId>,
    /// The button that jumps.
    pub jump: Option<ActionId>,
    /// How fast running reaches its speed, in world units per second² (0: at once).
    pub accel: f32,
    /// The upward speed a jump starts with, in world units per second.
    pub jump_speed: f32,
    /// Ticks after leaving the ground during which a jump still works.
    pub coyote: u32,
    /// Ticks before landing during which a jump press is remembered.
    pub buffer: u32,
    /// Releasing jump while rising multiplies the upward speed by this (1: no effect).
    pub cut: f32,
}

impl PlatformerDef {
    /// The run acceleration of a platformer control that sets none: 0, at once.
    pub const ACCEL: f32 = 0.0;
    /// The jump speed of a platformer control that sets none, in world units per second.
    pub const JUMP_SPEED: f32 = 400.0;
    /// Coyote time of a platformer control that sets none, in ticks.
    pub const COYOTE: u32 = 6;
    /// The jump buffer of a platformer control that sets none, in ticks.
    pub const BUFFER: u32 = 6;
    /// The jump cut of a platformer control that sets none.
    pub const CUT: f32 = 0.5;
}
