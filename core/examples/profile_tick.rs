//! Runs the crowd tick for profiling: `cargo run --release -p ludus-core --example profile_tick -- 100000`.
use ludus_core::*;
use std::sync::Arc;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let side = (n as f32 * 400.0).sqrt();
    let body = ArchetypeDef {
        name: "mover".into(),
        collider: Some(ColliderDef {
            shape: Shape::Circle { radius: 3.0 },
            layer: 1,
            mask: 1,
            push: 0,
            trigger: false,
            stay: false,
        }),
        speed: 40.0,
        behaviour: Some(BehaviourDef {
            kind: BehaviourKind::Wander,
            target: 0,
            cadence: Some(30),
            navigate: false,
        }),
        bounds: BoundsPolicy::Confine,
        ..ArchetypeDef::default()
    };
    let def = GameDef {
        layers: vec!["body".into()],
        archetypes: vec![body],
        levels: vec![LevelDef {
            bounds: Rect::centered(Vec2::new(side, side)),
            ..LevelDef::default()
        }],
        stress: Some(StressDef {
            archetype: ArchetypeId(0),
            area: None,
        }),
        ..GameDef::default()
    };
    let mut g = Game::with_entities(Arc::new(def), Box::new(NoConsequences), n).unwrap();
    let start = std::time::Instant::now();
    let ticks = 200;
    for _ in 0..ticks {
        g.step(&TickInput::neutral()).unwrap();
    }
    let el = start.elapsed();
    println!(
        "{n} entities: {:.3} ms/tick, contacts {}",
        el.as_secs_f64() * 1000.0 / ticks as f64,
        g.world().contacts().len()
    );
}
