//! Every recipe of docs/scripting.md's cookbook runs here, unchanged, against the game the
//! cookbook describes, and does what the docs say it does.

mod support;

use ludus_core::*;
use support::*;

/// The recipe under `<!-- cookbook: NAME -->` in docs/scripting.md.
fn recipe(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scripting.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let marker = format!("<!-- cookbook: {name} -->\n```lua\n");
    let start = doc
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/scripting.md has no cookbook recipe `{name}`"))
        + marker.len();
    let end = start + doc[start..].find("```").unwrap();
    doc[start..end].to_string()
}

/// The cookbook's game: the host tests' player and enemies, a `shoot` cooldown on the player,
/// four move buttons and two levels.
fn cookbook_def() -> GameDef {
    let mut d = def();
    d.archetypes[0].cooldowns = vec![CooldownDef {
        name: "shoot".into(),
        ticks: 20,
    }];
    for name in ["left", "right", "up", "down"] {
        d.actions.add(name, ActionKind::Button).unwrap();
    }
    d.levels[0].name = "one".into();
    let mut two = d.levels[0].clone();
    two.name = "two".into();
    two.placements.truncate(2);
    d.levels.push(two);
    d
}

fn action(d: &GameDef, name: &str) -> ActionId {
    d.actions.find(name).unwrap()
}

/// Plays `ticks` ticks of the recipe (plus an optional probe script), following the game's
/// flow as the app does: a level switch between ticks, nothing after a game over.
fn play(
    d: GameDef,
    name: &str,
    probe: &str,
    ticks: u64,
    input: impl Fn(&GameDef, u64) -> TickInput,
) -> (Game, Vec<String>) {
    let src = recipe(name);
    let mut files = vec![("scripts/main.lua", src.as_str())];
    if !probe.is_empty() {
        files.push(("scripts/probe.lua", probe));
    }
    let mut g = game_with(d.clone(), &files, &[]).unwrap();
    for n in 1..=ticks {
        g.step(&input(&d, n))
            .unwrap_or_else(|f| panic!("{name}: {f}"));
        match g.flow() {
            Flow::Continue | Flow::Pause => {}
            Flow::Over => break,
            Flow::Restart => {
                assert!(matches!(
                    g.load(&LoadRequest::Restart),
                    LoadStatus::Ready(_)
                ));
            }
            Flow::Switch(level) => {
                assert!(matches!(
                    g.load(&LoadRequest::Switch(level)),
                    LoadStatus::Ready(_)
                ));
            }
        }
    }
    let lines = g
        .consequences_mut()
        .drain_log()
        .into_iter()
        .map(|l| {
            l.rsplit_once(": ")
                .map_or(l.clone(), |(_, m)| m.to_string())
        })
        .collect();
    (g, lines)
}

fn idle(_: &GameDef, _: u64) -> TickInput {
    TickInput::neutral()
}

#[test]
fn remember_a_spawned_entity() {
    let probe = "function on_tick(t)
          if t.tick == 2 then print(ludus.state(4, 'post'), ludus.count('enemy')) end
          if t.tick == 61 then print(ludus.alive(4), ludus.count('enemy')) end
        end";
    let (_, lines) = play(cookbook_def(), "remember", probe, 61, idle);
    assert_eq!(lines, ["1.0\t3", "false\t2"]);
}

#[test]
fn do_something_every_tick_with_the_players_position() {
    let probe = "function on_tick(t)
          if t.tick == 61 then local x, y = ludus.pos(3) print(math.floor(x + 0.5), y) end
        end";
    let (_, lines) = play(cookbook_def(), "chase", probe, 61, idle);
    // 60 ticks at 40 units per second toward the player at (0, 0): 40 units closer.
    assert_eq!(lines, ["260\t0.0"]);
}

#[test]
fn hit_the_nearest_enemy_with_a_cooldown_from_lua() {
    let fire = |d: &GameDef, _| {
        let mut i = TickInput::neutral();
        i.set_held(action(d, "fire"), true);
        i
    };
    let (g, _) = play(cookbook_def(), "turret", "", 130, fire);
    // Three hits each, the near enemy first, one hit every 20 ticks.
    assert_eq!((g.world().score(), g.world().entity_count()), (20, 1));
    let (g, _) = play(cookbook_def(), "turret", "", 130, idle);
    assert_eq!((g.world().score(), g.world().entity_count()), (0, 3));
}

