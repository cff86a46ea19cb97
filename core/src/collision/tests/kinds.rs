//! Bucket scans that pass over the buckets whose kinds say no pair can be (`Bins::kinds`):
//! the pairs, and where and why a search stops, of the scan that tests every bucket.

use super::*;

/// `n` bodies of four layers: most on layer 1, looking only at layer 2 (bullets that look for
/// a player), some on layer 2 (looking at nothing), the rest on layers 4 and 8 with their own
/// masks (some of which look at their own layer), every body a circle or a box of its size.
fn scene(seed: u64, n: usize, spread: f32) -> Vec<Spec> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|i| {
            let (x, y) = (rng.f32() * spread, rng.f32() * spread);
            let (layer, mask, archetype) = match rng.u8(0..10) {
                0..=5 => (1, 2, 0),
                6 => (2, 0, 1),
                7 => (4, [0, 4, 8][rng.usize(0..3)], 2),
                _ => (8, [0, 1, 2][rng.usize(0..3)], 3),
            };
            let r = [1.5, 3.0, 6.0][rng.usize(0..3)];
            let mut b = body(i as u64 * 2 + 1, x, y, r, rng.bool(), layer, mask);
            b.archetype = archetype;
            b
        })
        .collect()
}

/// The search over `bodies` with the kinds and without, under `limits` (pairs, candidates,
/// bodies from which the bucket scan splits): the same outcome, and where it finds its pairs,
/// the same pairs in the same order.
fn same_search(bodies: &[Spec], limits: (usize, u64, usize)) -> Result<(), Overflow> {
    let (mut with, mut without) = (Broadphase::default(), Broadphase::default());
    without.no_kinds = true;
    let want = without.find_pairs_by(bodies, None, limits, false);
    assert_eq!(
        with.find_pairs_by(bodies, None, limits, false),
        want,
        "{limits:?}"
    );
    if want.is_ok() {
        assert_eq!(with.pairs, without.pairs, "{limits:?}");
    }
    want
}

#[test]
fn a_scan_passing_over_buckets_finds_every_pair_of_one_testing_all() {
    for (seed, n, spread) in [
        (1, 300, 400.0),
        (2, 700, 300.0),
        (3, 1200, 900.0),
        (4, 260, 60.0),
    ] {
        let bodies = scene(seed, n, spread);
        finds_the_same_pairs(&bodies, 1);
        let mut bp = Broadphase::default();
        let limits = (usize::MAX, u64::MAX, usize::MAX);
        assert_eq!(bp.find_pairs_by(&bodies, None, limits, false), Ok(()));
        // The kinds were filled: a dense scan of bodies whose runs differ.
        assert!(!bp.bins.kinds.is_empty(), "seed {seed}");
        for split_from in [usize::MAX, 0] {
            same_search(&bodies, (usize::MAX, u64::MAX, split_from)).unwrap();
        }
    }
}

#[test]
fn a_scan_passing_over_buckets_stops_where_and_why_one_testing_all_does() {
    let bodies = scene(5, 500, 250.0);
    let mut outcomes = [0; 3];
    for max_pairs in [0, 3, 40, usize::MAX] {
        for budget in [0, 10, 500, 3_000, 20_000, 100_000, u64::MAX] {
            for split_from in [usize::MAX, 0] {
                let k = match same_search(&bodies, (max_pairs, budget, split_from)) {
                    Ok(()) => 0,
                    Err(Overflow::Work) => 1,
                    Err(_) => 2,
                };
                outcomes[k] += 1;
            }
        }
    }
    // Every outcome among the cases: found, stopped for work, stopped for pairs.
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}

