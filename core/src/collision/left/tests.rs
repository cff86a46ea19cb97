//! Positions left in their columns: read from the right place wherever the broadphase holds
//! the others', and taking no room in it.

use super::POS_MIN;
use crate::collision::body::Flags;
use crate::collision::narrow::overlap;
use crate::collision::{Body, Broadphase};
use crate::def::{ArchetypeId, Shape};
use crate::math::Vec2;
use crate::world::components::Position;

/// How a test's archetype records its colliders this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kept {
    /// One by one (`Broadphase::add`), outside any span.
    Added,
    /// In a span whose positions are copied in.
    Copied,
    /// In a span that leaves its positions in its column.
    Left,
    /// In a span, left or copied as the plan before learnt.
    Guessed,
}

/// One archetype's colliders, all of one shape, layer and mask.
struct Group {
    kept: Kept,
    pos: Vec<Vec2>,
    shape: Shape,
    layer: u32,
    mask: u32,
}

fn group(kept: Kept, pos: Vec<Vec2>, radius: f32, layer: u32, mask: u32) -> Group {
    Group {
        kept,
        pos,
        shape: Shape::Circle { radius },
        layer,
        mask,
    }
}

/// `n` points 10 apart in rows of `per_row`, the first at `from`.
fn rows(n: usize, per_row: usize, from: Vec2) -> Vec<Vec2> {
    (0..n)
        .map(|k| from + Vec2::new((k % per_row) as f32 * 10.0, (k / per_row) as f32 * 10.0))
        .collect()
}

/// One tick of `bp` over `groups` in order, archetype `k` the `k`th (by id and by place); a
/// span's colliders filled in two stretches, as on two threads. The pairs found, as collider
/// indices, in canonical order (creation sequences are collider indices plus one); checked
/// against an all-pairs test.
fn tick(bp: &mut Broadphase, groups: &[Group]) -> Vec<(u32, u32)> {
    bp.flags = (groups.iter())
        .map(|g| Flags {
            mask: g.mask,
            ..Flags::default()
        })
        .collect();
    bp.begin();
    let mut columns: Vec<&[Vec2]> = Vec::new();
    for (k, g) in groups.iter().enumerate() {
        let arch = ArchetypeId(k as u16);
        if g.kept == Kept::Added {
            for &p in &g.pos {
                bp.add(arch, p, g.shape, g.layer, g.mask);
            }
            continue;
        }
        if g.kept != Kept::Guessed {
            if bp.leave.len() <= k {
                bp.leave.resize(k + 1, false);
            }
            bp.leave[k] = g.kept == Kept::Left;
        }
        let all: Vec<Position> = g.pos.iter().map(|&p| Position(p)).collect();
        let mid = all.len() / 2;
        let (mut a, mut b) = bp.stretches(all.len(), mid, k);
        // The first half's finiteness told, as a step that moved it tells it; the second's
        // found by its stretch.
        let told = all[..mid].iter().all(|p| p.0.is_finite());
        a.extend(arch, g.shape, g.layer, g.mask, &all[..mid], Some(told));
        b.extend(arch, g.shape, g.layer, g.mask, &all[mid..], None);
        let (ra, rb) = (a.finish(), b.finish());
        bp.join(ra, rb);
        let left = bp.spans().last().is_some_and(|s| s.left);
        columns.push(if left { &g.pos } else { &[] });
    }
    bp.plan(None, false, &columns);
    assert_eq!(bp.search(usize::MAX, u64::MAX, usize::MAX), Ok(()));
    bp.want();
    let every: Vec<(usize, &Group, Vec2)> = (groups.iter().enumerate())
        .flat_map(|(k, g)| g.pos.iter().map(move |&p| (k, g, p)))
        .collect();
    for &i in &bp.wanted_list.clone() {
        let (k, _, pos) = every[i as usize];
        let body = Body {
            id: u32::MAX,
            seq: u64::from(i) + 1,
            archetype: ArchetypeId(k as u16),
            pos,
            trigger: false,
            phys: Body::PLAIN,
        };
        bp.fill(i as usize, body);
    }
    bp.finish(usize::MAX);
    let found: Vec<(u32, u32)> = (bp.pairs.iter())
        .map(|p| bp.seqs(p))
        .map(|(lo, hi)| (lo as u32 - 1, hi as u32 - 1))
        .collect();
    let mut brute = Vec::new();
    for (i, &(_, a, pa)) in every.iter().enumerate() {
        for (j, &(_, b, pb)) in every.iter().enumerate().skip(i + 1) {
            let looks = a.mask & b.layer != 0 || b.mask & a.layer != 0;
            if looks && overlap(a.shape, pa, b.shape, pb).is_some() {
                brute.push((i as u32, j as u32));
            }
        }
    }
    assert_eq!(found, brute, "the pairs an all-pairs test finds");
    found
}

