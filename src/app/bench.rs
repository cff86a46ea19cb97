//! `ludus bench --render --window`: the same sprites as the headless render bench, drawn in a
//! real window (under Xvfb on a machine without a display) through the app's renderer, so the
//! upload and the draw calls are measured too.

use crate::app::renderer::Renderer;
use crate::app::ui::Ui;
use crate::platform::clock_ns;
use crate::runtime::particles::Particles;
use ludus_core::{Game, GameDef, Interpolation, NoConsequences, RenderFrame, TickInput};
use miniquad::*;
use std::sync::{Arc, Mutex};

/// One rung measured in the window: medians in ms.
#[derive(Clone, Debug, Default)]
pub struct WindowRow {
    pub sprites: u32,
    /// Extract, batch, upload and draw calls issued (the CPU's part of a frame).
    pub submit_ms: f64,
    /// The whole frame until the GPU finished drawing it (`glFinish`).
    pub frame_ms: f64,
    pub calls: usize,
}

/// A rung being measured.
struct Rung {
    def: Arc<GameDef>,
    game: Game,
    frame: RenderFrame,
    submit: Vec<f64>,
    total: Vec<f64>,
}

struct Bench {
    ctx: Box<dyn RenderingBackend>,
    renderer: Renderer,
    ladder: Vec<u32>,
    frames: u32,
    warmup: u32,
    rung: Option<Rung>,
    /// The game of `n` sprites.
    scene: fn(u32) -> GameDef,
    out: Arc<Mutex<Result<Vec<WindowRow>, String>>>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

impl Bench {
    fn start(&mut self) -> Result<bool, String> {
        let Some(&n) = self.ladder.first() else {
            return Ok(false);
        };
        let def = Arc::new((self.scene)(n));
        let mut game = Game::with_entities(def.clone(), Box::new(NoConsequences), n)
            .map_err(|f| f.to_string())?;
        for _ in 0..2 {
            game.step(&TickInput::neutral())
                .map_err(|f| f.to_string())?;
        }
        self.rung = Some(Rung {
            def,
            game,
            frame: RenderFrame::with_capacity(n as usize + 16),
            submit: Vec::new(),
            total: Vec::new(),
        });
        Ok(true)
    }
}

impl EventHandler for Bench {
    fn update(&mut self) {}

    fn draw(&mut self) {
        if self.rung.is_none() {
            match self.start() {
                Ok(true) => {}
                Ok(false) => {
                    window::order_quit();
                    return;
                }
                Err(e) => {
                    *self.out.lock().unwrap_or_else(|p| p.into_inner()) = Err(e);
                    window::order_quit();
                    return;
                }
            }
        }
        let Some(rung) = self.rung.as_mut() else {
            return;
        };
        let t0 = clock_ns();
        let ui = Ui::default();
        rung.frame
            .extract(rung.game.world(), &rung.def, Interpolation::Alpha(0.5));
        self.renderer
            .draw(self.ctx.as_mut(), &rung.frame, &Particles::default(), &ui);
        let t1 = clock_ns();
        self.ctx.commit_frame();
        // SAFETY: the GL context is current on this thread while miniquad calls `draw`.
        unsafe { miniquad::gl::glFinish() };
        let t2 = clock_ns();
        rung.submit.push((t1 - t0) as f64 / 1e6);
        rung.total.push((t2 - t0) as f64 / 1e6);
        if rung.submit.len() as u32 >= self.warmup + self.frames {
            let w = self.warmup as usize;
            let row = WindowRow {
                sprites: self.ladder[0],
                submit_ms: median(&mut rung.submit[w..]),
                frame_ms: median(&mut rung.total[w..]),
                calls: self.renderer.calls,
            };
            if let Ok(rows) = self.out.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
                rows.push(row);
            }
            self.ladder.remove(0);
            self.rung = None;
        }
    }
}

/// Measures `scene(n)` for every `n` of `ladder` over `frames` frames after `warmup` in a
/// 1280 x 720 window.
pub fn measure(
    scene: fn(u32) -> GameDef,
    ladder: &[u32],
    frames: u32,
    warmup: u32,
) -> Result<Vec<WindowRow>, String> {
    let out = Arc::new(Mutex::new(Ok(Vec::new())));
    let conf = miniquad::conf::Conf {
        window_title: "ludus bench --render --window".into(),
        window_width: 1280,
        window_height: 720,
        ..Default::default()
    };
    let (ladder, result) = (ladder.to_vec(), out.clone());
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        miniquad::start(conf, move || {
            let mut ctx = window::new_rendering_backend();
            let def = scene(0);
            let renderer = Renderer::new(ctx.as_mut(), &def, &[None], &[], window::dpi_scale());
            Box::new(Bench {
                ctx,
                renderer,
                ladder,
                frames: frames.max(1),
                warmup,
                rung: None,
                scene,
                out: result,
            })
        });
    }));
    if started.is_err() {
        return Err("the window could not be opened (see the error above)".into());
    }
    std::mem::replace(
        &mut *out.lock().unwrap_or_else(|p| p.into_inner()),
        Ok(Vec::new()),
    )
}
