//! Broadphase tests: the grid against all-pairs testing.

use super::*;
use crate::collision::body::Flags;
use crate::collision::narrow::overlap;
use crate::def::{ArchetypeId, Shape};
use crate::world::components::Position;
use proptest::prelude::*;

mod kinds;
mod split;

/// A collider as a test gives it.
#[derive(Clone, Copy, Debug)]
struct Spec {
    seq: u64,
    archetype: u16,
    pos: Vec2,
    shape: Shape,
    layer: u32,
    mask: u32,
}

impl Broadphase {
    /// The whole search over `specs` (for tests): each (archetype, layer, mask) combination
    /// is an archetype of its own, as in a game, where layers and masks are an archetype's.
    fn find_pairs(
        &mut self,
        specs: &[Spec],
        fixed_cell: Option<f32>,
        max_pairs: usize,
        budget: u64,
        split_from: usize,
    ) -> Result<(), Overflow> {
        self.find_pairs_by(specs, fixed_cell, (max_pairs, budget, split_from), false)
    }

    /// [`find_pairs`](Self::find_pairs), recording the colliders as a fused motion pass does
    /// where `left`: consecutive colliders of one archetype as a span, every other span's
    /// positions left in a column of their own.
    fn find_pairs_by(
        &mut self,
        specs: &[Spec],
        fixed_cell: Option<f32>,
        (max_pairs, budget, split_from): (usize, u64, usize),
        left: bool,
    ) -> Result<(), Overflow> {
        let mut kinds: Vec<(u16, u32, u32)> = Vec::new();
        let mut kind = |s: &Spec| {
            let k = (s.archetype, s.layer, s.mask);
            let at = kinds.iter().position(|&x| x == k).unwrap_or_else(|| {
                kinds.push(k);
                kinds.len() - 1
            });
            ArchetypeId(at as u16)
        };
        let archetypes: Vec<ArchetypeId> = specs.iter().map(&mut kind).collect();
        // Archetype 2 is static: its bodies do not set the plan's cell.
        self.flags = kinds
            .iter()
            .map(|&(archetype, _, mask)| Flags {
                mask,
                fixed: archetype == 2,
                ..Flags::default()
            })
            .collect();
        self.begin();
        let mut columns: Vec<Vec<Vec2>> = Vec::new();
        if left {
            let mut i = 0;
            while i < specs.len() {
                let a = archetypes[i];
                let group = archetypes[i..].iter().take_while(|&&b| b == a).count();
                // Now and then one archetype's colliders in two spans side by side (two hecs
                // archetypes of one declared archetype), or its last few added one by one after
                // its span: no run may reach across either edge.
                let (halved, added) = match columns.len() % 3 {
                    1 if group >= 2 => (group / 2, 0),
                    2 if group >= 3 => (group, group / 3),
                    _ => (group, 0),
                };
                let n = halved - added;
                // Every other span left, whatever the plan before guessed.
                let (arch, leave) = (columns.len(), columns.len().is_multiple_of(2));
                if self.leave.len() <= arch {
                    self.leave.resize(arch + 1, false);
                }
                self.leave[arch] = leave;
                let (mut stretch, _) = self.stretches(n, n, arch);
                // Consecutive colliders of one shape at once, as a pass's uniform rows are.
                let mut k = i;
                while k < i + n {
                    let s = &specs[k];
                    let same = specs[k..i + n].iter().take_while(|t| t.shape == s.shape);
                    let pos: Vec<Position> = same.map(|t| Position(t.pos)).collect();
                    // Their finiteness told, as a step that moved them tells it, every other
                    // time; else found by the stretch.
                    let finite = k
                        .is_multiple_of(2)
                        .then(|| pos.iter().all(|p| p.0.is_finite()));
                    stretch.extend(a, s.shape, s.layer, s.mask, &pos, finite);
                    k += pos.len();
                }
                let runs = stretch.finish();
                self.join(runs, Vec::new());
                let column = specs[i..i + n].iter().map(|s| s.pos);
                columns.push(if leave { column.collect() } else { Vec::new() });
                for s in &specs[i + n..i + n + added] {
                    self.add(a, s.pos, s.shape, s.layer, s.mask);
                }
                i += n + added;
            }
        } else {
            for (s, &a) in specs.iter().zip(&archetypes) {
                self.add(a, s.pos, s.shape, s.layer, s.mask);
            }
        }
        let cols: Vec<&[Vec2]> = columns.iter().map(|c| &c[..]).collect();
        // A search that splits from 0 plans on two threads too (a long run's marks test).
        self.plan(fixed_cell, split_from == 0, &cols);
        self.search(max_pairs, budget, split_from)?;
        self.want();
        for &k in &self.wanted_list.clone() {
            let s = &specs[k as usize];
            self.fill(
                k as usize,
                Body {
                    id: u32::MAX,
                    seq: s.seq,
                    archetype: archetypes[k as usize],
                    pos: s.pos,
                    trigger: false,
                    phys: Body::PLAIN,
                },
            );
        }
        self.finish(usize::MAX);
        Ok(())
    }
}

