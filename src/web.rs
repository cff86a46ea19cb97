//! The browser entry point: the embedded game in a canvas, driven by miniquad's JS loader.
//!
//! There are no threads (background work runs on the serial executor) and no file system:
//! the game's files are compiled in (see build.rs). A script fault shows the fault screen like
//! on desktop; nothing here panics on bad content, it reports on the page's console.

use crate::app::{App, RunOptions};
use crate::runner::Runner;

fn clock() -> u64 {
    (miniquad::date::now() * 1e9) as u64
}

pub fn main() {
    let project = match crate::bundled::project() {
        Ok(p) => p,
        Err(diagnostics) => {
            miniquad::error!("ludus: the game's content is invalid:\n{}", diagnostics);
            return;
        }
    };
    let runner = match Runner::new(project, 0, clock) {
        Ok(r) => r,
        Err(fault) => {
            miniquad::error!("ludus: the game could not start: {}", fault);
            return;
        }
    };
    let images = runner.project.images();
    let def = runner.def().clone();
    let conf = miniquad::conf::Conf {
        window_title: def.window.title.clone(),
        window_width: def.window.width as i32,
        window_height: def.window.height as i32,
        high_dpi: true,
        ..Default::default()
    };
    miniquad::start(conf, move || {
        Box::new(App::new(runner, &images, RunOptions::default()))
    });
}
