//! The hot commands' fast path: a fast entry ([`ludus_lua::fast_entry`]) hands a call whose
//! arguments are all whole numbers or nil straight to the host (`FastCall for Shared`, in
//! `api/mod.rs`, which sees both this module and the list), which builds the command with the
//! API list's own conversion (the `fast command` entries of `functions.rs`) and sends it, past
//! mlua's generic callback (about 950 instructions of a `damage` call, 400 of them converting
//! its arguments). Whatever it does not take goes to the command's generic function, which
//! converts, checks, charges and reports it as every other call, so scripts see no difference
//! but the speed.

use super::call::Bad;
use crate::shared::Shared;
use ludus_core::{Command, Gameplay};
use mlua::{Function, Lua, Table, Value};
use std::rc::Rc;

/// A command with a fast path: its name and how its arguments (nil or whole numbers, in
/// order, nil past the call's) make it.
pub(crate) struct Fast {
    pub name: &'static str,
    /// Invariant: given only `Value::Nil` and `Value::Integer` (values that hold no
    /// reference into the Lua state), which it may forget rather than drop.
    pub build: fn(&mut Gameplay<'_>, [Value; 3]) -> Result<Command, Bad>,
}

/// The arguments of a command as its entry takes them (one value, or a tuple).
pub(crate) trait Args {
    fn take(values: [Value; 3]) -> Self;
}

// The values left out are nil or whole numbers (see `Fast::build`): forgotten, not dropped.
impl Args for Value {
    fn take([a, b, c]: [Value; 3]) -> Self {
        std::mem::forget((b, c));
        a
    }
}

impl Args for (Value, Value) {
    fn take([a, b, c]: [Value; 3]) -> Self {
        std::mem::forget(c);
        (a, b)
    }
}

impl Args for (Value, Value, Value) {
    fn take([a, b, c]: [Value; 3]) -> Self {
        (a, b, c)
    }
}

/// Replaces each fast command's generic function in `raw` (installed first) with its fast
/// entry ([`ludus_lua::fast_entry`]), which calls the generic one for what it does not take.
/// `commands` is the API list's fast commands (`FastCall for Shared` builds them).
pub(crate) fn install(
    lua: &Lua,
    raw: &Table,
    shared: &Rc<Shared>,
    commands: &'static [Fast],
) -> mlua::Result<()> {
    for (which, fast) in commands.iter().enumerate() {
        let generic: Function = raw.raw_get(fast.name)?;
        let entry = ludus_lua::fast_entry(lua, shared, generic, which)?;
        raw.raw_set(fast.name, entry)?;
    }
    Ok(())
}
