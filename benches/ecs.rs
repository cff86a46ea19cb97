//! ECS primitives of the framework, each next to raw hecs doing the same thing in the same
//! group, and RenderFrame extraction.
//!
//! - insert: 10k entities with four components (a level build vs `World::spawn`);
//! - iterate: position += velocity over 10k (the Motion step vs a hecs query);
//! - fragmented: the same over 26 archetypes of 20 entities;
//! - add_remove: add and remove a component on 10k (script state commands vs insert/remove);
//! - spawn_destroy: 10k spawned and destroyed through Commit vs spawn/despawn;
//! - iterate_1m: 1M entities with element throughput, next to a plain struct-of-arrays loop;
//! - extract: RenderFrame extraction with interpolation at 10k and 100k;
//! - join: a pass of 8,192 rows split between two threads by `par::join` vs the same rows
//!   on one thread, in halves small enough that the join's own cost shows.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ludus_core::*;
use std::hint::black_box;
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

/// One archetype: identity, transform, velocity, speed (the four components of every entity).
fn plain_def(extra_archetypes: usize) -> GameDef {
    let mut archetypes = vec![ArchetypeDef {
        name: "mover".into(),
        velocity: Vec2::new(3.0, -2.0),
        ..ArchetypeDef::default()
    }];
    // Further archetypes differ in optional components, so each is its own hecs archetype.
    for i in 0..extra_archetypes {
        let bit = |b: usize| i & (1 << b) != 0;
        archetypes.push(ArchetypeDef {
            name: format!("kind{i}"),
            velocity: Vec2::new(1.0, 1.0),
            tags: if bit(0) { 1 } else { 0 },
            health: bit(1).then_some(HealthDef {
                max: 3,
                invulnerable_ticks: 0,
            }),
            sprite: bit(2).then(|| SpriteDef {
                shape: SpriteShape::Rect,
                size: Vec2::new(4.0, 4.0),
                color: Color::WHITE,
                layer: 0,
                depth: 0.0,
                frame: 0,
                flip_x: false,
                flip_y: false,
                alpha: 1.0,
            }),
            cooldowns: if bit(3) {
                vec![CooldownDef {
                    name: "c".into(),
                    ticks: 5,
                }]
            } else {
                Vec::new()
            },
            lifetime: bit(4).then_some(1_000_000),
            bounds: if i >= 16 {
                BoundsPolicy::Confine
            } else {
                BoundsPolicy::Ignore
            },
            camera_target: i >= 24,
            ..ArchetypeDef::default()
        });
    }
    GameDef {
        tags: vec!["t".into()],
        archetypes,
        levels: vec![LevelDef {
            bounds: Rect::centered(Vec2::new(1e6, 1e6)),
            ..LevelDef::default()
        }],
        stress: Some(StressDef {
            archetype: ArchetypeId(0),
            area: Some(Rect::centered(Vec2::new(1000.0, 1000.0))),
        }),
        ..GameDef::default()
    }
}

