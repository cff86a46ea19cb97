//! What pushing contacts do: positional corrections split by mass, and for contacts that
//! involve a static or kinematic body or a bounce, a velocity response.
//!
//! For each push pair `(a, b)` in canonical order, with `n` the normal from `a` to `b`, `d` the
//! depth and `ia`, `ib` the inverse masses (0 for static and kinematic bodies):
//! - **Push**: `a` moves by `-n d ia / (ia + ib)`, `b` by `n d ib / (ia + ib)`; nothing moves
//!   when both are 0. Two dynamic bodies of mass 1 move half the depth each. Corrections from
//!   dynamic bodies add up; those from immovable bodies (the whole depth) do not: per axis and
//!   direction the largest applies, so a body resting across the seam of two floor tiles is
//!   lifted once, not twice.
//! - **Response** (when either body responds): if they approach (`vn = (vb - va) . n < 0`),
//!   the normal impulse `j = -(1 + e) vn / (ia + ib)`, `e` the larger bounce, changes `va` by
//!   `-n j ia` and `vb` by `n j ib`; friction (the larger of the two) removes tangential
//!   relative velocity, at most `friction * j`. Responses apply one pair after another, so a
//!   body in several contacts sees the previous ones' results.
//! - **Footing**: a body with footing pushed against along the down direction (normal from it
//!   to the other within about 45 degrees of down) stood on something this tick; the other's
//!   velocity is kept (a moving platform carries what stands on it).

use crate::collision::Broadphase;
use crate::collision::body::{Body, Phys};
use crate::math::Vec2;

/// How far from "down" a contact normal may be and still count as ground (cos 45 degrees).
const GROUND_COS: f32 = 0.7;

impl Broadphase {
    /// Fills [`offsets`](Self::offsets), and where they apply [`velocities`](Self::velocities)
    /// (with [`turned`](Self::turned)) and [`grounded`](Self::grounded), from the push pairs;
    /// returns whether there is any. `vel_of` reads a body's velocity; it is asked only when a
    /// contact needs velocities (a response or footing), so games without either pay nothing
    /// for them.
    pub fn respond(&mut self, down: Vec2, vel_of: impl Fn(u32) -> Vec2) -> bool {
        self.offsets.clear();
        self.velocities.clear();
        self.turned.clear();
        self.grounded.clear();
        self.fixed.clear();
        let n = self.bodies.len();
        let mut any = false;
        for p in self.pairs.iter().filter(|p| p.push) {
            let (i, j) = (p.i as usize, p.j as usize);
            if !any {
                self.offsets.resize(n, Vec2::ZERO);
                any = true;
            }
            let (pa, pb) = (self.bodies[i].phys, self.bodies[j].phys);
            if pa == Body::PLAIN && pb == Body::PLAIN {
                let half = p.normal * (p.depth * 0.5);
                self.offsets[i] += -half;
                self.offsets[j] += half;
                continue;
            }
            let phys = |k: u32| {
                if k == Body::PLAIN {
                    Phys::PLAIN
                } else {
                    self.physics[k as usize]
                }
            };
            let (a, b) = (phys(pa), phys(pb));
            let (ia, ib) = (a.inv_mass, b.inv_mass);
            let sum = ia + ib;
            let responds = sum > 0.0 && (a.responds || b.responds);
            if (a.footing || b.footing || responds) && self.velocities.is_empty() {
                self.velocities
                    .extend(self.bodies.iter().map(|b| vel_of(b.id)));
            }
            for (body, other, normal, footing) in
                [(i, j, p.normal, a.footing), (j, i, -p.normal, b.footing)]
            {
                if footing && normal.dot(down) > GROUND_COS {
                    if self.grounded.is_empty() {
                        self.grounded.resize(n, None);
                    }
                    self.grounded[body] = Some(self.velocities[other]);
                }
            }
            if sum <= 0.0 {
                continue;
            }
            let da = -(p.normal * (p.depth * (ia / sum)));
            let db = p.normal * (p.depth * (ib / sum));
            if (ia == 0.0 || ib == 0.0) && self.fixed.is_empty() {
                self.fixed.resize(n, None);
            }
            if ib == 0.0 {
                widen(&mut self.fixed[i], da);
            } else {
                self.offsets[i] += da;
            }
            if ia == 0.0 {
                widen(&mut self.fixed[j], db);
            } else {
                self.offsets[j] += db;
            }
            if !responds {
                continue;
            }
            let n = p.normal;
            let (va, vb) = (self.velocities[i], self.velocities[j]);
            let rel = vb - va;
            let vn = rel.dot(n);
            if vn >= 0.0 {
                continue;
            }
            let e = a.bounce.max(b.bounce);
            let jn = -(1.0 + e) * vn / sum;
            let mut dva = -(n * (jn * ia));
            let mut dvb = n * (jn * ib);
            let mu = a.friction.max(b.friction);
            if mu > 0.0 {
                let t = rel - n * vn;
                let tl = t.length();
                if tl > 0.0 {
                    let jt = (tl / sum).min(mu * jn);
                    let tn = t * (1.0 / tl);
                    dva += tn * (jt * ia);
                    dvb += -(tn * (jt * ib));
                }
            }
            self.velocities[i] = va + dva;
            self.velocities[j] = vb + dvb;
            self.turned.extend([i as u32, j as u32]);
        }
        for (off, fixed) in self.offsets.iter_mut().zip(&self.fixed) {
            if let Some((lo, hi)) = fixed {
                *off += *lo + *hi;
            }
        }
        any
    }
}

/// Keeps, per axis, the most negative and the most positive correction seen.
fn widen(fixed: &mut Option<(Vec2, Vec2)>, d: Vec2) {
    let (lo, hi) = fixed.get_or_insert((Vec2::ZERO, Vec2::ZERO));
    lo.x = lo.x.min(d.x);
    lo.y = lo.y.min(d.y);
    hi.x = hi.x.max(d.x);
    hi.y = hi.y.max(d.y);
}
