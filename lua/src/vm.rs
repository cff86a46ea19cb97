//! The sandboxed VM: which libraries exist and their fences (`csrc/fence.c`).
//!
//! Scripts get the base library without `load`, `loadfile`, `dofile` and `collectgarbage`;
//! `table`, `string` (without `dump`), `math`, `utf8` and `coroutine`. There is no `io`, `os`,
//! `package`, `debug`, `require` or bytecode (the host loads chunks in text mode only). The
//! library functions whose work grows with their arguments are fenced: they charge the meter
//! for that work, `tostring` and `string.format` never show an address, `setmetatable`
//! refuses `__gc` and `__mode`, and `rawset` refuses the tables [`freeze`] made read-only.
//! The string metatable is hidden (`getmetatable("")` is `false`) and its methods come from a
//! copy of `string` that no script can reach.

use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value};
use std::ffi::c_int;

unsafe extern "C-unwind" {
    fn ludus_fence_open(state: *mut mlua::ffi::lua_State) -> c_int;
    fn ludus_freeze(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// A C function of `csrc/fence.c` as a Lua function.
fn fence_function(
    lua: &Lua,
    f: unsafe extern "C-unwind" fn(*mut mlua::ffi::lua_State) -> c_int,
) -> mlua::Result<Function> {
    // SAFETY: the functions of fence.c are ordinary Lua C functions compiled into the same Lua
    // library as the VM: they only use the Lua C API on the state they are called with, check
    // their arguments' types and report problems as Lua errors, and keep no global state.
    unsafe { lua.create_c_function(f) }
}

/// A new table with the same fields and metatable as `t`.
pub fn shallow_copy(lua: &Lua, t: &Table) -> mlua::Result<Table> {
    let copy = lua.create_table()?;
    for pair in t.pairs::<Value, Value>() {
        let (k, v) = pair?;
        copy.raw_set(k, v)?;
    }
    copy.set_metatable(t.metatable())?;
    Ok(copy)
}

/// A VM with only the libraries scripts may use, fenced (see the module documentation).
pub fn sandboxed() -> mlua::Result<Lua> {
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
    fence_function(&lua, ludus_fence_open)?.call::<()>(g.clone())?;
    // String methods (`s:upper()`) come from a copy that no script can reach or change.
    let meta: Table = lua
        .load("return getmetatable('')")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(())?;
    meta.raw_set("__index", shallow_copy(&lua, &string)?)?;
    meta.raw_set("__metatable", false)?;
    Ok(lua)
}

/// `freeze(t)`: the fenced `rawset` refuses `t` from then on (a table whose metatable already
/// refuses other writes is then read-only).
pub fn freeze(lua: &Lua) -> mlua::Result<Function> {
    fence_function(lua, ludus_freeze)
}
