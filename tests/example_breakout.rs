//! The bundled Breakout (examples/breakout), played end to end by the real binary: a recorded
//! game clears the wall, one that gives up loses its three balls, a game with no input loses
//! them at once, the winning game replays hash for hash, the ball is bounced by the engine alone
//! (a probe watching it finds every turn on a tick it touched something, at an unchanged speed,
//! and the script has no call that could move it), and the app draws it in a window under Xvfb.
//!
//! The recorded inputs live in examples/breakout/tests/ and can be replayed by hand:
//! `ludus sim examples/breakout --ticks 20000 --input examples/breakout/tests/win.jsonl`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{ludus, scratch, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("breakout")
}

/// Runs `ludus sim GAME --ticks 20000 [--input examples/breakout/tests/INPUT]` (plus `extra`)
/// and returns its one-line JSON summary, after checking it ran clean.
fn sim(dir: &Path, input: Option<&str>, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    let mut cmd = ludus();
    cmd.arg("sim").arg(dir).args(["--ticks", "20000"]);
    if let Some(input) = input {
        cmd.arg("--input").arg(game().join("tests").join(input));
    }
    let o: Output = cmd.args(extra).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "sim exits 0: {out} {err}");
    let s: serde_json::Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("sim printed one JSON object ({e}): {out} {err}"));
    assert_eq!(s["faulted"], false, "{s}");
    s
}

#[test]
fn the_breakout_example_checks() {
    let o = ludus().arg("check").arg(game()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("ok (8 archetypes, 1 level, 1 script"), "{out}");
    assert!(
        !(out.contains("warning") || err.contains("warning")),
        "no warnings: {out}{err}"
    );
}

/// win.jsonl: 22 paddle returns (some with a corner of the paddle, to change the ball's
/// angle), one ball deliberately missed after the fifth return, and every one of the 40 bricks
/// broken: 10 each of red, orange, green and yellow, at 7, 5, 3 and 1 points. The input only
/// ever holds Right, Left or nothing, as a keyboard does (a small planner chose when, by
/// watching trial runs; nothing in it is read by the game but the keys).
#[test]
fn clearing_the_wall_wins_and_the_recording_replays() {
    let dir = scratch("breakout", "win");
    let rec = dir.join("win.rec");
    let s = sim(
        &game(),
        Some("win.jsonl"),
        &["--record".as_ref(), rec.as_os_str()],
    );
    assert_eq!(s["game_over"]["message"], "YOU WIN", "{s}");
    assert_eq!(s["game_over"]["tick"], 5314, "{s}");
    assert_eq!(s["ticks"], 5314, "the run stops at the game over: {s}");
    assert_eq!(s["score"], 160, "every brick: 10 x (7 + 5 + 3 + 1): {s}");
    assert_eq!(s["vars"]["lives"], 2, "one ball was lost: {s}");
    assert_eq!(s["vars"]["banner"], "", "{s}");
    // The three walls, the paddle and the ball; the last brick went at the end of the tick.
    assert_eq!(s["entities"], 5, "{s}");

    support::assert_replays(
        &rec,
        "replayed 5314 ticks of Breakout: every state hash matches",
    );
}

