//! The browser entry point: the page's game in a canvas, driven by miniquad's JS loader
//! (`gl.js`) and our plugin (`web/ludus.js`), and the page's test API (`api`).
//!
//! The game is the bundle the page handed over before `main` (`ludus export web`: one module
//! runs every game), or else the one compiled in (`web/build.sh`, see build.rs). There are no
//! threads (background work runs on the serial executor), no file system and no unwinding: a
//! panic aborts the module, so nothing here panics on bad content. A game that cannot start,
//! or a damaged bundle, shows why on the page; a script fault while playing is the fault
//! screen, as on desktop.

use crate::app::{App, RunOptions};
use crate::platform::{clock_ns, error, log};
use crate::runtime::Runner;
use crate::runtime::bundle::Bundle;
use crate::runtime::project::Project;
use std::cell::RefCell;
use std::sync::Mutex;

pub(crate) mod api;

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn ludus_show_error(msg: *const u8, len: usize);
    fn ludus_set_title(title: *const u8, len: usize);
}

/// Shows a message over the canvas (a game that could not start).
fn show_error(text: &str) {
    error(text);
    // SAFETY: ludus.js copies `len` bytes from `msg` out of wasm memory before returning.
    unsafe { ludus_show_error(text.as_ptr(), text.len()) }
}

/// The bundle the page handed over, if any.
static BUNDLE: Mutex<Option<Vec<u8>>> = Mutex::new(None);

fn set_bundle(bytes: Vec<u8>) {
    if let Ok(mut b) = BUNDLE.lock() {
        *b = Some(bytes);
    }
    LOADED.with(|l| *l.borrow_mut() = None);
}

thread_local! {
    /// The page's game as loaded from the bundle (or the game compiled in), once: loading it
    /// (decoding the bundle, reading the content, the sounds' headers) took longer than a
    /// short run, and `ludus.sim`, `ludus.bench` and `ludus.replay` each ask for it. A
    /// project is the game's content only, shared by every run made from it.
    static LOADED: RefCell<Option<Result<Project, String>>> = const { RefCell::new(None) };
}

/// The page's game: the bundle handed over, else the one compiled in; the error is what the
/// page shows.
pub(crate) fn project() -> Result<Project, String> {
    LOADED.with(|l| l.borrow_mut().get_or_insert_with(load).clone())
}

/// [`project`], read anew.
fn load() -> Result<Project, String> {
    let bundle = BUNDLE.lock().ok().and_then(|b| b.clone());
    match bundle {
        Some(bytes) => Bundle::decode(&bytes)
            .and_then(Project::from_bundle)
            .map_err(|e| format!("The game could not be loaded:\n{e}")),
        None => crate::runtime::bundled::project()
            .map_err(|diagnostics| format!("The game's content is invalid:\n{diagnostics}")),
    }
}

pub fn main() {
    let project = match project() {
        Ok(p) => p,
        Err(e) => {
            show_error(&e);
            return;
        }
    };
    let label = project.label.clone();
    let mut runner = match Runner::new(project, 0, clock_ns) {
        Ok(r) => r,
        Err(fault) => {
            show_error(&format!("{label} could not start:\n{fault}"));
            return;
        }
    };
    if let Ok(place) = crate::platform::SavePlace::of_game(&runner.def().name) {
        runner.keep_saved(place);
    }
    let def = runner.def().clone();
    // SAFETY: ludus.js copies `len` bytes from the pointer before returning.
    unsafe { ludus_set_title(def.window.title.as_ptr(), def.window.title.len()) };
    let conf = miniquad::conf::Conf {
        window_title: def.window.title.clone(),
        window_width: def.window.width as i32,
        window_height: def.window.height as i32,
        high_dpi: true,
        ..Default::default()
    };
    miniquad::start(conf, move || {
        Box::new(App::new(runner, RunOptions::default()))
    });
    // miniquad installed a hook that logs panics as plain messages; make them errors, so a
    // page (and its test) cannot miss one. The module is dead after a panic either way.
    std::panic::set_hook(Box::new(|info| {
        error(&format!("ludus: internal error: {info}"))
    }));
    log(&format!("ludus {}: {label}", env!("CARGO_PKG_VERSION")));
}
