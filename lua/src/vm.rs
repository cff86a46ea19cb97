//! The sandboxed VM: which libraries exist and their fences (`csrc/fence.c`).
//!
//! Scripts get the base library without `load`, `loadfile`, `dofile` and `collectgarbage`;
//! `table`, `string` (without `dump`), `math`, `utf8` and `coroutine`. There is no `io`, `os`,
//! `package`, `debug`, `require` or bytecode (the host loads chunks in text mode only). The
//! library functions whose work grows with their arguments are fenced: they charge the meter
//! for that work, `tostring` and `string.format` never show an address, `setmetatable`
//! refuses `__gc` and `__mode`, and `rawset` refuses the tables [`freeze`] made read-only.
//! The string metatable is hidden (`getmetatable("")` is `false`) and its methods come from a
//! copy of `string` that no script can reach.

use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value};
use std::ffi::c_int;

unsafe extern "C" {
    fn ludus_array_int(t: *mut std::ffi::c_void, i: i64, v: i64) -> c_int;
    fn ludus_holds_function(t: *const std::ffi::c_void, key: *const std::ffi::c_char) -> c_int;
}

unsafe extern "C-unwind" {
    fn ludus_fence_open(state: *mut mlua::ffi::lua_State) -> c_int;
    fn ludus_freeze(state: *mut mlua::ffi::lua_State) -> c_int;
}

/// A C function of `csrc/fence.c` as a Lua function.
fn fence_function(
    lua: &Lua,
    f: unsafe extern "C-unwind" fn(*mut mlua::ffi::lua_State) -> c_int,
) -> mlua::Result<Function> {
    // SAFETY: the functions of fence.c are ordinary Lua C functions compiled into the same Lua
    // library as the VM: they only use the Lua C API on the state they are called with, check
    // their arguments' types and report problems as Lua errors, and keep no global state.
    unsafe { lua.create_c_function(f) }
}

/// A new table with the same fields and metatable as `t`.
pub fn shallow_copy(lua: &Lua, t: &Table) -> mlua::Result<Table> {
    let copy = lua.create_table()?;
    copy_fields(lua, t, &copy)?;
    copy.set_metatable(t.metatable())?;
    Ok(copy)
}

/// Sets every field of `from` in `into`, raw, in `from`'s `next` order (so `into` is laid
/// out as a copy made through `pairs` would be), in one protected call: through mlua each
/// field became two values with registry references and a protected store, about 3,000
/// machine instructions a field, most of a script environment's making.
pub fn copy_fields(lua: &Lua, from: &Table, into: &Table) -> mlua::Result<()> {
    // SAFETY: the closure runs in protected mode (a memory error unwinds to mlua as an
    // `Err`) with `from` and `into` at stack indices 1 and 2, and needs three slots beyond
    // them (mlua's `exec_raw` checks that many): the key, its value and the key's copy.
    // `lua_next` is given back each key it gave (untouched), and every store is raw, so no
    // metamethod runs. It leaves the two tables, which `exec_raw` drops.
    unsafe {
        lua.exec_raw::<()>((from, into), |state| {
            mlua::ffi::lua_pushnil(state);
            while mlua::ffi::lua_next(state, 1) != 0 {
                mlua::ffi::lua_pushvalue(state, -2);
                mlua::ffi::lua_insert(state, -2);
                mlua::ffi::lua_rawset(state, 2);
            }
        })
    }
}

/// A VM with only the libraries scripts may use, fenced (see the module documentation).
pub fn sandboxed() -> mlua::Result<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::new())?;
    let g = lua.globals();
    for name in [
        "load",
        "loadfile",
        "dofile",
        "collectgarbage",
        "require",
        "loadstring",
    ] {
        g.raw_set(name, Value::Nil)?;
    }
    for name in ["io", "os", "package", "debug"] {
        g.raw_set(name, Value::Nil)?;
    }
    let string: Table = g.raw_get("string")?;
    string.raw_set("dump", Value::Nil)?;
    fence_function(&lua, ludus_fence_open)?.call::<()>(g.clone())?;
    // String methods (`s:upper()`) come from a copy that no script can reach or change.
    let meta: Table = lua
        .load("return getmetatable('')")
        .set_mode(mlua::chunk::ChunkMode::Text)
        .call(())?;
    meta.raw_set("__index", shallow_copy(&lua, &string)?)?;
    meta.raw_set("__metatable", false)?;
    Ok(lua)
}

/// `freeze(t)`: the fenced `rawset` refuses `t` from then on (a table whose metatable already
/// refuses other writes is then read-only).
pub fn freeze(lua: &Lua) -> mlua::Result<Function> {
    fence_function(lua, ludus_freeze)
}

