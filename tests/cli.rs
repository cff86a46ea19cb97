//! The `ludus` command line, end to end: check, new and sim, their failure modes, and output
//! into a closed pipe. Every test runs the real binary in a fresh process.

mod support;

use support::cli::{example, input_lines, ludus, scratch, summary, text};

#[test]
fn check_accepts_the_example_and_reports_bad_games_with_positions() {
    let o = ludus().arg("check").arg(example()).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("ok"), "{out}");
    assert_eq!(
        err, "",
        "the example's scripts have no lint, not even a warning"
    );

    let dir = scratch("bad");
    std::fs::write(
        dir.join("game.toml"),
        "name = \"x\"\n[tick]\nrate = 0\nratee = 1\n",
    )
    .unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let shown = dir.join("game.toml").display().to_string();
    assert!(
        err.contains(&format!("{shown}:3:")),
        "file:line:col of the bad rate: {err}"
    );
    assert!(err.contains("did you mean"), "{err}");

    let o = ludus()
        .arg("check")
        .arg(dir.join("missing"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = ludus().arg("check").output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "a missing argument is a usage error"
    );
    let o = ludus().args(["sim", "--no-such-flag"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_reports_script_errors_with_their_line() {
    let dir = scratch("script");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(
        dir.join("game.toml"),
        "name = \"x\"\n[scripts]\nfiles = [\"scripts/main.lua\"]\n[levels.main]\n",
    )
    .unwrap();
    std::fs::write(dir.join("scripts/main.lua"), "local a = 1\nlocal b = = 2\n").unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("scripts/main.lua:2:"), "{err}");
    std::fs::write(dir.join("scripts/main.lua"), "while true do end\n").unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a runaway top level is caught by the budget: {err}"
    );
    assert!(err.contains("instruction budget"), "{err}");
}

/// A game whose scripts name things it does not declare, misspell a handler and a `ludus`
/// function, and require a module with its own mistake.
const LINTED_GAME: &str = "name = \"x\"\ntags = [\"player\", \"enemy\"]\n\
    [scripts]\nfiles = [\"scripts/main.lua\"]\n[constants]\nspeed = 3\n\
    [sounds.shoot]\nwave = \"square\"\n[archetypes.bullet]\ncooldowns = { fire = 10 }\n\
    [levels.main]\n";

const LINTED_MAIN: &str = "local util = require(\"util\")\n\
    \n\
    function on_strat()\n\
    \x20 ludus.spawn(\"bulet\", 0, 0)\n\
    end\n\
    \n\
    function on_hit(e) end\n\
    \n\
    function on_tick()\n\
    \x20 ludus.destory(1)\n\
    \x20 if ludus.cooldown(1, \"fier\") == 0 then ludus.sound(\"shot\") end\n\
    \x20 return ludus.const.sped + ludus.count(\"enmy\")\n\
    end\n";

#[test]
fn check_lints_scripts_and_their_modules() {
    let dir = scratch("lint");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("game.toml"), LINTED_GAME).unwrap();
    std::fs::write(dir.join("scripts/main.lua"), LINTED_MAIN).unwrap();
    std::fs::write(
        dir.join("scripts/util.lua"),
        "return { go = function() ludus.load_level(\"lvl2\") end }\n",
    )
    .unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (out, err) = text(&o);
    let main = dir.join("scripts/main.lua").display().to_string();
    let util = dir.join("scripts/util.lua").display().to_string();
    let handlers: Vec<String> = ludus_core::EVENT_KINDS
        .iter()
        .map(|k| format!("`{}`", k.handler))
        .collect();
    let handlers = handlers.join(", ");
    let expect = [
        format!("{main}:3:10: error: `on_strat` is not an event handler"),
        " 3 | function on_strat()".into(),
        "   |          ^^^^^^^^".into(),
        "   = help: did you mean `on_start`?".into(),
        String::new(),
        format!("{main}:4:15: error: unknown archetype `bulet`"),
        " 4 |   ludus.spawn(\"bulet\", 0, 0)".into(),
        "   |               ^^^^^^^".into(),
        "   = help: did you mean `bullet`?".into(),
        String::new(),
        format!("{main}:7:10: warning: `on_hit` is not an event handler"),
        " 7 | function on_hit(e) end".into(),
        "   |          ^^^^^^".into(),
        format!("   = help: nothing in this file calls it, and the host calls only {handlers}"),
        String::new(),
        format!("{main}:10:9: error: `ludus.destory` does not exist"),
        " 10 |   ludus.destory(1)".into(),
        "    |         ^^^^^^^".into(),
        "    = help: did you mean `ludus.destroy`?".into(),
        String::new(),
        format!("{main}:11:24: error: no archetype declares a cooldown `fier`"),
        " 11 |   if ludus.cooldown(1, \"fier\") == 0 then ludus.sound(\"shot\") end".into(),
        "    |                        ^^^^^^".into(),
        "    = help: did you mean `fire`?".into(),
        String::new(),
        format!("{main}:11:54: error: unknown sound `shot`"),
        " 11 |   if ludus.cooldown(1, \"fier\") == 0 then ludus.sound(\"shot\") end".into(),
        "    |                                                      ^^^^^^".into(),
        "    = help: did you mean `shoot`?".into(),
        String::new(),
        format!("{main}:12:22: error: `ludus.const.sped` is not declared"),
        " 12 |   return ludus.const.sped + ludus.count(\"enmy\")".into(),
        "    |                      ^^^^".into(),
        "    = help: did you mean `speed`?".into(),
        String::new(),
        format!("{main}:12:41: error: unknown tag `enmy`"),
        " 12 |   return ludus.const.sped + ludus.count(\"enmy\")".into(),
        "    |                                         ^^^^^^".into(),
        "    = help: did you mean `enemy`?".into(),
        String::new(),
        format!("{util}:1:43: error: unknown level `lvl2`"),
        " 1 | return { go = function() ludus.load_level(\"lvl2\") end }".into(),
        "   |                                           ^^^^^^".into(),
        "   = help: the game's levels are `main`".into(),
        String::new(),
        "8 errors and 1 warning found".into(),
    ];
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines, expect, "every lint, in file and line order");
    assert_eq!(o.status.code(), Some(1), "errors fail the check: {out}");

    // Warnings alone do not: the check passes and says how many there were.
    std::fs::write(
        dir.join("scripts/main.lua"),
        "function on_hit(e) end\nfunction on_start() ludus.spawn(\"bullet\", 0, 0) end\n",
    )
    .unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "only a warning: {err}");
    assert!(err.starts_with(&format!("{main}:1:10: warning: ")), "{err}");
    assert!(
        out.contains(": ok (1 archetype, 1 level, 1 script, 1 warning, "),
        "{out}"
    );
}

