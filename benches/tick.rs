//! The full tick with Rust consequences at 1k, 10k and 100k moving, colliding entities, next to
//! a hand-written hecs loop doing the same motion in the same run.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ludus_core::*;
use std::hint::black_box;
use std::sync::Arc;

/// Wandering bodies that report contacts with each other, at a fixed density.
fn crowd(n: u32) -> GameDef {
    let side = (n as f32 * 400.0).sqrt();
    let body = ArchetypeDef {
        name: "mover".into(),
        sprite: Some(SpriteDef {
            shape: SpriteShape::Circle,
            size: Vec2::new(6.0, 6.0),
            color: Color::WHITE,
            layer: 0,
            depth: 0.0,
        }),
        collider: Some(ColliderDef {
            shape: Shape::Circle { radius: 3.0 },
            layer: 1,
            mask: 1,
            push: 0,
            trigger: false,
            stay: false,
            body: BodyKind::Dynamic,
            mass: 1.0,
            bounce: None,
            friction: 0.0,
        }),
        health: Some(HealthDef {
            max: 1_000_000,
            invulnerable_ticks: 0,
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
    GameDef {
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
    }
}

/// Rust consequences: every new contact damages both parties by one.
struct Bumps;

impl Consequences for Bumps {
    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        if stage == Stage::One {
            let n = g.events().collision_enter.len();
            for i in 0..n {
                let e = g.events().collision_enter[i];
                for target in [e.a.seq, e.b.seq] {
                    g.send(Command::Damage {
                        target,
                        amount: 1,
                        source: None,
                    })
                    .map_err(CommandError::into_fault)?;
                }
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy)]
struct Pos(Vec2);
#[derive(Clone, Copy)]
struct Vel(Vec2);

fn full_tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("full_tick");
    group.sample_size(20);
    for n in [1_000u32, 10_000, 100_000] {
        group.throughput(Throughput::Elements(u64::from(n)));
        let mut game = Game::with_entities(Arc::new(crowd(n)), Box::new(Bumps), n).unwrap();
        for _ in 0..5 {
            game.step(&TickInput::neutral()).unwrap();
        }
        group.bench_with_input(BenchmarkId::new("ludus", n), &n, |b, _| {
            b.iter(|| black_box(game.step(&TickInput::neutral()).unwrap()))
        });

        // Reference: raw hecs, the same integration over the same count.
        let mut world = hecs::World::new();
        let mut rng = fastrand::Rng::with_seed(1);
        world.spawn_batch((0..n).map(|_| {
            (
                Pos(Vec2::new(rng.f32() * 100.0, rng.f32() * 100.0)),
                Vel(Vec2::new(rng.f32() - 0.5, rng.f32() - 0.5) * 40.0),
            )
        }));
        let dt = 1.0 / 60.0;
        group.bench_with_input(BenchmarkId::new("raw_hecs_motion", n), &n, |b, _| {
            b.iter(|| {
                world
                    .query_mut::<(&mut Pos, &Vel)>()
                    .into_iter()
                    .for_each(|(p, v)| p.0 += v.0 * dt);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, full_tick);
criterion_main!(benches);
