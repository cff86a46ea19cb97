//! The steps of bodies over packed floats: [`step_within`] (a step and a clamp, the common
//! archetype's pass) and [`step_free`] (the plain step of every other archetype's moving rows),
//! each exactly as the scalar step one body at a time.

use super::four::Lanes;
use super::packed::Packed;
use crate::math::Vec2;

/// Moves bodies two at a time (four where an x86_64 CPU has AVX2, asked at run time: see
/// `wide`), exactly as one at a time would: for each `i`, `prev[i] = pos[i]`, then `pos[i] +
/// vel[i] * dt` where both its coordinates are finite (else `pos[i]` stays), clamped (`c < lo
/// ? lo : c`, then `hi < c ? hi : c`, per coordinate), with each velocity coordinate whose
/// position the clamp changed (or that is NaN) set to zero. Returns how many bodies it moved,
/// from the first: an even number (0 without packed floats); the caller moves the rest. And
/// whether every coordinate of their new positions is finite, found on the way (a position's
/// `c - c` is +0 where `c` is finite, NaN where not: the results' bits ORed are all clear only
/// where every one is finite), so that the broadphase need not read them again to know it.
#[inline(always)]
pub(crate) fn step_within(
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    prev: &mut [Vec2],
    dt: f32,
    lo: Vec2,
    hi: Vec2,
) -> (usize, bool) {
    #[cfg(target_arch = "x86_64")]
    if pos.len() >= 4 && std::arch::is_x86_feature_detected!("avx2") {
        let (n, floats) = as_floats(pos, vel, prev, 4);
        // SAFETY: the CPU has AVX2; `n` bodies from each of the three.
        let (done, finite) = unsafe { super::wide::step_within(n, floats, dt, (lo, hi)) };
        // The last pair, in SSE registers.
        let (p, v, q) = (&mut pos[done..], &mut vel[done..], &mut prev[done..]);
        let (last, last_finite) = step_within_by::<Packed>(p, v, q, dt, lo, hi);
        return (done + last, finite & last_finite);
    }
    if Packed::PACKED {
        step_within_by::<Packed>(pos, vel, prev, dt, lo, hi)
    } else {
        (0, true)
    }
}

/// The bodies of `pos`, `vel` and `prev` that a step-and-clamp moves `group` at a time (the
/// most that `group` divides of the shortest slice), and each slice's first float (`Vec2` is
/// `repr(C)`: a body is two floats).
#[inline(always)]
fn as_floats(
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    prev: &mut [Vec2],
    group: usize,
) -> (usize, [*mut f32; 3]) {
    let n = pos.len().min(vel.len()).min(prev.len()) / group * group;
    let floats = [pos, vel, prev].map(|s| s.as_mut_ptr().cast::<f32>());
    (n, floats)
}

#[inline(always)]
pub(super) fn step_within_by<L: Lanes>(
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    prev: &mut [Vec2],
    dt: f32,
    lo: Vec2,
    hi: Vec2,
) -> (usize, bool) {
    let (n, [p, v, q]) = as_floats(pos, vel, prev, 2);
    let (lo, hi) = (L::pairs(lo), L::pairs(hi));
    let dt = L::splat(dt);
    // The new positions' `c - c` ORed: +0 in every lane while all are finite.
    let mut nonfinite = L::splat(0.0);
    let mut pair = |i: usize| {
        // SAFETY: bodies `i` and `i + 1` (`i + 2 <= n`) of slices of at least `n`: four
        // floats each (`Vec2` is `repr(C)`).
        let (t, w) = unsafe { (L::load(p.add(i * 2)), L::load(v.add(i * 2))) };
        // SAFETY: as above.
        unsafe { t.store(q.add(i * 2)) };
        let next = t.add(w.mul(dt));
        // `v - v` is +0 for a finite `v`, NaN for the rest: the mask of the bodies both of
        // whose coordinates are finite (`Lanes::both_zero`).
        let zero = next.sub(next);
        let t = L::select(zero.both_zero(), next, t);
        let to = t.at_least(lo).at_most(hi);
        let w = w.clear(to.ne(t));
        nonfinite = nonfinite.or(to.sub(to));
        // SAFETY: as above.
        unsafe {
            to.store(p.add(i * 2));
            w.store(v.add(i * 2));
        }
    };
    // Where the walls are finite, a turn's two pairs are tried at once first: when their
    // four new positions are all finite (one test of their `c - c` ORed), each is the one
    // kept, and its clamp between finite walls is finite too, so they need neither the
    // select nor the finiteness they add to `nonfinite` (the browser's 16k-drone tick 3.5%
    // faster); else they go the way above, unchanged.
    let walls = !lo.sub(lo).or(hi.sub(hi)).any_set();
    let finite_two = |i: usize| {
        // SAFETY: bodies `i` to `i + 3` (`i + 4 <= n`) of slices of at least `n`: eight
        // floats each.
        let (ta, wa, tb, wb) = unsafe {
            let (i, j) = (i * 2, i * 2 + 4);
            (
                L::load(p.add(i)),
                L::load(v.add(i)),
                L::load(p.add(j)),
                L::load(v.add(j)),
            )
        };
        let (na, nb) = (ta.add(wa.mul(dt)), tb.add(wb.mul(dt)));
        if na.sub(na).or(nb.sub(nb)).any_set() {
            return false;
        }
        let (ca, cb) = (na.at_least(lo).at_most(hi), nb.at_least(lo).at_most(hi));
        // SAFETY: as above.
        unsafe {
            let (i, j) = (i * 2, i * 2 + 4);
            ta.store(q.add(i));
            tb.store(q.add(j));
            ca.store(p.add(i));
            cb.store(p.add(j));
            wa.clear(ca.ne(na)).store(v.add(i));
            wb.clear(cb.ne(nb)).store(v.add(j));
        }
        true
    };
    // Two pairs a turn of the loop: in the browser's lanes a turn's own work (its pointers,
    // count and branch, and the engine's check at every loop's back edge) is about a third
    // of a pair's.
    let mut i = 0;
    while i + 4 <= n {
        if !(walls && finite_two(i)) {
            pair(i);
            pair(i + 2);
        }
        i += 4;
    }
    if i < n {
        pair(i);
    }
    (n, nonfinite.le(nonfinite).bits() == 0b1111)
}

