//! The full tick with Rust consequences, next to the same work written by hand
//! (`ludus_core::reference`) and to a raw hecs loop of bare motion, in the same run:
//!
//! - `crowd`: wandering circles that report contacts with each other, every new contact
//!   damaging both parties (they do not push);
//! - `pushing_crowd`: the same circles pushing each other apart;
//! - `drones`: the swarm example's stress drones chasing a player that holds still.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ludus_core::reference::{Bumps, Crowd, Drones, crowd_def, drones_def};
use ludus_core::*;
use std::hint::black_box;
use std::sync::Arc;

#[derive(Clone, Copy)]
struct Pos(Vec2);
#[derive(Clone, Copy)]
struct Vel(Vec2);

/// What one group measures at a count: a game, and its reference from the same start.
enum Work {
    Crowd(bool),
    Drones,
}

fn setup(work: &Work, n: u32) -> (Game, Box<dyn FnMut()>) {
    match work {
        Work::Crowd(push) => {
            let def = Arc::new(crowd_def(n, *push));
            let game = Game::with_entities(def, Box::new(Bumps), n).unwrap();
            let mut r = Crowd::from_world(game.world(), game.def());
            (
                game,
                Box::new(move || {
                    black_box(r.step());
                }),
            )
        }
        Work::Drones => {
            let def = Arc::new(drones_def());
            let game = Game::with_entities(def, Box::new(NoConsequences), n).unwrap();
            let mut r = Drones::from_world(game.world(), game.def());
            (
                game,
                Box::new(move || {
                    black_box(r.step());
                }),
            )
        }
    }
}

fn group(c: &mut Criterion, name: &str, work: Work, counts: &[u32]) {
    let mut group = c.benchmark_group(name);
    group.sample_size(20);
    for &n in counts {
        group.throughput(Throughput::Elements(u64::from(n)));
        let (mut game, mut by_hand) = setup(&work, n);
        group.bench_with_input(BenchmarkId::new("ludus", n), &n, |b, _| {
            b.iter(|| black_box(game.step(&TickInput::neutral()).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("by_hand", n), &n, |b, _| {
            b.iter(&mut by_hand)
        });

        // The floor: raw hecs, bare integration over the same count.
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

fn full_tick(c: &mut Criterion) {
    group(c, "crowd", Work::Crowd(false), &[1_000, 10_000, 100_000]);
    group(
        c,
        "pushing_crowd",
        Work::Crowd(true),
        &[1_000, 10_000, 100_000],
    );
    group(c, "drones", Work::Drones, &[16_000, 64_000, 256_000]);
}

criterion_group!(benches, full_tick);
criterion_main!(benches);
