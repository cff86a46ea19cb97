//! Headless scenarios for the tick contract: events, commands, commit, faults, timers, outbox,
//! AI cadence, collisions, capacities and hashing.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

type Log = Rc<RefCell<Vec<String>>>;

fn log() -> Log {
    Rc::new(RefCell::new(Vec::new()))
}

const PLAYER_SEQ: u64 = 1;
const ENEMY_SEQ: u64 = 2;

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
                        },
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

fn beeper(fail_at: Option<u64>) -> Box<dyn Consequences> {
    rules(move |stage, g| {
        if stage == Stage::One {
            g.send(Command::Sound {
                sound: SoundId(0),
                volume: 1.0,
                pitch: 1.0,
            })
            .unwrap();
            if fail_at == Some(g.tick()) {
                return Err(Fault::new(FaultKind::Script, "deliberate"));
            }
        }
        Ok(())
    })
}

#[test]
fn a_faulting_tick_publishes_nothing_and_earlier_requests_survive() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let mut g = game(def, beeper(Some(2)));
    let mut s = Session::new(TickPolicy::default(), 3, Mode::Playing).unwrap();
    s.frame(0, &mut g);
    let r = s.frame(50_000_000, &mut g); // three ticks due
    assert_eq!((r.ticks_run, r.tick, r.mode), (1, 1, Mode::Faulted));
    let fault = s.fault().unwrap();
    assert_eq!((fault.tick, fault.phase), (2, Some(Phase::Gameplay)));
    let delivered: Vec<_> = g.outbox().drain().collect();
    assert_eq!(delivered.len(), 1, "only tick 1's sound");
    assert_eq!(delivered[0].tick, 1);
    assert_eq!(g.world().tick(), 1, "the failed tick is not published");
    assert_eq!(g.world().entity_count(), 1, "the world stays inspectable");
    let r = s.frame(1_000_000_000, &mut g);
    assert_eq!(r.ticks_run, 0);
    assert_eq!(g.outbox().len(), 0);
}

#[test]
fn restart_builds_a_new_world_and_drops_old_presentation() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let mut g = game(def, beeper(Some(2)));
    let mut s = Session::new(TickPolicy::default(), 3, Mode::Playing).unwrap();
    s.frame(0, &mut g);
    s.frame(17_000_000, &mut g);
    s.frame(34_000_000, &mut g);
    assert_eq!(s.mode(), Mode::Faulted);
    let old = g.world().id();
    s.signal(Signal::Restart);
    let r = s.frame(51_000_000, &mut g);
    assert!(r.published);
    assert_ne!(g.world().id(), old, "a new world identity");
    assert_eq!(g.world().tick(), 0);
    assert_eq!(g.outbox().len(), 0, "old-world requests are cleared");
}

#[test]
fn outbox_delivers_exactly_once_across_catch_up_and_skipped_frames() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let mut g = game(def, beeper(None));
    let mut s = Session::new(TickPolicy::default(), 3, Mode::Playing).unwrap();
    let mut now = 0u64;
    s.frame(now, &mut g);
    let mut delivered = Vec::new();
    for frame in 1..=30u64 {
        now += 50_000_000; // 3 ticks per frame
        s.frame(now, &mut g);
        if frame % 4 == 0 {
            delivered.extend(g.outbox().drain()); // other frames "skip" presentation
        }
    }
    delivered.extend(g.outbox().drain());
    assert_eq!(g.world().tick(), 90);
    assert_eq!(delivered.len(), 90, "one per tick, none lost, none twice");
    let ticks: Vec<u64> = delivered.iter().map(|r| r.tick).collect();
    assert_eq!(ticks, (1..=90).collect::<Vec<_>>());
    assert!(delivered.windows(2).all(|w| w[1].seq == w[0].seq + 1));
    assert_eq!(
        g.outbox().drain().count(),
        0,
        "draining again yields nothing"
    );
}

