//! The nearest entity a firing trigger aims at, read from the archetypes' columns: the one
//! shooter's search of [`super::intent`]'s aims (the usual case), where the aimed-at tags
//! cover many of the world's entities.
//!
//! A run of rows of one game archetype is searched in lanes ([`nearest_in_run`]): each of
//! eight lanes keeps its least squared distance and that row, with no branch a row, and only
//! where the answer is not plain (no finite distance, a distance two rows of a lane share,
//! the shooter's own row) is the run searched again row by row. Both give the entity that
//! [`nearer`] orders first, so a replay aims where its recording did.

use crate::def::{ArchetypeId, GameDef};
use crate::math::Vec2;
use crate::math::{Least8, least8};
use crate::world::SimWorld;
use crate::world::components::{Identity, Position, vectors};

/// One firing trigger's aim: `(shooter seq, aim tags, shooter position, nearest target so far
/// as (squared distance, seq, position))`.
pub(super) type Aim = (u64, u64, Vec2, Option<Best>);

/// A candidate target: squared distance from the shooter, creation sequence, position.
pub(super) type Best = (f32, u64, Vec2);

/// Whether a candidate at squared distance `d` and sequence `seq` is nearer than `best`: the
/// smaller distance, a distance before none (a NaN, which no finite position gives), and of
/// two the same the lower sequence.
pub(super) fn nearer((d, seq): (f32, u64), (bd, bseq): (f32, u64)) -> bool {
    match (d.is_nan(), bd.is_nan()) {
        (false, false) => d < bd || (d == bd && seq < bseq),
        (false, true) => true,
        (true, false) => false,
        (true, true) => seq < bseq,
    }
}

/// The nearest other entity with one of `aim`'s tags, over every archetype's columns (see the
/// module documentation), kept in `aim.3` where there is one.
///
/// Apart (`inline(never)`): inlined into the Intent stage, its loops spilled their registers.
#[inline(never)]
pub(super) fn nearest_in_columns(world: &SimWorld, def: &GameDef, aim: &mut Aim) {
    let (shooter, wanted, from) = (aim.0, aim.1, aim.2);
    // None yet is a NaN distance and a sequence no entity has: `nearer` puts every candidate
    // before it, as before none.
    let mut best = aim.3.unwrap_or((f32::NAN, u64::MAX, Vec2::ZERO));
    for arch in world.ecs.archetypes_placed() {
        let (Some(ids), Some(pos)) = (arch.read::<Identity>(), arch.read::<Position>()) else {
            continue;
        };
        // Most hecs archetypes hold one game archetype: then it is one run, found with no
        // branch a row.
        let sole = Identity::sole(&ids).is_some();
        let mut start = 0;
        while start < ids.len() {
            let end = if sole {
                ids.len()
            } else {
                run_end(&ids, start)
            };
            if def.tags_of(ids[start].archetype) & wanted != 0 {
                let run = (&ids[start..end], &pos[start..end]);
                nearest_in_run(run, shooter, from, &mut best);
            }
            start = end;
        }
    }
    if best.1 != u64::MAX {
        aim.3 = Some(best);
    }
}

/// The end of the run of rows from `start` (within `ids`) of one game archetype.
fn run_end(ids: &[Identity], start: usize) -> usize {
    let a: ArchetypeId = ids[start].archetype;
    let rest = ids[start + 1..].iter().position(|i| i.archetype != a);
    rest.map_or(ids.len(), |k| start + 1 + k)
}

/// Offers `best` the nearest entity of a run (`ids` and `pos`, one length) other than
/// `shooter`, by squared distance from `from` (see the module documentation).
fn nearest_in_run(
    (ids, pos): (&[Identity], &[Position]),
    shooter: u64,
    from: Vec2,
    best: &mut Best,
) {
    // Per lane: the least distance met, its row, and whether a later row of the lane met it
    // again, with no branch a row (`least8`).
    let Least8 { least, row, tie } = least8(vectors(pos), from);
    let row = row.map(|r| r as usize);
    let m = least
        .iter()
        .fold(f32::INFINITY, |m, &d| if d < m { d } else { m });
    // The lanes that reached the run's least distance, each with one row at it.
    let at = (0..least.len()).filter(|&k| least[k] == m);
    let plain = m.is_finite() && at.clone().all(|k| !tie[k] && ids[row[k]].seq() != shooter);
    if !plain {
        return nearest_row_by_row((ids, pos), shooter, from, best);
    }
    for k in at {
        let seq = ids[row[k]].seq();
        if nearer((m, seq), (best.0, best.1)) {
            *best = (m, seq, pos[row[k]].0);
        }
    }
}

