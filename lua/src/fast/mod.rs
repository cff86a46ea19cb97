//! Fast entries (`csrc/fast.c`): a Lua function that hands a call whose arguments are all
//! plain values (nil, booleans, numbers and strings; at most four: [`Args`]) straight to
//! Rust, past mlua's generic callback (about 950 instructions of a `ludus.damage` call, 400
//! of them converting its arguments; about 1,000 of a `ludus.nearest`, its string made an
//! mlua value and dropped), and every other call, or one Rust does not take, to a generic
//! Lua function. Rust hands back up to two values ([`Results`]), which the entry returns.

use crate::abi::{FastKind, FastUpvalue, LudusArgs, LudusResults};
use mlua::{Function, LightUserData, Lua};
use std::ffi::{c_int, c_void};
use std::rc::Rc;

unsafe extern "C-unwind" {
    fn ludus_fast(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// One value a fast entry returns to the script.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastValue {
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
}

/// One argument of a fast call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastArg<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    Num(f64),
    /// A string's bytes, as Lua holds them.
    Str(&'a [u8]),
    /// A table of at most eight entries, each a string key and a plain value (a call takes
    /// the fast entry with one such table at most).
    Table(Entries<'a>),
}

/// The entries of a fast call's table argument ([`FastArg::Table`]), in the order Lua's
/// `next` walks them.
#[derive(Clone, Copy)]
pub struct Entries<'a>(&'a LudusArgs);

impl<'a> Entries<'a> {
    /// How many entries there are.
    pub fn len(&self) -> usize {
        usize::try_from(self.0.opts)
            .unwrap_or(0)
            .min(self.0.opt_kind.len())
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `i` (0-based): its key's bytes and its value.
    pub fn get(&self, i: usize) -> Option<(&'a [u8], FastArg<'a>)> {
        if i >= self.len() {
            return None;
        }
        let a = self.0;
        // SAFETY: `fast.c` sets the key's bytes to a Lua string's, a key of the table argument,
        // which keeps it for the whole call, so for `'a`.
        let key = unsafe { bytes(a.opt_key[i], a.opt_key_len[i]) }?;
        // SAFETY: likewise for a string value.
        let value = unsafe {
            plain(
                a.opt_kind[i],
                a.opt_whole[i],
                a.opt_number[i],
                a.opt_text[i],
                a.opt_len[i],
            )
        };
        Some((key, value))
    }

    /// Every entry, in order.
    pub fn iter(self) -> impl Iterator<Item = (&'a [u8], FastArg<'a>)> {
        (0..self.len()).filter_map(move |i| self.get(i))
    }
}

impl std::fmt::Debug for Entries<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Entries<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

/// `len` bytes from `text`; `None` where `text` is null.
///
/// # Safety
///
/// `text`, where not null, points to `len` readable bytes that stay for `'a`.
unsafe fn bytes<'a>(text: *const std::ffi::c_char, len: i64) -> Option<&'a [u8]> {
    if text.is_null() {
        return None;
    }
    let len = usize::try_from(len).unwrap_or(0);
    // SAFETY: as the function's contract says.
    Some(unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) })
}

/// A plain value from its kind (a [`FastKind`] code) and fields; nil for a code that is not
/// a plain value's.
///
/// # Safety
///
/// As [`bytes`] for a string's `text` and `len`.
unsafe fn plain<'a>(
    kind: i32,
    whole: i64,
    number: f64,
    text: *const std::ffi::c_char,
    len: i64,
) -> FastArg<'a> {
    // Matched on the codes themselves (`from_code` searches the list): read per argument.
    const BOOL: i32 = FastKind::Bool as i32;
    const INT: i32 = FastKind::Int as i32;
    const NUM: i32 = FastKind::Num as i32;
    const STR: i32 = FastKind::Str as i32;
    match kind {
        BOOL => FastArg::Bool(whole != 0),
        INT => FastArg::Int(whole),
        NUM => FastArg::Num(number),
        // SAFETY: as the function's contract says.
        STR => unsafe { bytes(text, len) }.map_or(FastArg::Nil, FastArg::Str),
        _ => FastArg::Nil,
    }
}

