//! The `ludus` API's Rust half.
//!
//! Every function of [`spec::API`] not written in Lua is created once per VM here, into the
//! table the prelude builds `ludus` from. Commands and reads reach the running stage's
//! [`Gameplay`] through the host's [`StageSlot`](crate::stage::StageSlot): a command is
//! converted from Lua values here and handed to `Gameplay::send`, which validates it against
//! the game definition and buffers it (one path, one validation); a read asks the stage. The
//! host keeps no copy of stage state.
//!
//! A malformed call (wrong type, unknown name, non-finite number, or a command core refuses)
//! raises a Lua error *and* is recorded, and the stage ends at the script's next instruction,
//! so it faults with the script's file and line even if the script catches the error. Every
//! call is charged to the budget.

mod args;
mod fast;
mod functions;
mod names;
pub mod spec;

use crate::shared::Shared;
use ludus_core::{CommandError, Fault, FaultKind, closest};
use ludus_lua::Cause;
use mlua::{Lua, Value};

use functions::FAST;
pub use functions::{API, install};

/// Why a call is refused: the fault kind and a sentence naming the argument.
pub(crate) struct Bad {
    kind: FaultKind,
    message: String,
}

impl From<String> for Bad {
    fn from(message: String) -> Self {
        Bad {
            kind: FaultKind::Script,
            message,
        }
    }
}

impl From<&str> for Bad {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

impl From<CommandError> for Bad {
    fn from(e: CommandError) -> Self {
        Bad {
            kind: e.kind,
            message: e.message,
        }
    }
}

/// `file:line` of the innermost script frame calling into the API.
pub(crate) fn caller(lua: &Lua) -> Option<String> {
    for level in 1..64 {
        let frame = lua.inspect_stack(level, |d| {
            let src = d.source();
            (
                src.what,
                src.short_src.as_deref().map(str::to_string),
                d.current_line(),
            )
        })?;
        match frame {
            ("C", _, _) => continue,
            (_, Some(src), _) if src == "ludus" => continue,
            (_, Some(src), Some(line)) => return Some(format!("{src}:{line}")),
            _ => continue,
        }
    }
    None
}

/// Sends a spawn and returns its id; a spawn that may leave the world over `[limits] entities`
/// at Commit is told where it was sent from, for that fault.
pub(crate) fn spawned(
    lua: &Lua,
    g: &mut ludus_core::Gameplay<'_>,
    command: ludus_core::Command,
) -> Result<i64, Bad> {
    let id = g.send(command)?.unwrap_or(0);
    if g.wants_location() {
        g.locate(caller(lua));
    }
    Ok(id as i64)
}

/// Records a malformed call and returns the Lua error that interrupts the script; the stage
/// ends at the script's next instruction (even if it catches the error) with this fault.
fn malformed(lua: &Lua, shared: &Shared, name: &str, bad: Bad) -> mlua::Error {
    let message = format!("ludus.{name}: {}", bad.message);
    let location = caller(lua);
    let mut fault = Fault::new(bad.kind, message.clone());
    if let Some(l) = &location {
        fault = fault.with_location(l.clone());
    }
    {
        let mut slot = shared.malformed.borrow_mut();
        if slot.is_none() {
            *slot = Some(fault);
        }
    }
    shared.budget.spend(lua, Cause::Host, || location.clone());
    match location {
        Some(l) => mlua::Error::runtime(format!("{l}: {message}")),
        None => mlua::Error::runtime(message),
    }
}

/// Budget units for an API call with these arguments: one, plus one per 16 bytes of string.
fn call_cost(args: &[&Value]) -> u64 {
    1 + args
        .iter()
        .map(|v| match v {
            Value::String(s) => s.as_bytes().len() as u64 / 16,
            _ => 0,
        })
        .sum::<u64>()
}

/// Charges an API call to the budget (see [`call_cost`]).
fn charge(lua: &Lua, shared: &Shared, args: &[&Value]) -> mlua::Result<()> {
    shared.budget.charge(lua, call_cost(args), || caller(lua))
}

/// The error for `ludus.NAME` called outside a gameplay stage.
fn outside(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "ludus.{name} can only be used inside event handlers"
    ))
}

/// The error for a `ludus.NAME` that does not exist, naming the closest one.
pub(crate) fn no_such_function(name: &str) -> String {
    let known = API.iter().map(|f| f.name);
    match closest(name, known) {
        Some(k) => format!("ludus.{name} does not exist (did you mean ludus.{k}?)"),
        None => format!("ludus.{name} does not exist (see docs/scripting.md for the API)"),
    }
}
