//! The hot commands' and reads' fast path: a fast entry ([`ludus_lua::fast_entry`]) hands a
//! call whose arguments are all whole numbers or nil straight to the host (`FastCall for
//! Shared`, in `api/mod.rs`, which sees both this module and the list), which runs the API
//! list's own body for it (the `fast command` and `fast call` entries of `functions.rs`): a
//! command is built and sent, a read's values handed back ([`Returns`]), past mlua's generic
//! callback (about 950 instructions of a `damage` call, 400 of them converting its arguments).
//! Whatever it does not take goes to the generic function, which converts, checks, charges
//! and reports it as every other call, so scripts see no difference but the speed.

use super::call::Bad;
use crate::shared::Shared;
use ludus_core::Gameplay;
use ludus_lua::{FastValue, Results};
use mlua::{Function, Lua, Table, Value};
use std::rc::Rc;

/// A command or read with a fast path: its name and how its arguments (nil or whole numbers,
/// in order, nil past the call's) run it.
pub(crate) struct Fast {
    pub name: &'static str,
    /// Sends the command, or pushes the read's values to the results; `Err` when it did
    /// neither, having changed nothing (a wrong argument: the generic function then reports
    /// it). Invariant: given only `Value::Nil` and `Value::Integer` (values that hold no
    /// reference into the Lua state), which it may forget rather than drop; a read reports
    /// no work (see `Gameplay::take_work`), as only the spatial reads do.
    pub run: fn(&mut Gameplay<'_>, [Value; 3], &mut Results<'_>) -> Result<(), Bad>,
}

/// A read's result as a fast entry returns it: the values mlua's conversion would give.
pub(crate) trait Returns {
    /// Pushes the values; `false` for one a fast entry cannot return (a string, a table).
    fn give(self, out: &mut Results<'_>) -> bool;
}

impl Returns for bool {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(FastValue::Bool(self))
    }
}

impl Returns for i64 {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(FastValue::Int(self))
    }
}

impl Returns for Option<i64> {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(self.map_or(FastValue::Nil, FastValue::Int))
    }
}

impl Returns for Option<f32> {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(self.map_or(FastValue::Nil, |x| FastValue::Num(f64::from(x))))
    }
}

impl<A: Returns, B: Returns> Returns for (A, B) {
    fn give(self, out: &mut Results<'_>) -> bool {
        self.0.give(out) && self.1.give(out)
    }
}

impl Returns for Value {
    fn give(self, out: &mut Results<'_>) -> bool {
        let v = match self {
            Value::Nil => FastValue::Nil,
            Value::Boolean(b) => FastValue::Bool(b),
            Value::Integer(n) => FastValue::Int(n),
            Value::Number(x) => FastValue::Num(x),
            _ => return false,
        };
        out.push(v)
    }
}

/// The arguments of a command as its entry takes them (one value, or a tuple).
pub(crate) trait Args {
    fn take(values: [Value; 3]) -> Self;
}

/// Lets the arguments a fast entry took go: nil or whole numbers (see [`Fast::run`]), which
/// hold nothing to release (mlua's generic drop of three values cost a tenth of a call).
pub(crate) fn release<T: Args>(args: T) {
    std::mem::forget(args);
}

// The values left out are nil or whole numbers (see `Fast::run`): forgotten, not dropped.
impl Args for () {
    fn take(values: [Value; 3]) -> Self {
        std::mem::forget(values);
    }
}

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

/// Replaces each fast function's generic version in `raw` (installed first) with its fast
/// entry ([`ludus_lua::fast_entry`]), which calls the generic one for what it does not take.
/// `commands` is the API list's fast commands and reads (`FastCall for Shared` runs them).
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
