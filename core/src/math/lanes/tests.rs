//! Each loop over [`Packed`] against the same loop over [`Plain`] and against the scalar code
//! it stands for, bit for bit, on values that include walls, signed zeros, infinities, NaN and
//! the largest floats.

use super::*;

mod steps;

/// The cells of eight points (see [`Eight::cells`]).
fn cells8_by<L: Lanes>(p: &[Vec2; 8], lo: Vec2, inv: f32, grid: (u32, u32, u32)) -> [u32; 8] {
    Eight::<L>::load(p).cells::<false>(lo, inv, grid)
}

/// Bit-exact vectors (NaN equals NaN, -0 differs from +0).
fn bits(v: &[Vec2]) -> Vec<(u32, u32)> {
    v.iter().map(|v| (v.x.to_bits(), v.y.to_bits())).collect()
}

/// An ordinary value in -4..4 or, one time in `odds`, an edge case.
fn value(rng: &mut fastrand::Rng, odds: u8) -> f32 {
    let odd = [
        -2.0,
        2.0,
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        3.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MAX,
        -f32::MAX,
    ];
    if rng.u8(..odds) == 0 {
        odd[rng.usize(..odd.len())]
    } else {
        rng.f32() * 8.0 - 4.0
    }
}

fn vector(rng: &mut fastrand::Rng) -> Vec2 {
    Vec2::new(value(rng, 3), value(rng, 3))
}

#[test]
fn the_box_test_is_the_one_point_at_a_time_test() {
    let mut rng = fastrand::Rng::with_seed(8);
    let one_at_a_time = |p: &[Vec2; 8], lo: Vec2, hi: Vec2| {
        p.iter().enumerate().fold(0, |bits, (j, p)| {
            let inside = (lo.x <= p.x) & (p.x <= hi.x) & (lo.y <= p.y) & (p.y <= hi.y);
            bits | u32::from(inside) << j
        })
    };
    for _ in 0..20_000 {
        let (lo, hi) = (Vec2::new(-1.0, 0.0), Vec2::new(1.0, 2.5));
        let p: [Vec2; 8] = std::array::from_fn(|_| vector(&mut rng));
        let want = one_at_a_time(&p, lo, hi);
        assert_eq!(in_box8_by::<Packed>(&p, lo, hi), want, "{p:?}");
        assert_eq!(in_box8_by::<Plain>(&p, lo, hi), want, "{p:?}");
    }
    let p = [Vec2::new(-1.0, 2.5); 8];
    assert_eq!(in_box8(&p, Vec2::new(-1.0, 0.0), Vec2::new(1.0, 2.5)), 0xff);
}

/// Whether any word is a due deadline, four at a time and one at a time, against one word
/// at a time (`d <= tick && d != u64::MAX`): every length to 40, a due word anywhere or none,
/// words at the tick, one past it, inactive, and at the top of each half of the range (where
/// a signed compare would turn).
#[test]
fn any_due_is_one_word_at_a_time() {
    let mut rng = fastrand::Rng::with_seed(41);
    for round in 0..4_000 {
        let tick = [0, 1, 600, u64::MAX - 1, u64::MAX, 1 << 63, (1 << 63) - 1][round % 7];
        let n = rng.usize(0..41);
        let word = |rng: &mut fastrand::Rng| match rng.u8(..8) {
            0 => tick,
            1 => tick.wrapping_add(1),
            2 => u64::MAX,
            3 => 1 << 63,
            4 => (1 << 63) - 1,
            5 => 0,
            _ => rng.u64(..),
        };
        let words: Vec<u64> = (0..n).map(|_| word(&mut rng)).collect();
        let want = words.iter().any(|&d| d <= tick && d != u64::MAX);
        assert_eq!(any_due(&words, tick), want, "tick {tick}: {words:x?}");
        assert_eq!(any_due_rest(&words, tick), want, "tick {tick}: {words:x?}");
    }
}

