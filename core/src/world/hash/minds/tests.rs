//! The pass over rows with kept records, four rows at a time and one at a time, against the
//! records hashed afresh.

use super::*;
use crate::def::{ArchetypeId, BehaviourKind};
use crate::math::Vec2;
use crate::world::components::{Aim, Brain, Deadline, Health, Identity, Position, Velocity};
use crate::world::hash::record::position;
use crate::world::hash::record::{brain_words, health, velocity, words};
use crate::world::hash::tests::changed_rows;

/// The rows' columns, owned.
#[derive(Clone)]
struct Columns {
    id: Vec<Identity>,
    pos: Vec<Position>,
    vel: Vec<Velocity>,
    health: Vec<Health>,
    brain: Vec<Brain>,
    aim: Vec<Aim>,
}

impl Columns {
    fn rows(&self) -> MindRows<'_> {
        MindRows {
            id: &self.id,
            pos: &self.pos,
            vel: &self.vel,
            health: &self.health,
            brain: &self.brain,
            aim: &self.aim,
        }
    }
}

/// A float of any bits now and then (NaN and infinities among them).
fn float(rng: &mut fastrand::Rng) -> f32 {
    match rng.u8(..8) {
        0 => f32::from_bits(rng.u32(..)),
        1 => [0.0, -0.0, f32::NAN, f32::INFINITY][rng.usize(..4)],
        _ => rng.f32() * 100.0 - 50.0,
    }
}

fn vec(rng: &mut fastrand::Rng) -> Vec2 {
    Vec2::new(float(rng), float(rng))
}

fn brain(rng: &mut fastrand::Rng) -> Brain {
    let kind = [BehaviourKind::Chase, BehaviourKind::Wander][rng.usize(..2)];
    let mut b = Brain::new(kind, vec(rng));
    b.set_next_decision(rng.u64(..1000));
    b
}

fn aim(rng: &mut fastrand::Rng) -> Aim {
    let mut a = Aim::default();
    a.set(rng.bool().then(|| rng.u64(1..Identity::SEQ_END)));
    a
}

fn columns(rng: &mut fastrand::Rng, n: usize) -> Columns {
    Columns {
        id: (0..n)
            .map(|k| Identity::new(k as u64 + 1, ArchetypeId(rng.u16(..4))))
            .collect(),
        pos: (0..n).map(|_| Position(vec(rng))).collect(),
        vel: (0..n).map(|_| Velocity(vec(rng))).collect(),
        health: (0..n)
            .map(|_| Health {
                current: rng.i32(-3..4),
            })
            .collect(),
        brain: (0..n).map(|_| brain(rng)).collect(),
        aim: (0..n).map(|_| aim(rng)).collect(),
    }
}

/// Changes some rows as ticks do: a value of one of the kept records, a row given to another
/// entity (as a removal moves the last row into a gap), a position (always).
fn change(rng: &mut fastrand::Rng, c: &mut Columns, next_seq: &mut u64) {
    let n = c.id.len();
    for r in changed_rows(rng, &mut c.pos) {
        match rng.u8(..6) {
            0 => c.vel[r] = Velocity(vec(rng)),
            1 => c.health[r].current = rng.i32(-3..4),
            2 => c.brain[r] = brain(rng),
            3 => c.aim[r] = aim(rng),
            4 => {
                *next_seq += 1;
                c.id[r] = Identity::new(*next_seq, ArchetypeId(rng.u16(..4)));
            }
            _ => {
                let other = rng.usize(..n);
                c.id.swap(r, other);
                c.vel.swap(r, other);
                c.health.swap(r, other);
                c.brain.swap(r, other);
                c.aim.swap(r, other);
            }
        }
    }
}

/// Over ticks of changing rows, both ways give every row's position record summed, keep
/// each row's other records' hashes as hashed afresh, and change the sums by as much.
#[test]
fn both_ways_give_the_records_hashed_afresh() {
    let mut rng = fastrand::Rng::with_seed(11);
    let max = MaxHealth::of_archetypes(vec![5, 1, 9]);
    for case in 0..200 {
        let n = rng.usize(..40);
        let mut c = columns(&mut rng, n);
        let mut next_seq = n as u64;
        let (mut wide, mut one) = (Minds::default(), Minds::default());
        wide.grow(n);
        one.grow(n);
        let mut sums = [[0u64; 3]; 2];
        for tick in 0..12 {
            let rows = c.rows();
            for (k, (minds, by_wide)) in [(&mut wide, true), (&mut one, false)]
                .into_iter()
                .enumerate()
            {
                let mut delta = [0u64; 3];
                let got = minds
                    .slots(n)
                    .positions_by(&rows, &max, &mut delta, by_wide);
                let want = (0..n).fold(0u64, |s, r| s.wrapping_add(position(&c.id[r], &c.pos[r])));
                assert_eq!(
                    got, want,
                    "case {case} tick {tick} wide {by_wide}: positions"
                );
                for (s, d) in sums[k].iter_mut().zip(delta) {
                    *s = s.wrapping_add(d);
                }
                let mut fresh = [0u64; 3];
                for r in 0..n {
                    let i = &c.id[r];
                    let hashes = [
                        velocity(i, &c.vel[r]),
                        health(i, &c.health[r], max.of(i), Deadline::INACTIVE),
                        words(brain_words(i, &c.brain[r], Some(&c.aim[r]))),
                    ];
                    assert_eq!(
                        minds.hashes(r..r + 1).next(),
                        Some(hashes),
                        "case {case} tick {tick} row {r}"
                    );
                    for (f, h) in fresh.iter_mut().zip(hashes) {
                        *f = f.wrapping_add(h);
                    }
                }
                assert_eq!(
                    sums[k], fresh,
                    "case {case} tick {tick} wide {by_wide}: sums"
                );
            }
            change(&mut rng, &mut c, &mut next_seq);
        }
    }
}