fn timer(name: &str, delay: u64) -> TimerSpec {
    TimerSpec {
        name: name.into(),
        delay,
        period: None,
        target: None,
        data: 0.0,
    }
}

#[test]
fn equal_deadlines_fire_in_insertion_order_and_recurring_timers_do_not_drift() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage != Stage::One {
                return Ok(());
            }
            if g.tick() == 1 {
                for (name, delay) in [("a", 5), ("b", 5), ("c", 3), ("d", 0)] {
                    g.schedule_timer(timer(name, delay)).unwrap();
                }
                g.schedule_timer(TimerSpec {
                    period: Some(3),
                    ..timer("e", 2)
                })
                .unwrap();
            }
            for t in &g.events().timers {
                s.borrow_mut().push(format!("{}:{}", g.tick(), t.name));
            }
            Ok(())
        }),
    );
    run(&mut g, 9);
    assert_eq!(
        *seen.borrow(),
        vec!["2:d", "3:e", "4:c", "6:a", "6:b", "6:e", "9:e"]
    );
    assert_eq!(
        g.world().timers().stats().deferred,
        1,
        "the zero delay was deferred"
    );
    assert_eq!(
        g.world().timers().len(),
        1,
        "only the recurring timer remains"
    );
}

#[test]
fn cancellation_suppresses_pending_and_snapshotted_timers() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let seen = log();
    let s = seen.clone();
    let ids: Rc<RefCell<Vec<TimerId>>> = Rc::default();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage != Stage::One {
                return Ok(());
            }
            match g.tick() {
                1 => {
                    let mut v = ids.borrow_mut();
                    v.push(g.schedule_timer(timer("x", 3)).unwrap());
                    v.push(g.schedule_timer(timer("p", 4)).unwrap());
                    v.push(g.schedule_timer(timer("q", 4)).unwrap());
                }
                2 => {
                    let x = ids.borrow()[0];
                    assert!(g.cancel_timer(x));
                    assert!(!g.cancel_timer(x), "a second cancel is stale");
                }
                5 => {
                    // An earlier handler cancels q although it is already in this tick's due set.
                    let q = ids.borrow()[2];
                    assert!(
                        g.events().timers.iter().any(|t| t.id == q),
                        "q was snapshotted"
                    );
                    g.cancel_timer(q);
                }
                _ => {}
            }
            let live: Vec<_> = g
                .events()
                .timers
                .iter()
                .filter(|t| g.timer_live(t.id))
                .map(|t| t.name.to_string())
                .collect();
            for name in live {
                s.borrow_mut().push(format!("{}:{name}", g.tick()));
            }
            Ok(())
        }),
    );
    run(&mut g, 8);
    assert_eq!(*seen.borrow(), vec!["5:p"]);
    let st = g.world().timers().stats();
    assert_eq!((st.cancelled, st.stale_cancels), (2, 1));
    assert!(g.world().timers().is_empty());
}

#[test]
fn timers_for_dead_targets_are_suppressed_and_end() {
    let mut def = game_def();
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 0.0);
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage != Stage::One {
                return Ok(());
            }
            if g.tick() == 1 {
                g.schedule_timer(TimerSpec {
                    target: Some(ENEMY_SEQ),
                    period: Some(2),
                    ..timer("burn", 1)
                })
                .unwrap();
                g.schedule_timer(TimerSpec {
                    target: Some(PLAYER_SEQ),
                    ..timer("heal", 4)
                })
                .unwrap();
            }
            if g.tick() == 3 {
                g.send(Command::Destroy(ENEMY_SEQ)).unwrap();
            }
            for t in &g.events().timers {
                s.borrow_mut().push(format!(
                    "{}:{}@{}",
                    g.tick(),
                    t.name,
                    t.target.map_or(0, |p| p.seq)
                ));
            }
            Ok(())
        }),
    );
    run(&mut g, 8);
    assert_eq!(
        *seen.borrow(),
        vec!["2:burn@2", "5:heal@1"],
        "burn at 4 was suppressed"
    );
    assert_eq!(g.world().timers().stats().stale_targets, 1);
    assert!(
        g.world().timers().is_empty(),
        "the recurring timer ended with its target"
    );
}

