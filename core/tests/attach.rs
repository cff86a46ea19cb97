//! Attachment: an entity that moves with its parent, turns with it, dies with it unless
//! detached, never hangs from itself, and archetypes that attach their spawns.
//!
//! The fixture runs at 64 ticks a second, so a velocity of 64 moves one unit a tick, exactly.

mod support;

use ludus_core::*;
use std::f32::consts::PI;
use support::*;

/// The fixture at 64 Hz, with a `ship` archetype (seq of its first placement: see each test)
/// that moves right a unit a tick and spins a quarter turn a tick.
fn def64() -> GameDef {
    let mut def = game_def();
    def.tick.rate_hz = 64;
    def.archetypes.push(ArchetypeDef {
        name: "ship".into(),
        velocity: Vec2::new(64.0, 0.0),
        rotation: Some(RotationDef {
            angle: 0.0,
            spin: PI / 2.0 * 64.0,
            rotate: RotateMode::None,
        }),
        tags: T_ENEMY,
        ..ArchetypeDef::default()
    });
    def
}

const SHIP: ArchetypeId = ArchetypeId(5);

fn attach(child: u64, parent: u64, x: f32, y: f32, angle: bool) -> Command {
    Command::Attach {
        child,
        parent,
        offset: Vec2::new(x, y),
        angle,
    }
}

/// Sends `commands` in stage one of tick `at`.
fn at_tick(at: u64, commands: Vec<Command>) -> Box<dyn Consequences> {
    let mut commands = Some(commands);
    rules(move |stage, g| {
        if stage == Stage::One
            && g.tick() == at
            && let Some(cs) = commands.take()
        {
            for c in cs {
                g.send(c).map_err(|e| e.into_fault())?;
            }
        }
        Ok(())
    })
}

/// Where an entity is now and was at the start of the tick, and its angle.
fn placed(g: &Game, seq: u64) -> (Vec2, Vec2, f32) {
    let e = g.world().entity(seq).unwrap();
    let ecs = g.world().ecs();
    let angle = ecs.get::<&Rotation>(e).map_or(0.0, |r| r.angle);
    let t = pos_of(g, seq).unwrap();
    (t.cur, t.prev, angle)
}

fn near(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < 1e-4
}

#[test]
fn an_attachment_follows_a_moving_turning_parent_exactly() {
    let mut def = def64();
    // 1: the ship; 2: a grandchild, created before its parent (3) to show the order is by
    // depth, not creation; 3: a blade turning with the ship; 4: a flag that does not turn.
    place(&mut def, SHIP, 0.0, 0.0);
    place(&mut def, PICKUP, 500.0, 500.0);
    place(&mut def, PICKUP, -500.0, 0.0);
    place(&mut def, PICKUP, 0.0, -500.0);
    let (ship, tip, blade, flag) = (1, 2, 3, 4);
    let mut g = game(
        def,
        at_tick(
            1,
            vec![
                attach(tip, blade, 5.0, 0.0, true),
                attach(blade, ship, 10.0, 0.0, true),
                attach(flag, ship, 0.0, 20.0, false),
            ],
        ),
    );
    // The ship's angle after tick t is t quarter turns (pi wraps to -pi); x is t.
    let expected = [
        // tick, blade now, blade before, tip now, flag now
        (1, (1.0, 10.0), (10.0, 0.0), (1.0, 15.0), (1.0, 20.0)),
        (2, (-8.0, 0.0), (1.0, 10.0), (-13.0, 0.0), (2.0, 20.0)),
        (3, (3.0, -10.0), (-8.0, 0.0), (3.0, -15.0), (3.0, 20.0)),
        (4, (14.0, 0.0), (3.0, -10.0), (19.0, 0.0), (4.0, 20.0)),
        (5, (5.0, 10.0), (14.0, 0.0), (5.0, 15.0), (5.0, 20.0)),
    ];
    let v = |(x, y): (f32, f32)| Vec2::new(x, y);
    for (tick, now, before, tip_now, flag_now) in expected {
        g.step(&TickInput::neutral()).unwrap();
        let (ship_at, _, ship_angle) = placed(&g, ship);
        assert_eq!(
            ship_at,
            Vec2::new(tick as f32, 0.0),
            "tick {tick}: the ship"
        );
        let (b, b_prev, b_angle) = placed(&g, blade);
        let (t, _, t_angle) = placed(&g, tip);
        let (f, f_prev, f_angle) = placed(&g, flag);
        assert!(near(b, v(now)), "tick {tick}: the blade at {b:?}");
        assert!(near(t, v(tip_now)), "tick {tick}: the tip at {t:?}");
        assert_eq!(f, v(flag_now), "tick {tick}: the flag, exactly");
        assert_eq!(
            (b_angle, t_angle, f_angle),
            (ship_angle, ship_angle, 0.0),
            "tick {tick}: the blade and the tip turn with the ship; the flag does not turn"
        );
        // Drawn between ticks from where the ship was, with the ship's previous angle (on
        // the tick of the attachment, from the ship's previous place: no streak).
        assert!(
            near(b_prev, v(before)),
            "tick {tick}: the blade was at {b_prev:?}"
        );
        assert_eq!(f_prev, f - Vec2::new(1.0, 0.0), "tick {tick}: the flag was");
    }
    // The attached move with the ship: its velocity is theirs.
    assert_eq!(state(&g, flag).1, Vec2::new(64.0, 0.0));
}

