//! Runs a swarm-like tick for profiling:
//! `cargo run --release -p ludus-core --example profile_tick -- 100000`.
//! A player, pillars, and N drones chasing the player (the example game's stress setting).
use ludus_core::*;
use std::sync::Arc;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut g = Game::with_entities(Arc::new(game()), Box::new(NoConsequences), n).unwrap();
    for _ in 0..20 {
        g.step(&TickInput::neutral()).unwrap();
    }
    let ticks = 200;
    let start = std::time::Instant::now();
    for _ in 0..ticks {
        g.step(&TickInput::neutral()).unwrap();
    }
    let el = start.elapsed();
    println!(
        "{n} drones: {:.3} ms/tick, contacts {}",
        el.as_secs_f64() * 1000.0 / ticks as f64,
        g.world().contacts().len()
    );
}

/// The game: its tags and layers, the three archetypes and the level; its stress entities
/// are drones.
fn game() -> GameDef {
    GameDef {
        tags: vec![
            "player".into(),
            "enemy".into(),
            "bullet".into(),
            "gem".into(),
            "wall".into(),
        ],
        layers: vec![
            "player".into(),
            "enemy".into(),
            "bullet".into(),
            "gem".into(),
            "wall".into(),
        ],
        archetypes: archetypes().into(),
        levels: vec![level()],
        stress: Some(StressDef {
            archetype: ArchetypeId(1),
            area: None,
        }),
        ..GameDef::default()
    }
}

/// The player, the drone and the pillar, in that order.
fn archetypes() -> [ArchetypeDef; 3] {
    let circle = |r: f32, layer: u32, mask: u32, push: u32| ColliderDef {
        shape: Shape::Circle { radius: r },
        layer,
        mask,
        push,
        trigger: false,
        stay: false,
        body: BodyKind::Dynamic,
        mass: 1.0,
        bounce: None,
        friction: 0.0,
    };
    let sprite = |s: f32| SpriteDef {
        shape: SpriteShape::Circle,
        size: Vec2::new(s, s),
        color: Color::WHITE,
        layer: 0,
        depth: 0.0,
        frame: 0,
        flip_x: false,
        flip_y: false,
        alpha: 1.0,
    };
    let player = ArchetypeDef {
        name: "player".into(),
        tags: 1,
        speed: 230.0,
        sprite: Some(sprite(24.0)),
        collider: Some(ColliderDef {
            stay: true,
            body: BodyKind::Dynamic,
            mass: 1.0,
            bounce: None,
            friction: 0.0,
            ..circle(12.0, 1, 2 | 8, 16)
        }),
        health: Some(HealthDef {
            max: 6,
            invulnerable_ticks: 50,
        }),
        bounds: BoundsPolicy::Confine,
        ..ArchetypeDef::default()
    };
    let drone = ArchetypeDef {
        name: "drone".into(),
        tags: 2,
        speed: 40.0,
        sprite: Some(sprite(8.0)),
        collider: Some(circle(4.0, 2, 1 | 4, 0)),
        health: Some(HealthDef {
            max: 1,
            invulnerable_ticks: 0,
        }),
        behaviour: Some(BehaviourDef {
            kind: BehaviourKind::Chase,
            target: 1,
            cadence: Some(30),
            navigate: false,
            range: None,
            idle: Idle::Stop,
        }),
        bounds: BoundsPolicy::Confine,
        ..ArchetypeDef::default()
    };
    let pillar = ArchetypeDef {
        name: "pillar".into(),
        tags: 16,
        sprite: Some(sprite(72.0)),
        collider: Some(ColliderDef {
            shape: Shape::Box {
                half: Vec2::new(36.0, 36.0),
            },
            ..circle(1.0, 16, 0, 0)
        }),
        ..ArchetypeDef::default()
    };
    [player, drone, pillar]
}

/// The arena: the player at its centre and four pillars around.
fn level() -> LevelDef {
    let mut level = LevelDef {
        bounds: Rect::centered(Vec2::new(1800.0, 1200.0)),
        ..LevelDef::default()
    };
    level.placements.push(Placement {
        archetype: ArchetypeId(0),
        pos: Vec2::ZERO,
        overrides: Overrides::default(),
    });
    for (x, y) in [
        (-360.0, -220.0),
        (360.0, -220.0),
        (-360.0, 220.0),
        (360.0, 220.0),
    ] {
        level.placements.push(Placement {
            archetype: ArchetypeId(2),
            pos: Vec2::new(x, y),
            overrides: Overrides::default(),
        });
    }
    level
}