#[test]
fn a_copy_says_whether_every_coordinate_is_finite() {
    // Odd and even lengths, one non-finite coordinate anywhere or none.
    for n in 0..12 {
        for bad in 0..=n * 2 {
            let mut src: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32, -(i as f32))).collect();
            if bad < n * 2 {
                let v = &mut src[bad / 2];
                let c = if bad % 2 == 0 { &mut v.x } else { &mut v.y };
                *c = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][bad % 3];
            }
            for (name, copy) in [
                (
                    "packed",
                    copy_finite_by::<Packed> as fn(&mut [Vec2], &[Vec2]) -> bool,
                ),
                ("plain", copy_finite_by::<Plain>),
            ] {
                let mut dst = vec![Vec2::new(9.0, 9.0); n];
                assert_eq!(
                    copy(&mut dst, &src),
                    bad == n * 2,
                    "{name}: n {n}, bad {bad}"
                );
                assert_eq!(bits(&dst), bits(&src), "{name}");
            }
            // And without the copy.
            let finite = bad == n * 2;
            assert_eq!(
                all_finite_by::<Packed>(&src),
                finite,
                "packed: n {n}, bad {bad}"
            );
            assert_eq!(
                all_finite_by::<Plain>(&src),
                finite,
                "plain: n {n}, bad {bad}"
            );
            assert_eq!(all_finite(&src), finite, "n {n}, bad {bad}");
        }
    }
}

#[test]
fn the_cells_are_the_one_point_at_a_time_cells() {
    let mut rng = fastrand::Rng::with_seed(31);
    for _ in 0..20_000 {
        // A box from `lo` some cells across, with the grid's sides powers of two.
        let lo = Vec2::new(rng.f32() * 2e3 - 1e3, rng.f32() * 2e3 - 1e3);
        let cell = [0.5, 1.0, 3.0, 40.0, 1e-3][rng.usize(..5)] * (0.5 + rng.f32());
        let inv = 1.0 / cell;
        let span = 1u32 << rng.u32(0..12);
        let hi = Vec2::new(lo.x + span as f32 * cell, lo.y + span as f32 * cell);
        let shift = rng.u32(6..13);
        let grid = ((1 << shift) - 1, (1 << rng.u32(6..13)) - 1, shift);
        // Points inside the box, its edges and corners among them.
        let p: [Vec2; 8] = std::array::from_fn(|_| {
            let t = |rng: &mut fastrand::Rng| match rng.u8(0..4) {
                0 => 0.0,
                1 => 1.0,
                _ => rng.f32(),
            };
            let (tx, ty) = (t(&mut rng), t(&mut rng));
            Vec2::new(lo.x + (hi.x - lo.x) * tx, lo.y + (hi.y - lo.y) * ty)
        });
        let one_at_a_time: [u32; 8] = std::array::from_fn(|j| {
            let p = p[j];
            if !(lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y) {
                return u32::MAX;
            }
            // SAFETY: inside a box under 2^31 cells across, each value is in 0..2^31.
            let (cx, cy) = unsafe {
                (
                    ((p.x - lo.x) * inv).to_int_unchecked::<i32>() as u32,
                    ((p.y - lo.y) * inv).to_int_unchecked::<i32>() as u32,
                )
            };
            ((cy & grid.1) << grid.2) | (cx & grid.0)
        });
        let inside = |c: [u32; 8]| {
            std::array::from_fn::<u32, 8, _>(|j| {
                if one_at_a_time[j] == u32::MAX {
                    u32::MAX
                } else {
                    c[j]
                }
            })
        };
        assert_eq!(
            inside(cells8_by::<Packed>(&p, lo, inv, grid)),
            one_at_a_time
        );
        assert_eq!(inside(cells8_by::<Plain>(&p, lo, inv, grid)), one_at_a_time);
    }
}

#[test]
fn floor_cells_are_the_one_point_at_a_time_floors_for_every_input() {
    let mut rng = fastrand::Rng::with_seed(47);
    // Whole numbers and halves near zero, values near 2^24 and either side of the ends of
    // `i32`, besides the odd values (NaN, infinities, the largest floats).
    let edge = [
        -2147483648.0,
        -2147483904.0,
        2147483648.0,
        2147483520.0,
        -2147483520.0,
        16777217.0,
        -16777215.5,
        -0.5,
        -1.0,
        0.999_999_9,
        -3e9,
        3e9,
        -1e30,
    ];
    let any = |rng: &mut fastrand::Rng| match rng.u8(0..4) {
        0 => edge[rng.usize(..edge.len())],
        1 => value(rng, 2),
        2 => rng.f32() * 2e3 - 1e3,
        _ => (rng.i32(-64..64) as f32) * 0.5,
    };
    for _ in 0..50_000 {
        let inv = [1.0, 0.25, 3.0, 1e-3, 1e30][rng.usize(..5)];
        let shift = rng.u32(2..13);
        let grid = ((1 << shift) - 1, (1 << rng.u32(2..13)) - 1, shift);
        let p: [Vec2; 4] = std::array::from_fn(|_| Vec2::new(any(&mut rng), any(&mut rng)));
        let one_at_a_time: [u32; 4] = std::array::from_fn(|j| {
            let (cx, cy) = (floor_i32(p[j].x * inv), floor_i32(p[j].y * inv));
            ((cy as u32 & grid.1) << grid.2) | (cx as u32 & grid.0)
        });
        assert_eq!(
            floor_cells4_by::<Packed>(&p, inv, grid),
            one_at_a_time,
            "{p:?} {inv}"
        );
        assert_eq!(
            floor_cells4_by::<Plain>(&p, inv, grid),
            one_at_a_time,
            "{p:?} {inv}"
        );
    }
}

