//! The C event decoder (`csrc/events.c`) as a Lua function.

use mlua::{Function, Lua};

unsafe extern "C-unwind" {
    fn ludus_decode(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
}

/// `ludus_decode(kind, blob, pos, n, list, tables, KINDS, ACTIONS) -> pos`.
pub(crate) fn decoder(lua: &Lua) -> mlua::Result<Function> {
    // SAFETY:
    // - `ludus_decode` is an ordinary Lua C function compiled into the same Lua library as the
    //   VM: it only uses the Lua C API on the state it is called with.
    // - It checks every argument's type and the record bounds against the string's length
    //   before reading, and reports problems with `luaL_error` (a Lua error), never by reading
    //   out of bounds.
    // - It keeps no global state, so VMs on different threads may call it at once.
    unsafe { lua.create_c_function(ludus_decode) }
}