/// The arguments of a fast call (at most four).
pub struct Args<'a>(&'a LudusArgs);

impl<'a> Args<'a> {
    /// How many the call gave.
    pub fn len(&self) -> usize {
        usize::try_from(self.0.n)
            .unwrap_or(0)
            .min(self.0.kind.len())
    }

    /// Whether it gave none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Argument `i` (0-based); nil past those given.
    pub fn get(&self, i: usize) -> FastArg<'a> {
        if i >= self.len() {
            return FastArg::Nil;
        }
        let a = self.0;
        if a.kind[i] == FastKind::Table as i32 {
            return FastArg::Table(Entries(a));
        }
        // SAFETY: `fast.c` sets `text` and `len` to a Lua string's bytes, which the string (an
        // argument on the stack) keeps for the whole call, so for `'a`.
        unsafe { plain(a.kind[i], a.whole[i], a.number[i], a.text[i], a.len[i]) }
    }

    /// `file:line` of the innermost script function on the calling thread's stack (past C
    /// functions and the prelude, whose chunk is named `ludus`), as the generic function's
    /// caller gives it; `None` where there is none.
    pub fn caller(&self) -> Option<String> {
        use mlua::ffi;
        let state = self.0.state.cast::<ffi::lua_State>();
        if state.is_null() {
            return None;
        }
        for level in 1..64 {
            // SAFETY: `state` is the thread running the fast entry, which called the host and
            // is suspended in that call (so its stack is as the debug interface expects);
            // `ar` is filled by `lua_getstack` before `lua_getinfo` reads it, and the strings
            // read are in `ar` (`short_src`) for this iteration only.
            let frame = unsafe {
                let mut ar: ffi::lua_Debug = std::mem::zeroed();
                if ffi::lua_getstack(state, level, &mut ar) == 0 {
                    return None;
                }
                if ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut ar) == 0 {
                    continue;
                }
                let what = std::ffi::CStr::from_ptr(ar.what).to_bytes();
                let src = std::ffi::CStr::from_ptr(ar.short_src.as_ptr()).to_string_lossy();
                (what == b"C", src.into_owned(), ar.currentline)
            };
            match frame {
                (true, _, _) => continue,
                (_, src, _) if src == "ludus" => continue,
                (_, src, line) if line >= 0 => return Some(format!("{src}:{line}")),
                _ => continue,
            }
        }
        None
    }
}

/// The values a fast call returns (none for a command; at most two).
pub struct Results<'a>(&'a mut LudusResults);

