//! Behaviours while the game runs: chasers that look only within a range, speeds and
//! behaviours that commands change, and the facing scripts read.
//!
//! The fixture runs at 64 ticks a second, so a speed of 64 moves one unit a tick, exactly.

mod support;

use ludus_core::*;
use support::*;

const PICKUP_SEQ: u64 = 3;

/// The fixture at 64 Hz.
fn def64() -> GameDef {
    let mut def = game_def();
    def.tick.rate_hz = 64;
    def
}

/// A chaser archetype of speed 64 deciding every tick, with `range` and `idle`.
fn chaser(name: &str, range: Option<f32>, idle: Idle) -> ArchetypeDef {
    ArchetypeDef {
        name: name.into(),
        speed: 64.0,
        behaviour: Some(BehaviourDef {
            cadence: Some(1),
            range,
            idle,
            ..BehaviourDef::new(BehaviourKind::Chase, T_PLAYER)
        }),
        ..ArchetypeDef::default()
    }
}

/// An entity's x and velocity after the last tick.
fn x_and_v(g: &Game, seq: u64) -> (f32, Vec2) {
    let (p, v) = state(g, seq);
    (p.x, v)
}

#[test]
fn chasers_chase_only_within_their_range() {
    let mut def = def64();
    def.archetypes[PLAYER.0 as usize].speed = 64.0;
    def.archetypes
        .push(chaser("stand", Some(100.0), Idle::Stop));
    def.archetypes.push(chaser("wait", Some(100.0), Idle::Stop));
    def.archetypes
        .push(chaser("roam", Some(100.0), Idle::Wander));
    def.archetypes.push(chaser("any", None, Idle::Stop));
    let (stand, wait, roam, any) = (
        ArchetypeId(5),
        ArchetypeId(6),
        ArchetypeId(7),
        ArchetypeId(8),
    );
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, stand, -60.0, 300.0);
    place(&mut def, wait, 130.0, 0.0);
    place(&mut def, roam, -200.0, -300.0);
    place(&mut def, any, 0.0, 400.0);
    let mut g = plain(def);
    // The player walks right at a unit a tick.
    let mut input = TickInput::neutral();
    input.set_axis(ActionId(0), 1.0);
    let mut rows = Vec::new();
    for tick in 1..=33u64 {
        g.step(&input).unwrap();
        if tick == 1 || tick >= 29 {
            rows.push((tick, x_and_v(&g, 3).0, x_and_v(&g, 2).1, x_and_v(&g, 4).1));
        }
    }
    // `wait` (at x = 130) decides every tick from the player's position at the tick's start:
    // 130 - (t - 1) is within 100 from tick 31, and from then both close in.
    // `stand` and `roam` (300 away) never have the player in range: `stand` stands still,
    // `roam` wanders at its speed; `any` has no range and chases from 400 away.
    let still = Vec2::ZERO;
    assert_eq!(
        rows.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(),
        vec![
            (1, 130.0),
            (29, 130.0),
            (30, 130.0),
            (31, 129.0),
            (32, 128.0),
            (33, 127.0)
        ],
        "`wait`'s x per tick"
    );
    for (tick, _, stand_v, roam_v) in &rows {
        assert_eq!(
            *stand_v, still,
            "tick {tick}: `stand` is out of range and stands"
        );
        let speed = roam_v.length();
        assert!(
            (speed - 64.0).abs() < 1e-3,
            "tick {tick}: `roam` wanders at its speed, got {roam_v:?}"
        );
    }
    // A new random heading at each decision (a chaser would keep one heading).
    let headings: Vec<Vec2> = rows.iter().map(|r| r.3).collect();
    assert!(
        headings.windows(2).all(|w| w[0] != w[1]),
        "`roam` turns at every decision: {headings:?}"
    );
    let (_, any_v) = x_and_v(&g, 5);
    assert!(
        any_v.y < -63.0,
        "`any` chases the player from 400 away: {any_v:?}"
    );
}

#[test]
fn a_range_leaves_content_without_one_exactly_as_it_was() {
    // The fixture's enemies have no range: one far away chases as before.
    let run = |range: Option<f32>| {
        let mut def = def64();
        if let Some(b) = def.archetypes[ENEMY.0 as usize].behaviour.as_mut() {
            b.range = range;
        }
        place(&mut def, PLAYER, 0.0, 0.0);
        place(&mut def, ENEMY, 5000.0, 0.0);
        let mut g = plain(def);
        let mut hashes = Vec::new();
        for _ in 0..20 {
            hashes.push(g.step(&TickInput::neutral()).unwrap().hash.unwrap().total);
        }
        (hashes, state(&g, ENEMY_SEQ))
    };
    let (without, enemy) = run(None);
    assert_eq!(enemy.0.x, 5000.0 - 20.0 * 60.0 / 64.0, "it chased 20 ticks");
    // A range wider than the distance decides the same, bit for bit.
    assert_eq!(run(Some(1_000_000.0)), (without, enemy));
}