/// [`nearest_in_run`] one row at a time.
fn nearest_row_by_row(
    (ids, pos): (&[Identity], &[Position]),
    shooter: u64,
    from: Vec2,
    best: &mut Best,
) {
    for (id, t) in std::iter::zip(ids, pos) {
        let seq = id.seq();
        if seq == shooter {
            continue;
        }
        let d = (t.0 - from).length_squared();
        if nearer((d, seq), (best.0, best.1)) {
            *best = (d, seq, t.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ids(seqs: &[u64]) -> Vec<Identity> {
        seqs.iter()
            .map(|&seq| Identity::new(seq, ArchetypeId(0)))
            .collect()
    }

    fn at(points: &[(f32, f32)]) -> Vec<Position> {
        points
            .iter()
            .map(|&(x, y)| Position(Vec2::new(x, y)))
            .collect()
    }

    /// The run's answer in lanes and row by row, from no best yet.
    fn both(seqs: &[u64], points: &[(f32, f32)], shooter: u64) -> (Best, Best) {
        let (ids, pos) = (ids(seqs), at(points));
        let none = (f32::NAN, u64::MAX, Vec2::ZERO);
        let (mut lanes, mut rows) = (none, none);
        nearest_in_run((&ids, &pos), shooter, Vec2::ZERO, &mut lanes);
        nearest_row_by_row((&ids, &pos), shooter, Vec2::ZERO, &mut rows);
        (lanes, rows)
    }

    fn same(a: Best, b: Best) -> bool {
        let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
        a.0.to_bits() == b.0.to_bits() && a.1 == b.1 && bits(a.2) == bits(b.2)
    }

    #[test]
    fn a_run_gives_the_entity_nearer_orders_first() {
        let far = (100.0, 0.0);
        let inf = (f32::INFINITY, 0.0);
        let nan = (f32::NAN, 0.0);
        // (sequences, positions, shooter) -> the sequence aimed at (u64::MAX: none).
        type Case<'a> = (&'a [u64], &'a [(f32, f32)], u64, u64);
        let cases: [Case<'_>; 10] = [
            // Plain: one nearest, in any lane.
            (&[5, 6, 7], &[far, (3.0, 4.0), (1.0, 1.0)], 0, 7),
            // Past a whole chunk of eight.
            (&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], &[far; 10], 0, 1),
            (&[9, 2, 3, 4, 5, 6, 7, 8, 1, 10], &[far; 10], 0, 1),
            // Two rows at one distance in one lane (rows 1 and 9): the lower sequence.
            (
                &[1, 9, 3, 4, 5, 6, 7, 8, 10, 2],
                &[
                    far,
                    (1.0, 0.0),
                    far,
                    far,
                    far,
                    far,
                    far,
                    far,
                    far,
                    (0.0, 1.0),
                ],
                0,
                2,
            ),
            // The shooter's own row is nearest: the next one.
            (&[1, 2, 3], &[far, (0.0, 0.0), (2.0, 0.0)], 2, 3),
            // Only the shooter: none.
            (&[4], &[(0.0, 0.0)], 4, u64::MAX),
            // An infinite distance before a NaN one.
            (&[3, 2], &[nan, inf], 0, 2),
            // Only NaN distances: the lowest sequence.
            (&[3, 2, 8], &[nan, nan, nan], 0, 2),
            // A NaN among finite ones never wins.
            (&[1, 2], &[nan, far], 0, 2),
            // Empty.
            (&[], &[], 0, u64::MAX),
        ];
        for (seqs, points, shooter, want) in cases {
            let (lanes, rows) = both(seqs, points, shooter);
            assert_eq!(lanes.1, want, "{seqs:?} {points:?}");
            assert!(same(lanes, rows), "{seqs:?}: {lanes:?} against {rows:?}");
        }
    }

    proptest! {
        #[test]
        fn lanes_agree_with_rows(
            points in prop::collection::vec((-4i8..4, -4i8..4, 0u8..20), 0..40),
            shooter in 0u64..40,
        ) {
            // Few distinct coordinates: many ties; now and then a NaN or an infinity.
            let special = |v: i8, s: u8| match s {
                0 => f32::NAN,
                1 => f32::INFINITY,
                _ => f32::from(v),
            };
            let seqs: Vec<u64> = (0..points.len() as u64).map(|k| (k * 7) % 41).collect();
            let pts: Vec<(f32, f32)> =
                points.iter().map(|&(x, y, s)| (special(x, s), f32::from(y))).collect();
            let (lanes, rows) = both(&seqs, &pts, shooter);
            prop_assert!(same(lanes, rows), "{:?} against {:?}", lanes, rows);
        }
    }
}
