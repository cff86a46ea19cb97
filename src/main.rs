//! `ludus`: play, check, simulate, replay and benchmark games made of TOML and Lua.

mod app;
mod audio;
mod bundled;
mod frames;
mod image;
mod keys;
mod particles;
mod project;
mod renderer;
mod runner;
mod text;

#[cfg(not(target_arch = "wasm32"))]
mod bench;
#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod replay;
#[cfg(not(target_arch = "wasm32"))]
mod sim;
#[cfg(not(target_arch = "wasm32"))]
mod template;
#[cfg(not(target_arch = "wasm32"))]
mod watch;
#[cfg(target_arch = "wasm32")]
mod web;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(target_arch = "wasm32")]
fn main() {
    web::main();
}