/// Where a dense search copies in a span left between held ones, after them, every run still
/// reads its own positions: those held before the span, after it, and one by one after those.
#[test]
fn a_span_left_between_held_ones_is_read_where_it_is_brought() {
    let p = Vec2::new;
    let groups = [
        // Colliders 0..4.
        group(Kept::Copied, rows(4, 4, p(0.0, 0.0)), 1.0, 1, 1),
        // 4..10: a crowd that looks for nothing, each under one querier, the other way round.
        group(
            Kept::Left,
            [
                (30.0, 1.5),
                (20.0, 1.5),
                (10.0, 1.5),
                (0.0, 1.5),
                (10.0, 21.5),
                (30.0, 18.5),
            ]
            .map(|(x, y)| p(x, y))
            .to_vec(),
            1.0,
            1,
            0,
        ),
        // 10..14.
        group(Kept::Copied, rows(4, 4, p(0.0, 20.0)), 1.0, 1, 1),
        // 14..17.
        group(
            Kept::Added,
            vec![p(30.0, 1.0), p(50.0, 50.0), p(0.0, 18.8)],
            1.0,
            1,
            1,
        ),
    ];
    let mut bp = Broadphase::default();
    let want = [
        (0, 7),
        (1, 6),
        (2, 5),
        (3, 4),
        (3, 14),
        (4, 14),
        (8, 11),
        (9, 13),
        (10, 16),
    ];
    assert_eq!(tick(&mut bp, &groups), want);
    // Dense: the crowd was copied in, after the others' 11.
    assert!(matches!(bp.grid, Some((_, false))));
    assert_eq!((bp.held, bp.runs[1].at), (17, 11));
}

/// A sparse search: a crowd left in its column between held ones is read there, for its
/// marks; an archetype guessed to leave its positions that looks this tick is copied in.
#[test]
fn a_left_crowd_is_read_in_its_column_and_a_left_querier_copied_in() {
    let p = Vec2::new;
    let groups = [
        // 0..300, then 300..600 left, each a crowd that looks for nothing.
        group(Kept::Copied, rows(300, 20, p(0.0, 0.0)), 1.0, 2, 0),
        group(Kept::Left, rows(300, 20, p(5.0, 5.0)), 1.0, 2, 0),
        // 600..603: left, but looking.
        group(
            Kept::Left,
            vec![p(52.5, 52.5), p(102.5, 2.5), p(147.5, 142.5)],
            4.0,
            4,
            2,
        ),
        // 603.
        group(Kept::Added, vec![p(0.0, 0.0)], 2.0, 1, 2),
    ];
    let mut bp = Broadphase::default();
    let want = [
        (0, 603),
        (10, 601),
        (105, 600),
        (295, 602),
        (310, 601),
        (405, 600),
        (594, 602),
    ];
    assert_eq!(tick(&mut bp, &groups), want);
    assert!(matches!(bp.grid, Some((_, true))));
    // The crowd left in its column takes no room; the queriers were copied in after the rest.
    assert_eq!(bp.held, 304);
    let at: Vec<u32> = bp.runs.iter().map(|r| r.at).collect();
    assert_eq!(at, [0, super::LEFT, 301, 300]);
    assert_eq!(bp.pos.len(), 304);
}

