//! A tick of drones over their columns: the decisions due, then one pass over every drone
//! (see [`Drones`](super::Drones)), over all of them or one half of a split tick.

use crate::math::Vec2;
use crate::reference::{Confine, Counts, move_body, next_decision};

/// What a drone can chase and touch. Targets hold still: they are read once, at
/// [`Drones::from_world`](super::Drones::from_world), and must have no velocity and no behaviour of their own (a player
/// without input).
#[derive(Clone, Copy, Debug)]
pub(super) struct Target {
    pub seq: u64,
    pub pos: Vec2,
    /// The square of the distance under which a drone touches it; `-inf` when the two do not
    /// report contacts.
    pub reach2: f32,
}

/// What every drone's step shares in a tick.
#[derive(Clone, Copy)]
pub(super) struct Rule {
    pub tick: u64,
    pub cadence: u64,
    pub dt: f32,
    pub speed: f32,
    pub confine: Confine,
    /// Bit `k` set when contacts with target `k` are reported as stay events.
    pub stay_mask: u64,
}

/// Drones' columns, all of one length: every drone, or one half of a split tick.
pub(super) struct Rows<'a> {
    pub seq: &'a [u64],
    pub next: &'a mut [u64],
    pub x: &'a mut [f32],
    pub y: &'a mut [f32],
    pub prev_x: &'a mut [f32],
    pub prev_y: &'a mut [f32],
    pub vx: &'a mut [f32],
    pub vy: &'a mut [f32],
    pub ix: &'a mut [f32],
    pub iy: &'a mut [f32],
    pub touching: &'a mut [u64],
}

impl<'a> Rows<'a> {
    pub fn len(&self) -> usize {
        self.seq.len()
    }

    /// The rows before `mid` and those from it.
    pub fn split_at(self, mid: usize) -> (Rows<'a>, Rows<'a>) {
        let (seq_a, seq_b) = self.seq.split_at(mid);
        let (next_a, next_b) = self.next.split_at_mut(mid);
        let (x_a, x_b) = self.x.split_at_mut(mid);
        let (y_a, y_b) = self.y.split_at_mut(mid);
        let (px_a, px_b) = self.prev_x.split_at_mut(mid);
        let (py_a, py_b) = self.prev_y.split_at_mut(mid);
        let (vx_a, vx_b) = self.vx.split_at_mut(mid);
        let (vy_a, vy_b) = self.vy.split_at_mut(mid);
        let (ix_a, ix_b) = self.ix.split_at_mut(mid);
        let (iy_a, iy_b) = self.iy.split_at_mut(mid);
        let (t_a, t_b) = self.touching.split_at_mut(mid);
        (
            Rows {
                seq: seq_a,
                next: next_a,
                x: x_a,
                y: y_a,
                prev_x: px_a,
                prev_y: py_a,
                vx: vx_a,
                vy: vy_a,
                ix: ix_a,
                iy: iy_a,
                touching: t_a,
            },
            Rows {
                seq: seq_b,
                next: next_b,
                x: x_b,
                y: y_b,
                prev_x: px_b,
                prev_y: py_b,
                vx: vx_b,
                vy: vy_b,
                ix: ix_b,
                iy: iy_b,
                touching: t_b,
            },
        )
    }

    /// These drones' tick: the decisions due, then the pass over every one.
    pub fn step(self, rule: &Rule, targets: &[Target]) -> Counts {
        let mut rows = self;
        rows.decide(rule, targets);
        // One target (a player) is the common case: a loop without an inner loop vectorizes.
        match targets {
            [t] => {
                let (tx, ty, reach2) = (t.pos.x, t.pos.y, t.reach2);
                rows.move_and_touch(rule, |x, y| {
                    let (dx, dy) = (x - tx, y - ty);
                    u64::from(dx * dx + dy * dy < reach2)
                })
            }
            _ => rows.move_and_touch(rule, |x, y| {
                let mut bits = 0u64;
                for (k, t) in targets.iter().enumerate() {
                    let (dx, dy) = (x - t.pos.x, y - t.pos.y);
                    bits |= u64::from(dx * dx + dy * dy < t.reach2) << k;
                }
                bits
            }),
        }
    }

    /// The decisions due this tick (a separate pass, so the pass over every drone has no
    /// branch).
    fn decide(&mut self, rule: &Rule, targets: &[Target]) {
        let (tick, cadence) = (rule.tick, rule.cadence);
        let n = self.len();
        let (seq, next) = (&self.seq[..n], &mut self.next[..n]);
        let (x, y) = (&self.x[..n], &self.y[..n]);
        let (ix, iy) = (&mut self.ix[..n], &mut self.iy[..n]);
        for i in 0..n {
            if tick >= next[i] {
                (ix[i], iy[i]) = heading(targets, x[i], y[i]);
                next[i] = next_decision(tick, seq[i], cadence);
            }
        }
    }

    /// Previous positions, velocities, integration, bounds and contacts in one pass;
    /// `touch(x, y)` gives the bits of the targets a drone at `(x, y)` touches.
    #[inline]
    fn move_and_touch(&mut self, rule: &Rule, touch: impl Fn(f32, f32) -> u64) -> Counts {
        let (dt, speed, confine, stay_mask) = (rule.dt, rule.speed, rule.confine, rule.stay_mask);
        let n = self.len();
        let (x, y) = (&mut self.x[..n], &mut self.y[..n]);
        let (prev_x, prev_y) = (&mut self.prev_x[..n], &mut self.prev_y[..n]);
        let (vx, vy) = (&mut self.vx[..n], &mut self.vy[..n]);
        let (ix, iy) = (&self.ix[..n], &self.iy[..n]);
        let touching = &mut self.touching[..n];
        let (mut enter, mut stay, mut exit) = (0u64, 0u64, 0u64);
        for i in 0..n {
            prev_x[i] = x[i];
            prev_y[i] = y[i];
            let (px, py, ux, uy) = move_body(&confine, (x[i], y[i]), (ix[i], iy[i]), speed, dt);
            x[i] = px;
            y[i] = py;
            vx[i] = ux;
            vy[i] = uy;
            let now = touch(px, py);
            let was = touching[i];
            touching[i] = now;
            enter += u64::from((now & !was).count_ones());
            stay += u64::from((now & was & stay_mask).count_ones());
            exit += u64::from((was & !now).count_ones());
        }
        Counts {
            enter: enter as usize,
            stay: stay as usize,
            exit: exit as usize,
        }
    }
}

/// The unit heading from `(x, y)` to the nearest target (ties to the lower sequence: targets
/// are in creation order), or zero without targets or on top of the nearest.
#[inline]
fn heading(targets: &[Target], x: f32, y: f32) -> (f32, f32) {
    let mut best: Option<(f32, Vec2)> = None;
    for t in targets {
        let d = (t.pos - Vec2::new(x, y)).length_squared();
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, t.pos));
        }
    }
    match best {
        Some((_, pos)) => {
            let h = (pos - Vec2::new(x, y)).normalized_or_zero();
            (h.x, h.y)
        }
        None => (0.0, 0.0),
    }
}
