//! Motion's native systems run as one pass over each archetype's columns when nothing else runs
//! in the phase; a system of the embedding program in Motion makes them run one after another.
//! Both must give the same world, tick for tick: every motion rule, bounds policy (with and
//! without margins), rotation mode and body kind, with spawns and destructions along the way.

mod support;

use ludus_core::reference::{Bumps, crowd_def};
use ludus_core::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::*;

/// The fixture game plus one archetype per motion rule, each placed a few times.
fn kitchen_sink() -> GameDef {
    let mut def = game_def();
    def.physics.gravity = Vec2::new(0.0, 300.0);
    def.levels[0].bounds = Rect::centered(Vec2::new(600.0, 400.0));
    let rotating = |mode| RotationDef {
        angle: 0.3,
        spin: 1.5,
        rotate: mode,
    };
    let kinds = [
        (
            "bouncer",
            BoundsPolicy::Bounce,
            Some(MotionDef::default()),
            Some(rotating(RotateMode::Velocity)),
            BodyKind::Dynamic,
        ),
        (
            "wrapper",
            BoundsPolicy::Wrap,
            None,
            Some(rotating(RotateMode::None)),
            BodyKind::Dynamic,
        ),
        (
            "faller",
            BoundsPolicy::Destroy,
            Some(MotionDef {
                drag: 0.5,
                ..MotionDef::default()
            }),
            None,
            BodyKind::Dynamic,
        ),
        (
            "pusher",
            BoundsPolicy::Confine,
            None,
            None,
            BodyKind::Kinematic,
        ),
        (
            "chaser",
            BoundsPolicy::Confine,
            None,
            None,
            BodyKind::Dynamic,
        ),
        (
            "block",
            BoundsPolicy::Ignore,
            None,
            Some(rotating(RotateMode::Facing)),
            BodyKind::Static,
        ),
    ];
    for (k, (name, bounds, motion, rotation, body)) in kinds.into_iter().enumerate() {
        def.archetypes
            .push(mover(k, name, bounds, motion, rotation, body));
    }
    // Margins: their rows take the pass row by row, each within its own area.
    for (a, margin) in [(5, -10.0), (6, 20.0), (7, -30.0), (9, 15.0)] {
        def.archetypes[a].bounds_margin = margin;
    }
    let mut rng = fastrand::Rng::with_seed(11);
    for a in 5..def.archetypes.len() as u16 {
        for _ in 0..12 {
            let (x, y) = (rng.f32() * 560.0 - 280.0, rng.f32() * 360.0 - 180.0);
            let (vx, vy) = (rng.f32() * 400.0 - 200.0, rng.f32() * 400.0 - 200.0);
            place_moving(&mut def, ArchetypeId(a), x, y, vx, vy);
        }
    }
    place(&mut def, PLAYER, 0.0, 0.0);
    place(&mut def, WALL, 100.0, 40.0);
    def
}

/// The archetype of kind `k` of [`kitchen_sink`]: a collider of one shape or the other, a
/// brain of one of the behaviours, and the motion rules given.
fn mover(
    k: usize,
    name: &str,
    bounds: BoundsPolicy,
    motion: Option<MotionDef>,
    rotation: Option<RotationDef>,
    body: BodyKind,
) -> ArchetypeDef {
    ArchetypeDef {
        name: name.into(),
        sprite: Some(sprite(10.0, 1)),
        collider: Some(ColliderDef {
            body,
            bounce: k.is_multiple_of(2).then_some(0.7),
            ..ColliderDef::new(
                if k.is_multiple_of(2) {
                    Shape::Circle { radius: 5.0 }
                } else {
                    Shape::Box {
                        half: Vec2::new(6.0, 4.0),
                    }
                },
                L_ENEMY,
                L_PLAYER | L_BULLET,
                L_ENEMY | L_WALL,
            )
        }),
        bounds,
        motion,
        rotation,
        // Every kind thinks: brains decide in the one pass too.
        behaviour: Some(BehaviourDef {
            kind: [
                BehaviourKind::Chase,
                BehaviourKind::Wander,
                BehaviourKind::Flee,
                BehaviourKind::Chase,
            ][k % 4],
            target: T_PLAYER,
            cadence: Some(5 + k as u32),
            navigate: false,
            range: None,
            idle: Idle::Stop,
        }),
        speed: 50.0 + 10.0 * k as f32,
        ..ArchetypeDef::default()
    }
}

