//! The column passes against the hash as first written, one entity at a time.

use super::kept::HashCache;
use super::record::{Bytes, Fixed, head3, pair, tail3, words};
use super::rows::{Hashed, Source, entity_sums};
use crate::def::{ArchetypeId, ControlKind, RotateMode};
use crate::math::Vec2;
use crate::world::components::*;
use crate::world::ecs::Ecs;
use crate::world::health::MaxHealth;

/// Adds one entity's records to the category sums, each laid out byte for byte as every
/// recording was hashed: the hash as first written, one entity at a time through a query.
fn entity(row: Hashed<'_>, max: &MaxHealth, b: &mut Bytes, parts: &mut [u64; 8]) {
    let (id, t, v, h, brain, aim, cds, life, control, state, rot, footing, anim, off) = row;
    let seq = id.seq();
    let mut record = Fixed::<24>::new();
    record.u64(seq).u64(u64::from(id.archetype.0));
    parts[2] = parts[2].wrapping_add(record.f32(t.0.x).f32(t.0.y).hash());
    if let Some(r) = rot {
        // A record of its own: entities that never rotate hash as they always did.
        let mut record = Fixed::<24>::new();
        record.u64(seq).u64(1).f32(r.angle).f32(r.spin);
        parts[2] = parts[2].wrapping_add(record.hash());
    }
    if let Some(f) = footing {
        b.u64(seq).u64(2);
        b.u64(f.grounded_at.map_or(u64::MAX, |t| t));
        b.f32(f.ground_velocity.x).f32(f.ground_velocity.y);
        b.u64(f.jump_pressed_at.map_or(u64::MAX, |t| t));
        b.u64(f.rising as u64);
        parts[5] = parts[5].wrapping_add(b.take());
    }
    if let Some(v) = v {
        let mut record = Fixed::<16>::new();
        record.u64(seq).f32(v.0.x).f32(v.0.y);
        parts[3] = parts[3].wrapping_add(record.hash());
    }
    if let Some(h) = h {
        let mut record = Fixed::<32>::new();
        record
            .u64(seq)
            .u64(i64::from(h.current) as u64)
            .u64(i64::from(max.of(id)) as u64)
            // The world's deadlines are added apart (`world_deadlines_are_in_the_health_sum`).
            .u64(Deadline::INACTIVE.word());
        parts[4] = parts[4].wrapping_add(record.hash());
    }
    if brain.is_some() || control.is_some() {
        let mut record = Fixed::<48>::new();
        record.u64(seq);
        if let Some(br) = brain {
            record
                .f32(br.intent.x)
                .f32(br.intent.y)
                .u64(aim.and_then(|a| a.target()).unwrap_or(0))
                .u64(br.decided() as u64)
                .u64(br.next_decision());
        }
        if let Some(c) = control {
            record.f32(c.facing.x).f32(c.facing.y);
        }
        parts[5] = parts[5].wrapping_add(record.hash());
    }
    if cds.is_some() || life.is_some() {
        b.u64(seq);
        for d in cds.map(|c| c.0.as_slice()).unwrap_or(&[]) {
            b.deadline(*d);
        }
        if let Some(l) = life {
            b.deadline(l.0);
        }
        parts[6] = parts[6].wrapping_add(b.take());
    }
    if let Some(a) = anim {
        // Its own record: entities without animations hash as they always did.
        let mut record = Fixed::<32>::new();
        record.u64(seq).u64(3).u64(u64::from(a.slot));
        parts[6] = parts[6].wrapping_add(record.u64(a.since).hash());
    }
    if let Some(o) = off {
        // Its own record: only entities destroyed off screen have one.
        let mut record = Fixed::<24>::new();
        record.u64(seq).u64(4).u64(u64::from(o.seen));
        parts[6] = parts[6].wrapping_add(record.hash());
    }
    if let Some(s) = state {
        b.u64(seq);
        for (k, v) in s.iter() {
            b.str(k).f64(v);
        }
        parts[7] = parts[7].wrapping_add(b.take());
    }
}

