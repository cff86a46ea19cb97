//! Fast entries (`csrc/fast.c`): a Lua function that hands a call whose arguments are all
//! whole numbers or nil (at most three) straight to Rust, past mlua's generic callback (about
//! 950 instructions of a `ludus.damage` call, 400 of them converting its arguments; about 600
//! of a `ludus.pos`), and every other call, or one Rust does not take, to a generic Lua
//! function. Rust hands back up to two values ([`Results`]), which the entry returns.

use crate::abi::{FastResult, FastUpvalue, LudusResults};
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
            FastValue::Nil => FastResult::Nil,
            FastValue::Bool(b) => {
                self.0.whole[i] = i64::from(b);
                FastResult::Bool
            }
            FastValue::Int(n) => {
                self.0.whole[i] = n;
                FastResult::Int
            }
            FastValue::Num(x) => {
                self.0.number[i] = x;
                FastResult::Num
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
    /// Handles a call of entry number `which` (as given to [`fast_entry`]) whose arguments are
    /// `args` (`None`: nil, or not given), pushing what it returns to `out`; `true` if it took
    /// the call. One that returns `false` must have changed nothing (what it pushed is
    /// dropped): the generic function then handles the call.
    fn call(&self, which: usize, args: [Option<i64>; 3], out: &mut Results<'_>) -> bool;
}

/// `LudusFastCall` of `fast.c`: 0 when taken.
extern "C" fn trampoline<H: FastCall>(
    host: *const c_void,
    which: i64,
    args: *const i64,
    present: u32,
    n: c_int,
    out: *mut LudusResults,
) -> c_int {
    const NOT_TAKEN: c_int = 1;
    let Ok(which) = usize::try_from(which) else {
        return NOT_TAKEN;
    };
    if host.is_null() || args.is_null() || out.is_null() || !(0..=3).contains(&n) {
        return NOT_TAKEN;
    }
    // SAFETY: `host` is the `H` of the `Rc` the entry was made with, alive as long as the Lua
    // state (see `fast_entry`) and used only on the thread that runs it; `args` points to
    // `ludus_fast`'s three numbers and `out` to its results, which nothing else touches
    // during the call.
    let (host, args, out) = unsafe {
        (
            &*host.cast::<H>(),
            std::slice::from_raw_parts(args, 3),
            &mut *out,
        )
    };
    out.n = 0;
    let args = std::array::from_fn(|i| (present >> i & 1 != 0).then_some(args[i]));
    if host.call(which, args, &mut Results(out)) {
        0
    } else {
        NOT_TAKEN
    }
}

/// Keeps the hosts of fast entries alive as long as the Lua state.
struct Hosts<H>(Vec<Rc<H>>);

/// A Lua function that calls `host.call(which, ...)` for calls whose arguments are whole
/// numbers or nil, and `generic` (with the same arguments, returning its results) for every
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
    let call = trampoline::<H> as extern "C" fn(_, _, _, _, _, _) -> _;
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

    #[derive(Default)]
    struct Recorder {
        calls: RefCell<Vec<(usize, [Option<i64>; 3])>>,
        refuse: Cell<bool>,
    }

    impl FastCall for Recorder {
        /// Entry 8 returns its first argument (nil when absent) and then what its second
        /// says: 1 a boolean, 2 a number, 3 two more values (only one fits).
        fn call(&self, which: usize, args: [Option<i64>; 3], out: &mut Results<'_>) -> bool {
            self.calls.borrow_mut().push((which, args));
            if which == 8 {
                assert!(out.is_empty());
                assert!(out.push(args[0].map_or(FastValue::Nil, FastValue::Int)));
                match args[1] {
                    Some(1) => assert!(out.push(FastValue::Bool(true))),
                    Some(2) => assert!(out.push(FastValue::Num(-0.25))),
                    Some(3) => {
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
            ("f(1.5)", "1 string generic"),
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

    #[test]
    fn plain_calls_go_to_the_host_and_the_rest_to_the_generic_function() {
        let lua = Lua::new();
        let host = Rc::new(Recorder::default());
        let generic = lua
            .create_function(|_, args: mlua::MultiValue| Ok(format!("generic {}", args.len())))
            .expect("a function");
        let f = fast_entry(&lua, &host, generic, 7).expect("an entry");
        lua.globals().set("f", f).expect("f");
        // (call, what it returns, what the host saw)
        type Row = (&'static str, Option<&'static str>, Option<[Option<i64>; 3]>);
        let table: &[Row] = &[
            ("f(1, nil, 3)", None, Some([Some(1), None, Some(3)])),
            ("f()", None, Some([None, None, None])),
            (
                "f(-9007199254740993)",
                None,
                Some([Some(-9007199254740993), None, None]),
            ),
            ("f(1.5)", Some("generic 1"), None),
            ("f(2.0)", Some("generic 1"), None),
            ("f('1')", Some("generic 1"), None),
            ("f(1, {})", Some("generic 2"), None),
            ("f(1, 2, 3, 4)", Some("generic 4"), None),
        ];
        for (call, returns, saw) in table {
            host.calls.borrow_mut().clear();
            let got: Option<String> = lua.load(format!("return {call}")).eval().expect(call);
            assert_eq!(got.as_deref(), *returns, "{call} returns");
            let calls = host.calls.borrow().clone();
            assert_eq!(
                calls,
                saw.map(|a| (7, a)).into_iter().collect::<Vec<_>>(),
                "{call}"
            );
        }
        // A call the host refuses goes to the generic function.
        host.refuse.set(true);
        let got: String = lua.load("return f(1)").eval().expect("f(1)");
        assert_eq!(got, "generic 1");
    }
}