/// Runs `ticks` ticks with input that moves and fires; the state hash of each.
fn hashes(def: &Arc<GameDef>, extra_system: bool, ticks: u32) -> Vec<StateHash> {
    // More entities than the one-pass motion needs, and enough for the hash to split.
    let mut g = Game::with_entities(def.clone(), Box::new(NoConsequences), 1100).unwrap();
    g.options_mut().hash = true;
    g.options_mut().check_invariants = true;
    if extra_system {
        g.add_system(System::new("watch", Phase::Motion, |_| Ok(())))
            .unwrap();
    }
    let (move_x, fire) = (ActionId(0), ActionId(2));
    let mut out = Vec::new();
    for t in 0..ticks {
        let mut input = TickInput::neutral();
        input.set_axis(move_x, if (t / 50) % 2 == 0 { 1.0 } else { -1.0 });
        input.set_held(fire, t % 3 != 0);
        input.set_pressed(fire, t % 3 == 1);
        let report = g.step(&input).unwrap();
        out.push(report.hash.expect("hashing is on"));
    }
    out
}

#[test]
fn one_pass_and_one_system_after_another_make_the_same_world() {
    let def = Arc::new(kitchen_sink());
    let fused = hashes(&def, false, 400);
    let separate = hashes(&def, true, 400);
    for (t, (a, b)) in fused.iter().zip(&separate).enumerate() {
        assert_eq!(a, b, "tick {}: the fused pass differs", t + 1);
    }
    assert_eq!(fused.len(), 400);
}

#[test]
fn the_hash_split_between_threads_is_the_serial_hash() {
    // Every hashed component of the kitchen sink (rotations, footing, cooldowns, lifetimes,
    // controls), hashed every 25 ticks: each half sums alternate batches of rows.
    let def = Arc::new(kitchen_sink());
    let mut g = Game::with_entities(def, Box::new(NoConsequences), 3000).unwrap();
    let fire = ActionId(2);
    for t in 0..200u32 {
        let mut input = TickInput::neutral();
        input.set_held(fire, true);
        input.set_pressed(fire, t % 2 == 0);
        g.step(&input).unwrap();
        if t % 25 == 0 {
            let serial = StateHash::of_split(g.world(), usize::MAX);
            assert_eq!(StateHash::of_split(g.world(), 1), serial, "tick {}", t + 1);
            assert_eq!(StateHash::of(g.world()), serial, "tick {}", t + 1);
        }
    }
}

/// What `read` makes of each tick's report and game, in a game of `n` entities with every
/// pass serial or, where the machine allows, every pass that may split split.
fn each_tick<T>(
    def: GameDef,
    rules: Box<dyn Consequences>,
    (n, ticks): (u32, u32),
    serial: bool,
    mut read: impl FnMut(TickReport, &Game) -> T,
) -> Vec<T> {
    let mut g = Game::with_entities(Arc::new(def), rules, n).unwrap();
    g.options_mut().hash = true;
    g.options_mut().serial = serial;
    if !serial {
        g.split_always();
    }
    (0..ticks)
        .map(|_| {
            let r = g.step(&TickInput::neutral()).unwrap();
            read(r, &g)
        })
        .collect()
}

/// The per-tick state hashes, contacts and events of a game of `n` entities, with every pass
/// serial or not.
fn tick_reports(
    def: GameDef,
    rules: Box<dyn Consequences>,
    n: u32,
    serial: bool,
    ticks: u32,
) -> Vec<(StateHash, usize, usize)> {
    each_tick(def, rules, (n, ticks), serial, |r, _| {
        (r.hash.unwrap(), r.contacts, r.events)
    })
}

/// The tick's contact events, a queue a phase: collision enter, stay and exit, then trigger
/// enter, stay and exit.
fn contact_queues(g: &Game) -> [Vec<ContactEvent>; 6] {
    let e = g.events();
    [
        &e.collision_enter,
        &e.collision_stay,
        &e.collision_exit,
        &e.trigger_enter,
        &e.trigger_stay,
        &e.trigger_exit,
    ]
    .map(|q| q.clone())
}

fn same_with_threads(split: &[(StateHash, usize, usize)], serial: &[(StateHash, usize, usize)]) {
    assert!(serial.iter().any(|s| s.1 > 0), "there are contacts");
    for (t, (a, b)) in split.iter().zip(serial).enumerate() {
        assert_eq!(a, b, "tick {}: the split pass differs", t + 1);
    }
}

#[test]
fn a_pass_split_between_threads_makes_the_same_world_as_one_thread() {
    // Enough drones in one archetype for the motion pass and the broadphase's cell lookups
    // to split them; the drones reach the player within the run, and pile on it: past 512
    // drones in contacts, their full records are filled on two threads.
    let drones = |serial| {
        let def = ludus_core::reference::drones_def();
        tick_reports(def, Box::new(NoConsequences), 50_000, serial, 160)
    };
    let serial = drones(true);
    let pile = serial.iter().map(|s| s.1).max().unwrap_or(0);
    assert!(pile > 600, "a pile of {pile} contacts");
    same_with_threads(&drones(false), &serial);
}

