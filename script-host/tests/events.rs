//! Event tables against real Lua: fields decoded on first read read the same as fields written
//! up front, whatever the script reads, writes, clears, iterates or keeps.

mod support;

use support::*;

/// The level places three entities (spawn events at tick 1); `on_start` spawns two more
/// (spawn events at tick 2), which spawn three more (spawn events at tick 3).
const SCRIPT: &str = r#"
local kept
local stage = 0
function on_start()
  ludus.spawn("enemy", 100, 50)
  ludus.spawn("enemy", 200, 60)
end
function on_spawn(events)
  stage = stage + 1
  if stage == 1 then
    ludus.set("n1", #events)
    -- Nothing read yet: `rawget` sees no field.
    ludus.set("raw_before", rawget(events[2], "kind") == nil and 1 or 0)
    -- The first read of `x` is on the second table; the others were filled before.
    ludus.set("x2", events[2].x)
    ludus.set("x3", events[3].x)
    ludus.set("x1", events[1].x)
    -- `pairs` sees every field, with the values direct reads give.
    local count, same = 0, 0
    for k, v in pairs(events[2]) do
      count = count + 1
      if events[2][k] == v then same = same + 1 end
    end
    ludus.set("fields", count)
    ludus.set("same", same)
    ludus.set("meta", getmetatable(events[1]) == false and 1 or 0)
    -- A field the script clears stays cleared; one it writes keeps its value.
    events[1].y = nil
    ludus.set("cleared", events[1].y == nil and 1 or 0)
    events[2].tags = 99
    ludus.set("written", events[2].tags)
    -- Kept past the stage (against the advice): it reads as it did.
    kept = events[3]
  elseif stage == 2 then
    ludus.set("n2", #events)
    -- Refilled tables: fields written or cleared last time are the new events' values.
    ludus.set("y1", events[1].y)
    ludus.set("x1b", events[1].x)
    ludus.set("tags2", events[2].tags)
    ludus.set("kind2", events[2].kind == "enemy" and 1 or 0)
    ludus.set("kept_x", kept.x)
    ludus.set("kept_id", kept.id)
    ludus.set("kept_kind", kept.kind == "enemy" and 1 or 0)
    ludus.set("kept_y", kept.y)
    for i = 1, 3 do ludus.spawn("enemy", 400 + i, 0) end
  else
    -- Table 3 again, after holding every field of its old event: never-read fields are the
    -- new event's.
    ludus.set("n3", #events)
    ludus.set("tick3", events[3].tick)
    ludus.set("x3c", events[3].x)
  end
end
"#;

#[test]
fn fields_read_the_same_however_the_script_uses_them() {
    let mut g = game(SCRIPT).unwrap();
    run(&mut g, 4).unwrap();
    let expect = [
        ("n1", 3.0),
        ("raw_before", 1.0),
        ("x1", 0.0),
        ("x2", 5.0),
        ("x3", 300.0),
        ("fields", 6.0),
        ("same", 6.0),
        ("meta", 1.0),
        ("cleared", 1.0),
        ("written", 99.0),
        ("n2", 2.0),
        ("y1", 50.0),
        ("x1b", 100.0),
        ("tags2", 2.0),
        ("kind2", 1.0),
        ("kept_x", 300.0),
        ("kept_id", 3.0),
        ("kept_kind", 1.0),
        ("kept_y", 0.0),
        ("n3", 3.0),
        ("tick3", 2.0),
        ("x3c", 403.0),
    ];
    for (name, value) in expect {
        assert_eq!(var(&g, name), Some(value), "{name}");
    }
}

#[test]
fn a_field_first_read_late_matches_one_read_from_the_start() {
    // Two scripts see the same contacts: one reads `depth` from the first tick, the other
    // only from the fifth; from then on they agree on every contact.
    let early = r#"
        local ticks, sum = 0, 0
        function on_collision_enter(events)
          ticks = ticks + 1
          for _, e in ipairs(events) do
            local d, x = e.depth, e.bx
            if ticks >= 5 then sum = sum + d + x end
          end
          ludus.set("early", sum)
        end
        on_collision_stay = on_collision_enter
    "#;
    let late = r#"
        local ticks, sum = 0, 0
        function on_collision_enter(events)
          ticks = ticks + 1
          for _, e in ipairs(events) do
            if ticks >= 5 then sum = sum + e.depth + e.bx end
          end
          ludus.set("late", sum)
        end
        on_collision_stay = on_collision_enter
    "#;
    let mut d = def();
    d.archetypes[0].collider.as_mut().unwrap().stay = true;
    let mut g = game_with(
        d,
        &[("scripts/early.lua", early), ("scripts/late.lua", late)],
        &[],
    )
    .unwrap();
    run(&mut g, 8).unwrap();
    let (early, late) = (var(&g, "early").unwrap(), var(&g, "late").unwrap());
    assert!(early > 0.0, "contacts were delivered");
    assert_eq!(early, late);
}

#[test]
fn a_kept_event_reads_its_own_record_while_later_stages_come_and_go() {
    // The level's spawn events come once, in the first tick; the table kept then, none of
    // its fields read, still reads its own record five ticks (and five stages of other
    // events, each in a blob of its own or a reused one) later.
    let script = r#"
        local kept, ticks = nil, 0
        function on_spawn(events)
          kept = kept or events[3]
        end
        function on_tick(e)
          ticks = ticks + 1
          if ticks == 6 then
            ludus.set("x", kept.x)
            ludus.set("id", kept.id)
            ludus.set("tick", kept.tick)
            ludus.set("enemy", kept.kind == "enemy" and 1 or 0)
          end
        end
    "#;
    let mut g = game(script).unwrap();
    run(&mut g, 6).unwrap();
    let expect = [("x", 300.0), ("id", 3.0), ("tick", 0.0), ("enemy", 1.0)];
    for (name, value) in expect {
        assert_eq!(var(&g, name), Some(value), "{name}");
    }
}
