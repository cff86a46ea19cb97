//! The sandboxed VM: which libraries exist, the prelude, per-script environments and `require`.
//!
//! Scripts get the base library without `load`, `loadfile`, `dofile` and `collectgarbage`;
//! `table`, `string` (without `dump`), `math` (with `random` drawing from the world's seeded
//! generator), `utf8` and `coroutine`. There is no `io`, `os`, `package`, `debug`, no bytecode
//! (chunks load in text mode only) and no way to reach the file system except `require` of a
//! module inside the game folder. Every script file runs in its own environment whose reads
//! fall through to the shared globals; the shared globals themselves are not reachable.

use crate::budget::Budget;
use crate::host::ModuleSource;
use ludus_core::{Constant, GameDef};
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value};
use std::rc::Rc;

const PRELUDE: &str = include_str!("prelude.lua");

/// A VM with only the libraries scripts may use, and the dangerous base functions removed.
pub(crate) fn new_lua() -> mlua::Result<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::new())?;
    let g = lua.globals();
    for name in [
        "load",
        "loadfile",
        "dofile",
        "collectgarbage",
        "require",
        "loadstring",
    ] {
        g.raw_set(name, Value::Nil)?;
    }
    for name in ["io", "os", "package", "debug"] {
        g.raw_set(name, Value::Nil)?;
    }
    let string: Table = g.raw_get("string")?;
    string.raw_set("dump", Value::Nil)?;
    Ok(lua)
}

fn constant(lua: &Lua, c: &Constant) -> mlua::Result<Value> {
    Ok(match c {
        Constant::Bool(b) => Value::Boolean(*b),
        Constant::Int(i) => Value::Integer(*i),
        Constant::Float(f) => Value::Number(*f),
        Constant::Text(s) => Value::String(lua.create_string(s)?),
    })
}

/// Runs the prelude with the context table and the permanent command functions; returns the
/// stage dispatcher and the environment list.
pub(crate) fn prelude(
    lua: &Lua,
    def: &GameDef,
    ctx: &Table,
    raw: &Table,
) -> mlua::Result<(Function, Table)> {
    let envs = lua.create_table()?;
    let kinds = lua.create_table()?;
    for (i, a) in def.archetypes.iter().enumerate() {
        kinds.raw_set(i, a.name.as_str())?;
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
    let dispatch: Function = lua
        .load(PRELUDE)
        .set_name("=ludus")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call((
            lua.globals(),
            ctx.clone(),
            raw.clone(),
            kinds,
            tags,
            actions,
            constants,
            envs.clone(),
            crate::decode::decoder(lua)?,
        ))?;
    Ok((dispatch, envs))
}

/// A script's own environment: writes stay in it, reads fall through to the shared globals,
/// and its metatable is hidden so the shared globals cannot be reached or replaced.
pub(crate) fn new_env(lua: &Lua) -> mlua::Result<Table> {
    let env = lua.create_table()?;
    // The shared globals are copied in too: a global such as `ludus` or `math` is then one
    // table read instead of a miss and a metamethod.
    for pair in lua.globals().pairs::<Value, Value>() {
        let (k, v) = pair?;
        env.raw_set(k, v)?;
    }
    let meta = lua.create_table()?;
    meta.raw_set("__index", lua.globals())?;
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

/// `require(name)`: loads `name.lua` (dots become folders) from the game folder, or from its
/// `scripts/` folder, once; the module's top-level code runs under the caller's budget.
pub(crate) fn install_require(
    lua: &Lua,
    modules: Option<Rc<dyn ModuleSource>>,
    _budget: Rc<Budget>,
    _instructions: u64,
) -> mlua::Result<()> {
    let cache = lua.create_table()?;
    let require = lua.create_function(move |lua, name: Value| {
        let Value::String(name) = name else {
            return Err(mlua::Error::runtime("require expects a module name string"));
        };
        let name = name.to_str()?.to_string();
        if !valid_module(&name) {
            return Err(mlua::Error::runtime(format!(
                "require(\"{name}\"): module names are dotted identifiers such as \"util\" or \
                 \"ai.steering\", resolved inside the game folder"
            )));
        }
        if let Ok(v @ (Value::Table(_) | Value::Function(_) | Value::Boolean(true))) =
            cache.raw_get::<Value>(name.as_str())
        {
            return Ok(v);
        }
        let Some(source) = &modules else {
            return Err(mlua::Error::runtime("require is not available here"));
        };
        let relative = format!("{}.lua", name.replace('.', "/"));
        let candidates = [relative.clone(), format!("scripts/{relative}")];
        let (path, text) = candidates
            .iter()
            .find_map(|p| source.read(p).ok().map(|t| (p.clone(), t)))
            .ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "require(\"{name}\"): no file {} or {} in the game folder",
                    candidates[0], candidates[1]
                ))
            })?;
        let env = new_env(lua)?;
        let chunk = lua
            .load(text)
            .set_name(format!("@{path}"))
            .set_mode(mlua::chunk::ChunkMode::Text)
            .set_environment(env)
            .into_function()?;
        let value: Value = chunk.call(())?;
        let value = if value.is_nil() {
            Value::Boolean(true)
        } else {
            value
        };
        cache.raw_set(name.as_str(), value.clone())?;
        Ok(value)
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
