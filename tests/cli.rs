//! The `ludus` command line, end to end: check, new, sim, replay, and their failure modes.
//! Every test runs the real binary in a fresh process.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ludus() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ludus-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A deterministic play session: fire held, the movement direction changing every 90 ticks.
fn input_lines(ticks: u64) -> String {
    let dirs = [
        (1.0, 0.0),
        (0.0, 1.0),
        (-1.0, 0.0),
        (0.0, -1.0),
        (0.7, 0.7),
        (-0.7, -0.7),
    ];
    let mut out =
        String::from("{\"tick\":1,\"press\":[\"fire\"],\"axis\":{\"move_x\":1,\"move_y\":0}}\n");
    let mut t = 90;
    let mut i = 1;
    while t <= ticks {
        let (x, y) = dirs[i % dirs.len()];
        out.push_str(&format!(
            "{{\"tick\":{t},\"axis\":{{\"move_x\":{x},\"move_y\":{y}}}}}\n"
        ));
        if i % 7 == 0 {
            out.push_str(&format!("{{\"tick\":{},\"release\":[\"fire\"]}}\n", t + 1));
            out.push_str(&format!("{{\"tick\":{},\"press\":[\"fire\"]}}\n", t + 20));
        }
        t += 90;
        i += 1;
    }
    out
}

fn summary(o: &Output) -> serde_json::Value {
    let (out, err) = text(o);
    serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("sim printed one JSON object ({e}): {out} {err}"))
}

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

#[test]
fn new_creates_a_game_that_checks_and_runs() {
    let dir = scratch("new").join("tiny");
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
fn a_recording_replays_identically_in_a_fresh_process() {
    let dir = scratch("replay");
    let input = dir.join("input.jsonl");
    let rec = dir.join("run.rec");
    std::fs::write(&input, input_lines(10_000)).unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "10000", "--input"])
        .arg(&input)
        .arg("--record")
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let o_sim = o;
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let played = summary(&o_sim)["ticks"].as_u64().unwrap();
    assert!(out.contains(&format!("replayed {played} ticks")), "{out}");

    // A value perturbed just before tick 1234 is reported as a divergence at tick 1234.
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .args(["--perturb-tick", "1234"])
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(out.contains("diverged at tick 1234"), "{out}");
    assert!(out.contains("globals"), "names the differing part: {out}");
}

