//! Bounds are enforced while filling: content and consequences that ask for more than a limit
//! meet a capacity fault at the first item over it, naming the `[limits]` key to raise, and no
//! queue or table ever reserves room past its bound, even in the faulting tick.

mod support;

use ludus_core::*;
use support::*;

/// Index of the crowd archetypes added to the fixture by [`crowd_def`].
const BLOB: ArchetypeId = ArchetypeId(5);
const PUSHER: ArchetypeId = ArchetypeId(6);
const DUMMY: ArchetypeId = ArchetypeId(7);
const SEEKER: ArchetypeId = ArchetypeId(8);
const DUMMY_SEEKING_WALLS: ArchetypeId = ArchetypeId(9);

/// The fixture plus a body that reports its own layer, one that only pushes it, one that looks
/// at nothing, one that looks at the dummies and one on the dummies' layer that looks at walls.
fn crowd_def() -> GameDef {
    let mut def = game_def();
    let body = |name: &str, layer, mask, push| ArchetypeDef {
        name: name.into(),
        collider: Some(ColliderDef {
            push,
            ..circle(4.0, layer, mask)
        }),
        ..ArchetypeDef::default()
    };
    def.archetypes.extend([
        body("blob", L_ENEMY, L_ENEMY, 0),
        body("pusher", L_ENEMY, 0, L_ENEMY),
        body("dummy", L_ENEMY, 0, 0),
        body("seeker", L_BULLET, L_ENEMY, 0),
        body("wall seeker", L_ENEMY, L_WALL, 0),
    ]);
    def
}

/// `count` entities of each archetype at the origin.
fn pile(def: &mut GameDef, crowd: &[(ArchetypeId, usize)]) {
    for &(archetype, count) in crowd {
        for _ in 0..count {
            place(def, archetype, 0.0, 0.0);
        }
    }
}

/// Every bounded queue of the world holds no more room than its bound.
fn assert_room_within_bounds(g: &Game, case: &str) {
    for (queue, room, bound) in g.queue_room() {
        assert!(
            room <= bound,
            "{case}: {queue} reserved {room}, bound {bound}"
        );
    }
}

/// The first tick faults with a capacity fault in `phase` that names `key`.
fn assert_capacity_fault(g: &mut Game, phase: Phase, key: &str, case: &str) -> Fault {
    let f = g
        .step(&TickInput::neutral())
        .expect_err(&format!("{case}: the tick must fault"));
    assert_eq!(
        (f.kind, f.phase),
        (FaultKind::Capacity, Some(phase)),
        "{case}: {f}"
    );
    let raise = format!("(raise [limits] {key})");
    assert!(f.message.contains(&raise), "{case}: {f}");
    assert_room_within_bounds(g, case);
    f
}

/// A crowd: how many of each archetype.
type Crowd = &'static [(ArchetypeId, usize)];

/// Colliders piled at one point form about n²/2 pairs; each way the broadphase can find them
/// stops at `[limits] contacts`.
#[test]
fn crowds_at_one_point_fault_at_the_contact_bound() {
    let cases: [(&str, Crowd, Option<f32>); 6] = [
        ("20k that report each other", &[(BLOB, 20_000)], None),
        ("50k that report each other", &[(BLOB, 50_000)], None),
        ("20k that only push each other", &[(PUSHER, 20_000)], None),
        (
            "seekers among a crowd",
            &[(DUMMY, 40_000), (SEEKER, 400)],
            None,
        ),
        (
            "every body larger than a cell",
            &[(BLOB, 20_000)],
            Some(1.0),
        ),
        ("one cell holds them all", &[(BLOB, 20_000)], Some(1.0e6)),
    ];
    for (case, crowd, cell) in cases {
        let mut def = crowd_def();
        pile(&mut def, crowd);
        def.physics.cell_size = cell;
        let mut g = game(def, Box::new(NoConsequences));
        let f = assert_capacity_fault(&mut g, Phase::Motion, "contacts", case);
        assert!(
            f.message
                .starts_with("more than 262144 overlapping collider pairs in one tick"),
            "{case}: {f}"
        );
    }
}