#[test]
fn paused_sessions_do_not_move_deadlines() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                if g.tick() == 1 {
                    g.schedule_timer(timer("t", 10)).unwrap();
                }
                for t in &g.events().timers {
                    s.borrow_mut()
                        .push(format!("timer {} at tick {}", t.name, g.tick()));
                }
                for a in &g.events().actions {
                    s.borrow_mut().push(format!("fire at tick {}", a.tick));
                }
            }
            Ok(())
        }),
    );
    let mut session = Session::new(TickPolicy::default(), 3, Mode::Playing).unwrap();
    let fire = ActionId(2);
    let tick_ns = 16_666_667u64;
    let mut now = 0;
    session.frame(now, &mut g);
    session.input(InputEvent::Press(fire));
    for _ in 0..5 {
        now += tick_ns;
        session.frame(now, &mut g);
    }
    assert_eq!(g.world().tick(), 5);
    session.signal(Signal::Pause);
    for _ in 0..600 {
        now += tick_ns; // ten seconds paused
        session.frame(now, &mut g);
    }
    session.signal(Signal::Resume);
    session.input(InputEvent::Release(fire));
    session.input(InputEvent::Press(fire));
    now += tick_ns;
    session.frame(now, &mut g); // re-baseline
    while g.world().tick() < 25 {
        now += tick_ns;
        session.frame(now, &mut g);
    }
    assert_eq!(
        *seen.borrow(),
        vec![
            "fire at tick 1",
            "timer t at tick 11",
            "fire at tick 11",
            "fire at tick 21"
        ],
        "the timer and the 10-tick cooldown count ticks, not paused wall time"
    );
}

/// Runs the fixture with chasing enemies for two seconds at `fps`, returning per-tick hashes
/// and decision counts.
fn run_at_fps(fps: u64) -> Vec<(u64, u64)> {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    for i in 0..20 {
        place(&mut def, ENEMY, -300.0 + 30.0 * i as f32, 200.0);
    }
    struct Sim {
        game: Game,
        out: Vec<(u64, u64)>,
        last_decisions: u64,
    }
    impl Simulation for Sim {
        fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault> {
            let mut input = input.clone();
            input.set_axis(
                ActionId(0),
                if (tick / 40).is_multiple_of(2) {
                    1.0
                } else {
                    -0.5
                },
            );
            let r = self.game.step(&input)?;
            let d = self.game.world().counters().ai_decisions;
            self.out
                .push((r.hash.unwrap().total, d - self.last_decisions));
            self.last_decisions = d;
            Ok(Flow::Continue)
        }
        fn load(&mut self, r: &LoadRequest) -> LoadStatus {
            self.game.load(r)
        }
    }
    let mut sim = Sim {
        game: game(def, Box::new(NoConsequences)),
        out: Vec::new(),
        last_decisions: 0,
    };
    let policy = TickPolicy {
        max_catch_up_ticks: 16,
        ..TickPolicy::default()
    };
    let mut s = Session::new(policy, 3, Mode::Playing).unwrap();
    s.frame(0, &mut sim);
    for k in 1..=2 * fps {
        s.frame(k * 2_000_000_000 / (2 * fps), &mut sim);
    }
    sim.out
}

#[test]
fn ai_cadence_is_fixed_across_frame_rates() {
    let at60 = run_at_fps(60);
    assert_eq!(at60.len(), 120);
    assert_eq!(
        run_at_fps(30),
        at60,
        "30 fps: same hashes and decisions per tick"
    );
    assert_eq!(run_at_fps(144), at60, "144 fps too");
    // 20 enemies decide on the first tick, then those with (tick + seq) % 10 == 0: two per tick.
    assert_eq!(at60[0].1, 20);
    assert!(at60[1..].iter().all(|(_, d)| *d == 2), "{:?}", &at60[..12]);
}

