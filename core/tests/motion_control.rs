//! The thrust and platformer control kinds: turning and thrust, landing, running and
//! jumping, buffered and coyote-timed presses, moving platforms and tile seams, each against
//! what it promises.

mod support;

use ludus_core::*;
use support::*;

fn controlled(kind: ControlKind) -> (GameDef, ActionId, ActionId) {
    let mut actions = ActionSet::new();
    let axis = actions.add("axis", ActionKind::Axis).unwrap();
    let button = actions.add("button", ActionKind::Button).unwrap();
    let ship = ArchetypeDef {
        name: "ship".into(),
        speed: 200.0,
        collider: Some(ColliderDef::new(
            Shape::Box {
                half: Vec2::new(8.0, 8.0),
            },
            1,
            0,
            2,
        )),
        control: Some(ControlDef {
            kind,
            ..ControlDef::default()
        }),
        ..ArchetypeDef::default()
    };
    let floor = ArchetypeDef {
        name: "floor".into(),
        collider: Some(ColliderDef {
            body: BodyKind::Static,
            ..ColliderDef::new(
                Shape::Box {
                    half: Vec2::new(1000.0, 10.0),
                },
                2,
                0,
                0,
            )
        }),
        ..ArchetypeDef::default()
    };
    let def = GameDef {
        actions,
        archetypes: vec![ship, floor],
        levels: vec![LevelDef::default()],
        ..GameDef::default()
    };
    (def, axis, button)
}

#[test]
fn thrust_turns_and_pushes_along_the_facing() {
    let kind = ControlKind::Thrust(ThrustDef {
        turn: Some(ActionId(0)),
        thrust: Some(ActionId(1)),
        turn_speed: std::f32::consts::PI,
        accel: 120.0,
    });
    let (mut def, turn, thrust) = controlled(kind);
    place(&mut def, ArchetypeId(0), 0.0, 0.0);
    let mut g = plain(def);
    // Half a second of full right turn: a quarter turn, facing +y (down the screen).
    let mut input = TickInput::neutral();
    input.set_axis(turn, 1.0);
    for _ in 0..30 {
        g.step(&input).unwrap();
    }
    // A second of thrust: 120 units/s along +y.
    let mut input = TickInput::neutral();
    input.set_held(thrust, true);
    for _ in 0..60 {
        g.step(&input).unwrap();
    }
    let v = state(&g, 1).1;
    assert!(v.x.abs() < 1e-3 && (v.y - 120.0).abs() < 1e-3, "{v:?}");
}

fn platformer() -> (GameDef, ActionId, ActionId) {
    let kind = ControlKind::Platformer(PlatformerDef {
        run: Some(ActionId(0)),
        jump: Some(ActionId(1)),
        accel: 0.0,
        jump_speed: 500.0,
        coyote: 4,
        buffer: 4,
        cut: 0.5,
    });
    let (mut def, run_axis, jump) = controlled(kind);
    def.physics.gravity = Vec2::new(0.0, 1000.0);
    place(&mut def, ArchetypeId(0), 0.0, -40.0);
    place(&mut def, ArchetypeId(1), 0.0, 0.0);
    (def, run_axis, jump)
}

#[test]
fn a_platformer_lands_runs_and_jumps() {
    let (def, run_axis, jump) = platformer();
    let mut g = plain(def);
    run(&mut g, 60);
    let (p, v) = state(&g, 1);
    // Standing on the floor (its top at -10, the body's half height 8).
    assert!(
        (p.y + 18.0).abs() < 0.5 && v.y.abs() < 1e-3,
        "landed: {p:?} {v:?}"
    );
    let mut input = TickInput::neutral();
    input.set_axis(run_axis, 1.0);
    g.step(&input).unwrap();
    assert_eq!(state(&g, 1).1.x, 200.0, "runs at speed");
    input.set_axis(run_axis, 0.0);
    input.set_held(jump, true);
    input.set_pressed(jump, true);
    g.step(&input).unwrap();
    let vy = state(&g, 1).1.y;
    assert!((vy + 500.0).abs() < 20.0, "jumped: {vy}");
    // Held: a full jump peaks at v² / 2g = 125 units above the floor.
    let mut held = TickInput::neutral();
    held.set_held(jump, true);
    let mut top = 0.0f32;
    for _ in 0..90 {
        g.step(&held).unwrap();
        top = top.min(state(&g, 1).0.y);
    }
    assert!((top + 18.0 + 125.0).abs() < 10.0, "peak {top}");
}

