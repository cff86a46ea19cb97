//! The event decoder (`csrc/events.c`) as Lua functions: packed little-endian records, one
//! [`FieldCode`](crate::FieldCode) per field, into reused Lua tables whose fields are decoded
//! on demand. The decoder knows no event kind: each kind's layout is a Lua table the host
//! builds (see `events.c` for its fields).

use mlua::{Function, Lua};
use std::ffi::c_int;

unsafe extern "C-unwind" {
    fn ludus_decode(state: *mut mlua::ffi::lua_State) -> c_int;
    fn ludus_pool(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// The decoder's two functions, `(pool, decode)`:
/// - `pool(spec, KINDS, ACTIONS, next) -> pool`: reused tables for the records of one kind;
/// - `decode(blob, pos, n, pool) -> list, pos`: fills the pool's first `n` tables from the `n`
///   records at 1-based offset `pos` of `blob`, returning them and the offset after them (with
///   `pool` nil and `spec` as a fifth argument it only skips the records).
pub fn decoder(lua: &Lua) -> mlua::Result<(Function, Function)> {
    // SAFETY:
    // - Both are ordinary Lua C functions compiled into the same Lua library as the VM: they
    //   only use the Lua C API on the state they are called with.
    // - They check every argument's type (a pool is a userdata of their own metatable), and
    //   the length left in the blob before every read, and report problems with `luaL_error`
    //   (a Lua error), never by reading out of bounds.
    // - They keep no global state, so VMs on different threads may call them at once.
    unsafe {
        Ok((
            lua.create_c_function(ludus_pool)?,
            lua.create_c_function(ludus_decode)?,
        ))
    }
}
