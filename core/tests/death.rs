//! Death happens once for consequences written in Rust too: a death event per entity, however
//! many blows land in a stage or in later ticks, and every later blow blocked and counted.

mod support;

use ludus_core::*;
use support::*;

#[test]
fn blows_from_rust_rules_kill_once() {
    // Per tick: (deaths seen in stage 2, killing damage events, damage events, blocked so far).
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = seen.clone();
    let mut def = game_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 100.0, 0.0);
    let mut g = game(
        def,
        rules(move |stage, g| {
            match stage {
                // Three blows of 2 on the enemy's 3 health, every tick.
                Stage::One => {
                    for _ in 0..3 {
                        g.send(Command::Damage {
                            target: ENEMY_SEQ,
                            amount: 2,
                            source: Some(PLAYER_SEQ),
                        })
                        .map_err(|e| e.into_fault())?;
                    }
                }
                Stage::Two => {
                    let ev = g.events();
                    let deaths: Vec<_> =
                        ev.deaths.iter().map(|d| (d.target.seq, d.source)).collect();
                    let killed = ev.damage.iter().filter(|d| d.killed).count();
                    log.borrow_mut().push((deaths, killed, ev.damage.len()));
                }
            }
            Ok(())
        }),
    );
    let mut blocked = Vec::new();
    for _ in 0..3 {
        g.step(&TickInput::neutral()).expect("tick runs");
        blocked.push(g.world().counters().after_death);
    }
    assert_eq!(
        *seen.borrow(),
        [
            (vec![(ENEMY_SEQ, Some(PLAYER_SEQ))], 1, 2),
            (vec![], 0, 0),
            (vec![], 0, 0)
        ],
        "one death, with the second blow's damage event; nothing after"
    );
    assert_eq!(blocked, [1, 4, 7], "every blow after the death is blocked");
    assert_eq!(
        health_of(&g, ENEMY_SEQ),
        Some(-1),
        "health stays where the killing blow left it"
    );
}
