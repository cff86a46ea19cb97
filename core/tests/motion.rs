//! The motion vocabulary: static, kinematic and dynamic bodies and mass, bounce and friction,
//! bounds that bounce and wrap, gravity, drag and speed limits, rotation, and contact events,
//! each against what it promises.

mod support;

use ludus_core::*;
use std::sync::Arc;
use support::*;

const BALL: ArchetypeId = ArchetypeId(0);
const WALL_A: ArchetypeId = ArchetypeId(1);

fn ball_and_walls(body: BodyKind, bounce: Option<f32>) -> GameDef {
    let wall = ArchetypeDef {
        name: "wall".into(),
        collider: Some(ColliderDef {
            body,
            ..ColliderDef::new(
                Shape::Box {
                    half: Vec2::new(10.0, 200.0),
                },
                2,
                0,
                0,
            )
        }),
        ..ArchetypeDef::default()
    };
    let ball = ArchetypeDef {
        name: "ball".into(),
        collider: Some(ColliderDef {
            bounce,
            ..ColliderDef::new(Shape::Circle { radius: 8.0 }, 1, 0, 2)
        }),
        ..ArchetypeDef::default()
    };
    GameDef {
        archetypes: vec![ball, wall],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    }
}

#[test]
fn a_ball_between_static_walls_keeps_its_speed_and_never_leaves() {
    let mut def = ball_and_walls(BodyKind::Static, Some(1.0));
    place_moving(&mut def, BALL, 0.0, 0.0, 613.7, 0.0);
    place(&mut def, WALL_A, -200.0, 0.0);
    place(&mut def, WALL_A, 200.0, 0.0);
    let mut g = plain(def);
    let speed = 613.7f32;
    let mut crossings = 0;
    let mut last_vx = speed;
    for _ in 0..10_000 {
        run(&mut g, 1);
        let (p, v) = state(&g, 1);
        assert!((v.length() - speed).abs() < 1e-4, "{v:?}");
        assert!(
            p.x >= -182.0 && p.x <= 182.0 && p.y == 0.0,
            "the ball left: {p:?}"
        );
        if v.x.signum() != last_vx.signum() {
            crossings += 1;
            last_vx = v.x;
        }
        // The walls never move.
        assert_eq!(state(&g, 2), (Vec2::new(-200.0, 0.0), Vec2::ZERO));
        assert_eq!(state(&g, 3), (Vec2::new(200.0, 0.0), Vec2::ZERO));
    }
    // 364 units between the faces at 613.7 units/s: a bounce every 35.6 ticks.
    assert!(
        (275..=285).contains(&crossings),
        "it bounced {crossings} times"
    );
}

#[test]
fn a_dynamic_body_never_moves_a_static_or_kinematic_one() {
    for body in [BodyKind::Static, BodyKind::Kinematic] {
        let mut def = ball_and_walls(body, None);
        // Driven into the wall every tick, and heavy.
        def.archetypes[0].collider.as_mut().unwrap().mass = 1000.0;
        place_moving(&mut def, BALL, 170.0, 0.0, 300.0, 0.0);
        place(&mut def, WALL_A, 200.0, 0.0);
        let mut g = plain(def);
        for _ in 0..120 {
            run(&mut g, 1);
            assert_eq!(state(&g, 2).0, Vec2::new(200.0, 0.0), "{body:?}");
            let (p, v) = state(&g, 1);
            assert!(
                p.x <= 182.0 + 1e-3,
                "{body:?}: the ball is stopped at the wall: {p:?}"
            );
            // Without a bounce, the velocity into the wall is removed once they touch.
            if p.x > 181.0 {
                assert_eq!(v, Vec2::ZERO, "{body:?}");
            }
        }
    }
}

#[test]
fn a_static_body_ignores_its_velocity_and_a_kinematic_one_moves_by_it() {
    for (body, moved) in [(BodyKind::Static, false), (BodyKind::Kinematic, true)] {
        let mut def = ball_and_walls(body, None);
        place_moving(&mut def, WALL_A, 0.0, 0.0, 60.0, 0.0);
        let mut g = plain(def);
        run(&mut g, 60);
        let x = state(&g, 1).0.x;
        assert_eq!(x != 0.0, moved, "{body:?}: {x}");
    }
}

