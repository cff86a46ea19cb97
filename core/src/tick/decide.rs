//! What a brain decides when it is due (see `brains` for when): its heading toward or away
//! from the nearest target it looks for, a wander, or nothing.

use crate::def::BehaviourKind;
use crate::math::Vec2;
use crate::nav::FlowField;
use crate::tick::rule::How;
use crate::world::components::{Aim, Brain};

/// A per-entity random unit value in [0, 1) from (seed, seq, tick): independent of the order
/// entities are visited in.
pub(crate) fn entity_random(seed: u64, seq: u64, tick: u64) -> f32 {
    let mut bytes = [0u8; 24];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&seq.to_le_bytes());
    bytes[16..].copy_from_slice(&tick.to_le_bytes());
    let h = xxhash_rust::xxh3::xxh3_64(&bytes);
    (h >> 40) as f32 / (1u64 << 24) as f32
}

/// What a decision reads besides its brain: the candidate targets `(seq, tags, position)`,
/// by sequence, the flow field (if the level has one), and the game's seed and the tick (a
/// wander's).
pub(crate) struct Seen<'a> {
    pub targets: &'a [(u64, u64, Vec2)],
    pub field: Option<&'a FlowField>,
    pub seed: u64,
    pub tick: u64,
}

/// Brain `seq`'s decision at `pos` by `how`, and its target (`aim`), from what it has `seen`:
/// with one candidate target, as [`decide_one`] takes it where it applies.
#[inline(always)]
pub(crate) fn decide(brain: &mut Brain, aim: &mut Aim, seq: u64, how: How, pos: Vec2, seen: Seen) {
    if let &[one] = seen.targets
        && decide_one(brain, aim, seq, how, pos, one, seen.field.is_some())
    {
        return;
    }
    decide_nearest(brain, aim, seq, how, pos, seen);
}

/// [`decide`] by a search for the nearest candidate target, however many there are.
fn decide_nearest(brain: &mut Brain, aim: &mut Aim, seq: u64, how: How, pos: Vec2, seen: Seen) {
    let Seen {
        targets,
        field,
        seed,
        tick,
    } = seen;
    let kind = brain.kind();
    match kind {
        BehaviourKind::Chase | BehaviourKind::Flee => {
            // The nearest target by its place in `targets` (a distance and an index carried
            // through the loop, not the target's whole record).
            let mut best: Option<(f32, usize)> = None;
            for (k, &(tseq, tags, tpos)) in targets.iter().enumerate() {
                if tseq == seq || tags & how.wants == 0 {
                    continue;
                }
                let d = (tpos - pos).length_squared();
                // Ties go to the lower creation sequence (targets are sorted by it).
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, k));
                }
            }
            // A target beyond the range is as none (without one, any finite distance is near).
            match best {
                Some((d, k)) if d <= how.range2 => {
                    let (tseq, _, tpos) = targets[k];
                    let straight = (tpos - pos).normalized_or_zero();
                    // Follow the field around obstacles; where it agrees with the straight
                    // line to within about 40 degrees, take the straight line (no 8-way zigzag).
                    let toward = match field {
                        Some(f) if how.navigate && kind == BehaviourKind::Chase => {
                            match f.direction(pos) {
                                Some(d) if d.x * straight.x + d.y * straight.y < 0.75 => d,
                                _ => straight,
                            }
                        }
                        _ => straight,
                    };
                    brain.intent = if kind == BehaviourKind::Chase {
                        toward
                    } else {
                        -toward
                    };
                    aim.set(Some(tseq));
                }
                _ => {
                    brain.intent = if how.wanders {
                        wander(seed, seq, tick)
                    } else {
                        Vec2::ZERO
                    };
                    aim.set(None);
                }
            }
        }
        BehaviourKind::Wander => brain.intent = wander(seed, seq, tick),
        BehaviourKind::Straight => {}
    }
}

