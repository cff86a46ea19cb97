//! `ludus`: play, check, simulate, replay and benchmark games made of TOML and Lua.
//!
//! - `runtime/`: a game folder loaded and run, with or without a window (the [`Runner`] the
//!   window drives, the headless game `ludus sim` and the browser test API drive).
//! - `app/`: the window: renderer, text, particles, sound cues, the frame loop.
//! - `platform/`: what differs between the desktop and the browser, one item per capability.
//! - `cli/`: the command line, one file per subcommand (desktop only).
//! - `web/`: the browser's entry point and the page's test API.
//!
//! [`Runner`]: runtime::Runner

mod app;
#[cfg(not(target_arch = "wasm32"))]
mod cli;
mod platform;
mod runtime;
#[cfg(target_arch = "wasm32")]
mod web;

/// The entry point: the command line on the desktop, the embedded game in the browser.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(target_arch = "wasm32")]
fn main() {
    web::main();
}
