//! What systems declare they touch is true. Debug builds record what each system touches as
//! it runs: a system that touches what it does not declare faults, naming it and what it
//! touched, and a game that uses every feature touches, system by system, exactly what each
//! native system declares (with Motion fused and not). Release builds record nothing, so the
//! tests run in debug builds only.
#![cfg(debug_assertions)]

mod support;

use ludus_core::*;
use std::collections::BTreeMap;
use support::*;

/// An enemy for a program's system to touch.
fn one_enemy() -> Game {
    let mut def = game_def();
    def.archetypes[ENEMY.0 as usize].behaviour = None;
    place(&mut def, ENEMY, 0.0, 0.0);
    game(def, Box::new(NoConsequences))
}

type Run = fn(&mut TickState<'_>) -> Result<(), Fault>;

/// A program's system: its name, what it does, what it declares it reads and writes, and the
/// fault a tick then gives (`None`: none).
type Case = (
    &'static str,
    Run,
    &'static [Resource],
    &'static [Resource],
    Option<&'static str>,
);

#[test]
fn a_system_that_touches_what_it_does_not_declare_faults() {
    let gust: Run = |t| {
        for v in t.query_mut::<&mut Velocity>() {
            v.0.x += 1.0;
        }
        Ok(())
    };
    let peek: Run = |t| {
        let _ = t
            .query_mut::<(&Health, &mut Velocity)>()
            .into_iter()
            .count();
        Ok(())
    };
    let retag: Run = |t| {
        for s in t.query_mut::<&mut Tags>() {
            *s = Tags;
        }
        Ok(())
    };
    let count: Run = |t| {
        let _ = t.world().score();
        Ok(())
    };
    let look: Run = |t| {
        let _ = t.world().ecs().len();
        Ok(())
    };
    let table: [Case; 7] = [
        (
            "gust",
            gust,
            &[],
            &[],
            Some("system `gust` writes Velocity, which it does not declare"),
        ),
        ("gust", gust, &[], &[Resource::Velocity], None),
        (
            "gust",
            gust,
            &[Resource::Velocity],
            &[],
            Some("system `gust` writes Velocity, which it does not declare"),
        ),
        (
            "peek",
            peek,
            &[],
            &[Resource::Velocity],
            Some("system `peek` reads Health, which it does not declare"),
        ),
        (
            "retag",
            retag,
            &[],
            &[],
            Some("system `retag` changes Tags, which is fixed at spawn, which it does not declare"),
        ),
        (
            "count",
            count,
            &[],
            &[],
            Some("system `count` reads Score, which it does not declare"),
        ),
        (
            "look",
            look,
            &[Resource::Position],
            &[],
            Some(
                "system `look` reads PrevPosition, reads Velocity, reads Health, reads Brain, \
                 reads Control, reads Cooldowns, reads Lifetime, reads ScriptState, reads \
                 Rotation, reads Footing, reads Animation, reads Look, reads Speed, reads \
                 Attachment, reads Offscreen, which it does not declare",
            ),
        ),
    ];
    for (name, run, reads, writes, expected) in table {
        let mut g = one_enemy();
        let system = System::new(name, Phase::Motion, run)
            .reads(reads)
            .writes(writes);
        g.add_system(system).unwrap();
        let got = g.step(&TickInput::neutral());
        match expected {
            None => assert!(got.is_ok(), "{name} declares what it touches: {got:?}"),
            Some(message) => {
                let f = got.expect_err(name);
                assert_eq!(
                    (f.kind, f.phase, f.message.as_str()),
                    (FaultKind::Invariant, Some(Phase::Motion), message),
                    "{name} reads {reads:?} and writes {writes:?}"
                );
            }
        }
    }
}

/// A game that uses every feature a native system has: control with aimed, cooling triggers
/// and rotation, a platformer on a floor, chasers that navigate, every motion rule and bounds
/// rule, lifetimes, a spawner, triggers and pushes; consequences that read everything
/// `Gameplay` offers and send every command, some naming entities spawned that tick.
fn everything() -> GameDef {
    let mut def = game_def();
    def.physics.gravity = Vec2::new(0.0, 300.0);
    def.levels[0].bounds = Rect::centered(Vec2::new(600.0, 400.0));
    def.levels[0].nav = Some(NavDef {
        cell: 32.0,
        blocking: L_WALL,
        goal: T_PLAYER,
    });
    let enemy = &mut def.archetypes[ENEMY.0 as usize];
    if let Some(b) = enemy.behaviour.as_mut() {
        b.navigate = true;
        b.cadence = Some(2);
    }
    enemy.contact_damage = Some(ContactDamageDef {
        amount: 1,
        to: T_PLAYER,
        once: false,
    });
    let player = &mut def.archetypes[PLAYER.0 as usize];
    player.rotation = Some(RotationDef {
        angle: 0.0,
        spin: 0.0,
        rotate: RotateMode::Facing,
    });
    player.animations = vec![AnimationDef {
        name: "walk".into(),
        frames: vec![0, 1],
        fps: 8.0,
        looping: true,
    }];
    if let Some(c) = player.control.as_mut() {
        c.triggers[0].aim = T_ENEMY;
    }
    add_jumper_and_floor(&mut def);
    add_movers(&mut def);
    def.levels[0].spawners.push(SpawnerDef {
        archetype: PICKUP,
        period: 7,
        count: 1,
        area: Rect::centered(Vec2::new(100.0, 100.0)),
        start: 1,
        bursts: Some(3),
    });
    place(&mut def, PLAYER, 200.0, 0.0);
    for i in -2..=2 {
        place(&mut def, WALL, 0.0, i as f32 * 32.0);
    }
    place(&mut def, ENEMY, -200.0, 0.0);
    place(&mut def, ENEMY, 150.0, 0.0);
    place(&mut def, PICKUP, 205.0, 0.0);
    place_moving(&mut def, BULLET, 100.0, 100.0, 0.0, 0.0);
    let jumper = ArchetypeId(5);
    place(&mut def, jumper, -100.0, -150.0);
    place(&mut def, ArchetypeId(6), -100.0, -120.0);
    let mut rng = fastrand::Rng::with_seed(5);
    for a in 7..def.archetypes.len() as u16 {
        for _ in 0..6 {
            let (x, y) = (rng.f32() * 560.0 - 280.0, rng.f32() * 360.0 - 180.0);
            let (vx, vy) = (rng.f32() * 400.0 - 200.0, rng.f32() * 400.0 - 200.0);
            place_moving(&mut def, ArchetypeId(a), x, y, vx, vy);
        }
    }
    // One that leaves the bounds on its first tick, however the movers wander.
    def.archetypes.push(ArchetypeDef {
        name: "leaver".into(),
        sprite: Some(sprite(10.0, 1)),
        bounds: BoundsPolicy::Destroy,
        motion: Some(MotionDef::default()),
        ..ArchetypeDef::default()
    });
    let leaver = ArchetypeId(def.archetypes.len() as u16 - 1);
    place_moving(&mut def, leaver, 299.0, 0.0, 600.0, 0.0);
    add_tiles_and_edges(&mut def);
    def
}

/// Tiles scripts change (on a solid archetype only they size), a margin, and a shot that
/// leaves the view of a camera with a dead zone.
fn add_tiles_and_edges(def: &mut GameDef) {
    def.archetypes[7].bounds_margin = 10.0;
    def.archetypes.push(ArchetypeDef {
        name: "earth".into(),
        collider: Some(ColliderDef {
            body: BodyKind::Static,
            ..ColliderDef::new(Shape::Box { half: Vec2::ZERO }, L_WALL, 0, 0)
        }),
        ..ArchetypeDef::default()
    });
    let earth = ArchetypeId(def.archetypes.len() as u16 - 1);
    let legend = [tile('#', 1, Some(earth)), tile('.', 2, None)];
    tile_map(def, Vec2::new(-280.0, 160.0), 16.0, &["#### ####"], &legend);
    def.archetypes.push(ArchetypeDef {
        name: "shot".into(),
        sprite: Some(sprite(10.0, 1)),
        offscreen_destroy: true,
        ..ArchetypeDef::default()
    });
    let shot = ArchetypeId(def.archetypes.len() as u16 - 1);
    place_moving(def, shot, 0.0, 0.0, 700.0, 0.0);
    def.levels[0].camera.dead_zone = Some(Vec2::new(40.0, 40.0));
}

/// A platformer (its footing) and a static floor under it.
fn add_jumper_and_floor(def: &mut GameDef) {
    let jump = def.actions.find("fire").unwrap();
    let run = def.actions.find("move_x").unwrap();
    def.archetypes.push(ArchetypeDef {
        name: "jumper".into(),
        speed: 100.0,
        collider: Some(ColliderDef::new(
            Shape::Box {
                half: Vec2::new(8.0, 8.0),
            },
            L_PLAYER,
            0,
            L_WALL,
        )),
        control: Some(ControlDef {
            kind: ControlKind::Platformer(PlatformerDef {
                run: Some(run),
                jump: Some(jump),
                accel: 0.0,
                jump_speed: 200.0,
                coyote: 4,
                buffer: 4,
                cut: 0.5,
            }),
            ..ControlDef::default()
        }),
        ..ArchetypeDef::default()
    });
    def.archetypes.push(ArchetypeDef {
        name: "floor".into(),
        collider: Some(ColliderDef {
            body: BodyKind::Static,
            ..ColliderDef::new(
                Shape::Box {
                    half: Vec2::new(100.0, 10.0),
                },
                L_WALL,
                0,
                0,
            )
        }),
        ..ArchetypeDef::default()
    });
}

/// One archetype per bounds rule, with motion rules, rotation and brains.
fn add_movers(def: &mut GameDef) {
    let kinds = [
        (BoundsPolicy::Bounce, Some(RotateMode::Velocity)),
        (BoundsPolicy::Wrap, None),
        (BoundsPolicy::Destroy, None),
        (BoundsPolicy::Confine, Some(RotateMode::None)),
    ];
    for (k, (bounds, rotate)) in kinds.into_iter().enumerate() {
        def.archetypes.push(ArchetypeDef {
            name: format!("mover{k}"),
            sprite: Some(sprite(10.0, 1)),
            collider: Some(ColliderDef {
                bounce: (k % 2 == 0).then_some(0.7),
                ..ColliderDef::new(
                    Shape::Circle { radius: 5.0 },
                    L_ENEMY,
                    L_PLAYER | L_BULLET,
                    L_ENEMY | L_WALL,
                )
            }),
            bounds,
            motion: Some(MotionDef::default()),
            rotation: rotate.map(|rotate| RotationDef {
                angle: 0.3,
                spin: 1.5,
                rotate,
            }),
            behaviour: Some(BehaviourDef {
                kind: [BehaviourKind::Chase, BehaviourKind::Wander][k % 2],
                target: T_PLAYER,
                cadence: Some(3),
                navigate: false,
                range: None,
                idle: Idle::Stop,
            }),
            speed: 80.0,
            ..ArchetypeDef::default()
        });
    }
}

/// Reads everything a stage can, in both stages; sends every command in stage 1 on some
/// ticks and in stage 2 on others.
fn consequences() -> Box<dyn Consequences> {
    rules(|stage, g| {
        let me = PLAYER_SEQ;
        let tick = g.tick();
        let at = g.pos(me).unwrap_or(Vec2::ZERO);
        let _ = (g.vel(me), g.angle(me), g.kind(me), g.tags(me), g.health(me));
        let _ = (g.state(me, "k"), g.cooldown(me, "fire"), g.archetype_of(me));
        let _ = (
            g.find(T_ENEMY),
            g.count(T_ENEMY),
            g.nearest(at, None, T_ENEMY),
        );
        let _ = (g.within(at, 50.0, T_ENEMY), g.score(), g.rng().u32(..));
        let _ = (g.var("v"), g.saved("best"), g.facing(me), g.tile(at));
        if stage == Stage::One && tick % 10 == 1 {
            g.schedule_timer(TimerSpec {
                target: Some(me),
                ..timer("ping", 2)
            })
            .map_err(|e| Fault::new(e.kind, e.message))?;
        }
        let now = match stage {
            Stage::One => tick % 10 == 3,
            Stage::Two => tick % 10 == 6,
        };
        if now {
            send_everything(g, at)?;
        }
        Ok(())
    })
}

/// Every command, some naming entities spawned by the same stage.
fn send_everything(g: &mut Gameplay<'_>, at: Vec2) -> Result<(), Fault> {
    let me = PLAYER_SEQ;
    let enemy = g.find(T_ENEMY).first().copied().unwrap_or(0);
    let spawn = |g: &mut Gameplay<'_>, archetype| {
        g.send(Command::Spawn {
            archetype,
            pos: Vec2::new(50.0, 50.0),
            overrides: Default::default(),
        })
        .ok()
        .flatten()
        .unwrap_or(0)
    };
    let born = spawn(g, PLAYER);
    let gone = spawn(g, BULLET);
    let mut commands = vec![
        Command::Destroy(gone),
        Command::Damage {
            target: enemy,
            amount: 1000,
            source: Some(me),
        },
        Command::Heal {
            target: me,
            amount: 1,
        },
        Command::Score(1),
        Command::SetVar("v".into(), Var::Num(f64::from(g.tick() as u32))),
        Command::Save {
            key: "best".into(),
            value: Some(Var::Num(f64::from(g.tick() as u32))),
        },
        Command::Bind {
            action: ActionId(0),
            keys: None,
        },
        Command::Effect {
            effect: EffectId(0),
            pos: at,
            color: None,
        },
        Command::Sound {
            sound: SoundId(0),
            volume: 1.0,
            pitch: 1.0,
        },
        Command::Music(None),
        Command::CameraShake {
            strength: 1.0,
            ticks: 5,
        },
        Command::CameraZoom(1.5),
        Command::SetTile {
            pos: Vec2::new(-200.0, 168.0),
            tile: if g.tick() % 2 == 1 { ' ' } else { '#' },
        },
        Command::GameOver("over".into()),
        Command::LoadLevel(0),
    ];
    for target in [me, born] {
        commands.extend(on_entity(target));
    }
    commands.extend(behaviours_and_attachments(g, me, born));
    commands.push(Command::ClearState(me));
    commands.push(Command::Destroy(enemy));
    for c in commands {
        g.send(c).map_err(|e| Fault::new(e.kind, e.message))?;
    }
    Ok(())
}

