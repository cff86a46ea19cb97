//! Headless scenarios for AI in the tick: decision cadence across frame rates, chasers whose
//! target disappears, and triggers that aim at the nearest tagged entity.

mod support;

use ludus_core::*;
use std::cell::RefCell;
use std::rc::Rc;
use support::*;

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

/// The fixture with the player's fire trigger aiming at enemies, and enemies that stand still.
fn aiming_def() -> GameDef {
    let mut def = game_def();
    def.archetypes[0].control.as_mut().unwrap().triggers[0].aim = T_ENEMY;
    def.archetypes[1].behaviour = None;
    def
}

/// The `(aim, facing)` of each action event of one tick with fire pressed.
fn fire_once(def: GameDef) -> Vec<(Vec2, Vec2)> {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One {
                let actions = &g.events().actions;
                s.borrow_mut()
                    .extend(actions.iter().map(|a| (a.aim, a.facing)));
            }
            Ok(())
        }),
    );
    let mut fire = TickInput::neutral();
    fire.set_pressed(ActionId(2), true);
    fire.set_held(ActionId(2), true);
    g.step(&fire).unwrap();
    seen.take()
}

#[test]
fn triggers_aim_at_the_nearest_tagged_entity() {
    let mut def = aiming_def();
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, ENEMY, 0.0, 300.0);
    place(&mut def, ENEMY, -100.0, 0.0); // nearest
    assert_eq!(
        fire_once(def.clone()),
        vec![(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))],
        "aims at the nearest enemy; facing is unchanged"
    );
    // Without enemies the aim falls back to the facing.
    def.levels[0].placements.truncate(1);
    let aims: Vec<Vec2> = fire_once(def).into_iter().map(|a| a.0).collect();
    assert_eq!(aims, vec![Vec2::new(1.0, 0.0)]);
}

/// A trigger's aim is the nearest enemy, and of enemies as near the first placed, whether the
/// enemies are most of the world (read from every archetype's columns) or few among many
/// other entities (read through the tag index): checked against every enemy's distance.
#[test]
fn the_aim_is_the_nearest_enemy_however_many_other_entities_there_are() {
    let mut rng = fastrand::Rng::with_seed(0xA1A5);
    for (enemies, others) in [(40, 0), (25, 30), (3, 60), (1, 200), (9, 9)] {
        for round in 0..8 {
            let mut def = aiming_def();
            place(&mut def, PLAYER, 0.0, 0.0);
            // Distances in steps of 10 along the axes and diagonals: many ties.
            let mut placed = Vec::new();
            for _ in 0..enemies {
                let k = rng.i32(1..6) as f32 * 10.0;
                let (x, y) =
                    [(k, 0.0), (-k, 0.0), (0.0, k), (0.0, -k), (k, k), (-k, -k)][rng.usize(0..6)];
                placed.push(Vec2::new(x, y));
                place(&mut def, ENEMY, x, y);
            }
            for i in 0..others {
                place(&mut def, PICKUP, 400.0 + i as f32, -300.0);
            }
            // The first placed of the nearest (placements take sequences in order).
            let nearest = placed.iter().fold(None::<Vec2>, |best, p| match best {
                Some(b) if b.length_squared() <= p.length_squared() => Some(b),
                _ => Some(*p),
            });
            let want = nearest.map_or(Vec2::new(1.0, 0.0), |p| p.normalized_or_zero());
            let aims: Vec<Vec2> = fire_once(def).into_iter().map(|a| a.0).collect();
            assert_eq!(
                aims,
                vec![want],
                "{enemies} enemies, {others} others, round {round}: {placed:?}"
            );
        }
    }
}

/// Brains are checked for a due decision eight rows at a time: in any number of rows (a
/// handful, whole groups of eight and what follows the last, and past the 128 from which the
/// motion pass steers them in chunks of 256), every brain due decides on its tick and no other
/// does, tick after tick.
#[test]
fn every_due_brain_decides_and_no_other_in_any_number_of_rows() {
    for n in [1, 7, 8, 9, 16, 17, 23, 130, 300] {
        let mut def = game_def();
        place(&mut def, PLAYER, 0.0, 0.0);
        for i in 0..n {
            let (col, row) = ((i % 25) as f32, (i / 25) as f32);
            place(&mut def, ENEMY, -300.0 + 24.0 * col, 120.0 + 24.0 * row);
        }
        let mut g = game(def, Box::new(NoConsequences));
        let (mut decided, mut seen) = (0, 0);
        for _ in 0..35 {
            let next = g.world().tick() + 1;
            let due = g
                .world()
                .ecs()
                .query::<&Brain>()
                .iter()
                .filter(|b| b.next_decision() <= next)
                .count() as u64;
            g.step(&TickInput::default()).expect("the tick runs");
            let now = g.world().counters().ai_decisions;
            assert_eq!(now - decided, due, "{n} chasers, tick {next}");
            seen += due;
            decided = now;
        }
        // The first tick decides every brain, then each decides every 10 ticks.
        assert!(seen >= 4 * n as u64, "{n} chasers decided {seen} times");
    }
}