/// lose.jsonl: the same player returns the first balls (10 bricks, 16 points), then stops
/// moving at tick 1206; that ball and the next two fall past the paddle.
#[test]
fn giving_up_loses_every_ball() {
    let s = sim(&game(), Some("lose.jsonl"), &[]);
    assert_eq!(s["game_over"]["message"], "GAME OVER", "{s}");
    assert_eq!(s["game_over"]["tick"], 1749, "{s}");
    assert_eq!(s["score"], 16, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    // 30 bricks still standing, the three walls and the paddle; the last ball is gone.
    assert_eq!(s["entities"], 34, "{s}");
}

/// Without input the paddle stays in the middle and every serve, which comes down by a side
/// wall, misses it: the first serve on tick 61, each ball 91 ticks from the serve until it
/// leaves the court, the next serve 60 ticks later: 61 + 3 x 91 + 2 x 60 = 454.
#[test]
fn no_input_loses_three_balls() {
    let s = sim(&game(), None, &[]);
    assert_eq!(s["game_over"]["message"], "GAME OVER", "{s}");
    assert_eq!(s["game_over"]["tick"], 454, "{s}");
    assert_eq!(s["score"], 0, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    assert_eq!(s["entities"], 44, "40 bricks, 3 walls, the paddle: {s}");
}

/// A probe script, added to a copy of the game, that watches the ball. Its only commands are
/// `ludus.set`, so the game plays as without it. The ball's velocity as `on_tick` reads it is
/// the velocity after this tick's motion, where the engine bounces it; a script that changed
/// it in a handler would show the change one tick later, on a tick without a contact, which
/// the probe counts as `unexplained`.
const PROBE: &str = r#"
local slowest, fastest
local turns, unexplained = 0, 0
local last_v = {}           -- ball id -> { vx, vy } at the last tick
local turned_at, touched_at -- the last tick the ball turned / touched something
local touches = { wall = 0, brick = 0, paddle = 0 }

function on_tick(t)
  if turned_at == t.tick - 1 and touched_at ~= turned_at then
    unexplained = unexplained + 1
  end
  for _, id in ipairs(ludus.find("ball")) do
    local vx, vy = ludus.vel(id)
    local speed = math.sqrt(vx * vx + vy * vy)
    slowest = math.min(slowest or speed, speed)
    fastest = math.max(fastest or speed, speed)
    local l = last_v[id]
    if l and (l[1] ~= vx or l[2] ~= vy) then
      turns = turns + 1
      turned_at = t.tick
    end
    last_v[id] = { vx, vy }
  end
  if slowest then
    ludus.set("slowest", slowest)
    ludus.set("fastest", fastest)
  end
  ludus.set("turns", turns)
  ludus.set("unexplained", unexplained)
end

function on_collision_enter(events)
  for _, e in ipairs(events) do
    touched_at = e.tick
    for _, tag in ipairs({ "wall", "brick", "paddle" }) do
      if ludus.has(e.a_tags, tag) then
        touches[tag] = touches[tag] + 1
        ludus.set(tag .. "_touches", touches[tag])
      end
    end
  end
end
"#;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The script that ships has no way to move the ball: no velocity, impulse or teleport
/// command, no read of a velocity or a position to copy or compare (comments aside).
#[test]
fn the_script_has_no_bounce_code() {
    let src = std::fs::read_to_string(game().join("scripts/breakout.lua")).unwrap();
    for (n, line) in src.lines().enumerate() {
        let code = line.split("--").next().unwrap();
        for call in [
            "ludus.velocity",
            "ludus.impulse",
            "ludus.teleport",
            "ludus.vel(",
            "ludus.pos(",
        ] {
            assert!(
                !code.contains(call),
                "breakout.lua:{}: `{call}` in `{line}`",
                n + 1
            );
        }
    }
}

/// Over the whole winning game the ball turned 103 times, each on a tick it touched a wall,
/// a brick or the paddle (which the engine answered with its bounce), and its speed never
/// left the 300 units per second it was served at: `bounce = 1` on static bodies, and on the
/// kinematic paddle, which the recording holds still whenever the ball meets it.
#[test]
fn the_engine_alone_bounces_the_ball_at_constant_speed() {
    let dir = scratch("breakout", "probe");
    let copy = dir.join("breakout");
    copy_dir(&game(), &copy);
    let toml = std::fs::read_to_string(copy.join("game.toml")).unwrap();
    let files = r#"files = ["scripts/breakout.lua"]"#;
    assert!(toml.contains(files), "game.toml lists its one script");
    let toml = toml.replace(
        files,
        r#"files = ["scripts/breakout.lua", "scripts/probe.lua"]"#,
    );
    std::fs::write(copy.join("game.toml"), toml).unwrap();
    std::fs::write(copy.join("scripts/probe.lua"), PROBE).unwrap();

    let s = sim(&copy, Some("win.jsonl"), &[]);
    // The same game as without the probe.
    assert_eq!(s["game_over"]["message"], "YOU WIN", "{s}");
    assert_eq!(s["game_over"]["tick"], 5314, "{s}");
    assert_eq!(s["score"], 160, "{s}");
    let v = &s["vars"];
    assert_eq!(v["turns"], 103, "{s}");
    assert_eq!(v["unexplained"], 0, "every turn came with a contact: {s}");
    assert_eq!(v["wall_touches"], 43, "{s}");
    assert_eq!(v["brick_touches"], 40, "{s}");
    assert_eq!(v["paddle_touches"], 22, "{s}");
    let slowest = v["slowest"].as_f64().unwrap();
    let fastest = v["fastest"].as_f64().unwrap();
    assert!(
        (299.999..=300.001).contains(&slowest) && (299.999..=300.001).contains(&fastest),
        "the ball kept its speed: {slowest}..{fastest}"
    );
}

// The window test (the window run and its skip-if-no-xvfb rule are in tests/support).

/// Counts the pixels of a region within `tol` of a colour, or (with `None`) the light grey
/// ones (the HUD's anti-aliased white text).
fn count(px: &[u8], width: usize, region: [usize; 4], rgb: Option<[u8; 3]>, tol: i32) -> usize {
    let [x0, y0, x1, y1] = region;
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (y * width + x) * 4))
        .filter(|&i| {
            let p = &px[i..i + 3];
            match rgb {
                Some(c) => (0..3).all(|k| (p[k] as i32 - c[k] as i32).abs() <= tol),
                None => {
                    let (lo, hi) = (p.iter().min().unwrap(), p.iter().max().unwrap());
                    *lo >= 120 && hi - lo <= 20
                }
            }
        })
        .count()
}

