//! The budget fence at the VM: bulk work is charged by its size, by the patched VM and the
//! library fences, and a spent meter refuses every further charge. (The count hook that
//! charges each instruction is the host's: `ludus-script`'s tests/budget.rs.)

mod support;

use ludus_lua::{Cause, Meter, sandboxed};
use std::rc::Rc;
use support::*;

/// Library calls and single instructions that do bulk work, each with the units it costs
/// (`S` and `T` are 64 KiB of text, `N` a table of 1,000 numbers in descending order).
const CHARGES: &[(&str, u64)] = &[
    ("local _ = tostring(1)", 1),
    ("local _ = ('x'):rep(16)", 20),
    ("local _ = string.rep('x', 4096)", 4803),
    ("local _ = string.rep('ab', 4096, ',')", 6336),
    ("local _ = S:upper()", 12227),
    ("local _ = S .. S", 8193),
    ("local _ = S == T", 4097),
    ("local _ = S < T", 8193),
    ("local _ = S:find('b', 1, true)", 4098),
    ("local _ = S:match('^x*')", 12290),
    ("local _ = S:gsub('x', 'y')", 25953),
    ("local _ = table.concat({ S, S, S })", 36806),
    ("local _ = select('#', table.unpack(N))", 1378),
    ("table.sort(N)", 21209),
    ("local _ = string.format('%s', S)", 8131),
    ("local _ = utf8.len(S)", 4097),
    ("local t = { [S] = 1 } local _ = t[T]", 8193),
];

#[test]
fn bulk_work_is_charged_by_its_size() {
    let mut got = Vec::new();
    for (code, _) in CHARGES {
        let (lua, meter) = vm(u64::MAX >> 2, 0);
        run(
            &lua,
            "S = ('x'):rep(65536) T = ('x'):rep(65536) N = {} for i = 1, 1000 do N[i] = -i end",
        )
        .expect("the inputs");
        meter.reset(1_000_000);
        run(&lua, code).unwrap_or_else(|e| panic!("{code}: {e}"));
        got.push((*code, meter.used()));
    }
    assert_eq!(got, CHARGES, "units charged per call");
}

#[test]
fn a_spent_meter_refuses_every_further_charge() {
    let (lua, meter) = vm(1000, 0);
    let spent = "instruction budget exceeded (1000 instructions per tick)";
    // Caught by pcall (each time): the error says why, and the meter stays spent.
    run(
        &lua,
        "FAILED = 0 for i = 1, 3 do \
           local ok, e = pcall(string.rep, 'x', 1e6) \
           if not ok then FAILED = FAILED + 1 E = e end \
         end",
    )
    .expect("pcall catches each");
    let g = lua.globals();
    assert_eq!(g.raw_get::<i64>("FAILED").ok(), Some(3), "every call fails");
    let e: String = g.raw_get("E").expect("the error");
    assert!(e.contains(spent), "the error: {e}");
    assert!(meter.exhausted(), "spent");
    assert_eq!(meter.cause(), Some(Cause::Budget));
    assert_eq!(
        meter.location().as_deref(),
        Some("test:1"),
        "where it ran out"
    );
    assert_eq!(meter.used(), 1000, "all of it, no more");
    // Any charge from now on raises, the smallest included (and no file compiles).
    let string: mlua::Table = g.raw_get("string").expect("string");
    let upper: mlua::Function = string.raw_get("upper").expect("string.upper");
    let err = upper.call::<String>("a").expect_err("a spent meter");
    assert!(err.to_string().contains(spent), "{err}");
    let err = run(&lua, "local _ = 1").expect_err("a compile");
    assert!(
        err.contains("compiling this file took more than the instruction budget"),
        "{err}"
    );
    // A new allowance runs again.
    meter.reset(1000);
    run(&lua, "local _ = tostring(1)").expect("a new allowance");
    assert_eq!(meter.cause(), None);
}

