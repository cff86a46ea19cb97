//! The memory fence at the VM: a memory error spends the meter (so the host ends the stage
//! even if a script catches it), and buffers are charged before they grow, so a small
//! allowance stops a huge string before it is allocated whatever memory allows.

mod support;

use ludus_lua::Cause;
use support::*;

#[test]
fn a_memory_error_spends_the_meter() {
    let (lua, meter) = vm(1 << 40, 4 << 20);
    run(
        &lua,
        "local t = {}\n\
         CAUGHT = not pcall(function() for i = 1, 1e9 do t[i] = { i } end end)",
    )
    .expect("pcall catches it");
    assert_eq!(lua.globals().raw_get::<bool>("CAUGHT").ok(), Some(true));
    assert_eq!(meter.cause(), Some(Cause::Memory), "the cause");
    assert_eq!(meter.location().as_deref(), Some("test:2"), "where");
    // From now on every charge raises, naming the memory limit.
    let string: mlua::Table = lua.globals().raw_get("string").expect("string");
    let rep: mlua::Function = string.raw_get("rep").expect("string.rep");
    let err = rep.call::<String>(("x", 2)).expect_err("a spent meter");
    assert!(
        err.to_string()
            .contains("the script memory limit was exceeded"),
        "{err}"
    );
}

/// Each call would build a string of a gigabyte or more; an allowance of 10,000 units pays
/// for about 160 KB, so each stops with the budget error before it allocates it, although
/// memory has no limit.
#[test]
fn buffers_are_charged_before_they_grow() {
    let cases = [
        "local _ = string.rep('x', 1 << 30)",
        "local _ = string.rep('x', 1 << 20, string.rep('y', 1 << 10))",
        "local t = {} for i = 1, 3000 do t[i] = '' end \
         local _ = table.concat(t, string.rep('s', 1 << 20))",
        "local _ = string.pack('c2000000000', 'a')",
        "local _ = string.format('%s%s', string.rep('x', 1 << 20), string.rep('y', 1 << 30))",
        "local s = string.rep('x', 1 << 16) local _ = s:gsub('x', s)",
    ];
    for code in cases {
        let (lua, meter) = vm(10_000, 0);
        let err = run(&lua, code).expect_err(code);
        assert!(err.contains("instruction budget exceeded"), "{code}: {err}");
        assert_eq!(meter.cause(), Some(Cause::Budget), "{code}");
        assert!(
            lua.used_memory() < 4 << 20,
            "{code}: {} bytes in use",
            lua.used_memory()
        );
    }
}
