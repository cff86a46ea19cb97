//! Lua errors to faults that name the script file and line.

use ludus_core::{Fault, FaultKind};

/// Splits a Lua error message of the form `path:line: message` into location and message.
pub(crate) fn split_location(message: &str) -> (Option<String>, String) {
    let first = message.lines().next().unwrap_or("");
    // The location is the longest prefix `x:N:` where N is a number.
    let mut search = 0;
    while let Some(i) = first[search..].find(':') {
        let colon = search + i;
        let rest = &first[colon + 1..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() && rest[digits.len()..].starts_with(':') {
            let loc = &first[..colon + 1 + digits.len()];
            let msg = rest[digits.len() + 1..].trim_start();
            let tail: Vec<&str> = message.lines().skip(1).collect();
            let mut text = msg.to_string();
            if !tail.is_empty() {
                text.push('\n');
                text.push_str(&tail.join("\n"));
            }
            return (Some(loc.to_string()), text);
        }
        search = colon + 1;
    }
    (None, message.to_string())
}

/// The message with its stack traceback (if any) cut to the game's own frames: the host's
/// prelude (`ludus:`) and C functions are left out, and a traceback that would only repeat
/// the fault's location is left out entirely.
fn game_frames(message: &str) -> String {
    let Some((head, trace)) = message.split_once("\nstack traceback:\n") else {
        return message.to_string();
    };
    let frames: Vec<String> = trace
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("[C]") && !l.starts_with("ludus:") && !l.starts_with('('))
        .map(|l| l.replace(" in local 'h'", " in a handler"))
        .collect();
    if frames.len() <= 1 {
        return head.to_string();
    }
    let mut out = format!("{head}\nstack traceback:");
    for f in frames {
        out.push_str("\n\t");
        out.push_str(&f);
    }
    out
}

/// A fault from a plain message that may start with a location.
pub(crate) fn script_fault(kind: FaultKind, message: &str) -> Fault {
    let message = game_frames(message);
    let (location, message) = split_location(&message);
    let f = Fault::new(kind, message);
    match location {
        Some(l) => f.with_location(l),
        None => f,
    }
}

/// A fault from an mlua error: runtime errors keep their `file:line`, callback errors are
/// unwrapped to the script-level cause, memory errors name the limit.
pub(crate) fn fault_from_lua(e: &mlua::Error, kind: FaultKind, _budget: Option<u64>) -> Fault {
    match e {
        mlua::Error::MemoryError(_) => Fault::new(
            kind,
            "the script memory limit was exceeded (raise [scripts] memory, or look for a table \
             that grows without bound)",
        ),
        mlua::Error::SyntaxError { message, .. } => script_fault(FaultKind::Load, message),
        mlua::Error::RuntimeError(m) => script_fault(kind, m),
        mlua::Error::CallbackError { traceback, cause } => {
            let mut f = fault_from_lua(cause, kind, None);
            if f.location.is_none() {
                // The traceback's first Lua frame names the calling script.
                for line in traceback.lines().skip(1) {
                    let (loc, _) = split_location(line.trim());
                    if let Some(loc) =
                        loc.filter(|l| !l.starts_with('[') && !l.starts_with("ludus:"))
                    {
                        f = f.with_location(loc);
                        break;
                    }
                }
            }
            f
        }
        other => script_fault(kind, &other.to_string()),
    }
}

/// `file:line` of the innermost script frame on a coroutine's stack (an error leaves a failed
/// coroutine's stack in place). The host's prelude (`ludus`) and C functions are skipped.
pub(crate) fn stack_location(thread: &mlua::Thread) -> Option<String> {
    let state = thread.state();
    for level in 0..64 {
        // SAFETY: `state` belongs to `thread`, which is alive for this call; `lua_getstack` and
        // `lua_getinfo` only read its call stack, which is not running (the coroutine failed or
        // is suspended), and `ar` is a plain struct they fill.
        let (found, source, line) = unsafe {
            let mut ar: mlua::ffi::lua_Debug = std::mem::zeroed();
            if mlua::ffi::lua_getstack(state, level, &mut ar) == 0 {
                return None;
            }
            if mlua::ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut ar) == 0 {
                (false, String::new(), 0)
            } else {
                let src = std::ffi::CStr::from_ptr(ar.short_src.as_ptr())
                    .to_string_lossy()
                    .into_owned();
                (true, src, ar.currentline)
            }
        };
        if found && line > 0 && source != "ludus" && !source.starts_with('[') {
            return Some(format!("{source}:{line}"));
        }
    }
    None
}

