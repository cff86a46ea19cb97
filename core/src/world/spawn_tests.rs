//! Spawning: every component an archetype declares, with overrides, in runs of one and many.

use super::*;
use crate::def::*;
use crate::ids::WorldId;
use crate::math::Color;

fn def() -> GameDef {
    let sprite = SpriteDef {
        shape: SpriteShape::Circle,
        size: Vec2::new(4.0, 4.0),
        color: Color::WHITE,
        layer: 1,
        depth: 0.0,
        frame: 0,
        flip_x: false,
        flip_y: false,
        alpha: 1.0,
    };
    let full = ArchetypeDef {
        name: "full".into(),
        sprite: Some(sprite.clone()),
        collider: Some(ColliderDef {
            shape: crate::def::Shape::Circle { radius: 2.0 },
            layer: 1,
            mask: 1,
            push: 0,
            trigger: false,
            stay: false,
            body: BodyKind::Dynamic,
            mass: 1.0,
            bounce: None,
            friction: 0.0,
        }),
        health: Some(HealthDef {
            max: 5,
            invulnerable_ticks: 3,
        }),
        speed: 7.0,
        velocity: Vec2::new(1.0, 2.0),
        behaviour: Some(BehaviourDef {
            kind: BehaviourKind::Chase,
            target: 1,
            cadence: None,
            navigate: false,
            range: None,
            idle: Idle::Stop,
        }),
        control: Some(ControlDef {
            kind: ControlKind::TopDown,
            move_x: None,
            accel: None,
            move_y: None,
            triggers: vec![],
        }),
        cooldowns: vec![CooldownDef {
            name: "fire".into(),
            ticks: 4,
        }],
        lifetime: Some(90),
        tags: 1,
        bounds: BoundsPolicy::Confine,
        bounds_margin: 6.0,
        offscreen_destroy: true,
        camera_target: true,
        motion: None,
        rotation: None,
        animations: vec![crate::def::AnimationDef {
            name: "idle".into(),
            frames: vec![0, 1],
            fps: 4.0,
            looping: true,
        }],
        label: Some(crate::def::LabelDef {
            text: "full".into(),
            size: 8.0,
            color: Color::WHITE,
            offset: Vec2::new(0.0, -4.0),
            font: Some(crate::FontId(1)),
        }),
        attach: None,
        contact_damage: Some(crate::def::ContactDamageDef {
            amount: 1,
            to: 1,
            once: false,
        }),
    };
    let plain = ArchetypeDef {
        name: "plain".into(),
        sprite: Some(sprite),
        speed: 1.0,
        ..ArchetypeDef::default()
    };
    GameDef {
        tags: vec!["t".into()],
        archetypes: vec![full, plain],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    }
}

/// Every entity's components, in storage order (archetype by archetype).
fn contents(w: &SimWorld) -> Vec<String> {
    w.ecs
        .raw()
        .iter()
        .map(|e| {
            format!(
                "{:?}",
                (
                    e.get::<&Identity>().map(|c| *c),
                    e.get::<&Position>().map(|c| *c),
                    e.get::<&PrevPosition>().map(|c| *c),
                    e.get::<&Velocity>().map(|c| *c),
                    e.get::<&Speed>().map(|c| *c),
                    e.get::<&Tags>().map(|c| *c),
                    e.get::<&Collider>().map(|c| *c),
                    e.get::<&Health>().map(|c| {
                        let id = e.get::<&Identity>().expect("an identity");
                        (*c, w.max_health(&id))
                    }),
                    (
                        e.get::<&Sprite>().map(|c| Sprite::clone(&c)),
                        e.has::<Drawn>()
                    ),
                    (e.get::<&Brain>().map(|c| *c), e.get::<&Aim>().map(|c| *c)),
                    e.get::<&Control>().map(|c| Control::clone(&c)),
                    (
                        e.get::<&Cooldowns>().map(|c| Cooldowns::clone(&c)),
                        e.get::<&Lifetime>().map(|c| *c),
                        e.get::<&BoundsRule>().map(|c| *c),
                        e.has::<CameraTarget>(),
                        e.get::<&Animation>().map(|c| *c),
                        e.get::<&Label>().map(|c| Label::clone(&c)),
                        (
                            e.get::<&Look>().map(|c| *c),
                            e.get::<&Rotation>().map(|c| *c)
                        ),
                        e.get::<&BoundsMargin>().map(|c| *c),
                        e.get::<&Offscreen>().map(|c| *c),
                        e.component_types().count(),
                    ),
                )
            )
        })
        .collect()
}

/// No overrides, a short lifetime, and many (more health than `full`'s maximum among them).
fn given() -> [Overrides; 3] {
    let none = Overrides::default();
    let short = Overrides {
        lifetime: Some(5),
        ..Overrides::default()
    };
    let red = Overrides {
        color: Some(Color::rgb(255, 0, 0)),
        health: Some(9),
        velocity: Some(Vec2::new(-3.0, 0.0)),
        speed: Some(2.0),
        size: Some(Vec2::new(6.0, 2.0)),
        scale: Some(Vec2::new(2.0, 1.0)),
        angle: Some(1.0),
        ..Overrides::default()
    };
    [none, short, red]
}