/// A large body that looks tests every body by index: a crowd left in its column is copied
/// in for it.
#[test]
fn a_large_body_that_looks_reads_a_left_crowd_copied_in() {
    let p = Vec2::new;
    let wall = Group {
        kept: Kept::Copied,
        pos: vec![p(-30.0, 45.0)],
        shape: Shape::Box { half: p(40.0, 6.0) },
        layer: 4,
        mask: 2,
    };
    let groups = [
        group(Kept::Added, vec![p(0.0, -20.0), p(5.0, 45.0)], 1.0, 2, 0),
        group(Kept::Left, rows(100, 10, p(0.0, 0.0)), 1.0, 2, 0),
        wall,
    ];
    let mut bp = Broadphase::default();
    let want = [(1, 102), (42, 102), (43, 102), (52, 102), (53, 102)];
    assert_eq!(tick(&mut bp, &groups), want);
    assert_eq!(bp.large.len(), 1);
    assert_eq!((bp.held, bp.runs[1].at), (103, 3));
}

/// Tick after tick: a crowd copied in on the first tick, left in its column from the second
/// (its room given back), copied in again on the tick it starts looking, and then copied by
/// its pass; the same pairs each tick.
#[test]
fn a_crowd_left_after_the_first_tick_gives_its_room_back() {
    let p = Vec2::new;
    let crowd = |mask| group(Kept::Guessed, rows(5_000, 100, p(0.0, 0.0)), 1.0, 2, mask);
    let groups = |mask| {
        [
            group(Kept::Added, vec![p(-100.0, -100.0)], 2.0, 1, 2),
            crowd(mask),
            group(Kept::Added, vec![p(50.0, 50.0)], 3.0, 1, 2),
        ]
    };
    let mut bp = Broadphase::default();
    let want = [(506, 5_001)];
    // The first tick copies the crowd in: the plan learns that it need not.
    assert_eq!(tick(&mut bp, &groups(0)), want);
    assert_eq!((bp.held, bp.spans()[0].left), (5_002, false));
    assert!(bp.pos.len() >= 5_002);
    // Left from then on, and the room given back.
    for _ in 0..2 {
        assert_eq!(tick(&mut bp, &groups(0)), want);
        assert_eq!((bp.held, bp.spans()[0].left), (2, true));
        assert!(bp.pos.len() <= POS_MIN && bp.pos.capacity() <= 2 * POS_MIN);
    }
    // The crowd starts looking (for its own layer too, which no one else looks for): guessed
    // left, it is copied in after the two others.
    assert_eq!(tick(&mut bp, &groups(3)), want);
    assert_eq!(
        (bp.held, bp.spans()[0].left, bp.runs[1].at),
        (5_002, true, 2)
    );
    // And copied by its pass the tick after.
    assert_eq!(tick(&mut bp, &groups(3)), want);
    assert_eq!(
        (bp.held, bp.spans()[0].left, bp.runs[1].at),
        (5_002, false, 1)
    );
}

/// A fresh broadphase whose crowd is left in its column from the first tick holds only the
/// others' positions.
#[test]
fn a_left_crowd_takes_no_room() {
    let p = Vec2::new;
    let groups = [
        group(Kept::Left, rows(5_000, 100, p(0.0, 0.0)), 1.0, 2, 0),
        group(Kept::Added, vec![p(50.0, 50.0), p(90.0, 1.0)], 3.0, 1, 2),
    ];
    let mut bp = Broadphase::default();
    assert_eq!(tick(&mut bp, &groups), [(9, 5_001), (505, 5_000)]);
    assert_eq!((bp.len(), bp.held, bp.pos.len()), (5_002, 2, 2));
}