fn body(seq: u64, x: f32, y: f32, r: f32, boxed: bool, layer: u32, mask: u32) -> Spec {
    Spec {
        seq,
        archetype: 0,
        pos: Vec2::new(x, y),
        shape: if boxed {
            Shape::Box {
                half: Vec2::new(r, r * 0.5),
            }
        } else {
            Shape::Circle { radius: r }
        },
        layer,
        mask,
    }
}

fn brute(bodies: &[Spec]) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for i in 0..bodies.len() {
        for j in i + 1..bodies.len() {
            let (a, b) = (&bodies[i], &bodies[j]);
            let looks = a.mask & b.layer != 0 || b.mask & a.layer != 0;
            if looks && overlap(a.shape, a.pos, b.shape, b.pos).is_some() {
                out.push((a.seq.min(b.seq), a.seq.max(b.seq)));
            }
        }
    }
    out.sort_unstable();
    out
}

proptest! {
    /// The grid finds exactly the pairs an all-pairs test finds, each once, in key order;
    /// with a chosen cell or the automatic one, with mixed masks or one mask per layer (so
    /// whole layers leave their queries to a smaller layer).
    #[test]
    fn grid_matches_brute_force(
        specs in proptest::collection::vec(
            (-200.0f32..200.0, -200.0f32..200.0, 0.5f32..12.0, any::<bool>(), 0u32..4, 0u32..16, 0u8..20),
            0..120,
        ),
        layer_masks in proptest::collection::vec(0u32..16, 4),
        uniform in any::<bool>(),
        cell in proptest::option::of(4.0f32..40.0),
    ) {
        let bodies: Vec<Spec> = specs
            .iter()
            .enumerate()
            .map(|(i, &(x, y, r, boxed, layer, mask, big))| {
                // A few bodies far larger than a cell exercise the large list.
                let r = if big == 0 { r * 10.0 } else { r };
                let (layer, mask) = if uniform {
                    (1 << layer, layer_masks[layer as usize])
                } else {
                    (layer.max(1), mask)
                };
                let mut b = body(i as u64 * 3 + 1, x, y, r, boxed, layer, mask);
                b.archetype = (i % 3) as u16;
                b
            })
            .collect();
        let mut bp = Broadphase::default();
        prop_assert_eq!(bp.find_pairs(&bodies, cell, usize::MAX, u64::MAX, usize::MAX), Ok(()));
        let found: Vec<(u64, u64)> = bp.pairs.iter().filter(|p| p.report).map(|p| bp.seqs(p)).collect();
        prop_assert_eq!(found, brute(&bodies));
        // The bucket scan split between two threads finds the same pairs, in the same order.
        let mut halves = Broadphase::default();
        prop_assert_eq!(halves.find_pairs(&bodies, cell, usize::MAX, u64::MAX, 0), Ok(()));
        prop_assert_eq!(&halves.pairs, &bp.pairs);
        // So do positions left in their columns.
        let mut left = Broadphase::default();
        let limits = (usize::MAX, u64::MAX, usize::MAX);
        prop_assert_eq!(left.find_pairs_by(&bodies, cell, limits, true), Ok(()));
        prop_assert_eq!(&left.pairs, &bp.pairs);
    }

    /// A crowd of one size and one layer that looks at itself (one reach for every pair of
    /// candidates), of circles or of boxes, some far apart: the pairs an all-pairs test finds.
    #[test]
    fn a_crowd_of_one_size_matches_brute_force(
        specs in proptest::collection::vec((-80.0f32..80.0, -80.0f32..80.0), 0..200),
        boxed in any::<bool>(),
        far in 0usize..4,
    ) {
        let bodies: Vec<Spec> = specs
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| {
                let (x, y) = if i < far { (x * 1e4, y * 1e4) } else { (x, y) };
                body(i as u64 + 1, x, y, 3.0, boxed, 1, 1)
            })
            .collect();
        for split_from in [usize::MAX, 0] {
            let mut bp = Broadphase::default();
            prop_assert_eq!(bp.find_pairs(&bodies, None, usize::MAX, u64::MAX, split_from), Ok(()));
            let found: Vec<(u64, u64)> = bp.pairs.iter().map(|p| bp.seqs(p)).collect();
            prop_assert_eq!(found, brute(&bodies));
        }
    }

    /// Under tight bounds on pairs and candidates a split search stops exactly where, and
    /// why, the serial one does, and otherwise finds the same pairs: bodies of many sizes, or
    /// of one (whose scan notes its candidates first).
    #[test]
    fn a_split_search_stops_where_the_serial_one_does(
        specs in proptest::collection::vec((-60.0f32..60.0, -60.0f32..60.0, 0.5f32..8.0), 0..150),
        one_size in any::<bool>(),
        max_pairs in 0usize..60,
        budget in 0u64..1_500,
    ) {
        let bodies: Vec<Spec> = specs
            .iter()
            .enumerate()
            .map(|(i, &(x, y, r))| {
                let r = if one_size { specs[0].2 } else { r };
                body(i as u64 + 1, x, y, r, false, 1, 1)
            })
            .collect();
        let (mut serial, mut split) = (Broadphase::default(), Broadphase::default());
        let want = serial.find_pairs(&bodies, None, max_pairs, budget, usize::MAX);
        prop_assert_eq!(split.find_pairs(&bodies, None, max_pairs, budget, 0), want);
        if want.is_ok() {
            prop_assert_eq!(&split.pairs, &serial.pairs);
        }
        prop_assert!(split.pairs.capacity() + split.pairs_second.capacity() <= max_pairs + max_pairs / 2);
        prop_assert!(split.pairs_second.capacity() <= max_pairs / 2);
    }
}

