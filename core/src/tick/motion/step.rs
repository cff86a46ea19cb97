//! One entity's steps of Motion, shared by the systems and the fused pass (see `fused`): the
//! plain step, the step with motion rules and the turn; and the game's "up".

use crate::def::RotateMode;
use crate::math::{Vec2, wrap_angle};
use crate::world::components::*;

/// The plain step: `p += v dt` where the result is finite (`math::step_one`).
#[inline(always)]
pub(crate) fn step(t: &mut Position, v: &Velocity, dt: f32) {
    t.0 = crate::math::step_one(t.0, v.0, dt);
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

#[cfg(test)]
mod tests {
    use super::step;
    use crate::math::{Vec2, step_within};
    use crate::tick::motion::bounds::confine_within;
    use crate::world::components::{Position, Velocity};

    /// Bit-exact equality (NaN equals NaN, -0 differs from +0).
    fn bits(v: &[Vec2]) -> Vec<(u32, u32)> {
        v.iter().map(|v| (v.x.to_bits(), v.y.to_bits())).collect()
    }

    #[test]
    fn the_packed_step_is_the_step_one_body_at_a_time() {
        let mut rng = fastrand::Rng::with_seed(21);
        let (lo, hi) = (Vec2::new(-2.0, -0.0), Vec2::new(2.0, 3.0));
        // Any bit pattern (NaN, infinities, subnormals, signed zeros) or a wall, among
        // ordinary values.
        let walls = [lo.x, lo.y, hi.x, hi.y];
        let value = |rng: &mut fastrand::Rng| match rng.u8(..8) {
            0 => f32::from_bits(rng.u32(..)),
            1 => walls[rng.usize(..4)],
            _ => rng.f32() * 8.0 - 4.0,
        };
        for round in 0..2_000 {
            let n = rng.usize(0..12);
            let vec = |rng: &mut fastrand::Rng| Vec2::new(value(rng), value(rng));
            let pos: Vec<Vec2> = (0..n).map(|_| vec(&mut rng)).collect();
            let vel: Vec<Vec2> = (0..n).map(|_| vec(&mut rng)).collect();
            let dt = [1.0 / 60.0, 0.5, 1e30][round % 3];
            // One at a time, as the tick's other paths move bodies.
            let (mut p1, mut v1, mut q1) = (pos.clone(), vel.clone(), vec![Vec2::ZERO; n]);
            for i in 0..n {
                let (mut t, mut v) = (Position(p1[i]), Velocity(v1[i]));
                q1[i] = t.0;
                step(&mut t, &v, dt);
                confine_within(&mut t, &mut v, lo, hi);
                (p1[i], v1[i]) = (t.0, v.0);
            }
            // Packed, then the rest one at a time.
            let (mut p2, mut v2, mut q2) = (pos.clone(), vel.clone(), vec![Vec2::ZERO; n]);
            let (done, _) = step_within(&mut p2, &mut v2, &mut q2, dt, lo, hi);
            assert!(done <= n && done.is_multiple_of(2));
            for i in done..n {
                let (mut t, mut v) = (Position(p2[i]), Velocity(v2[i]));
                q2[i] = t.0;
                step(&mut t, &v, dt);
                confine_within(&mut t, &mut v, lo, hi);
                (p2[i], v2[i]) = (t.0, v.0);
            }
            let case = format!("round {round}: {pos:?} {vel:?} dt {dt}");
            assert_eq!(bits(&p1), bits(&p2), "positions, {case}");
            assert_eq!(bits(&v1), bits(&v2), "velocities, {case}");
            assert_eq!(bits(&q1), bits(&q2), "previous positions, {case}");
        }
    }
}