/// The commands that act on one entity, `target`.
fn on_entity(target: u64) -> Vec<Command> {
    vec![
        // Enough to kill: a death in this stage, or carried to the next tick's.
        Command::Damage {
            target,
            amount: 1000,
            source: None,
        },
        Command::Heal { target, amount: 1 },
        Command::SetState {
            target,
            key: "k".into(),
            value: 1.0,
        },
        Command::SetVelocity {
            target,
            velocity: Vec2::new(1.0, 0.0),
        },
        Command::UseCooldown { target, slot: 0 },
        Command::Impulse {
            target,
            impulse: Vec2::new(0.0, 1.0),
        },
        Command::SetAngle { target, angle: 0.5 },
        Command::SetSpin { target, spin: 0.5 },
        Command::Animate { target, slot: 0 },
        Command::SetLook {
            target,
            look: Look {
                alpha: Some(0.5),
                ..Look::default()
            },
        },
        Command::Teleport {
            target,
            pos: Vec2::new(210.0, 0.0),
        },
    ]
}

/// Speeds and behaviours for `me` and `born` (given in stage one, taken away in stage two),
/// and an attachment of `born` to `me` made in stage one that lives until stage two's detach
/// (Motion places it on the ticks between; the others run fused in a large world); stage two
/// attaches and detaches at once.
fn behaviours_and_attachments(g: &mut Gameplay<'_>, me: u64, born: u64) -> Vec<Command> {
    let one = g.stage() == Stage::One;
    let mut commands = Vec::new();
    for target in [me, born] {
        commands.push(Command::SetSpeed {
            target,
            speed: 90.0,
        });
        commands.push(Command::SetBehaviour {
            target,
            behaviour: one.then_some(BehaviourDef {
                range: Some(100.0),
                idle: Idle::Wander,
                ..BehaviourDef::new(BehaviourKind::Chase, T_ENEMY)
            }),
        });
    }
    for p in g.find(T_PLAYER).into_iter().filter(|p| *p != me) {
        commands.push(Command::Detach(p));
    }
    commands.push(Command::Attach {
        child: born,
        parent: me,
        offset: Vec2::new(12.0, 0.0),
        angle: true,
    });
    if !one {
        commands.push(Command::Detach(born));
    }
    commands
}