#[test]
fn set_speed_takes_effect_the_next_tick() {
    let mut def = def64();
    def.archetypes[PLAYER.0 as usize].speed = 64.0;
    def.archetypes[ENEMY.0 as usize].speed = 64.0;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 0.0);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 3 {
                for target in [PLAYER_SEQ, ENEMY_SEQ] {
                    g.send(Command::SetSpeed {
                        target,
                        speed: 128.0,
                    })
                    .unwrap();
                }
            }
            Ok(())
        }),
    );
    let mut input = TickInput::neutral();
    input.set_axis(ActionId(0), 1.0);
    let mut xs = Vec::new();
    for tick in 1..=5 {
        g.step(&input).unwrap();
        xs.push((tick, state(&g, PLAYER_SEQ).0.x, state(&g, ENEMY_SEQ).0.x));
    }
    assert_eq!(
        xs,
        vec![
            (1, 1.0, 99.0),
            (2, 2.0, 98.0),
            (3, 3.0, 97.0),
            (4, 5.0, 95.0),
            (5, 7.0, 93.0)
        ],
        "(tick, player x, enemy x): twice as fast from the tick after the command"
    );
}

#[test]
fn set_behaviour_gives_swaps_and_removes_a_behaviour() {
    let mut def = def64();
    place(&mut def, PLAYER, -100.0, 0.0);
    place(&mut def, ENEMY, 50.0, 0.0);
    place(&mut def, PICKUP, 100.0, 0.0);
    let set = |kind: Option<BehaviourKind>| Command::SetBehaviour {
        target: PICKUP_SEQ,
        behaviour: kind.map(|k| BehaviourDef {
            cadence: Some(1),
            ..BehaviourDef::new(k, T_ENEMY)
        }),
    };
    let mut g = game(
        def,
        rules(move |stage, g| {
            let sent = match (stage, g.tick()) {
                (Stage::One, 2) => vec![
                    Command::SetSpeed {
                        target: PICKUP_SEQ,
                        speed: 64.0,
                    },
                    set(Some(BehaviourKind::Chase)),
                ],
                (Stage::One, 4) => vec![set(Some(BehaviourKind::Flee))],
                (Stage::Two, 6) => vec![set(None)],
                _ => vec![],
            };
            for c in sent {
                g.send(c).unwrap();
            }
            Ok(())
        }),
    );
    let mut rows = Vec::new();
    for tick in 1..=8 {
        g.step(&TickInput::neutral()).unwrap();
        let e = g.world().entity(PICKUP_SEQ).unwrap();
        let brain = g.world().ecs().get::<&Brain>(e).ok().map(|b| b.kind());
        rows.push((tick, state(&g, PICKUP_SEQ).0.x, brain));
    }
    use BehaviourKind::*;
    assert_eq!(
        rows,
        vec![
            (1, 100.0, None),
            (2, 100.0, Some(Chase)),
            (3, 99.0, Some(Chase)),
            (4, 98.0, Some(Flee)),
            (5, 99.0, Some(Flee)),
            (6, 100.0, None),
            (7, 101.0, None),
            (8, 102.0, None),
        ],
        "(tick, x, brain): the pickup chases the enemy (a tag no archetype's behaviour \
         looks for), flees it, then keeps its velocity with no behaviour"
    );
}