/// A chain of 2,000 attachments made in the reverse of their creation (each link hangs from
/// the one created after it, the last from the ship) follows the ship in one tick: each is
/// placed after its parent, however deep (the depths are found in one walk of the chain).
#[test]
fn a_long_chain_made_against_creation_order_follows_in_one_tick() {
    const LINKS: u64 = 2000;
    let mut def = def64();
    def.limits.max_entities = 4096;
    place(&mut def, SHIP, 0.0, 0.0);
    for _ in 0..LINKS {
        place(&mut def, PICKUP, 900.0, 900.0);
    }
    // Seqs: 1 the ship, 2..=LINKS + 1 the links; link s hangs from s + 1, the last from 1.
    let links: Vec<Command> = (2..=LINKS + 1)
        .map(|s| {
            let parent = if s == LINKS + 1 { 1 } else { s + 1 };
            attach(s, parent, 1.0, 0.0, false)
        })
        .collect();
    let mut g = game(def, at_tick(1, links));
    for tick in 1..=3u64 {
        g.step(&TickInput::neutral()).unwrap();
        for s in 2..=LINKS + 1 {
            let depth = (LINKS + 2 - s) as f32;
            let (at, _, _) = placed(&g, s);
            assert_eq!(
                at,
                Vec2::new(tick as f32 + depth, 0.0),
                "tick {tick}: link {s} at depth {depth}"
            );
        }
    }
}

#[test]
fn a_chain_built_link_by_link_in_one_tick_follows_and_dies_with_its_root() {
    const LINKS: u64 = 5000;
    let mut def = def64();
    def.limits.max_entities = 8192;
    place(&mut def, SHIP, 0.0, 0.0);
    for _ in 0..LINKS {
        place(&mut def, PICKUP, 900.0, 900.0);
    }
    // Link s hangs from s - 1, the first from the ship (1): each attaches a free entity to
    // the chain's end, sent in one tick; the ship is destroyed in the next.
    let links: Vec<Command> = (2..=LINKS + 1)
        .map(|s| attach(s, s - 1, 1.0, 0.0, false))
        .collect();
    let mut commands = Some(links);
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                for c in commands.take().unwrap() {
                    g.send(c).map_err(|e| e.into_fault())?;
                }
            }
            if stage == Stage::One && g.tick() == 2 {
                g.send(Command::Destroy(1)).unwrap();
            }
            Ok(())
        }),
    );
    g.step(&TickInput::neutral()).unwrap();
    for s in [2, 3, LINKS / 2, LINKS + 1] {
        let (at, _, _) = placed(&g, s);
        assert_eq!(at, Vec2::new(1.0 + (s - 1) as f32, 0.0), "link {s}");
    }
    g.step(&TickInput::neutral()).unwrap();
    assert_eq!(
        g.world().sequences(),
        Vec::<u64>::new(),
        "all went with the ship"
    );
}