#[test]
fn chase_falls_back_when_the_target_disappears() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 0.0);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 3 {
                g.send(Command::Destroy(PLAYER_SEQ)).unwrap();
            }
            Ok(())
        }),
    );
    run(&mut g, 3);
    let e = g.world().entity(ENEMY_SEQ).unwrap();
    assert_eq!(
        g.world().ecs().get::<&Aim>(e).unwrap().target(),
        Some(PLAYER_SEQ)
    );
    run(&mut g, 1);
    let brain = *g.world().ecs().get::<&Brain>(e).unwrap();
    let aim = *g.world().ecs().get::<&Aim>(e).unwrap();
    assert_eq!(
        (aim.target(), brain.intent),
        (None, Vec2::ZERO),
        "re-decided at once, not at cadence"
    );
}

#[test]
fn chase_turns_to_the_next_target_the_tick_its_own_is_gone() {
    let mut def = game_def();
    place(&mut def, PLAYER, -100.0, 0.0);
    place(&mut def, PLAYER, 300.0, 0.0);
    place(&mut def, ENEMY, 0.0, 0.0);
    let (near, far, enemy) = (1, 2, 3);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 4 {
                g.send(Command::Destroy(1)).unwrap();
            }
            Ok(())
        }),
    );
    let e = g.world().entity(enemy).unwrap();
    let aim = |g: &Game| {
        let brain = *g.world().ecs().get::<&Brain>(e).unwrap();
        let aim = *g.world().ecs().get::<&Aim>(e).unwrap();
        (aim.target(), brain.intent, brain.next_decision())
    };
    // Cadence 10: decisions at ticks with (tick + 3) % 10 == 0, and at the first tick.
    run(&mut g, 4);
    assert_eq!(aim(&g), (Some(near), Vec2::new(-1.0, 0.0), 7));
    run(&mut g, 1);
    assert_eq!(
        aim(&g),
        (Some(far), Vec2::new(1.0, 0.0), 7),
        "re-decided the first tick the target was gone (5), not at its cadence (7)"
    );
}

#[test]
fn capacity_overflows_fault_explicitly() {
    // Events.
    let mut def = game_def();
    def.limits.events_per_tick = 2;
    place(&mut def, PLAYER, 0.0, 0.0);
    for _ in 0..3 {
        place(&mut def, PICKUP, 1.0, 0.0);
    }
    let mut g = game(def, Box::new(NoConsequences));
    let f = g.step(&TickInput::neutral()).unwrap_err();
    assert_eq!(
        (f.kind, f.phase),
        (FaultKind::Capacity, Some(Phase::Motion))
    );
    assert!(f.message.contains("(raise [limits] events)"), "{f}");

    // Entities.
    let mut def = game_def();
    def.limits.max_entities = 3;
    place(&mut def, PLAYER, 0.0, 0.0);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One {
                for _ in 0..3 {
                    g.send(Command::Spawn {
                        archetype: PICKUP,
                        pos: Vec2::ZERO,
                        overrides: Overrides::default(),
                    })
                    .unwrap();
                }
            }
            Ok(())
        }),
    );
    let f = g.step(&TickInput::neutral()).unwrap_err();
    assert_eq!(
        (f.kind, f.phase),
        (FaultKind::Capacity, Some(Phase::Commit))
    );
    assert_eq!(g.world().entity_count(), 1, "preflight changed nothing");

    // Timers.
    let mut def = game_def();
    def.limits.timers = 1;
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One {
                g.schedule_timer(timer("a", 5))
                    .map_err(|e| e.into_fault())?;
                g.schedule_timer(timer("b", 5))
                    .map_err(|e| e.into_fault())?;
            }
            Ok(())
        }),
    );
    let f = g.step(&TickInput::neutral()).unwrap_err();
    assert_eq!(f.kind, FaultKind::Capacity);
    assert!(f.message.contains("(raise [limits] timers)"), "{f}");

    // Commands.
    let mut def = game_def();
    def.limits.commands_per_tick = 1;
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One {
                g.send(Command::Score(1)).map_err(|e| e.into_fault())?;
                g.send(Command::Score(1)).map_err(|e| e.into_fault())?;
            }
            Ok(())
        }),
    );
    let f = g.step(&TickInput::neutral()).unwrap_err();
    assert_eq!(f.kind, FaultKind::Capacity);
}

