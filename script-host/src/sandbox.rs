//! The sandbox above the VM: the prelude, per-script environments and `require`.
//!
//! The VM itself ([`ludus_lua::sandboxed`]) has only the libraries scripts may use, fenced;
//! here `math.random` comes to draw from the world's seeded generator, chunks load in text
//! mode only (no bytecode), and the only way to reach the file system is `require` of a
//! module inside the game folder.
//!
//! Every script file (and every module) runs in its own environment whose reads fall through
//! to the shared globals; the shared globals themselves are not reachable, and the library
//! tables (`string`, `table`, `math`, `utf8`, `coroutine`) and the `ludus` table are copied
//! into each environment, so what one script changes in them stays in that script. The string
//! metatable is hidden (`getmetatable("")` is `false`) and its methods come from a copy no
//! script can reach.

use crate::budget::Budget;
use crate::source::ModuleSource;
use ludus_core::{Constant, GameDef};
use ludus_lua::shallow_copy;
use mlua::{Function, Lua, Table, Value};
use std::rc::Rc;

const PRELUDE: &str = include_str!("prelude.lua");

/// The tables copied into every script environment.
const PER_SCRIPT: &[&str] = &["string", "table", "math", "utf8", "coroutine", "ludus"];

/// A VM with only the libraries scripts may use, fenced (see [`ludus_lua::sandboxed`]).
pub(crate) fn new_lua() -> mlua::Result<Lua> {
    ludus_lua::sandboxed()
}

fn constant(lua: &Lua, c: &Constant) -> mlua::Result<Value> {
    Ok(match c {
        Constant::Bool(b) => Value::Boolean(*b),
        Constant::Int(i) => Value::Integer(*i),
        Constant::Float(f) => Value::Number(*f),
        Constant::Text(s) => Value::String(lua.create_string(s)?),
    })
}

/// Runs the prelude with the API's Rust functions; returns the stage dispatcher and the
/// environment list.
pub(crate) fn prelude(
    lua: &Lua,
    def: &GameDef,
    raw: &Table,
    profile: &Table,
) -> mlua::Result<(Function, Table)> {
    let envs = lua.create_table()?;
    // Archetype `i`'s name at `i + 1`: every name in the table's array part, where the event
    // decoder reads one in a few instructions (key 0 would sit in the hash part).
    let kinds = lua.create_table_with_capacity(def.archetypes.len(), 0)?;
    for (i, a) in def.archetypes.iter().enumerate() {
        kinds.raw_set(i + 1, a.name.as_str())?;
    }
    let tags = lua.create_table()?;
    for (i, t) in def.tags.iter().enumerate() {
        tags.raw_set(t.as_str(), (1u64 << i) as i64)?;
    }
    let actions = lua.create_table()?;
    for (id, a) in def.actions.iter() {
        actions.raw_set(i64::from(id.0) + 1, a.name.as_str())?;
    }
    let constants = lua.create_table()?;
    for (k, v) in &def.constants {
        constants.raw_set(k.as_str(), constant(lua, v)?)?;
    }
    let (pool, decode) = ludus_lua::decoder(lua)?;
    let no_such = lua.create_function(|_, name: String| Ok(crate::api::no_such_function(&name)))?;
    // What the prelude runs with, by name (its first lines read every field).
    let fields: [(&str, Value); 13] = [
        // The shared sandbox globals.
        ("globals", Value::Table(lua.globals())),
        // The API's Rust functions by name; the internal ones start with `__`.
        ("api", Value::Table(raw.clone())),
        // The sentence naming the closest API function to a misspelt one.
        ("no_such_function", Value::Function(no_such)),
        // Archetype names by id.
        ("kinds", Value::Table(kinds)),
        // Each tag's bit by name.
        ("tag_bits", Value::Table(tags)),
        // Action names by id + 1.
        ("actions", Value::Table(actions)),
        // The game's constants by name.
        ("constants", Value::Table(constants)),
        // The script environments, filled as scripts load.
        ("envs", Value::Table(envs.clone())),
        // The event decoder (`ludus_lua::decoder`).
        ("new_pool", Value::Function(pool)),
        ("decode", Value::Function(decode)),
        // The event kinds and their layouts (`decode::kind_specs`).
        ("event_kinds", Value::Table(crate::decode::kind_specs(lua)?)),
        // Makes a table read-only to `rawset` (`ludus_lua::freeze`).
        ("freeze", Value::Function(ludus_lua::freeze(lua)?)),
        // Profiling: `on`, and `now()` / `done(script, kind, start)` to time handler calls.
        ("profile", Value::Table(profile.clone())),
    ];
    let host = lua.create_table_from(fields)?;
    // A field the prelude reads that is not above is a mistake here, not a nil there.
    let strict = lua.create_table()?;
    strict.raw_set(
        "__index",
        lua.create_function(|_, (_, k): (Value, String)| -> mlua::Result<()> {
            Err(mlua::Error::runtime(format!(
                "the prelude reads `{k}`, which the host does not give it"
            )))
        })?,
    )?;
    host.set_metatable(Some(strict))?;
    let dispatch: Function = lua
        .load(PRELUDE)
        .set_name("=ludus")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(host)?;
    Ok((dispatch, envs))
}

