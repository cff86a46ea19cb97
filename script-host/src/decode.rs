//! The C event decoder (`csrc/events.c`) as a Lua function, and the event kinds as the prelude
//! reads them.

use crate::encode::layout_codes;
use ludus_core::{EVENT_KINDS, FieldType, Stage};
use mlua::{Function, Lua, Table};

unsafe extern "C-unwind" {
    fn ludus_decode(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
    fn ludus_pool(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int;
}

/// `ludus_pool(spec, KINDS, ACTIONS, next) -> pool` and
/// `ludus_decode(blob, pos, n, pool) -> list, pos` (see `csrc/events.c`).
pub(crate) fn decoder(lua: &Lua) -> mlua::Result<(Function, Function)> {
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

/// `KINDSPEC[k]` for each event kind `k` (1-based, in [`EVENT_KINDS`] order): `handler`,
/// `stage` (1 or 2), `single`, `cancellable`, and the layout the decoder reads: `codes`,
/// `names`, `index` (name to field number), `choices`.
pub(crate) fn kind_specs(lua: &Lua) -> mlua::Result<Table> {
    let specs = lua.create_table()?;
    for (k, spec) in EVENT_KINDS.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("handler", spec.handler)?;
        t.raw_set("stage", if spec.stage == Stage::One { 1 } else { 2 })?;
        t.raw_set("single", spec.single)?;
        t.raw_set("cancellable", spec.cancellable)?;
        t.raw_set("codes", layout_codes(k))?;
        let names = lua.create_table()?;
        let index = lua.create_table()?;
        let choices = lua.create_table()?;
        for (i, field) in spec.fields.iter().enumerate() {
            names.raw_set(i + 1, field.name)?;
            index.raw_set(field.name, i + 1)?;
            if let FieldType::Choice(list) = field.ty {
                choices.raw_set(i + 1, lua.create_sequence_from(list.iter().copied())?)?;
            }
        }
        t.raw_set("names", names)?;
        t.raw_set("index", index)?;
        t.raw_set("choices", choices)?;
        specs.raw_set(k + 1, t)?;
    }
    Ok(specs)
}