/// [`decide_nearest`] where there is one candidate target, `one`, and the decision is plain: a
/// chaser or fleer that looks for it, is not it, follows no flow field (`field`: whether the
/// level has one) and has it within range. Then the decision is the heading toward it (or
/// away), what the search finds, without it (a swarm's decisions, a few hundred a tick among
/// 16,000 drones, took about 160 instructions each by the search, about 125 so);
/// `false`, with nothing written, anywhere else.
#[inline(always)]
fn decide_one(
    brain: &mut Brain,
    aim: &mut Aim,
    seq: u64,
    how: How,
    pos: Vec2,
    (tseq, tags, tpos): (u64, u64, Vec2),
    field: bool,
) -> bool {
    let kind = brain.kind();
    let plain = matches!(kind, BehaviourKind::Chase | BehaviourKind::Flee)
        && tseq != seq
        && tags & how.wants != 0
        && !(how.navigate && field);
    // A distance past the range, or NaN (a position not finite): `decide`'s other branch.
    let near = (tpos - pos).length_squared() <= how.range2;
    if !plain || !near {
        return false;
    }
    let straight = (tpos - pos).normalized_or_zero();
    brain.intent = if kind == BehaviourKind::Chase {
        straight
    } else {
        -straight
    };
    aim.set(Some(tseq));
    true
}

/// Brain `seq`'s random heading at `tick` (a wanderer's decision).
fn wander(seed: u64, seq: u64, tick: u64) -> Vec2 {
    let angle = entity_random(seed, seq, tick) * std::f32::consts::TAU;
    Vec2::from_angle(angle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case: a brain of `kind` (its intent before `(9, 9)`, its aim at target 77) at
    /// `pos` with `how`, and the one target `(seq, tags, position)`.
    fn case(kind: BehaviourKind, pos: Vec2, how: How, one: (u64, u64, Vec2), field: bool) {
        let fresh = || {
            let mut aim = Aim::default();
            aim.set(Some(77));
            (Brain::new(kind, Vec2::new(9.0, 9.0)), aim)
        };
        let (mut b1, mut a1) = fresh();
        let plain = decide_one(&mut b1, &mut a1, 5, how, pos, one, field);
        let (mut b2, mut a2) = fresh();
        let seen = Seen {
            targets: &[one],
            field: None,
            seed: 2026,
            tick: 40,
        };
        decide_nearest(&mut b2, &mut a2, 5, how, pos, seen);
        let what = format!("{kind:?} at {pos:?}, {one:?}, field {field}");
        if plain {
            let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
            assert_eq!(bits(b1.intent), bits(b2.intent), "{what}");
            assert_eq!(a1.target(), a2.target(), "{what}");
        } else {
            assert_eq!(b1.intent, Vec2::new(9.0, 9.0), "{what}: nothing written");
            assert_eq!(a1.target(), Some(77), "{what}: nothing written");
        }
    }

    #[test]
    fn one_target_decides_as_the_search_for_the_nearest_or_not_at_all() {
        use BehaviourKind::*;
        let how = |range: f32, navigate: bool, wanders: bool| How {
            wants: 0b10,
            navigate,
            range2: range * range,
            wanders,
        };
        let target = (3, 0b110, Vec2::new(40.0, -30.0));
        let positions = [
            Vec2::new(0.0, 0.0),
            Vec2::new(40.0, -30.0),
            Vec2::new(-1e30, 1e30),
            Vec2::new(f32::NAN, 0.0),
            Vec2::new(f32::INFINITY, 2.0),
            Vec2::new(39.99999, -30.00001),
        ];
        for kind in [Chase, Flee, Wander, Straight] {
            for pos in positions {
                for how in [
                    how(f32::INFINITY, false, false),
                    how(f32::INFINITY, true, false),
                    how(10.0, false, true),
                    how(60.0, false, false),
                    how(50.0, false, false),
                ] {
                    for field in [false, true] {
                        case(kind, pos, how, target, field);
                        // Itself, and a target of tags it does not look for.
                        case(kind, pos, how, (5, 0b10, target.2), field);
                        case(kind, pos, how, (3, 0b100, target.2), field);
                    }
                }
            }
        }
        // And the plain case is taken where it applies: a chaser and a fleer in range.
        for (kind, heading) in [(Chase, Vec2::new(0.8, -0.6)), (Flee, Vec2::new(-0.8, 0.6))] {
            let (mut b, mut a) = (Brain::new(kind, Vec2::ZERO), Aim::default());
            let near = how(f32::INFINITY, true, false);
            assert!(decide_one(
                &mut b,
                &mut a,
                5,
                near,
                Vec2::ZERO,
                target,
                false
            ));
            assert_eq!((b.intent, a.target()), (heading, Some(3)));
        }
    }
}