#[test]
fn floor_is_the_floor_in_range_and_saturates_or_wraps_past_it() {
    let cases: [(f32, i32); 10] = [
        (0.0, 0),
        (-0.0, 0),
        (-0.5, -1),
        (1.5, 1),
        (-2.0, -2),
        (f32::NAN, 0),
        (3e9, i32::MAX),
        (f32::INFINITY, i32::MAX),
        (-2147483648.0, i32::MIN),
        // Below `i32`: the saturated minimum less one, wrapped.
        (-3e9, i32::MAX),
    ];
    for (v, want) in cases {
        assert_eq!(floor_i32(v), want, "{v}");
    }
}

#[test]
fn each_marked_calls_for_the_points_the_one_point_at_a_time_test_finds() {
    let mut rng = fastrand::Rng::with_seed(59);
    for _ in 0..2_000 {
        // A box of some cells across, a grid whose sides are powers of two, and marks.
        let lo = Vec2::new(rng.f32() * 200.0 - 100.0, rng.f32() * 200.0 - 100.0);
        let cell = [0.25, 1.0, 3.0, 7.5][rng.usize(..4)] * (0.5 + rng.f32());
        let inv = 1.0 / cell;
        let span = rng.u32(1..80) as f32 * cell;
        let hi = Vec2::new(lo.x + span, lo.y + span * (0.5 + rng.f32()));
        let shift = rng.u32(3..9);
        let rows = 1usize << rng.u32(3..9);
        let grid = ((1u32 << shift) - 1, rows as u32 - 1, shift);
        let cells = rows << shift;
        let density = [1, 8, 64][rng.usize(..3)];
        let bits: Vec<u8> = (0..cells)
            .map(|_| u8::from(rng.usize(..density) == 0))
            .collect();
        // Points inside the box (edges and corners among them), around it, and odd values.
        // Some runs with more hits than a batch keeps before handing them on.
        let n = if rng.u8(0..4) == 0 {
            rng.usize(250..700)
        } else {
            rng.usize(0..70)
        };
        let pos: Vec<Vec2> = (0..n)
            .map(|_| {
                let t = |rng: &mut fastrand::Rng| match rng.u8(0..6) {
                    0 => 0.0,
                    1 => 1.0,
                    2 => rng.f32() * 1.4 - 0.2,
                    _ => rng.f32(),
                };
                if rng.u8(0..8) == 0 {
                    vector(&mut rng)
                } else {
                    let (tx, ty) = (t(&mut rng), t(&mut rng));
                    Vec2::new(lo.x + (hi.x - lo.x) * tx, lo.y + (hi.y - lo.y) * ty)
                }
            })
            .collect();
        let want: Vec<usize> = (0..n)
            .filter(|&k| {
                let p = pos[k];
                if !(lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y) {
                    return false;
                }
                // SAFETY: inside a box under 2^31 cells across, each value is in 0..2^31.
                let (cx, cy) = unsafe {
                    (
                        ((p.x - lo.x) * inv).to_int_unchecked::<i32>() as u32,
                        ((p.y - lo.y) * inv).to_int_unchecked::<i32>() as u32,
                    )
                };
                bits[(((cy & grid.1) << grid.2) | (cx & grid.0)) as usize] != 0
            })
            .collect();
        // Every box here is under 2^22 cells: both ways of finding a cell hold.
        for small in [false, true] {
            let test = MarkTest {
                lo,
                hi,
                inv,
                grid,
                small,
            };
            let mut got = Vec::new();
            each_marked(&pos, &test, &bits, &mut |k| got.push(k));
            assert_eq!(got, want, "{test:?} {pos:?}");
            // Eight lanes with AVX2 and sixteen with AVX-512, each where the CPU has it.
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let avx512 = std::arch::is_x86_feature_detected!("avx512f");
                for sixteen in [false, true].into_iter().filter(|&s| !s || avx512) {
                    let mut got = Vec::new();
                    each_marked_wide(&pos, &test, &bits, &mut |k| got.push(k), sixteen);
                    assert_eq!(got, want, "sixteen lanes {sixteen}: {test:?} {pos:?}");
                }
            }
            let mut got = Vec::new();
            each_marked_by::<Packed>(&pos, &test, &bits, &mut |k| got.push(k));
            assert_eq!(got, want, "packed: {test:?} {pos:?}");
            let mut got = Vec::new();
            each_marked_by::<Plain>(&pos, &test, &bits, &mut |k| got.push(k));
            assert_eq!(got, want, "plain: {test:?} {pos:?}");
        }
    }
}