#[test]
fn pushes_between_dynamic_bodies_split_by_mass() {
    // Two overlapping circles of radius 8, 12 apart: 4 units of overlap.
    let cases = [
        (1.0, 1.0, 2.0, 2.0),
        (3.0, 1.0, 1.0, 3.0),
        (1.0, 4.0, 3.2, 0.8),
    ];
    for (ma, mb, da, db) in cases {
        let body = |mass: f32| ArchetypeDef {
            name: "b".into(),
            collider: Some(ColliderDef {
                mass,
                ..ColliderDef::new(Shape::Circle { radius: 8.0 }, 1, 0, 1)
            }),
            ..ArchetypeDef::default()
        };
        let mut def = GameDef {
            archetypes: vec![body(ma), body(mb)],
            levels: vec![LevelDef::default()],
            ..GameDef::default()
        };
        place(&mut def, ArchetypeId(0), 0.0, 0.0);
        place(&mut def, ArchetypeId(1), 12.0, 0.0);
        let mut g = plain(def);
        run(&mut g, 1);
        let (a, b) = (state(&g, 1).0.x, state(&g, 2).0.x);
        assert!(
            (a + da).abs() < 1e-5 && (b - 12.0 - db).abs() < 1e-5,
            "masses {ma}, {mb}: moved to {a} and {b}"
        );
    }
}

#[test]
fn bounce_and_friction_shape_the_response() {
    // (bounce, friction, velocity after hitting a static floor at 45 degrees)
    let cases: [(Option<f32>, f32, Vec2); 4] = [
        (None, 0.0, Vec2::new(100.0, 0.0)),
        (Some(1.0), 0.0, Vec2::new(100.0, -100.0)),
        (Some(0.5), 0.0, Vec2::new(100.0, -50.0)),
        // Friction removes at most friction x the normal impulse (100 here) of the slide.
        (Some(0.0), 0.4, Vec2::new(60.0, 0.0)),
    ];
    for (bounce, friction, want) in cases {
        let mut def = ball_and_walls(BodyKind::Static, bounce);
        def.archetypes[0].collider.as_mut().unwrap().friction = friction;
        // A floor below the ball.
        def.archetypes[1].collider.as_mut().unwrap().shape = Shape::Box {
            half: Vec2::new(500.0, 10.0),
        };
        place_moving(&mut def, BALL, 0.0, 0.0, 100.0, 100.0);
        place(&mut def, WALL_A, 0.0, 18.5);
        let mut g = plain(def);
        run(&mut g, 1);
        let v = state(&g, 1).1;
        assert!(
            (v - want).length() < 1e-3,
            "bounce {bounce:?}, friction {friction}: {v:?}, want {want:?}"
        );
    }
}

fn bounded(policy: BoundsPolicy) -> GameDef {
    let thing = ArchetypeDef {
        name: "thing".into(),
        bounds: policy,
        collider: Some(ColliderDef::new(Shape::Circle { radius: 5.0 }, 1, 0, 0)),
        ..ArchetypeDef::default()
    };
    let level = LevelDef {
        bounds: Rect::new(Vec2::new(-100.0, -50.0), Vec2::new(100.0, 50.0)),
        ..LevelDef::default()
    };
    GameDef {
        archetypes: vec![thing],
        levels: vec![level],
        ..GameDef::default()
    }
}