#[test]
fn a_short_press_jumps_lower_and_presses_are_buffered_and_coyote_timed() {
    // (ticks the button is held after the press, the peak's height above the standing y)
    let heights: Vec<f32> = [30u32, 2]
        .iter()
        .map(|&hold| {
            let (def, _, jump) = platformer();
            let mut g = plain(def);
            run(&mut g, 60);
            let ground = state(&g, 1).0.y;
            let mut input = TickInput::neutral();
            input.set_held(jump, true);
            input.set_pressed(jump, true);
            g.step(&input).unwrap();
            let mut held = TickInput::neutral();
            held.set_held(jump, true);
            let mut top = ground;
            for k in 0..90 {
                let i = if k < hold {
                    &held
                } else {
                    &TickInput::neutral()
                };
                g.step(i).unwrap();
                top = top.min(state(&g, 1).0.y);
            }
            ground - top
        })
        .collect();
    assert!(heights[1] < heights[0] * 0.6, "{heights:?}");

    // A press 3 ticks before landing (buffer 4) jumps on landing; 8 ticks before does not.
    for (early, jumps) in [(3u64, true), (8, false)] {
        let (def, _, jump) = platformer();
        let mut g = plain(def);
        // Falling onto the floor: find the landing tick first.
        let mut probe = plain(platformer().0);
        let mut landing = 0;
        for t in 1..60 {
            run(&mut probe, 1);
            if state(&probe, 1).1.y == 0.0 {
                landing = t;
                break;
            }
        }
        for t in 1..=landing + 20 {
            let mut input = TickInput::neutral();
            if t + early == landing {
                input.set_held(jump, true);
                input.set_pressed(jump, true);
            }
            g.step(&input).unwrap();
        }
        let risen = state(&g, 1).0.y < -18.0 - 10.0;
        assert_eq!(
            risen, jumps,
            "pressed {early} ticks before landing (tick {landing})"
        );
    }
}

#[test]
fn a_moving_platform_carries_what_stands_on_it() {
    let (mut def, _, _) = platformer();
    // The floor becomes a kinematic platform moving right.
    def.archetypes[1].collider.as_mut().unwrap().body = BodyKind::Kinematic;
    def.levels[0].placements[1].overrides.velocity = Some(Vec2::new(60.0, 0.0));
    let mut g = plain(def);
    run(&mut g, 60);
    let (p0, _) = state(&g, 1);
    let (f0, _) = state(&g, 2);
    run(&mut g, 60);
    let (p1, v) = state(&g, 1);
    let (f1, _) = state(&g, 2);
    assert!((f1.x - f0.x - 60.0).abs() < 1e-3);
    assert!(
        ((p1.x - p0.x) - (f1.x - f0.x)).abs() < 1e-2 && (v.x - 60.0).abs() < 1e-3,
        "the rider moved {} with the platform's {}",
        p1.x - p0.x,
        f1.x - f0.x
    );
    assert!((p1.y + 18.0).abs() < 0.5, "still standing: {p1:?}");
}

#[test]
fn a_body_across_the_seam_of_two_tiles_is_lifted_once() {
    // Two floor tiles meeting at x = 0; the body lands across the seam.
    let rest = |tiles: &[f32]| {
        let (mut def, _, _) = platformer();
        def.archetypes[1].collider.as_mut().unwrap().shape = Shape::Box {
            half: Vec2::new(50.0, 10.0),
        };
        def.levels[0].placements.truncate(1);
        def.levels[0].placements[0].pos = Vec2::new(0.0, -40.0);
        for &x in tiles {
            place(&mut def, ArchetypeId(1), x, 0.0);
        }
        let mut g = plain(def);
        let mut ys = Vec::new();
        for _ in 0..120 {
            run(&mut g, 1);
            ys.push(state(&g, 1).0.y);
        }
        ys
    };
    let seam = rest(&[-50.0, 50.0]);
    let whole = rest(&[0.0]);
    assert_eq!(seam, whole, "the seam behaves like one tile");
}
