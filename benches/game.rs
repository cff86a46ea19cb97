//! The example game's full tick, headless, at 1k, 10k, 100k and 250k entities (its stress
//! drones plus the level), with the Lua scripts and with the same rules in Rust
//! (swarm_rules.rs), so the cost of scripting is visible. The player holds fire and circles.

#[path = "swarm_rules.rs"]
mod swarm_rules;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ludus_core::*;
use ludus_script::{Script, ScriptHost};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

fn input(tick: u64, def: &GameDef) -> TickInput {
    let fire = def.actions.find("fire").unwrap();
    let mx = def.actions.find("move_x").unwrap();
    let mut i = TickInput::neutral();
    i.set_held(fire, true);
    i.set_pressed(fire, tick == 1);
    i.set_axis(
        mx,
        if (tick / 120).is_multiple_of(2) {
            1.0
        } else {
            -1.0
        },
    );
    i
}

fn full_tick(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm");
    let loaded = ludus_content::load_dir(&dir).expect("the example loads");
    let def = Arc::new(loaded.def);
    let scripts: Vec<Script> = loaded
        .scripts
        .into_iter()
        .map(|(path, text)| Script { path, text })
        .collect();
    let mut group = c.benchmark_group("swarm_full_tick");
    group.sample_size(10);
    for n in [1_000u32, 10_000, 100_000, 250_000] {
        group.throughput(Throughput::Elements(u64::from(n)));
        for lua in [true, false] {
            let name = if lua { "lua" } else { "rust" };
            // Every sample starts from a fresh game after 30 ticks, so the measured ticks see
            // the same phase of play whatever the sample size.
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter_custom(|iters| {
                    let consequences: Box<dyn Consequences> = if lua {
                        Box::new(ScriptHost::new(def.clone(), scripts.clone(), None).unwrap())
                    } else {
                        Box::new(swarm_rules::SwarmRules::new(&def))
                    };
                    let mut game = Game::with_entities(def.clone(), consequences, n).unwrap();
                    for tick in 1..=30 {
                        game.step(&input(tick, &def)).unwrap();
                    }
                    let start = Instant::now();
                    for k in 0..iters {
                        black_box(game.step(&input(31 + k, &def)).unwrap());
                    }
                    start.elapsed()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, full_tick);
criterion_main!(benches);