/// Bodies that hurt each other by contact queue two hits a contact, and the hits reserve no
/// room past twice `[limits] contacts`, in a pile whose contacts fault on the events bound as
/// in one whose contacts fit.
#[test]
fn contact_damage_in_a_pile_stays_within_its_bound() {
    for (case, n, events) in [
        ("700 in a pile", 700, None),
        ("120 in a pile", 120, Some(100_000)),
    ] {
        let mut def = crowd_def();
        def.archetypes[BLOB.0 as usize].tags = T_ENEMY;
        def.archetypes[BLOB.0 as usize].health = Some(HealthDef {
            max: 1_000_000,
            invulnerable_ticks: 0,
        });
        def.archetypes[BLOB.0 as usize].contact_damage = Some(ContactDamageDef {
            amount: 1,
            to: T_ENEMY,
            once: false,
        });
        if let Some(e) = events {
            def.limits.events_per_tick = e;
        }
        pile(&mut def, &[(BLOB, n)]);
        let mut g = game(def, Box::new(NoConsequences));
        match events {
            None => {
                assert_capacity_fault(&mut g, Phase::Motion, "events", case);
            }
            Some(_) => {
                for _ in 0..3 {
                    g.step(&TickInput::neutral()).unwrap();
                    assert_room_within_bounds(&g, case);
                }
                // Every blob hit by every other once a tick (n - 1 hits), for three ticks.
                let health: Vec<i32> = g
                    .world()
                    .ecs()
                    .query::<&Health>()
                    .iter()
                    .map(|h| h.current)
                    .collect();
                assert_eq!(health.len(), n, "{case}");
                let expected = 1_000_000 - 3 * (n as i32 - 1);
                assert!(health.iter().all(|&h| h == expected), "{case}: {health:?}");
            }
        }
    }
}

/// Changes a game for one case.
type Setup = fn(&mut GameDef);

/// `n` bodies that look at walls, 10 units apart on a grid 200 wide.
fn spread(def: &mut GameDef, n: usize) {
    for i in 0..n {
        let (x, y) = ((i % 200) as f32 * 10.0, (i / 200) as f32 * 10.0);
        place(def, DUMMY_SEEKING_WALLS, x, y);
    }
}

/// Piles that find no pairs still cost the broadphase time: it examines at most 256
/// candidates per pair `[limits] contacts` allows, plus 64 per collider, then faults instead of
/// taking time quadratic in the number of colliders. (Their walls are many, 2,600 in a row far
/// off, so the walls do not look for the crowd in its place: see the next test.)
#[test]
fn crowds_without_pairs_fault_at_the_candidate_budget() {
    let cases: [(&str, Setup); 3] = [
        ("20k at one point that look past each other", |def| {
            pile(def, &[(DUMMY_SEEKING_WALLS, 20_000)]);
        }),
        ("20k spread inside one huge cell", |def| {
            spread(def, 20_000);
            def.physics.cell_size = Some(1.0e6);
        }),
        ("20k spread, each larger than a cell", |def| {
            spread(def, 20_000);
            def.physics.cell_size = Some(0.5);
        }),
    ];
    for (case, setup) in cases {
        let mut def = crowd_def();
        def.limits.contacts_per_tick = 10_000;
        for k in 0..2_600 {
            place(&mut def, WALL, -5_000.0 - 20.0 * k as f32, -5_000.0);
        }
        setup(&mut def);
        let mut g = game(def, Box::new(NoConsequences));
        let f = assert_capacity_fault(&mut g, Phase::Motion, "contacts", case);
        let budget = 10_000 * 256 + 22_600 * 64;
        assert!(
            f.message.starts_with(&format!(
                "more than {budget} candidate collider pairs examined in one tick"
            )),
            "{case}: {f}"
        );
    }
}