/// `t[i] = v` where slot `i` (from 1) lies in `t`'s array part, written in place: no
/// allocation, no metamethod, no protected call (mlua's `raw_set` runs one where the state
/// has a memory limit: about 870 instructions); `false`, with nothing done, for any other
/// slot (the caller sets it otherwise). Only while no Lua code runs on the state.
pub fn set_in_array(t: &Table, i: usize, v: i64) -> bool {
    let Ok(i) = i64::try_from(i) else {
        return false;
    };
    // SAFETY: `to_pointer` of a table is its `Table` (lua_topointer), alive while `t` is;
    // no Lua code runs while the host holds `t` outside a call, and `ludus_array_int` writes
    // an integer into an existing slot of the array part only (checked against its size).
    unsafe { ludus_array_int(t.to_pointer().cast_mut(), i, v) != 0 }
}

/// Tables asked whether they hold a function at one of some keys (a script's environments,
/// the handlers' names), each asked by a raw look-up in place: mlua's `raw_get` pushes both
/// and converts (about 340 instructions), and taking a table's pointer and a string's bytes
/// through mlua for each look-up cost about 200 more than the look-up itself.
///
/// Invariant: each pointer is the one its table ([`Table::to_pointer`]) or string (its bytes,
/// inside its `TString`) had when it was added, and the table or string is kept beside it: Lua
/// never moves a table or a string while it lives, so the pointer stays its own.
pub struct Holders {
    tables: Vec<(Table, *const std::ffi::c_void)>,
    keys: Vec<(mlua::LuaString, *const std::ffi::c_char)>,
}

impl Holders {
    /// No tables yet, and `keys`, asked by their place.
    pub fn new(keys: Vec<mlua::LuaString>) -> Holders {
        let keys = keys
            .into_iter()
            .map(|k| {
                let bytes = k.as_bytes().as_ptr().cast();
                (k, bytes)
            })
            .collect();
        Holders {
            tables: Vec::new(),
            keys,
        }
    }

    /// Asks `t` too, after the tables added before.
    pub fn add(&mut self, t: Table) {
        let at = t.to_pointer();
        self.tables.push((t, at));
    }

    /// The tables, in the order they were added.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.iter().map(|(t, _)| t)
    }

    /// Key `k`.
    pub fn key(&self, k: usize) -> &mlua::LuaString {
        &self.keys[k].0
    }

    /// Whether any table holds a function at key `k`, read raw. Only while no Lua code runs
    /// on the state.
    pub fn any(&self, k: usize) -> bool {
        let (key, bytes) = &self.keys[k];
        self.tables.iter().any(|(t, at)| {
            // SAFETY: `at` is `t`'s `Table` and `bytes` the string's own bytes, at `contents`
            // in its `TString`, both alive while kept here (the invariant);
            // `ludus_holds_function` reads them only (a raw look-up).
            match unsafe { ludus_holds_function(*at, *bytes) } {
                1 => true,
                0 => false,
                // Not a short string: the look-up through mlua.
                _ => matches!(t.raw_get::<Value>(key), Ok(Value::Function(_))),
            }
        })
    }
}

