//! Fast entries (`csrc/fast.c`): a Lua function that hands a call whose arguments are all
//! whole numbers or nil (at most three) straight to Rust, past mlua's generic callback (about
//! 950 instructions of a `ludus.damage` call, 400 of them converting its arguments), and every
//! other call, or one Rust does not take, to a generic Lua function.

use crate::abi::FastUpvalue;
use mlua::{Function, LightUserData, Lua};
use std::ffi::{c_int, c_void};
use std::rc::Rc;

unsafe extern "C-unwind" {
    fn ludus_fast(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// What a fast entry calls.
pub trait FastCall: 'static {
    /// Handles a call of entry number `which` (as given to [`fast_entry`]) whose arguments are
    /// `args` (`None`: nil, or not given); `true` if it took the call. One that returns `false`
    /// must have changed nothing: the generic function then handles the call.
    fn call(&self, which: usize, args: [Option<i64>; 3]) -> bool;
}

/// `LudusFastCall` of `fast.c`: 0 when taken.
extern "C" fn trampoline<H: FastCall>(
    host: *const c_void,
    which: i64,
    args: *const i64,
    present: u32,
    n: c_int,
) -> c_int {
    const NOT_TAKEN: c_int = 1;
    let Ok(which) = usize::try_from(which) else {
        return NOT_TAKEN;
    };
    if host.is_null() || args.is_null() || !(0..=3).contains(&n) {
        return NOT_TAKEN;
    }
    // SAFETY: `host` is the `H` of the `Rc` the entry was made with, alive as long as the Lua
    // state (see `fast_entry`) and used only on the thread that runs it; `args` points to
    // `ludus_fast`'s three numbers.
    let (host, args) = unsafe { (&*host.cast::<H>(), std::slice::from_raw_parts(args, 3)) };
    let args = std::array::from_fn(|i| (present >> i & 1 != 0).then_some(args[i]));
    if host.call(which, args) { 0 } else { NOT_TAKEN }
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
    let call = trampoline::<H> as extern "C" fn(_, _, _, _, _) -> _;
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
        fn call(&self, which: usize, args: [Option<i64>; 3]) -> bool {
            self.calls.borrow_mut().push((which, args));
            !self.refuse.get()
        }
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