/// 20k bodies piled at one point that look only for walls, with one wall far off: the wall
/// looks for them in their place (a layer of a few against a crowd), so the pile costs the
/// search one querier's neighbourhood, not its quadratic candidates, and the tick runs.
#[test]
fn a_pile_that_looks_for_a_few_is_searched_from_the_few() {
    let mut def = crowd_def();
    def.limits.contacts_per_tick = 10_000;
    place(&mut def, WALL, -5_000.0, -5_000.0);
    pile(&mut def, &[(DUMMY_SEEKING_WALLS, 20_000)]);
    let mut g = game(def, Box::new(NoConsequences));
    g.step(&TickInput::neutral()).expect("the tick runs");
    assert_eq!(g.events().collision_enter.len(), 0, "no pair");
}

#[test]
fn a_raised_contact_bound_admits_the_crowd() {
    let mut def = crowd_def();
    pile(&mut def, &[(BLOB, 100)]);
    def.limits.contacts_per_tick = 100 * 99 / 2;
    def.limits.events_per_tick = 100 * 99 / 2;
    let mut g = game(def.clone(), Box::new(NoConsequences));
    let report = g.step(&TickInput::neutral()).expect("every pair fits");
    assert_eq!(g.events().collision_enter.len(), 4950, "{report:?}");
    assert_room_within_bounds(&g, "exactly at the bound");

    def.limits.contacts_per_tick -= 1;
    let mut g = game(def, Box::new(NoConsequences));
    assert_capacity_fault(&mut g, Phase::Motion, "contacts", "one pair over");
}

/// The worst case of the contact bound runs in a child process under a 1 GiB address-space
/// limit: it must end with the fault, not abort for memory (all pairs of 50,000 bodies at one
/// point would take about 70 GB).
#[cfg(target_os = "linux")]
#[test]
fn the_worst_crowd_fits_in_bounded_memory() {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" --exact worst_crowd_child --test-threads=1")
        .arg(exe)
        .env("LUDUS_WORST_CROWD", "1")
        .output()
        .expect("sh runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the child ended with {:?}:\n{text}",
        out.status
    );
    assert!(text.contains("1 passed"), "the child ran the case:\n{text}");
}

/// The child of [`the_worst_crowd_fits_in_bounded_memory`]; does nothing in a normal run.
#[test]
fn worst_crowd_child() {
    if std::env::var_os("LUDUS_WORST_CROWD").is_none() {
        return;
    }
    let mut def = crowd_def();
    pile(&mut def, &[(BLOB, 50_000)]);
    let mut g = game(def, Box::new(NoConsequences));
    assert_capacity_fault(&mut g, Phase::Motion, "contacts", "child");
}

/// 60,000 new variable names in one stage: the first one past `[limits] variables` is
/// refused as it is sent, naming itself, and the faulted stage applies nothing.
#[test]
fn new_variable_names_fault_at_the_limit() {
    let mut g = game(
        game_def(),
        rules(|stage, g| {
            if stage == Stage::One {
                for i in 0..60_000 {
                    g.send(Command::SetVar(format!("v{i:05}"), Var::Num(1.0)))
                        .map_err(|e| e.into_fault())?;
                }
            }
            Ok(())
        }),
    );
    let f = assert_capacity_fault(&mut g, Phase::Gameplay, "variables", "60k names");
    assert_eq!(
        f.message,
        "more than 1024 game variables: `v01024` would be one more (raise [limits] variables)"
    );
    assert_eq!(g.world().vars().len(), 0);
}