/// `file:line` where the handler the host's dispatch (in the prelude) was delivering events to
/// is defined, read from the failed coroutine's stack: for a fault in the host's own code
/// (decoding a batch of events, say, when the memory limit runs out there), where no script
/// frame is running. The dispatch keeps that handler in its local `h`.
pub(crate) fn handler_location(thread: &mlua::Thread) -> Option<String> {
    let state = thread.state();
    for level in 0..16 {
        // SAFETY: as in `stack_location`; besides, `lua_getlocal` pushes the local's value
        // (and `lua_getinfo` with '>' pops it) on the coroutine's own stack, checked for room
        // first, and every value pushed is popped before the next step.
        let found = unsafe {
            let mut ar: mlua::ffi::lua_Debug = std::mem::zeroed();
            if mlua::ffi::lua_getstack(state, level, &mut ar) == 0 {
                return None;
            }
            if mlua::ffi::lua_getinfo(state, c"S".as_ptr(), &mut ar) == 0
                || std::ffi::CStr::from_ptr(ar.short_src.as_ptr()).to_bytes() != b"ludus"
                || mlua::ffi::lua_checkstack(state, 2) == 0
            {
                continue;
            }
            let mut found = None;
            for n in 1..64 {
                let name = mlua::ffi::lua_getlocal(state, &ar, n);
                if name.is_null() {
                    break;
                }
                let is_handler = std::ffi::CStr::from_ptr(name).to_bytes() == b"h"
                    && mlua::ffi::lua_type(state, -1) == mlua::ffi::LUA_TFUNCTION;
                if !is_handler {
                    mlua::ffi::lua_pop(state, 1);
                    continue;
                }
                let mut info: mlua::ffi::lua_Debug = std::mem::zeroed();
                if mlua::ffi::lua_getinfo(state, c">S".as_ptr(), &mut info) != 0
                    && info.linedefined > 0
                {
                    let src = std::ffi::CStr::from_ptr(info.short_src.as_ptr()).to_string_lossy();
                    found = Some(format!("{src}:{}", info.linedefined));
                }
                break;
            }
            found
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracebacks_keep_the_game_frames_only() {
        let m = "scripts/a.lua:2: boom\nstack traceback:\n\t[C]: in function 'error'\n\t\
                 scripts/a.lua:2: in function 'f'\n\tscripts/a.lua:5: in local 'h'\n\t\
                 ludus:154: in function <ludus:149>";
        assert_eq!(
            game_frames(m),
            "scripts/a.lua:2: boom\nstack traceback:\n\tscripts/a.lua:2: in function 'f'\n\t\
             scripts/a.lua:5: in a handler"
        );
        let one = "x.lua:1: boom\nstack traceback:\n\t[C]: in ?\n\tx.lua:1: in local 'h'";
        assert_eq!(game_frames(one), "x.lua:1: boom");
        assert_eq!(game_frames("no trace"), "no trace");
    }

    #[test]
    fn locations_are_split_from_messages() {
        assert_eq!(
            split_location("scripts/main.lua:12: attempt to index a nil value"),
            (
                Some("scripts/main.lua:12".into()),
                "attempt to index a nil value".into()
            )
        );
        assert_eq!(
            split_location("C:/game/x.lua:3: boom"),
            (Some("C:/game/x.lua:3".into()), "boom".into())
        );
        assert_eq!(split_location("no location"), (None, "no location".into()));
    }
}
