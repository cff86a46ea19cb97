//! What every call of the API's Rust half shares: why a call is refused ([`Bad`]), where the
//! calling script is, what a call costs, and how a refusal ends the stage.

use crate::shared::Shared;
use ludus_core::{CommandError, Fault, FaultKind};
use ludus_lua::Cause;
use mlua::{Lua, Value};

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
/// at Commit is told where it was sent from (`at`: the caller's `file:line`), for that fault.
pub(crate) fn spawned(
    g: &mut ludus_core::Gameplay<'_>,
    command: ludus_core::Command,
    at: &dyn Fn() -> Option<String>,
) -> Result<i64, Bad> {
    let id = g.send(command)?.unwrap_or(0);
    if g.wants_location() {
        g.locate(at());
    }
    Ok(id as i64)
}

/// Records a malformed call and returns the Lua error that interrupts the script; the stage
/// ends at the script's next instruction (even if it catches the error) with this fault.
pub(crate) fn malformed(lua: &Lua, shared: &Shared, name: &str, bad: Bad) -> mlua::Error {
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
pub(crate) fn charge(lua: &Lua, shared: &Shared, args: &[&Value]) -> mlua::Result<()> {
    shared.budget.charge(lua, call_cost(args), || caller(lua))
}

/// The error for `ludus.NAME` called outside a gameplay stage.
pub(crate) fn outside(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "ludus.{name} can only be used inside event handlers"
    ))
}
