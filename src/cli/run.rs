//! `ludus run`: play a game in a window.

use crate::app::{App, RunOptions};
use crate::cli::common::{clock, load};
use crate::runtime::Runner;
use std::path::PathBuf;

fn display_available() -> Result<(), String> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(
            "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); \
                    to run a game headless use `ludus sim GAME_DIR`"
                .into(),
        );
    }
    Ok(())
}

pub fn run(dir: Option<PathBuf>, entities: u32, options: RunOptions) -> i32 {
    let project = match load(dir.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(msg) = display_available() {
        eprintln!("ludus: {msg}");
        return 1;
    }
    let _editor =
        crate::cli::editor::keep_fresh(dir.as_deref(), &project.def, options.watch.is_some());
    let mut runner = match Runner::new(project, entities, clock) {
        Ok(r) => r,
        Err(fault) => {
            eprintln!("ludus: the game could not start: {fault}");
            return 1;
        }
    };
    runner.set_stress(entities);
    match crate::platform::SavePlace::of_game(&runner.def().name) {
        Ok(place) => runner.keep_saved(place),
        Err(e) => eprintln!("ludus: the saved data is not kept: {e}"),
    }
    let def = runner.def().clone();
    let conf = miniquad::conf::Conf {
        // A control character (a line break, a NUL written as `\u0000`) has no place in a
        // title bar, and the window system refuses a NUL.
        window_title: def
            .window
            .title
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect(),
        window_width: def.window.width as i32,
        window_height: def.window.height as i32,
        high_dpi: true,
        window_resizable: true,
        ..Default::default()
    };
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        miniquad::start(conf, move || Box::new(App::new(runner, options)));
    }));
    match started {
        Ok(()) => 0,
        Err(_) if crate::app::opened() => {
            eprintln!("ludus: the app stopped on an internal error (see above): a bug in ludus");
            1
        }
        Err(_) => {
            eprintln!(
                "ludus: the window could not be opened (see the error above); use `ludus sim` to run headless"
            );
            1
        }
    }
}