/// The reference's sums: every entity through one query.
fn reference((ecs, max): (&Ecs, &MaxHealth)) -> [u64; 8] {
    let (mut parts, mut b) = ([0u64; 8], Bytes::default());
    for row in ecs.query::<Hashed<'_>>().iter() {
        entity(row, max, &mut b, &mut parts);
    }
    parts
}

/// A float that is sometimes one of the awkward ones.
pub(super) fn float(rng: &mut fastrand::Rng) -> f32 {
    match rng.u8(0..12) {
        0 => f32::NAN,
        1 => -0.0,
        2 => f32::INFINITY,
        3 => f32::from_bits(rng.u32(..)),
        _ => rng.f32() * 2000.0 - 1000.0,
    }
}

pub(super) fn vec(rng: &mut fastrand::Rng) -> Vec2 {
    Vec2::new(float(rng), float(rng))
}

/// A tick's changes to `n` kept rows, as the passes over kept rows are tested (`minds`,
/// `movers`): every position moved, and the rows whose other values change, up to half of
/// them and one (a row may come more than once).
pub(super) fn changed_rows(rng: &mut fastrand::Rng, pos: &mut [Position]) -> Vec<usize> {
    let n = pos.len();
    for p in pos {
        *p = Position(vec(rng));
    }
    (0..rng.usize(..=n / 2 + 1).min(n))
        .map(|_| rng.usize(..n))
        .collect()
}

fn deadline(rng: &mut fastrand::Rng) -> Deadline {
    if rng.bool() {
        Deadline::INACTIVE
    } else {
        Deadline::after(0, rng.u64(0..1 << 40)).unwrap()
    }
}

/// A world of `n` entities, each with an identity, a position and a random choice of the
/// other hashed components (so a few hundred archetypes), with random values; and some
/// without a position or an identity, which the hash skips. With it, the entities' maximum
/// health: random for the first archetypes, and raised for some entities.
fn world(rng: &mut fastrand::Rng, n: usize) -> (Ecs, MaxHealth) {
    let mut ecs = Ecs::default();
    let mut max = maxima(rng);
    let mut e = hecs::EntityBuilder::new();
    for seq in 1..=n as u64 {
        // Most entities share a handful of shapes, as a game's do; the rest are any.
        let mask = match rng.u8(0..4) {
            0 => rng.u32(..),
            // A drone, a player, a timer, a scripted thing, a bullet, a mover.
            _ => [0x0F, 0x1FF, 0x30, 0x2C4, 0x21, 0x01][rng.usize(0..6)],
        };
        let has = |bit: u32| mask & 1 << bit != 0;
        if mask & 0x3000 != 0x3000 {
            e.add(Identity::new(seq, ArchetypeId(rng.u16(..))));
        }
        if mask & 0x3000 != 0x2000 {
            e.add(Position(vec(rng)));
        }
        if has(0) {
            e.add(Velocity(vec(rng)));
        }
        if has(1) {
            e.add(Health {
                current: rng.i32(..),
            });
            if rng.u8(0..4) == 0 {
                max.raised(seq, rng.i32(..));
            }
        }
        if has(2) {
            let kinds = [
                crate::def::BehaviourKind::Chase,
                crate::def::BehaviourKind::Wander,
            ];
            let mut brain = Brain::new(kinds[rng.usize(0..2)], vec(rng));
            brain.set_next_decision(rng.u64(0..3));
            e.add(brain);
            if has(3) {
                let mut aim = Aim::default();
                aim.set(rng.bool().then(|| rng.u64(1..Identity::SEQ_END)));
                e.add(aim);
            }
        }
        if has(4) {
            e.add(Cooldowns(
                (0..rng.usize(0..4)).map(|_| deadline(rng)).collect(),
            ));
        }
        if has(5) {
            e.add(Lifetime(deadline(rng)));
        }
        if has(6) {
            e.add(Control {
                kind: ControlKind::TopDown,
                move_x: None,
                move_y: None,
                accel: None,
                triggers: vec![],
                facing: vec(rng),
            });
        }
        if has(7) {
            let mut s = ScriptState::default();
            for k in 0..rng.usize(0..3) {
                s.set(["hp", "mood", "a longer key"][k], f64::from(float(rng)));
            }
            e.add(s);
        }
        if has(8) {
            e.add(Rotation {
                angle: float(rng),
                prev: float(rng),
                spin: float(rng),
                mode: RotateMode::None,
            });
        }
        if has(9) {
            e.add(Footing {
                grounded_at: rng.bool().then(|| rng.u64(..)),
                ground_velocity: vec(rng),
                jump_pressed_at: rng.bool().then(|| rng.u64(..)),
                rising: rng.bool(),
            });
        }
        if has(10) {
            e.add(Animation {
                slot: rng.u8(..),
                since: rng.u64(..),
            });
        }
        if has(11) {
            e.add(Offscreen { seen: rng.bool() });
        }
        ecs.spawn(e.build());
    }
    (ecs, max)
}

