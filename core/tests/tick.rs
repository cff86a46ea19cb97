//! Headless scenarios for the tick contract: events, commands and commit, teleports, push
//! between solid bodies, hashing, render order, phase order and stress levels.

mod support;

use ludus_core::*;
use support::*;

#[test]
fn collision_events_are_consumed_in_the_same_tick() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 10.0, 0.0);
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            match stage {
                Stage::One => {
                    for e in g.events().collision_enter.clone() {
                        s.borrow_mut().push(format!(
                            "enter {} {}-{} at tick {}",
                            e.tick,
                            e.a.seq,
                            e.b.seq,
                            g.tick()
                        ));
                        g.send(Command::Damage {
                            target: e.a.seq,
                            amount: 2,
                            source: Some(e.b.seq),
                        })
                        .unwrap();
                    }
                }
                Stage::Two => {
                    for d in &g.events().damage {
                        s.borrow_mut().push(format!(
                            "damage {} to {} -> {} at tick {}",
                            d.tick,
                            d.target.seq,
                            d.health,
                            g.tick()
                        ));
                    }
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    assert_eq!(
        *seen.borrow(),
        vec![
            "enter 1 1-2 at tick 1".to_string(),
            "damage 1 to 1 -> 3 at tick 1".to_string()
        ],
        "the contact and its damage outcome are handled in the tick they happened"
    );
    assert_eq!(health_of(&g, PLAYER_SEQ), Some(3));
    run(&mut g, 5);
    assert_eq!(
        seen.borrow().len(),
        2,
        "a lasting contact is entered once (no stay requested)"
    );
}

#[test]
fn trigger_reward_is_given_once_on_enter() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, PICKUP, 5.0, 0.0);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One {
                for e in g.events().trigger_enter.clone() {
                    assert_eq!(e.a.archetype, PICKUP, "the trigger is party a");
                    assert_eq!(e.b.archetype, PLAYER);
                    g.send(Command::Score(10)).unwrap();
                }
                assert!(
                    g.events().trigger_stay.is_empty(),
                    "no stay events unless asked"
                );
            }
            Ok(())
        }),
    );
    run(&mut g, 30);
    assert_eq!(
        g.world().score(),
        10,
        "rewarded once, not every tick of overlap"
    );
}

#[test]
fn stay_events_only_where_content_asks_and_exit_when_apart() {
    let mut def = game_def();
    def.archetypes[0].collider.as_mut().unwrap().stay = true;
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place_moving(&mut def, ENEMY, 5.0, 0.0, 180.0, 0.0); // 3 units per tick
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                let ev = g.events();
                for (name, q) in [
                    ("enter", &ev.collision_enter),
                    ("stay", &ev.collision_stay),
                    ("exit", &ev.collision_exit),
                ] {
                    for e in q {
                        s.borrow_mut().push(format!("{} {name}", e.tick));
                    }
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 5);
    // x after tick t = 5 + 3t: 8, 11, 14 (not < 14), ...
    assert_eq!(*seen.borrow(), vec!["1 enter", "2 stay", "3 exit"]);
    assert!(g.world().contacts().is_empty());
}

#[test]
fn destroyed_entity_leaves_contacts_without_an_exit() {
    let mut def = game_def();
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 10.0, 0.0);
    let exits = log();
    let x = exits.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                if g.tick() == 2 {
                    g.send(Command::Destroy(ENEMY_SEQ)).unwrap();
                }
                for e in &g.events().collision_exit {
                    x.borrow_mut().push(format!("exit {}", e.tick));
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 2);
    assert_eq!(
        g.world().contacts().len(),
        0,
        "the destroyed entity's contact is gone at Commit"
    );
    run(&mut g, 3);
    assert!(exits.borrow().is_empty(), "no fabricated exit");
}

