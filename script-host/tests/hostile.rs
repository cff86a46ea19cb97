//! Hostile scripts: each snippet tries to hang, exhaust or crash the host, or to see an
//! address, or to reach another script. Each must end within a wall-time bound (a hang is a
//! failure, not a slow test) in a clean fault that names the script's file and line, or run
//! with the fence holding. `worst_cases_under_a_memory_limit` runs the heaviest ones again in a
//! child process under `ulimit -v` and checks that it exits normally (no abort).

mod support;

use ludus_core::*;
use std::sync::mpsc;
use std::time::Duration;
use support::*;

/// How long one case may take before it counts as a hang (debug builds, a busy machine).
const HANG: Duration = Duration::from_secs(60);

enum Expect {
    /// A fault whose message contains the text, at `scripts/main.lua:LINE`.
    Fault(&'static str, u32),
    /// A fault whose message contains the text, at the given `file:line`.
    FaultAt(&'static str, &'static str),
    /// No fault; the game variable `ok` ends as 1.
    Ok,
}

struct Case {
    name: &'static str,
    /// The body of `on_start`, whose first line is line 1 of scripts/main.lua.
    src: &'static str,
    modules: &'static [(&'static str, &'static str)],
    expect: Expect,
}

const BUDGET: &str = "instruction budget exceeded";

const CASES: &[Case] = &[
    // 1. Finalizers would run with hooks off.
    Case {
        name: "gc_finalizer",
        src: "setmetatable({}, { __gc = function() while true do end end })",
        modules: &[],
        expect: Expect::Fault("__gc finalizers are not available", 1),
    },
    Case {
        name: "weak_table",
        src: "setmetatable({}, { __mode = 'k' })",
        modules: &[],
        expect: Expect::Fault("weak tables", 1),
    },
    Case {
        name: "close_handler_loops",
        src: "do local x <close> = setmetatable({}, { __close = function() while true do end end }) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    // 2. Library calls do work in proportion to what they are asked.
    Case {
        name: "rep_empty_forever",
        src: "string.rep('', math.maxinteger)",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "rep_in_pcall_loop",
        src: "for i = 1, 1e9 do pcall(string.rep, 'ab', 1e6) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "move_huge_range",
        src: "table.move({}, 1, math.maxinteger - 1, 2)",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "move_a_billion",
        src: "table.move({}, 1, 1e9, 2)",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "insert_with_lying_length",
        src: "local t = setmetatable({}, { __len = function() return math.maxinteger - 1 end }) table.insert(t, 1, 'x')",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "concat_with_endless_index",
        src: "local t = setmetatable({}, { __index = function() return 'x' end }) table.concat(t, '', 1, 1e12)",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "unpack_all_the_time",
        src: "local t = {} for i = 1, 1e5 do t[i] = i end while true do select('#', table.unpack(t)) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "sort_a_big_table",
        src: "local t = {} for i = 1, 2e4 do t[i] = -i end while true do table.sort(t) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "pattern_backtracking",
        src: "string.find(string.rep('a', 600), '.-.-.-.-.-b')",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "bracket_class_backtracking",
        src: "string.find(string.rep('a', 5000), '[' .. string.rep('b', 5000) .. 'a]*c')",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "plain_find_in_a_loop",
        src: "local s = string.rep('a', 1e6) while true do s:find('b', 1, true) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "plain_find_worst_case",
        src: "local s = string.rep('a', 4e5) string.find(s, string.rep('a', 300) .. 'b', 1, true)",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "gsub_every_position",
        src: "local s = string.rep('a', 1e6) while true do s:gsub('%w', '') end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "upper_in_a_loop",
        src: "local s = string.rep('a', 2e6) while true do local _ = s:upper() end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "format_big_strings",
        src: "local s = string.rep('a', 2e6) while true do local _ = string.format('%s%s', s, s) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "utf8_scans",
        src: "local s = string.rep('\\x80', 2e6) local f = utf8.codes(s) while true do pcall(f, s, 0) pcall(utf8.len, s) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    // One instruction doing bulk work: concatenation, comparison, long keys, varargs.
    Case {
        name: "concat_in_a_loop",
        src: "local s = string.rep('x', 1e6) while true do local t = s .. 'y' end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "compare_long_strings",
        src: "local a, b = string.rep('x', 2e6), string.rep('x', 2e6) while true do local _ = (a == b) or (a < b) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "long_table_keys",
        src: "local a, b = string.rep('k', 2e6), string.rep('k', 2e6) local t = { [a] = 1 } while true do local _ = t[b] end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "varargs",
        src: "local t = {} for i = 1, 2e5 do t[i] = i end local function f(...) return ... end local u = { f(table.unpack(t)) } while true do local _ = { f(table.unpack(u)) } end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    // Modules: compiling costs, and a failure is remembered.
    Case {
        name: "require_a_big_broken_module",
        src: "for i = 1, 1e6 do pcall(require, 'big') end",
        modules: &[("scripts/big.lua", BIG_BROKEN_MODULE)],
        expect: Expect::Fault(BUDGET, 1),
    },
    Case {
        name: "require_itself",
        src: "require('loop')",
        modules: &[("scripts/loop.lua", "require('loop')")],
        expect: Expect::FaultAt("requires itself", "scripts/loop.lua:1"),
    },
    // The host's own API: a bad command ends the stage even inside pcall.
    Case {
        name: "spawn_a_huge_name_in_pcall",
        src: "local s = string.rep('x', 1e5) for i = 1, 1e9 do pcall(ludus.spawn, s, 0, 0) end",
        modules: &[],
        expect: Expect::Fault("archetype is too long", 1),
    },
    // 3. Memory: a memory error ends the stage, pcall or not.
    Case {
        name: "memory_bomb_in_pcall",
        src: "local t = {} while true do pcall(function() for i = 1, 1e9 do t[#t + 1] = coroutine.create(print) end end) end",
        modules: &[],
        expect: Expect::Fault("memory limit", 1),
    },
    Case {
        name: "gsub_explodes",
        src: "string.gsub(string.rep('a', 1e5), '', string.rep('b', 1000))",
        modules: &[],
        // The result's buffer is charged as it grows: the budget ends it before memory does.
        expect: Expect::Fault(BUDGET, 1),
    },
    // 4. print is bounded and charged.
    Case {
        name: "print_big_strings",
        src: "local s = string.rep('x', 2e6) for i = 1, 1e9 do print(s) end",
        modules: &[],
        expect: Expect::Fault(BUDGET, 1),
    },
    // 6. No address, by any route.
    Case {
        name: "format_p_with_width",
        src: "string.format('%10p', {})",
        modules: &[],
        expect: Expect::Fault("%p is not available", 1),
    },
    Case {
        name: "format_p_with_flags",
        src: "string.format('%-5p', print)",
        modules: &[],
        expect: Expect::Fault("%p is not available", 1),
    },
    Case {
        name: "fake_metatable_and_name",
        src: "local t = setmetatable({}, { __name = 'X', __metatable = { __tostring = 1 } }) \
              local a, b = tostring(t), string.format('%s|%5s', t, coroutine.create(print)) \
              if a == 'X' and b == 'X|thread' then ludus.set('ok', 1) end",
        modules: &[],
        expect: Expect::Ok,
    },
    // 12. Faults name the line: numbers that are finite in Lua but not as 32-bit numbers, bad
    // ids, the C stack.
    Case {
        name: "spawn_far_away",
        src: "ludus.spawn('enemy', 1e39, 0)",
        modules: &[],
        expect: Expect::Fault("within ±3.4e38", 1),
    },
    Case {
        name: "teleport_far_away",
        src: "ludus.teleport(1, 0, 1e300)",
        modules: &[],
        expect: Expect::Fault("within ±3.4e38", 1),
    },
    Case {
        name: "spawn_speed",
        src: "ludus.spawn('enemy', 0, 0, { speed = 1e39 })",
        modules: &[],
        expect: Expect::Fault("speed must be within", 1),
    },
    Case {
        name: "effect_far_away",
        src: "ludus.effect('spark', -1e39, 0)",
        modules: &[],
        expect: Expect::Fault("within ±3.4e38", 1),
    },
    Case {
        name: "entity_zero",
        src: "ludus.damage(0, 1)",
        modules: &[],
        expect: Expect::Fault("entity id (>= 1), got 0", 1),
    },
    Case {
        name: "c_stack_overflow",
        src: "local function f() return string.gsub('a', '.', f) end f()",
        modules: &[],
        expect: Expect::Fault("stack overflow", 1),
    },
    Case {
        name: "whole_number_2_pow_53",
        src: "ludus.add_score(2^53) ludus.set('ok', 1)",
        modules: &[],
        expect: Expect::Ok,
    },
    // 13. Shared tables are not shared.
    Case {
        name: "const_is_read_only",
        src: "rawset(ludus.const, 'bonus', 42)",
        modules: &[],
        expect: Expect::Fault("read-only", 1),
    },
    Case {
        name: "string_metatable_hidden",
        src: "getmetatable('').__index = {}",
        modules: &[],
        expect: Expect::Fault("attempt to index", 1),
    },
];

/// Stands for 1.2 MB of source that does not compile (made by [`module_text`]).
const BIG_BROKEN_MODULE: &str = "<big broken module>";

fn module_text(text: &str) -> String {
    if text == BIG_BROKEN_MODULE {
        "x = (".repeat(300_000)
    } else {
        text.to_string()
    }
}

fn script(case: &Case) -> String {
    format!("function on_start() {}\nend", case.src)
}

/// Runs a case in its own thread; `Err` if it did not end within [`HANG`].
fn outcome(case: &'static Case) -> Result<Result<f64, Fault>, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let src = script(case);
        let modules: Vec<(&str, String)> = case
            .modules
            .iter()
            .map(|(p, t)| (*p, module_text(t)))
            .collect();
        let modules: Vec<(&str, &str)> = modules.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let result = game_with(def(), &[("scripts/main.lua", &src)], &modules).and_then(|mut g| {
            run(&mut g, 2)?;
            Ok(var(&g, "ok").unwrap_or(0.0))
        });
        let _ = tx.send(result);
    });
    rx.recv_timeout(HANG)
        .map_err(|_| format!("{}: did not end within {HANG:?}", case.name))
}

fn check(case: &'static Case) -> Result<(), String> {
    let result = outcome(case)?;
    match (&case.expect, result) {
        (Expect::Ok, Ok(1.0)) => Ok(()),
        (Expect::Ok, other) => Err(format!("{}: expected success, got {other:?}", case.name)),
        (Expect::Fault(text, line), Err(f)) => {
            expect_fault(case, text, &format!("scripts/main.lua:{line}"), f)
        }
        (Expect::FaultAt(text, location), Err(f)) => expect_fault(case, text, location, f),
        (Expect::Fault(text, _) | Expect::FaultAt(text, _), Ok(_)) => Err(format!(
            "{}: expected a fault containing {text:?}, got none",
            case.name
        )),
    }
}

fn expect_fault(case: &Case, text: &str, location: &str, f: Fault) -> Result<(), String> {
    {
        {
            if f.message.contains(text) && f.location.as_deref() == Some(location) {
                Ok(())
            } else {
                Err(format!(
                    "{}: expected a fault containing {text:?} at {location}, got {f} (at {:?})",
                    case.name, f.location
                ))
            }
        }
    }
}

#[test]
fn hostile_snippets_end_in_clean_faults() {
    let failures: Vec<String> = CASES.iter().filter_map(|c| check(c).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The heaviest cases, run again under a memory limit.
const WORST: &[&str] = &[
    "rep_in_pcall_loop",
    "memory_bomb_in_pcall",
    "gsub_explodes",
    "print_big_strings",
    "varargs",
    "format_big_strings",
];

#[test]
fn worst_cases_under_a_memory_limit() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 3000000 && exec '{}' --exact worst_cases_child --nocapture --test-threads=1",
            exe.display()
        ))
        .env("LUDUS_HOSTILE_CHILD", "1")
        .status()
        .expect("sh runs");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        None,
        "the child was killed by a signal: {status}"
    );
    assert!(status.success(), "the child failed: {status}");
}