/// Random maxima for archetypes 0 to 3 (0 for the others), none raised.
fn maxima(rng: &mut fastrand::Rng) -> MaxHealth {
    MaxHealth::of_archetypes((0..4).map(|_| rng.i32(..)).collect())
}

#[test]
fn the_column_passes_sum_what_the_hash_as_first_written_summed() {
    let mut rng = fastrand::Rng::with_seed(0x5EED);
    let mut b = Bytes::default();
    for n in [0, 1, 7, 64, 300, 3000] {
        let (mut ecs, max) = world(&mut rng, n);
        let expected = reference((&ecs, &max));
        // By entity, by archetype, and by archetype split between two threads.
        assert_eq!(
            entity_sums(
                Source::Counted(&ecs),
                &max,
                usize::MAX,
                usize::MAX,
                &mut b,
                None
            ),
            expected,
            "{n} by entity"
        );
        assert_eq!(
            entity_sums(Source::Counted(&ecs), &max, 0, usize::MAX, &mut b, None),
            expected,
            "{n} by archetype"
        );
        assert_eq!(
            entity_sums(Source::Counted(&ecs), &max, 0, 0, &mut b, None),
            expected,
            "{n} entities, split"
        );
        // The world borrowed uniquely, its columns read with no borrow counted: always by
        // archetype, on one thread or two.
        for (split, way) in [(usize::MAX, "frozen"), (0, "frozen, split")] {
            let frozen = Source::Frozen(ecs.freeze());
            let sums = entity_sums(frozen, &max, usize::MAX, split, &mut b, None);
            assert_eq!(sums, expected, "{n} entities, {way}");
        }
    }
}

/// Changes the world as ticks do: some entities' velocity, health and AI state (some set
/// back to what they were), some destroyed (hecs moves another row into each one's place),
/// and some added (some with a raised maximum health).
fn change(rng: &mut fastrand::Rng, (ecs, max): (&mut Ecs, &mut MaxHealth), next_seq: &mut u64) {
    for (v,) in ecs.query_mut::<(&mut Velocity,)>() {
        if rng.u8(0..4) == 0 {
            v.0 = if rng.bool() { vec(rng) } else { Vec2::ZERO };
        }
    }
    for (h,) in ecs.query_mut::<(&mut Health,)>() {
        if rng.u8(0..4) == 0 {
            h.current = h.current.wrapping_sub(rng.i32(0..3));
        }
    }
    for (l,) in ecs.query_mut::<(&mut Lifetime,)>() {
        if rng.u8(0..4) == 0 {
            l.0 = deadline(rng);
        }
    }
    for (brain, aim) in ecs.query_mut::<(&mut Brain, Option<&mut Aim>)>() {
        if rng.u8(0..8) == 0 {
            brain.intent = vec(rng);
        }
        if rng.u8(0..3) == 0 {
            brain.set_next_decision(rng.u64(0..1000));
            if let Some(a) = aim {
                a.set(rng.bool().then(|| rng.u64(1..Identity::SEQ_END)));
            }
        }
    }
    let all: Vec<hecs::Entity> = ecs.raw().iter().map(|e| e.entity()).collect();
    for e in all {
        if rng.u8(0..8) == 0 {
            if let Ok(id) = ecs.raw().get::<&Identity>(e) {
                max.despawned(id.seq());
            }
            ecs.despawn(e).unwrap();
        }
    }
    for _ in 0..rng.usize(0..20) {
        *next_seq += 1;
        let mut e = hecs::EntityBuilder::new();
        e.add(Identity::new(*next_seq, ArchetypeId(rng.u16(0..4))))
            .add(Position(vec(rng)))
            .add(Velocity(vec(rng)));
        if rng.u8(0..3) == 0 {
            e.add(Lifetime(deadline(rng)));
        }
        if rng.bool() {
            e.add(Health {
                current: rng.i32(..),
            });
            if rng.bool() {
                max.raised(*next_seq, rng.i32(..));
            }
            e.add(Brain::new(crate::def::BehaviourKind::Chase, vec(rng)))
                .add(Aim::default());
        }
        ecs.spawn(e.build());
    }
}

