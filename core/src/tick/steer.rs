//! How player control moves an entity, per control kind (Intent's `control` system calls it
//! once per controlled entity; triggers are handled there).
//!
//! - **top_down**: `move_x`/`move_y` give a direction (its length capped at 1); the velocity
//!   becomes direction times speed, at once or approaching it by at most `accel * dt` per tick.
//! - **thrust**: `turn` turns the angle by `turn * turn_speed * dt`; `thrust` (its positive
//!   part) adds `facing * accel * thrust * dt` to the velocity; the facing is the angle's unit
//!   vector. Drag and a speed limit come from the archetype's motion rules.
//! - **platformer**: `run` sets the velocity along the ground (perpendicular to up) to
//!   `run * speed` plus the ground's own velocity along it (a moving platform carries what
//!   stands on it), at once or by at most `accel * dt` per tick, leaving the vertical part to
//!   gravity. A jump press is remembered for `buffer` ticks; it jumps when the body stood on
//!   something within the last `coyote + 1` ticks, setting the upward speed to `jump_speed`.
//!   Releasing jump while still rising multiplies the upward speed by `cut`, once.

use crate::def::ControlKind;
use crate::frame::input::{ActionId, TickInput};
use crate::math::Vec2;
use crate::world::components::{Control, Footing, Rotation};

/// What a tick's steering knows: the input, the tick, the step and which way is up.
pub(crate) struct Steer<'a> {
    pub input: &'a TickInput,
    pub tick: u64,
    pub dt: f32,
    pub up: Vec2,
}

/// An action's value: an axis's value, or 1 while a button is held.
fn value(input: &TickInput, a: Option<ActionId>) -> f32 {
    let Some(a) = a else {
        return 0.0;
    };
    let axis = input.axis(a);
    if axis != 0.0 {
        axis
    } else if input.held(a) {
        1.0
    } else {
        0.0
    }
}

/// `from` moved toward `to` by at most `step` (a vector of any length).
fn approach(from: Vec2, to: Vec2, step: f32) -> Vec2 {
    let d = to - from;
    let len = d.length();
    if len <= step || len == 0.0 {
        to
    } else {
        from + d * (step / len)
    }
}

/// Moves one controlled entity for this tick (see the module documentation).
pub(crate) fn steer(
    s: &Steer<'_>,
    c: &mut Control,
    speed: f32,
    v: &mut Vec2,
    rotation: Option<&mut Rotation>,
    footing: Option<&mut Footing>,
) {
    match c.kind {
        ControlKind::TopDown => {
            let raw = Vec2::new(
                c.move_x.map_or(0.0, |a| s.input.axis(a)),
                c.move_y.map_or(0.0, |a| s.input.axis(a)),
            );
            let dir = if raw.length_squared() > 1.0 {
                raw.normalized_or_zero()
            } else {
                raw
            };
            if c.move_x.is_some() || c.move_y.is_some() {
                let target = dir * speed;
                *v = match c.accel {
                    None => target,
                    Some(a) => approach(*v, target, a * s.dt),
                };
            }
            if dir != Vec2::ZERO {
                c.facing = dir.normalized_or_zero();
            }
        }
        ControlKind::Thrust(t) => {
            let Some(r) = rotation else {
                return;
            };
            let turn = value(s.input, t.turn).clamp(-1.0, 1.0);
            r.angle = crate::math::wrap_angle(r.angle + turn * t.turn_speed * s.dt);
            c.facing = Vec2::from_angle(r.angle);
            let thrust = value(s.input, t.thrust).clamp(0.0, 1.0);
            if thrust > 0.0 {
                *v += c.facing * (t.accel * thrust * s.dt);
            }
        }
        ControlKind::Platformer(p) => {
            let right = Vec2::new(-s.up.y, s.up.x);
            let grounded = footing.as_ref().is_some_and(|f| {
                f.grounded_at
                    .is_some_and(|g| s.tick.saturating_sub(g) <= u64::from(p.coyote) + 1)
            });
            // Running is relative to the ground: a moving platform carries what stands on it.
            let carried = match &footing {
                Some(f) if f.grounded_at.is_some_and(|g| s.tick.saturating_sub(g) <= 1) => {
                    f.ground_velocity.dot(right)
                }
                _ => 0.0,
            };
            let run = value(s.input, p.run).clamp(-1.0, 1.0);
            let along = v.dot(right);
            let target = run * speed + carried;
            let next = if p.accel > 0.0 {
                approach(
                    Vec2::new(along, 0.0),
                    Vec2::new(target, 0.0),
                    p.accel * s.dt,
                )
                .x
            } else {
                target
            };
            *v += right * (next - along);
            if run != 0.0 {
                c.facing = right * run.signum();
            }
            let (Some(f), Some(jump)) = (footing, p.jump) else {
                return;
            };
            if s.input.pressed(jump) {
                f.jump_pressed_at = Some(s.tick);
            }
            let buffered = f
                .jump_pressed_at
                .is_some_and(|t| s.tick.saturating_sub(t) <= u64::from(p.buffer));
            if grounded && buffered {
                let vu = v.dot(s.up);
                *v += s.up * (p.jump_speed - vu);
                f.rising = true;
                f.jump_pressed_at = None;
                f.grounded_at = None;
            } else if f.rising {
                let vu = v.dot(s.up);
                if vu <= 0.0 {
                    f.rising = false;
                } else if !s.input.held(jump) {
                    *v += s.up * (vu * p.cut - vu);
                    f.rising = false;
                }
            }
        }
    }
}
