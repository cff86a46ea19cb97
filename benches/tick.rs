//! The full tick with Rust consequences, next to the same work written by hand
//! (`ludus_core::reference`) and to a raw hecs loop of bare motion, in the same run:
//!
//! - `crowd`: wandering circles that report contacts with each other, every new contact
//!   damaging both parties (they do not push);
//! - `pushing_crowd`: the same circles pushing each other apart;
//! - `drones`: the swarm example's stress drones chasing a player that holds still.
//!
//! Each is measured over the same ticks of fresh worlds (see [`EPISODE`]).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ludus_core::reference::{Bumps, Crowd, Drones, crowd_def, drones_def};
use ludus_core::*;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
struct Pos(Vec2);
#[derive(Clone, Copy)]
struct Vel(Vec2);

/// What one group measures at a count: a game, and its reference from the same start.
#[derive(Clone, Copy)]
enum Work {
    Crowd(bool),
    Drones,
}

/// Ticks of an episode: each subject is measured over ticks `WARM_UP..EPISODE` of worlds built
/// afresh (as `ludus bench` measures 120 ticks after 20), so both sides see the same states
/// however many iterations the harness asks for (drones pile up on the player as a run goes on).
const WARM_UP: u32 = 20;
const EPISODE: u32 = 140;

/// One tick of a fresh subject at count `n`: the game (`by_hand` false) or its reference.
fn subject(work: Work, n: u32, by_hand: bool) -> Box<dyn FnMut()> {
    let mut game = match work {
        Work::Crowd(push) => {
            Game::with_entities(Arc::new(crowd_def(n, push)), Box::new(Bumps), n).unwrap()
        }
        Work::Drones => {
            Game::with_entities(Arc::new(drones_def()), Box::new(NoConsequences), n).unwrap()
        }
    };
    match (work, by_hand) {
        (_, false) => Box::new(move || {
            black_box(game.step(&TickInput::neutral()).unwrap());
        }),
        (Work::Crowd(_), true) => {
            let mut r = Crowd::from_world(game.world(), game.def());
            Box::new(move || {
                black_box(r.step());
            })
        }
        (Work::Drones, true) => {
            let mut r = Drones::from_world(game.world(), game.def());
            Box::new(move || {
                black_box(r.step());
            })
        }
    }
}

/// Times `iters` ticks taken from episodes of fresh subjects (building and warming up one is
/// not timed).
fn episodes(make: impl Fn() -> Box<dyn FnMut()>) -> impl FnMut(u64) -> Duration {
    let mut current: Option<(Box<dyn FnMut()>, u32)> = None;
    move |iters| {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let (tick, done) = match &mut current {
                Some((tick, done)) if *done < EPISODE => (tick, done),
                slot => {
                    let mut tick = make();
                    (0..WARM_UP).for_each(|_| tick());
                    let (tick, done) = slot.insert((tick, WARM_UP));
                    (tick, done)
                }
            };
            let start = Instant::now();
            tick();
            total += start.elapsed();
            *done += 1;
        }
        total
    }
}

fn group(c: &mut Criterion, name: &str, work: Work, counts: &[u32]) {
    let mut group = c.benchmark_group(name);
    group.sample_size(20);
    for &n in counts {
        group.throughput(Throughput::Elements(u64::from(n)));
        let mut ludus = episodes(|| subject(work, n, false));
        group.bench_with_input(BenchmarkId::new("ludus", n), &n, |b, _| {
            b.iter_custom(&mut ludus)
        });
        let mut by_hand = episodes(|| subject(work, n, true));
        group.bench_with_input(BenchmarkId::new("by_hand", n), &n, |b, _| {
            b.iter_custom(&mut by_hand)
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
