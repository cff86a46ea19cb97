//! One entity's steps of Motion, shared by the systems and the fused pass (see `fused`): the
//! plain step, the step with motion rules and the turn; and the game's "up".

use crate::def::RotateMode;
use crate::math::{Vec2, wrap_angle};
use crate::world::components::*;

/// The plain step: `p += v dt`.
#[inline(always)]
pub(crate) fn step(t: &mut Position, v: &Velocity, dt: f32) {
    let next = t.0 + v.0 * dt;
    // A select rather than a branch, so the loop stays vectorisable.
    t.0 = if next.x.is_finite() & next.y.is_finite() {
        next
    } else {
        t.0
    };
}

/// The step with motion rules: gravity exactly for a constant acceleration, drag, speed limit.
#[inline]
pub(crate) fn accelerate(t: &mut Position, v: &mut Velocity, m: &Motion, dt: f32) {
    let next = t.0 + v.0 * dt + m.gravity * (0.5 * dt * dt);
    if next.is_finite() {
        t.0 = next;
    }
    let mut nv = v.0 + m.gravity * dt;
    if m.drag > 0.0 {
        nv = nv * (1.0 / (1.0 + m.drag * dt));
    }
    let speed2 = nv.length_squared();
    if speed2 > m.max_speed * m.max_speed {
        nv = nv * (m.max_speed / speed2.sqrt());
    }
    if nv.is_finite() {
        v.0 = nv;
    }
}

/// Turns one entity: by its spin, then toward its velocity or its controller's facing when
/// its mode says so.
#[inline]
pub(crate) fn turn(r: &mut Rotation, v: &Velocity, control: Option<&Control>, dt: f32) {
    let mut angle = r.angle + r.spin * dt;
    match r.mode {
        RotateMode::None => {}
        RotateMode::Velocity => {
            if v.0.length_squared() > 1e-12 {
                angle = v.0.angle();
            }
        }
        RotateMode::Facing => {
            if let Some(c) = control {
                angle = c.facing.angle();
            }
        }
    }
    if angle.is_finite() {
        r.angle = wrap_angle(angle);
    }
}

/// The unit "up" of a game: against gravity, or screen up (-y) without gravity.
pub(crate) fn up(gravity: Vec2) -> Vec2 {
    let up = (-gravity).normalized_or_zero();
    if up == Vec2::ZERO {
        Vec2::new(0.0, -1.0)
    } else {
        up
    }
}
