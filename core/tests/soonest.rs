//! Motion's one pass keeps the soonest decision of each group of eight brains from tick to
//! tick and skips the due test of a group none of whose brains is due. A behaviour set at run
//! time (whose brain decides at the next tick, whenever its group's others are due) and rows
//! that come and go must make the same world as one system after another, which keeps
//! nothing, tick for tick; on one thread and with the pass split between two.

mod support;

use ludus_core::*;
use std::sync::Arc;
use support::*;

/// The per-tick state hashes and decisions of `n` drones (a cadence of 30) of which every
/// third is given a behaviour of its own at ticks 5, 23, 41 and 70 (a chase every 25 ticks
/// or a wander every 40, by turns: after the first, a brain set again in place), and every
/// 29th destroyed at tick 50, and the player at 85; with Motion's native systems in one pass or one after another,
/// serial or split where the machine has two cores.
fn reports(n: u32, one_pass: bool, serial: bool) -> Vec<(StateHash, u64)> {
    let def = Arc::new(ludus_core::reference::drones_def());
    let set = rules(move |_, g| {
        let tick = g.tick();
        if [5, 23, 41, 70].contains(&tick) {
            for seq in (2..u64::from(n)).step_by(3) {
                let behaviour = match (tick / 18 + seq) % 2 {
                    0 => BehaviourDef {
                        cadence: Some(25),
                        ..BehaviourDef::new(BehaviourKind::Chase, T_PLAYER)
                    },
                    _ => BehaviourDef {
                        cadence: Some(40),
                        ..BehaviourDef::new(BehaviourKind::Wander, 0)
                    },
                };
                let _ = g.send(Command::SetBehaviour {
                    target: seq,
                    behaviour: Some(behaviour),
                });
            }
        }
        if tick == 50 {
            for seq in (7..u64::from(n)).step_by(29) {
                let _ = g.send(Command::Destroy(seq));
            }
        }
        if tick == 85 {
            // The player (the first entity), whom the chasers lose.
            let _ = g.send(Command::Destroy(1));
        }
        Ok(())
    });
    let mut g = Game::with_entities(def, set, n).unwrap();
    g.options_mut().hash = true;
    g.options_mut().serial = serial;
    if !serial {
        g.split_always();
    }
    if !one_pass {
        g.add_system(System::new("watch", Phase::Motion, |_| Ok(())))
            .unwrap();
    }
    (0..100)
        .map(|_| {
            let r = g.step(&TickInput::neutral()).unwrap();
            (r.hash.unwrap(), g.world().counters().ai_decisions)
        })
        .collect()
}

fn same(a: &[(StateHash, u64)], b: &[(StateHash, u64)], what: &str) {
    assert_eq!(a.len(), b.len());
    for (t, (a, b)) in a.iter().zip(b).enumerate() {
        assert_eq!(a, b, "tick {}: {what}", t + 1);
    }
}

#[test]
fn behaviours_set_between_a_groups_decisions_decide_as_one_system_after_another_has_them() {
    let apart = reports(2_000, false, true);
    same(&reports(2_000, true, true), &apart, "the one pass differs");
    // Decisions every tick; between the sets and losses, fewer than a group's worth a tick:
    // most groups skip their test.
    let per_tick: Vec<u64> = apart.windows(2).map(|w| w[1].1 - w[0].1).collect();
    assert!(per_tick.iter().all(|&d| d > 0), "{per_tick:?}");
    assert!(
        per_tick[72..83].iter().all(|&d| d < 2_000 / 8),
        "{per_tick:?}"
    );
}

#[test]
fn a_pass_split_between_threads_keeps_the_same_notes_as_one_thread() {
    // Past `par::SPLIT_MIN` drones the pass splits (at a group's first row).
    let serial = reports(9_000, true, true);
    same(
        &reports(9_000, true, false),
        &serial,
        "the split pass differs",
    );
}