#[test]
fn detailed_recordings_name_the_entity_that_diverged() {
    let dir = scratch("detail");
    let rec = dir.join("run.rec");
    let o = ludus()
        .args(["sim", "--ticks", "300", "--record-detail", "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}", text(&o));
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .args(["--perturb-tick", "200"])
        .output()
        .unwrap();
    let (out, _) = text(&o);
    assert!(out.contains("diverged at tick 200"), "{out}");
}

#[test]
fn damaged_and_mismatched_recordings_are_refused_cleanly() {
    let dir = scratch("damaged");
    let rec = dir.join("run.rec");
    let o = ludus()
        .args(["sim", "--ticks", "200", "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success());
    let bytes = std::fs::read(&rec).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        (
            "flipped",
            {
                let mut b = bytes.clone();
                let i = b.len() / 2;
                b[i] ^= 0x5a;
                b
            },
            "corrupt",
        ),
        (
            "not a recording",
            b"hello".to_vec(),
            "not a Ludus recording",
        ),
        ("empty", Vec::new(), "not a Ludus recording"),
        (
            "future version",
            {
                let mut b = bytes.clone();
                b[8] = 99;
                b
            },
            "version",
        ),
    ];
    for (name, content, expect) in cases {
        let path = dir.join(format!("{}.rec", name.replace(' ', "_")));
        std::fs::write(&path, content).unwrap();
        let o = ludus().arg("replay").arg(&path).output().unwrap();
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {out}{err}");
        assert!(err.contains(expect), "{name}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "{name}: {err}"
        );
    }
    // The same recording's input cannot run on a game without its level.
    let other = scratch("other").join("g");
    assert!(
        ludus()
            .arg("new")
            .arg(&other)
            .output()
            .unwrap()
            .status
            .success()
    );
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(&other)
        .output()
        .unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("different content"), "{err}");
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

/// Frame timestamps for `seconds` at `fps`, exact to the nanosecond without drift.
fn frames_at(fps: u64, seconds: u64, signal_at: Option<(u64, &str)>) -> String {
    let mut out = String::from("{\"dt_ns\":0}\n");
    let mut last = 0u64;
    for k in 1..=fps * seconds {
        let t = k * 1_000_000_000 / fps;
        match signal_at {
            Some((at, s)) if k == at * fps => {
                out.push_str(&format!("{{\"dt_ns\":{},\"signal\":\"{s}\"}}\n", t - last))
            }
            _ => out.push_str(&format!("{{\"dt_ns\":{}}}\n", t - last)),
        }
        last = t;
    }
    out
}

fn tick_hashes(trace: &Path) -> Vec<String> {
    std::fs::read_to_string(trace)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"tick\""))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_same_per_tick_input_at_30_60_and_144_fps_gives_the_same_hashes() {
    let dir = scratch("fps");
    let input = dir.join("input.jsonl");
    std::fs::write(&input, input_lines(600)).unwrap();
    let mut runs = Vec::new();
    for fps in [30u64, 60, 144] {
        let frames = dir.join(format!("frames{fps}.jsonl"));
        let trace = dir.join(format!("trace{fps}.jsonl"));
        std::fs::write(&frames, frames_at(fps, 10, None)).unwrap();
        let o = ludus()
            .args(["sim", "--frames"])
            .arg(&frames)
            .arg("--input")
            .arg(&input)
            .arg("--trace")
            .arg(&trace)
            .arg(example())
            .output()
            .unwrap();
        let s = summary(&o);
        assert_eq!(s["ticks"], 600, "{fps} fps: ten seconds at 60 Hz");
        runs.push(tick_hashes(&trace));
    }
    assert_eq!(runs[0].len(), 600);
    assert_eq!(runs[0], runs[1], "30 and 60 fps");
    assert_eq!(runs[1], runs[2], "60 and 144 fps");
}

#[test]
fn traces_carry_the_frame_loops_own_figures() {
    let dir = scratch("trace");
    let frames = dir.join("frames.jsonl");
    let trace = dir.join("trace.jsonl");
    std::fs::write(
        &frames,
        "{\"dt_ms\":0}\n{\"dt_ms\":100}\n{\"dt_ms\":1000}\n{\"dt_ms\":16,\"signal\":\"pause\"}\n{\"dt_ms\":500,\"signal\":\"step\"}\n{\"dt_ms\":16,\"signal\":\"resume\"}\n{\"dt_ms\":17}\n",
    )
    .unwrap();
    let o = ludus()
        .args(["sim", "--frames"])
        .arg(&frames)
        .arg("--trace")
        .arg(&trace)
        .arg(example())
        .output()
        .unwrap();
    let s = summary(&o);
    let frames: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"frame\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let f = |i: usize, k: &str| frames[i][k].clone();
    assert_eq!(
        (f(1, "ticks"), f(1, "discarded")),
        (4.into(), 2.into()),
        "100 ms at 60 Hz: 4 run, 2 discarded"
    );
    assert_eq!(
        (f(2, "accepted_ns"), f(2, "clamped_ns")),
        (250_000_000u64.into(), 750_000_000u64.into())
    );
    assert_eq!((f(2, "ticks"), f(2, "discarded")), (4.into(), 11.into()));
    assert_eq!(f(3, "mode"), "paused");
    assert_eq!(
        (f(4, "ticks"), f(4, "excluded_ns")),
        (1.into(), 500_000_000u64.into()),
        "a step, no wall time"
    );
    assert_eq!(f(5, "mode"), "playing");
    assert_eq!(f(6, "ticks"), 1);
    assert_eq!(s["ticks"], 10);
    assert_eq!(s["discarded_ticks"], 13);
}

/// The rows of a `ludus bench` table: its cells, without the header.
fn bench_rows(out: &str) -> Vec<Vec<String>> {
    out.lines()
        .filter(|l| l.starts_with("| ") && l.as_bytes().get(2).is_some_and(u8::is_ascii_digit))
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn bench_measures_each_workload_next_to_the_same_work_by_hand() {
    let dir = scratch("bench");
    let bench = |extra: &[&str]| {
        let (csv, svg) = (dir.join("b.csv"), dir.join("b.svg"));
        let mut args = vec!["bench", "--from", "500", "--to", "1000", "--ticks", "3"];
        args.extend_from_slice(&["--warmup", "1"]);
        args.extend_from_slice(extra);
        let o = ludus()
            .args(&args)
            .arg("--csv")
            .arg(&csv)
            .arg("--svg")
            .arg(&svg)
            .output()
            .unwrap();
        let (out, err) = text(&o);
        assert!(o.status.success(), "{args:?}: {out}\n{err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        let svg = std::fs::read_to_string(&svg).unwrap();
        (bench_rows(&out), svg)
    };
    // The example's drones and the pushing crowd each have their reference: a time and a
    // ratio in every row, and the reference's line on the plot.
    for extra in [&[][..], &["--workload", "crowd"], &["--serial"]] {
        let (rows, svg) = bench(extra);
        assert_eq!(rows.len(), 2, "{extra:?}: a row per count");
        for r in &rows {
            let by_hand: f64 = r[8].parse().unwrap_or_else(|_| panic!("{extra:?}: {r:?}"));
            assert!(by_hand > 0.0, "{extra:?}: {r:?}");
            assert!(r[9].ends_with('x'), "{extra:?}: {r:?}");
        }
        assert!(svg.contains("the same work by hand"), "{extra:?}");
    }
    // A game no reference models: the columns say so, and nothing panics.
    let game = dir.join("game");
    let o = ludus().arg("new").arg(&game).output().unwrap();
    assert!(o.status.success(), "{}", text(&o).1);
    let toml = std::fs::read_to_string(game.join("game.toml")).unwrap();
    std::fs::write(
        game.join("game.toml"),
        toml + "\n[stress]\narchetype = \"gem\"\n",
    )
    .unwrap();
    let (rows, svg) = bench(&[game.to_str().unwrap()]);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r[8] == "-" && r[9] == "-"), "{rows:?}");
    assert!(!svg.contains("the same work by hand"));
}

#[test]
fn bench_render_measures_extracting_and_batching_every_sprite() {
    let dir = scratch("bench-render");
    let csv = dir.join("r.csv");
    let o = ludus()
        .args([
            "bench", "--render", "--from", "300", "--to", "600", "--ticks", "2",
        ])
        .args(["--warmup", "0", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // sprites, extract ms, batch ms, total ms, ns/sprite, draw calls: one sheet, one call.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 6 && w[0].parse::<u32>().is_ok())
        .collect();
    let counts: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[5])).collect();
    assert_eq!(counts, [("300", "1"), ("600", "1")], "{out}");
    for r in &rows {
        for t in &r[1..4] {
            assert!(t.parse::<f64>().unwrap() > 0.0, "{r:?}");
        }
    }
    let written = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(written.lines().count(), 3, "{written}");
    assert!(written.starts_with("sprites,extract_ms,batch_ms,total_ms,draw_calls\n"));
}

#[test]
fn bench_render_in_a_window_draws_every_rung_through_the_renderer() {
    if !support::xvfb_available() {
        return;
    }
    let dir = scratch("bench-render-window");
    let csv = dir.join("r.csv");
    let o = std::process::Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_ludus"))
        .args([
            "bench", "--render", "--window", "--from", "300", "--to", "600",
        ])
        .args(["--ticks", "3", "--warmup", "1", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("in a window (1280 x 720"), "{out}");
    // sprites, submit ms, frame ms, draw calls: the window's table.
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip_while(|l| !l.starts_with("in a window"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 4 && w[0].parse::<u32>().is_ok())
        .collect();
    let counts: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[3])).collect();
    assert_eq!(counts, [("300", "1"), ("600", "1")], "{out}");
    for r in &rows {
        let (submit, frame) = (r[1].parse::<f64>().unwrap(), r[2].parse::<f64>().unwrap());
        assert!(submit > 0.0 && frame >= submit, "{r:?}");
    }
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(
        lines[0],
        "sprites,extract_ms,batch_ms,total_ms,draw_calls,window_submit_ms,window_frame_ms"
    );
    assert!(
        lines[1..].iter().all(|l| l.split(',').count() == 7),
        "{written}"
    );
    assert_eq!(lines.len(), 3, "{written}");
}

/// A game whose script faults at its thirtieth tick.
const FAULTY: &str = "name = \"Faulty\"\n[scripts]\nfiles = [\"main.lua\"]\n[archetypes.dot]\nsprite = { shape = \"circle\", size = 8 }\n[levels.main]\nplace = [{ archetype = \"dot\", at = [0, 0] }]\n";

#[test]
fn a_faulting_run_records_its_fault_and_replays_to_the_same_fault() {
    let dir = scratch("faulty");
    std::fs::write(dir.join("game.toml"), FAULTY).unwrap();
    let script = "local n = 0\nfunction on_tick()\n  n = n + 1\n  if n == 30 then error(\"the thirtieth tick\") end\nend\n";
    std::fs::write(dir.join("main.lua"), script).unwrap();
    let rec = dir.join("run.ludusrec");
    let o = ludus()
        .args(["sim", "--ticks", "100", "--record"])
        .arg(&rec)
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "the run faults");
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("replayed 29 ticks of Faulty: every state hash matches, and tick 30 faults as recorded: the thirtieth tick"),
        "{out}"
    );
    // Fixed, the same recording no longer faults there: a divergence at tick 30.
    std::fs::write(dir.join("main.lua"), "function on_tick() end\n").unwrap();
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(&dir)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(
        out.contains("the content differs from the recording's"),
        "{out}"
    );
    assert!(
        out.contains("the state equals the recording's at every tick rerun (29 of 29)"),
        "{out}"
    );
}

