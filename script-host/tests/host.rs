//! The Lua host against real Lua: the API, stage order, sandbox fences, budgets, faults and
//! determinism across processes.

mod support;

use ludus_core::*;
use support::*;

#[test]
fn handlers_get_batches_and_commands_take_effect_in_the_same_tick() {
    let mut g = game(
        r#"
        local seen = 0
        function on_collision_enter(events)
          for _, e in ipairs(events) do
            seen = seen + 1
            ludus.set("pair", e.a * 100 + e.b)
            ludus.set("kinds", (e.a_kind == "player" and e.b_kind == "enemy") and 1 or 0)
            ludus.set("tagged", ludus.has(e.b_tags, "enemy") and 1 or 0)
            ludus.damage(e.b, 2, e.a)
          end
        end
        function on_damage(events)
          for _, d in ipairs(events) do
            ludus.set("health", d.health)
            ludus.set("source", d.source)
            ludus.add_score(d.amount * ludus.const.bonus)
          end
        end
        "#,
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(var(&g, "pair"), Some(102.0));
    assert_eq!(var(&g, "kinds"), Some(1.0));
    assert_eq!(var(&g, "tagged"), Some(1.0));
    assert_eq!(
        var(&g, "health"),
        Some(1.0),
        "damage applied between the stages"
    );
    assert_eq!(var(&g, "source"), Some(1.0));
    assert_eq!(g.world().score(), 14);
}

/// Only a function is a handler: a value of another kind under a handler's name is not called
/// (the game runs on, its events undelivered), and a function put there later is.
#[test]
fn only_functions_are_handlers() {
    let mut g = game(
        r#"
        on_collision_enter = 5
        on_damage = { "not", "a", "function" }
        on_tick = false
        function on_start()
          ludus.set("started", 1)
        end
        "#,
    )
    .unwrap();
    run(&mut g, 2).unwrap();
    assert_eq!(var(&g, "started"), Some(1.0));
    let mut g = game(
        r#"
        on_damage = 5
        function on_collision_enter(events)
          for _, e in ipairs(events) do
            ludus.damage(e.b, 1, e.a)
          end
          on_damage = function(d) ludus.set("hurt", #d) end
        end
        "#,
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(
        var(&g, "hurt"),
        Some(1.0),
        "the function put there in stage 1 is called"
    );
}

#[test]
fn stages_call_handlers_in_the_documented_order() {
    // Both files share a module table; every handler appends a digit to `order`.
    let main = r#"
        local o = require("order")
        local function note(d) o.code = o.code * 10 + d ludus.set("order", o.code) end
        function on_start(info) note(1) ludus.after(0, "t") ludus.spawn("enemy", 100, 100) end
        function on_spawn(ev) note(2) end
        function on_action(ev) note(3) ludus.set("action", #ev[1].action) end
        function on_collision_enter(ev) note(4) end
        function on_timer(ev) note(8) end
        function on_damage(ev) note(9) end
    "#;
    let second = r#"
        local o = require("order")
        function on_start() o.code = o.code * 10 + 5 ludus.set("order", o.code) ludus.damage(1, 1) end
    "#;
    let mut g = game_with(
        def(),
        &[("scripts/main.lua", main), ("scripts/second.lua", second)],
        &[("scripts/order.lua", "return { code = 0 }")],
    )
    .unwrap();
    let mut input = TickInput::neutral();
    input.set_pressed(ActionId(0), true);
    g.step(&input).unwrap();
    assert_eq!(
        var(&g, "order"),
        Some(152349.0),
        "start (main, then second), spawns, actions, contacts; then stage 2 damage"
    );
    assert_eq!(var(&g, "action"), Some(4.0), "the action's name, `fire`");
    g.step(&TickInput::neutral()).unwrap();
    assert_eq!(
        var(&g, "order"),
        Some(15234928.0),
        "tick 2: the spawn from tick 1, then the timer"
    );
}

#[test]
fn require_loads_modules_inside_the_folder_once() {
    let mut g = game_with(
        def(),
        &[("scripts/main.lua", "local util = require('util')\nlocal again = require('util')\nfunction on_start() ludus.set('v', util.value + (util == again and 1 or 0)) end")],
        &[("scripts/util.lua", "loads = (loads or 0) + 1\nreturn { value = 41 }")],
    )
    .unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(var(&g, "v"), Some(42.0));
    let f = game_with(def(), &[("scripts/main.lua", "\nrequire('missing')")], &[])
        .err()
        .unwrap();
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:2"));
    assert!(
        f.message.contains("missing.lua") && f.message.contains("scripts/missing.lua"),
        "{f}"
    );
}

#[test]
fn runtime_errors_fault_with_file_and_line() {
    let f = script_fault("function on_start()\n  local t = nil\n  return t.x\nend");
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:3"), "{f}");
    assert!(f.message.contains("attempt to index"), "{f}");
    assert_eq!(f.kind, FaultKind::Script);
    let f = script_fault("function on_start()\n  error('custom failure')\nend");
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:2"));
    assert!(f.message.contains("custom failure"));
    let f = game_with(def(), &[("scripts/main.lua", "local x = = 1")], &[])
        .err()
        .unwrap();
    assert_eq!(
        f.location.as_deref(),
        Some("scripts/main.lua:1"),
        "syntax errors name the line: {f}"
    );
}

#[test]
fn runaway_loops_fault_in_every_disguise() {
    let cases = [
        (
            "plain loop",
            "function on_start()\n  while true do end\nend",
        ),
        (
            "pcall around the loop",
            "function on_start()\n  while true do pcall(function() while true do end end) end\nend",
        ),
        (
            "own coroutine",
            "function on_start()\n  local co = coroutine.create(function() while true do end end)\n  while true do coroutine.resume(co) end\nend",
        ),
        (
            "wrapped coroutine in pcall",
            "function on_start()\n  while true do pcall(coroutine.wrap(function() while true do end end)) end\nend",
        ),
        (
            "inside a C callback",
            "function on_start()\n  string.gsub(string.rep('x', 10), '.', function() while true do pcall(function() while true do end end) end end)\nend",
        ),
        (
            "sort comparator",
            "function on_start()\n  local t = {3, 2, 1}\n  while true do pcall(table.sort, t, function(a, b) while true do end end) end\nend",
        ),
        (
            "deep recursion",
            "local function r(n) return r(n + 1) + 1 end\nfunction on_start()\n  while true do pcall(r, 1) end\nend",
        ),
        ("at load time", "while true do end"),
        (
            "at load time under pcall",
            "while true do pcall(function() while true do end end) end",
        ),
    ];
    for (name, src) in cases {
        let f = script_fault(src);
        assert!(
            f.message.contains("instruction budget") || f.message.contains("stack overflow"),
            "{name}: {f}"
        );
        assert!(
            f.location
                .as_deref()
                .is_some_and(|l| l.starts_with("scripts/main.lua:")),
            "{name}: {f:?}"
        );
    }
    // The fault says what the allowance was for: a file's top level, or a tick's handlers.
    for (src, allowance) in [
        ("while true do end", "for a file's top-level code"),
        ("function on_start()\n  while true do end\nend", "per tick"),
    ] {
        let f = script_fault(src);
        let says = format!(" instructions {allowance}): a runaway loop");
        assert!(
            f.message.starts_with("instruction budget exceeded (") && f.message.contains(&says),
            "{src}: {f}"
        );
    }
}

#[test]
fn memory_bombs_fault() {
    for (name, src) in [
        (
            "table growth",
            "function on_start()\n  local t = {}\n  for i = 1, 1e9 do t[i] = i end\nend",
        ),
        (
            "string doubling under pcall",
            "function on_start()\n  local s = 'x'\n  while true do pcall(function() s = s .. s end) end\nend",
        ),
    ] {
        let f = script_fault(src);
        assert!(
            f.message.contains("memory") || f.message.contains("instruction budget"),
            "{name}: {f}"
        );
    }
}

#[test]
fn the_game_restarts_cleanly_after_a_script_fault() {
    let mut g = game("local n = 0\nfunction on_start() n = n + 1 ludus.set('starts', n) end\nfunction on_action() while true do end end").unwrap();
    run(&mut g, 2).unwrap();
    assert_eq!(var(&g, "starts"), Some(1.0));
    let mut fire = TickInput::neutral();
    fire.set_pressed(ActionId(0), true);
    assert!(g.step(&fire).is_err(), "the runaway handler faults");
    g.load(&LoadRequest::Restart);
    assert_eq!(g.world().tick(), 0);
    // The new world gets a fresh VM: the counter starts from zero again.
    let _ = g.step(&TickInput::neutral());
    assert_eq!(var(&g, "starts"), Some(1.0));
}

#[test]
fn stale_and_malformed_commands() {
    let mut g = game("function on_start() ludus.destroy(2) end\nfunction on_spawn() end\nlocal t = 0\nfunction on_collision_enter() end").unwrap();
    run(&mut g, 1).unwrap();
    let mut g2 = game("function on_start() ludus.damage(999, 1) ludus.destroy(12345) end").unwrap();
    run(&mut g2, 1).unwrap();
    assert_eq!(
        g2.world().counters().stale_commands,
        2,
        "unknown entities are discarded and counted"
    );

    for (src, expect) in [
        ("ludus.damage('x', 1)", "must be a number"),
        ("ludus.damage(1, 1.5)", "whole number"),
        ("ludus.damage(1, -1)", "negative"),
        ("ludus.spawn('grunt', 0, 0)", "unknown archetype `grunt`"),
        ("ludus.spawn('enemyy', 0, 0)", "did you mean `enemy`"),
        ("ludus.spawn('enemy', 0/0, 0)", "finite"),
        (
            "ludus.spawn('enemy', 0, 0, { vx = 1, colour = 'red' })",
            "unknown spawn option `colour`",
        ),
        ("ludus.effect('sparks', 0, 0)", "did you mean `spark`"),
        ("ludus.sound('hit', 1, 0)", "pitch"),
        ("ludus.after(-1, 't')", "negative"),
        ("ludus.every(0, 't')", "at least 1"),
        (
            "ludus.spawn('enemy', 0, 0, { lifetime = math.maxinteger })",
            "lifetime must be a number of ticks from 1 to 4294967295, got 9223372036854775807",
        ),
        (
            "ludus.spawn('enemy', 0, 0, { lifetime = 0 })",
            "from 1 to 4294967295, got 0",
        ),
        ("pcall(ludus.teleport, 1, math.huge, 0)", "finite"),
    ] {
        let f = script_fault(&format!("function on_start()\n  {src}\nend"));
        assert_eq!(
            f.location.as_deref(),
            Some("scripts/main.lua:2"),
            "{src}: {f:?}"
        );
        assert!(f.message.contains(expect), "{src}: {f}");
    }
}

#[test]
fn commands_outside_handlers_are_refused() {
    let f = game("ludus.damage(1, 1)").err().unwrap();
    assert!(
        f.message.contains("only be used inside event handlers"),
        "{f}"
    );
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:1"));
}

#[test]
fn random_draws_come_from_the_world_seed() {
    let draws = |seed: u64| {
        let mut d = def();
        d.seed = seed;
        let mut g = game_with(d, &[("scripts/main.lua", "function on_start() ludus.set('a', math.random(1000000)) ludus.set('b', ludus.random()) end")], &[]).unwrap();
        run(&mut g, 1).unwrap();
        (var(&g, "a"), var(&g, "b"), g.world().rng_state())
    };
    assert_eq!(draws(5), draws(5));
    assert_ne!(draws(5), draws(6));
}

#[test]
fn timers_from_scripts() {
    let mut g = game(
        r#"
        function on_start()
          ludus.after(2, "once", { data = 3.5 })
          local id = ludus.every(3, "tick", { target = 1 })
          ludus.set("id", id)
          local dead = ludus.after(1, "never")
          ludus.cancel(dead)
        end
        local fired = 0
        function on_timer(events)
          for _, t in ipairs(events) do
            fired = fired + 1
            ludus.set(t.name, t.tick)
            if t.name == "once" then ludus.set("data", t.data) end
            if t.name == "tick" then ludus.set("target", t.target) end
          end
          ludus.set("fired", fired)
        end
        "#,
    )
    .unwrap();
    run(&mut g, 7).unwrap();
    assert_eq!(var(&g, "once"), Some(3.0));
    assert_eq!(var(&g, "data"), Some(3.5));
    assert_eq!(var(&g, "tick"), Some(7.0));
    assert_eq!(var(&g, "target"), Some(1.0));
    assert_eq!(var(&g, "never"), None);
    assert_eq!(var(&g, "fired"), Some(3.0));
}

/// A script whose command order depends on `pairs` over string keys, and over tables,
/// functions and coroutines as keys (hashed by creation order, never by address).
const PAIRS_SCRIPT: &str = r#"
local names, objects = {}, {}
for i = 1, 200 do names["key_" .. i .. "_" .. string.rep("z", i % 7)] = i end
for i = 1, 300 do
  local o = i % 3 == 0 and {} or i % 3 == 1 and function() return i end or coroutine.create(print)
  objects[o] = i
end
function on_collision_enter(events)
  local acc = 0
  for k, v in pairs(names) do
    acc = (acc * 31 + #k * v) % 1000003
    ludus.set("last", acc)
  end
  for _, v in pairs(objects) do
    acc = (acc * 31 + v) % 1000003
    ludus.set("objects", acc)
  end
  for _, e in ipairs(events) do ludus.damage(e.b, 1) end
end
function on_start()
  local order = {}
  for k in pairs(names) do order[#order + 1] = k end
  ludus.set("first_key_len", #order[1])
  ludus.spawn("enemy", 3, 3)
end
"#;

fn pairs_hashes() -> Vec<String> {
    let mut g = game(PAIRS_SCRIPT).unwrap();
    (0..50)
        .map(|_| g.step(&TickInput::neutral()).unwrap().hash.unwrap().hex())
        .collect()
}

#[test]
fn pairs_order_and_hashes_match_in_two_fresh_processes() {
    if std::env::var("LUDUS_PAIRS_WORKER").is_ok() {
        println!("HASHES {}", pairs_hashes().join(","));
        return;
    }
    let run_worker = || {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "pairs_order_and_hashes_match_in_two_fresh_processes",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("LUDUS_PAIRS_WORKER", "1")
            .output()
            .expect("the test binary runs");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines()
            .find_map(|l| l.split_once("HASHES ").map(|(_, h)| h.trim().to_string()))
            .expect("worker printed hashes")
    };
    let a = run_worker();
    let b = run_worker();
    assert_eq!(a, b, "two processes, identical per-tick hashes");
    assert_eq!(a, pairs_hashes().join(","), "and equal to this process");
}

#[test]
fn every_event_kind_carries_its_documented_fields() {
    let mut d = def();
    d.archetypes.push(ArchetypeDef {
        name: "spark".into(),
        lifetime: Some(2),
        tags: 2,
        ..ArchetypeDef::default()
    });
    d.archetypes.push(ArchetypeDef {
        name: "coin".into(),
        collider: Some(ColliderDef {
            shape: Shape::Circle { radius: 4.0 },
            layer: 2,
            mask: 1,
            push: 0,
            trigger: true,
            stay: false,
            body: BodyKind::Dynamic,
            mass: 1.0,
            bounce: None,
            friction: 0.0,
        }),
        ..ArchetypeDef::default()
    });
    d.archetypes[1].bounds = BoundsPolicy::Destroy;
    d.levels[0].placements.push(Placement {
        archetype: ArchetypeId(3),
        pos: Vec2::new(-3.0, 0.0),
        overrides: Overrides::default(),
    });
    let mut g = game_with(
        d,
        &[(
            "scripts/main.lua",
            r#"
            function on_start() ludus.spawn("spark", 7, 8) ludus.teleport(3, 100000, 0) end
            function on_spawn(ev)
              for _, e in ipairs(ev) do
                if e.kind == "spark" then
                  ludus.set("spawn", e.id * 1000 + e.x * 10 + e.y)
                  ludus.set("spawn_tags", e.tags)
                end
              end
            end
            function on_trigger_enter(ev)
              local e = ev[1]
              ludus.set("trigger", (e.a_kind == "coin" and e.b_kind == "player") and e.a or -1)
              ludus.set("trigger_pos", e.ax + e.bx)
            end
            function on_expire(ev)
              for _, e in ipairs(ev) do
                ludus.set("expire_" .. e.reason, e.id)
              end
            end
            function on_action(ev)
              local e = ev[1]
              ludus.set("action", (e.action == "fire" and e.on == "press" and e.kind == "player") and e.id or -1)
              ludus.set("facing", e.fx)
              ludus.set("aim", e.aim_x)
            end
            "#,
        )],
        &[],
    )
    .unwrap();
    let mut fire = TickInput::neutral();
    fire.set_pressed(ActionId(0), true);
    g.step(&fire).unwrap();
    run(&mut g, 4).unwrap();
    assert_eq!(
        var(&g, "spawn"),
        Some(5.0 * 1000.0 + 78.0),
        "spawn: id, x, y"
    );
    assert_eq!(var(&g, "spawn_tags"), Some(2.0));
    assert_eq!(var(&g, "trigger"), Some(4.0), "trigger first, other second");
    assert_eq!(var(&g, "trigger_pos"), Some(-3.0));
    assert_eq!(var(&g, "action"), Some(1.0));
    assert_eq!(var(&g, "facing"), Some(1.0));
    assert_eq!(var(&g, "aim"), Some(1.0), "no aim tags: the facing");
    assert_eq!(
        var(&g, "expire_lifetime"),
        Some(5.0),
        "the spark's lifetime ran out"
    );
    assert_eq!(
        var(&g, "expire_bounds"),
        Some(3.0),
        "the teleported enemy left the bounds"
    );
}

/// The coroutine a stage runs in (the next stage reuses it) is the host's: a script that
/// keeps it cannot resume it in a later stage (its own coroutines still run), and one that
/// closes or yields it while it runs is a fault at that line.
#[test]
fn the_host_coroutine_is_out_of_scripts_reach() {
    let keeper = r#"
        local host, ticks = nil, 0
        function on_tick()
          ticks = ticks + 1
          if host == nil then
            host = coroutine.running()
          else
            local resumed = coroutine.resume(host)
            local wrapped = pcall(coroutine.wrap(function() return 1 end))
            ludus.set("resumed", resumed and 1 or 0)
            ludus.set("wrapped", wrapped and 1 or 0)
          end
          ludus.set("ticks", ticks)
        end
    "#;
    let mut g = game(keeper).unwrap();
    run(&mut g, 6).unwrap();
    assert_eq!(var(&g, "ticks"), Some(6.0));
    assert_eq!(var(&g, "resumed"), Some(0.0));
    assert_eq!(var(&g, "wrapped"), Some(1.0));

    for src in [
        "function on_tick()\n  coroutine.close(coroutine.running())\nend",
        "function on_tick()\n  coroutine.yield()\nend",
    ] {
        let mut g = game(src).unwrap();
        let f = run(&mut g, 3).unwrap_err();
        assert_eq!(
            f.location.as_deref(),
            Some("scripts/main.lua:2"),
            "{src}: {f:?}"
        );
    }
}