/// Contacts where the narrow phase picks a side (two boxes exactly aligned on an axis, two
/// circles on one centre) come out the same, normals included, whatever the grid's cell (so
/// whichever way the search meets them): a pair is tested from the collider added first.
#[test]
fn a_contact_is_the_same_whichever_way_the_search_meets_it() {
    let mut bodies = Vec::new();
    for k in 0..40u64 {
        let (x, y) = ((k % 8) as f32 * 53.0 - 200.0, (k / 8) as f32 * 61.0 - 150.0);
        // Boxes 10 by 5 (half 5, 2.5) on one vertical line, 3 apart: aligned in x.
        bodies.push(body(4 * k + 1, x, y, 5.0, true, 1, 1));
        bodies.push(body(4 * k + 2, x, y + 3.0, 5.0, true, 1, 1));
        // Two circles on one centre, beside them; added in either order.
        let (a, b) = if k % 2 == 0 { (3, 4) } else { (4, 3) };
        bodies.push(body(4 * k + a, x + 20.0, y, 2.0, false, 1, 1));
        bodies.push(body(4 * k + b, x + 20.0, y, 3.0, false, 1, 1));
    }
    let mut first = Broadphase::default();
    assert_eq!(
        first.find_pairs(&bodies, None, usize::MAX, u64::MAX, usize::MAX),
        Ok(())
    );
    assert_eq!(first.pairs.len(), 80, "every aligned pair touches");
    for cell in [3.0, 4.5, 7.0, 11.0, 16.0, 33.0, 100.0, 1000.0] {
        let mut bp = Broadphase::default();
        assert_eq!(
            bp.find_pairs(&bodies, Some(cell), usize::MAX, u64::MAX, usize::MAX),
            Ok(())
        );
        assert_eq!(bp.pairs, first.pairs, "cell {cell}");
    }
}

/// 700 bullets whose masks name the ships' layer find the pairs, normals included, that
/// four ships whose masks name the bullets' find: the ships look on the bullets' behalf
/// (the search is then the sparse one, the three small ships its only queriers, the large
/// one tested against every bullet).
#[test]
fn a_crowd_looking_at_a_few_finds_what_the_few_looking_at_it_find() {
    let mut rng = fastrand::Rng::with_seed(11);
    let scene = |bullets_look: bool, rng: &mut fastrand::Rng| -> Vec<Spec> {
        let (bullet_mask, ship_mask) = if bullets_look { (2, 0) } else { (0, 1) };
        let mut out: Vec<Spec> = (0..700)
            .map(|i| {
                let (x, y) = (rng.f32() * 300.0, rng.f32() * 300.0);
                body(i * 2 + 1, x, y, 3.0, i % 5 == 0, 1, bullet_mask)
            })
            .collect();
        // The fourth ship is larger than a cell: a large body, which looks as it was lent.
        for k in 0..4 {
            let r = if k == 3 { 40.0 } else { 9.0 };
            let (x, boxed) = (60.0 + 90.0 * k as f32, k == 1);
            let mut ship = body(2 * k + 2, x, 150.0, r, boxed, 2, ship_mask);
            ship.archetype = 1 + u16::from(k == 3);
            out.push(ship);
        }
        out
    };
    let seed = rng.u64(..);
    let (crowd, few) = (
        scene(true, &mut fastrand::Rng::with_seed(seed)),
        scene(false, &mut fastrand::Rng::with_seed(seed)),
    );
    let (mut a, mut b) = (Broadphase::default(), Broadphase::default());
    let limits = (usize::MAX, u64::MAX, usize::MAX);
    assert_eq!(a.find_pairs_by(&crowd, None, limits, false), Ok(()));
    assert_eq!(b.find_pairs_by(&few, None, limits, false), Ok(()));
    assert!(a.pairs.len() > 5, "{} pairs", a.pairs.len());
    assert_eq!(a.pairs, b.pairs);
    assert_eq!(
        a.queriers.len(),
        3,
        "the small ships look, the bullets do not"
    );
    assert_eq!(a.large.len(), 1, "the large ship");
    let found: Vec<(u64, u64)> = a.pairs.iter().map(|p| a.seqs(p)).collect();
    assert_eq!(found, brute(&crowd));
}