/// A script's own environment: writes stay in it, reads fall through to the shared globals,
/// its metatable is hidden so the shared globals cannot be reached or replaced, and it holds
/// its own copies of the library tables.
pub(crate) fn new_env(lua: &Lua) -> mlua::Result<Table> {
    let env = lua.create_table()?;
    let globals = lua.globals();
    // The shared globals are copied in too: a global such as `ludus` or `math` is then one
    // table read instead of a miss and a metamethod.
    ludus_lua::copy_fields(lua, &globals, &env)?;
    for name in PER_SCRIPT {
        if let Value::Table(t) = globals.raw_get::<Value>(*name)? {
            env.raw_set(*name, shallow_copy(lua, &t)?)?;
        }
    }
    let meta = lua.create_table()?;
    meta.raw_set("__index", globals)?;
    meta.raw_set("__metatable", false)?;
    env.set_metatable(Some(meta))?;
    env.raw_set("_G", env.clone())?;
    Ok(env)
}

/// Whether a module name is a dotted identifier path (`util`, `ai.steering`).
fn valid_module(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name.split('.').all(|part| {
            !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
}

/// Where `require(name)` looks, in order: `name.lua` (dots become folders) in the game folder,
/// then in its `scripts/` folder; `None` for a name that is not a dotted identifier path.
pub fn module_paths(name: &str) -> Option<[String; 2]> {
    if !valid_module(name) {
        return None;
    }
    let relative = format!("{}.lua", name.replace('.', "/"));
    Some([relative.clone(), format!("scripts/{relative}")])
}

/// `require(name)`: loads `name.lua` (dots become folders) from the game folder, or from its
/// `scripts/` folder, once; the module's top-level code runs under the caller's budget, and
/// compiling it costs one unit per byte of source. A module that failed to load fails again
/// at once on later calls (its error is kept); a module that requires itself, directly or
/// not, is an error.
pub(crate) fn install_require(
    lua: &Lua,
    modules: Option<Rc<dyn ModuleSource>>,
    budget: Rc<Budget>,
) -> mlua::Result<()> {
    // name -> the module's value, or `false` while it loads, or the error text if it failed.
    let cache = lua.create_table()?;
    let require = lua.create_function(move |lua, name: Value| {
        let Value::String(name) = name else {
            return Err(mlua::Error::runtime("require expects a module name string"));
        };
        let name_bytes = name.as_bytes();
        budget.charge(lua, 1 + name_bytes.len() as u64 / 16, || None)?;
        let resolved = std::str::from_utf8(&name_bytes)
            .ok()
            .and_then(|n| Some((n.to_string(), module_paths(n)?)));
        let (name, candidates) = match resolved {
            Some(r) => r,
            None => {
                return Err(mlua::Error::runtime(
                    "require: module names are dotted identifiers such as \"util\" or \
                     \"ai.steering\" (at most 128 characters), resolved inside the game folder",
                ));
            }
        };
        match cache.raw_get::<Value>(name.as_str())? {
            Value::Nil => {}
            Value::Boolean(false) => {
                return Err(mlua::Error::runtime(format!(
                    "require(\"{name}\"): the module requires itself (directly or through \
                     other modules) while it loads"
                )));
            }
            Value::String(failed) => {
                return Err(mlua::Error::runtime(failed.to_string_lossy()));
            }
            v => return Ok(v),
        }
        let Some(source) = &modules else {
            return Err(mlua::Error::runtime("require is not available here"));
        };
        let mut refusals = Vec::new();
        let mut found = None;
        for path in &candidates {
            match source.read(path) {
                Ok(text) => {
                    found = Some((path.clone(), text));
                    break;
                }
                Err(e) => refusals.push(format!("{path}: {e}")),
            }
        }
        let Some((path, text)) = found else {
            let message = format!(
                "require(\"{name}\"): no module file could be read ({})",
                refusals.join("; ")
            );
            cache.raw_set(name.as_str(), message.as_str())?;
            return Err(mlua::Error::runtime(message));
        };
        budget.charge(lua, text.len() as u64, || None)?;
        cache.raw_set(name.as_str(), false)?;
        let env = new_env(lua)?;
        let loaded = lua
            .load(text)
            .set_name(format!("@{path}"))
            .set_mode(mlua::chunk::ChunkMode::Text)
            .set_environment(env)
            .into_function()
            .and_then(|chunk| chunk.call::<Value>(()));
        match loaded {
            Ok(value) => {
                let value = if value.is_nil() {
                    Value::Boolean(true)
                } else {
                    value
                };
                cache.raw_set(name.as_str(), value.clone())?;
                Ok(value)
            }
            Err(e) => {
                if !budget.exceeded() {
                    let message =
                        crate::error::fault_from_lua(&e, ludus_core::FaultKind::Load, None);
                    cache.raw_set(name.as_str(), message.to_string())?;
                } else {
                    cache.raw_set(name.as_str(), Value::Nil)?;
                }
                Err(e)
            }
        }
    })?;
    lua.globals().raw_set("require", require)
}

#[cfg(test)]
mod tests {
    use super::valid_module;

    #[test]
    fn module_names_cannot_leave_the_folder() {
        assert!(valid_module("util"));
        assert!(valid_module("ai.steering"));
        for bad in [
            "",
            "../x",
            "/etc/passwd",
            "a..b",
            "a/b",
            "a\\b",
            ".a",
            "a.",
            "x y",
        ] {
            assert!(!valid_module(bad), "{bad:?}");
        }
    }
}
