//! What pushing contacts do: positional corrections split by mass, and for contacts that
//! involve a static or kinematic body or a bounce, a velocity response.
//!
//! For each push pair `(a, b)` in canonical order, with `n` the normal from `a` to `b`, `d` the
//! depth and `ia`, `ib` the inverse masses (0 for static and kinematic bodies):
//! - **Push**: `a` moves by `-n d ia / (ia + ib)`, `b` by `n d ib / (ia + ib)`; nothing moves
//!   when both are 0. Two dynamic bodies of mass 1 move half the depth each.
//! - **Response** (when either body responds): if they approach (`vn = (vb - va) . n < 0`),
//!   the normal impulse `j = -(1 + e) vn / (ia + ib)`, `e` the larger bounce, changes `va` by
//!   `-n j ia` and `vb` by `n j ib`; friction (the larger of the two) removes tangential
//!   relative velocity, at most `friction * j`. Responses apply one pair after another, so a
//!   body in several contacts sees the previous ones' results.
//! - **Footing**: a body with footing pushed against along the down direction (normal from it
//!   to the other within about 45 degrees of down) stood on something this tick.

use crate::collision::Broadphase;
use crate::math::Vec2;

/// How far from "down" a contact normal may be and still count as ground (cos 45 degrees).
const GROUND_COS: f32 = 0.7;

impl Broadphase {
    /// Fills [`offsets`](Self::offsets), [`velocities`](Self::velocities) and
    /// [`grounded`](Self::grounded) from the push pairs; returns whether there is any.
    pub fn respond(&mut self, down: Vec2) -> bool {
        self.offsets.clear();
        self.velocities.clear();
        self.grounded.clear();
        let mut any = false;
        for p in self.pairs.iter().filter(|p| p.push) {
            let (i, j) = (p.i as usize, p.j as usize);
            if !any {
                let n = self.bodies.len();
                self.offsets.resize(n, Vec2::ZERO);
                self.velocities.extend(self.bodies.iter().map(|b| b.vel));
                self.grounded.resize(n, false);
                any = true;
            }
            let (a, b) = (&self.bodies[i], &self.bodies[j]);
            let (ia, ib) = (a.inv_mass, b.inv_mass);
            let sum = ia + ib;
            if a.footing && p.normal.dot(down) > GROUND_COS {
                self.grounded[i] = true;
            }
            if b.footing && (-p.normal).dot(down) > GROUND_COS {
                self.grounded[j] = true;
            }
            if sum <= 0.0 {
                continue;
            }
            self.offsets[i] += -(p.normal * (p.depth * (ia / sum)));
            self.offsets[j] += p.normal * (p.depth * (ib / sum));
            if !(a.responds || b.responds) {
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
        }
        any
    }
}
