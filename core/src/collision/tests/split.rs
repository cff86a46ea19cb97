//! The plan's marks test split between two threads.

use super::*;

/// A run long enough that the plan splits its marks test, with another run of near bodies
/// after it or before it: the search reads the near bodies as one list in collider order
/// (the worker's part kept apart where no later run has any), so split or not it finds the
/// same pairs in the same order, and stops where the serial search does.
#[test]
fn a_split_marks_test_keeps_the_near_bodies_in_order() {
    // Cells wider than a querier: the queriers are small and the search sparse.
    const CELL: Option<f32> = Some(16.0);
    let mut rng = fastrand::Rng::with_seed(21);
    let mut crowd = |archetype: u16, n: u64, seq: u64| -> Vec<Spec> {
        (0..n)
            .map(|i| {
                let (x, y) = (rng.f32() * 300.0 - 150.0, rng.f32() * 300.0 - 150.0);
                let mut b = body(seq + i, x, y, 2.0, false, 2, 0);
                b.archetype = archetype;
                b
            })
            .collect()
    };
    let long = crowd(0, NEAR_SPLIT_MIN as u64 + 500, 1_000);
    let short = crowd(3, 400, 100_000);
    let queriers: Vec<Spec> = [(0.0, 0.0), (60.0, -40.0), (-100.0, 75.0), (20.0, 130.0)]
        .into_iter()
        .enumerate()
        .map(|(k, (x, y))| {
            let mut q = body(k as u64 + 1, x, y, 6.0, false, 1, 2);
            q.archetype = 1;
            q
        })
        .collect();
    for short_first in [false, true] {
        let bodies: Vec<Spec> = match short_first {
            false => [&queriers[..], &long, &short].concat(),
            true => [&queriers[..], &short, &long].concat(),
        };
        let mut serial = Broadphase::default();
        let all = (usize::MAX, u64::MAX, usize::MAX);
        assert_eq!(serial.find_pairs_by(&bodies, CELL, all, false), Ok(()));
        assert!(serial.pairs.len() > 20, "{} pairs", serial.pairs.len());
        let mut split = Broadphase::default();
        assert_eq!(
            split.find_pairs_by(&bodies, CELL, (usize::MAX, u64::MAX, 0), false),
            Ok(())
        );
        assert_eq!(split.pairs, serial.pairs, "short run first: {short_first}");
        if crate::par::available() {
            // Only the long run's second part, and only where it comes last, is left apart.
            assert_eq!(split.near_second.is_empty(), !short_first);
        }
        // Under a budget that runs out part of the way, both stop alike.
        for budget in [50, 400, 2_000] {
            let mut a = Broadphase::default();
            let mut b = Broadphase::default();
            let want = a.find_pairs_by(&bodies, CELL, (usize::MAX, budget, usize::MAX), false);
            assert_eq!(
                b.find_pairs_by(&bodies, CELL, (usize::MAX, budget, 0), false),
                want
            );
            if want.is_ok() {
                assert_eq!(a.pairs, b.pairs);
            }
        }
    }
}

/// Where motion's pass split a span's rows, as the passes after it split their lists: the
/// first collider of the worker's stretch of the longest span that split, none where no
/// span split, and none again once a tick begins.
#[test]
fn the_worker_moved_from_the_largest_split_span() {
    let mut bp = Broadphase::default();
    let spans = |bp: &mut Broadphase, spans: &[(usize, usize)]| {
        bp.begin();
        for (arch, &(n, mid)) in spans.iter().enumerate() {
            let (a, b) = bp.stretches(n, mid, arch);
            let (a, b) = (a.finish(), b.finish());
            bp.join(a, b);
        }
        bp.moved_from()
    };
    // (rows, this thread's rows) of each span, in collider order.
    type Spans<'a> = &'a [(usize, usize)];
    let cases: [(Spans<'_>, Option<u32>); 5] = [
        (&[(5, 5), (9_000, 9_000)], None),
        (&[(5, 5), (9_000, 4_000)], Some(4_005)),
        (&[(10_000, 6_000), (9_000, 4_000)], Some(6_000)),
        (&[(5, 5), (9_000, 4_000), (12_000, 5_000)], Some(14_005)),
        // After a tick that split.
        (&[], None),
    ];
    for (spans_of, want) in cases {
        assert_eq!(spans(&mut bp, spans_of), want, "{spans_of:?}");
    }
}
