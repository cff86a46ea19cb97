//! The work meter: one allowance of budget units shared by the count hook, the patched VM,
//! the C library fences and the host (`csrc/ludus_fence.h` lists what costs what).
//!
//! A [`Meter`] owns one [`LudusMeter`] (its layout declared in `abi.rs`, the same struct the
//! C reads and writes) and hands out only safe operations on it.

use crate::abi::{Cause, LudusMeter};
use mlua::Lua;
use std::cell::UnsafeCell;
use std::ffi::{CStr, c_char, c_void};
use std::rc::Rc;

unsafe extern "C" {
    fn ludus_set_meter(state: *mut mlua::ffi::lua_State, meter: *mut c_void);
}

/// See the module documentation.
///
/// # Safety
/// - The struct is boxed, so its address never changes; [`Meter::install`] keeps an `Rc` of
///   the meter in the Lua state's app data, so it outlives every use the C makes of it (the
///   app data is dropped only after the state is closed).
/// - The C touches it only while Lua runs on the thread that owns the state, and never while
///   one of these methods runs (none calls into Lua), so the `&mut` each method takes for its
///   own duration is the only reference in use. `Meter` is not `Sync`, and it is installed
///   from an `Rc` (not `Send`), so it stays on that thread.
pub struct Meter {
    raw: Box<UnsafeCell<LudusMeter>>,
}

impl Default for Meter {
    fn default() -> Self {
        Meter {
            raw: Box::new(UnsafeCell::new(LudusMeter {
                remaining: 0,
                limit: 0,
                exhausted: 0,
                cause: 0,
                place: [0; 200],
            })),
        }
    }
}

impl Meter {
    /// Runs `f` on the struct.
    fn with<R>(&self, f: impl FnOnce(&mut LudusMeter) -> R) -> R {
        // SAFETY: see the type documentation: no other reference is in use while `f` holds
        // this one (`f` is one of the methods below, which call nothing that reaches Lua, and
        // none of them calls another inside `f`).
        f(unsafe { &mut *self.raw.get() })
    }

    /// Makes `meter` the meter of every thread of `lua` (the C charges it from now on) and
    /// keeps it alive as long as `lua`.
    pub fn install(meter: &Rc<Meter>, lua: &Lua) {
        lua.set_app_data(MeterOwner(meter.clone()));
        // SAFETY: `ludus_set_meter` only writes the pointer into the main thread's extra space,
        // which Lua reserves for the embedder; the meter lives as long as the state (above).
        unsafe { ludus_set_meter(lua.state(), meter.raw.get().cast()) };
    }

    /// Starts a new allowance of `units`: nothing spent, no cause, no place.
    pub fn reset(&self, units: u64) {
        let limit = i64::try_from(units).unwrap_or(i64::MAX);
        self.with(|m| {
            m.remaining = limit;
            m.limit = limit;
            m.exhausted = 0;
            m.cause = 0;
            m.place[0] = 0;
        });
    }

    /// Whether the allowance is spent.
    pub fn exhausted(&self) -> bool {
        self.with(|m| m.exhausted != 0)
    }

    /// Why the allowance was spent; `None` while it is not.
    pub fn cause(&self) -> Option<Cause> {
        let (exhausted, cause) = self.with(|m| (m.exhausted, m.cause));
        match (exhausted, Cause::from_code(i64::from(cause))) {
            (0, _) => None,
            (_, Some(c)) => Some(c),
            (_, None) => Some(Cause::Budget),
        }
    }

    /// Units in the whole allowance.
    pub fn limit(&self) -> u64 {
        self.with(|m| m.limit.max(0) as u64)
    }

    /// Units used since the last reset.
    pub fn used(&self) -> u64 {
        self.with(|m| (m.limit - m.remaining).max(0) as u64)
    }

    /// Where the allowance ran out (`file:line`), if known.
    pub fn location(&self) -> Option<String> {
        self.with(|m| {
            let text = CStr::from_bytes_until_nul(bytes_of(&m.place)).unwrap_or_default();
            let text = text.to_string_lossy();
            (!text.is_empty()).then(|| text.into_owned())
        })
    }

    /// Records where the allowance ran out, unless a place is known already; at most 199
    /// bytes are kept.
    pub fn set_location(&self, location: &str) {
        self.with(|m| {
            let place = &mut m.place;
            if place[0] != 0 {
                return;
            }
            let n = location.len().min(place.len() - 1);
            for (dst, src) in place.iter_mut().zip(&location.as_bytes()[..n]) {
                *dst = *src as c_char;
            }
            place[n] = 0;
        });
    }