/// Runs [`WORST`] when started by `worst_cases_under_a_memory_limit`.
#[test]
fn worst_cases_child() {
    if std::env::var_os("LUDUS_HOSTILE_CHILD").is_none() {
        return;
    }
    for name in WORST {
        let case = CASES
            .iter()
            .find(|c| c.name == *name)
            .expect("a listed case");
        check(case).unwrap();
    }
}

#[test]
fn scripts_do_not_reach_each_other() {
    let a = "string.upper = function() return 'evil' end\n\
             table.concat = nil\n\
             ludus.destroy = nil\n\
             function on_collision_enter(events) events[1].a = 999 end";
    let b = "function on_start() ludus.set('upper', ('a'):upper() == 'A' and 1 or 0) \
             ludus.set('concat', table.concat({'x', 'y'}) == 'xy' and 1 or 0) \
             print('still', 'logs') end\n\
             function on_collision_enter(events) ludus.set('a', events[1].a) end";
    let mut g = game_with(def(), &[("scripts/a.lua", a), ("scripts/b.lua", b)], &[]).unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(
        var(&g, "upper"),
        Some(1.0),
        "string methods are the library's"
    );
    assert_eq!(
        var(&g, "concat"),
        Some(1.0),
        "table.concat is the library's"
    );
    assert_eq!(
        var(&g, "a"),
        Some(1.0),
        "events are decoded for each script"
    );
}

