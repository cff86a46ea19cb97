//! Ludus script host: Lua 5.4 gameplay consequences through typed event queues only.
//!
//! [`ScriptHost`] implements `ludus_core::Consequences`. Each gameplay stage it packs the
//! stage's events into one byte string, and the Lua prelude hands every handler
//! (`on_collision_enter`, `on_timer`, `on_damage`, ...) all events of its kind at once. Handlers
//! answer through the `ludus` table (`ludus.damage`, `ludus.spawn`, ...), which sends commands
//! that Rust validates and applies. Scripts never see the world.
//!
//! Fences: a sandbox without io/os/package/debug/load/bytecode, a per-tick instruction budget
//! that neither `pcall` nor a script's own coroutines escape, a memory limit, and a fixed
//! string-hash seed so table order is the same in every process. The VM and its C are
//! `ludus-lua`'s; this crate is the Rust above them. See docs/scripting.md.

mod api;
mod bot;
mod budget;
mod decode;
mod encode;
mod error;
mod host;
mod sandbox;
mod shared;
mod source;
mod stage;

pub use api::API;
pub use api::list::{NAME_ARGS, markdown as api_markdown, types_markdown as api_types_markdown};
pub use api::spec::{ApiFunction, NameKind, Section};
pub use api::types::{Call, LUA_TYPES, OPTION_TABLES, Param, TYPES, type_words};
pub use bot::{Bot, DECISION_KEYS, Decision};
pub use host::{Clock, HostStats, ScriptHost};
pub use sandbox::module_paths;
pub use source::{ModuleSource, Script};

/// Compiles a script without running it; the error names `path:line`.
pub fn compile_check(path: &str, text: &str) -> Result<(), ludus_core::Fault> {
    let lua = ludus_lua::sandboxed()
        .map_err(|e| ludus_core::Fault::new(ludus_core::FaultKind::Load, e.to_string()))?;
    lua.load(text)
        .set_name(format!("@{path}"))
        .set_mode(mlua::chunk::ChunkMode::Text)
        .into_function()
        .map(|_| ())
        .map_err(|e| error::fault_from_lua(&e, ludus_core::FaultKind::Load, None))
}