/// The browser's small cells (`Lanes::small_cell_index`): for a value in `0..2^22`, the low
/// 23 bits of its floor plus 2^23 are its truncation, under every mask below 2^23.
#[test]
fn small_cells_bits_are_the_truncation() {
    let mut rng = fastrand::Rng::with_seed(22);
    let top = 4_194_304.0f32;
    let edges = [
        0.0,
        -0.0,
        0.5,
        1.0,
        1.0 - f32::EPSILON / 2.0,
        top - 0.25,
        top - 1.0,
    ];
    for k in 0..200_000 {
        let v = match k {
            k if k < edges.len() => edges[k],
            k if k % 3 == 0 => rng.u32(..1 << 22) as f32,
            _ => rng.f32() * top,
        };
        assert!(v < top);
        let bits = (v.floor() + 8_388_608.0).to_bits();
        for mask in [(1 << 23) - 1, (1 << 22) - 1, 63, 0] {
            assert_eq!(bits & mask, (v as u32) & mask, "{v} under {mask:#x}");
        }
    }
}

#[test]
fn eight_velocities_are_the_scalar_products() {
    let mut rng = fastrand::Rng::with_seed(34);
    for _ in 0..5_000 {
        // A head's last two floats are any bits (a brain's word): never read.
        let heads: [[f32; 4]; 8] = std::array::from_fn(|_| {
            let v = vector(&mut rng);
            [v.x, v.y, f32::from_bits(rng.u32(..)), f32::NAN]
        });
        let by: [f32; 8] = std::array::from_fn(|_| value(&mut rng, 4).abs());
        let want: Vec<Vec2> = (0..8)
            .map(|k| Vec2::new(heads[k][0] * by[k], heads[k][1] * by[k]))
            .collect();
        let case = format!("{heads:?} {by:?}");
        let (mut packed, mut plain) = ([Vec2::ZERO; 8], [Vec2::ZERO; 8]);
        scale8_by::<Packed>(&mut packed, &heads, &by);
        scale8_by::<Plain>(&mut plain, &heads, &by);
        assert_eq!(bits(&packed), bits(&want), "packed, {case}");
        assert_eq!(bits(&plain), bits(&want), "plain, {case}");
        let mut public = [Vec2::ZERO; 8];
        scale8(&mut public, &heads, &by);
        assert_eq!(bits(&public), bits(&want), "{case}");
    }
}