proptest! {
    /// A crowd that looks at nothing among queriers that look at it (a sparse search: a few
    /// queriers, tested side by side, or many, by the buckets around): under tight bounds on
    /// pairs and candidates, a search whose near bodies are split between two threads stops
    /// exactly where, and why, the serial one does, and otherwise finds the same pairs.
    #[test]
    fn a_split_sparse_search_stops_where_the_serial_one_does(
        crowd in proptest::collection::vec((-60.0f32..60.0, -60.0f32..60.0), 0..300),
        queriers in proptest::collection::vec((-60.0f32..60.0, -60.0f32..60.0, 2.0f32..9.0), 1..14),
        max_pairs in 0usize..80,
        budget in proptest::prop_oneof![0u64..2_000, proptest::strategy::Just(u64::MAX)],
    ) {
        let mut bodies: Vec<Spec> = crowd
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| body(i as u64 + 100, x, y, 2.0, false, 2, 0))
            .collect();
        for (k, &(x, y, r)) in queriers.iter().enumerate() {
            let mut q = body(k as u64 + 1, x, y, r, false, 1, 2);
            q.archetype = 1;
            bodies.push(q);
        }
        let (mut serial, mut split) = (Broadphase::default(), Broadphase::default());
        let want = serial.find_pairs(&bodies, None, max_pairs, budget, usize::MAX);
        prop_assert_eq!(split.find_pairs(&bodies, None, max_pairs, budget, 0), want);
        if want.is_ok() {
            prop_assert_eq!(&split.pairs, &serial.pairs);
        }
        prop_assert!(split.pairs_second.capacity() <= max_pairs / 2 + 1);
        // The crowd's positions left in their column: the same, split or not.
        for split_from in [usize::MAX, 0] {
            let mut left = Broadphase::default();
            let limits = (max_pairs, budget, split_from);
            prop_assert_eq!(left.find_pairs_by(&bodies, None, limits, true), want);
            if want.is_ok() {
                prop_assert_eq!(&left.pairs, &serial.pairs);
            }
        }
    }
}