/// Moves every body as the plain step one at a time would (`tick::motion::step`): for each
/// `i`, `prev[i] = pos[i]`, then `pos[i] + vel[i] * dt` (the multiply, then the add) where both
/// its coordinates are finite, else `pos[i]` stays. Two bodies at a time where the platform has
/// packed floats (four where an x86_64 CPU has AVX2, asked at run time), the rest one at a
/// time. The three slices are of one length.
#[inline(always)]
pub(crate) fn step_free(pos: &mut [Vec2], vel: &[Vec2], prev: &mut [Vec2], dt: f32) {
    assert!(
        vel.len() == pos.len() && prev.len() == pos.len(),
        "a body a row"
    );
    let mut done = step_free_wide(pos, vel, prev, dt);
    done += step_free_by::<Packed>(&mut pos[done..], &vel[done..], &mut prev[done..], dt);
    for ((t, v), q) in pos.iter_mut().zip(vel).zip(prev.iter_mut()).skip(done) {
        *q = *t;
        *t = step_one(*t, *v, dt);
    }
}

/// One body's plain step: `t + v * dt` (the multiply, then the add) where both its
/// coordinates are finite, else `t`, as a select rather than a branch (a loop of it stays
/// packable). The one definition of the step the packed loops give bit for bit.
#[inline(always)]
pub(crate) fn step_one(t: Vec2, v: Vec2, dt: f32) -> Vec2 {
    let next = t + v * dt;
    if next.x.is_finite() & next.y.is_finite() {
        next
    } else {
        t
    }
}

/// [`step_free`]'s first bodies four at a time where an x86_64 CPU has AVX2: how many (none
/// elsewhere).
#[inline(always)]
fn step_free_wide(pos: &mut [Vec2], vel: &[Vec2], prev: &mut [Vec2], dt: f32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if pos.len() >= 4 && std::arch::is_x86_feature_detected!("avx2") {
        let n = pos.len().min(vel.len()).min(prev.len()) / 4 * 4;
        let floats = [pos.as_mut_ptr(), vel.as_ptr().cast_mut(), prev.as_mut_ptr()];
        // SAFETY: the CPU has AVX2; `n` bodies from each of the three, `vel` only read.
        return unsafe { super::wide::step_free(n, floats.map(|p| p.cast::<f32>()), dt) };
    }
    let _ = (pos, vel, prev, dt);
    0
}

/// [`step_free`]'s bodies two at a time in `L`'s lanes: how many it moved from the first (an
/// even number; none where `L` packs nothing).
#[inline(always)]
pub(super) fn step_free_by<L: Lanes>(
    pos: &mut [Vec2],
    vel: &[Vec2],
    prev: &mut [Vec2],
    dt: f32,
) -> usize {
    if !L::PACKED {
        return 0;
    }
    let n = pos.len().min(vel.len()).min(prev.len()) / 2 * 2;
    let (p, v, q) = (
        pos.as_mut_ptr().cast::<f32>(),
        vel.as_ptr().cast::<f32>(),
        prev.as_mut_ptr().cast::<f32>(),
    );
    let dt = L::splat(dt);
    for i in (0..n).step_by(2) {
        // SAFETY: bodies `i` and `i + 1` (`i + 2 <= n`) of slices of at least `n`: four
        // floats each (`Vec2` is `repr(C)`); `vel` only read.
        unsafe {
            let (t, w) = (L::load(p.add(i * 2)), L::load(v.add(i * 2)));
            t.store(q.add(i * 2));
            let next = t.add(w.mul(dt));
            // Both of a body's coordinates finite: see `step_within_by`.
            let zero = next.sub(next);
            L::select(zero.both_zero(), next, t).store(p.add(i * 2));
        }
    }
    n
}
