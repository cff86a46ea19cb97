//! The world reads (`pos`, `vel`, `kind`, `tags`, `find`, `count`, `nearest`, `within`,
//! `cooldown`, input), spawn ids, text variables, `on_tick` and the game's flow, at their edges:
//! stale ids, ids spawned this stage, reads after a destroy, wrong argument types, NaN, empty
//! results and budgets.
//!
//! The fixture (`support::def`) places a player (id 1) at (0, 0) and enemies at (5, 0) (id 2)
//! and (300, 0) (id 3).

mod support;

use ludus_core::*;
use support::*;

/// Runs `ticks` ticks of `src` and returns what it printed.
fn prints(src: &str, ticks: u64) -> Vec<String> {
    let mut g = game(src).unwrap();
    run(&mut g, ticks).unwrap();
    said(&mut g)
}

#[test]
fn entity_reads_answer_for_live_entities_and_nil_otherwise() {
    let cases: &[(&str, &[&str])] = &[
        ("print(ludus.pos(2))", &["5.0\t0.0"]),
        ("print(ludus.vel(99))", &["nil\tnil"]),
        ("print(ludus.vel(1))", &["0.0\t0.0"]),
        ("print(ludus.kind(1), ludus.kind(3))", &["player\tenemy"]),
        (
            "print(ludus.has(ludus.tags(2), 'enemy'), ludus.has(ludus.tags(2), 'player'))",
            &["true\tfalse"],
        ),
        (
            "print(ludus.pos(99), ludus.vel(99), ludus.kind(99), ludus.tags(99))",
            &["nil\tnil\tnil\tnil"],
        ),
        // A destroy sent earlier in the stage: the entity is still there until Commit.
        (
            "ludus.destroy(2) print(ludus.alive(2), ludus.pos(2))",
            &["false\t5.0\t0.0"],
        ),
    ];
    for (body, want) in cases {
        let src = format!("function on_start() {body} end");
        assert_eq!(prints(&src, 1), *want, "{body}");
    }
}

#[test]
fn a_spawn_returns_its_id_and_later_commands_may_name_it() {
    let src = "
        local id
        function on_start()
          id = ludus.spawn('enemy', 40, 50, { vx = 60 })
          print(id, ludus.pos(id), ludus.alive(id), ludus.kind(id))
          ludus.set_state(id, 'born', 1)
          ludus.velocity(id, 0, 120)
          ludus.teleport(id, 70, 80)
          ludus.after(1, 'ping', { target = id })
          local gone = ludus.spawn('enemy', 0, 0)
          ludus.destroy(gone)
          print(gone, ludus.count('enemy'))
        end
        function on_spawn(events)
          for _, e in ipairs(events) do print('spawned', e.id, e.kind) end
        end
        function on_timer(events)
          for _, t in ipairs(events) do print('timer', t.name, t.target, t.x, t.y) end
        end
        function on_tick(t)
          if t.tick == 2 then
            print(ludus.pos(id))
            print(ludus.vel(id))
            print(ludus.state(id, 'born'), ludus.alive(id), ludus.count('enemy'))
            print(ludus.alive(5), ludus.pos(5))
          end
        end";
    let mut g = game(src).unwrap();
    run(&mut g, 3).unwrap();
    assert_eq!(
        said(&mut g),
        [
            // Tick 1: ids 4 and 5 are promised; reads see nothing yet.
            "4\tnil\tfalse\tnil",
            "5\t2",
            "spawned\t1\tplayer",
            "spawned\t2\tenemy",
            "spawned\t3\tenemy",
            // Tick 2: 4 exists where the teleport put it (moved one tick since), with the
            // velocity and state sent after the spawn; 5 was destroyed at Commit right after
            // it was created, so no `on_spawn` names it.
            "70.0\t82.0",
            "0.0\t120.0",
            "1.0\ttrue\t3",
            "false\tnil\tnil",
            "spawned\t4\tenemy",
            "timer\tping\t4\t70.0\t82.0",
        ]
    );
    assert_eq!(g.world().counters().stale_commands, 0);
}

#[test]
fn commands_naming_ids_beyond_the_spawns_are_stale() {
    let src = "function on_start()
          local id = ludus.spawn('enemy', 0, 0)
          ludus.set_state(id + 1, 'x', 1)
          ludus.destroy(id + 7)
        end";
    let mut g = game(src).unwrap();
    run(&mut g, 2).unwrap();
    assert_eq!(g.world().counters().stale_commands, 2);
    assert_eq!(g.world().entity_count(), 4);
}

