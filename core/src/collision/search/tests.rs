//! The search's tests: what is surely apart, and the noted scan against the body-by-body one.

use super::*;

/// Shapes and places where `apart` could be wrong: touching, grazing within an ulp, tiny
/// and huge sizes, far and near, every pairing of circle and box.
#[test]
fn apart_only_where_the_narrow_phase_finds_no_overlap() {
    let mut rng = fastrand::Rng::with_seed(37);
    let size = |rng: &mut fastrand::Rng| match rng.u8(0..4) {
        0 => rng.f32() * 1e-3 + 1e-6,
        1 => rng.f32() * 64.0 + 0.5,
        2 => rng.f32() * 1e6 + 1.0,
        _ => f32::from_bits(rng.u32(0x3f00_0000..0x4400_0000)),
    };
    let shape = |rng: &mut fastrand::Rng| {
        if rng.bool() {
            Shape::Circle { radius: size(rng) }
        } else {
            Shape::Box {
                half: Vec2::new(size(rng), size(rng)),
            }
        }
    };
    let (mut apart_seen, mut near_seen) = (0, 0);
    for _ in 0..400_000 {
        let (sa, sb) = (shape(&mut rng), shape(&mut rng));
        let pa = Vec2::new(rng.f32() * 2e3 - 1e3, rng.f32() * 2e3 - 1e3);
        let (ha, hb) = (sa.half_extents(), sb.half_extents());
        // Around the distance where the bounding boxes meet, by up to a few ulps or 1%.
        let reach = Vec2::new(ha.x + hb.x, ha.y + hb.y);
        let nudge = |r: f32, rng: &mut fastrand::Rng| match rng.u8(0..3) {
            0 => f32::from_bits((r.to_bits() as i64 + rng.i64(-4..5)).max(0) as u32),
            1 => r * (0.99 + rng.f32() * 0.02),
            _ => r * rng.f32() * 3.0,
        };
        let sign = |rng: &mut fastrand::Rng| if rng.bool() { 1.0 } else { -1.0 };
        let d = Vec2::new(
            sign(&mut rng) * nudge(reach.x, &mut rng),
            sign(&mut rng) * nudge(reach.y, &mut rng),
        );
        let pb = pa + d;
        if apart(sa, pa, sb, pb) {
            apart_seen += 1;
            assert_eq!(
                overlap(sa, pa, sb, pb),
                None,
                "{sa:?} at {pa:?}, {sb:?} at {pb:?}"
            );
        } else {
            near_seen += 1;
        }
    }
    assert!(
        apart_seen > 50_000 && near_seen > 50_000,
        "{apart_seen} {near_seen}"
    );
    // What is not surely apart is left to the narrow phase: NaN and infinite places.
    let c = Shape::Circle { radius: 2.0 };
    for p in [Vec2::new(f32::NAN, 0.0), Vec2::new(0.0, f32::NAN)] {
        assert!(!apart(c, Vec2::ZERO, c, p));
    }
    let inf = Vec2::new(f32::INFINITY, 0.0);
    assert!(apart(c, Vec2::ZERO, c, inf));
    assert_eq!(overlap(c, Vec2::ZERO, c, inf), None);
}

impl Broadphase {
    /// The bucket scan of the planned colliders, as the search runs it (noted, for a uniform
    /// crowd) and body by body: each one's pairs, why it stopped, and the candidates it spent.
    fn both_scans(
        &mut self,
        max_pairs: usize,
        budget: u64,
    ) -> [(Vec<Pair>, Option<Overflow>, u64); 2] {
        let (grid, sparse) = self.bin().expect("a plan");
        let space = self.space();
        assert!(!sparse && super::uniform(space.runs));
        let run = |noted: bool| {
            let mut pairs = Vec::new();
            let mut found = Found::new(&mut pairs, max_pairs, budget);
            if noted {
                space.half_scan(&grid, 0..grid.rows, &mut found);
            } else {
                space.scan::<true>(&grid, 0..grid.rows, 0, &mut found);
            }
            let (stop, work) = (found.stop, found.work);
            (pairs, stop, work)
        };
        [run(true), run(false)]
    }
}

proptest::proptest! {
    /// A crowd of one size (spread out, or piled up past what the notes hold), found noted and
    /// body by body: the same pairs in the same order, stopping for the same reason, and
    /// (unless the pairs ran out, after which the noted scan may have spent buckets it had
    /// not tested yet) having spent the same candidates.
    #[test]
    fn the_noted_scan_finds_and_stops_as_the_body_by_body_one(
        spread in proptest::collection::vec((-150.0f32..150.0, -150.0f32..150.0), 0..300),
        piles in proptest::collection::vec((-150.0f32..150.0, -150.0f32..150.0, 1usize..40), 0..4),
        radius in 0.5f32..8.0,
        max_pairs in 0usize..400,
        budget in proptest::prop_oneof![0u64..30_000, proptest::strategy::Just(u64::MAX)],
    ) {
        let mut places = spread;
        for (x, y, n) in piles {
            places.extend((0..n).map(|k| (x + k as f32 * 0.01, y - k as f32 * 0.02)));
        }
        let mut bp = Broadphase {
            flags: vec![Flags { mask: 1, ..Flags::default() }],
            ..Broadphase::default()
        };
        bp.begin();
        for &(x, y) in &places {
            bp.add(crate::def::ArchetypeId(0), Vec2::new(x, y), Shape::Circle { radius }, 1, 1);
        }
        bp.plan(None, false, &[]);
        if bp.grid.is_none() {
            return Ok(());
        }
        let [noted, by_body] = bp.both_scans(max_pairs, budget);
        proptest::prop_assert_eq!(&noted.0, &by_body.0);
        proptest::prop_assert_eq!(noted.1, by_body.1);
        if noted.1 != Some(Overflow::Pairs) {
            proptest::prop_assert_eq!(noted.2, by_body.2);
        }
    }
}