/// The hashes kept from one hash to the next give the sums hashing every record gives, as
/// the world changes under them, on one thread and split between two; and a cache used on
/// another world is still right.
#[test]
fn kept_record_hashes_are_the_records_hashes_as_the_world_changes() {
    let mut rng = fastrand::Rng::with_seed(0xCAC4E);
    let mut b = Bytes::default();
    // A cache serves one world (a new world empties it: see `serve`); within one, each cache
    // is taken over from the other now and then: kept hashes, and the sums kept of them,
    // belong to rows, whatever pass, on one thread or two, made them.
    for n in [1, 64, 300, 3000, 300] {
        let (mut serial, mut split) = (HashCache::default(), HashCache::default());
        let (mut ecs, mut max) = world(&mut rng, n);
        let mut next_seq = n as u64;
        for round in 0..6 {
            if round % 3 == 2 {
                std::mem::swap(&mut serial, &mut split);
            }
            let expected = reference((&ecs, &max));
            assert_eq!(
                entity_sums(
                    Source::Counted(&ecs),
                    &max,
                    0,
                    usize::MAX,
                    &mut b,
                    Some(&mut serial)
                ),
                expected,
                "{n} entities, round {round}, by archetype"
            );
            assert_eq!(
                entity_sums(Source::Counted(&ecs), &max, 0, 0, &mut b, Some(&mut split)),
                expected,
                "{n} entities, round {round}, split"
            );
            // The tick's way (frozen) with the serial pass's cache, now and then.
            if round % 2 == 1 {
                let frozen = Source::Frozen(ecs.freeze());
                let cache = Some(&mut serial);
                let sums = entity_sums(frozen, &max, 0, usize::MAX, &mut b, cache);
                assert_eq!(sums, expected, "{n} entities, round {round}, frozen");
            }
            change(&mut rng, (&mut ecs, &mut max), &mut next_seq);
        }
    }
}

/// Past the most entities whose records are kept, a world is hashed without the cache, which
/// lets its memory go; below it again, the cache fills anew.
#[test]
fn a_large_world_is_hashed_without_kept_records() {
    let mut b = Bytes::default();
    let mut cache = HashCache::default();
    let mut rng = fastrand::Rng::with_seed(0xB16);
    let (small, max) = world(&mut rng, 300);
    let mut sums = |ecs: &Ecs, cache: &mut HashCache| {
        entity_sums(
            Source::Counted(ecs),
            &max,
            0,
            usize::MAX,
            &mut b,
            Some(cache),
        )
    };
    sums(&small, &mut cache);
    assert!(!cache.is_empty());
    let mut large = Ecs::default();
    for seq in 1..=HashCache::MOST_ENTITIES as u64 + 1 {
        large.spawn((
            Identity::new(seq, ArchetypeId(0)),
            Position(Vec2::new(seq as f32, 0.0)),
            Velocity(Vec2::new(1.0, 0.0)),
        ));
    }
    assert_eq!(sums(&large, &mut cache), reference((&large, &max)));
    assert!(cache.is_empty(), "the large world's records are not kept");
    assert_eq!(sums(&small, &mut cache), reference((&small, &max)));
    assert!(!cache.is_empty());
    // Another world's rows are not this one's: serving it empties the cache.
    cache.serve(1);
    sums(&small, &mut cache);
    assert!(!cache.serve(1).is_empty());
    assert!(cache.serve(2).is_empty());
}

