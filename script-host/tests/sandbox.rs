//! The sandbox fence, through the host: what scripts cannot use or reach (finalizers, shared
//! tables, other scripts, files outside the game folder), what the host's API refuses (a fault
//! at the script's line, `pcall` or not), and code or calls nested past the C stack. The
//! library fences at the VM: ludus-lua's tests/sandbox.rs.

mod support;

use support::hostile::*;
use support::*;

// Finalizers would run with hooks off.
#[test]
fn gc_finalizer() {
    Case::on_start("setmetatable({}, { __gc = function() while true do end end })")
        .faults("__gc finalizers are not available", 1);
}

// Shared tables are not shared.
#[test]
fn const_is_read_only() {
    Case::on_start("rawset(ludus.const, 'bonus', 42)").faults("read-only", 1);
}

#[test]
fn string_metatable_hidden() {
    Case::on_start("getmetatable('').__index = {}").faults("attempt to index", 1);
}

// Modules come from the game folder, once each.
#[test]
fn require_itself() {
    Case::on_start("require('loop')")
        .module("scripts/loop.lua", "require('loop')")
        .faults_at("requires itself", "scripts/loop.lua:1");
}

// The host's API: a bad command ends the stage even inside pcall; numbers that are finite in
// Lua but not as 32-bit numbers, and bad ids, are faults at their line.
#[test]
fn spawn_a_huge_name_in_pcall() {
    Case::on_start(
        "local s = string.rep('x', 1e5) for i = 1, 1e9 do pcall(ludus.spawn, s, 0, 0) end",
    )
    .faults("archetype is too long", 1);
}

#[test]
fn spawn_far_away() {
    Case::on_start("ludus.spawn('enemy', 1e39, 0)").faults("within ±3.4e38", 1);
}

#[test]
fn teleport_far_away() {
    Case::on_start("ludus.teleport(1, 0, 1e300)").faults("within ±3.4e38", 1);
}

#[test]
fn spawn_speed() {
    Case::on_start("ludus.spawn('enemy', 0, 0, { speed = 1e39 })")
        .faults("speed must be within", 1);
}

#[test]
fn effect_far_away() {
    Case::on_start("ludus.effect('spark', -1e39, 0)").faults("within ±3.4e38", 1);
}

#[test]
fn entity_zero() {
    Case::on_start("ludus.damage(0, 1)").faults("entity id (>= 1), got 0", 1);
}

#[test]
fn whole_number_2_pow_53() {
    Case::on_start("ludus.add_score(2^53) ludus.set('ok', 1)").runs();
}

// The C stack.
#[test]
fn c_stack_overflow() {
    Case::on_start("local function f() return string.gsub('a', '.', f) end f()")
        .faults("stack overflow", 1);
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
fn code_nested_past_the_c_stack_is_refused_at_its_line() {
    let parens = format!("local a = 1\nx = {}1{}", "(".repeat(300), ")".repeat(300));
    let blocks = format!("local a = 1\n\n{}{}", "do ".repeat(300), "end ".repeat(300));
    for (src, line) in [
        (parens, "scripts/main.lua:2"),
        (blocks, "scripts/main.lua:3"),
    ] {
        match game_with(def(), &[("scripts/main.lua", &src)], &[]) {
            Err(f) => {
                assert!(f.message.contains("code nested too deeply"), "{f}");
                assert_eq!(f.location.as_deref(), Some(line), "{f}");
            }
            Ok(_) => panic!("{src:.40}: compiled"),
        }
    }
}

#[test]
fn sandbox_has_no_io_os_load_or_debug() {
    for (src, expect) in [
        ("io.open('x')", "io"),
        ("os.execute('true')", "os"),
        ("load('return 1')()", "load"),
        ("loadstring('return 1')()", "loadstring"),
        ("dofile('x.lua')", "dofile"),
        ("loadfile('x.lua')", "loadfile"),
        ("string.dump(print)", "dump"),
        ("debug.getinfo(1)", "debug"),
        ("collectgarbage()", "collectgarbage"),
        ("package.loadlib('x', 'y')", "package"),
        ("require('../secret')", "module names"),
        ("require('/etc/passwd')", "module names"),
        ("math.randomseed(1)", "randomseed"),
        ("local s = string.format('%p', {})", "%p"),
    ] {
        let f = script_fault(&format!("\n{src}\n"));
        assert_eq!(
            f.location.as_deref(),
            Some("scripts/main.lua:2"),
            "{src}: {f}"
        );
        assert!(f.message.contains(expect), "{src}: {f}");
    }
}

#[test]
fn addresses_are_never_visible() {
    let mut g = game(
        r#"
        ludus_t = tostring({}) .. tostring(print) .. string.format("%s", {})
        function on_start() ludus.set("len", #ludus_t) end
        "#,
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(
        var(&g, "len"),
        Some(("table".len() + "function".len() + "table".len()) as f64)
    );
}
