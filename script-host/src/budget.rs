//! The per-tick budget: a work meter shared by the count hook, the patched Lua VM, the C
//! library fences and the host API.
//!
//! The budget is counted in units: one per VM instruction (counted by a hook every
//! [`GRANULARITY`] instructions), plus the bulk work that one instruction or one C call can do,
//! charged by size where it happens (`lua/csrc/ludus_fence.h` lists the rates: 16 bytes copied,
//! compared or scanned, 8 values moved or 8 pattern steps cost one unit). So a tick's wall time
//! is bounded by its budget whatever the script does: a loop of cheap instructions and a single
//! call that copies megabytes both run out.
//!
//! Escapes closed here:
//! - `pcall` catching the budget error: the handler runs in a coroutine owned by the host, and
//!   the hook *yields* it once the budget is spent; a yield unwinds through `pcall` back to Rust,
//!   which then discards the coroutine.
//! - coroutines the script creates: the hook is global (inherited by every thread), and on any
//!   thread other than the host's it raises an error instead of yielding (a yield there would
//!   only return to the script).
//! - a budget spent inside C code (a charge, a memory error, a malformed command): the meter is
//!   marked exhausted and the count hook armed to fire on the next instruction.
//!
//! Where a yield is impossible (inside a C function calling back into Lua, such as a
//! `table.sort` comparator), the hook raises an error. Once the budget is spent the hook of the
//! running thread fires on *every* instruction and every charge raises, so no Lua code can run
//! outside a `pcall` without raising again: the error climbs every level of protection and the
//! stage ends. The same hook guards a script's top-level code while it loads.

use ludus_lua::{Cause, Meter, arm, yieldable};
use mlua::{HookTriggers, Lua, VmState};
use std::cell::Cell;
use std::ffi::c_void;
use std::rc::Rc;

/// Instructions between hook calls while the budget lasts.
pub(crate) const GRANULARITY: u32 = 1000;

/// Budget state shared by the hook, the host and (through the meter) the C side.
#[derive(Default)]
pub(crate) struct Budget {
    meter: Rc<Meter>,
    yield_tried: Cell<bool>,
    /// The coroutine the host is running (its `to_pointer`), the only one the hook yields.
    thread: Cell<usize>,
}

impl Budget {
    /// Starts a new allowance of `units` (a tick, or loading one script).
    pub fn reset(&self, units: u64) {
        self.meter.reset(units);
        self.yield_tried.set(false);
    }

    pub fn exceeded(&self) -> bool {
        self.meter.exhausted()
    }

    pub fn cause(&self) -> Option<Cause> {
        self.meter.cause()
    }

    pub fn limit(&self) -> u64 {
        self.meter.limit()
    }

    /// Where the budget ran out (`file:line`), if known.
    pub fn location(&self) -> Option<String> {
        self.meter.location()
    }

    /// Units used since the last reset.
    pub fn used(&self) -> u64 {
        self.meter.used()
    }

    pub fn run_on(&self, thread: *const c_void) {
        self.thread.set(thread as usize);
    }

    /// Whether [`take_fitting`](Self::take_fitting) would take `units`.
    pub fn fits(&self, units: u64) -> bool {
        self.meter.fits(units)
    }

    /// Takes `units` that [`fits`](Self::fits) said fit (nothing ran since).
    pub fn take_fitting(&self, units: u64) {
        let taken = self.meter.take(units);
        debug_assert!(taken, "checked just before");
    }

    /// Takes `units` for work done by the host on a script's behalf (an API call and the bytes
    /// it reads). `Err` when the budget is spent: the caller raises it as a Lua error, and the
    /// running thread's hook is armed so the stage ends at the next instruction.
    pub fn charge(
        &self,
        lua: &Lua,
        units: u64,
        location: impl FnOnce() -> Option<String>,
    ) -> mlua::Result<()> {
        if self.meter.take(units) {
            return Ok(());
        }
        self.spend(lua, Cause::Budget, location);
        Err(self.error())
    }

    /// Ends the stage at the next instruction for `cause` (see [`Budget::charge`]).
    pub fn spend(&self, lua: &Lua, cause: Cause, location: impl FnOnce() -> Option<String>) {
        if self.meter.spend(cause)
            && let Some(l) = location()
        {
            self.meter.set_location(&l);
        }
        arm(lua);
    }

    /// The error a spent budget raises.
    pub fn error(&self) -> mlua::Error {
        match self.cause() {
            Some(Cause::Memory) => mlua::Error::runtime("the script memory limit was exceeded"),
            _ => mlua::Error::runtime(format!(
                "instruction budget exceeded ({} instructions per tick)",
                self.limit()
            )),
        }
    }
}

/// Installs the meter and the budget hook on `lua` (and, through inheritance, every thread).
pub(crate) fn install(lua: &Lua, budget: Rc<Budget>) -> mlua::Result<()> {
    Meter::install(&budget.meter, lua);
    let triggers = HookTriggers::new().every_nth_instruction(GRANULARITY);
    lua.set_global_hook(triggers, move |lua, debug| {
        let meter = &budget.meter;
        if !meter.exhausted() && meter.count(u64::from(GRANULARITY)) {
            return Ok(VmState::Continue);
        }
        if meter.location().is_none() {
            let source = debug.source();
            let file = source.short_src.as_deref().unwrap_or("?");
            if file != "ludus" {
                let line = debug.current_line().unwrap_or(0);
                meter.set_location(&format!("{file}:{line}"));
            }
        }
        arm(lua);
        let on_host_thread = lua.current_thread().to_pointer() as usize == budget.thread.get();
        if on_host_thread && yieldable(lua) && !budget.yield_tried.get() {
            budget.yield_tried.set(true);
            return Ok(VmState::Yield);
        }
        Err(budget.error())
    })
}
