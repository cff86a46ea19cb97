//! `ludus`: play, check, simulate, replay and benchmark games made of TOML and Lua.

// The desktop-only parts of these (scripted runs, screenshots, stress entities, file formats
// of the headless commands) go unused in the browser build.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
#[cfg(target_os = "linux")]
mod alsa;
mod app;
mod audio;
mod bundled;
mod driver;
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
mod files;
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
mod frames;
#[cfg(test)]
mod fuzz;
mod image;
mod keys;
mod particles;
mod project;
mod renderer;
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
mod runner;
mod strict_json;
mod text;
mod verify;

#[cfg(not(target_arch = "wasm32"))]
mod bench;
#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod replay;
#[cfg(not(target_arch = "wasm32"))]
mod serve;
#[cfg(not(target_arch = "wasm32"))]
mod sim;
#[cfg(not(target_arch = "wasm32"))]
mod template;
#[cfg(not(target_arch = "wasm32"))]
mod watch;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(any(target_arch = "wasm32", test))]
mod web_api;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(target_arch = "wasm32")]
fn main() {
    web::main();
}