/// The player holds Right from the third frame on: the paddle slides to the right wall, where
/// the first serve comes down (on tick 141), and sends it back up. The frame after 100 frames
/// shows the wall of bricks, the paddle at the right wall, the ball and the HUD. The game runs
/// on wall time (at most 4 ticks a frame), so the test asserts only what holds from tick 62,
/// when the ball appears, to tick 319, its last before it falls out; in between it breaks at
/// most the two bricks it meets on tick 225. That covers anything from 60 frames a second
/// down to about 20.
#[test]
fn the_app_draws_bricks_paddle_ball_and_hud_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("breakout", "window");
    let mut lines = String::new();
    for f in 0..100 {
        lines.push_str(match f {
            3 => "{\"axis\":{\"move_x\":1}}\n",
            _ => "{}\n",
        });
    }
    let frame = window_frame(&game(), &dir, &lines, Some(60));
    let px = &frame.px[..];
    let (w, h) = (1024, 768);
    let all = [0, 0, w, h];
    // The view is 800 x 600 world units drawn at 1.28 pixels per unit.
    let background = count(px, w, all, Some([0x10, 0x12, 0x1c]), 2);
    assert!(
        background > w * h * 3 / 4,
        "mostly the dark court: {background}"
    );
    // Three walls, 16 units thick, round a 560 x 520 court: about 43,000 pixels.
    let walls = count(px, w, all, Some([0x5c, 0x67, 0x7d]), 3);
    assert!((40_000..46_000).contains(&walls), "the walls: {walls}");
    // Ten 52 x 18 bricks a row, about 1,530 pixels each: at least eight of each colour.
    for (name, rgb) in [
        ("red", [0xef, 0x47, 0x6f]),
        ("orange", [0xf7, 0x8c, 0x6b]),
        ("green", [0x06, 0xd6, 0xa0]),
        ("yellow", [0xff, 0xd1, 0x66]),
    ] {
        let n = count(px, w, all, Some(rgb), 3);
        assert!((12_000..16_500).contains(&n), "a row of {name} bricks: {n}");
    }
    // The 88 x 14 paddle, about 2,000 pixels, at the bottom of the court against the right
    // wall (x from 192 to 280 world units: pixels 758 to 870).
    let paddle = count(px, w, all, Some([0x4c, 0xc9, 0xf0]), 3);
    let there = count(px, w, [740, 640, 880, 700], Some([0x4c, 0xc9, 0xf0]), 3);
    assert!((1_800..2_300).contains(&paddle), "the paddle: {paddle}");
    assert_eq!(there, paddle, "the paddle is at the bottom right");
    // The 14-unit ball, about 250 pixels of pure white (the HUD text is never that bright),
    // below the HUD.
    let ball = count(px, w, [0, 40, w, h], Some([255, 255, 255]), 2);
    assert!((120..320).contains(&ball), "the ball is in play: {ball}");
    // "score ..." at the top left, and the three balls left at the top right: three 18-pixel
    // white discs, about 200 pixels each, and no lost ball's grey ring.
    let score = count(px, w, [0, 0, 200, 40], None, 0);
    let balls = count(px, w, [824, 0, w, 40], Some([255, 255, 255]), 2);
    let lost = count(px, w, [824, 0, w, 40], Some([0x8d, 0x99, 0xae]), 2);
    assert!(score > 80, "the score is drawn: {score}");
    assert!((480..720).contains(&balls), "three balls left: {balls}");
    assert_eq!(lost, 0, "none lost yet");
}

/// The best score comes from the saved data in the data folder (`$XDG_DATA_HOME/ludus/breakout/
/// save.json`) and shows at the top of the screen: "best 4321" lights more pixels there than
/// the "best 0" of a first game.
#[test]
fn the_window_shows_the_best_score_kept_in_the_data_folder() {
    if !xvfb_available() {
        return;
    }
    let lit = |best: Option<&str>| {
        let name = if best.is_some() {
            "best-kept"
        } else {
            "best-none"
        };
        let dir = scratch("breakout", name);
        if let Some(text) = best {
            let folder = dir.join("ludus/breakout");
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("save.json"), text).unwrap();
        }
        let frame = window_frame(&game(), &dir, &"{}\n".repeat(20), Some(60));
        let kept = std::fs::read_to_string(dir.join("ludus/breakout/save.json")).ok();
        (count(&frame.px, 1024, [400, 0, 624, 40], None, 0), kept)
    };
    let (none, nothing_kept) = lit(None);
    let (kept, file) = lit(Some(r#"{"best":4321}"#));
    assert_eq!(nothing_kept, None, "nothing to keep: nothing written");
    assert_eq!(file.as_deref(), Some(r#"{"best":4321}"#), "left as it was");
    assert!(none > 30, "\"best 0\" is drawn: {none}");
    assert!(
        kept > none * 5 / 4,
        "\"best 4321\" is longer: {kept} against {none}"
    );
}