#[test]
fn a_behaviour_set_at_run_time_breaks_no_rule_an_archetype_keeps() {
    let mut def = def64();
    place(&mut def, PLAYER, 0.0, 0.0);
    let cases: Vec<(BehaviourDef, &str)> = vec![
        (
            BehaviourDef::new(BehaviourKind::Chase, 0),
            "a `chase` behaviour needs `target`: the tags it looks for",
        ),
        (
            BehaviourDef::new(BehaviourKind::Wander, T_PLAYER),
            "`target` is only used by `chase` and `flee`, not `wander`",
        ),
        (
            BehaviourDef {
                navigate: true,
                ..BehaviourDef::new(BehaviourKind::Flee, T_PLAYER)
            },
            "`navigate` only applies to `chase`, not `flee`",
        ),
        (
            BehaviourDef {
                range: Some(50.0),
                ..BehaviourDef::new(BehaviourKind::Straight, 0)
            },
            "`range` is only used by `chase` and `flee`, not `straight`",
        ),
        (
            BehaviourDef {
                idle: Idle::Wander,
                ..BehaviourDef::new(BehaviourKind::Chase, T_PLAYER)
            },
            "`idle` says what happens beyond `range`, and there is no `range`",
        ),
        (
            BehaviourDef {
                range: Some(-1.0),
                ..BehaviourDef::new(BehaviourKind::Chase, T_PLAYER)
            },
            "`range` must be above 0, at most 1000000, got -1",
        ),
        (
            BehaviourDef {
                cadence: Some(0),
                ..BehaviourDef::new(BehaviourKind::Wander, 0)
            },
            "`cadence` must be 1 to 3600, got 0",
        ),
        (
            BehaviourDef::new(BehaviourKind::Chase, 1 << 9),
            "`target` names tag bits the game does not declare (0x200)",
        ),
    ];
    let mut g = game(
        def,
        rules(move |_, g| {
            for (b, message) in &cases {
                let got = g.send(Command::SetBehaviour {
                    target: PLAYER_SEQ,
                    behaviour: Some(*b),
                });
                assert_eq!(got.unwrap_err().message, *message, "{b:?}");
            }
            let speed = g.send(Command::SetSpeed {
                target: PLAYER_SEQ,
                speed: -1.0,
            });
            assert_eq!(
                speed.unwrap_err().message,
                "a speed must be a finite number, not negative, got -1"
            );
            Ok(())
        }),
    );
    run(&mut g, 1);
}

#[test]
fn facing_is_the_control_facing_or_the_direction_of_motion() {
    let mut def = def64();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 0.0, 80.0);
    place(&mut def, PICKUP, 30.0, 30.0);
    let seen = log();
    let out = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                let f = [PLAYER_SEQ, ENEMY_SEQ, PICKUP_SEQ, 99].map(|s| g.facing(s));
                out.borrow_mut().push(format!("{} {f:?}", g.tick()));
            }
            Ok(())
        }),
    );
    let mut up = TickInput::neutral();
    up.set_axis(ActionId(1), -1.0);
    g.step(&TickInput::neutral()).unwrap();
    g.step(&up).unwrap();
    g.step(&TickInput::neutral()).unwrap();
    let p = |x: f32, y: f32| Some(Vec2::new(x, y));
    assert_eq!(
        *seen.borrow(),
        vec![
            // The player has not moved (+x at first); the enemy chases up toward it; the
            // pickup stands still; 99 is no entity.
            format!("1 {:?}", [p(1.0, 0.0), p(0.0, -1.0), p(0.0, 0.0), None]),
            format!("2 {:?}", [p(0.0, -1.0), p(0.0, -1.0), p(0.0, 0.0), None]),
            // Standing still keeps the last direction it was steered in.
            format!("3 {:?}", [p(0.0, -1.0), p(0.0, -1.0), p(0.0, 0.0), None]),
        ]
    );
}

#[test]
fn a_behaviour_set_at_run_time_decides_alike_in_a_world_large_enough_to_run_motion_fused() {
    let xs = |extra: u32| {
        let mut def = def64();
        def.archetypes[ENEMY.0 as usize].behaviour = None;
        place(&mut def, PLAYER, -100.0, 0.0);
        place(&mut def, ENEMY, 500.0, 500.0);
        place(&mut def, PICKUP, 100.0, 0.0);
        let c = rules(|stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                g.send(Command::SetSpeed {
                    target: PICKUP_SEQ,
                    speed: 64.0,
                })
                .unwrap();
                let b = BehaviourDef::new(BehaviourKind::Chase, T_PLAYER);
                g.send(Command::SetBehaviour {
                    target: PICKUP_SEQ,
                    behaviour: Some(b),
                })
                .unwrap();
            }
            Ok(())
        });
        let mut g = Game::with_entities(std::sync::Arc::new(def), c, extra).unwrap();
        (0..4)
            .map(|_| {
                g.step(&TickInput::neutral()).unwrap();
                state(&g, PICKUP_SEQ).0.x
            })
            .collect::<Vec<f32>>()
    };
    assert_eq!(xs(0), vec![100.0, 99.0, 98.0, 97.0]);
    assert_eq!(xs(1100), xs(0), "fused, the pickup chases the same");
}