#[test]
fn print_keeps_a_bounded_log() {
    // Per tick: 100 lines, then a count of the rest; long lines are cut.
    let mut g = game(
        "function on_start() \
           local s = string.rep('y', 5000) \
           for i = 1, 3000 do print(i == 1 and s or i) end \
         end",
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    let lines = g.consequences_mut().drain_log();
    assert_eq!(lines.len(), 101, "100 lines and the count of the rest");
    assert!(
        lines[0].starts_with("[tick 1] scripts/main.lua:1: yyy")
            && lines[0].len() < 1100
            && lines[0].ends_with("(3976 more bytes)"),
        "{}",
        &lines[0][1000..]
    );
    assert_eq!(lines[1], "[tick 1] scripts/main.lua:1: 2");
    assert_eq!(
        lines[100],
        "[tick 1] 2900 more lines were not shown (at most 100 lines per tick)"
    );

    // Between reads: 1000 lines, then a count of those dropped.
    let mut g = game("function on_tick(t) for i = 1, 100 do print(t.tick, i) end end").unwrap();
    run(&mut g, 12).unwrap();
    let lines = g.consequences_mut().drain_log();
    assert_eq!(lines.len(), 1001, "1000 lines and the dropped count");
    assert_eq!(lines[0], "[tick 1] scripts/main.lua:1: 1\t1");
    assert_eq!(lines[999], "[tick 10] scripts/main.lua:1: 10\t100");
    assert!(
        lines[1000].starts_with("[200 more lines were dropped"),
        "{}",
        lines[1000]
    );
}