/// What each native system touched in `ticks` ticks of `everything` (plus `extra` stress
/// entities), by name: `(reads, writes)`.
fn touched(extra: u32, ticks: u32) -> BTreeMap<&'static str, Touched> {
    let def = std::sync::Arc::new(everything());
    let mut g = Game::with_entities(def, consequences(), extra).unwrap();
    g.options_mut().hash = true;
    g.options_mut().check_invariants = true;
    let mut input = TickInput::neutral();
    for t in 0..ticks {
        input.set_held(ActionId(2), t % 3 != 0);
        input.set_pressed(ActionId(2), t % 3 == 1);
        input.set_axis(ActionId(0), if t % 20 < 10 { 1.0 } else { -1.0 });
        g.step(&input).unwrap_or_else(|f| panic!("tick {t}: {f}"));
    }
    g.schedule()
        .systems()
        .iter()
        .map(|s| {
            let (reads, writes) = s.touched();
            (s.name(), (reads, writes, s.produced()))
        })
        .collect()
}

/// What a system read, wrote and produced events of.
type Touched = (Vec<Resource>, Vec<Resource>, Vec<EventKind>);

#[test]
fn every_native_system_touches_exactly_what_it_declares() {
    let small = touched(0, 60);
    let fused = touched(1100, 40);
    let mut wrong = Vec::new();
    for s in native_systems().systems() {
        let (mut reads, mut writes, mut produced) = small[s.name()].clone();
        reads.extend(fused[s.name()].0.iter().copied());
        writes.extend(fused[s.name()].1.iter().copied());
        produced.extend(fused[s.name()].2.iter().copied());
        let a = s.access();
        let declared_writes: Vec<Resource> = a.writes.to_vec();
        let declared_reads = a.reads.iter().chain(a.reads_previous.iter());
        for r in &declared_writes {
            if !writes.contains(r) {
                wrong.push(format!("`{}` never writes {r:?}", s.name()));
            }
        }
        for r in declared_reads {
            if !reads.contains(r) && !writes.contains(r) {
                wrong.push(format!("`{}` never reads {r:?}", s.name()));
            }
        }
        for kind in a.produces.iter() {
            if !produced.contains(kind) {
                wrong.push(format!("`{}` never produces {kind:?} events", s.name()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "declared but never touched:\n{}",
        wrong.join("\n")
    );
}
