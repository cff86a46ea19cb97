//! The entities a spawn may attach to, and the one nearest a point (see
//! [`SimWorld::attach_spawned`](crate::world::SimWorld::attach_spawned)).
//!
//! The answer is defined by a scan ([`nearest_by_scan`]): the candidate nearest the point by
//! squared distance as `f32`, ties to the earliest created, among those `keep` accepts. Few
//! asks scan; many search a tree that gives the same answer in about `log n` steps per ask
//! however the candidates lie: spread out, crowded into a corner, or many on one spot (those
//! are one node, its entities in creation order).

use crate::math::Vec2;
use crate::spatial::Entry;
use std::cmp::Ordering;

/// Candidates for one tag set: scanned when few spawns ask, else a tree.
pub(crate) enum Candidates {
    Scan(Vec<Entry>),
    Tree(Tree),
}

/// Spawns that look for one tag set before its entities go in a tree.
pub(crate) const SCAN_ASKS: usize = 8;

impl Candidates {
    /// `found` in creation order; `asks` the spawns that will ask.
    pub(crate) fn new(found: Vec<Entry>, asks: usize) -> Candidates {
        // A position that is not finite makes the scan's comparisons fail in its own way
        // (a NaN distance is never beaten): such candidates are only ever scanned.
        if asks <= SCAN_ASKS || found.iter().any(|e| !e.pos.is_finite()) {
            return Candidates::Scan(found);
        }
        Candidates::Tree(Tree::new(&found))
    }

    /// The candidate nearest `here` that `keep` accepts (see the module documentation).
    pub(crate) fn nearest(&self, here: Vec2, keep: impl Fn(u64) -> bool) -> Option<u64> {
        match self {
            Candidates::Tree(tree) if here.is_finite() => tree.nearest(here, &keep),
            Candidates::Tree(tree) => nearest_by_scan(&tree.in_order(), here, keep),
            Candidates::Scan(found) => nearest_by_scan(found, here, keep),
        }
    }
}

/// The entity of `found` (in creation order) nearest `here` that `keep` accepts, ties to the
/// earliest: the answer a tree must give.
pub(crate) fn nearest_by_scan(
    found: &[Entry],
    here: Vec2,
    keep: impl Fn(u64) -> bool,
) -> Option<u64> {
    let mut best: Option<(f32, u64)> = None;
    for e in found {
        let d = (e.pos - here).length_squared();
        if best.is_none_or(|(bd, _)| d < bd) && keep(e.seq) {
            best = Some((d, e.seq));
        }
    }
    best.map(|(_, s)| s)
}

/// The entities at one position, in creation order: `seqs[first..first + len]`.
#[derive(Clone, Copy, Debug)]
struct Spot {
    pos: Vec2,
    first: u32,
    len: u32,
}

/// Distinct finite positions in an implicit k-d tree: in each range the middle spot splits
/// the rest by x (at even depths) or y (odd), those at or below its coordinate before it,
/// those at or above after it.
pub(crate) struct Tree {
    spots: Vec<Spot>,
    seqs: Vec<u64>,
}

/// A coordinate's bits, with `-0.0` and `0.0` as one (their distances to any point are the
/// same).
fn key(v: f32) -> u32 {
    (v + 0.0).to_bits()
}

/// Two finite coordinates in order.
fn axis(a: f32, b: f32) -> Ordering {
    a.partial_cmp(&b).unwrap_or(Ordering::Equal)
}

impl Tree {
    /// `found` in creation order, every position finite.
    fn new(found: &[Entry]) -> Tree {
        let mut order: Vec<u32> = (0..found.len() as u32).collect();
        // By position, then creation order (the sort is stable; `-0.0` and `0.0` are equal).
        order.sort_by(|&a, &b| {
            let (p, q) = (found[a as usize].pos, found[b as usize].pos);
            axis(p.x, q.x).then(axis(p.y, q.y))
        });
        let mut spots: Vec<Spot> = Vec::new();
        let mut seqs = Vec::with_capacity(found.len());
        for i in order {
            let e = &found[i as usize];
            match spots.last_mut() {
                Some(s) if key(s.pos.x) == key(e.pos.x) && key(s.pos.y) == key(e.pos.y) => {
                    s.len += 1
                }
                _ => spots.push(Spot {
                    pos: e.pos,
                    first: seqs.len() as u32,
                    len: 1,
                }),
            }
            seqs.push(e.seq);
        }
        let n = spots.len();
        arrange(&mut spots, 0, n, 0);
        Tree { spots, seqs }
    }

