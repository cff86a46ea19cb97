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

    /// How many values are there.
    pub fn len(&self) -> usize {
        usize::try_from(self.0.n).unwrap_or(0)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
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
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};

    /// An argument as the host saw it, owned.
    #[derive(Clone, Debug, PartialEq)]
    enum Saw {
        Nil,
        Bool(bool),
        Int(i64),
        Num(f64),
        Str(Vec<u8>),
        /// A table's entries, by key.
        Table(Vec<(Vec<u8>, Saw)>),
    }

    impl Saw {
        fn of(a: FastArg<'_>) -> Saw {
            match a {
                FastArg::Nil => Saw::Nil,
                FastArg::Bool(b) => Saw::Bool(b),
                FastArg::Int(n) => Saw::Int(n),
                FastArg::Num(x) => Saw::Num(x),
                FastArg::Str(s) => Saw::Str(s.to_vec()),
                FastArg::Table(t) => {
                    assert_eq!(t.get(t.len()), None, "no entry past the last");
                    let mut e: Vec<_> = t.iter().map(|(k, v)| (k.to_vec(), Saw::of(v))).collect();
                    e.sort_by(|a, b| a.0.cmp(&b.0));
                    Saw::Table(e)
                }
            }
        }
    }

    #[derive(Default)]
    struct Recorder {
        calls: RefCell<Vec<(usize, Vec<Saw>)>>,
        refuse: Cell<bool>,
    }

    impl FastCall for Recorder {
        /// Entry 8 returns its first argument (nil when absent or not a number) and then what
        /// its second says: 1 a boolean, 2 a number, 3 two more values (only one fits).
        fn call(&self, which: usize, args: &Args<'_>, out: &mut Results<'_>) -> bool {
            let saw = (0..args.len()).map(|i| Saw::of(args.get(i))).collect();
            self.calls.borrow_mut().push((which, saw));
            assert_eq!(args.get(args.len()), FastArg::Nil, "nil past the arguments");
            if which == 8 {
                assert!(out.is_empty());
                let first = match args.get(0) {
                    FastArg::Int(n) => FastValue::Int(n),
                    _ => FastValue::Nil,
                };
                assert!(out.push(first));
                match args.get(1) {
                    FastArg::Int(1) => assert!(out.push(FastValue::Bool(true))),
                    FastArg::Int(2) => assert!(out.push(FastValue::Num(-0.25))),
                    FastArg::Int(3) => {
                        assert!(out.push(FastValue::Bool(false)));
                        assert!(!out.push(FastValue::Int(9)), "two at most");
                    }
                    _ => {}
                }
            }
            !self.refuse.get()
        }
    }

    #[test]
    fn a_taken_call_returns_the_values_the_host_hands_back() {
        let lua = Lua::new();
        let host = Rc::new(Recorder::default());
        let generic = lua
            .create_function(|_, ()| Ok("generic"))
            .expect("a function");
        let f = fast_entry(&lua, &host, generic, 8).expect("an entry");
        lua.globals().set("f", f).expect("f");
        let table: &[(&str, &str)] = &[
            ("f(5)", "1 integer 5"),
            ("f()", "1 nil nil"),
            ("f(-7, 1)", "2 integer -7 boolean true"),
            ("f(4, 2)", "2 integer 4 float -0.25"),
            ("f(nil, 3)", "2 nil nil boolean false"),
            ("f(print)", "1 string generic"),
        ];
        let show = "local function show(...) local out = { select('#', ...) } \
            for i = 1, select('#', ...) do local v = select(i, ...) \
            out[#out + 1] = math.type(v) or type(v); out[#out + 1] = tostring(v) end \
            return table.concat(out, ' ') end ";
        for (call, want) in table {
            let got: String = lua
                .load(format!("{show} return show({call})"))
                .eval()
                .expect(call);
            assert_eq!(got, *want, "{call}");
        }
        // Refused, what the host pushed is dropped: the generic function answers.
        host.refuse.set(true);
        let got: String = lua.load("return f(1, 1)").eval().expect("f(1, 1)");
        assert_eq!(got, "generic");
    }

    /// A call's text, what it returns where the generic function answers, and what the host
    /// saw where it took the call.
    type Row = (&'static str, Option<&'static str>, Option<Vec<Saw>>);

    fn s(t: &str) -> Saw {
        Saw::Str(t.as_bytes().to_vec())
    }

    /// Makes each call of `table` to a fast entry (number 7) whose generic function returns
    /// `generic N` for N arguments, and checks what it returns and what the host saw.
    fn calls_as_in(table: &[Row]) {
        let lua = Lua::new();
        let host = Rc::new(Recorder::default());
        let generic = lua
            .create_function(|_, args: mlua::MultiValue| Ok(format!("generic {}", args.len())))
            .expect("a function");
        let f = fast_entry(&lua, &host, generic, 7).expect("an entry");
        lua.globals().set("f", f).expect("f");
        for (call, returns, saw) in table {
            host.calls.borrow_mut().clear();
            let got: Option<String> = lua.load(format!("return {call}")).eval().expect(call);
            assert_eq!(got.as_deref(), *returns, "{call} returns");
            let calls = host.calls.borrow().clone();
            assert_eq!(
                calls,
                saw.clone().map(|a| (7, a)).into_iter().collect::<Vec<_>>(),
                "{call}"
            );
        }
        // A call the host refuses goes to the generic function.
        host.refuse.set(true);
        let got: String = lua.load("return f(1)").eval().expect("f(1)");
        assert_eq!(got, "generic 1");
    }

    #[test]
    fn plain_calls_go_to_the_host_and_the_rest_to_the_generic_function() {
        calls_as_in(&[
            (
                "f(1, nil, 3)",
                None,
                Some(vec![Saw::Int(1), Saw::Nil, Saw::Int(3)]),
            ),
            ("f()", None, Some(vec![])),
            (
                "f(-9007199254740993)",
                None,
                Some(vec![Saw::Int(-9007199254740993)]),
            ),
            (
                "f(1.5, 2.0)",
                None,
                Some(vec![Saw::Num(1.5), Saw::Num(2.0)]),
            ),
            (
                "f('1', 'a\\0b', '')",
                None,
                Some(vec![s("1"), Saw::Str(b"a\0b".to_vec()), s("")]),
            ),
            (
                "f(true, false)",
                None,
                Some(vec![Saw::Bool(true), Saw::Bool(false)]),
            ),
            (
                "f(1, 2, 3, 'x')",
                None,
                Some(vec![Saw::Int(1), Saw::Int(2), Saw::Int(3), s("x")]),
            ),
            ("f(print)", Some("generic 1"), None),
            ("f(1, 2, 3, 4, 5)", Some("generic 5"), None),
        ]);
    }

    #[test]
    fn a_table_of_named_plain_values_goes_to_the_host_and_any_other_to_the_generic_function() {
        calls_as_in(&[
            (
                "f(1, {})",
                None,
                Some(vec![Saw::Int(1), Saw::Table(vec![])]),
            ),
            (
                "f('a', { vx = 1, vy = -2.5, name = 'x', on = false })",
                None,
                Some(vec![
                    s("a"),
                    Saw::Table(vec![
                        (b"name".to_vec(), s("x")),
                        (b"on".to_vec(), Saw::Bool(false)),
                        (b"vx".to_vec(), Saw::Int(1)),
                        (b"vy".to_vec(), Saw::Num(-2.5)),
                    ]),
                ]),
            ),
            (
                "f({ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8 })",
                None,
                Some(vec![Saw::Table(
                    (b'a'..=b'h')
                        .zip(1..)
                        .map(|(k, v)| (vec![k], Saw::Int(v)))
                        .collect(),
                )]),
            ),
            // A key of 40 bytes (a long string).
            (
                "f({ [string.rep('k', 40)] = 'v' })",
                None,
                Some(vec![Saw::Table(vec![(vec![b'k'; 40], s("v"))])]),
            ),
            // Nine entries, a key that is not a string, a value that is not plain, a second
            // table: the generic function's.
            (
                "f({ a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9 })",
                Some("generic 1"),
                None,
            ),
            ("f({ 1 })", Some("generic 1"), None),
            ("f({ x = 1, 2 })", Some("generic 1"), None),
            ("f({ [true] = 1 })", Some("generic 1"), None),
            ("f({ [0.5] = 1 })", Some("generic 1"), None),
            ("f({ size = { 1, 2 } })", Some("generic 1"), None),
            ("f({ f = print })", Some("generic 1"), None),
            ("f({}, {})", Some("generic 2"), None),
        ]);
    }
}
