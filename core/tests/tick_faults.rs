//! Headless scenarios for faults in the tick: a faulting tick and restart, exactly-once
//! outbox delivery, capacity overflows and malformed commands.

mod support;

use ludus_core::*;
use support::*;

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
                        overrides: Default::default(),
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
                        overrides: Default::default(),
                    },
                    Command::Spawn {
                        archetype: PICKUP,
                        pos: Vec2::new(f32::NAN, 0.0),
                        overrides: Default::default(),
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
