//! The packed steps (`step_within`, `step_free`) against one body at a time, bit for bit.

use super::*;

#[test]
fn the_step_is_the_one_body_at_a_time_step() {
    let mut rng = fastrand::Rng::with_seed(21);
    let clamp = |v: f32, lo: f32, hi: f32| {
        let v = if v < lo { lo } else { v };
        if v > hi { hi } else { v }
    };
    // Walls finite (the packed loops' way for four finite bodies at once; listed twice, so
    // half the rounds take it), infinite and NaN.
    let walls = [
        (Vec2::new(-2.0, -0.0), Vec2::new(2.0, 3.0)),
        (Vec2::new(-2.0, -0.0), Vec2::new(2.0, 3.0)),
        (
            Vec2::new(f32::NEG_INFINITY, -0.0),
            Vec2::new(2.0, f32::INFINITY),
        ),
        (Vec2::new(-2.0, f32::NAN), Vec2::new(2.0, 3.0)),
    ];
    for round in 0..4_000 {
        let (lo, hi) = walls[round % walls.len()];
        // Edge values often, or seldom (bodies all finite in most groups of four).
        let odds = [3, 40][round / 12 % 2];
        let vector = |rng: &mut fastrand::Rng| Vec2::new(value(rng, odds), value(rng, odds));
        let n = rng.usize(0..12);
        let pos: Vec<Vec2> = (0..n).map(|_| vector(&mut rng)).collect();
        let vel: Vec<Vec2> = (0..n).map(|_| vector(&mut rng)).collect();
        let dt = [1.0 / 60.0, 0.5, 1e30][round % 3];
        // One at a time.
        let (mut p1, mut v1, mut q1) = (pos.clone(), vel.clone(), vec![Vec2::ZERO; n]);
        for i in 0..n {
            q1[i] = p1[i];
            let next = p1[i] + v1[i] * dt;
            let t = if next.x.is_finite() & next.y.is_finite() {
                next
            } else {
                p1[i]
            };
            let to = Vec2::new(clamp(t.x, lo.x, hi.x), clamp(t.y, lo.y, hi.y));
            v1[i].x = if to.x != t.x { 0.0 } else { v1[i].x };
            v1[i].y = if to.y != t.y { 0.0 } else { v1[i].y };
            p1[i] = to;
        }
        let case = format!("round {round}: {pos:?} {vel:?} dt {dt} walls {lo:?} {hi:?}");
        type Step = fn(&mut [Vec2], &mut [Vec2], &mut [Vec2], f32, Vec2, Vec2) -> (usize, bool);
        // The platform's own way too: four at a time where the CPU has AVX2.
        for (name, step) in [
            ("packed", step_within_by::<Packed> as Step),
            ("plain", step_within_by::<Plain> as Step),
            ("the platform's", step_within as Step),
        ] {
            let (mut p2, mut v2, mut q2) = (pos.clone(), vel.clone(), vec![Vec2::ZERO; n]);
            let (done, finite) = step(&mut p2, &mut v2, &mut q2, dt, lo, hi);
            assert_eq!(done, n / 2 * 2, "{name}");
            let all = p2[..done].iter().all(|p| p.x.is_finite() & p.y.is_finite());
            assert_eq!(
                finite, all,
                "{name}: whether the moved positions are finite, {case}"
            );
            // The rest as the one-at-a-time loop left them.
            for i in done..n {
                (p2[i], v2[i], q2[i]) = (p1[i], v1[i], q1[i]);
            }
            assert_eq!(bits(&p1), bits(&p2), "{name} positions, {case}");
            assert_eq!(bits(&v1), bits(&v2), "{name} velocities, {case}");
            assert_eq!(bits(&q1), bits(&q2), "{name} previous positions, {case}");
        }
    }
}

/// The plain step without a clamp, two and four bodies at a time and the platform's way
/// (packed, then the rest one at a time), against one body at a time, bit for bit: odd and
/// even counts, non-finite steps and positions kept, velocities untouched.
#[test]
fn the_free_step_is_the_one_body_at_a_time_step() {
    let mut rng = fastrand::Rng::with_seed(34);
    for round in 0..3_000 {
        let n = rng.usize(0..19);
        let pos: Vec<Vec2> = (0..n).map(|_| vector(&mut rng)).collect();
        let vel: Vec<Vec2> = (0..n).map(|_| vector(&mut rng)).collect();
        let dt = [1.0 / 60.0, 0.5, 1e30, 3e38][round % 4];
        let (mut p1, mut q1) = (pos.clone(), vec![Vec2::ZERO; n]);
        for i in 0..n {
            q1[i] = p1[i];
            let next = p1[i] + vel[i] * dt;
            if next.x.is_finite() & next.y.is_finite() {
                p1[i] = next;
            }
        }
        let case = format!("round {round}: {pos:?} {vel:?} dt {dt}");
        type Step = fn(&mut [Vec2], &[Vec2], &mut [Vec2], f32) -> usize;
        let whole = |p: &mut [Vec2], v: &[Vec2], q: &mut [Vec2], dt| {
            step_free(p, v, q, dt);
            p.len()
        };
        for (name, step) in [
            ("packed", step_free_by::<Packed> as Step),
            ("plain", step_free_by::<Plain> as Step),
            ("the platform's", whole as Step),
        ] {
            let (mut p2, mut q2) = (pos.clone(), vec![Vec2::ZERO; n]);
            let done = step(&mut p2, &vel, &mut q2, dt);
            // The rest as the one-at-a-time loop left them.
            for i in done..n {
                (p2[i], q2[i]) = (p1[i], q1[i]);
            }
            assert_eq!(bits(&p1), bits(&p2), "{name} positions, {case}");
            assert_eq!(bits(&q1), bits(&q2), "{name} previous positions, {case}");
        }
    }
}

/// `both_zero` of every `v - v` (of finite values, infinities and NaN), packed and plain: the
/// pairs both of whose coordinates are finite, in both lanes of each pair.
#[test]
fn both_zero_marks_the_bodies_with_both_coordinates_finite() {
    fn mask<L: Lanes>(v: [f32; 4]) -> [bool; 4] {
        // SAFETY: four floats read, four written.
        let (l, mut out) = (unsafe { L::load(v.as_ptr()) }, [0f32; 4]);
        unsafe { l.sub(l).both_zero().store(out.as_mut_ptr()) };
        out.map(|b| b.to_bits() == u32::MAX)
    }
    let values = [
        1.5,
        -0.0,
        0.0,
        f32::MAX,
        -1e-45,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    for &a in &values {
        for &b in &values {
            for &c in &values {
                let v = [a, b, c, a];
                let f = v.map(f32::is_finite);
                let want = [f[0] & f[1], f[0] & f[1], f[2] & f[3], f[2] & f[3]];
                assert_eq!(mask::<Packed>(v), want, "packed {v:?}");
                assert_eq!(mask::<Plain>(v), want, "plain {v:?}");
            }
        }
    }
}
