//! The per-tick instruction budget, enforced by a count hook on every Lua thread.
//!
//! Two escapes are closed here:
//! - `pcall` catching the budget error: the handler runs in a coroutine owned by the host, and
//!   the hook *yields* it once the budget is spent; a yield unwinds through `pcall` back to Rust,
//!   which then discards the coroutine.
//! - coroutines the script creates: the hook is global (inherited by every thread), and on any
//!   thread other than the host's it raises an error instead of yielding (a yield there would
//!   only return to the script).
//!
//! Where a yield is impossible (inside a C function calling back into Lua, such as a
//! `table.sort` comparator), the hook raises an error. Once the budget is spent the hook of the
//! running thread is switched to fire on *every* instruction, so no Lua code can run outside a
//! `pcall` without raising again: the error climbs every level of protection and the stage
//! ends. The same hook guards a script's top-level code while it loads.

use mlua::{HookTriggers, Lua, VmState};
use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::rc::Rc;

/// Instructions between hook calls while the budget lasts.
pub(crate) const GRANULARITY: u32 = 1000;

/// Budget state shared by the hook and the host.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    remaining: Cell<i64>,
    limit: Cell<u64>,
    exceeded: Cell<bool>,
    yield_tried: Cell<bool>,
    /// The coroutine the host is running (its `to_pointer`), the only one the hook yields.
    thread: Cell<usize>,
    /// Where the budget ran out (`file:line`).
    location: RefCell<Option<String>>,
}

impl Budget {
    /// Starts a new allowance of `instructions` (a tick, or loading one script).
    pub fn reset(&self, instructions: u64) {
        self.remaining
            .set(i64::try_from(instructions).unwrap_or(i64::MAX));
        self.limit.set(instructions);
        self.exceeded.set(false);
        self.yield_tried.set(false);
        *self.location.borrow_mut() = None;
    }

    pub fn exceeded(&self) -> bool {
        self.exceeded.get()
    }

    pub fn limit(&self) -> u64 {
        self.limit.get()
    }

    pub fn location(&self) -> Option<String> {
        self.location.borrow().clone()
    }

    /// Instructions used since the last reset (to hook granularity).
    pub fn used(&self) -> u64 {
        let used = self.limit.get() as i64 - self.remaining.get();
        used.max(0) as u64
    }

    pub fn run_on(&self, thread: *const c_void) {
        self.thread.set(thread as usize);
    }
}

/// Installs the budget hook on `lua` (and, through inheritance, every thread created after).
pub(crate) fn install(lua: &Lua, budget: Rc<Budget>) -> mlua::Result<()> {
    let triggers = HookTriggers::new().every_nth_instruction(GRANULARITY);
    lua.set_global_hook(triggers, move |lua, debug| {
        if !budget.exceeded.get() {
            let left = budget.remaining.get() - i64::from(GRANULARITY);
            budget.remaining.set(left);
            if left > 0 {
                return Ok(VmState::Continue);
            }
            budget.exceeded.set(true);
            let source = debug.source();
            let file = source.short_src.as_deref().unwrap_or("?").to_string();
            let line = debug.current_line().unwrap_or(0);
            *budget.location.borrow_mut() = Some(format!("{file}:{line}"));
        }
        let state = lua.state();
        let on_host_thread = lua.current_thread().to_pointer() as usize == budget.thread.get();
        // SAFETY: `state` is the thread this hook is running on (mlua passes the hooked state
        // to callbacks); it stays valid for the duration of the hook. `lua_gethook`,
        // `lua_gethookmask`, `lua_gethookcount`, `lua_sethook` and `lua_isyieldable` only read
        // or replace the hook fields of that thread, which Lua allows from inside a hook.
        let yieldable = unsafe {
            if mlua::ffi::lua_gethookcount(state) != 1 {
                let hook = mlua::ffi::lua_gethook(state);
                let mask = mlua::ffi::lua_gethookmask(state);
                mlua::ffi::lua_sethook(state, hook, mask, 1);
            }
            mlua::ffi::lua_isyieldable(state) != 0
        };
        if on_host_thread && yieldable && !budget.yield_tried.get() {
            budget.yield_tried.set(true);
            return Ok(VmState::Yield);
        }
        Err(mlua::Error::runtime(format!(
            "instruction budget exceeded ({} instructions per tick)",
            budget.limit.get()
        )))
    })
}