#[test]
fn tag_queries_list_live_entities_in_creation_order() {
    let cases: &[(&str, &[&str])] = &[
        (
            "print(table.concat(ludus.find('enemy'), ','), ludus.count('enemy'))",
            &["2,3\t2"],
        ),
        (
            "ludus.destroy(2) print(table.concat(ludus.find('enemy'), ','), ludus.count('enemy'))",
            &["3\t1"],
        ),
        (
            "print(#ludus.find('player'), ludus.count('player'))",
            &["1\t1"],
        ),
        // A spawn sent this stage is not there yet.
        (
            "ludus.spawn('player', 1, 1) print(ludus.count('player'))",
            &["1"],
        ),
    ];
    for (body, want) in cases {
        let src = format!("function on_start() {body} end");
        assert_eq!(prints(&src, 1), *want, "{body}");
    }
}

#[test]
fn spatial_queries_order_by_distance_then_id() {
    let cases: &[(&str, &[&str])] = &[
        ("print(ludus.nearest(0, 0, 'enemy'))", &["2"]),
        ("print(ludus.nearest(290, 0, 'enemy'))", &["3"]),
        ("print(ludus.nearest(0, 0, 'enemy', 4))", &["nil"]),
        ("print(ludus.nearest(0, 0, 'enemy', 5))", &["2"]),
        (
            "print(table.concat(ludus.within(0, 0, 1000), ','))",
            &["1,2,3"],
        ),
        (
            "print(table.concat(ludus.within(300, 0, 1000), ','))",
            &["3,2,1"],
        ),
        (
            "print(table.concat(ludus.within(0, 0, 1000, 'enemy'), ','))",
            &["2,3"],
        ),
        ("print(#ludus.within(150, 500, 10))", &["0"]),
        // Equal distances: the lower id first.
        (
            "print(table.concat(ludus.within(2.5, 0, 10), ','), ludus.nearest(2.5, 0, 'enemy') or '-')",
            &["1,2\t2"],
        ),
        // Entities being destroyed this tick are left out.
        (
            "ludus.destroy(2) print(ludus.nearest(0, 0, 'enemy'), #ludus.within(0, 0, 10))",
            &["3\t1"],
        ),
    ];
    for (body, want) in cases {
        let src = format!("function on_start() {body} end");
        assert_eq!(prints(&src, 1), *want, "{body}");
    }
}