#[test]
fn a_few_queriers_among_a_crowd_find_the_same_pairs() {
    // 2000 bodies that look at nothing, three that look at them, two large walls.
    let mut rng = fastrand::Rng::with_seed(9);
    let mut bodies = Vec::new();
    for i in 0..2000u64 {
        bodies.push(body(
            i + 10,
            rng.f32() * 400.0 - 200.0,
            rng.f32() * 400.0 - 200.0,
            3.0,
            false,
            2,
            0,
        ));
    }
    for (k, (x, y)) in [(0.0, 0.0), (50.0, 50.0), (-120.0, 80.0)]
        .into_iter()
        .enumerate()
    {
        let mut q = body(k as u64 + 1, x, y, 10.0, false, 1, 2 | 4);
        q.archetype = 1;
        bodies.push(q);
    }
    for (k, x) in [-60.0f32, 90.0].into_iter().enumerate() {
        let mut w = body(5000 + k as u64, x, 0.0, 40.0, true, 4, 0);
        w.archetype = 2;
        bodies.push(w);
    }
    finds_the_same_pairs(&bodies, 20);
}

#[test]
fn eight_queriers_side_by_side_and_nine_by_bucket_find_the_same_pairs() {
    // Up to eight queriers are tested all at once, from nine by the buckets around: both
    // find what an all-pairs test finds, among a crowd that looks at nothing.
    for queriers in [1, 7, 8, 9, 12] {
        let mut rng = fastrand::Rng::with_seed(queriers);
        let mut bodies = Vec::new();
        for i in 0..1500u64 {
            let (x, y) = (rng.f32() * 300.0 - 150.0, rng.f32() * 300.0 - 150.0);
            bodies.push(body(i + 100, x, y, 3.0, false, 2, 0));
        }
        for k in 0..queriers {
            let (x, y) = (rng.f32() * 240.0 - 120.0, rng.f32() * 240.0 - 120.0);
            let mut q = body(k + 1, x, y, 6.0 + k as f32, false, 1, 2 | 4);
            q.archetype = 1 + k as u16 % 3;
            bodies.push(q);
        }
        finds_the_same_pairs(&bodies, 3);
    }
}

/// With the automatic cell, the broadphase reports exactly the pairs an all-pairs test finds,
/// and there are more than `least` of them.
fn finds_the_same_pairs(bodies: &[Spec], least: usize) {
    let mut bp = Broadphase::default();
    assert_eq!(
        bp.find_pairs(bodies, None, usize::MAX, u64::MAX, usize::MAX),
        Ok(())
    );
    let found: Vec<(u64, u64)> = bp
        .pairs
        .iter()
        .filter(|p| p.report)
        .map(|p| bp.seqs(p))
        .collect();
    let expected = brute(bodies);
    let mut halves = Broadphase::default();
    assert_eq!(
        halves.find_pairs(bodies, None, usize::MAX, u64::MAX, 0),
        Ok(())
    );
    assert_eq!(halves.pairs, bp.pairs, "split between two threads");
    // Positions left in their columns, read there by a fresh broadphase and by one that has
    // seen them and leaves them next time.
    let mut left = Broadphase::default();
    for _ in 0..2 {
        let limits = (usize::MAX, u64::MAX, usize::MAX);
        assert_eq!(left.find_pairs_by(bodies, None, limits, true), Ok(()));
        assert_eq!(left.pairs, bp.pairs, "positions left in their columns");
    }
    assert!(
        expected.len() > least,
        "the scene has contacts: {}",
        expected.len()
    );
    assert_eq!(found, expected);
}