#[test]
fn replay_reruns_a_recording_on_changed_rules_and_names_the_first_difference() {
    let dir = scratch("rules");
    let rec = dir.join("run.ludusrec");
    let o = ludus()
        .args(["sim", "--ticks", "600", "--record"])
        .arg(&rec)
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success());
    // A copy of the game with faster enemies.
    let copy = dir.join("swarm");
    let src = example();
    for entry in walk(&src) {
        let to = copy.join(entry.strip_prefix(&src).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &to).unwrap();
    }
    let enemies = copy.join("enemies.toml");
    let text_of = std::fs::read_to_string(&enemies).unwrap();
    std::fs::write(&enemies, text_of.replacen("speed = 115", "speed = 300", 1)).unwrap();
    let o = ludus()
        .arg("replay")
        .arg(&rec)
        .arg("--game")
        .arg(&copy)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(summary["ticks"].as_u64().unwrap() > 0, "{summary}");
    let first = out
        .lines()
        .find_map(|l| l.strip_prefix("the state first differs from the recording at tick "))
        .unwrap_or_else(|| panic!("{out}"));
    let tick: u64 = first.split(' ').next().unwrap().parse().unwrap();
    assert!((1..600).contains(&tick), "{out}");
    // The same content replays strictly, as before.
    let o = ludus().arg("replay").arg(&rec).output().unwrap();
    assert!(text(&o).0.contains("every state hash matches"));
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_scripted_rewind_returns_to_the_recorded_state_and_goes_on_like_a_fresh_run() {
    let dir = scratch("rewind");
    let input = dir.join("input.jsonl");
    std::fs::write(
        &input,
        "{\"tick\":1,\"press\":[\"fire\"],\"axis\":{\"move_x\":1}}\n{\"tick\":90,\"axis\":{\"move_x\":0,\"move_y\":1}}\n{\"tick\":200,\"axis\":{\"move_y\":-1}}\n{\"tick\":320,\"release\":[\"fire\"],\"axis\":{\"move_x\":-1}}\n",
    )
    .unwrap();
    // 400 frames at 60 Hz; at frame 250, back 80 ticks.
    let frames: String = (0..400)
        .map(|i| {
            if i == 250 {
                "{\"dt_ms\":16.6667,\"signal\":\"rewind\",\"ticks\":80}\n".to_string()
            } else {
                "{\"dt_ms\":16.6667}\n".to_string()
            }
        })
        .collect();
    let frames_file = dir.join("frames.jsonl");
    std::fs::write(&frames_file, frames).unwrap();
    let trace = dir.join("trace.jsonl");
    let o = ludus()
        .arg("sim")
        .arg(example())
        .arg("--frames")
        .arg(&frames_file)
        .arg("--input")
        .arg(&input)
        .arg("--trace")
        .arg(&trace)
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rewound = lines.iter().find(|l| l.get("rewound").is_some()).unwrap();
    let at = rewound["tick"].as_u64().unwrap();
    let before = lines
        .iter()
        .find(|l| l.get("entities").is_some() && l["tick"].as_u64() == Some(at))
        .unwrap();
    assert_eq!(
        rewound["hash"], before["hash"],
        "back at tick {at}, in that tick's state"
    );
    // Going on from there equals a fresh run of the input for as many ticks.
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let ticks = summary["ticks"].as_u64().unwrap();
    let fresh = ludus()
        .arg("sim")
        .arg(example())
        .arg("--input")
        .arg(&input)
        .args(["--ticks", &ticks.to_string()])
        .output()
        .unwrap();
    let fresh: serde_json::Value = serde_json::from_str(text(&fresh).0.trim()).unwrap();
    assert_eq!(summary["hash"], fresh["hash"]);
    assert_eq!(summary["world_tick"], fresh["world_tick"]);
    // `ticks` only goes with a rewind.
    std::fs::write(&frames_file, "{\"dt_ms\":16,\"ticks\":3}\n").unwrap();
    let o = ludus()
        .arg("sim")
        .arg(example())
        .arg("--frames")
        .arg(&frames_file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("`ticks` goes with"), "{}", text(&o).1);
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let mut child = ludus()
        .args([
            "bench", "--render", "--from", "300", "--to", "600", "--ticks", "2",
        ])
        .args(["--warmup", "0", "--csv"])
        .arg(scratch("closed-pipe").join("r.csv"))
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
