//! Headless scenarios for timers: deadline order, recurring timers, cancellation, dead
//! targets and paused sessions.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

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
                    assert!(g.cancel_timer(x).unwrap());
                    assert!(!g.cancel_timer(x).unwrap(), "a second cancel is stale");
                }
                5 => {
                    // An earlier handler cancels q although it is already in this tick's due set.
                    let q = ids.borrow()[2];
                    assert!(
                        g.events().timers.iter().any(|t| t.id == q),
                        "q was snapshotted"
                    );
                    g.cancel_timer(q).unwrap();
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