/// A querier at each of `centres`, each among `each` small bodies within `spread` of it.
fn clusters(seed: u64, centres: &[(f32, f32)], each: u64, spread: f32) -> Vec<Spec> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut bodies = Vec::new();
    for (k, &(cx, cy)) in centres.iter().enumerate() {
        let mut q = body(k as u64 + 1, cx, cy, 10.0, false, 1, 2);
        q.archetype = 1;
        bodies.push(q);
        for i in 0..each {
            bodies.push(body(
                100 + k as u64 * 1000 + i,
                cx + (rng.f32() - 0.5) * 2.0 * spread,
                cy + (rng.f32() - 0.5) * 2.0 * spread,
                3.0,
                false,
                2,
                0,
            ));
        }
    }
    bodies
}

#[test]
fn queriers_far_apart_find_the_same_pairs() {
    // Three queriers so far apart that the cells of their box outnumber the marks, which wrap:
    // bodies in cells that share a mark with a querier's are looked up and rejected.
    let centres = [(-50_000.0, -30_000.0), (0.0, 0.0), (48_000.0, 52_000.0)];
    finds_the_same_pairs(&clusters(4, &centres, 300, 60.0), 10);
}

#[test]
fn queriers_billions_of_cells_apart_find_the_same_pairs() {
    // A box more than 2^31 cells across: a body's cell is found by the saturating conversion
    // there, by a plain truncation in a box that fits; both find what an all-pairs test finds.
    let centres = [(-3.0e10, 0.0), (0.0, 0.0), (3.0e10, 1.0e4)];
    finds_the_same_pairs(&clusters(5, &centres, 200, 30.0), 10);
}

/// One broadphase reused tick after tick, as the tick reuses it (more or fewer colliders
/// than the tick before, dense grids and sparse ones in turn, with and without large bodies),
/// finds what a fresh one finds each tick: nothing of an earlier tick's records, keys or marks
/// is read.
#[test]
fn a_reused_broadphase_finds_what_a_fresh_one_does() {
    let mut rng = fastrand::Rng::with_seed(41);
    let (mut reused, mut left) = (Broadphase::default(), Broadphase::default());
    let (mut dense_ticks, mut sparse_ticks) = (0, 0);
    for tick in 0..80 {
        let n = rng.usize(0..500);
        let (dense, big) = (rng.bool(), rng.bool());
        let mut bodies: Vec<Spec> = (0..n)
            .map(|i| {
                let (x, y) = (rng.f32() * 200.0 - 100.0, rng.f32() * 200.0 - 100.0);
                // Dense: every small body looks for the others; sparse: one in fifty does.
                // The large ones look for nothing, so the cell stays the small bodies'.
                if big && i % 97 == 5 {
                    return body(i as u64 + 1, x, y, 40.0, false, 1, 0);
                }
                let mask = u32::from(dense || i % 50 == 0);
                body(i as u64 + 1, x, y, 3.0, false, 1, mask)
            })
            .collect();
        // Now and then a body that is not anywhere.
        if n > 0 && tick % 7 == 3 {
            let odd = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][tick % 3];
            bodies[rng.usize(..n)].pos.x = odd;
        }
        let mut fresh = Broadphase::default();
        let want = fresh.find_pairs(&bodies, None, usize::MAX, u64::MAX, usize::MAX);
        let got = reused.find_pairs(&bodies, None, usize::MAX, u64::MAX, usize::MAX);
        assert_eq!(got, want, "tick {tick}");
        // Compared as printed: a NaN depth equals itself there.
        let printed = |bp: &Broadphase| format!("{:?}", bp.pairs);
        assert_eq!(printed(&reused), printed(&fresh), "tick {tick}");
        assert_eq!(reused.wanted_list, fresh.wanted_list, "tick {tick}");
        // Reused with positions left in their columns (as the tick before allowed).
        let limits = (usize::MAX, u64::MAX, usize::MAX);
        let got = left.find_pairs_by(&bodies, None, limits, true);
        assert_eq!(got, want, "tick {tick}, left");
        assert_eq!(printed(&left), printed(&fresh), "tick {tick}, left");
        assert_eq!(left.wanted_list, fresh.wanted_list, "tick {tick}, left");
        if let Some((_, sparse)) = fresh.grid {
            if sparse {
                sparse_ticks += 1;
            } else {
                dense_ticks += 1;
            }
        }
    }
    assert!(
        dense_ticks > 20 && sparse_ticks > 20,
        "{dense_ticks} {sparse_ticks}"
    );
}

