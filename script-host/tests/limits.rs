//! Limits that scripts fill, each refused where the script crossed it: the fault names the
//! limit, the key to raise and the script's file and line, however deep in `pcall`s the call
//! was; a game under its limits runs as before.

mod support;

use ludus_core::*;
use support::*;

/// A game whose `scripts/main.lua` is `src`, with `limits` applied to the test definition;
/// runs `ticks` ticks and returns the fault, if any.
fn fault_of(src: &str, ticks: u64, limits: impl FnOnce(&mut GameDef)) -> Option<Fault> {
    let mut def = def();
    limits(&mut def);
    let mut g = game_with(def, &[("scripts/main.lua", src)], &[]).expect("the game starts");
    run(&mut g, ticks).err()
}

#[test]
fn limit_faults_name_the_line_that_crossed_them() {
    // (case, script, ticks, limits, message, location)
    type SetLimits = fn(&mut GameDef);
    let cases: [(&str, &str, u64, SetLimits, &str, &str); 8] = [
        (
            "spawns in one tick",
            "function on_start()\n  for i = 1, 20 do\n    ludus.spawn('enemy', i, 0)\n  end\nend",
            2,
            |d| d.limits.max_entities = 10,
            "ludus.spawn: more than 10 spawns in one tick (raise [limits] entities)",
            "scripts/main.lua:3",
        ),
        (
            "spawn events in one tick",
            "function on_start()\n  for i = 1, 20 do\n    pcall(pcall, ludus.spawn, 'enemy', i, 0)\n  end\nend",
            2,
            |d| d.limits.events_per_tick = 12,
            "ludus.spawn: more than 12 spawn events (one per spawn) in one tick (raise [limits] events)",
            "scripts/main.lua:3",
        ),
        (
            "live entities at Commit, a spawn a tick",
            "function on_tick()\n  ludus.spawn('enemy', 0, 0)\nend",
            20,
            |d| d.limits.max_entities = 10,
            "1 spawns would make 11 entities, more than 10 (raise [limits] entities)",
            "scripts/main.lua:2",
        ),
        (
            "live entities at Commit, a spawn with options through pcall",
            "local function go()\n  pcall(ludus.spawn, 'enemy', 0, 0, { vx = 1, vy = 2 })\nend\nfunction on_tick()\n  go()\nend",
            20,
            |d| d.limits.max_entities = 10,
            "1 spawns would make 11 entities, more than 10 (raise [limits] entities)",
            "scripts/main.lua:2",
        ),
        (
            "game variables",
            "function on_start()\n  for i = 1, 100 do\n    ludus.set('v' .. i, i)\n  end\nend",
            2,
            |d| d.limits.variables = 50,
            "ludus.set: more than 50 game variables: `v51` would be one more (raise [limits] variables)",
            "scripts/main.lua:3",
        ),
        (
            "state keys of an entity spawned this tick",
            "function on_start()\n  local id = ludus.spawn('enemy', 0, 0)\n  for i = 1, 100 do\n    ludus.set_state(id, 'k' .. i, i)\n  end\nend",
            2,
            |d| d.limits.state_keys = 8,
            "ludus.set_state: more than 8 script-state keys on entity 4: `k9` would be one more (raise [limits] state_keys)",
            "scripts/main.lua:4",
        ),
        (
            "state keys of a live entity, over two ticks",
            "function on_tick(t)\n  for i = 1, 5 do\n    ludus.set_state(1, 'k' .. t.tick .. '_' .. i, i)\n  end\nend",
            5,
            |d| d.limits.state_keys = 12,
            "ludus.set_state: more than 12 script-state keys on entity 1: `k3_3` would be one more (raise [limits] state_keys)",
            "scripts/main.lua:3",
        ),
        (
            "script state of all entities, in bytes",
            "function on_tick(t)\n  for e = 1, 3 do\n    for i = 1, 500 do\n      ludus.set_state(e, string.format('%060d', t.tick * 1000 + i), i)\n    end\n  end\nend",
            30,
            |d| {
                d.limits.state_keys = 1_000_000;
                d.scripts.memory_limit = 2 * 1024 * 1024;
            },
            "the script state of all entities would take more than 2097152 bytes",
            "scripts/main.lua:4",
        ),
    ];
    let mut failures = Vec::new();
    for (name, src, ticks, limits, message, location) in cases {
        match fault_of(src, ticks, limits) {
            Some(f) if f.message.contains(message) && f.location.as_deref() == Some(location) => {}
            Some(f) => failures.push(format!("{name}: {f} at {:?}", f.location)),
            None => failures.push(format!("{name}: no fault")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn state_bytes_come_back_when_their_entity_is_gone() {
    // Three new entities a round, 1000 keys of 64 bytes on each (240 KB), then destroyed:
    // always within 512 KB of state, because destroyed entities give their bytes back.
    let src = "local ids = {}\n\
               function on_tick(t)\n\
                 local round = t.tick % 3\n\
                 if round == 1 then\n\
                   for e = 1, 3 do ids[e] = ludus.spawn('enemy', 1000 * e, 9000) end\n\
                 elseif round == 2 then\n\
                   for e = 1, 3 do for i = 1, 1000 do\n\
                     ludus.set_state(ids[e], string.format('%064d', i), i)\n\
                   end end\n\
                 else\n\
                   for e = 1, 3 do ludus.destroy(ids[e]) end\n\
                 end\n\
                 ludus.set('ok', t.tick)\n\
               end";
    let mut d = def();
    d.limits.state_keys = 100_000;
    d.limits.commands_per_tick = 100_000;
    d.scripts.instruction_budget = 10_000_000;
    d.scripts.memory_limit = 512 * 1024;
    let mut g = game_with(d.clone(), &[("scripts/main.lua", src)], &[]).expect("starts");
    run(&mut g, 15).expect("within the bytes every round");
    assert_eq!(var(&g, "ok"), Some(15.0));
    // Without the destroys, the second round is over.
    let kept = src.replace("ludus.destroy(ids[e])", "local _ = ids[e]");
    let mut g = game_with(d, &[("scripts/main.lua", &kept)], &[]).expect("starts");
    let f = run(&mut g, 15).expect_err("over the bytes");
    assert!(f.message.contains("more than 524288 bytes"), "{f}");
}

#[test]
fn spawning_and_destroying_many_in_one_tick_is_linear() {
    // 60,000 spawns each destroyed in the same tick: none reaches `on_spawn`.
    let src = "function on_start()\n\
                 for i = 1, 60000 do ludus.destroy(ludus.spawn('enemy', 1000 + i, 5000)) end\n\
               end\n\
               local seen = 0\n\
               function on_spawn(events) seen = seen + #events ludus.set('seen', seen) end\n\
               function on_tick(t) ludus.set('ok', t.tick) end";
    let mut d = def();
    d.limits.commands_per_tick = 200_000;
    d.limits.max_entities = 100_000;
    d.scripts.instruction_budget = 10_000_000;
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).expect("starts");
    run(&mut g, 3).expect("runs");
    assert_eq!(var(&g, "ok"), Some(3.0));
    assert_eq!(
        var(&g, "seen"),
        Some(3.0),
        "only the level's three entities"
    );
    assert_eq!(g.world().entity_count(), 3);
}

#[test]
fn a_memory_fault_while_events_are_delivered_names_the_handler() {
    // 60,000 spawn events do not fit in 1 MiB of script memory: the fault happens in the
    // host's delivery, before the handler runs, and names the handler.
    let src = "function on_start()\n\
                 for i = 1, 60000 do ludus.spawn('enemy', i * 20, 9000) end\n\
               end\n\
               function on_spawn(events)\n\
                 ludus.set('n', #events)\n\
               end";
    let mut d = def();
    d.scripts.memory_limit = 1024 * 1024;
    d.scripts.instruction_budget = 10_000_000;
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).expect("starts");
    let f = run(&mut g, 3).expect_err("out of memory");
    assert!(f.message.contains("memory limit"), "{f}");
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:4"), "{f}");
}
