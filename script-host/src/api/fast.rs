//! The hot commands' fast path: `csrc/fast.c` hands a call whose arguments are all whole
//! numbers or nil straight to [`ludus_fast_call`], which builds the command with the API
//! list's own conversion (the `fast command` entries of `functions.rs`) and sends it, past
//! mlua's generic callback (about 950 instructions of a `damage` call, 400 of them converting
//! its arguments). Whatever it does not take goes to the command's generic function, which
//! converts, checks, charges and reports it as every other call, so scripts see no
//! difference but the speed.

use super::Bad;
use crate::shared::Shared;
use ludus_core::{Command, Gameplay};
use mlua::{Function, LightUserData, Lua, Table, Value};
use std::ffi::{c_int, c_void};
use std::rc::Rc;

/// A command with a fast path: its name and how its arguments (nil or whole numbers, in
/// order, nil past the call's) make it.
pub(crate) struct Fast {
    pub name: &'static str,
    pub build: fn(&mut Gameplay<'_>, [Value; 3]) -> Result<Command, Bad>,
}

/// The arguments of a command as its entry takes them (one value, or a tuple).
pub(crate) trait Args {
    fn take(values: [Value; 3]) -> Self;
}

impl Args for Value {
    fn take([a, _, _]: [Value; 3]) -> Self {
        a
    }
}

impl Args for (Value, Value) {
    fn take([a, b, _]: [Value; 3]) -> Self {
        (a, b)
    }
}

impl Args for (Value, Value, Value) {
    fn take([a, b, c]: [Value; 3]) -> Self {
        (a, b, c)
    }
}

unsafe extern "C-unwind" {
    fn ludus_fast(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// Replaces each fast command's generic function in `raw` (installed first) with its fast
/// entry, which calls the generic one for what it does not take.
pub(crate) fn install(lua: &Lua, raw: &Table, shared: &Rc<Shared>) -> mlua::Result<()> {
    let host = LightUserData(Rc::as_ptr(shared).cast_mut().cast::<c_void>());
    for (which, fast) in super::FAST.iter().enumerate() {
        let generic: Function = raw.raw_get(fast.name)?;
        // SAFETY: `ludus_fast` is an ordinary Lua C function compiled into the same Lua
        // library as the VM, and the closure gets the three upvalues it reads: the host's
        // state, which lives as long as the generic function (its closure holds an `Rc` of
        // it) and so as long as this closure (upvalue 2 keeps it alive); the generic
        // function; and its number in `FAST`.
        let entry: Function = unsafe {
            lua.exec_raw((host, generic, which as i64), |state| {
                mlua::ffi::lua_pushcclosure(state, ludus_fast, 3);
            })?
        };
        raw.raw_set(fast.name, entry)?;
    }
    Ok(())
}

/// `csrc/fast.c`'s call: sends fast command `which` with arguments `args` (bit `i` of
/// `present`: argument `i` is a whole number, else nil), `n` of them given; 0 when sent. It
/// takes the call only when the budget has the unit every API call costs, a stage is
/// running, and the command builds and sends: otherwise it changes nothing and the generic
/// function handles the call (and reports what is wrong).
#[unsafe(no_mangle)]
pub extern "C" fn ludus_fast_call(
    host: *const c_void,
    which: i64,
    args: *const i64,
    present: u32,
    n: c_int,
) -> c_int {
    const NOT_TAKEN: c_int = 1;
    let Some(fast) = usize::try_from(which).ok().and_then(|w| super::FAST.get(w)) else {
        return NOT_TAKEN;
    };
    if host.is_null() || args.is_null() || !(0..=3).contains(&n) {
        return NOT_TAKEN;
    }
    // SAFETY: `host` is the `Shared` the entry was created with (alive: see `install`), only
    // used on the thread that runs its VM; `args` points to `ludus_fast`'s three numbers.
    let (shared, args) = unsafe { (&*host.cast::<Shared>(), std::slice::from_raw_parts(args, 3)) };
    let values: [Value; 3] = std::array::from_fn(|i| {
        if present >> i & 1 != 0 {
            Value::Integer(args[i])
        } else {
            Value::Nil
        }
    });
    if !shared.budget.fits(1) {
        return NOT_TAKEN;
    }
    let sent = shared.stage.with(|g| match (fast.build)(g, values) {
        Ok(command) => g.send(command).is_ok(),
        Err(_) => false,
    });
    if sent != Some(true) {
        return NOT_TAKEN;
    }
    shared.budget.take_fitting(1);
    0
}