#[test]
fn a_vm_without_a_meter_is_not_charged() {
    let lua = sandboxed().expect("a sandboxed VM");
    run(
        &lua,
        "local s = string.rep('x', 1e6) local _ = s:upper() .. s",
    )
    .expect("no meter: no budget");
    // Installed later, it charges from then on.
    let meter = Rc::new(Meter::default());
    Meter::install(&meter, &lua);
    meter.reset(10);
    assert!(run(&lua, "local _ = string.rep('x', 1e6)").is_err());
}

/// `ipairs` over a table without a metatable steps inside the VM: the same iterations and
/// values as its iterator gives a table with a metatable (which the VM still calls), and the
/// same unit charged per step as that call from the loop.
#[test]
fn ipairs_steps_as_its_iterator_would() {
    // (the loop, over `T`; what it collects)
    let loops: &[(&str, &str)] = &[
        (
            "for i, v in ipairs(T) do OUT[#OUT + 1] = i .. '=' .. tostring(v) end",
            "1=10 2=false 3=x",
        ),
        ("for i in ipairs(T) do OUT[#OUT + 1] = i end", "1 2 3"),
        (
            "for i, v, w in ipairs(T) do OUT[#OUT + 1] = tostring(v) .. '/' .. tostring(w) end",
            "10/nil false/nil x/nil",
        ),
    ];
    for (body, want) in loops {
        let mut charged = Vec::new();
        for table in [
            "{ 10, false, 'x', nil, 50 }",
            "setmetatable({ 10, false, 'x', nil, 50 }, {})",
        ] {
            let (lua, meter) = vm(1_000_000, 0);
            run(&lua, &format!("T = {table} OUT = {{}}")).expect("the table");
            meter.reset(1_000_000);
            run(&lua, body).unwrap_or_else(|e| panic!("{body}: {e}"));
            charged.push(meter.used());
            let got = eval(&lua, "table.concat(OUT, ' ')");
            assert_eq!(got, *want, "{body} over {table}");
        }
        assert_eq!(charged[0], charged[1], "{body}: units, inline and called");
    }
    // A table whose __index supplies the values is read through it, as the iterator reads.
    let (lua, _) = vm(1_000_000, 0);
    run(
        &lua,
        "local t = setmetatable({}, { __index = function(_, k) if k <= 3 then return k * 2 end end }) \
         S = 0 for _, v in ipairs(t) do S = S + v end",
    )
    .expect("the loop");
    assert_eq!(eval(&lua, "S"), "Integer(12)");
    // A long loop costs one unit a step, one for the step that ends it and one for the call
    // of the chunk.
    let (lua, meter) = vm(1_000_000, 0);
    run(&lua, "T = {} for i = 1, 5000 do T[i] = i end").expect("the table");
    meter.reset(1_000_000);
    run(&lua, "for _ in ipairs(T) do end").expect("the loop");
    assert_eq!(meter.used(), 5002);
}

/// The host's objects with finalizers (every function the host makes is one) are finalized
/// at the collector's steps, which follow the heap's size in bytes and so differ between
/// builds; finalizing them charges the running script nothing, so the same script is charged
/// the same units whatever the host left for the collector.
#[test]
fn the_hosts_finalizers_are_not_charged() {
    let script = "local t = {} for i = 1, 2000 do t[i] = { tostring(i) .. 'x' } end \
                  local _ = string.rep('x', 4096)";
    let mut charged = Vec::new();
    for host_garbage in [0, 1, 50, 2000] {
        let (lua, meter) = vm(u64::MAX >> 2, 0);
        for _ in 0..host_garbage {
            drop(
                lua.create_function(|_, ()| Ok(()))
                    .expect("a host function"),
            );
        }
        meter.reset(1_000_000);
        run(&lua, script).expect("the script");
        charged.push((host_garbage, meter.used()));
    }
    let first = charged[0].1;
    assert!(
        charged.iter().all(|&(_, units)| units == first),
        "units charged by host garbage: {charged:?}"
    );
}
