//! The sandbox fence at the VM: only the libraries scripts may use, no finalizers or weak
//! tables, read-only tables `rawset` cannot write, and a string metatable no script reaches.

mod support;

use ludus_lua::freeze;
use support::*;

#[test]
fn only_the_script_libraries_are_there() {
    let (lua, _) = vm(1 << 40, 0);
    let table: &[(&str, &str)] = &[
        ("type(io)", "nil"),
        ("type(os)", "nil"),
        ("type(package)", "nil"),
        ("type(debug)", "nil"),
        ("type(require)", "nil"),
        ("type(load)", "nil"),
        ("type(loadfile)", "nil"),
        ("type(dofile)", "nil"),
        ("type(loadstring)", "nil"),
        ("type(collectgarbage)", "nil"),
        ("type(string.dump)", "nil"),
        ("type(string)", "table"),
        ("type(table)", "table"),
        ("type(math)", "table"),
        ("type(utf8)", "table"),
        ("type(coroutine)", "table"),
        ("type(pcall)", "function"),
        ("type(setmetatable)", "function"),
    ];
    for (code, want) in table {
        assert_eq!(eval(&lua, code), *want, "{code}");
    }
}

#[test]
fn finalizers_and_weak_tables_are_refused() {
    let (lua, _) = vm(1 << 40, 0);
    let table: &[(&str, &str)] = &[
        (
            "setmetatable({}, { __gc = function() end })",
            "setmetatable: __gc finalizers are not available to scripts (they would run \
             outside the instruction budget)",
        ),
        (
            "setmetatable({}, { __mode = 'k' })",
            "setmetatable: weak tables (__mode) are not available to scripts (they show when \
             the garbage collector ran, which differs between runs)",
        ),
    ];
    for (code, message) in table {
        let err = run(&lua, code).expect_err(code);
        assert!(
            err.starts_with(&format!("test:1: {message}")),
            "{code}: {err}"
        );
    }
    run(&lua, "setmetatable({}, { __index = {} })").expect("other metatables");
}

#[test]
fn frozen_tables_refuse_rawset() {
    let (lua, _) = vm(1 << 40, 0);
    let frozen = lua.create_table().expect("a table");
    freeze(&lua)
        .expect("freeze")
        .call::<()>(frozen.clone())
        .expect("frozen");
    lua.globals().raw_set("F", frozen).expect("F");
    let err = run(&lua, "rawset(F, 'k', 1)").expect_err("frozen");
    assert!(
        err.starts_with("test:1: rawset: this table is read-only"),
        "{err}"
    );
    run(&lua, "local t = {} rawset(t, 'k', 1) assert(t.k == 1)").expect("other tables");
}

#[test]
fn the_string_metatable_is_hidden() {
    let (lua, _) = vm(1 << 40, 0);
    assert_eq!(eval(&lua, "getmetatable('')"), "Boolean(false)");
    // Methods come from a copy: replacing `string.upper` does not change `s:upper()`.
    run(&lua, "string.upper = function() return 'evil' end").expect("a global write");
    assert_eq!(eval(&lua, "('a'):upper()"), "A");
    let err = run(&lua, "getmetatable('').__index = {}").expect_err("hidden");
    assert!(err.contains("attempt to index"), "{err}");
}