#[test]
fn a_piles_contacts_on_two_threads_are_the_events_of_one_thread() {
    // Drones piled on the player, past 512 contacts a tick: split, their full records and
    // their pairs' sort run in halves on two threads; every tick's contact events, in each
    // queue's order, and hash are one thread's.
    let events = |serial: bool| {
        let def = ludus_core::reference::drones_def();
        each_tick(
            def,
            Box::new(NoConsequences),
            (50_000, 160),
            serial,
            |r, g| {
                let queues = contact_queues(g);
                (r.hash.unwrap(), queues)
            },
        )
    };
    let serial = events(true);
    let pile = (serial.iter())
        .map(|(_, q)| q.iter().map(Vec::len).sum::<usize>())
        .max();
    assert!(pile > Some(600), "a pile of {pile:?} contact events");
    for (t, (split, one)) in events(false).iter().zip(&serial).enumerate() {
        assert!(
            split == one,
            "tick {}: the split tick's events differ",
            t + 1
        );
    }
}

/// The drones' game with every contact reporting `stay` events (a tick's events are as many
/// as its contacts), and where `hurting`, every drone touching the player hurting it every
/// tick (the player never invulnerable, nor dead).
fn staying_drones(hurting: bool) -> GameDef {
    let mut def = ludus_core::reference::drones_def();
    let player = def.archetype_id("player").unwrap();
    let hurts = ContactDamageDef {
        amount: 1,
        to: def.archetypes[player.0 as usize].tags,
        once: false,
    };
    for (k, a) in def.archetypes.iter_mut().enumerate() {
        if let Some(c) = &mut a.collider {
            c.stay = true;
        }
        if k == player.0 as usize {
            a.health = Some(HealthDef {
                max: 1_000_000_000,
                invulnerable_ticks: 0,
            });
        } else if hurting && a.behaviour.is_some() {
            a.contact_damage = Some(hurts);
        }
    }
    def
}

#[test]
fn contacts_walked_in_halves_give_one_walks_events_damage_and_cache() {
    // A pile of over a thousand contacts a tick, every one a stay event: split, the contacts
    // are walked in two halves at once. Each tick's events in each queue's order, its contact
    // count and its hash (the damage done, the contacts cached) are one thread's.
    let events = |serial: bool| {
        each_tick(
            staying_drones(true),
            Box::new(NoConsequences),
            (50_000, 160),
            serial,
            |r, g| {
                let queues = contact_queues(g);
                (r.hash.unwrap(), r.contacts, queues)
            },
        )
    };
    let serial = events(true);
    let pile = serial.iter().map(|(_, c, _)| *c).max();
    assert!(pile > Some(1000), "a pile of {pile:?} contacts");
    for (t, (split, one)) in events(false).iter().zip(&serial).enumerate() {
        assert!(
            split == one,
            "tick {}: the split tick's contacts differ",
            t + 1
        );
    }
}

#[test]
fn contacts_walked_in_halves_fault_where_one_walk_does() {
    // The stay events pass their bound in a tick of over 640 contacts (split: in two halves,
    // each under the bound, whose sum is over it): the same fault, at the same tick, as one
    // thread's.
    let fault = |serial: bool| {
        let mut def = staying_drones(false);
        def.limits.events_per_tick = 900;
        let mut g = Game::with_entities(Arc::new(def), Box::new(NoConsequences), 50_000).unwrap();
        g.options_mut().serial = serial;
        if !serial {
            g.split_always();
        }
        let mut most = 0;
        for t in 1..=200u64 {
            match g.step(&TickInput::neutral()) {
                Ok(r) => most = most.max(r.contacts),
                Err(f) => return (t, most, f.to_string()),
            }
        }
        panic!("no fault in 200 ticks");
    };
    let one = fault(true);
    assert!(one.1 >= 640, "{one:?}");
    assert!(one.2.contains("collision stay events"), "{one:?}");
    assert_eq!(fault(false), one);
}

#[test]
fn a_pushing_crowd_split_between_threads_makes_the_same_world_as_one_thread() {
    // Enough bodies for the bucket scan to split the grid's rows (every body is binned).
    let crowd = |serial| tick_reports(crowd_def(12_000, true), Box::new(Bumps), 12_000, serial, 30);
    same_with_threads(&crowd(false), &crowd(true));
}