/// Over ticks of random pairs among a changing number of colliders (few pairs and many, so
/// both of `want`'s ways), the wanted colliders are exactly those in a pair, listed ascending,
/// and each one's body is its place in the list (none for the others): nothing of an earlier
/// tick's bits is left.
#[test]
fn a_wanted_colliders_body_is_its_place_among_the_wanted() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut bp = Broadphase::default();
    for tick in 0..300 {
        let n = rng.usize(1..3000);
        let pairs = match tick % 3 {
            0 => rng.usize(0..4),
            1 => rng.usize(0..n / 64 + 2),
            _ => rng.usize(n / 64..n / 8 + 64),
        };
        bp.count = n;
        bp.pairs.clear();
        for _ in 0..pairs {
            // Now and then a collider in many pairs (a player under a pile).
            let i = if rng.u32(0..4) == 0 {
                0
            } else {
                rng.u32(0..n as u32)
            };
            let pair = Pair {
                i,
                j: rng.u32(0..n as u32),
                report: true,
                push: false,
                trigger: false,
                stay: false,
                normal: Vec2::ZERO,
                depth: 0.0,
            };
            bp.pairs.push(pair);
        }
        bp.want();
        let mut want: Vec<u32> = bp.pairs.iter().flat_map(|p| [p.i, p.j]).collect();
        want.sort_unstable();
        want.dedup();
        assert_eq!(
            bp.wanted_list, want,
            "tick {tick}: {n} colliders, {pairs} pairs"
        );
        for k in 0..n {
            let place = want.binary_search(&(k as u32)).ok();
            assert_eq!(bp.body_of(k), place, "tick {tick}: collider {k}");
        }
    }
}

/// `add_all` of a group of colliders of one kind leaves the broadphase as one `add` a
/// collider does: the same runs (merged with the run before where it takes them) and
/// positions, whatever the kinds, positions (some not finite) and group sizes.
#[test]
fn adding_a_group_at_once_is_adding_its_colliders_one_by_one() {
    let mut rng = fastrand::Rng::with_seed(83);
    let shapes = [
        Shape::Circle { radius: 4.0 },
        Shape::Circle { radius: 9.5 },
        Shape::Box {
            half: Vec2::new(3.0, 7.0),
        },
    ];
    let (mut one, mut all) = (Broadphase::default(), Broadphase::default());
    for _ in 0..400 {
        one.begin();
        all.begin();
        for _ in 0..rng.usize(0..12) {
            let (a, shape) = (ArchetypeId(rng.u16(0..3)), shapes[rng.usize(..3)]);
            let (layer, looks) = (1 << rng.u32(0..2), rng.u32(0..3));
            let pos: Vec<Vec2> = (0..rng.usize(1..40))
                .map(|_| match rng.u8(0..20) {
                    0 => Vec2::new(f32::NAN, 1.0),
                    1 => Vec2::new(f32::INFINITY, 0.0),
                    _ => Vec2::new(rng.f32() * 500.0, rng.f32() * 500.0),
                })
                .collect();
            pos.iter().for_each(|&p| one.add(a, p, shape, layer, looks));
            all.add_all(a, &pos, shape, layer, looks);
        }
        assert_eq!((one.count, one.held), (all.count, all.held));
        assert_eq!(format!("{:?}", one.runs), format!("{:?}", all.runs));
        let held = |b: &Broadphase| format!("{:?}", &b.pos[..b.held]);
        assert_eq!(held(&one), held(&all));
    }
}