#[test]
fn count_each_kill_once_and_see_the_count_at_once() {
    // Fire once on tick 3: three blows on each of the three enemies (3 health each).
    let fire_once = |d: &GameDef, n: u64| {
        let mut i = TickInput::neutral();
        i.set_held(action(d, "fire"), n == 3);
        i.set_pressed(action(d, "fire"), n == 3);
        i
    };
    let (g, _) = play(cookbook_def(), "kills", "", 6, fire_once);
    assert_eq!(
        (
            g.world().score(),
            var(&g, "kills"),
            var(&g, "born_alive"),
            g.world().game_over().map(|(_, m)| m.to_string()),
        ),
        (
            30,
            Some(3.0),
            Some(0.0),
            Some("CLEARED, score 30".to_string()),
        ),
        "three kills paid once each, the total seen in the stage that made it"
    );
}

#[test]
fn text_on_screen() {
    let text = |g: &Game| g.world().vars().get("banner").map(|v| v.to_string());
    let (g, _) = play(cookbook_def(), "banner", "", 89, idle);
    assert_eq!(text(&g).as_deref(), Some("GET READY"));
    let (g, _) = play(cookbook_def(), "banner", "", 91, idle);
    assert_eq!(text(&g).as_deref(), Some(""));
}

#[test]
fn win_lose_and_the_next_level() {
    let press_every_10 = |d: &GameDef, n: u64| {
        let mut i = TickInput::neutral();
        if n.is_multiple_of(10) {
            i.set_held(action(d, "fire"), true);
            i.set_pressed(action(d, "fire"), true);
        }
        i
    };
    let probe = "function on_start(s) print('level', s.level, ludus.score()) end";
    let (g, lines) = play(cookbook_def(), "levels", probe, 100, press_every_10);
    assert_eq!(lines, ["level\tone\t0", "level\ttwo\t0"]);
    assert_eq!(g.world().game_over().map(|(_, m)| m), Some("YOU WIN"));
    assert_eq!(g.world().level(), 1);
}

#[test]
fn a_turn_based_move() {
    let mut d = cookbook_def();
    d.tick.mode = TickMode::Turns;
    let moves = ["right", "right", "down"];
    let press = |d: &GameDef, n: u64| {
        let mut i = TickInput::neutral();
        if let Some(m) = n.checked_sub(2).and_then(|k| moves.get(k as usize)) {
            i.set_pressed(action(d, m), true);
        }
        i
    };
    let probe = "function on_tick(t) if t.tick == 5 then print(ludus.pos(1)) end end";
    let (g, lines) = play(d, "turns", probe, 5, press);
    assert_eq!(lines, ["64.0\t32.0"]);
    assert_eq!(g.world().vars().get("turn"), Some(&Var::Num(3.0)));
}

#[test]
fn keep_a_best_score() {
    // Another script scores a point a tick; the recipe sees each score a stage later.
    let probe = "function on_tick() ludus.add_score(1) end";
    let (mut g, _) = play(cookbook_def(), "best", probe, 10, idle);
    let best = |g: &Game| (g.world().saved().get("best").cloned(), var(g, "best"));
    assert_eq!(
        best(&g),
        (Some(Var::Num(9.0)), Some(9.0)),
        "saved and shown"
    );
    assert!(matches!(
        g.load(&LoadRequest::Restart),
        LoadStatus::Ready(_)
    ));
    g.step(&TickInput::neutral()).unwrap();
    assert_eq!(
        best(&g),
        (Some(Var::Num(9.0)), Some(9.0)),
        "read back after a restart"
    );
}

#[test]
fn blink_after_a_hit() {
    // Another script hits the player on tick 10: it blinks from tick 11 to 69.
    let probe = "function on_tick(t) if t.tick == 10 then ludus.damage(1, 1) end end";
    let alpha = |ticks: u64| {
        let (g, _) = play(cookbook_def(), "blink", probe, ticks, idle);
        let e = g.world().entity(1).unwrap();
        g.world().ecs().get::<&Look>(e).ok().and_then(|l| l.alpha)
    };
    let expected = [
        (10, None),
        (11, Some(0.3)),
        (15, Some(1.0)),
        (20, Some(0.3)),
        (64, Some(0.3)),
        (65, Some(1.0)),
        (70, Some(1.0)),
    ];
    for (tick, a) in expected {
        assert_eq!(alpha(tick), a, "after tick {tick}");
    }
}