#[test]
fn spatial_queries_agree_with_a_scan_of_a_crowd() {
    let mut d = def();
    for i in 0..300u32 {
        let x = ((i * 7919) % 997) as f32 - 500.0;
        let y = ((i * 104_729) % 613) as f32 - 300.0;
        d.levels[0].placements.push(Placement {
            archetype: ENEMY,
            pos: Vec2::new(x, y),
            overrides: Overrides::default(),
        });
    }
    d.scripts.instruction_budget = 50_000_000;
    let src = "
        function on_start()
          local all = ludus.within(0, 0, 1e6)
          local bad = 0
          for q = 1, 40 do
            local qx, qy = (q * 37) % 900 - 450, (q * 53) % 500 - 250
            local r = 20 + (q * 11) % 150
            -- Brute force over every entity.
            local want = {}
            for _, id in ipairs(all) do
              local x, y = ludus.pos(id)
              local dx, dy = x - qx, y - qy
              if dx * dx + dy * dy <= r * r and ludus.kind(id) == 'enemy' then
                want[#want + 1] = { d = dx * dx + dy * dy, id = id }
              end
            end
            table.sort(want, function(a, b) if a.d ~= b.d then return a.d < b.d end return a.id < b.id end)
            local got = ludus.within(qx, qy, r, 'enemy')
            if #got ~= #want then bad = bad + 1 end
            for i = 1, #want do if got[i] ~= want[i].id then bad = bad + 1 end end
            local near = ludus.nearest(qx, qy, 'enemy')
            local best, bestd
            for _, id in ipairs(all) do
              local x, y = ludus.pos(id)
              local dd = (x - qx) ^ 2 + (y - qy) ^ 2
              if ludus.kind(id) == 'enemy' and (bestd == nil or dd < bestd or (dd == bestd and id < best)) then
                best, bestd = id, dd
              end
            end
            if near ~= best then bad = bad + 1 end
          end
          print(#all, bad)
        end";
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(said(&mut g), ["303\t0"]);
}

#[test]
fn spatial_work_is_charged_to_the_budget() {
    let mut d = def();
    for i in 0..2000 {
        d.levels[0].placements.push(Placement {
            archetype: ENEMY,
            pos: Vec2::new((i % 50) as f32 * 10.0, (i / 50) as f32 * 10.0),
            overrides: Overrides::default(),
        });
    }
    // 100 cheap calls fit the 200000-unit budget...
    let cheap = "function on_start() for i = 1, 100 do ludus.tick() end end";
    let mut g = game_with(d.clone(), &[("scripts/main.lua", cheap)], &[]).unwrap();
    run(&mut g, 1).unwrap();
    // ...100 queries that each visit every entity do not.
    let costly = "function on_start() for i = 1, 100 do ludus.within(0, 0, 1e6) end end";
    let mut g = game_with(d, &[("scripts/main.lua", costly)], &[]).unwrap();
    let f = run(&mut g, 1).unwrap_err();
    assert!(
        f.message.contains("instruction budget exceeded"),
        "{}",
        f.message
    );
    assert_eq!(f.location.as_deref(), Some("scripts/main.lua:1"));
}

#[test]
fn malformed_reads_fault_with_the_scripts_line() {
    let cases: &[(&str, &str)] = &[
        (
            "ludus.pos('a')",
            "ludus.pos: entity must be a number, got string",
        ),
        (
            "ludus.pos(0)",
            "ludus.pos: entity must be an entity id (>= 1), got 0",
        ),
        (
            "ludus.vel(1.5)",
            "ludus.vel: entity must be a whole number, got 1.5",
        ),
        (
            "ludus.find('enemys')",
            "ludus.find: unknown tag `enemys` (did you mean `enemy`?)",
        ),
        (
            "ludus.count(7)",
            "ludus.count: tag must be a string, got integer",
        ),
        (
            "ludus.nearest(0/0, 0, 'enemy')",
            "ludus.nearest: x must be a finite number, got NaN",
        ),
        (
            "ludus.within(0, 0, -1)",
            "ludus.within: radius must not be negative, got -1",
        ),
        (
            "ludus.within(0, 0, 1/0)",
            "ludus.within: radius must be a finite number, got inf",
        ),
        (
            "ludus.cooldown(1, 'shot')",
            "ludus.cooldown: archetype `player` declares no cooldown `shot` (it declares shoot)",
        ),
        (
            "ludus.use_cooldown(2, 'shoot')",
            "ludus.use_cooldown: archetype `enemy` declares no cooldown `shoot` (it declares none)",
        ),
        (
            "ludus.pressed('fier')",
            "ludus.pressed: unknown action `fier` (did you mean `fire`?)",
        ),
        (
            "ludus.load_level('elsewhere')",
            "ludus.load_level: unknown level `elsewhere`",
        ),
        (
            "ludus.set('banner', {})",
            "ludus.set: value must be a number or a string, got table",
        ),
        (
            "ludus.set('banner', string.rep('x', 5000))",
            "ludus.set: value is too long (5000 bytes; at most 4096)",
        ),
    ];
    let mut d = def();
    d.archetypes[0].cooldowns = vec![CooldownDef {
        name: "shoot".into(),
        ticks: 10,
    }];
    for (call, want) in cases {
        let src = format!("function on_start()\n  {call}\nend");
        let mut g = game_with(d.clone(), &[("scripts/main.lua", &src)], &[]).unwrap();
        let f = run(&mut g, 1).unwrap_err();
        assert_eq!(f.message, *want, "{call}");
        assert_eq!(f.location.as_deref(), Some("scripts/main.lua:2"), "{call}");
    }
}

#[test]
fn cooldowns_are_read_and_restarted_from_lua() {
    let mut d = def();
    d.archetypes[0].cooldowns = vec![CooldownDef {
        name: "shoot".into(),
        ticks: 10,
    }];
    let src = "
        function on_tick(t)
          local left = ludus.cooldown(1, 'shoot')
          if left == 0 then ludus.use_cooldown(1, 'shoot') end
          print(t.tick, left)
        end";
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).unwrap();
    run(&mut g, 12).unwrap();
    let lines = said(&mut g);
    let want: Vec<String> = [0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 9]
        .iter()
        .enumerate()
        .map(|(i, left)| format!("{}\t{left}", i + 1))
        .collect();
    assert_eq!(lines, want);
    // An entity that does not exist has no cooldown; using it is a stale command.
    let mut g = game("function on_start() print(ludus.cooldown(99, 'x')) end").unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(said(&mut g), ["nil"]);
}

#[test]
fn input_reads_come_from_the_ticks_input() {
    let mut d = def();
    d.actions.add("steer", ActionKind::Axis).unwrap();
    let src = "
        function on_tick(t)
          print(t.tick, ludus.held('fire'), ludus.pressed('fire'), ludus.released('fire'),
            ludus.axis('fire'), ludus.axis('steer'), ludus.held('steer'), ludus.pointer())
        end";
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).unwrap();
    let fire = ActionId(0);
    let steer = ActionId(1);
    let mut down = TickInput::neutral();
    down.set_held(fire, true);
    down.set_pressed(fire, true);
    down.set_axis(steer, -0.5);
    down.pointer = Some([12.5, -3.0]);
    let mut up = TickInput::neutral();
    up.set_released(fire, true);
    for input in [&down, &up, &TickInput::neutral()] {
        g.step(input).unwrap();
    }
    assert_eq!(
        said(&mut g),
        [
            "1\ttrue\ttrue\tfalse\t1.0\t-0.5\ttrue\t12.5\t-3.0",
            "2\tfalse\tfalse\ttrue\t0.0\t0.0\tfalse\tnil\tnil",
            "3\tfalse\tfalse\tfalse\t0.0\t0.0\tfalse\tnil\tnil",
        ]
    );
}