/// A world of `def`'s level with `items` spawned at tick 3, runs of `batch_min` or more in
/// batches.
fn spawned(def: &GameDef, items: &[(ArchetypeId, Vec2, &Overrides)], batch_min: usize) -> SimWorld {
    let mut w = SimWorld::build(def, 0, WorldId(1), 0).unwrap();
    w.spawn_runs(
        def,
        &mut hecs::EntityBuilder::new(),
        items,
        3,
        |(a, p, o)| (*a, *p, *o),
        batch_min,
    )
    .unwrap();
    w
}

#[test]
fn batched_and_single_spawns_build_the_same_world() {
    let def = def();
    let (full, plain) = (ArchetypeId(0), ArchetypeId(1));
    let [none, short, red] = given();
    let mut items = Vec::new();
    for i in 0..200 {
        let pos = Vec2::new(i as f32, -(i as f32));
        // Runs of one, of a few and of many, and shapes that differ only by overrides.
        let (a, o) = match i {
            0..20 => (full, &none),
            20..23 => (plain, &none),
            23..60 => (plain, if i % 2 == 0 { &short } else { &none }),
            60..100 => (plain, &red),
            100..117 => (full, &red),
            _ => (if i % 7 == 0 { full } else { plain }, &none),
        };
        items.push((a, pos, o));
    }
    let build = |batch_min: usize| spawned(&def, &items, batch_min);
    let single = build(usize::MAX);
    for batch_min in [1, 2, BATCH_MIN] {
        let batched = build(batch_min);
        assert_eq!(
            contents(&batched),
            contents(&single),
            "batch_min {batch_min}"
        );
        assert_eq!(*batched.spawn_outcomes, *single.spawn_outcomes);
        assert_eq!(*batched.next_seq, *single.next_seq);
        assert_eq!(batched.counters.spawned, 200);
        for seq in *batched.next_seq - 200..*batched.next_seq {
            let e = batched.index.get(&seq, batched.ecs.raw()).expect("indexed");
            let id = *batched.ecs.get::<&Identity>(e).unwrap();
            assert_eq!(id.seq(), seq);
            // A spawn with more health than its archetype's maximum (`red`, 9 on `full`'s 5)
            // has that much for a maximum; the others the archetype's.
            if batched.ecs.get::<&Health>(e).is_ok() {
                let k = seq - (*batched.next_seq - 200);
                let want = if (100..117).contains(&k) { 9 } else { 5 };
                assert_eq!(batched.max_health(&id), want, "sequence {seq}");
            }
        }
        // Gone, an entity's raised maximum goes with it.
        let mut batched = batched;
        assert_eq!(batched.max_health.raised_count(), 17);
        assert!(batched.despawn(*batched.next_seq - 200 + 100));
        assert_eq!(batched.max_health.raised_count(), 16);
    }
}

/// Batches of spawns with overrides build what spawns one at a time do: where every spawn of
/// an archetype has them, and in random runs.
#[test]
fn batched_spawns_with_overrides_build_what_single_ones_do() {
    let def = def();
    let (full, plain) = (ArchetypeId(0), ArchetypeId(1));
    let [none, short, red] = given();
    // Runs of many where every spawn of the archetype has overrides, and of no archetype
    // spawned without them after it (no template is made for it).
    let owned: Vec<_> = (0..40)
        .map(|i| (plain, Vec2::new(i as f32, 1.0), &red))
        .chain((0..3).map(|i| (full, Vec2::new(i as f32, 2.0), &none)))
        .collect();
    for batch_min in [1, BATCH_MIN] {
        assert_eq!(
            contents(&spawned(&def, &owned, batch_min)),
            contents(&spawned(&def, &owned, usize::MAX)),
            "every spawn with overrides, batch_min {batch_min}"
        );
    }
    // Random runs of either archetype, each with or without overrides.
    let mut rng = fastrand::Rng::with_seed(11);
    for case in 0..24 {
        let mut random = Vec::new();
        while random.len() < 120 {
            let a = if rng.bool() { full } else { plain };
            let o = [&none, &short, &red][rng.usize(0..3)];
            for _ in 0..rng.usize(1..40) {
                random.push((a, Vec2::new(random.len() as f32, 3.0), o));
            }
        }
        assert_eq!(
            contents(&spawned(&def, &random, BATCH_MIN)),
            contents(&spawned(&def, &random, usize::MAX)),
            "random case {case}"
        );
    }
}

/// The last creation sequence an identity holds is spawned; past it, a spawn is a fault that
/// says so.
#[test]
fn spawns_past_the_last_sequence_fault() {
    let def = def();
    let mut w = SimWorld::build(&def, 0, WorldId(1), 0).unwrap();
    *w.next_seq = Identity::SEQ_END - 2;
    let none = Overrides::default();
    let spawn = |w: &mut SimWorld, n: usize| {
        let items: Vec<_> = (0..n).map(|i| Vec2::new(i as f32, 0.0)).collect();
        w.spawn_all(&def, &mut hecs::EntityBuilder::new(), &items, 0, |p| {
            (ArchetypeId(1), *p, &none)
        })
    };
    spawn(&mut w, 2).unwrap();
    let last = w
        .entity(Identity::SEQ_END - 1)
        .expect("the last sequence spawned");
    assert_eq!(
        w.ecs.get::<&Identity>(last).unwrap().seq(),
        Identity::SEQ_END - 1
    );
    let f = spawn(&mut w, 1).unwrap_err();
    assert_eq!(f.kind, crate::fault::FaultKind::Exhausted);
    assert!(
        f.message.contains("no creation sequence is left"),
        "{}",
        f.message
    );
}