#[test]
fn attached_entities_die_with_their_parent_unless_detached() {
    let mut def = def64();
    place(&mut def, SHIP, 0.0, 0.0);
    for x in [10.0, 20.0, 30.0] {
        place(&mut def, PICKUP, x, 0.0);
    }
    // 5: a bullet that expires at tick 3, carrying 6.
    def.levels[0].placements.push(Placement {
        archetype: BULLET,
        pos: Vec2::new(0.0, 50.0),
        overrides: Overrides {
            lifetime: Some(3),
            ..Overrides::default()
        },
    });
    place(&mut def, PICKUP, 0.0, 60.0);
    let (ship, a, b, grand, bullet, rider) = (1, 2, 3, 4, 5, 6);
    let mut step = 0;
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage != Stage::One {
                return Ok(());
            }
            step += 1;
            let sent = match step {
                1 => vec![
                    attach(a, ship, 10.0, 0.0, false),
                    attach(b, ship, 20.0, 0.0, false),
                    attach(grand, a, 5.0, 0.0, false),
                    attach(rider, bullet, 0.0, 10.0, false),
                ],
                2 => vec![Command::Detach(b)],
                4 => vec![Command::Destroy(ship)],
                _ => vec![],
            };
            for c in sent {
                g.send(c).map_err(|e| e.into_fault())?;
            }
            Ok(())
        }),
    );
    let mut rows = Vec::new();
    for tick in 1..=5 {
        g.step(&TickInput::neutral()).unwrap();
        let alive: Vec<u64> = g.world().sequences();
        rows.push((tick, alive));
    }
    assert_eq!(
        rows,
        vec![
            (1, vec![ship, a, b, grand, bullet, rider]),
            (2, vec![ship, a, b, grand, bullet, rider]),
            (3, vec![ship, a, b, grand]),
            (4, vec![b]),
            (5, vec![b]),
        ],
        "(tick, the live entities): the rider expires with its bullet; the grandchild goes \
         with its parent's parent; the detached one stays"
    );
    // Detached, it keeps moving as the ship did.
    assert_eq!(state(&g, b), (Vec2::new(25.0, 0.0), Vec2::new(64.0, 0.0)));
}

#[test]
fn an_attachment_that_would_make_a_cycle_is_refused() {
    let mut def = def64();
    for x in [0.0, 10.0, 20.0, 30.0] {
        place(&mut def, PICKUP, x, 0.0);
    }
    let out = log();
    let seen = out.clone();
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage != Stage::One {
                return Ok(());
            }
            let tries: Vec<Command> = match g.tick() {
                1 => vec![attach(1, 2, 0.0, 0.0, false), attach(2, 3, 0.0, 0.0, false)],
                2 => vec![
                    attach(3, 1, 0.0, 0.0, false),
                    attach(4, 4, 0.0, 0.0, false),
                    // Sent this tick: a cycle with the one before it is refused too.
                    attach(4, 3, 0.0, 0.0, false),
                    attach(3, 4, 0.0, 0.0, false),
                    // Detached first, it is no cycle.
                    Command::Detach(1),
                    attach(3, 1, 0.0, 0.0, false),
                ],
                _ => vec![],
            };
            for c in tries {
                let got = g.send(c.clone());
                seen.borrow_mut().push(match got {
                    Ok(_) => "ok".to_string(),
                    Err(e) => e.message,
                });
            }
            Ok(())
        }),
    );
    run(&mut g, 3);
    assert_eq!(
        *out.borrow(),
        vec![
            "ok",
            "ok",
            "attaching entity 3 to entity 1 would make a cycle (1 is attached to 2, 2 to 3); \
             detach one first",
            "entity 4 cannot be attached to itself",
            "ok",
            "attaching entity 3 to entity 4 would make a cycle (4 is attached to 3); detach \
             one first",
            "ok",
            "ok",
        ]
    );
    let parent = |seq| {
        let e = g.world().entity(seq).unwrap();
        g.world().ecs().get::<&Attached>(e).ok().map(|a| a.parent)
    };
    assert_eq!([1, 2, 3, 4].map(parent), [None, Some(3), Some(1), Some(3)]);
}