    /// Whether [`take`](Self::take) would take `units` without running out.
    pub fn fits(&self, units: u64) -> bool {
        self.with(|m| m.exhausted == 0 && units < m.remaining.max(0) as u64)
    }

    /// Takes `units` if they [fit](Self::fits); `false` (and nothing taken) if not.
    pub fn take(&self, units: u64) -> bool {
        self.with(|m| {
            let fits = m.exhausted == 0 && units < m.remaining.max(0) as u64;
            if fits {
                m.remaining -= units as i64;
            }
            fits
        })
    }

    /// Takes the `units` the count hook counted; once nothing is left the allowance is spent
    /// (cause [`Cause::Budget`]) and it returns `false`.
    pub fn count(&self, units: u64) -> bool {
        let units = i64::try_from(units).unwrap_or(i64::MAX);
        self.with(|m| {
            m.remaining = m.remaining.saturating_sub(units);
            if m.remaining > 0 {
                return true;
            }
            m.remaining = 0;
            m.exhausted = 1;
            m.cause = Cause::Budget as i32;
            false
        })
    }

    /// Spends the allowance for `cause`; `true` if it was not spent before (the cause is then
    /// `cause`; otherwise the first cause stays).
    pub fn spend(&self, cause: Cause) -> bool {
        self.with(|m| {
            m.remaining = 0;
            if m.exhausted != 0 {
                return false;
            }
            m.exhausted = 1;
            m.cause = cause as i32;
            true
        })
    }
}

/// The bytes of a C `char` array.
fn bytes_of(chars: &[c_char]) -> &[u8] {
    // SAFETY: `c_char` is `i8` or `u8`, of the same size and alignment as `u8`, and every bit
    // pattern is a valid `u8`.
    unsafe { std::slice::from_raw_parts(chars.as_ptr().cast::<u8>(), chars.len()) }
}

/// Keeps a meter alive as long as the Lua state it is installed in.
struct MeterOwner(#[allow(dead_code)] Rc<Meter>);

/// Makes the count hook of the running thread of `lua` fire at its next instruction (where
/// the hook ends the stage), if a count hook is set.
pub fn arm(lua: &Lua) {
    let state = lua.state();
    // SAFETY: `state` is the running thread of a live Lua state. `lua_gethook`,
    // `lua_gethookmask`, `lua_gethookcount` and `lua_sethook` only read or replace the hook
    // fields of that thread, which Lua allows from hooks and C functions alike.
    unsafe {
        let mask = mlua::ffi::lua_gethookmask(state);
        if mask & mlua::ffi::LUA_MASKCOUNT != 0 && mlua::ffi::lua_gethookcount(state) != 1 {
            let hook = mlua::ffi::lua_gethook(state);
            mlua::ffi::lua_sethook(state, hook, mask, 1);
        }
    }
}

/// Starts the instruction count of `thread`'s hook afresh (the instructions to its next call
/// back at the hook's full interval), as a new thread's starts: a finished coroutine reused
/// for the next stage meters exactly as a new one would. Only for a thread whose hook is not
/// armed ([`arm`]): one the budget ran out in is not reused.
pub fn rewind_hook(thread: &mlua::Thread) {
    // A thread's `to_pointer` is its `lua_State` (`lua_topointer` of a thread).
    let state = thread
        .to_pointer()
        .cast_mut()
        .cast::<mlua::ffi::lua_State>();
    // SAFETY: `state` is a thread of a live Lua state, kept alive by `thread`, and not
    // running (the host calls this between stages). Setting a thread's hook to what it is
    // only resets its count (`lua_sethook`'s `resethookcount`).
    unsafe {
        let hook = mlua::ffi::lua_gethook(state);
        let mask = mlua::ffi::lua_gethookmask(state);
        let count = mlua::ffi::lua_gethookcount(state);
        mlua::ffi::lua_sethook(state, hook, mask, count);
    }
}

/// Whether the running thread of `lua` can yield (a coroutine not inside a C call).
pub fn yieldable(lua: &Lua) -> bool {
    // SAFETY: `state` is the running thread of a live Lua state; `lua_isyieldable` only
    // reads it.
    unsafe { mlua::ffi::lua_isyieldable(lua.state()) != 0 }
}