impl Results<'_> {
    /// Adds a value; `false` (and nothing added) once two are there.
    pub fn push(&mut self, v: FastValue) -> bool {
        let Ok(i) = usize::try_from(self.0.n) else {
            return false;
        };
        if i >= self.0.kind.len() {
            return false;
        }
        let kind = match v {
            FastValue::Nil => FastKind::Nil,
            FastValue::Bool(b) => {
                self.0.whole[i] = i64::from(b);
                FastKind::Bool
            }
            FastValue::Int(n) => {
                self.0.whole[i] = n;
                FastKind::Int
            }
            FastValue::Num(x) => {
                self.0.number[i] = x;
                FastKind::Num
            }
        };
        self.0.kind[i] = kind as i32;
        self.0.n += 1;
        true
    }

    /// Adds a list of whole numbers, which the entry returns as a new table (`{ ids[1],
    /// ids[2], ... }`); `false` (and nothing added) once two values are there, or where the
    /// call has one already. The numbers are kept on this thread until the next call's list
    /// replaces them: the entry reads them after the host returns.
    pub fn push_ids(&mut self, ids: impl IntoIterator<Item = i64>) -> bool {
        let Ok(i) = usize::try_from(self.0.n) else {
            return false;
        };
        if i >= self.0.kind.len() || !self.0.ids.is_null() {
            return false;
        }
        IDS.with_borrow_mut(|kept| {
            kept.clear();
            kept.extend(ids);
            self.0.ids = kept.as_ptr();
            self.0.ids_len = kept.len() as i64;
        });
        self.0.kind[i] = FastKind::Ids as i32;
        self.0.n += 1;
        true
    }

    /// How many values are there.
    pub fn len(&self) -> usize {
        usize::try_from(self.0.n).unwrap_or(0)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

thread_local! {
    /// The list a fast call returns ([`Results::push_ids`]), kept for its room: the entry
    /// reads it after the host returns, before any other call can replace it (a state runs
    /// on one thread, one call at a time).
    static IDS: std::cell::RefCell<Vec<i64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What a fast entry calls.
pub trait FastCall: 'static {
    /// Handles a call of entry number `which` (as given to [`fast_entry`]) with `args`,
    /// pushing what it returns to `out`; `true` if it took the call. One that returns `false`
    /// must have changed nothing (what it pushed is dropped): the generic function then
    /// handles the call.
    fn call(&self, which: usize, args: &Args<'_>, out: &mut Results<'_>) -> bool;
}

/// `LudusFastCall` of `fast.c`: 0 when taken.
extern "C" fn trampoline<H: FastCall>(
    host: *const c_void,
    which: i64,
    args: *const LudusArgs,
    out: *mut LudusResults,
) -> c_int {
    const NOT_TAKEN: c_int = 1;
    let Ok(which) = usize::try_from(which) else {
        return NOT_TAKEN;
    };
    if host.is_null() || args.is_null() || out.is_null() {
        return NOT_TAKEN;
    }
    // SAFETY: `host` is the `H` of the `Rc` the entry was made with, alive as long as the Lua
    // state (see `fast_entry`) and used only on the thread that runs it; `args` and `out` are
    // `ludus_fast`'s, which nothing else touches during the call.
    let (host, args, out) = unsafe { (&*host.cast::<H>(), &*args, &mut *out) };
    out.n = 0;
    out.ids = std::ptr::null();
    out.ids_len = 0;
    if host.call(which, &Args(args), &mut Results(out)) {
        0
    } else {
        NOT_TAKEN
    }
}

/// Keeps the hosts of fast entries alive as long as the Lua state.
struct Hosts<H>(Vec<Rc<H>>);

/// A Lua function that calls `host.call(which, ...)` for calls whose arguments are plain
/// values, and `generic` (with the same arguments, returning its results) for every
/// other call and every call `host` does not take.
pub fn fast_entry<H: FastCall>(
    lua: &Lua,
    host: &Rc<H>,
    generic: Function,
    which: usize,
) -> mlua::Result<Function> {
    let kept = match lua.app_data_mut::<Hosts<H>>() {
        Some(mut hosts) => {
            if !hosts.0.iter().any(|h| Rc::ptr_eq(h, host)) {
                hosts.0.push(host.clone());
            }
            true
        }
        None => false,
    };
    if !kept {
        lua.set_app_data(Hosts(vec![host.clone()]));
    }
    let which = i64::try_from(which).map_err(mlua::Error::external)?;
    let call = trampoline::<H> as extern "C" fn(_, _, _, _) -> _;
    // Pushed in the order of their indices (1, 2, 3, 4).
    const _: () = assert!(
        FastUpvalue::Host as i32 == 1
            && FastUpvalue::Generic as i32 == 2
            && FastUpvalue::Which as i32 == 3
            && FastUpvalue::Call as i32 == 4
            && FastUpvalue::ALL.len() == 4
    );
    let upvalues = (
        LightUserData(Rc::as_ptr(host).cast_mut().cast::<c_void>()),
        generic,
        which,
        LightUserData(call as *mut c_void),
    );
    // SAFETY: `ludus_fast` is an ordinary Lua C function compiled into the same Lua library as
    // the VM, and the closure gets the upvalues it reads, in their order: the host, which the
    // state's app data keeps alive as long as the state (so as long as the closure); the
    // generic function; the number; and `trampoline::<H>`, whose signature is `fast.c`'s
    // `LudusFastCall` and which casts the host back to `H`, the type it was made for.
    unsafe {
        lua.exec_raw(upvalues, |state| {
            mlua::ffi::lua_pushcclosure(state, ludus_fast, FastUpvalue::ALL.len() as c_int);
        })
    }
}

#[cfg(test)]
mod tests;
