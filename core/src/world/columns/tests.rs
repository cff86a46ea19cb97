use super::*;
use crate::math::Vec2;
use crate::world::ecs::Ecs;

/// A world of `n` entities spread at random over archetypes of some of Position, Velocity,
/// Speed and StaticBody (each with a position), their values their spawn order.
fn world(rng: &mut fastrand::Rng, n: usize) -> Ecs {
    let mut ecs = Ecs::default();
    for i in 0..n {
        let f = i as f32;
        let mut b = hecs::EntityBuilder::new();
        b.add(Position(Vec2::new(f, -f)));
        if rng.bool() {
            b.add(Velocity(Vec2::new(f * 2.0, 1.0)));
        }
        if rng.bool() {
            b.add(Speed(f + 0.5));
        }
        if rng.u8(..4) == 0 {
            b.add(StaticBody);
        }
        ecs.spawn(b.build());
    }
    ecs
}

/// Each archetype's columns as hecs gives them: (positions, velocities, speeds, static).
type Seen = Vec<(Vec<Vec2>, Option<Vec<Vec2>>, Option<Vec<f32>>, bool)>;

fn by_hecs(ecs: &Ecs) -> Seen {
    ecs.raw()
        .archetypes()
        .filter_map(|a| {
            let pos = a.get::<&Position>()?.iter().map(|p| p.0).collect();
            let vel = a
                .get::<&Velocity>()
                .map(|c| c.iter().map(|v| v.0).collect());
            let speed = a.get::<&Speed>().map(|c| c.iter().map(|s| s.0).collect());
            Some((pos, vel, speed, a.has::<StaticBody>()))
        })
        .collect()
}

fn by_places(ecs: &Ecs) -> Seen {
    ecs.archetypes_placed()
        .filter_map(|a| {
            let pos = a.read::<Position>()?.iter().map(|p| p.0).collect();
            let vel = a
                .read::<Velocity>()
                .map(|c| c.iter().map(|v| v.0).collect());
            let speed = a.read::<Speed>().map(|c| c.iter().map(|s| s.0).collect());
            Some((pos, vel, speed, a.has::<StaticBody>()))
        })
        .collect()
}

#[test]
fn placed_columns_are_hecs_columns_however_the_archetypes_were_made() {
    let mut rng = fastrand::Rng::with_seed(7);
    for round in 0..40 {
        let n = rng.usize(..60);
        let mut ecs = world(&mut rng, n);
        assert_eq!(by_places(&ecs), by_hecs(&ecs), "round {round}");
        // Archetypes made later, by each way of making one, are placed as they are made.
        let mut made = Vec::new();
        for _ in 0..rng.usize(..4) {
            made.push(ecs.spawn((Position(Vec2::ZERO), Speed(1.0), Velocity(Vec2::ZERO))));
            made.push(ecs.spawn((Position(Vec2::new(1.0, 2.0)), PrevPosition(Vec2::ZERO))));
        }
        for &e in &made {
            match rng.u8(..3) {
                0 => ecs.insert_one(e, StaticBody).unwrap(),
                1 => drop(ecs.remove_one::<Position>(e)),
                _ => {}
            }
        }
        if rng.bool() {
            let mut t = hecs::ColumnBatchType::new();
            t.add::<Position>().add::<Speed>().add::<Footing>();
            let batch = t.into_batch(3);
            let mut pos = batch.writer::<Position>().unwrap();
            let mut speed = batch.writer::<Speed>().unwrap();
            let mut footing = batch.writer::<Footing>().unwrap();
            for k in 0..3 {
                let _ = pos.push(Position(Vec2::new(k as f32, 0.0)));
                let _ = speed.push(Speed(k as f32));
                let _ = footing.push(Footing::default());
            }
            drop((pos, speed, footing));
            assert_eq!(ecs.spawn_column_batch(batch.build().unwrap()).len(), 3);
        }
        assert_eq!(by_places(&ecs), by_hecs(&ecs), "round {round}");
        // Every archetype's places were learnt as it was made, none looked up on the way.
        assert_eq!(ecs.places().0.len(), ecs.raw().archetypes().len());
    }
}