#[test]
fn an_entity_holds_a_speed_only_where_it_is_its_own_and_moves_at_its_archetypes_else() {
    // Each kind of entity eight times at one place (no colliders): whole groups of rows.
    const COPIES: u64 = 8;
    let run = |extra: u32| {
        let mut def = def64();
        let slow = ArchetypeId(def.archetypes.len() as u16);
        def.archetypes.push(chaser("slow", None, Idle::Stop));
        def.archetypes.push(ArchetypeDef {
            speed: 128.0,
            ..chaser("fast", None, Idle::Stop)
        });
        let fast = ArchetypeId(slow.0 + 1);
        place(&mut def, PLAYER, 0.0, 0.0);
        // (archetype, x, speed of the spawn's options)
        let placed = [
            (slow, 100.0, None),
            (fast, 200.0, None),
            (slow, 300.0, Some(64.0)),
            (slow, 400.0, Some(192.0)),
            (slow, 500.0, None),
            (slow, 600.0, None),
        ];
        for (archetype, x, speed) in placed {
            for _ in 0..COPIES {
                def.levels[0].placements.push(Placement {
                    archetype,
                    pos: Vec2::new(x, 0.0),
                    overrides: Overrides {
                        speed,
                        ..Overrides::default()
                    },
                });
            }
        }
        // The sequences of the copies of kind `k` (0 for the first).
        let copies = |k: u64| (2 + k * COPIES)..(2 + (k + 1) * COPIES);
        let c = rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                for (kind, speed) in [(4, 64.0), (5, 32.0)] {
                    for target in copies(kind) {
                        g.send(Command::SetSpeed { target, speed }).unwrap();
                    }
                }
            }
            Ok(())
        });
        let mut g = Game::with_entities(std::sync::Arc::new(def), c, extra).unwrap();
        for _ in 0..3 {
            g.step(&TickInput::neutral()).unwrap();
        }
        (0..placed.len() as u64)
            .map(|k| {
                let mut seen: Vec<(f32, Option<f32>)> = copies(k)
                    .map(|seq| {
                        let e = g.world().entity(seq).unwrap();
                        let own = g.world().ecs().get::<&Speed>(e).map(|s| s.0).ok();
                        (state(&g, seq).0.x, own)
                    })
                    .collect();
                seen.dedup();
                (k, seen)
            })
            .collect::<Vec<_>>()
    };
    // (kind, its copies' x after three ticks and own speed): the speeds set at tick 1 from
    // tick 2 on.
    let want = vec![
        (0, vec![(97.0, None)]),
        (1, vec![(194.0, None)]),
        (2, vec![(297.0, None)]),
        (3, vec![(391.0, Some(192.0))]),
        (4, vec![(497.0, None)]),
        (5, vec![(598.0, Some(32.0))]),
    ];
    assert_eq!(run(0), want);
    assert_eq!(run(1100), want, "fused, among a crowd");
}

#[test]
fn an_own_behaviour_joins_the_state_hash_from_the_tick_it_is_set() {
    // The enemy's own behaviour is its archetype's with a range wider than the world: it
    // decides and moves exactly as before, and only the record of the behaviour it holds
    // tells the two worlds apart, in the AI part, from the tick it is set.
    let run = |set: bool| {
        let mut def = def64();
        place(&mut def, PLAYER, 0.0, 0.0);
        place(&mut def, ENEMY, 500.0, 0.0);
        let own = BehaviourDef {
            range: Some(1_000_000.0),
            ..def.archetypes[ENEMY.0 as usize].behaviour.unwrap()
        };
        let mut g = game(
            def,
            rules(move |stage, g| {
                if set && stage == Stage::One && g.tick() == 3 {
                    let behaviour = Some(own);
                    g.send(Command::SetBehaviour {
                        target: ENEMY_SEQ,
                        behaviour,
                    })
                    .unwrap();
                }
                Ok(())
            }),
        );
        let mut hashes = Vec::new();
        for _ in 0..6 {
            hashes.push(g.step(&TickInput::neutral()).unwrap().hash.unwrap());
        }
        hashes
    };
    let (without, with) = (run(false), run(true));
    for (tick, (a, b)) in (1..).zip(without.iter().zip(&with)) {
        let want = if tick < 3 { vec![] } else { vec![HashPart::Ai] };
        assert_eq!(a.differing_parts(b), want, "tick {tick}");
    }
}