    /// Every candidate, in creation order (for a scan).
    fn in_order(&self) -> Vec<Entry> {
        let mut all: Vec<Entry> = self
            .spots
            .iter()
            .flat_map(|s| {
                self.seqs[s.first as usize..(s.first + s.len) as usize]
                    .iter()
                    .map(move |&seq| Entry {
                        seq,
                        tags: 0,
                        pos: s.pos,
                    })
            })
            .collect();
        all.sort_by_key(|e| e.seq);
        all
    }

    fn nearest(&self, here: Vec2, keep: &dyn Fn(u64) -> bool) -> Option<u64> {
        self.nearest_counted(here, keep).0
    }

    /// [`nearest`](Self::nearest), with the spots it looked at.
    fn nearest_counted(&self, here: Vec2, keep: &dyn Fn(u64) -> bool) -> (Option<u64>, usize) {
        let mut best: Option<(f32, u64)> = None;
        let mut looked = 0;
        // Ranges still to search, each with its depth and how far `here` is from the region
        // its splits bound along each axis (a lower bound, as `f32` rounds, on how far any of
        // its spots is); a range whose region is farther than the best is skipped when its
        // turn comes.
        let mut stack: Vec<(usize, usize, usize, f32, f32)> =
            vec![(0, self.spots.len(), 0, 0.0, 0.0)];
        while let Some((lo, hi, depth, ox, oy)) = stack.pop() {
            if lo >= hi || best.is_some_and(|(bd, _)| ox * ox + oy * oy > bd) {
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            let s = self.spots[mid];
            looked += 1;
            self.visit(s, (s.pos - here).length_squared(), keep, &mut best);
            let x = depth % 2 == 0;
            let diff = if x {
                here.x - s.pos.x
            } else {
                here.y - s.pos.y
            };
            let (near, far) = if diff < 0.0 {
                ((lo, mid), (mid + 1, hi))
            } else {
                ((mid + 1, hi), (lo, mid))
            };
            // Every spot of the far side is at least `diff` away along this axis.
            let (fx, fy) = if x {
                (ox.max(diff.abs()), oy)
            } else {
                (ox, oy.max(diff.abs()))
            };
            stack.push((far.0, far.1, depth + 1, fx, fy));
            stack.push((near.0, near.1, depth + 1, ox, oy));
        }
        (best.map(|(_, s)| s), looked)
    }

    /// The first entity at `s` that `keep` accepts, if it beats `best` (`d2` away).
    fn visit(&self, s: Spot, d2: f32, keep: &dyn Fn(u64) -> bool, best: &mut Option<(f32, u64)>) {
        for &seq in &self.seqs[s.first as usize..(s.first + s.len) as usize] {
            let better = match *best {
                None => true,
                Some((bd, bs)) => d2 < bd || (d2 == bd && seq < bs),
            };
            if !better {
                // The rest come later: no better.
                return;
            }
            if keep(seq) {
                *best = Some((d2, seq));
                return;
            }
        }
    }
}

/// Arranges `spots[lo..hi]` as a k-d tree at `depth` (see [`Tree`]).
fn arrange(spots: &mut [Spot], lo: usize, hi: usize, depth: usize) {
    // An explicit stack: a tree of many spots is deep.
    let mut stack = vec![(lo, hi, depth)];
    while let Some((lo, hi, depth)) = stack.pop() {
        if hi - lo < 2 {
            continue;
        }
        let mid = lo + (hi - lo) / 2;
        let by = |a: &Spot, b: &Spot| -> Ordering {
            if depth % 2 == 0 {
                axis(a.pos.x, b.pos.x)
            } else {
                axis(a.pos.y, b.pos.y)
            }
        };
        spots[lo..hi].select_nth_unstable_by(mid - lo, by);
        stack.push((lo, mid, depth + 1));
        stack.push((mid + 1, hi, depth + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SeqSet;

    /// Random points in creation order: many on a few shared spots, some on signed zeros,
    /// some crowded into a square a thousandth of a unit wide, some far out.
    fn points(rng: &mut fastrand::Rng, n: usize) -> Vec<Entry> {
        let spots: Vec<Vec2> = (0..4)
            .map(|_| Vec2::new(rng.f32() * 100.0, rng.f32() * 100.0))
            .collect();
        let zero = |rng: &mut fastrand::Rng| if rng.bool() { -0.0 } else { 0.0 };
        (0..n)
            .map(|i| {
                let pos = match rng.u8(..12) {
                    0..=2 => spots[rng.usize(..spots.len())],
                    3 => Vec2::new(rng.f32() * 1e6 - 5e5, rng.f32() * 3e4),
                    4 => Vec2::new(zero(rng), zero(rng)),
                    5 | 6 => Vec2::new(50.0 + rng.f32() * 1e-3, 50.0 + rng.f32() * 1e-3),
                    _ => Vec2::new(rng.f32() * 400.0 - 200.0, rng.f32() * 300.0),
                };
                Entry {
                    seq: 1 + i as u64 * 3,
                    tags: 0,
                    pos,
                }
            })
            .collect()
    }

    #[test]
    fn a_tree_of_candidates_answers_as_a_scan_of_them() {
        let mut rng = fastrand::Rng::with_seed(37);
        for round in 0..80 {
            let n = [0, 1, 2, 9, 40, 300, 1000, 17][round % 8];
            let found = points(&mut rng, n);
            let tree = Candidates::new(found.clone(), SCAN_ASKS + 1);
            assert!(matches!(tree, Candidates::Tree(_)));
            for _ in 0..60 {
                let here = match rng.u8(..6) {
                    0 if n > 0 => found[rng.usize(..n)].pos,
                    1 => Vec2::new(rng.f32() * 4e6 - 2e6, rng.f32() * 4e6 - 2e6),
                    2 => Vec2::new(-0.0, 0.0),
                    3 => Vec2::new(50.0 + rng.f32() * 2e-3, 50.0 - rng.f32() * 1e-3),
                    _ => Vec2::new(rng.f32() * 500.0 - 250.0, rng.f32() * 400.0 - 50.0),
                };
                // Some refused: sometimes none, sometimes most (the first at a shared spot
                // among them).
                let share = [0, 4, 2][rng.usize(..3)];
                let refused: SeqSet = found
                    .iter()
                    .filter(|_| share > 0 && rng.u8(..share) != 0)
                    .map(|e| e.seq)
                    .collect();
                let keep = |s: u64| !refused.contains(&s);
                assert_eq!(
                    tree.nearest(here, keep),
                    nearest_by_scan(&found, here, keep),
                    "{n} points, from {here:?}"
                );
            }
        }
    }

    /// Not finite: scanned, as the scan answers (a NaN distance is never beaten).
    #[test]
    fn points_that_are_not_finite_are_scanned() {
        let at = |seq, x, y| Entry {
            seq,
            tags: 0,
            pos: Vec2::new(x, y),
        };
        let found = vec![at(1, 5.0, 5.0), at(2, f32::NAN, 0.0), at(3, 0.0, 0.0)];
        let c = Candidates::new(found.clone(), 100);
        assert!(matches!(c, Candidates::Scan(_)));
        let c = Candidates::new(vec![at(1, 5.0, 5.0), at(3, 0.0, 0.0)], 100);
        assert_eq!(c.nearest(Vec2::new(f32::NAN, 1.0), |_| true), Some(1));
        assert_eq!(c.nearest(Vec2::new(1.0, 1.0), |_| true), Some(3));
    }

    /// However crowded, a search looks at few spots: 20,000 entities on one spot, 20,000 in
    /// a square a thousandth of a unit wide, and one far away (a grid of cells sized to the
    /// whole spread put the 40,000 in one cell, and looked at every one for every ask).
    #[test]
    fn crowded_candidates_are_found_in_few_steps() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut found: Vec<Entry> = Vec::new();
        for i in 0..40_000u64 {
            let pos = if i % 2 == 0 {
                Vec2::new(7.0, 7.0)
            } else {
                Vec2::new(rng.f32() * 1e-3, rng.f32() * 1e-3)
            };
            found.push(Entry {
                seq: i + 1,
                tags: 0,
                pos,
            });
        }
        found.push(Entry {
            seq: 40_001,
            tags: 0,
            pos: Vec2::new(1e7, -1e7),
        });
        let Candidates::Tree(tree) = Candidates::new(found.clone(), 40_001) else {
            panic!("a tree");
        };
        let mut most = 0;
        for _ in 0..200 {
            let here = Vec2::new(rng.f32() * 20.0 - 5.0, rng.f32() * 20.0 - 5.0);
            let (got, looked) = tree.nearest_counted(here, &|_| true);
            assert_eq!(
                got,
                nearest_by_scan(&found, here, |_| true),
                "from {here:?}"
            );
            most = most.max(looked);
        }
        // Many of the crowded square are as far as each other in `f32` from a point units
        // away (ties, to the earliest): the search looks among those, not at every spot.
        assert!(
            most * 20 <= tree.spots.len(),
            "looked at {most} spots of {}",
            tree.spots.len()
        );
    }
}
