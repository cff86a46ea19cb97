//! A frame's presentation work on the CPU, headless: extracting the world into a
//! `RenderFrame` (interpolated, animated, turned, sorted) and building the GPU instances and
//! their draw runs, for 10k and 100k animated, spinning, textured sprites. The same code the
//! app runs (`src/app`), included by path.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ludus_core::*;
use std::sync::Arc;

// `batch` finds `atlas` as its sibling (`super::atlas`), here as in the app.
#[allow(dead_code)]
#[path = "../src/app/atlas.rs"]
mod atlas;
#[allow(dead_code)]
#[path = "../src/app/batch.rs"]
mod batch;
#[path = "../src/cli/bench/scene.rs"]
mod scene;

use atlas::Atlas;
use batch::Batch;

fn render(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    group.sample_size(20);
    for n in [10_000u32, 100_000] {
        let def = Arc::new(scene::sprites_def(n));
        let mut game = Game::with_entities(def.clone(), Box::new(NoConsequences), n).unwrap();
        game.step(&TickInput::neutral()).unwrap();
        game.step(&TickInput::neutral()).unwrap();
        let atlas = Atlas::pack(&def.images, &[None]);
        let mut frame = RenderFrame::with_capacity(n as usize + 16);
        let mut batch = Batch::default();
        group.bench_with_input(BenchmarkId::new("extract", n), &n, |b, _| {
            b.iter(|| frame.extract(game.world(), &def, Interpolation::Alpha(0.5)))
        });
        group.bench_with_input(BenchmarkId::new("extract_and_batch", n), &n, |b, _| {
            b.iter(|| {
                frame.extract(game.world(), &def, Interpolation::Alpha(0.5));
                batch.clear();
                batch.world(&frame.draws, &atlas);
                batch.runs(1 << 16).count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