#[test]
fn wrap_crosses_every_edge_and_keeps_the_velocity() {
    for v in [
        Vec2::new(600.0, 0.0),
        Vec2::new(-600.0, 0.0),
        Vec2::new(0.0, 600.0),
        Vec2::new(0.0, -600.0),
    ] {
        let mut def = bounded(BoundsPolicy::Wrap);
        place_moving(&mut def, ArchetypeId(0), 0.0, 0.0, v.x, v.y);
        let mut g = plain(def);
        let mut wraps = 0;
        let mut last = Vec2::ZERO;
        for _ in 0..120 {
            run(&mut g, 1);
            let track = pos_of(&g, 1).unwrap();
            let (p, vel) = state(&g, 1);
            assert_eq!(vel, v, "the velocity is kept");
            assert!(
                (-100.0..100.0).contains(&p.x) && (-50.0..50.0).contains(&p.y),
                "{p:?}"
            );
            // The previous position moved with it: one tick's step, never across the screen.
            assert!(((track.cur - track.prev) - v * (1.0 / 60.0)).length() < 1e-3);
            // A wrap: the position is no longer the previous tick's plus a step.
            if (p - last - v * (1.0 / 60.0)).length() > 1e-3 {
                wraps += 1;
            }
            last = p;
        }
        // 120 ticks at 600 units/s is 1200 units: 6 laps of 200 wide, 12 of 100 high.
        let laps = if v.x != 0.0 { 6 } else { 12 };
        assert_eq!(wraps, laps, "{v:?}");
    }
}

#[test]
fn bounds_bounce_reflects_off_each_wall() {
    let mut def = bounded(BoundsPolicy::Bounce);
    place_moving(&mut def, ArchetypeId(0), 0.0, 0.0, 500.0, 300.0);
    let mut g = plain(def);
    let (mut flips_x, mut flips_y) = (0, 0);
    let mut last = Vec2::new(500.0, 300.0);
    for _ in 0..600 {
        run(&mut g, 1);
        let (p, v) = state(&g, 1);
        assert!(
            p.x.abs() <= 95.0 + 1e-3 && p.y.abs() <= 45.0 + 1e-3,
            "{p:?}"
        );
        assert_eq!((v.x.abs(), v.y.abs()), (500.0, 300.0));
        flips_x += usize::from(v.x != last.x);
        flips_y += usize::from(v.y != last.y);
        last = v;
    }
    assert!(flips_x > 10 && flips_y > 10, "{flips_x} {flips_y}");
}

#[test]
fn gravity_follows_the_closed_form_at_any_frame_rate() {
    for fps in [30u64, 60, 144] {
        let faller = ArchetypeDef {
            name: "faller".into(),
            collider: Some(ColliderDef::new(Shape::Circle { radius: 1.0 }, 1, 0, 0)),
            ..ArchetypeDef::default()
        };
        let mut def = GameDef {
            archetypes: vec![faller],
            levels: vec![LevelDef::default()],
            ..GameDef::default()
        };
        def.physics.gravity = Vec2::new(0.0, 980.0);
        place_moving(&mut def, ArchetypeId(0), 0.0, 0.0, 50.0, -400.0);
        let mut g = plain(def);
        let mut session = Session::new(TickPolicy::default(), 0, Mode::Playing).unwrap();
        let frame_ns = 1_000_000_000 / fps;
        let mut now = 1_000_000;
        session.frame(now, &mut g);
        while g.world().tick() < 120 {
            now += frame_ns;
            session.frame(now, &mut g);
        }
        // Tick 120 (or a few past it): exactly t = tick / 60 s of constant acceleration.
        let t = g.world().tick() as f32 / 60.0;
        let (p, v) = state(&g, 1);
        let want = Vec2::new(50.0 * t, -400.0 * t + 0.5 * 980.0 * t * t);
        let want_v = Vec2::new(50.0, -400.0 + 980.0 * t);
        assert!((p - want).length() < 1e-2, "{fps} fps: {p:?} vs {want:?}");
        assert!(
            (v - want_v).length() < 1e-2,
            "{fps} fps: {v:?} vs {want_v:?}"
        );
    }
}