#[test]
fn existing_variables_update_at_the_limit() {
    let mut def = game_def();
    def.limits.variables = 3;
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One {
                for i in 0..30_000 {
                    let name = ["a", "b", "c"][i % 3];
                    g.send(Command::SetVar(name.into(), Var::Num(i as f64)))
                        .map_err(|e| e.into_fault())?;
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 5);
    let vars: Vec<(&str, f64)> = g
        .world()
        .vars()
        .iter()
        .map(|(k, v)| (k.as_str(), v.num().unwrap()))
        .collect();
    assert_eq!(vars, [("a", 29_997.0), ("b", 29_998.0), ("c", 29_999.0)]);
}

/// Sends `keys` to entity 1's script state in stage one of every tick.
fn state_writer(keys: Vec<String>) -> Box<dyn Consequences> {
    rules(move |stage, g| {
        if stage == Stage::One {
            for (i, key) in keys.iter().enumerate() {
                g.send(Command::SetState {
                    target: PLAYER_SEQ,
                    key: key.clone(),
                    value: i as f64,
                })
                .map_err(|e| e.into_fault())?;
            }
        }
        Ok(())
    })
}

const PLAYER_SEQ: u64 = 1;

fn state_len(g: &Game) -> usize {
    let e = g.world().entity(PLAYER_SEQ).expect("the player lives");
    g.world()
        .ecs()
        .get::<&ScriptState>(e)
        .map_or(0, |s| s.len())
}

#[test]
fn new_state_keys_fault_at_the_limit() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let keys = (0..10_000).map(|i| format!("k{i:05}")).collect();
    let mut g = game(def, state_writer(keys));
    let f = assert_capacity_fault(&mut g, Phase::Gameplay, "state_keys", "10k keys");
    assert_eq!(
        f.message,
        "more than 64 script-state keys on entity 1: `k00064` would be one more \
         (raise [limits] state_keys)"
    );
    assert_eq!(
        state_len(&g),
        0,
        "refused as sent: the faulted stage applies nothing"
    );
}

#[test]
fn existing_state_keys_update_at_the_limit() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let keys = (0..10_000).map(|i| format!("k{:02}", i % 64)).collect();
    let mut g = game(def, state_writer(keys));
    run(&mut g, 5);
    assert_eq!(state_len(&g), 64);
    let e = g.world().entity(PLAYER_SEQ).unwrap();
    let state = g.world().ecs().get::<&ScriptState>(e).unwrap();
    assert_eq!(state.get("k63"), Some(9_983.0), "the last write wins");
    assert!(
        state.iter().map(|(k, _)| k).is_sorted(),
        "kept in key order"
    );
}

/// Keys sent in descending order each land before every key already there: a sorted array
/// would move the whole state for each, tens of gigabytes for this case. This finishes because
/// an insert costs a logarithmic number of comparisons.
#[test]
fn many_state_keys_insert_without_moving_the_others() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    def.limits.state_keys = 60_000;
    let keys = (0..60_000).rev().map(|i| format!("k{i:05}")).collect();
    let mut g = game(def, state_writer(keys));
    run(&mut g, 2);
    assert_eq!(state_len(&g), 60_000);
}

/// Names longer than a script can write are refused where they are sent.
#[test]
fn long_names_are_malformed() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let long = "x".repeat(MAX_NAME_BYTES + 1);
    let commands = [
        Command::SetVar(long.clone(), Var::Num(1.0)),
        Command::SetVar(String::new(), Var::Num(1.0)),
        Command::SetState {
            target: PLAYER_SEQ,
            key: long,
            value: 1.0,
        },
    ];
    for command in commands {
        let sent = command.clone();
        let mut g = game(
            def.clone(),
            rules(move |_, g| g.send(sent.clone()).map(drop).map_err(|e| e.into_fault())),
        );
        let f = g.step(&TickInput::neutral()).unwrap_err();
        assert_eq!(f.kind, FaultKind::Script, "{command:?}");
        assert!(f.message.contains("1 to 64 bytes"), "{f}");
    }
}

