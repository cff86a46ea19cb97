//! The per-tick budget: a work meter shared by the count hook, the patched Lua VM, the C
//! library fences and the host API.
//!
//! The budget is counted in units: one per VM instruction (counted by a hook every
//! [`GRANULARITY`] instructions), plus the bulk work that one instruction or one C call can do,
//! charged by size where it happens (`csrc/ludus_fence.h` lists the rates: 16 bytes copied,
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

use mlua::{HookTriggers, Lua, VmState};
use std::cell::{Cell, UnsafeCell};
use std::ffi::{CStr, c_char, c_void};
use std::rc::Rc;

/// Instructions between hook calls while the budget lasts.
pub(crate) const GRANULARITY: u32 = 1000;

/// Why the meter ran out (`LUDUS_CAUSE_*` in `ludus_fence.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    Budget,
    Memory,
    /// The host ended the stage (a malformed command).
    Host,
}

/// `LudusMeter` of `csrc/ludus_fence.h`, field for field.
#[repr(C)]
struct Meter {
    remaining: i64,
    limit: i64,
    exhausted: i32,
    cause: i32,
    place: [c_char; 200],
}

unsafe extern "C" {
    fn ludus_set_meter(state: *mut mlua::ffi::lua_State, meter: *mut c_void);
}

/// Budget state shared by the hook, the host and (through the meter) the C side.
///
/// Invariant: the meter's address never changes (it is boxed) and it outlives the Lua state it
/// is installed in: [`install`] stores a clone of the `Rc` in the state's app data, which is
/// dropped only after the state is closed.
pub(crate) struct Budget {
    meter: Box<UnsafeCell<Meter>>,
    yield_tried: Cell<bool>,
    /// The coroutine the host is running (its `to_pointer`), the only one the hook yields.
    thread: Cell<usize>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            meter: Box::new(UnsafeCell::new(Meter {
                remaining: 0,
                limit: 0,
                exhausted: 0,
                cause: 0,
                place: [0; 200],
            })),
            yield_tried: Cell::new(false),
            thread: Cell::new(0),
        }
    }
}

impl Budget {
    fn meter(&self) -> *mut Meter {
        self.meter.get()
    }

    /// Starts a new allowance of `units` (a tick, or loading one script).
    pub fn reset(&self, units: u64) {
        let limit = i64::try_from(units).unwrap_or(i64::MAX);
        // SAFETY: the meter is only touched on the thread that runs this Lua state, and no C
        // code runs while the host resets it.
        unsafe {
            let m = &mut *self.meter();
            m.remaining = limit;
            m.limit = limit;
            m.exhausted = 0;
            m.cause = 0;
            m.place[0] = 0;
        }
        self.yield_tried.set(false);
    }

    pub fn exceeded(&self) -> bool {
        // SAFETY: see `reset`.
        unsafe { (*self.meter()).exhausted != 0 }
    }

    pub fn cause(&self) -> Option<Cause> {
        // SAFETY: see `reset`.
        let (exhausted, cause) = unsafe { ((*self.meter()).exhausted, (*self.meter()).cause) };
        match (exhausted, cause) {
            (0, _) => None,
            (_, 2) => Some(Cause::Memory),
            (_, 3) => Some(Cause::Host),
            _ => Some(Cause::Budget),
        }
    }

    pub fn limit(&self) -> u64 {
        // SAFETY: see `reset`.
        unsafe { (*self.meter()).limit.max(0) as u64 }
    }

    /// Where the budget ran out (`file:line`), if known.
    pub fn location(&self) -> Option<String> {
        // SAFETY: `place` is always NUL-terminated: zeroed at reset, written by snprintf.
        let text = unsafe { CStr::from_ptr((*self.meter()).place.as_ptr()) };
        let text = text.to_string_lossy();
        (!text.is_empty()).then(|| text.into_owned())
    }

    fn set_location(&self, location: &str) {
        // SAFETY: see `reset`; at most 199 bytes are written, then a NUL.
        unsafe {
            let place = &mut (*self.meter()).place;
            if place[0] != 0 {
                return;
            }
            let n = location.len().min(place.len() - 1);
            for (dst, src) in place.iter_mut().zip(&location.as_bytes()[..n]) {
                *dst = *src as c_char;
            }
            place[n] = 0;
        }
    }

    /// Units used since the last reset.
    pub fn used(&self) -> u64 {
        // SAFETY: see `reset`.
        let m = unsafe { &*self.meter() };
        (m.limit - m.remaining).max(0) as u64
    }