#[test]
fn a_record_of_words_is_the_bytes_of_its_words() {
    let mut f = Fixed::<40>::new();
    f.u64(7).f32(1.5).f32(-0.0).u64(u64::MAX).u64(3).u64(0);
    assert_eq!(f.hash(), words([7, pair(1.5, -0.0), u64::MAX, 3, 0]));
}

#[test]
fn split_xxh3_is_xxh3() {
    let mut rng = fastrand::Rng::with_seed(24);
    let edges = [0, 1, u64::MAX, 1 << 63, 0xbe4b_a423_396c_feb8];
    for n in 0..4000 {
        let pick = |rng: &mut fastrand::Rng| match n % 3 {
            0 => edges[rng.usize(..edges.len())],
            _ => rng.u64(..),
        };
        let [a, b, c] = [pick(&mut rng), pick(&mut rng), pick(&mut rng)];
        let mut bytes = Vec::new();
        for w in [a, b, c] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        let want = xxhash_rust::xxh3::xxh3_64(&bytes);
        assert_eq!(tail3(head3(a, b), c), want, "{a:#x} {b:#x} {c:#x}");
        assert_eq!(words([a, b, c]), want);
    }
}

/// The product by 32-bit halves (the browser's) is the 128-bit product, for words whose
/// halves' sums carry (all ones among them) and any others.
#[test]
fn the_product_by_halves_is_the_wide_product() {
    use super::record::product_by_halves;
    let mut rng = fastrand::Rng::with_seed(45);
    let edges = [0, 1, u64::MAX, 0xffff_ffff, 1 << 32, 1 << 63, u64::MAX - 1];
    for n in 0..100_000 {
        let pick = |rng: &mut fastrand::Rng| match n % 3 {
            0 => edges[rng.usize(..edges.len())],
            _ => rng.u64(..),
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        let p = u128::from(a) * u128::from(b);
        assert_eq!(
            product_by_halves(a, b),
            (p as u64, (p >> 64) as u64),
            "{a:#x} {b:#x}"
        );
    }
}

/// The world's invulnerability deadlines are in the health records as every recording hashed
/// them (each entity's record with its deadline, inactive where it has none), on every path.
#[test]
fn world_deadlines_are_in_the_health_sum() {
    use super::StateHash;
    use crate::def::{GameDef, LevelDef};
    use crate::ids::WorldId;
    use crate::world::SimWorld;
    let def = GameDef {
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    let mut world = SimWorld::build(&def, 0, WorldId(1), 0).unwrap();
    let mut rng = fastrand::Rng::with_seed(0xDEAD);
    let mut expected = 0u64;
    let mut cache = HashCache::default();
    for seq in 1..=3000u64 {
        let (id, h) = (
            Identity::new(seq, ArchetypeId(rng.u16(0..3))),
            Health {
                current: rng.i32(..),
            },
        );
        let e = world.ecs.spawn((id, Position(vec(&mut rng)), h));
        world.index.insert(seq, e, world.ecs.raw());
        // The level's archetypes have no health: every entity here holds its own maximum.
        let max = rng.i32(..);
        world.max_health.raised(seq, max);
        let until = match seq % 7 {
            0 => Deadline::after(seq, 50).unwrap(),
            1 => Deadline::after(0, 3).unwrap(),
            _ => Deadline::INACTIVE,
        };
        if until.is_active() {
            world.invulnerable.insert(seq, until);
        }
        expected = expected.wrapping_add(words([
            seq,
            i64::from(h.current) as u64,
            i64::from(max) as u64,
            until.word(),
        ]));
        if [1, 64, 3000].contains(&seq) {
            for hash in [
                StateHash::of_split(&world, usize::MAX),
                StateHash::of_split(&world, 0),
                StateHash::of_cached(&mut world, usize::MAX, &mut cache),
                StateHash::of_cached(&mut world, 0, &mut cache),
            ] {
                assert_eq!(hash.parts[4], expected, "{seq} entities");
            }
        }
    }
}
