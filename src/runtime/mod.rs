//! A game folder loaded and run, with or without a window: the project (`project.rs`), the
//! [`Runner`] the window and the page drive (`runner/`: play state, UI state, time travel),
//! headless runs (`headless.rs`, with `frames.rs` for scripted input and `work.rs` for what a
//! scripted frame may ask), tick-exact playback in the window (`playback.rs`), the per-tick
//! trace (`trace.rs`), the profiler's tables and trace events (`profiling.rs`), recordings (`recorder.rs`, `history.rs`, `verify.rs`, `rerun.rs`;
//! `builds.rs`: the bound on what they build), saved data between runs (`saved.rs`), touch
//! screens and their on-screen controls (`touch.rs`), game bundles (`bundle.rs`,
//! `bundled.rs`), the entity inspector's records (`inspect/`), the page's test API
//! (`page.rs`) and gamepads as keys (`pads.rs`).

pub(crate) mod bench;
pub(crate) mod builds;
pub(crate) mod bundle;
pub(crate) mod bundled;
pub(crate) mod frames;
#[cfg(test)]
mod frames_tests;
#[cfg(test)]
mod fuzz;
pub(crate) mod headless;
pub(crate) mod history;
pub(crate) mod inspect;
// The page's test API: the browser build exports it, the desktop build only tests it.
pub(crate) mod pads;
#[cfg(test)]
mod pads_tests;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) mod page;
pub(crate) mod particles;
pub(crate) mod playback;
pub(crate) mod profiling;
pub(crate) mod project;
pub(crate) mod recorder;
pub(crate) mod rerun;
#[cfg(test)]
mod rerun_tests;
mod runner;
pub(crate) mod saved;
pub(crate) mod strict_json;
pub(crate) mod touch;
pub(crate) mod trace;
pub(crate) mod verify;
pub(crate) mod work;

pub use runner::{PlayState, Reload, Runner, SoundCue, Stop, UiAction, ui_action};