#[test]
fn malformed_commands_are_refused_where_they_are_sent() {
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    let errors = log();
    let e = errors.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                let bad = [
                    Command::Spawn {
                        archetype: ArchetypeId(99),
                        pos: Vec2::ZERO,
                        overrides: Overrides::default(),
                    },
                    Command::Spawn {
                        archetype: PICKUP,
                        pos: Vec2::new(f32::NAN, 0.0),
                        overrides: Overrides::default(),
                    },
                    Command::Teleport {
                        target: PLAYER_SEQ,
                        pos: Vec2::new(f32::INFINITY, 0.0),
                    },
                    Command::Damage {
                        target: PLAYER_SEQ,
                        amount: -1,
                        source: None,
                    },
                    Command::Effect {
                        effect: EffectId(7),
                        pos: Vec2::ZERO,
                        color: None,
                    },
                    Command::Sound {
                        sound: SoundId(0),
                        volume: 1.0,
                        pitch: 0.0,
                    },
                    Command::SetVar("x".into(), Var::Num(f64::NAN)),
                ];
                for c in bad {
                    e.borrow_mut().push(g.send(c).unwrap_err().message);
                }
            }
            Ok(())
        }),
    );
    run(&mut g, 1);
    assert_eq!(errors.borrow().len(), 7);
    assert!(errors.borrow()[0].contains("unknown archetype"));
    assert!(errors.borrow()[1].contains("finite"));
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

    // Motion consuming damage events that only Gameplay produces is reported.
    let mut early = native;
    access_of(&mut early, Phase::Motion).consumes = vec![EventKind::Damage];
    access_of(&mut early, Phase::BeginTick).consumes_carried = vec![EventKind::Spawned];
    assert!(
        check_order(&early)
            .unwrap_err()
            .contains(&OrderError::ConsumedBeforeProduced {
                consumer: Phase::Motion,
                event: EventKind::Damage
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

#[test]
fn triggers_aim_at_the_nearest_tagged_entity() {
    let mut def = game_def();
    def.archetypes[0].control.as_mut().unwrap().triggers[0].aim = T_ENEMY;
    def.archetypes[1].behaviour = None;
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 0.0, 300.0);
    place(&mut def, ENEMY, -100.0, 0.0); // nearest
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def.clone(),
        rules(move |stage, g| {
            if stage == Stage::One {
                for a in &g.events().actions {
                    s.borrow_mut().push(format!("{:?} {:?}", a.aim, a.facing));
                }
            }
            Ok(())
        }),
    );
    let mut fire = TickInput::neutral();
    fire.set_pressed(ActionId(2), true);
    fire.set_held(ActionId(2), true);
    g.step(&fire).unwrap();
    assert_eq!(
        *seen.borrow(),
        vec![format!(
            "{:?} {:?}",
            Vec2::new(-1.0, 0.0),
            Vec2::new(1.0, 0.0)
        )],
        "aims at the nearest enemy; facing is unchanged"
    );
    // Without enemies the aim falls back to the facing.
    def.levels[0].placements.truncate(1);
    let seen = log();
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                for a in &g.events().actions {
                    s.borrow_mut().push(format!("{:?}", a.aim));
                }
            }
            Ok(())
        }),
    );
    g.step(&fire).unwrap();
    assert_eq!(*seen.borrow(), vec![format!("{:?}", Vec2::new(1.0, 0.0))]);
}