/// Any folder name: one with a line break, quotes and a backslash is the game's name, escaped
/// in game.toml; one that is only spaces is refused.
#[test]
fn new_creates_a_game_that_checks_and_runs() {
    let tmp = scratch("new");
    for name in ["tiny", "two\nlines \"quoted\" back\\slash"] {
        let dir = tmp.join(name);
        let o = ludus().arg("new").arg(&dir).output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        let o = ludus().arg("check").arg(&dir).output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        let o = ludus()
            .args(["sim", "--ticks", "600"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        assert_eq!(summary(&o)["faulted"], false);
    }
    let o = ludus().arg("new").arg(tmp.join("  ")).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("\"  \" is only spaces"), "{err}");
}

#[test]
fn the_example_plays_scripted_input_until_its_game_over_without_fault() {
    let dir = scratch("long");
    let input = dir.join("input.jsonl");
    std::fs::write(&input, input_lines(10_000)).unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "10000", "--check-invariants", "--input"])
        .arg(&input)
        .arg(example())
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(s["faulted"], false, "{s}");
    // The scripted player is overwhelmed before tick 10000: the run stops at that tick.
    assert_eq!(s["game_over"]["message"], "Game over", "{s}");
    assert_eq!(s["ticks"], s["game_over"]["tick"], "{s}");
    assert!(s["ticks"].as_u64().unwrap() > 1000, "{s}");
    assert!(
        s["score"].as_i64().unwrap() > 0,
        "the scripted player scores: {s}"
    );
    assert_eq!(s["hash"].as_str().unwrap().len(), 16);
}