#[test]
fn pending_destroy_filters_later_commands() {
    let mut def = game_def();
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 0.0);
    let damage_seen = log();
    let d = damage_seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            match (stage, g.tick()) {
                (Stage::One, 1) => {
                    g.send(Command::Destroy(ENEMY_SEQ)).unwrap();
                    assert!(
                        !g.alive(ENEMY_SEQ),
                        "a destroy sent this stage counts at once"
                    );
                    g.send(Command::Damage {
                        target: ENEMY_SEQ,
                        amount: 1,
                        source: None,
                    })
                    .unwrap();
                    g.send(Command::Teleport {
                        target: ENEMY_SEQ,
                        pos: Vec2::new(0.0, 0.0),
                    })
                    .unwrap();
                    g.send(Command::Destroy(ENEMY_SEQ)).unwrap();
                }
                (Stage::Two, 1) => {
                    for e in &g.events().damage {
                        d.borrow_mut().push(format!("{}", e.target.seq));
                    }
                    g.send(Command::Heal {
                        target: ENEMY_SEQ,
                        amount: 1,
                    })
                    .unwrap();
                }
                (Stage::One, 2) => {
                    g.send(Command::Damage {
                        target: ENEMY_SEQ,
                        amount: 1,
                        source: None,
                    })
                    .unwrap();
                }
                _ => {}
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    assert!(
        damage_seen.borrow().is_empty(),
        "no damage outcome for an entity being destroyed"
    );
    let c = g.world().counters();
    assert_eq!(
        c.pending_destroy_filtered, 4,
        "damage, teleport, second destroy, stage 2 heal"
    );
    assert!(g.world().entity(ENEMY_SEQ).is_none(), "destroyed at Commit");
    run(&mut g, 1);
    assert_eq!(
        g.world().counters().stale_commands,
        1,
        "next tick it is simply gone"
    );
}

#[test]
fn spawns_are_visible_after_commit_and_announced_next_tick() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                for e in &g.events().spawned {
                    s.borrow_mut().push(format!(
                        "tick {}: spawned #{} at commit {}",
                        g.tick(),
                        e.entity.seq,
                        e.tick
                    ));
                }
                if g.tick() == 1 {
                    g.send(Command::Spawn {
                        archetype: BULLET,
                        pos: Vec2::new(50.0, 0.0),
                        overrides: Overrides {
                            velocity: Some(Vec2::new(60.0, 0.0)),
                            ..Overrides::default()
                        }
                        .into(),
                    })
                    .unwrap();
                    assert_eq!(g.events().collision_enter.len(), 0);
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    assert_eq!(
        g.world().entity_count(),
        2,
        "the bullet exists once tick 1 completes"
    );
    let t = pos_of(&g, 2).unwrap();
    assert_eq!(t.prev, t.cur, "a new entity has equal transform history");
    assert_eq!(
        t.cur,
        Vec2::new(50.0, 0.0),
        "it has not moved in the tick that created it"
    );
    run(&mut g, 1);
    assert_eq!(
        *seen.borrow(),
        vec![
            "tick 1: spawned #1 at commit 0".to_string(),
            "tick 2: spawned #2 at commit 1".to_string()
        ]
    );
    assert_eq!(
        pos_of(&g, 2).unwrap().cur,
        Vec2::new(51.0, 0.0),
        "moves from the next tick"
    );
}

#[test]
fn teleport_is_not_interpolated() {
    let mut def = game_def();
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place_moving(&mut def, ENEMY, 100.0, 0.0, 60.0, 0.0);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 3 {
                g.send(Command::Teleport {
                    target: ENEMY_SEQ,
                    pos: Vec2::new(-200.0, 50.0),
                })
                .unwrap();
            }
            Ok(())
        }),
    );
    run(&mut g, 3);
    let t = pos_of(&g, ENEMY_SEQ).unwrap();
    assert_eq!(
        (t.prev, t.cur),
        (Vec2::new(-200.0, 50.0), Vec2::new(-200.0, 50.0))
    );
    let mut frame = RenderFrame::with_capacity(16);
    frame.extract(g.world(), g.def(), Interpolation::Alpha(0.5));
    let d = frame.draws.iter().find(|d| d.seq == ENEMY_SEQ).unwrap();
    assert_eq!(d.pos, Vec2::new(-200.0, 50.0), "no smear across the jump");
    run(&mut g, 1);
    let t = pos_of(&g, ENEMY_SEQ).unwrap();
    assert_eq!(
        (t.prev, t.cur),
        (Vec2::new(-200.0, 50.0), Vec2::new(-199.0, 50.0))
    );
    frame.extract(g.world(), g.def(), Interpolation::Alpha(0.5));
    let d = frame.draws.iter().find(|d| d.seq == ENEMY_SEQ).unwrap();
    assert_eq!(
        d.pos,
        Vec2::new(-199.5, 50.0),
        "ordinary motion interpolates"
    );
    frame.extract(g.world(), g.def(), Interpolation::Exact);
    let d = frame.draws.iter().find(|d| d.seq == ENEMY_SEQ).unwrap();
    assert_eq!(d.pos, Vec2::new(-199.0, 50.0), "exact current when paused");
}