#[test]
fn touches_are_the_ticks_fingers_in_the_order_they_went_down() {
    let src = "
        function on_tick(t)
          local out = { t.tick, #ludus.touches() }
          for _, f in ipairs(ludus.touches()) do
            out[#out + 1] = string.format('%s:%s,%s:%s', f.id, f.x, f.y, math.type(f.id))
          end
          print(table.concat(out, ' '))
        end";
    let mut g = game_with(def(), &[("scripts/main.lua", src)], &[]).unwrap();
    let touches = |t: Vec<Touch>| TickInput {
        touches: t,
        ..TickInput::neutral()
    };
    let two = touches(vec![
        Touch::new(7, [12.5, -3.0]),
        Touch::new(0, [-1e9, 4.0]),
    ]);
    let one = touches(vec![Touch::new(4_000_000_000, [0.25, 0.0])]);
    for input in [&TickInput::neutral(), &two, &one] {
        g.step(input).unwrap();
    }
    let want = [
        "1 0",
        "2 2 7:12.5,-3.0:integer 0:-1000000000.0,4.0:integer",
        "3 1 4000000000:0.25,0.0:integer",
    ];
    assert_eq!(said(&mut g), want);
}

#[test]
fn variables_hold_numbers_and_texts() {
    let src = "
        function on_tick(t)
          if t.tick == 1 then ludus.set('banner', 'YOU WIN') ludus.set('n', 2.5) end
          if t.tick == 2 then
            print(ludus.get('banner'), math.type(ludus.get('n')), ludus.get('n'), ludus.get('none'))
            ludus.set('banner', 3)
          end
          if t.tick == 3 then print(ludus.get('banner')) end
        end";
    let mut g = game(src).unwrap();
    run(&mut g, 3).unwrap();
    assert_eq!(said(&mut g), ["YOU WIN\tfloat\t2.5\tnil", "3"]);
    assert_eq!(g.world().vars().get("banner"), Some(&Var::Num(3.0)));
}

#[test]
fn on_tick_runs_every_tick_after_on_start() {
    let src = "
        function on_start(s) print('start', s.tick, s.level) end
        function on_tick(t) print('tick', t.tick, t.level) end";
    let mut d = def();
    d.levels[0].name = "cave".into();
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).unwrap();
    run(&mut g, 3).unwrap();
    assert_eq!(
        said(&mut g),
        [
            "start\t1\tcave",
            "tick\t1\tcave",
            "tick\t2\tcave",
            "tick\t3\tcave"
        ]
    );
}

#[test]
fn game_over_and_load_level_are_the_games_flow() {
    let mut d = def();
    d.levels[0].name = "one".into();
    let mut two = d.levels[0].clone();
    two.name = "two".into();
    two.placements.truncate(1);
    d.levels.push(two);
    let src = "
        visits = (visits or 0)
        function on_start(s)
          visits = visits + 1
          print('start', s.level, visits, ludus.score(), ludus.get('coins'))
        end
        function on_tick(t)
          if t.level == 'one' and t.tick == 2 then
            ludus.add_score(5) ludus.set('coins', 3) ludus.load_level('two')
          end
          if t.level == 'two' and t.tick == 2 then
            ludus.game_over('first') ludus.game_over('second')
          end
        end";
    let mut g = game_with(d, &[("scripts/main.lua", src)], &[]).unwrap();
    run(&mut g, 1).unwrap();
    assert_eq!(g.flow(), Flow::Continue);
    run(&mut g, 1).unwrap();
    assert_eq!(g.flow(), Flow::Switch(1));
    assert_eq!(
        g.load(&LoadRequest::Switch(1)),
        LoadStatus::Ready(Mode::Playing)
    );
    run(&mut g, 2).unwrap();
    assert_eq!(g.flow(), Flow::Over);
    assert_eq!(g.world().game_over(), Some((2, "first")));
    assert_eq!(g.world().entity_count(), 1);
    // A restart resets the score, the variables and the scripts, and begins where the game
    // began.
    assert_eq!(
        g.load(&LoadRequest::Restart),
        LoadStatus::Ready(Mode::Playing)
    );
    run(&mut g, 1).unwrap();
    assert_eq!(
        said(&mut g),
        [
            "start\tone\t1\t0\tnil",
            "start\ttwo\t2\t5\t3",
            "start\tone\t1\t0\tnil"
        ]
    );
}

/// `restart` and `pause` ask the app for that after the tick, once (asked twice, or both with
/// `game_over`, the restart comes first); the next tick asks nothing again. Only the tick
/// that asks hashes differently.
#[test]
fn restart_and_pause_are_asked_of_the_app_for_after_the_tick() {
    let src = "
        function on_tick(t)
          if t.tick == 2 then ludus.pause() ludus.pause() end
          if t.tick == 4 then ludus.restart() ludus.pause() ludus.game_over('x') ludus.restart() end
        end";
    let mut g = game_with(def(), &[("scripts/main.lua", src)], &[]).unwrap();
    let mut plain = game_with(def(), &[("scripts/main.lua", "-- asks nothing")], &[]).unwrap();
    // (tick, flow, asked, hashes as a game that asks nothing)
    let rows = [
        (1, Flow::Continue, Asked::default(), true),
        (
            2,
            Flow::Pause,
            Asked {
                restart: false,
                pause: true,
            },
            false,
        ),
        (3, Flow::Continue, Asked::default(), true),
        (
            4,
            Flow::Restart,
            Asked {
                restart: true,
                pause: true,
            },
            false,
        ),
    ];
    for (tick, flow, asked, same) in rows {
        run(&mut g, 1).unwrap();
        run(&mut plain, 1).unwrap();
        assert_eq!(g.flow(), flow, "tick {tick}");
        assert_eq!(g.world().asked(), asked, "tick {tick}");
        let hashes = (StateHash::of(g.world()), StateHash::of(plain.world()));
        assert_eq!(hashes.0 == hashes.1, same, "tick {tick}: {hashes:?}");
    }
    assert_eq!(
        g.load(&LoadRequest::Restart),
        LoadStatus::Ready(Mode::Playing)
    );
    assert_eq!((g.world().tick(), g.flow()), (0, Flow::Continue));
}

#[test]
fn impulses_angles_and_spins_are_commands_and_angle_a_read() {
    let src = "
        function on_tick(t)
          if t.tick == 1 then
            print(ludus.angle(2), ludus.angle(99))
            ludus.impulse(2, 60, 0)
            ludus.set_angle(2, 1.25)
            ludus.set_spin(3, 6)
            ludus.set_angle(3, 7)
          end
          if t.tick == 2 then
            local vx = ludus.vel(2)
            print(vx, ludus.angle(2), math.floor(ludus.angle(3) * 1000 + 0.5))
          end
        end";
    let mut g = game(src).unwrap();
    run(&mut g, 2).unwrap();
    // 7 radians wraps to 7 - 2 pi; spin 6 rad/s turns it 0.1 more by the end of tick 2.
    assert_eq!(said(&mut g), ["0.0\tnil", "60.0\t1.25\t817"]);
    for (call, want) in [
        (
            "ludus.impulse(1, 0/0, 0)",
            "ludus.impulse: ix must be a finite number, got NaN",
        ),
        (
            "ludus.set_spin(1, 'fast')",
            "ludus.set_spin: spin must be a number, got string",
        ),
    ] {
        let src = format!("function on_start()\n  {call}\nend");
        let f = run(&mut game(&src).unwrap(), 1).unwrap_err();
        assert_eq!(
            (f.message.as_str(), f.location.as_deref()),
            (want, Some("scripts/main.lua:2"))
        );
    }
}