#[test]
fn an_archetype_attaches_its_spawns_to_the_nearest_tagged_entity() {
    let mut def = def64();
    def.archetypes.push(ArchetypeDef {
        name: "shield".into(),
        attach: Some(AttachDef {
            to: T_ENEMY,
            offset: Vec2::new(0.0, -10.0),
            angle: false,
        }),
        ..ArchetypeDef::default()
    });
    let shield = ArchetypeId(6);
    // Enemies (standing: no player to chase) at x = 0, 100 and 200; a shield placed in the
    // level finds its enemy at once.
    for x in [0.0, 100.0, 200.0] {
        place(&mut def, ENEMY, x, 0.0);
    }
    place(&mut def, shield, 90.0, 0.0);
    let spawn = move |x: f32| Command::Spawn {
        archetype: shield,
        pos: Vec2::new(x, 0.0),
        overrides: Default::default(),
    };
    let mut g = game(
        def,
        rules(move |stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                // 150 is as near 100 as 200: the earlier created wins. The last, with every
                // enemy destroyed this tick, finds none.
                for x in [-30.0, 150.0, 260.0] {
                    g.send(spawn(x)).unwrap();
                }
            }
            if stage == Stage::One && g.tick() == 2 {
                for seq in 1..=3 {
                    g.send(Command::Destroy(seq)).unwrap();
                }
                g.send(spawn(0.0)).unwrap();
            }
            Ok(())
        }),
    );
    let parents = |g: &Game| -> Vec<(u64, Option<u64>)> {
        let w = g.world();
        w.sequences()
            .into_iter()
            .filter(|s| *s >= 4)
            .map(|s| {
                let e = w.entity(s).unwrap();
                (s, w.ecs().get::<&Attached>(e).ok().map(|a| a.parent))
            })
            .collect()
    };
    assert_eq!(parents(&g), vec![(4, Some(2))], "placed in the level");
    assert_eq!(
        state(&g, 4).0,
        Vec2::new(100.0, -10.0),
        "put in place at once"
    );
    run(&mut g, 1);
    assert_eq!(
        parents(&g),
        vec![(4, Some(2)), (5, Some(1)), (6, Some(2)), (7, Some(3))]
    );
    assert_eq!(g.world().counters().unattached, 0);
    run(&mut g, 1);
    // Every shield went with its enemy; the one spawned as they went found none.
    assert_eq!(parents(&g), vec![(8, None)]);
    let c = g.world().counters();
    assert_eq!((c.unattached, c.unattached_archetype), (1, Some(shield)));
}

#[test]
fn many_placed_spawns_attach_as_a_look_at_every_candidate_would() {
    let mut def = def64();
    // Shields carry the tag they look for: one may take another (not itself, nor one that
    // hangs from it) as its parent.
    def.archetypes.push(ArchetypeDef {
        name: "shield".into(),
        tags: T_ENEMY,
        attach: Some(AttachDef {
            to: T_ENEMY,
            offset: Vec2::ZERO,
            angle: false,
        }),
        ..ArchetypeDef::default()
    });
    let shield = ArchetypeId(6);
    let mut rng = fastrand::Rng::with_seed(3);
    let spot = |rng: &mut fastrand::Rng| match rng.u8(..6) {
        // Some share a spot (ties go to the earliest), some are far out.
        0 => Vec2::new(50.0, 50.0),
        1 => Vec2::new(rng.f32() * 1e5, -3e4),
        _ => Vec2::new((rng.f32() * 400.0).round(), (rng.f32() * 300.0).round()),
    };
    // (seq, position, is a shield), in creation order.
    let mut all = Vec::new();
    for seq in 1..=150u64 {
        let (p, is_shield) = (spot(&mut rng), rng.bool());
        place(&mut def, if is_shield { shield } else { ENEMY }, p.x, p.y);
        all.push((seq, p, is_shield));
    }
    // What looking at every candidate gives, shield by shield in creation order.
    let mut want: Vec<(u64, Option<u64>)> = Vec::new();
    let hangs = |want: &[(u64, Option<u64>)], mut at: u64, from: u64| loop {
        if at == from {
            return true;
        }
        match want.iter().find(|(s, _)| *s == at).and_then(|(_, p)| *p) {
            Some(p) => at = p,
            None => return false,
        }
    };
    for &(seq, here, is_shield) in &all {
        if !is_shield {
            continue;
        }
        let mut best: Option<(f32, u64)> = None;
        for &(s, p, _) in &all {
            let d = (p - here).length_squared();
            if best.is_none_or(|(bd, _)| d < bd) && !hangs(&want, s, seq) {
                best = Some((d, s));
            }
        }
        want.push((seq, best.map(|(_, s)| s)));
    }
    let g = game(def, rules(|_, _| Ok(())));
    let w = g.world();
    let got: Vec<(u64, Option<u64>)> = all
        .iter()
        .filter(|a| a.2)
        .map(|&(s, _, _)| {
            let e = w.entity(s).unwrap();
            (s, w.ecs().get::<&Attached>(e).ok().map(|a| a.parent))
        })
        .collect();
    assert!(got.len() > 50, "{} shields", got.len());
    assert_eq!(got, want);
}