#[test]
fn a_group_is_due_or_high_as_its_words_one_at_a_time_say() {
    let mut rng = fastrand::Rng::with_seed(55);
    let mask = (1u64 << 60) - 1;
    for round in 0..20_000 {
        // Words as a brain's: a kind code under 4 above 60 bits of tick, the ticks near `at`.
        let at = [0, 1, 59, 1 << 40, mask][round % 5];
        let records: [[u64; 2]; 8] = std::array::from_fn(|_| {
            let code = u64::from(rng.u8(..4)) << 60;
            let tick = match rng.u8(..4) {
                0 => at.saturating_add(rng.u64(0..3)).min(mask),
                1 => at.saturating_sub(rng.u64(0..3)),
                2 => rng.u64(..=mask),
                _ => 0,
            };
            [rng.u64(..), code | tick]
        });
        let top = [1u64 << 60, 2 << 60, 3 << 60, 1][round % 4];
        let high = records.iter().any(|r| r[1] >= top);
        // Every due record's bit, exactly none where none is due; the scalar lanes set all
        // eight where any is (the browser's set exactly the due ones: `.ci/web-test` checks
        // them through the state hash of 16,000 drones).
        let due = (0..8).fold(0, |bits, k| {
            bits | u32::from(records[k][1] & mask <= at) << k
        });
        let case = format!("round {round}: {records:?} at {at} top {top}");
        for (name, (h, may)) in [
            ("packed", Packed::top_or_at_most8(&records, mask, at, top)),
            ("plain", Plain::top_or_at_most8(&records, mask, at, top)),
        ] {
            assert_eq!(h, high, "{name}, {case}");
            assert_eq!(may & due, due, "{name}: a due record left out, {case}");
            assert_eq!(may == 0, due == 0, "{name}, {case}");
            assert!(may <= 0xFF, "{name}, {case}");
        }
        let plain = Plain::top_or_at_most8(&records, mask, at, top).1;
        assert_eq!(plain, if due != 0 { 0xFF } else { 0 }, "plain, {case}");
    }
}

#[test]
fn eight_reaches_are_the_one_at_a_time_reaches() {
    let mut rng = fastrand::Rng::with_seed(89);
    for round in 0..20_000 {
        let xs: [f32; 8] = std::array::from_fn(|_| value(&mut rng, 6));
        let ys: [f32; 8] = std::array::from_fn(|_| value(&mut rng, 6));
        let reach: [f32; 8] = std::array::from_fn(|_| value(&mut rng, 6).abs());
        // Some bodies exactly on a querier's reach.
        let b = if round % 7 == 0 {
            Vec2::new(xs[3] + reach[3] + 1.0, ys[3])
        } else {
            vector(&mut rng)
        };
        let extent = [1.0, 0.0, 0.5, f32::NAN, f32::INFINITY][round % 5];
        let want = (0..8).fold(0, |bits, k| {
            let (dx, dy) = (b.x - xs[k], b.y - ys[k]);
            let r = reach[k] + extent;
            bits | u32::from(dx * dx + dy * dy < r * r) << k
        });
        let case = format!("round {round}: {xs:?} {ys:?} {reach:?} {b:?} {extent}");
        assert_eq!(
            within8_by::<Packed>(&xs, &ys, &reach, b, extent),
            want,
            "packed, {case}"
        );
        assert_eq!(
            within8_by::<Plain>(&xs, &ys, &reach, b, extent),
            want,
            "plain, {case}"
        );
    }
}

#[test]
fn each_lanes_least_distance_is_the_one_row_at_a_time_least() {
    let mut rng = fastrand::Rng::with_seed(97);
    for round in 0..20_000 {
        // Points of a small palette now and then, so that lanes meet one distance twice.
        let palette: [Vec2; 3] = std::array::from_fn(|_| vector(&mut rng));
        let pos: Vec<Vec2> = (0..rng.usize(..40))
            .map(|_| match rng.u8(..4) {
                0 => palette[rng.usize(..3)],
                _ => Vec2::new(value(&mut rng, 8), value(&mut rng, 8)),
            })
            .collect();
        let from = if round % 5 == 0 {
            palette[0]
        } else {
            vector(&mut rng)
        };
        let mut want = Least8 {
            least: [f32::INFINITY; 8],
            row: [0; 8],
            tie: [false; 8],
        };
        for (i, p) in pos.iter().enumerate() {
            let (k, d) = (i % 8, (*p - from).length_squared());
            let (less, equal) = (d < want.least[k], d == want.least[k]);
            want.tie[k] = (want.tie[k] & !less) | equal;
            if less {
                (want.least[k], want.row[k]) = (d, i as u32);
            }
        }
        let exact = |l: &Least8| (l.least.map(f32::to_bits), l.row, l.tie);
        let case = format!("round {round}: {pos:?} from {from:?}");
        assert_eq!(
            exact(&least8_by::<Packed>(&pos, from)),
            exact(&want),
            "packed, {case}"
        );
        assert_eq!(
            exact(&least8_by::<Plain>(&pos, from)),
            exact(&want),
            "plain, {case}"
        );
    }
}