#[test]
fn hashes_are_reproducible_and_sensitive() {
    let build = |seed: u64| {
        let mut def = game_def();
        def.seed = seed;
        def.archetypes[1].behaviour.as_mut().unwrap().kind = BehaviourKind::Wander;
        place(&mut def, PLAYER, 0.0, 0.0);
        for i in 0..10 {
            place(&mut def, ENEMY, 20.0 * i as f32, 50.0);
        }
        let mut g = game(def, Box::new(NoConsequences));
        (0..50)
            .map(|_| g.step(&TickInput::neutral()).unwrap().hash.unwrap())
            .collect::<Vec<_>>()
    };
    let a = build(7);
    assert_eq!(a, build(7), "same content and input, same hashes");
    let b = build(8);
    let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap();
    assert_eq!(
        first, 0,
        "the seed is part of the state from the first tick"
    );
    assert!(a[0].differing_parts(&b[0]).contains(&HashPart::Globals));
}

#[test]
fn render_frame_sorts_by_layer_depth_sequence_and_reports_overflow() {
    let mut def = game_def();
    place(&mut def, ENEMY, 0.0, 0.0); // layer 1
    place(&mut def, PLAYER, 0.0, 0.0); // layer 2
    place(&mut def, PICKUP, 0.0, 0.0); // layer 0
    place(&mut def, ENEMY, 5.0, 0.0); // layer 1
    let g = game(def, Box::new(NoConsequences));
    let mut frame = RenderFrame::with_capacity(16);
    frame.extract(g.world(), g.def(), Interpolation::Exact);
    let order: Vec<(i16, u64)> = frame.draws.iter().map(|d| (d.layer, d.seq)).collect();
    assert_eq!(order, vec![(0, 3), (1, 1), (1, 4), (2, 2)]);
    assert_eq!(frame.camera.center, Vec2::ZERO, "follows the camera target");
    let mut small = RenderFrame::with_capacity(2);
    small.extract(g.world(), g.def(), Interpolation::Exact);
    assert_eq!(
        (small.draws.len(), small.overflow),
        (2, 2),
        "overflow is reported"
    );
}

/// The phase `phase` of an access table.
fn access_of(table: &mut [PhaseAccess], phase: Phase) -> &mut PhaseAccess {
    table.iter_mut().find(|a| a.phase == phase).unwrap()
}

#[test]
fn phase_order_agrees_with_declared_access() {
    let native = native_systems().access();
    assert_eq!(check_order(&native), Ok(()));

    let mut swapped = native.clone();
    let intent = swapped
        .iter()
        .position(|a| a.phase == Phase::Intent)
        .unwrap();
    let motion = swapped
        .iter()
        .position(|a| a.phase == Phase::Motion)
        .unwrap();
    swapped.swap(intent, motion);
    let errs = check_order(&swapped).unwrap_err();
    assert!(
        errs.iter()
            .any(|e| matches!(e, OrderError::OutOfOrder { .. }))
    );

    // Gameplay reading the entity set as current, while Commit writes it later, is reported.
    let mut stale = native.clone();
    let gameplay = access_of(&mut stale, Phase::Gameplay);
    gameplay.reads = vec![Resource::EntitySet];
    gameplay.reads_previous = vec![];
    assert_eq!(
        check_order(&stale),
        Err(vec![OrderError::ReadBeforeWrite {
            reader: Phase::Gameplay,
            writer: Phase::Commit,
            resource: Resource::EntitySet
        }])
    );

    // Motion consuming timer events that only Gameplay produces is reported.
    let mut early = native;
    access_of(&mut early, Phase::Motion).consumes = vec![EventKind::Timer];
    access_of(&mut early, Phase::BeginTick).consumes_carried = vec![EventKind::Spawned];
    assert!(
        check_order(&early)
            .unwrap_err()
            .contains(&OrderError::ConsumedBeforeProduced {
                consumer: Phase::Motion,
                event: EventKind::Timer
            })
    );
}

