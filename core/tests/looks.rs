//! Looks: `set_look` and the spawn options `size`, `scale` and `angle`, as the world keeps them
//! and presentation draws them; angles set by command drawn turning like positions move; the
//! state hash of a game that changes no look is what it always was.

mod support;

use ludus_core::*;
use support::*;

/// Sequences of the pickup and the wall of [`pickup_and_wall`].
const PICKUP_SEQ: u64 = 1;
const WALL_SEQ: u64 = 2;

fn drawn(g: &Game, interpolation: Interpolation) -> RenderFrame {
    let mut frame = RenderFrame::with_capacity(64);
    frame.extract(g.world(), g.def(), interpolation);
    frame
}

/// The draw of entity `seq`, if it is drawn.
fn draw_of(g: &Game, seq: u64, interpolation: Interpolation) -> Option<Draw> {
    drawn(g, interpolation)
        .draws
        .into_iter()
        .find(|d| d.seq == seq)
}

/// Consequences that send, in stage 1 of tick `t`, the commands `at(t, g)` gives.
fn at_ticks(
    mut at: impl FnMut(u64, &mut Gameplay<'_>) -> Vec<Command> + 'static,
) -> Box<dyn Consequences> {
    rules(move |stage, g| {
        if stage == Stage::One {
            for c in at(g.tick(), g) {
                g.send(c).map_err(CommandError::into_fault)?;
            }
        }
        Ok(())
    })
}

fn look(target: u64, look: Look) -> Command {
    Command::SetLook { target, look }
}

/// What a draw shows of a look: size, alpha, flips, layer.
fn shown(d: Option<Draw>) -> Option<(Vec2, u8, bool, bool, i16)> {
    d.map(|d| (d.size, d.color.a, d.flip_x, d.flip_y, d.layer))
}

#[test]
fn a_look_is_drawn_from_the_tick_it_is_set_until_changed() {
    let mut g = game(
        pickup_and_wall(),
        at_ticks(|t, _| match t {
            2 => vec![look(
                PICKUP_SEQ,
                Look {
                    scale: Some(Vec2::new(2.0, 3.0)),
                    alpha: Some(0.5),
                    ..Look::default()
                },
            )],
            // The scale and alpha are kept; these are added.
            3 => vec![look(
                PICKUP_SEQ,
                Look {
                    flip_y: Some(true),
                    flip_x: Some(true),
                    layer: Some(-4),
                    color: Some(Color::rgba(10, 20, 30, 200)),
                    ..Look::default()
                },
            )],
            4 => vec![
                look(
                    WALL_SEQ,
                    Look {
                        visible: Some(false),
                        ..Look::default()
                    },
                ),
                look(
                    PICKUP_SEQ,
                    Look {
                        flip_x: Some(false),
                        alpha: Some(1.0),
                        ..Look::default()
                    },
                ),
            ],
            5 => vec![look(
                WALL_SEQ,
                Look {
                    visible: Some(true),
                    ..Look::default()
                },
            )],
            _ => vec![],
        }),
    );
    let size = |w: f32, h: f32| Vec2::new(w, h);
    // After each tick: the pickup's draw and the wall's.
    type Shown = Option<(Vec2, u8, bool, bool, i16)>;
    let expected: [(u64, Shown, Shown); 5] = [
        (
            1,
            Some((size(8.0, 8.0), 255, false, false, 0)),
            Some((size(32.0, 32.0), 255, false, false, 0)),
        ),
        (
            2,
            Some((size(16.0, 24.0), 128, false, false, 0)),
            Some((size(32.0, 32.0), 255, false, false, 0)),
        ),
        (
            3,
            Some((size(16.0, 24.0), 100, true, true, -4)),
            Some((size(32.0, 32.0), 255, false, false, 0)),
        ),
        (4, Some((size(16.0, 24.0), 200, false, true, -4)), None),
        (
            5,
            Some((size(16.0, 24.0), 200, false, true, -4)),
            Some((size(32.0, 32.0), 255, false, false, 0)),
        ),
    ];
    for (tick, pickup, wall) in expected {
        run(&mut g, 1);
        let exact = Interpolation::Exact;
        assert_eq!(
            (
                shown(draw_of(&g, PICKUP_SEQ, exact)),
                shown(draw_of(&g, WALL_SEQ, exact))
            ),
            (pickup, wall),
            "after tick {tick}"
        );
    }
    // The colour replaced the sprite's white; the layer sorts it before the wall.
    let frame = drawn(&g, Interpolation::Exact);
    let colors: Vec<(u64, Color)> = frame.draws.iter().map(|d| (d.seq, d.color)).collect();
    assert_eq!(
        colors,
        [
            (PICKUP_SEQ, Color::rgba(10, 20, 30, 200)),
            (WALL_SEQ, Color::WHITE)
        ]
    );
}

#[test]
fn a_sprites_alpha_and_flip_y_are_drawn() {
    let mut def = pickup_and_wall();
    let s = def.archetypes[PICKUP.0 as usize].sprite.as_mut().unwrap();
    (s.alpha, s.flip_y, s.color) = (0.25, true, Color::rgba(255, 0, 0, 200));
    let g = game(def, Box::new(NoConsequences));
    let d = draw_of(&g, PICKUP_SEQ, Interpolation::Exact).unwrap();
    assert_eq!((d.color, d.flip_y), (Color::rgba(255, 0, 0, 50), true));
}

#[test]
fn a_label_is_hidden_faded_and_scaled_with_its_entity() {
    let mut def = pickup_and_wall();
    def.archetypes[WALL.0 as usize].label = Some(LabelDef {
        text: "WALL".into(),
        size: 10.0,
        color: Color::WHITE,
        offset: Vec2::new(4.0, -20.0),
        font: None,
    });
    let scaled = Look {
        scale: Some(Vec2::new(3.0, 2.0)),
        alpha: Some(0.5),
        ..Look::default()
    };
    let hidden = Look {
        visible: Some(false),
        ..Look::default()
    };
    let mut g = game(
        def,
        at_ticks(move |t, _| match t {
            2 => vec![look(WALL_SEQ, scaled)],
            3 => vec![look(WALL_SEQ, hidden)],
            _ => vec![],
        }),
    );
    let text = |g: &Game| {
        drawn(g, Interpolation::Exact)
            .texts
            .first()
            .map(|t| (t.pos, t.size, t.color.a))
    };
    run(&mut g, 1);
    assert_eq!(text(&g), Some((Vec2::new(104.0, -20.0), 10.0, 255)));
    run(&mut g, 1);
    assert_eq!(text(&g), Some((Vec2::new(112.0, -40.0), 20.0, 128)));
    run(&mut g, 1);
    assert_eq!(text(&g), None, "hidden");
}

/// The collider shape and the drawn size, angle and look of entity `seq`.
fn made(g: &Game, seq: u64) -> (Shape, Vec2, f32, Option<Look>) {
    let e = g.world().entity(seq).expect("it lives");
    let ecs = g.world().ecs();
    let shape = g.collider(seq).expect("a collider").shape();
    let look = ecs.get::<&Look>(e).ok().map(|l| *l);
    let d = draw_of(g, seq, Interpolation::Alpha(0.5)).expect("drawn");
    (shape, d.size, d.angle, look)
}

#[test]
fn spawn_options_size_the_sprite_and_collider_scale_the_look_and_turn_it() {
    let spawn = |archetype, overrides: Overrides| Command::Spawn {
        archetype,
        pos: Vec2::new(0.0, 50.0),
        overrides: overrides.into(),
    };
    let with = |size: Option<Vec2>, scale: Option<Vec2>, angle: Option<f32>| Overrides {
        size,
        scale,
        angle,
        ..Overrides::default()
    };
    let mut g = game(
        pickup_and_wall(),
        at_ticks(move |t, _| {
            if t != 1 {
                return vec![];
            }
            vec![
                spawn(WALL, with(Some(Vec2::new(40.0, 10.0)), None, None)),
                spawn(PICKUP, with(Some(Vec2::new(10.0, 30.0)), None, None)),
                spawn(PICKUP, with(None, Some(Vec2::new(2.0, 2.0)), None)),
                spawn(WALL, with(None, None, Some(1.0))),
                spawn(WALL, with(None, None, Some(7.0))),
            ]
        }),
    );
    run(&mut g, 1);
    let scaled = Look {
        scale: Some(Vec2::new(2.0, 2.0)),
        ..Look::default()
    };
    let boxed = |w: f32, h: f32| Shape::Box {
        half: Vec2::new(w / 2.0, h / 2.0),
    };
    // Drawn half-way into the tick after the spawn: a new entity's angle does not turn in.
    let expected = [
        (3, (boxed(40.0, 10.0), Vec2::new(40.0, 10.0), 0.0, None)),
        (
            4,
            (
                Shape::Circle { radius: 15.0 },
                Vec2::new(10.0, 30.0),
                0.0,
                None,
            ),
        ),
        (
            5,
            (
                Shape::Circle { radius: 6.0 },
                Vec2::new(16.0, 16.0),
                0.0,
                Some(scaled),
            ),
        ),
        (6, (boxed(32.0, 32.0), Vec2::new(32.0, 32.0), 1.0, None)),
        (
            7,
            (
                boxed(32.0, 32.0),
                Vec2::new(32.0, 32.0),
                // Wrapped into [-pi, pi), as `set_angle` wraps.
                (7.0f32 + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                    - std::f32::consts::PI,
                None,
            ),
        ),
    ];
    for (seq, want) in expected {
        assert_eq!(made(&g, seq), want, "entity {seq}");
    }
    // Only a sprite its spawn sized is an entity's own; the others draw their archetype's.
    let ecs = g.world().ecs();
    let sprites: Vec<(bool, bool)> = (3..=7)
        .map(|seq| {
            let e = g.world().entity(seq).unwrap();
            (ecs.get::<&Sprite>(e).is_ok(), ecs.get::<&Drawn>(e).is_ok())
        })
        .collect();
    let own = (true, false);
    let declared = (false, true);
    assert_eq!(sprites, [own, own, declared, declared, declared]);
}

/// The angle entity `seq` is drawn at, half-way into the last tick.
fn half_way_angle(g: &Game, seq: u64) -> f32 {
    draw_of(g, seq, Interpolation::Alpha(0.5)).unwrap().angle
}

#[test]
fn set_angle_is_drawn_turning_the_short_way_and_a_jump_or_a_spawn_is_not() {
    let mut g = game(
        pickup_and_wall(),
        at_ticks(|t, _| match t {
            1 => vec![Command::SetAngle {
                target: PICKUP_SEQ,
                angle: 3.0,
            }],
            // Across the wrap at pi: through pi, not back through 0.
            2 => vec![Command::SetAngle {
                target: PICKUP_SEQ,
                angle: -3.0,
            }],
            3 => vec![
                Command::SetAngle {
                    target: PICKUP_SEQ,
                    angle: 1.0,
                },
                Command::Teleport {
                    target: PICKUP_SEQ,
                    pos: Vec2::new(5.0, 5.0),
                },
            ],
            // The next entity is the third.
            4 => vec![
                Command::Spawn {
                    archetype: PICKUP,
                    pos: Vec2::ZERO,
                    overrides: Default::default(),
                },
                Command::SetAngle {
                    target: 3,
                    angle: 2.0,
                },
            ],
            _ => vec![],
        }),
    );
    let pi = std::f32::consts::PI;
    // Tick, the pickup's angle half-way into it (to 1e-5: the arc is computed in f32) and at
    // its end. Tick 2 turns from 3 to -3 through pi (the long way would pass 0).
    let expected = [(1, 1.5, 3.0), (2, pi, -3.0)];
    for (tick, half, end) in expected {
        run(&mut g, 1);
        let exact = draw_of(&g, PICKUP_SEQ, Interpolation::Exact).unwrap().angle;
        let between = half_way_angle(&g, PICKUP_SEQ);
        assert!(
            (between - half).abs() < 1e-5 && exact == end,
            "tick {tick}: half-way {between}, at the end {exact}"
        );
    }
    run(&mut g, 1);
    assert_eq!(
        half_way_angle(&g, PICKUP_SEQ),
        1.0,
        "a teleport does not turn in"
    );
    run(&mut g, 1);
    assert_eq!(half_way_angle(&g, 3), 2.0, "a spawn does not turn in");
}

/// The hashes of 40 ticks of the fixture arena with consequences `c`.
fn hashes(c: Box<dyn Consequences>) -> Vec<u64> {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 50.0);
    place(&mut def, WALL, -60.0, 0.0);
    let mut g = game(def, c);
    (0..40)
        .map(|_| {
            g.step(&TickInput::neutral())
                .expect("tick runs")
                .hash
                .expect("hashed")
                .total
        })
        .collect()
}

/// Turns, spawns and moves without any look: the commands whose handling looks touched.
fn no_looks() -> Box<dyn Consequences> {
    at_ticks(|t, _| match t % 7 {
        1 => vec![Command::SetAngle {
            target: ENEMY_SEQ,
            angle: t as f32 * 0.7,
        }],
        3 => vec![Command::Spawn {
            archetype: WALL,
            pos: Vec2::new(t as f32, 90.0),
            overrides: Overrides {
                size: Some(Vec2::new(6.0, 3.0)),
                ..Overrides::default()
            }
            .into(),
        }],
        5 => vec![Command::Teleport {
            target: ENEMY_SEQ,
            pos: Vec2::new(80.0, -(t as f32)),
        }],
        _ => vec![],
    })
}

#[test]
fn a_game_without_looks_hashes_as_it_always_did() {
    let h = hashes(no_looks());
    // Computed by the build before looks existed.
    assert_eq!(
        (format!("{:016x}", h[9]), format!("{:016x}", h[39])),
        (
            "310995b4b8074850".to_string(),
            "4db7a1118ed0b936".to_string()
        )
    );
}

#[test]
fn a_look_joins_the_hash_from_the_tick_it_is_set() {
    let plain = hashes(no_looks());
    let mut inner = no_looks();
    let looked = hashes(rules(move |stage, g| {
        inner.stage(stage, g)?;
        if stage == Stage::One && g.tick() == 20 {
            let faded = Look {
                alpha: Some(0.5),
                ..Look::default()
            };
            g.send(look(ENEMY_SEQ, faded))
                .map_err(CommandError::into_fault)?;
        }
        Ok(())
    }));
    let same: Vec<bool> = plain.iter().zip(&looked).map(|(a, b)| a == b).collect();
    let expected: Vec<bool> = (1..=40).map(|t| t < 20).collect();
    assert_eq!(same, expected, "equal before tick 20, different from it");
}