#[test]
fn a_cycle_made_at_commit_by_an_archetype_and_a_command_faults() {
    let mut def = def64();
    def.archetypes.push(ArchetypeDef {
        name: "shield".into(),
        tags: T_PLAYER,
        attach: Some(AttachDef {
            to: T_ENEMY,
            offset: Vec2::ZERO,
            angle: false,
        }),
        ..ArchetypeDef::default()
    });
    place(&mut def, SHIP, 0.0, 0.0);
    let mut g = game(
        def,
        rules(|stage, g| {
            if stage == Stage::One && g.tick() == 1 {
                let id = g
                    .send(Command::Spawn {
                        archetype: ArchetypeId(6),
                        pos: Vec2::ZERO,
                        overrides: Default::default(),
                    })
                    .unwrap()
                    .unwrap();
                // The shield is attached to the ship when it is made; this the other way.
                g.send(attach(1, id, 0.0, 0.0, false)).unwrap();
            }
            Ok(())
        }),
    );
    let f = g.step(&TickInput::neutral()).unwrap_err();
    assert_eq!(
        (f.kind, f.phase, f.message.as_str()),
        (
            FaultKind::Script,
            Some(Phase::Commit),
            "attaching entity 1 to entity 2 would make a cycle: 2 hangs from 1"
        )
    );
}

#[test]
fn an_attachment_is_state_the_hash_covers_and_a_restart_forgets() {
    let run_with = |offset: Option<f32>| {
        let mut def = def64();
        place(&mut def, SHIP, 0.0, 0.0);
        place_moving(&mut def, PICKUP, 10.0, 0.0, 64.0, 0.0);
        let sent = offset.map_or(vec![], |dx| vec![attach(2, 1, dx, 0.0, false)]);
        let mut g = game(def, at_tick(1, sent));
        let h = g.step(&TickInput::neutral()).unwrap().hash.unwrap();
        (g, h)
    };
    let (_, none) = run_with(None);
    let (mut g, ten) = run_with(Some(10.0));
    let (_, also) = run_with(Some(10.0));
    // Attached where it is, moving as it does: only the attachment's own record differs.
    assert_ne!(none.total, ten.total);
    assert_eq!(none.differing_parts(&ten), vec![HashPart::Positions]);
    assert_eq!(ten, also, "the same run hashes the same");
    g.load(&LoadRequest::Restart);
    let e = g.world().entity(2).unwrap();
    assert!(
        g.world().ecs().get::<&Attached>(e).is_err(),
        "a restart builds the level afresh: the command's attachment is gone"
    );
}

/// Where a trigger attached to the spinning ship is seen by collisions: the ticks it touched
/// the player standing at (-28, 0), in a world of `extra` more entities.
fn touches(extra: u32) -> Vec<u64> {
    let mut def = def64();
    def.archetypes[ENEMY.0 as usize].behaviour = None;
    place(&mut def, SHIP, 0.0, 0.0);
    place(&mut def, PICKUP, 0.0, 100.0);
    place(&mut def, PLAYER, -28.0, 0.0);
    let touched = log();
    let out = touched.clone();
    let mut attached = false;
    let c = rules(move |stage, g| {
        if stage == Stage::Two {
            return Ok(());
        }
        if !attached {
            attached = true;
            g.send(attach(2, 1, 30.0, 0.0, true)).unwrap();
        }
        for e in &g.events().trigger_enter {
            if e.a.seq == 2 {
                out.borrow_mut().push(e.tick.to_string());
            }
        }
        Ok(())
    });
    let mut g = Game::with_entities(std::sync::Arc::new(def), c, extra).unwrap();
    g.options_mut().check_invariants = true;
    run(&mut g, 5);
    let lines = touched.take();
    lines.iter().map(|t| t.parse().unwrap()).collect()
}

#[test]
fn collisions_see_attached_entities_where_they_are_in_a_world_of_any_size() {
    // After tick 2 the ship has turned half a circle: the trigger is at (-28, 0), on the
    // player (at tick 1 it was at (1, 30), at tick 3 it is at (3, -30)).
    assert_eq!(touches(0), vec![2]);
    // A world large enough to run Motion fused runs it unfused while anything is attached.
    assert_eq!(touches(1100), vec![2]);
}