/// Every other bounded queue a tick fills overflows into a capacity fault naming its key, with
/// no room reserved past the bound.
///
/// Long because it is one table of cases, one per queue, each with the game that fills it.
#[test]
fn every_tick_queue_faults_at_its_bound() {
    type Rules = fn(&mut GameDef) -> Box<dyn Consequences>;
    let cases: [(&str, Rules, Phase, &str); 6] = [
        (
            "collision events",
            |def| {
                def.limits.events_per_tick = 100;
                pile(def, &[(BLOB, 20)]);
                Box::new(NoConsequences)
            },
            Phase::Motion,
            "events",
        ),
        (
            "commands",
            |def| {
                def.limits.commands_per_tick = 1_000;
                rules(|_, g| {
                    loop {
                        g.send(Command::Score(1)).map_err(|e| e.into_fault())?;
                    }
                })
            },
            Phase::Gameplay,
            "commands",
        ),
        (
            "spawns over the entity limit",
            |def| {
                def.limits.max_entities = 500;
                rules(|_, g| {
                    for _ in 0..1_000 {
                        g.send(Command::Spawn {
                            archetype: PICKUP,
                            pos: Vec2::ZERO,
                            overrides: Default::default(),
                        })
                        .map_err(|e| e.into_fault())?;
                    }
                    Ok(())
                })
            },
            Phase::Gameplay,
            "entities",
        ),
        (
            "spawner bursts",
            |def| {
                def.limits.commands_per_tick = 1_000;
                def.levels[0].spawners.push(SpawnerDef {
                    archetype: PICKUP,
                    period: 1,
                    count: u32::MAX,
                    area: Rect::centered(Vec2::new(10.0, 10.0)),
                    start: 1,
                    bursts: None,
                });
                Box::new(NoConsequences)
            },
            Phase::Intent,
            "commands",
        ),
        (
            "timers",
            |def| {
                def.limits.timers = 300;
                rules(|_, g| {
                    loop {
                        g.schedule_timer(TimerSpec {
                            name: "t".into(),
                            delay: 5,
                            period: None,
                            target: None,
                            data: 0.0,
                        })
                        .map_err(|e| e.into_fault())?;
                    }
                })
            },
            Phase::Gameplay,
            "timers",
        ),
        (
            "damage events",
            |def| {
                def.limits.events_per_tick = 100;
                place(def, ENEMY, 0.0, 0.0);
                rules(|stage, g| {
                    if stage == Stage::One {
                        for _ in 0..200 {
                            g.send(Command::Damage {
                                target: 1,
                                amount: 0,
                                source: None,
                            })
                            .map_err(|e| e.into_fault())?;
                        }
                    }
                    Ok(())
                })
            },
            Phase::Gameplay,
            "events",
        ),
    ];
    for (case, setup, phase, key) in cases {
        let mut def = crowd_def();
        let consequences = setup(&mut def);
        let mut g = game(def, consequences);
        assert_capacity_fault(&mut g, phase, key, case);
    }
}

/// Effects and sounds past `[limits] outbox` are dropped and counted, and staging reserves no
/// room past it.
#[test]
fn staged_presentation_stops_at_the_outbox() {
    let mut def = game_def();
    def.limits.outbox = 100;
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One {
                for _ in 0..1_000 {
                    g.send(Command::Effect {
                        effect: EffectId(0),
                        pos: Vec2::ZERO,
                        color: None,
                    })
                    .map_err(|e| e.into_fault())?;
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    assert_eq!(g.world().counters().staged_dropped, 900);
    assert_room_within_bounds(&g, "outbox");
}

/// The key each limit's messages name is the one game.toml sets.
#[test]
fn limit_keys_are_the_toml_keys() {
    let keys: Vec<String> = Limit::ALL.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        keys,
        [
            "[limits] entities",
            "[limits] events",
            "[limits] commands",
            "[limits] outbox",
            "[limits] timers",
            "[limits] draws",
            "[limits] jobs",
            "[limits] contacts",
            "[limits] variables",
            "[limits] state_keys",
            "[limits] save_bytes",
        ]
    );
}
