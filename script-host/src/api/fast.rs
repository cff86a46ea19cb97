//! The hot commands' and reads' fast path: a fast entry ([`ludus_lua::fast_entry`]) hands a
//! call whose arguments are all plain values (nil, booleans, numbers, strings) straight to the
//! host (`FastCall for Shared`, in `api/mod.rs`, which sees both this module and the list),
//! which runs the API list's own body for it (the `fast command`, `fast call`, `fast grid`
//! and `fast census` entries of `functions.rs`) with the arguments as [`FastArg`]s, which the
//! same helpers read as they read mlua values ([`Arg`](super::args::Arg)): a command is built
//! and sent, a read's values handed back ([`Returns`]), past mlua's generic callback (about 950
//! instructions of a `damage` call, 400 of them converting its arguments). Whatever it does
//! not take goes to the generic function, which converts, checks, charges and reports it as
//! every other call, so scripts see no difference but the speed.

use super::call::Bad;
use super::names::Name;
use crate::shared::Shared;
use ludus_core::Gameplay;
use ludus_lua::{Args, FastArg, FastValue, Results};
use mlua::{Function, Lua, Table, Value};
use std::rc::Rc;

/// A command or read with a fast path: its name and how a call's arguments run it.
pub(crate) struct Fast {
    pub name: &'static str,
    /// Sends the command, or pushes the read's values to the results; `Err` when it did
    /// neither, having changed nothing (a wrong argument: the generic function then reports
    /// it). The work a read reports (see `Gameplay::take_work`) is charged after it, as the
    /// generic function charges it; where it does not fit, the generic function asks again
    /// and fails on the same work.
    pub run: fn(&mut Gameplay<'_>, &Args<'_>, &mut Results<'_>) -> Result<(), Bad>,
    /// What the call must find before it runs, for the work it reports to be charged as the
    /// generic function would charge it.
    pub needs: Needs,
}

/// What a fast call must find before it runs (see [`Fast::needs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Needs {
    /// Nothing: it reports no work (paid for by the unit every call costs).
    Nothing,
    /// A read of the spatial grid: taken only once the tick's spatial reads were charged for
    /// every entity (`Gameplay::spatial_ready`), so that asking again reports the same work
    /// (that charge is reported once).
    Grid,
    /// A read of the tick's census of tags (`find`, `count`): taken only where the budget
    /// holds the most it can report (`Gameplay::census_bound`): the tick's first read and the
    /// first read of a tag set report more than asking again, so the call cannot be declined
    /// once it ran.
    Census,
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

impl Returns for f64 {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(FastValue::Num(self))
    }
}

/// A list of entity ids, which a read returns as a new table (`ludus.find`).
pub(crate) struct IdList(pub Vec<u64>);

impl Returns for IdList {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push_ids(self.0.into_iter().map(|i| i as i64))
    }
}

impl mlua::IntoLua for IdList {
    fn into_lua(self, lua: &Lua) -> mlua::Result<Value> {
        let ids: Vec<i64> = self.0.into_iter().map(|i| i as i64).collect();
        ludus_lua::sequence(lua, &ids).map(Value::Table)
    }
}

/// A game variable as a read returns it: nil, a whole number as an integer, another number,
/// or a text (which a fast entry cannot return: the generic function answers it).
pub(crate) struct VarRead(pub Option<ludus_core::Var>);

/// Whether a number comes back as an integer: whole, and within the integers a double holds.
fn whole(n: f64) -> bool {
    n.fract() == 0.0 && n.abs() < 9.007_199_254_740_992e15
}

impl Returns for VarRead {
    fn give(self, out: &mut Results<'_>) -> bool {
        use ludus_core::Var;
        match self.0 {
            None => out.push(FastValue::Nil),
            Some(Var::Num(n)) if whole(n) => out.push(FastValue::Int(n as i64)),
            Some(Var::Num(n)) => out.push(FastValue::Num(n)),
            Some(Var::Text(_)) => false,
        }
    }
}

impl mlua::IntoLua for VarRead {
    fn into_lua(self, lua: &Lua) -> mlua::Result<Value> {
        use ludus_core::Var;
        Ok(match self.0 {
            None => Value::Nil,
            Some(Var::Num(n)) if whole(n) => Value::Integer(n as i64),
            Some(Var::Num(n)) => Value::Number(n),
            Some(Var::Text(t)) => Value::String(lua.create_string(t.as_bytes())?),
        })
    }
}

impl Returns for Option<i64> {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(self.map_or(FastValue::Nil, FastValue::Int))
    }
}

impl Returns for Option<f64> {
    fn give(self, out: &mut Results<'_>) -> bool {
        out.push(self.map_or(FastValue::Nil, FastValue::Num))
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

/// One argument type of the API list (`Value`, `Name<K>`) and what it is in a fast call.
pub(crate) trait OneArg {
    type Fast<'a>;
    fn fast(a: FastArg<'_>) -> Self::Fast<'_>;
}

impl OneArg for Value {
    type Fast<'a> = FastArg<'a>;
    fn fast(a: FastArg<'_>) -> FastArg<'_> {
        a
    }
}

impl<K: super::names::Declared> OneArg for Name<K> {
    type Fast<'a> = Name<K, FastArg<'a>>;
    fn fast(a: FastArg<'_>) -> Name<K, FastArg<'_>> {
        Name::new(a)
    }
}

/// The arguments of an API function (one type, or a tuple) as a fast call gives them:
/// each in its place, nil past those given (as mlua fills them).
pub(crate) trait FastArgs {
    type Fast<'a>;
    fn take<'a>(args: &Args<'a>) -> Self::Fast<'a>;
}

impl FastArgs for () {
    type Fast<'a> = ();
    fn take(_: &Args<'_>) {}
}

impl FastArgs for Value {
    type Fast<'a> = FastArg<'a>;
    fn take<'a>(args: &Args<'a>) -> FastArg<'a> {
        args.get(0)
    }
}

impl<K: super::names::Declared> FastArgs for Name<K> {
    type Fast<'a> = Name<K, FastArg<'a>>;
    fn take<'a>(args: &Args<'a>) -> Self::Fast<'a> {
        Name::new(args.get(0))
    }
}

macro_rules! fast_tuple {
    ($($t:ident $i:tt),*) => {
        impl<$($t: OneArg),*> FastArgs for ($($t,)*) {
            type Fast<'a> = ($($t::Fast<'a>,)*);
            fn take<'a>(args: &Args<'a>) -> Self::Fast<'a> {
                ($($t::fast(args.get($i)),)*)
            }
        }
    };
}

fast_tuple!(A 0, B 1);
fast_tuple!(A 0, B 1, C 2);
fast_tuple!(A 0, B 1, C 2, D 3);

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
