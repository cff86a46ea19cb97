//! `ludus bench --render`: the CPU cost of presenting a frame at a ladder of sprite counts,
//! headless. Every sprite is textured from a sprite sheet, animated and spinning, so every
//! draw is interpolated, turned, given its animation frame and sorted. Measured apart:
//! extracting the world into a `RenderFrame`, and building the GPU instances and their draw
//! runs (what the renderer uploads). With `--window`, the same sprites are then drawn in a real
//! window through the app's renderer (`crate::app::bench`): the upload and the draw calls are
//! timed too, and the whole frame until the GPU has finished it.

use super::args::BenchArgs;
use super::scene::sprites_def;
use super::timing::median_of;
use crate::app::atlas::Atlas;
use crate::app::batch::Batch;
use ludus_core::*;
use std::fmt::Write as _;
use std::sync::Arc;

/// One rung: sprites and the median times in ms.
pub struct RenderRow {
    pub sprites: u32,
    pub extract_ms: f64,
    pub batch_ms: f64,
    pub total_ms: f64,
    pub calls: usize,
}

/// Measures one rung.
pub fn measure(n: u32, ticks: u32, warmup: u32) -> Result<RenderRow, Fault> {
    let def = Arc::new(sprites_def(n));
    let mut game = Game::with_entities(def.clone(), Box::new(NoConsequences), n)?;
    // Two ticks: every sprite has moved and turned, so each one interpolates.
    game.step(&TickInput::neutral())?;
    game.step(&TickInput::neutral())?;
    let atlas = Atlas::pack(&def.images, &[None]);
    let mut frame = RenderFrame::with_capacity(n as usize + 16);
    let mut batch = Batch::default();
    let mut calls = 0;
    let extract_ms = median_of(ticks, warmup, || {
        frame.extract(game.world(), &def, Interpolation::Alpha(0.5));
    });
    let batch_ms = median_of(ticks, warmup, || {
        batch.clear();
        batch.world(&frame.draws, &atlas);
        calls = batch.runs(1 << 16).count();
    });
    let total_ms = median_of(ticks, warmup, || {
        frame.extract(game.world(), &def, Interpolation::Alpha(0.5));
        batch.clear();
        batch.world(&frame.draws, &atlas);
        calls = batch.runs(1 << 16).count();
    });
    assert_eq!(batch.instances.len(), n as usize, "every sprite is drawn");
    Ok(RenderRow {
        sprites: n,
        extract_ms,
        batch_ms,
        total_ms,
        calls,
    })
}

/// Runs the ladder and prints the table; writes the CSV to `args.csv`.
pub fn main(args: &BenchArgs, ladder: &[u32]) -> i32 {
    let mut rows = Vec::new();
    for n in ladder {
        match measure(*n, args.ticks, args.warmup) {
            Ok(r) => rows.push(r),
            Err(f) => {
                eprintln!("\nludus: the sprites faulted at {n}: {f}");
                return 1;
            }
        }
    }
    let mut out =
        String::from("sprites    extract ms    batch ms    total ms    ns/sprite    draw calls\n");
    for r in &rows {
        let _ = writeln!(
            out,
            "{:>7}    {:>10.3}    {:>8.3}    {:>8.3}    {:>9.1}    {:>10}",
            r.sprites,
            r.extract_ms,
            r.batch_ms,
            r.total_ms,
            r.total_ms * 1e6 / f64::from(r.sprites.max(1)),
            r.calls
        );
    }
    print!("{out}");
    println!(
        "(CPU work of a frame: extract = interpolate, animate, turn and sort every sprite; \
         batch = GPU instances and draw runs; the GPU upload and draw are not included)"
    );
    let mut windowed = Vec::new();
    if args.window {
        match crate::app::bench::measure(sprites_def, ladder, args.ticks, args.warmup) {
            Ok(rows) => windowed = rows,
            Err(e) => {
                eprintln!("ludus: bench --window: {e}");
                return 1;
            }
        }
        println!("\nin a window (1280 x 720, every sprite in view):");
        println!("sprites    submit ms    frame ms    draw calls");
        for r in &windowed {
            println!(
                "{:>7}    {:>9.3}    {:>8.3}    {:>10}",
                r.sprites, r.submit_ms, r.frame_ms, r.calls
            );
        }
        println!(
            "(submit = extract, batch, upload and draw calls; frame = until the GPU has drawn \
             it, glFinish: with a software GL such as Xvfb's, the CPU draws the pixels)"
        );
    }
    let mut csv = String::from("sprites,extract_ms,batch_ms,total_ms,draw_calls");
    csv.push_str(if args.window {
        ",window_submit_ms,window_frame_ms\n"
    } else {
        "\n"
    });
    for (i, r) in rows.iter().enumerate() {
        let _ = write!(
            csv,
            "{},{:.4},{:.4},{:.4},{}",
            r.sprites, r.extract_ms, r.batch_ms, r.total_ms, r.calls
        );
        if let Some(w) = windowed.get(i) {
            let _ = write!(csv, ",{:.4},{:.4}", w.submit_ms, w.frame_ms);
        }
        csv.push('\n');
    }
    if let Err(e) = std::fs::write(&args.csv, csv) {
        eprintln!("ludus: cannot write {}: {e}", args.csv.display());
        return 1;
    }
    println!("wrote {}", args.csv.display());
    0
}