#[test]
fn a_crowd_read_in_its_column_makes_the_same_world_as_one_copied() {
    // Drones that look for nothing, looked for by the player: from the second tick the one
    // pass leaves their positions in their column and the plan reads its marks there; one
    // system after another copies every position. The drones reach the player within the run.
    let reports = |extra_system: bool| {
        let def = Arc::new(ludus_core::reference::drones_def());
        let mut g = Game::with_entities(def, Box::new(NoConsequences), 20_000).unwrap();
        g.options_mut().hash = true;
        g.options_mut().serial = true;
        if extra_system {
            g.add_system(System::new("watch", Phase::Motion, |_| Ok(())))
                .unwrap();
        }
        (0..40)
            .map(|_| {
                let r = g.step(&TickInput::neutral()).unwrap();
                (r.hash.unwrap(), r.contacts, r.events)
            })
            .collect::<Vec<_>>()
    };
    same_with_threads(&reports(false), &reports(true));
}

#[test]
fn brains_of_every_kind_in_one_group_make_the_same_world_in_one_pass() {
    // Drones given behaviours of their own at tick 3 share a hecs archetype of their own, so
    // some of its groups of rows mix a straight mover (whose velocity is its own) with brains
    // of every other kind; at tick 40 a third lose their brains and the rest are set again. The
    // one pass steers a group with no straight mover in packed lanes; one system after another
    // steers them from Intent's system; a straight mover keeps its own velocity either way.
    let reports = |extra_system: bool| {
        let def = Arc::new(ludus_core::reference::drones_def());
        let taken = Arc::new(AtomicUsize::new(0));
        let kinds = [
            BehaviourKind::Wander,
            BehaviourKind::Chase,
            BehaviourKind::Flee,
            BehaviourKind::Chase,
        ];
        let counted = taken.clone();
        let set = rules(move |_, g| {
            let (tick, taken) = (g.tick(), &counted);
            if tick == 3 || tick == 40 {
                for seq in (20..1_900).step_by(2) {
                    // A straight mover in some groups of eight rows, none in most.
                    let kind = match seq / 2 {
                        k if k % 29 == 0 => BehaviourKind::Straight,
                        k => kinds[k as usize % kinds.len()],
                    };
                    let chases = matches!(kind, BehaviourKind::Chase | BehaviourKind::Flee);
                    let behaviour = (tick == 3 || seq % 3 != 0).then_some(BehaviourDef {
                        cadence: Some(3 + (seq % 5) as u32),
                        ..BehaviourDef::new(kind, if chases { T_PLAYER } else { 0 })
                    });
                    // Sequences that are not drones are refused.
                    let set = g.send(Command::SetBehaviour {
                        target: seq,
                        behaviour,
                    });
                    if set.is_ok() && tick == 3 {
                        taken.fetch_add(1, Ordering::Relaxed);
                    }
                    // A straight mover keeps a velocity of its own, not its intent's.
                    if kind == BehaviourKind::Straight {
                        let velocity = Vec2::new((seq % 7) as f32 * 10.0 - 30.0, 25.0);
                        let _ = g.send(Command::SetVelocity {
                            target: seq,
                            velocity,
                        });
                    }
                }
            }
            Ok(())
        });
        let mut g = Game::with_entities(def, set, 2_000).unwrap();
        g.options_mut().hash = true;
        g.options_mut().serial = true;
        if extra_system {
            g.add_system(System::new("watch", Phase::Motion, |_| Ok(())))
                .unwrap();
        }
        let mut straight = 0;
        let reports = (0..80)
            .map(|_| {
                let r = g.step(&TickInput::neutral()).unwrap();
                // A straight mover's velocity is the one it was given, less what a wall
                // stopped.
                for seq in (20..1_900u64).step_by(2).filter(|s| (s / 2) % 29 == 0) {
                    let Some(e) = g.world().entity(seq) else {
                        continue;
                    };
                    let ecs = g.world().ecs();
                    let Ok(brain) = ecs.get::<&Brain>(e) else {
                        continue;
                    };
                    if brain.straight() {
                        let v = ecs.get::<&Velocity>(e).unwrap().0;
                        let given = Vec2::new((seq % 7) as f32 * 10.0 - 30.0, 25.0);
                        assert!(
                            (v.x == given.x || v.x == 0.0) && (v.y == given.y || v.y == 0.0),
                            "tick {}: straight mover {seq} at {v:?}",
                            r.tick
                        );
                        straight += 1;
                    }
                }
                (r.hash.unwrap(), r.contacts, r.events)
            })
            .collect::<Vec<_>>();
        assert!(straight > 1_000, "straight movers checked");
        // Each stage of tick 3 sets them again: at least 900 drones a stage.
        assert!(taken.load(Ordering::Relaxed) >= 900 * 2, "behaviours set");
        reports
    };
    same_with_threads(&reports(false), &reports(true));
}