#[test]
fn gravity_pulls_dynamic_bodies_and_what_sets_a_scale() {
    // (collider: body and trigger, gravity_scale, pulled)
    type Case = (Option<(BodyKind, bool)>, Option<f32>, bool);
    let cases: [Case; 6] = [
        (Some((BodyKind::Dynamic, false)), None, true),
        (Some((BodyKind::Dynamic, true)), None, false),
        (Some((BodyKind::Kinematic, false)), None, false),
        (Some((BodyKind::Static, false)), Some(1.0), false),
        (None, None, false),
        (None, Some(0.5), true),
    ];
    for (collider, scale, pulled) in cases {
        let a = ArchetypeDef {
            name: "a".into(),
            collider: collider.map(|(body, trigger)| ColliderDef {
                body,
                trigger,
                ..ColliderDef::new(Shape::Circle { radius: 1.0 }, 1, 0, 0)
            }),
            motion: scale.map(|s| MotionDef {
                gravity_scale: Some(s),
                ..MotionDef::default()
            }),
            ..ArchetypeDef::default()
        };
        let mut def = GameDef {
            archetypes: vec![a],
            levels: vec![LevelDef::default()],
            ..GameDef::default()
        };
        def.physics.gravity = Vec2::new(0.0, 600.0);
        place(&mut def, ArchetypeId(0), 0.0, 0.0);
        let mut g = plain(def);
        run(&mut g, 10);
        assert_eq!(state(&g, 1).0.y > 0.0, pulled, "{collider:?} {scale:?}");
    }
}

#[test]
fn drag_and_max_speed_slow_and_hold() {
    let a = ArchetypeDef {
        name: "a".into(),
        motion: Some(MotionDef {
            gravity_scale: Some(1.0),
            drag: 2.0,
            max_speed: Some(150.0),
        }),
        ..ArchetypeDef::default()
    };
    let mut def = GameDef {
        archetypes: vec![a],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    def.physics.gravity = Vec2::new(0.0, 1000.0);
    place_moving(&mut def, ArchetypeId(0), 0.0, 0.0, 1000.0, 0.0);
    let mut g = plain(def);
    run(&mut g, 1);
    assert!(
        (state(&g, 1).1.length() - 150.0).abs() < 1e-3,
        "held to max_speed"
    );
    run(&mut g, 600);
    // Terminal: gravity's 1000/s² against drag 2/s balances near 1000 / 2 = 500, under the
    // limit of 150: the limit holds, straight down.
    let v = state(&g, 1).1;
    assert!(v.x.abs() < 1.0 && (v.y - 150.0).abs() < 1e-2, "{v:?}");
}

#[test]
fn rotation_spins_and_faces_its_velocity() {
    let spinner = ArchetypeDef {
        name: "spinner".into(),
        rotation: Some(RotationDef {
            angle: 0.0,
            spin: 1.5,
            rotate: RotateMode::None,
        }),
        ..ArchetypeDef::default()
    };
    let arrow = ArchetypeDef {
        name: "arrow".into(),
        rotation: Some(RotationDef {
            rotate: RotateMode::Velocity,
            ..RotationDef::default()
        }),
        ..ArchetypeDef::default()
    };
    let mut def = GameDef {
        archetypes: vec![spinner, arrow],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    place(&mut def, ArchetypeId(0), 0.0, 0.0);
    place_moving(&mut def, ArchetypeId(1), 0.0, 0.0, 0.0, 30.0);
    let mut g = plain(def);
    run(&mut g, 60);
    let angle = |g: &Game, seq| {
        let e = g.world().entity(seq).unwrap();
        g.world().ecs().get::<&Rotation>(e).unwrap().angle
    };
    assert!((angle(&g, 1) - 1.5).abs() < 1e-4);
    assert!((angle(&g, 2) - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    // Spinning on wraps the angle into [-pi, pi).
    run(&mut g, 600);
    assert!((-std::f32::consts::PI..std::f32::consts::PI).contains(&angle(&g, 1)));
}

#[test]
fn contact_events_carry_the_normal_and_depth() {
    let mut def = ball_and_walls(BodyKind::Static, None);
    def.archetypes[0].collider.as_mut().unwrap().mask = 2;
    place(&mut def, BALL, 185.0, 0.0);
    place(&mut def, WALL_A, 200.0, 0.0);
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let out = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                for e in &g.events().collision_enter {
                    out.lock()
                        .unwrap()
                        .push((e.a.seq, e.b.seq, e.normal, e.depth));
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    // Ball (8) at 185 against the wall's left face at 190: 3 units deep, normal +x from a to b.
    assert_eq!(*seen.lock().unwrap(), [(1, 2, Vec2::new(1.0, 0.0), 3.0)]);
}