/// A new array of `items` (`{ items[1], items[2], ... }`), made and filled in one protected
/// call: mlua's `create_sequence_from` protects each element's store on its own (a protected
/// call an element) when the state has a memory limit. The table is sized for `items` at
/// once, as mlua's is, so it takes the same memory.
pub fn sequence(lua: &Lua, items: &[i64]) -> mlua::Result<Table> {
    let n = c_int::try_from(items.len())
        .map_err(|_| mlua::Error::runtime("too many items for one table"))?;
    // SAFETY: the closure runs in protected mode (a memory error unwinds to mlua as an
    // `Err`), needs three stack slots (mlua's `exec_raw` checks that many), and leaves exactly
    // the new table on the stack, which `exec_raw` returns.
    unsafe {
        lua.exec_raw((), |state| {
            mlua::ffi::lua_createtable(state, n, 0);
            for (i, &v) in items.iter().enumerate() {
                mlua::ffi::lua_pushinteger(state, v);
                mlua::ffi::lua_rawseti(state, -2, i as mlua::ffi::lua_Integer + 1);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_read_and_written_in_place_as_raw_get_and_raw_set_do() {
        let lua = Lua::new();
        let t: Table = lua
            .load("local t = { 1, 2, 3, on_tick = function() end, on_x = 5 }; return t")
            .eval()
            .expect("a table");
        let name = |s: &str| lua.create_string(s).expect("a string");
        let long = "on_".repeat(20);
        let with_long: Table = lua
            .load(format!("return {{ {long} = function() end }}"))
            .eval()
            .expect("a table");
        let keys = ["on_tick", "on_x", "on_missing", long.as_str()];
        let mut holders = Holders::new(keys.iter().map(|k| name(k)).collect());
        // (key, held by `t` alone, by `t` or the table with the long key)
        let cases = [
            (0, true, true),
            (1, false, false),
            (2, false, false),
            (3, false, true),
        ];
        for (k, alone, either) in cases {
            holders.add(t.clone());
            assert_eq!(holders.any(k), alone, "{}", keys[k]);
            holders.add(with_long.clone());
            assert_eq!(holders.any(k), either, "{}", keys[k]);
            holders = Holders::new(keys.iter().map(|k| name(k)).collect());
        }
        assert!(!Holders::new(vec![name("on_tick")]).any(0), "no tables");
        // A function set after the table was added, once the table has grown (its parts
        // moved, the table itself not), is found; one set to nil is not.
        let grown: Table = lua
            .load("return { on_tick = function() end }")
            .eval()
            .expect("a table");
        holders.add(grown.clone());
        for i in 0..100 {
            grown.raw_set(format!("k{i}"), i).expect("a field");
        }
        let f = lua.create_function(|_, ()| Ok(())).expect("a function");
        grown.raw_set("on_x", f).expect("a field");
        grown.raw_set("on_tick", Value::Nil).expect("a field");
        assert!(holders.any(1) && !holders.any(0));
        // Slots 1 to 3 are the array part's; 4 is not, nor 0.
        assert!(set_in_array(&t, 2, 20) && set_in_array(&t, 3, -3));
        assert!(!set_in_array(&t, 4, 4) && !set_in_array(&t, 0, 0));
        let got: Vec<Option<i64>> = (0..=4).map(|i| t.raw_get(i).expect("a value")).collect();
        assert_eq!(got, [None, Some(1), Some(20), Some(-3), None]);
    }

    #[test]
    fn a_sequence_is_the_array_of_its_items_and_a_memory_error_is_an_error() {
        let lua = Lua::new();
        for items in [
            vec![],
            vec![7],
            (0..1000).map(|i| i * 3 - 500).collect::<Vec<i64>>(),
        ] {
            let t = sequence(&lua, &items).expect("a table");
            assert_eq!(t.raw_len(), items.len());
            let got: Vec<i64> = t.sequence_values().collect::<mlua::Result<_>>().unwrap();
            assert_eq!(got, items);
            let same = lua.create_sequence_from(items.iter().copied()).unwrap();
            assert_eq!(same.raw_len(), t.raw_len());
        }
        lua.set_memory_limit(lua.used_memory() + 4096).unwrap();
        let big: Vec<i64> = (0..100_000).collect();
        assert!(matches!(
            sequence(&lua, &big),
            Err(mlua::Error::MemoryError(_))
        ));
        // The state is still usable.
        lua.set_memory_limit(0).unwrap();
        assert_eq!(sequence(&lua, &[1, 2]).unwrap().raw_len(), 2);
    }

    /// The copy a `pairs` loop of `raw_set`s made: the same fields, met in the same order by
    /// `next` (the same insertions into a table made the same way), a metamethod of the
    /// target not run, and a memory error an error.
    #[test]
    fn copied_fields_are_the_fields_a_pairs_loop_copies_in_its_order() {
        let lua = Lua::new();
        let src: Table = lua
            .load(
                "local t = setmetatable({}, { __index = function() return 1 end })
                 for i = 1, 300 do t['k' .. (i * 7919 % 1000)] = i end
                 for i = 1, 50 do t[i] = -i end
                 t[2.5], t[true] = 'half', 'yes'
                 t.k7 = nil
                 return t",
            )
            .eval()
            .unwrap();
        let by_pairs = lua.create_table().unwrap();
        for pair in src.pairs::<Value, Value>() {
            let (k, v) = pair.unwrap();
            by_pairs.raw_set(k, v).unwrap();
        }
        let copied = lua.create_table().unwrap();
        let seen: Table = lua.create_table().unwrap();
        let meta = lua.create_table().unwrap();
        let hits = seen.clone();
        meta.raw_set(
            "__newindex",
            lua.create_function(move |_, (_t, k): (Value, Value)| hits.raw_set(k, true))
                .unwrap(),
        )
        .unwrap();
        copied.set_metatable(Some(meta)).unwrap();
        copy_fields(&lua, &src, &copied).unwrap();
        assert_eq!(seen.pairs::<Value, Value>().count(), 0, "no metamethod ran");
        let order = |t: &Table| -> Vec<String> {
            t.pairs::<Value, Value>()
                .map(|p| format!("{:?}", p.unwrap()))
                .collect()
        };
        assert_eq!(order(&copied), order(&by_pairs));
        assert_eq!(order(&copied).len(), 352);
        let copy = shallow_copy(&lua, &src).unwrap();
        assert_eq!(order(&copy), order(&by_pairs));
        assert!(copy.metatable().is_some());

        lua.set_memory_limit(lua.used_memory() + 1024).unwrap();
        let into = lua.create_table().unwrap();
        assert!(matches!(
            copy_fields(&lua, &src, &into),
            Err(mlua::Error::MemoryError(_))
        ));
        lua.set_memory_limit(0).unwrap();
    }
}