#[derive(Clone, Copy)]
struct Pos(Vec2);
#[derive(Clone, Copy)]
struct Prev(#[allow(dead_code)] Vec2);
#[derive(Clone, Copy)]
struct Vel(Vec2);
#[derive(Clone, Copy)]
struct Spd(#[allow(dead_code)] f32);
#[derive(Clone, Copy)]
struct Tag(#[allow(dead_code)] u64);

fn raw_world(n: u32) -> hecs::World {
    let mut w = hecs::World::new();
    for i in 0..n {
        let p = Vec2::new(i as f32, 0.0);
        w.spawn((Pos(p), Vel(Vec2::new(3.0, -2.0)), Spd(1.0), Tag(i as u64)));
    }
    w
}

fn insert(c: &mut Criterion) {
    let mut g = c.benchmark_group("insert_10k_four_components");
    let def = plain_def(0);
    g.bench_function("ludus_level_build", |b| {
        b.iter(|| {
            black_box(
                SimWorld::build(&def, 0, WorldId(1), 10_000)
                    .unwrap()
                    .entity_count(),
            )
        })
    });
    g.bench_function("raw_hecs_spawn", |b| {
        b.iter(|| black_box(raw_world(10_000).len()))
    });
    g.finish();
}

fn iterate(c: &mut Criterion) {
    let mut g = c.benchmark_group("iterate_10k");
    g.throughput(Throughput::Elements(10_000));
    let def = plain_def(0);
    let mut world = SimWorld::build(&def, 0, WorldId(1), 10_000).unwrap();
    g.bench_function("ludus_integrate", |b| {
        b.iter(|| integrate(black_box(&mut world), DT))
    });
    let mut raw = raw_world(10_000);
    g.bench_function("raw_hecs", |b| {
        b.iter(|| {
            raw.query_mut::<(&mut Pos, &Vel)>()
                .into_iter()
                .for_each(|(p, v)| {
                    let next = p.0 + v.0 * DT;
                    p.0 = if next.is_finite() { next } else { p.0 };
                })
        })
    });
    g.finish();
}

fn fragmented(c: &mut Criterion) {
    let mut g = c.benchmark_group("fragmented_26x20");
    let mut def = plain_def(26);
    for a in 1..=26u16 {
        for k in 0..20 {
            def.levels[0].placements.push(Placement {
                archetype: ArchetypeId(a),
                pos: Vec2::new(k as f32, a as f32),
                overrides: Overrides::default(),
            });
        }
    }
    let mut world = SimWorld::build(&def, 0, WorldId(1), 0).unwrap();
    assert_eq!(world.entity_count(), 520);
    g.bench_function("ludus_integrate", |b| {
        b.iter(|| integrate(black_box(&mut world), DT))
    });
    // Raw: 26 component types, each entity has Pos, Vel and one of them.
    macro_rules! kinds {
        ($($name:ident),*) => {
            $( #[derive(Clone, Copy)] struct $name(#[allow(dead_code)] f32); )*
            fn raw_fragmented() -> hecs::World {
                let mut w = hecs::World::new();
                for i in 0..20 {
                    $( w.spawn((Pos(Vec2::new(i as f32, 0.0)), Vel(Vec2::new(1.0, 1.0)), $name(0.0))); )*
                }
                w
            }
        };
    }
    kinds!(
        A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z
    );
    let mut raw = raw_fragmented();
    g.bench_function("raw_hecs", |b| {
        b.iter(|| {
            raw.query_mut::<(&mut Pos, &Vel)>()
                .into_iter()
                .for_each(|(p, v)| {
                    let next = p.0 + v.0 * DT;
                    p.0 = if next.is_finite() { next } else { p.0 };
                })
        })
    });
    g.finish();
}

/// What the churn consequences do on alternating ticks.
#[derive(Clone, Copy, PartialEq)]
enum Churn {
    /// Odd ticks: set a script state value on every level entity; even ticks: clear it.
    AddRemove(u64),
    /// Odd ticks: spawn n entities; even ticks: destroy the ones spawned (their spawn events).
    SpawnDestroy(u64),
}

impl Consequences for Churn {
    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        if stage != Stage::One {
            return Ok(());
        }
        let odd = g.tick() % 2 == 1;
        let send = |g: &mut Gameplay<'_>, c: Command| {
            g.send(c).map(drop).map_err(CommandError::into_fault)
        };
        match *self {
            Churn::AddRemove(n) if odd => (1..=n).try_for_each(|s| {
                send(
                    g,
                    Command::SetState {
                        target: s,
                        key: "k".into(),
                        value: 1.0,
                    },
                )
            }),
            Churn::AddRemove(n) => (1..=n).try_for_each(|s| send(g, Command::ClearState(s))),
            Churn::SpawnDestroy(n) if odd => (0..n).try_for_each(|_| {
                send(
                    g,
                    Command::Spawn {
                        archetype: ArchetypeId(0),
                        pos: Vec2::ZERO,
                        overrides: Default::default(),
                    },
                )
            }),
            Churn::SpawnDestroy(_) => {
                let spawned: Vec<u64> = g
                    .events()
                    .spawned
                    .iter()
                    .filter(|e| e.tick > 0)
                    .map(|e| e.entity.seq)
                    .collect();
                spawned
                    .into_iter()
                    .try_for_each(|s| send(g, Command::Destroy(s)))
            }
        }
    }
}

fn churn(c: &mut Criterion) {
    let n = 10_000u32;
    let def = Arc::new(plain_def(0));
    let mut g = c.benchmark_group("add_remove_10k");
    let mut game =
        Game::with_entities(def.clone(), Box::new(Churn::AddRemove(n as u64)), n).unwrap();
    g.bench_function("ludus_state_commands", |b| {
        b.iter(|| {
            game.step(&TickInput::neutral()).unwrap();
            game.step(&TickInput::neutral()).unwrap();
        })
    });
    let mut raw = raw_world(n);
    let entities: Vec<hecs::Entity> = raw.iter().map(|e| e.entity()).collect();
    g.bench_function("raw_hecs_insert_remove", |b| {
        b.iter(|| {
            for e in &entities {
                raw.insert_one(*e, ScriptState::default()).unwrap();
            }
            for e in &entities {
                raw.remove_one::<ScriptState>(*e).unwrap();
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("spawn_destroy_10k");
    let mut game =
        Game::with_entities(def.clone(), Box::new(Churn::SpawnDestroy(n as u64)), 0).unwrap();
    g.bench_function("ludus_commit", |b| {
        b.iter(|| {
            game.step(&TickInput::neutral()).unwrap();
            game.step(&TickInput::neutral()).unwrap();
        })
    });
    assert_eq!(
        game.world().entity_count(),
        0,
        "everything spawned was destroyed"
    );
    let mut raw = hecs::World::new();
    g.bench_function("raw_hecs_spawn_despawn", |b| {
        b.iter(|| {
            let mut cmd = hecs::CommandBuffer::new();
            for i in 0..n {
                cmd.spawn((
                    Pos(Vec2::new(i as f32, 0.0)),
                    Prev(Vec2::ZERO),
                    Vel(Vec2::ZERO),
                    Spd(1.0),
                ));
            }
            cmd.run_on(&mut raw);
            let spawned: Vec<hecs::Entity> = raw
                .query::<(hecs::Entity, &Prev)>()
                .iter()
                .map(|(e, _)| e)
                .collect();
            let mut cmd = hecs::CommandBuffer::new();
            for e in spawned {
                cmd.despawn(e);
            }
            cmd.run_on(&mut raw);
        })
    });
    g.finish();
}

fn iterate_1m(c: &mut Criterion) {
    let n = 1_000_000u32;
    let mut g = c.benchmark_group("iterate_1m");
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(20);
    let mut def = plain_def(0);
    def.limits.max_entities = n + 10;
    let mut world = SimWorld::build(&def, 0, WorldId(1), n).unwrap();
    g.bench_function("ludus_integrate", |b| {
        b.iter(|| integrate(black_box(&mut world), DT))
    });
    let mut raw = hecs::World::new();
    raw.spawn_batch((0..n).map(|i| (Pos(Vec2::new(i as f32, 0.0)), Vel(Vec2::new(3.0, -2.0)))));
    g.bench_function("raw_hecs", |b| {
        b.iter(|| {
            raw.query_mut::<(&mut Pos, &Vel)>()
                .into_iter()
                .for_each(|(p, v)| {
                    let next = p.0 + v.0 * DT;
                    p.0 = if next.is_finite() { next } else { p.0 };
                })
        })
    });
    let (mut xs, mut ys) = (
        (0..n).map(|i| i as f32).collect::<Vec<_>>(),
        vec![0.0f32; n as usize],
    );
    let (vxs, vys) = (vec![3.0f32; n as usize], vec![-2.0f32; n as usize]);
    g.bench_function("vec_soa", |b| {
        b.iter(|| {
            for i in 0..xs.len() {
                xs[i] += vxs[i] * DT;
                ys[i] += vys[i] * DT;
            }
            black_box(&xs);
        })
    });
    g.finish();
}

fn extract(c: &mut Criterion) {
    let mut g = c.benchmark_group("render_extract");
    for n in [10_000u32, 100_000] {
        let mut def = plain_def(0);
        def.archetypes[0].sprite = Some(SpriteDef {
            shape: SpriteShape::Circle,
            size: Vec2::new(6.0, 6.0),
            color: Color::WHITE,
            layer: 1,
            depth: 0.0,
            frame: 0,
            flip_x: false,
            flip_y: false,
            alpha: 1.0,
        });
        let mut world = SimWorld::build(&def, 0, WorldId(1), n).unwrap();
        integrate(&mut world, DT);
        let mut frame = RenderFrame::with_capacity(n as usize);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("interpolated", n), &n, |b, _| {
            b.iter(|| {
                frame.extract(&world, &def, Interpolation::Alpha(0.5));
                black_box(frame.draws.len())
            })
        });
    }
    g.finish();
}

/// The two-thread split's own cost: summing 8,192 rows (a few microseconds) in two halves, one
/// on the worker, against the same sum on this thread. Where the machine has one core both
/// halves run here.
fn join(c: &mut Criterion) {
    let rows: Vec<f32> = (0..8_192).map(|i| (i % 97) as f32).collect();
    let sum = |r: &[f32]| r.iter().map(|&x| x * x + 1.0).sum::<f32>();
    let mut g = c.benchmark_group("join");
    g.throughput(Throughput::Elements(rows.len() as u64));
    g.bench_function("two_threads", |b| {
        b.iter(|| {
            let (lo, hi) = black_box(&rows[..]).split_at(rows.len() / 2);
            let (a, b) = par::join(|| sum(lo), || sum(hi));
            a + b
        })
    });
    g.bench_function("one_thread", |b| {
        b.iter(|| {
            let (lo, hi) = black_box(&rows[..]).split_at(rows.len() / 2);
            sum(lo) + sum(hi)
        })
    });
    g.finish();
}

criterion_group!(
    benches, insert, iterate, fragmented, churn, iterate_1m, extract, join
);
criterion_main!(benches);