    pub fn run_on(&self, thread: *const c_void) {
        self.thread.set(thread as usize);
    }

    /// Whether [`charge`](Self::charge) would take `units` without running out.
    pub fn fits(&self, units: u64) -> bool {
        // SAFETY: see `reset`.
        let m = unsafe { &*self.meter() };
        m.exhausted == 0 && units < m.remaining.max(0) as u64
    }

    /// Takes `units` that [`fits`](Self::fits) said fit (nothing ran since).
    pub fn take_fitting(&self, units: u64) {
        debug_assert!(self.fits(units), "checked just before");
        // SAFETY: see `reset`.
        let m = unsafe { &mut *self.meter() };
        m.remaining = m.remaining.saturating_sub(units as i64);
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
        // SAFETY: see `reset`.
        let m = unsafe { &mut *self.meter() };
        if m.exhausted == 0 && units < m.remaining.max(0) as u64 {
            m.remaining -= units as i64;
            return Ok(());
        }
        self.spend(lua, Cause::Budget, location);
        Err(self.error())
    }

    /// Ends the stage at the next instruction for `cause` (see [`Budget::charge`]).
    pub fn spend(&self, lua: &Lua, cause: Cause, location: impl FnOnce() -> Option<String>) {
        // SAFETY: see `reset`.
        let m = unsafe { &mut *self.meter() };
        m.remaining = 0;
        if m.exhausted == 0 {
            m.exhausted = 1;
            m.cause = match cause {
                Cause::Budget => 1,
                Cause::Memory => 2,
                Cause::Host => 3,
            };
            if let Some(l) = location() {
                self.set_location(&l);
            }
        }
        arm(lua.state());
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

/// Makes the count hook of `state` fire at its next instruction.
fn arm(state: *mut mlua::ffi::lua_State) {
    // SAFETY: `state` is the running thread of a live Lua state (mlua hands it to hooks and
    // callbacks). `lua_gethook`, `lua_gethookmask` and `lua_sethook` only read or replace the
    // hook fields of that thread, which Lua allows from hooks and C functions alike.
    unsafe {
        let mask = mlua::ffi::lua_gethookmask(state);
        if mask & mlua::ffi::LUA_MASKCOUNT != 0 && mlua::ffi::lua_gethookcount(state) != 1 {
            let hook = mlua::ffi::lua_gethook(state);
            mlua::ffi::lua_sethook(state, hook, mask, 1);
        }
    }
}

/// Keeps the meter alive as long as the Lua state (see [`Budget`]).
struct MeterOwner(#[allow(dead_code)] Rc<Budget>);

/// Installs the meter and the budget hook on `lua` (and, through inheritance, every thread).
pub(crate) fn install(lua: &Lua, budget: Rc<Budget>) -> mlua::Result<()> {
    // SAFETY: the meter is boxed inside `budget`, which the app data keeps alive until the
    // state is closed; `ludus_set_meter` only writes the pointer into the main thread's extra
    // space, which Lua reserves for the embedder.
    unsafe { ludus_set_meter(lua.state(), budget.meter().cast()) };
    lua.set_app_data(MeterOwner(budget.clone()));
    let triggers = HookTriggers::new().every_nth_instruction(GRANULARITY);
    lua.set_global_hook(triggers, move |lua, debug| {
        if !budget.exceeded() {
            // SAFETY: see `Budget::reset`.
            let m = unsafe { &mut *budget.meter() };
            m.remaining -= i64::from(GRANULARITY);
            if m.remaining > 0 {
                return Ok(VmState::Continue);
            }
            m.remaining = 0;
            m.exhausted = 1;
            m.cause = 1;
        }
        if budget.location().is_none() {
            let source = debug.source();
            let file = source.short_src.as_deref().unwrap_or("?");
            if file != "ludus" {
                let line = debug.current_line().unwrap_or(0);
                budget.set_location(&format!("{file}:{line}"));
            }
        }
        let state = lua.state();
        arm(state);
        let on_host_thread = lua.current_thread().to_pointer() as usize == budget.thread.get();
        // SAFETY: `state` is the thread this hook runs on; `lua_isyieldable` only reads it.
        let yieldable = unsafe { mlua::ffi::lua_isyieldable(state) != 0 };
        if on_host_thread && yieldable && !budget.yield_tried.get() {
            budget.yield_tried.set(true);
            return Ok(VmState::Yield);
        }
        Err(budget.error())
    })
}