#[test]
fn bad_input_files_name_the_file_and_line() {
    let dir = scratch("input");
    let input = dir.join("bad.jsonl");
    std::fs::write(
        &input,
        "{\"tick\":1,\"press\":[\"fire\"]}\n{\"tick\":2,\"press\":[\"jump\"]}\n",
    )
    .unwrap();
    let o = ludus()
        .args(["sim", "--input"])
        .arg(&input)
        .arg(example())
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("bad.jsonl:2: unknown action `jump`"), "{err}");
    std::fs::write(&input, "{\"dt_ms\":16}\n{\"dt_ms\":-1}\n").unwrap();
    let o = ludus()
        .args(["sim", "--frames"])
        .arg(&input)
        .arg(example())
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert!(err.contains("bad.jsonl:2:"), "{err}");
    std::fs::write(&input, "{\"press\":[\"fire\"]}\n").unwrap();
    let o = ludus()
        .args(["sim", "--frames"])
        .arg(&input)
        .arg(example())
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert!(err.contains("needs `dt_ms` or `dt_ns`"), "{err}");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let dir = scratch("closed-pipe");
    let mut child = ludus()
        .args([
            "bench", "--render", "--from", "300", "--to", "600", "--ticks", "2",
        ])
        .args(["--warmup", "0", "--csv"])
        .arg(dir.join("r.csv"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Nobody reads: the first line printed meets a closed pipe.
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("internal error"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}

/// The names a HUD reads that the game neither declares nor sets from a script are errors at
/// their place in game.toml, with the closest known name; where a script sets variables by
/// computed names they may be those, and are warnings.
#[test]
fn check_reports_hud_names_nothing_declares_or_sets() {
    let dir = scratch("hud-names");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    let game = "name = \"Hud names\"\n\
                hud = [\"score {scroe}\", \"{lives}/{max_lives} {where}\", { bar = \"hp\", max = \"hp_top\" }]\n\
                [variables]\nlives = 3\n[constants]\nmax_lives = 5\n\
                [scripts]\nfiles = [\"scripts/main.lua\"]\n[levels.main]\n";
    std::fs::write(dir.join("game.toml"), game).unwrap();
    let main = "function on_start()\n  ludus.set(\"where\", \"here\")\n  ludus.set('hp', 3)\nend\n";
    std::fs::write(dir.join("scripts/main.lua"), main).unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (_, err) = text(&o);
    let toml = dir.join("game.toml").display().to_string();
    let line = " 2 | hud = [\"score {scroe}\", \"{lives}/{max_lives} {where}\", { bar = \"hp\", max = \"hp_top\" }]";
    let expect = [
        format!("{toml}:2:15: error: unknown `{{scroe}}` in a HUD text"),
        line.to_string(),
        "   |               ^^^^^^^".into(),
        "   = help: did you mean `score`?".into(),
        String::new(),
        format!("{toml}:2:76: error: unknown variable `hp_top` in `hud.max`"),
        line.to_string(),
        "   |                                                                            ^^^^^^^^".into(),
        "   = help: no script sets it (`ludus.set(\"hp_top\", v)`), and `[variables]` and `[constants]` do not declare it".into(),
        String::new(),
        "2 errors found".into(),
    ];
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines, expect, "{err}");
    assert_eq!(o.status.code(), Some(1));

    // A name set by a computed name may be any: warnings, and the check passes.
    let computed = format!("{main}function on_timer(e) ludus.set(e.name, 1) end\n");
    std::fs::write(dir.join("scripts/main.lua"), computed).unwrap();
    let o = ludus().arg("check").arg(&dir).output().unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains(": warning: ")).collect();
    assert_eq!(
        warnings,
        [
            format!("{toml}:2:15: warning: unknown `{{scroe}}` in a HUD text"),
            format!("{toml}:2:76: warning: unknown variable `hp_top` in `hud.max`"),
        ],
        "{err}"
    );
    assert!(out.contains("2 warnings"), "{out}");
}

/// `ludus sim` counts the spawns outside their own bounds in its summary and warns once per
/// archetype on standard error; they follow their rule (the pipes are gone at once), and an
/// archetype whose margin reaches its spawn is neither counted nor lost.
#[test]
fn sim_counts_spawns_outside_their_bounds_and_warns_once_per_archetype() {
    let dir = scratch("outside");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    let game = r#"name = "Pipes"
[scripts]
files = ["scripts/pipes.lua"]
[archetypes.pipe]
bounds = "destroy"
velocity = [-60, 0]
[archetypes.far_pipe]
bounds = { rule = "destroy", margin = 100 }
velocity = [-60, 0]
[levels.main]
bounds = { size = [400, 300] }
"#;
    let script = r#"
function on_tick(e)
  if e.tick % 10 == 1 then
    ludus.spawn("pipe", 260, 0)
    ludus.spawn("far_pipe", 260, 0)
  end
end
"#;
    std::fs::write(dir.join("game.toml"), game).unwrap();
    std::fs::write(dir.join("scripts/pipes.lua"), script).unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "30"])
        .arg(&dir)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    let s = summary(&o);
    assert_eq!(s["faulted"], false, "{s}");
    // Three pipes of each kind, spawned at ticks 1, 11 and 21: the pipes outside at once,
    // the far pipes 60 units inside their margin, all alive.
    assert_eq!(s["spawned_outside"], 3, "{s}");
    assert_eq!(s["entities"], 3, "{s}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(
        warnings,
        [
            "warning: `pipe` spawned at (260, 0), outside its bounds (the level's bounds grown by its margin, 0): its `bounds` rule destroys it on its first tick; give it a margin that reaches where it spawns, or use `offscreen = \"destroy\"`"
        ],
        "{err}"
    );
}