#[test]
fn push_separates_solid_bodies_symmetrically() {
    let mut def = game_def();
    def.archetypes[1].behaviour = None;
    def.archetypes[1].collider.as_mut().unwrap().push = L_ENEMY;
    place(&mut def, ENEMY, 0.0, 0.0);
    place(&mut def, ENEMY, 4.0, 0.0);
    let mut g = game(def, Box::new(NoConsequences));
    run(&mut g, 1);
    let (a, b) = (pos_of(&g, 1).unwrap().cur, pos_of(&g, 2).unwrap().cur);
    assert_eq!(
        (a, b),
        (Vec2::new(-4.0, 0.0), Vec2::new(8.0, 0.0)),
        "each moved half the 8-unit overlap"
    );
}

#[test]
fn stress_entities_fill_the_level() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let mut g =
        Game::with_entities(std::sync::Arc::new(def), Box::new(NoConsequences), 1000).unwrap();
    assert_eq!(g.world().entity_count(), 1001);
    g.step(&TickInput::neutral()).unwrap();
    let mut def = game_def();
    def.stress = None;
    let err = Game::with_entities(std::sync::Arc::new(def), Box::new(NoConsequences), 5)
        .err()
        .unwrap();
    assert!(err.message.contains("[stress]"), "{err}");
}

/// What a game sends in the damage test: a player (1), two enemies (2, 3) and a pickup (4);
/// enemy 3 is destroyed first. Each command of `damages` names a target and an amount; with
/// `apart`, a command that does nothing separates every two of them.
fn damage_script(apart: bool) -> (Game, Log) {
    let mut def = game_def();
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 0.0);
    place(&mut def, ENEMY, -100.0, 0.0);
    place(&mut def, PICKUP, 0.0, 100.0);
    // The player twice (the second is blocked: invulnerable), an enemy, the destroyed enemy
    // (pending at tick 1, gone at tick 2), the pickup (no health), the enemy again (its 3
    // health gone in tick 2, the rest blocked: it is dead), an id no entity had.
    let damages = [(1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (2, 1), (999, 1)];
    let seen = log();
    let s = seen.clone();
    let send = move |g: &mut Gameplay<'_>| {
        for (target, amount) in damages {
            g.send(Command::Damage {
                target,
                amount,
                source: Some(1),
            })
            .unwrap();
            if apart {
                g.send(Command::Score(0)).unwrap();
            }
        }
    };
    let g = game(
        def,
        rules(move |stage, g| {
            for e in &g.events().damage {
                s.borrow_mut().push(format!(
                    "tick {} {:?}: {} -{} -> {}/{} by {:?}",
                    g.tick(),
                    stage,
                    e.target.seq,
                    e.amount,
                    e.health,
                    e.max,
                    e.source
                ));
            }
            if g.tick() == 1 && stage == Stage::One {
                g.send(Command::Destroy(3)).unwrap();
            }
            if g.tick() <= 2 {
                send(g);
            }
            Ok(())
        }),
    );
    (g, seen)
}

#[test]
fn damage_in_a_run_of_commands_lands_as_it_does_one_command_at_a_time() {
    let (mut run_of, seen_run) = damage_script(false);
    let (mut apart, seen_apart) = damage_script(true);
    for tick in 1..=4 {
        let a = run_of.step(&TickInput::neutral()).unwrap();
        let b = apart.step(&TickInput::neutral()).unwrap();
        assert_eq!(a.hash, b.hash, "tick {tick}");
    }
    assert_eq!(*seen_run.borrow(), *seen_apart.borrow());
    let lines = seen_run.borrow().len();
    assert!(lines >= 4, "damage landed and was reported: {lines}");
    let (a, b) = (run_of.world().counters(), apart.world().counters());
    let counts = |c: &WorldCounters| {
        (
            c.stale_commands,
            c.pending_destroy_filtered,
            c.no_health,
            c.damage_blocked,
            c.after_death,
        )
    };
    assert_eq!(counts(&a), counts(&b));
    assert!(
        a.stale_commands > 0
            && a.pending_destroy_filtered > 0
            && a.no_health > 0
            && a.damage_blocked > 0
            && a.after_death > 0,
        "every way damage can miss is taken: {:?}",
        counts(&a)
    );
}
