//! The sandboxed VM: which libraries exist, their fences, the prelude, per-script environments
//! and `require`.
//!
//! Scripts get the base library without `load`, `loadfile`, `dofile` and `collectgarbage`;
//! `table`, `string` (without `dump`), `math` (with `random` drawing from the world's seeded
//! generator), `utf8` and `coroutine`. There is no `io`, `os`, `package`, `debug`, no bytecode
//! (chunks load in text mode only) and no way to reach the file system except `require` of a
//! module inside the game folder. The library functions whose work grows with their arguments
//! are fenced (`csrc/fence.c`): they charge the budget for that work, `tostring` and
//! `string.format` never show an address, and `setmetatable` refuses `__gc` and `__mode`.
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
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value};
use std::rc::Rc;

const PRELUDE: &str = include_str!("prelude.lua");

/// The tables copied into every script environment.
const PER_SCRIPT: &[&str] = &["string", "table", "math", "utf8", "coroutine", "ludus"];

unsafe extern "C-unwind" {
    fn ludus_fence_open(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
    fn ludus_freeze(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
}

/// A C function of `csrc/fence.c` as a Lua function.
fn c_function(
    lua: &Lua,
    f: unsafe extern "C-unwind" fn(*mut mlua::ffi::lua_State) -> std::ffi::c_int,
) -> mlua::Result<Function> {
    // SAFETY: the functions of fence.c are ordinary Lua C functions compiled into the same Lua
    // library as the VM; they check their arguments and report problems as Lua errors.
    unsafe { lua.create_c_function(f) }
}

/// A new table with the same fields and metatable as `t`.
fn shallow_copy(lua: &Lua, t: &Table) -> mlua::Result<Table> {
    let copy = lua.create_table()?;
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        copy.raw_set(k, v)?;
    }
    copy.set_metatable(t.metatable())?;
    Ok(copy)
}

/// A VM with only the libraries scripts may use, fenced, and the dangerous base functions
/// removed.
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
    c_function(&lua, ludus_fence_open)?.call::<()>(g.clone())?;
    // String methods (`s:upper()`) come from a copy that no script can reach or change.
    let meta: Table = lua
        .load("return getmetatable('')")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(())?;
    meta.raw_set("__index", shallow_copy(&lua, &string)?)?;
    meta.raw_set("__metatable", false)?;
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

/// Runs the prelude with the API's Rust functions; returns the stage dispatcher and the
/// environment list.
pub(crate) fn prelude(lua: &Lua, def: &GameDef, raw: &Table) -> mlua::Result<(Function, Table)> {
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
    let (pool, decode) = crate::decode::decoder(lua)?;
    let dispatch: Function = lua
        .load(PRELUDE)
        .set_name("=ludus")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call((
            lua.globals(),
            raw.clone(),
            lua.create_function(|_, name: String| Ok(crate::api::no_such_function(&name)))?,
            kinds,
            tags,
            actions,
            constants,
            envs.clone(),
            pool,
            decode,
            crate::decode::kind_specs(lua)?,
            c_function(lua, ludus_freeze)?,
        ))?;
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
    for pair in globals.pairs::<Value, Value>() {
        let (k, v) = pair?;
        env.raw_set(k, v)?;
    }
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