/// Blows to an entity whose health reached 0 are discarded and counted in the summary's
/// `after_death`: three blows of 2 on 3 health each tick for 4 ticks kill on the first tick's
/// second blow; the third and the 9 after it (heals too) are discarded.
#[test]
fn sim_counts_blows_after_death() {
    let dir = scratch("after-death");
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    let game = r#"name = "Blows"
tags = ["foe"]
[scripts]
files = ["scripts/blows.lua"]
[archetypes.foe]
tags = ["foe"]
health = { max = 3 }
[levels.main]
[[levels.main.place]]
archetype = "foe"
at = [0, 0]
"#;
    let script = r#"
local foe
function on_start() foe = ludus.find("foe")[1] end
function on_tick(e)
  if e.tick <= 4 then
    for _ = 1, 3 do ludus.damage(foe, 2) end
    if e.tick == 4 then ludus.heal(foe, 1) end
  end
end
"#;
    std::fs::write(dir.join("game.toml"), game).unwrap();
    std::fs::write(dir.join("scripts/blows.lua"), script).unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "6"])
        .arg(&dir)
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(s["faulted"], false, "{s}");
    assert_eq!(s["after_death"], 11, "{s}");
}

/// `ludus sim --inspect ID` ends the summary with the entity's record: the dungeon's hero
/// after 60 ticks of its test's input (hurt once by slime #2), and `null` for an id no entity
/// has; without it the summary has no `inspect`.
#[test]
fn sim_inspect_adds_the_entitys_record_to_the_summary() {
    let dungeon = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dungeon");
    let sim = |extra: &[&str]| {
        let o = ludus()
            .arg("sim")
            .arg(&dungeon)
            .args(["--ticks", "60", "--input"])
            .arg(dungeon.join("tests/clear.jsonl"))
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        summary(&o)
    };
    let hero = &sim(&["--inspect", "1"])["inspect"];
    // (field, value)
    let cases = [
        ("id", "1"),
        ("kind", r#""hero""#),
        ("tags", r#"["hero"]"#),
        ("health", "4"),
        ("max_health", "5"),
        ("state", "{}"),
        ("cooldowns", r#"{"swing":6,"dash":0}"#),
        ("animation", r#"{"name":"walk","since":0}"#),
        ("behaviour", "null"),
        ("parent", "null"),
        ("timers", "[]"),
    ];
    for (field, value) in cases {
        let value: serde_json::Value = serde_json::from_str(value).unwrap();
        assert_eq!(hero[field], value, "{field}: {hero}");
    }
    let events: Vec<String> = hero["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{} {}", e["tick"], e["handler"].as_str().unwrap()))
        .collect();
    assert_eq!(
        events,
        [
            "1 on_spawn",
            "2 on_action",
            "11 on_timer",
            "50 on_action",
            "51 on_collision_enter",
            "51 on_damage",
            "52 on_collision_exit"
        ],
        "{hero}"
    );
    assert_eq!(hero["events"][5]["event"]["source"], 2, "hurt by slime #2");
    assert!(hero["x"].is_f64() && hero["vy"].is_f64(), "{hero}");
    assert_eq!(
        sim(&["--inspect", "999"])["inspect"],
        serde_json::Value::Null
    );
    assert!(sim(&[]).get("inspect").is_none(), "no record unless asked");
}

#[test]
fn sim_serial_runs_the_same_game_as_split_passes() {
    // 20,000 drones: motion's pass, the plan and the search split between two threads where
    // the machine has them and that runs faster; `--serial` keeps every pass on one thread.
    let dir = scratch("serial");
    let input = dir.join("input.jsonl");
    std::fs::write(&input, input_lines(60)).unwrap();
    let run = |serial: bool| {
        let mut cmd = ludus();
        cmd.args(["sim", "--entities", "20000", "--ticks", "60", "--input"])
            .arg(&input)
            .arg(example());
        if serial {
            cmd.arg("--serial");
        }
        summary(&cmd.output().unwrap())
    };
    let (split, serial) = (run(false), run(true));
    assert_eq!(serial["faulted"], false, "{serial}");
    assert_eq!(serial["ticks"], 60, "{serial}");
    assert_eq!(serial["entities"], split["entities"], "{serial} {split}");
    assert_eq!(serial["hash"], split["hash"], "{serial} {split}");
}
