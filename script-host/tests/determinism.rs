//! The determinism fence, through the host: nothing a script can see shows an address or when
//! the garbage collector ran (weak tables), errors included. Hash order, the sort and math at
//! the VM: ludus-lua's tests/determinism.rs.

mod support;

use support::hostile::*;
use support::*;

// Weak tables show when the collector ran.
#[test]
fn weak_table() {
    Case::on_start("setmetatable({}, { __mode = 'k' })").faults("weak tables", 1);
}

// No address, by any route.
#[test]
fn format_p_with_width() {
    Case::on_start("string.format('%10p', {})").faults("%p is not available", 1);
}

#[test]
fn format_p_with_flags() {
    Case::on_start("string.format('%-5p', print)").faults("%p is not available", 1);
}

#[test]
fn fake_metatable_and_name() {
    Case::on_start(
        "local t = setmetatable({}, { __name = 'X', __metatable = { __tostring = 1 } }) \
              local a, b = tostring(t), string.format('%s|%5s', t, coroutine.create(print)) \
              if a == 'X' and b == 'X|thread' then ludus.set('ok', 1) end",
    )
    .runs();
}

#[test]
fn error_objects_are_shown_without_an_address() {
    let cases: &[(&str, &str)] = &[
        ("error({})", "table"),
        ("error(print)", "function"),
        ("error(function() end)", "function"),
        ("error(coroutine.create(print))", "thread"),
        ("error(setmetatable({}, { __name = 'Foo' }))", "Foo"),
        (
            "error(setmetatable({}, { __tostring = function() error({}) end }))",
            "table",
        ),
        (
            "error(setmetatable({}, { __tostring = function() error('inner') end }))",
            "table",
        ),
        (
            "error(setmetatable({}, { __tostring = function() return {} end }))",
            "table",
        ),
        (
            "error(setmetatable({}, { __tostring = function() return 'a custom error' end }))",
            "a custom error",
        ),
        ("local ok, e = pcall(error, {}) error(e)", "table"),
    ];
    let mut failures = Vec::new();
    for (body, message) in cases {
        match Case::on_start(*body).memory(64).outcome() {
            Ok(Err(f))
                if f.message == *message && f.location.as_deref() == Some("scripts/main.lua:1") => {
            }
            other => failures.push(format!(
                "{body}: expected {message:?} at line 1, got {other:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_error_objects_looping_tostring_runs_under_the_budget() {
    let looping = "error(setmetatable({}, { __tostring = function() while true do end end }))";
    match Case::on_start(looping).memory(64).outcome() {
        Ok(Err(f)) if f.message.contains(BUDGET) && !f.message.contains("0x") => {}
        other => panic!("{looping}: got {other:?}"),
    }
}

#[test]
fn error_objects_at_load_are_shown_without_an_address() {
    // At load, outside any handler, as in a handler.
    let mut failures = Vec::new();
    for (src, message) in [("error({})", "table"), ("error(print)", "function")] {
        match game_with(def(), &[("scripts/main.lua", src)], &[]) {
            Err(f) if f.message == message && !f.to_string().contains("0x") => {}
            other => failures.push(format!("{src} at load: got {:?}", other.err())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
