//! Touches in input files, end to end: a game popping balloons where fingers touch it reaches
//! its end under `ludus sim --input`, its recording replays, and the same touches in a
//! `--frames` file give every tick the same state.

mod support;

use std::path::{Path, PathBuf};
use support::cli::{ludus, scratch, summary, text};

/// Three balloons; a finger on one pops it (a point each); the first touch is also the
/// pointer, whose x the game keeps; the last pop ends the game.
const GAME: &str = r##"name = "Balloons"
tags = ["balloon"]

[scripts]
files = ["pop.lua"]

[archetypes.balloon]
tags = ["balloon"]
sprite = { shape = "circle", size = 20, color = "#ff4060" }

[levels.sky]
bounds = { size = [400, 300] }

[[levels.sky.place]]
archetype = "balloon"
at = [-100, 0]

[[levels.sky.place]]
archetype = "balloon"
at = [0, 0]

[[levels.sky.place]]
archetype = "balloon"
at = [100, 0]
"##;

const SCRIPT: &str = r#"
function on_tick(t)
  for _, f in ipairs(ludus.touches()) do
    for _, id in ipairs(ludus.within(f.x, f.y, 12, "balloon")) do
      if ludus.alive(id) then
        ludus.destroy(id)
        ludus.add_score(1)
        ludus.set("last_finger", f.id)
      end
    end
  end
  local x = ludus.pointer()
  if x then ludus.set("pointer_x", x) end
  ludus.set("fingers", #ludus.touches())
  if t.tick > 1 and ludus.count("balloon") == 0 then
    ludus.game_over("all popped")
  end
end
"#;

/// Finger 1 on the left balloon at tick 5 and held; finger 2 joins on the middle one at tick
/// 20 (a few units off); both lift at tick 40; finger 7 lands on the right one at tick 60.
const INPUT: &str = r#"{"tick":5,"touches":[{"id":1,"x":-100,"y":0}]}
{"tick":20,"touches":[{"id":1,"x":-100,"y":0},{"id":2,"x":3,"y":-4}]}
{"tick":40,"touches":[]}
{"tick":60,"touches":[{"id":7,"x":100,"y":2}]}
"#;

fn game(dir: &Path) -> PathBuf {
    let game = dir.join("balloons");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), GAME).unwrap();
    std::fs::write(game.join("pop.lua"), SCRIPT).unwrap();
    game
}

#[test]
fn a_game_played_by_touch_reaches_its_end_and_its_recording_replays() {
    let dir = scratch("touch-sim");
    let game = game(&dir);
    let (input, rec, trace) = (
        dir.join("input.jsonl"),
        dir.join("run.ludusrec"),
        dir.join("trace.jsonl"),
    );
    std::fs::write(&input, INPUT).unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "200", "--input"])
        .arg(&input)
        .arg("--record")
        .arg(&rec)
        .arg("--trace")
        .arg(&trace)
        .arg(&game)
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(s["game_over"]["tick"], 60, "the last pop ends it: {s}");
    assert_eq!(s["game_over"]["message"], "all popped");
    assert_eq!(s["score"], 3, "three balloons");
    assert_eq!(s["ticks"], 60);
    assert_eq!(
        s["vars"],
        serde_json::json!({"fingers": 1, "last_finger": 7, "pointer_x": 100}),
        "the last finger popped the last balloon, and it was the pointer"
    );
    let replayed = ludus().arg("replay").arg(&rec).output().unwrap();
    let (out, err) = text(&replayed);
    assert!(
        replayed.status.success()
            && out.contains("replayed 60 ticks of Balloons: every state hash matches"),
        "{out}{err}"
    );

    // The same touches as --frames lines, one frame per tick: the same state every tick.
    let mut frames = String::from("{\"dt_ns\":0}\n");
    let lines: Vec<serde_json::Value> = INPUT
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for tick in 1..=60u64 {
        let touches = lines
            .iter()
            .find(|l| l["tick"] == tick)
            .map(|l| format!(",\"touches\":{}", l["touches"]))
            .unwrap_or_default();
        frames.push_str(&format!("{{\"dt_ns\":16666667{touches}}}\n"));
    }
    let (frames_file, frames_trace) = (dir.join("frames.jsonl"), dir.join("frames-trace.jsonl"));
    std::fs::write(&frames_file, frames).unwrap();
    let o = ludus()
        .args(["sim", "--frames"])
        .arg(&frames_file)
        .arg("--trace")
        .arg(&frames_trace)
        .arg(&game)
        .output()
        .unwrap();
    assert_eq!(
        summary(&o)["game_over"]["tick"],
        60,
        "the frames run ends the same"
    );
    let hashes = |path: &Path| -> Vec<String> {
        (std::fs::read_to_string(path).unwrap().lines())
            .filter(|l| l.starts_with("{\"tick\""))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(hashes(&frames_trace), hashes(&trace), "every tick's state");
}

#[test]
fn touches_elsewhere_pop_nothing() {
    let dir = scratch("touch-miss");
    let game = game(&dir);
    let input = dir.join("input.jsonl");
    std::fs::write(
        &input,
        "{\"tick\":5,\"touches\":[{\"id\":1,\"x\":-50,\"y\":50}]}\n",
    )
    .unwrap();
    let o = ludus()
        .args(["sim", "--ticks", "100", "--input"])
        .arg(&input)
        .arg(&game)
        .output()
        .unwrap();
    let s = summary(&o);
    assert_eq!(
        (s["score"].clone(), s["game_over"].clone()),
        (0.into(), serde_json::Value::Null)
    );
    assert_eq!(
        s["vars"]["fingers"], 1,
        "the finger stays down past its line"
    );
}