#[test]
fn a_placed_column_written_is_what_hecs_reads_and_its_borrow_is_released() {
    let mut rng = fastrand::Rng::with_seed(11);
    let ecs = world(&mut rng, 50);
    for a in ecs.archetypes_placed() {
        if let Some(mut vel) = a.write::<Velocity>() {
            for v in vel.iter_mut() {
                v.0.y += 10.0;
            }
        }
    }
    let expected: Vec<Vec2> = ecs.raw().query::<&Velocity>().iter().map(|v| v.0).collect();
    assert!(expected.iter().all(|v| v.y == 11.0), "{expected:?}");
    // hecs can take every column again, uniquely: nothing is left borrowed.
    for a in ecs.raw().archetypes() {
        drop(a.get::<&mut Velocity>());
        drop(a.get::<&mut Position>());
    }
}

#[test]
#[should_panic(expected = "already borrowed")]
fn a_column_taken_to_write_while_it_is_read_panics_as_hecs_does() {
    let ecs = world(&mut fastrand::Rng::with_seed(3), 10);
    let a = ecs.archetypes_placed().find(|a| !a.is_empty()).unwrap();
    let _read = a.read::<Position>().unwrap();
    let _write = a.write::<Position>();
}

#[test]
fn thawed_columns_are_hecs_columns_in_a_querys_order_and_their_writes_stay() {
    let mut rng = fastrand::Rng::with_seed(19);
    for round in 0..20 {
        let n = rng.usize(..60);
        let mut ecs = world(&mut rng, n);
        // The rows a query visits, in its order, against the archetypes' rows in theirs.
        let queried: Vec<(Vec2, Vec2)> = (ecs.raw().query::<(&Position, &Velocity)>().iter())
            .map(|(p, v)| (p.0, v.0))
            .collect();
        let mut thawed = Vec::new();
        for a in ecs.thaw().archetypes() {
            let (Some(p), Some(v)) = (a.read::<Position>(), a.write::<Velocity>()) else {
                continue;
            };
            for (p, v) in std::iter::zip(p, v) {
                thawed.push((p.0, v.0));
                v.0.x += 1.0;
            }
        }
        assert_eq!(thawed, queried, "round {round}");
        let after: Vec<Vec2> = (ecs.raw().query::<&Velocity>().iter())
            .map(|v| v.0)
            .collect();
        let before = queried.iter().map(|(_, v)| Vec2::new(v.x + 1.0, v.y));
        assert!(before.eq(after), "round {round}: the writes stay");
        // Archetypes made after a view was taken are in the next one.
        ecs.spawn((
            Position(Vec2::ZERO),
            Velocity(Vec2::ZERO),
            Footing::default(),
        ));
        let n = ecs.thaw().archetypes().count();
        assert_eq!(n, ecs.raw().archetypes().len(), "round {round}");
    }
}

#[test]
#[should_panic(expected = "a column taken twice")]
fn a_thawed_column_taken_to_change_twice_panics() {
    let mut ecs = world(&mut fastrand::Rng::with_seed(5), 10);
    let mut view = ecs.thaw();
    let a = view.archetypes().find(|a| !a.is_empty()).unwrap();
    let _first = a.write::<Position>();
    let _second = a.write::<Position>();
}

#[test]
#[should_panic(expected = "a column read while changed")]
fn a_thawed_column_read_while_it_is_changed_panics() {
    let mut ecs = world(&mut fastrand::Rng::with_seed(5), 10);
    let mut view = ecs.thaw();
    let a = view.archetypes().find(|a| !a.is_empty()).unwrap();
    let _write = a.write::<Position>();
    let _read = a.read::<Position>();
}
