//! The bundled platformer (examples/platformer), played end to end by the real binary: a
//! recorded run that collects every coin over both levels wins (crumbling the Meadow's rock
//! wall with its switch on the way: without the switch's rule the wall stops it), one that only
//! holds right runs into the lava three times and loses, the winning run with one jump pressed
//! outside the
//! jump buffer or the coyote time, or held too long for a hop, loses a life where the recording
//! does not, the winning run replays hash for hash, and the app draws the Meadow in a real window
//! under Xvfb.
//!
//! The recorded inputs live in examples/platformer/tests/ and can be replayed by hand:
//! `ludus sim examples/platformer --ticks 3000 --input examples/platformer/tests/win.jsonl`.
//! Every motion in them (running, jumping, falling, landing, the lift) is the engine's; the
//! game's script only scores, takes lives and ends the game.

mod support;

use std::path::{Path, PathBuf};
use support::{count, ludus, scratch, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("platformer")
}

/// `ludus sim examples/platformer --input INPUT --ticks TICKS --check-invariants` (plus
/// `extra`): its summary, after checking it exited 0 without a fault.
fn sim_file(input: &Path, ticks: u32, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    let o = ludus()
        .arg("sim")
        .arg(game())
        .arg("--input")
        .arg(input)
        .args(["--ticks", &ticks.to_string(), "--check-invariants"])
        .args(extra)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "sim exits 0: {out} {err}");
    let s: serde_json::Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("sim printed one JSON object ({e}): {out} {err}"));
    assert_eq!(s["faulted"], false, "{s}");
    s
}

/// The same, for a recorded input in examples/platformer/tests/.
fn sim(input: &str, ticks: u32, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    sim_file(&game().join("tests").join(input), ticks, extra)
}

/// win.jsonl with one line replaced (the line must be there once), run for `ticks`: the
/// same play with one press or release moved.
fn win_with(name: &str, line: &str, moved: &str, ticks: u32) -> serde_json::Value {
    let win = std::fs::read_to_string(game().join("tests/win.jsonl")).unwrap();
    assert_eq!(win.lines().filter(|l| *l == line).count(), 1, "{line}");
    let dir = scratch("platformer", name);
    let input = dir.join("input.jsonl");
    std::fs::write(&input, win.replace(line, moved)).unwrap();
    sim_file(&input, ticks, &[])
}

#[test]
fn the_platformer_example_checks_clean() {
    let o = ludus().arg("check").arg(game()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out} {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("ok (14 archetypes, 2 levels, 1 script"),
        "{out}"
    );
}

/// win.jsonl: right held from the first tick. The Meadow: two coins along the ground, a jump
/// for the third, a buffered jump (pressed four ticks before landing) over the first lava pit
/// for the fourth, a jump over the spike for the fifth, onto the first ledge for the sixth, a
/// coyote jump (pressed three ticks after running off the ledge) onto the second for the
/// seventh, down to the last for the eighth, the switch that crumbles the rock wall at tick
/// 567, and the flag behind it at tick 598.
#[test]
fn the_recorded_run_reaches_the_cliffs_with_its_coins_and_lives() {
    let s = sim("win.jsonl", 600, &[]);
    assert_eq!(s["level"], "cliffs", "{s}");
    assert_eq!(s["world_tick"], 2, "the Cliffs began at tick 599: {s}");
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    // Eight coins at 10 and the flag's 100 came along through ludus.load_level.
    assert_eq!(s["score"], 180, "{s}");
    assert_eq!(s["vars"]["coins"], 8, "{s}");
    assert_eq!(s["vars"]["lives"], 3, "{s}");
    assert_eq!(s["vars"]["where"], "The Cliffs", "{s}");
}

/// The Cliffs: a jump over the spike for a coin, a wait at the pit's edge for the lift, a jump
/// onto it, two coins on the ride up, a short jump off it onto the clifftop for another, a
/// three-tick hop over the clifftop's spike (under the spikes hanging above it) for the next,
/// two more below the cliff and the flag at the Cliffs' tick 651.
#[test]
fn the_recorded_run_collects_every_coin_and_wins() {
    let s = sim("win.jsonl", 3000, &[]);
    assert_eq!(s["level"], "cliffs", "{s}");
    assert_eq!(
        s["game_over"]["message"], "YOU WIN with 15 of 15 coins",
        "{s}"
    );
    assert_eq!(s["game_over"]["tick"], 651, "{s}");
    // The Meadow ran 598 ticks, the Cliffs 651; the run stops at the game over.
    assert_eq!(s["ticks"], 1249, "{s}");
    assert_eq!(s["world_tick"], 651, "{s}");
    // 15 coins at 10 and two flags at 100.
    assert_eq!(s["score"], 350, "{s}");
    assert_eq!(s["vars"]["coins"], 15, "{s}");
    assert_eq!(s["vars"]["lives"], 3, "not a scratch: {s}");
    assert_eq!(s["vars"]["banner"], "", "{s}");
    // The Cliffs' 24 placements less its seven coins.
    assert_eq!(s["entities"], 17, "{s}");
}

/// lose.jsonl: right held and nothing else. The hopper picks up the two coins along the
/// ground and runs into the first lava pit, three times (the coins stay taken); the third
/// ends the game.
#[test]
fn running_into_the_lava_three_times_loses() {
    let s = sim("lose.jsonl", 3000, &[]);
    assert_eq!(s["level"], "meadow", "{s}");
    assert_eq!(s["game_over"]["message"], "GAME OVER", "{s}");
    assert_eq!(s["game_over"]["tick"], 735, "{s}");
    assert_eq!(s["ticks"], 735, "{s}");
    assert_eq!(s["score"], 20, "{s}");
    assert_eq!(s["vars"]["coins"], 2, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    // The Meadow's 22 placements, 3 runs of solid ground tiles, the rock wall and the switch
    // its tile map places, less the two coins.
    assert_eq!(s["entities"], 25, "{s}");
}

/// Copies the game's files into `dir`.
fn copy_game(from: &Path, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let to = dir.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_game(&path, &to);
        } else {
            std::fs::copy(&path, &to).unwrap();
        }
    }
}

/// The rock wall before the Meadow's flag (five rock tiles: one solid rectangle) stands until
/// the hopper touches the switch at tick 567, when the script takes its tiles out with
/// `ludus.set_tile`: after that tick the switch and the wall's rectangle are gone, and the run
/// reaches the flag. With the switch's rule taken out of the script, the same run stops at the
/// wall and never reaches the Cliffs.
#[test]
fn the_switch_crumbles_the_rock_wall_that_stops_the_hopper() {
    // 8 coins taken of the Meadow's 22 placements, 3 ground runs, the wall and the switch.
    assert_eq!(sim("win.jsonl", 566, &[])["entities"], 19);
    let s = sim("win.jsonl", 567, &[]);
    assert_eq!(
        (s["entities"].clone(), s["level"].clone()),
        (17.into(), "meadow".into()),
        "{s}"
    );
    let dir = scratch("platformer", "no_switch");
    copy_game(&game(), &dir);
    let script = dir.join("scripts/hop.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let call = "      crumble_wall(e.ax, e.ay)\n";
    assert_eq!(text.matches(call).count(), 1, "the switch's rule");
    std::fs::write(&script, text.replace(call, "")).unwrap();
    let o = ludus()
        .arg("sim")
        .arg(&dir)
        .arg("--input")
        .arg(game().join("tests/win.jsonl"))
        .args(["--ticks", "700"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let s: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(s["level"], "meadow", "stopped at the wall: {s}");
    assert_eq!(s["vars"]["coins"], 8, "{s}");
    assert_eq!(s["entities"], 18, "the wall stands: {s}");
}

/// The first pit's jump is pressed at tick 218, four ticks before the landing at 222: the
/// buffer (6 ticks) keeps it, and the hopper takes the coin over the pit. Pressed at 212, ten
/// ticks before, it is forgotten: the hopper lands, runs on into the lava at tick 245 and is
/// sent back to the start.
#[test]
fn a_jump_pressed_too_long_before_landing_is_forgotten() {
    let s = sim("win.jsonl", 300, &[]);
    assert_eq!(s["vars"]["lives"], 3, "buffered: {s}");
    assert_eq!(s["vars"]["coins"], 4, "buffered: {s}");
    assert_eq!(s["vars"]["banner"], "", "buffered: {s}");
    let s = win_with(
        "buffer",
        r#"{"tick":218,"press":["jump"]}"#,
        r#"{"tick":212,"press":["jump"]}"#,
        300,
    );
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["lives"], 2, "{s}");
    assert_eq!(s["vars"]["coins"], 3, "{s}");
    assert_eq!(s["score"], 30, "{s}");
    assert_eq!(s["vars"]["banner"], "OUCH", "{s}");
}

/// The jump to the second ledge is pressed at tick 473, three ticks after running off the
/// first (coyote time is 6 ticks), and lands on it by its coin at 506. Pressed at 480 it comes
/// too late: the hopper falls into the wide pit's lava at 497.
#[test]
fn a_jump_pressed_too_long_after_running_off_a_ledge_is_too_late() {
    let s = sim("win.jsonl", 520, &[]);
    assert_eq!(s["vars"]["lives"], 3, "in coyote time: {s}");
    assert_eq!(s["vars"]["coins"], 7, "in coyote time: {s}");
    assert_eq!(s["vars"]["banner"], "", "in coyote time: {s}");
    let s = win_with(
        "coyote",
        r#"{"tick":473,"press":["jump"]}"#,
        r#"{"tick":480,"press":["jump"]}"#,
        520,
    );
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["lives"], 2, "{s}");
    assert_eq!(s["vars"]["coins"], 6, "{s}");
    assert_eq!(s["vars"]["banner"], "OUCH", "{s}");
}

/// The clifftop hop is jump held for three ticks (1080 to 1083): cut short, it clears the
/// spike below, passes under the two hanging above and takes the coin between them. Held
/// until 1095 it rises into the hanging spikes (at tick 1086).
#[test]
fn holding_jump_through_the_hop_hits_the_hanging_spikes() {
    let s = sim("win.jsonl", 1120, &[]);
    assert_eq!(s["level"], "cliffs", "{s}");
    assert_eq!(s["vars"]["lives"], 3, "the hop: {s}");
    assert_eq!(s["vars"]["coins"], 13, "the hop: {s}");
    let s = win_with(
        "cut",
        r#"{"tick":1083,"release":["jump"]}"#,
        r#"{"tick":1095,"release":["jump"]}"#,
        1120,
    );
    assert_eq!(s["level"], "cliffs", "{s}");
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["lives"], 2, "{s}");
    assert_eq!(s["vars"]["coins"], 12, "{s}");
    assert_eq!(s["vars"]["banner"], "OUCH", "{s}");
}

#[test]
fn a_recording_of_the_winning_run_replays_identically_across_the_level_switch() {
    let dir = scratch("platformer", "replay");
    let rec = dir.join("win.rec");
    let s = sim("win.jsonl", 3000, &["--record".as_ref(), rec.as_os_str()]);
    assert_eq!(s["ticks"], 1249, "{s}");
    support::assert_replays(&rec, "replayed 1249 ticks of Hop: every state hash matches");
}

/// The player holds right for 40 frames, then lets go and waits 40 more. The game runs on wall
/// time (each frame runs 1 to 4 ticks), so the hopper stops somewhere between x = 200 and 700
/// on the first stretch of ground, before the first pit: the test asserts only what is true
/// anywhere there.
#[test]
fn the_app_draws_the_meadow_the_hopper_standing_on_the_ground_and_the_hud_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("platformer", "window");
    let mut lines = "{}\n".repeat(10);
    lines.push_str("{\"axis\":{\"run\":1}}\n");
    lines.push_str(&"{}\n".repeat(39));
    lines.push_str("{\"axis\":{\"run\":0}}\n");
    lines.push_str(&"{}\n".repeat(39));
    let frame = window_frame(&game(), &dir, &lines, Some(60));
    let px = &frame.px[..];
    let total = px.len() / 4;
    // The view is 640 x 480 world units drawn at 1.6 pixels per unit, its bottom on the
    // level's floor (y = 320), so the ground's top (y = 200) is the pixel row 576.
    let sky = count(px, [0x4f, 0x8f, 0xc0], 3);
    // The ground tiles' earth and grass (examples/make_art.py).
    let ground = count(px, [0x7a, 0x5a, 0x3a], 3)
        + count(px, [0x5b, 0x8c, 0x3a], 3)
        + count(px, [0x64, 0x9a, 0x3f], 3);
    let hopper = count(px, [0xf1, 0x5b, 0xb5], 10);
    let coins = count(px, [0xff, 0xd1, 0x66], 10);
    let title = count(px, [0xff, 0xe8, 0xa3], 40);
    // The lives: three full hearts at the top left, 28 pixels a side (examples/make_assets.py).
    let hearts = count(px, [0xe6, 0x39, 0x46], 2);
    let text = px
        .chunks(4)
        .filter(|p| p[0] > 200 && p[1] > 200 && p[2] > 200)
        .count();
    assert!(
        sky > total / 2,
        "mostly sky, not dimmed by a banner: {sky}/{total}"
    );
    // 1024 x 192 pixels of ground, less the help lines over it (two rows at this width), the
    // pebbles and the seams.
    assert!(ground > 115_000, "the ground: {ground} pixels");
    // A 24 x 32 unit box: about 38 x 51 pixels, once.
    assert!(
        (1_600..2_300).contains(&hopper),
        "one hopper: {hopper} pixels"
    );
    // A 16-unit coin is about 400 pixels (its rim aside); wherever the hopper stopped, the
    // first, second or third coin is in view.
    assert!(coins > 250, "coins: {coins} pixels");
    assert!(title > 100, "the level's name at the top: {title} pixels");
    assert!(
        (600..1_100).contains(&hearts),
        "three hearts: {hearts} pixels"
    );
    assert!(text > 300, "coins, score and the hint: {text} pixels");

    // The hopper stands on the ground: the row under its lowest pixels is ground.
    let at = |x: usize, y: usize| &px[(y * 1024 + x) * 4..(y * 1024 + x) * 4 + 3];
    let pink = |p: &[u8]| {
        (p[0] as i32 - 0xf1).abs() <= 10
            && (p[1] as i32 - 0x5b).abs() <= 10
            && (p[2] as i32 - 0xb5).abs() <= 10
    };
    let (mut bottom, mut xs) = (0, Vec::new());
    for y in 0..768 {
        for x in 0..1024 {
            if pink(at(x, y)) {
                if y > bottom {
                    bottom = y;
                    xs.clear();
                }
                if y == bottom {
                    xs.push(x);
                }
            }
        }
    }
    assert!(
        (570..=578).contains(&bottom),
        "the hopper's feet are on the ground's top (row 576): row {bottom}"
    );
    let mid = xs[xs.len() / 2];
    let below = at(mid, bottom + 1);
    // The grass on the ground tiles' top: its lit edge or its blades.
    let grass = |c: [i32; 3]| (0..3).all(|i| (below[i] as i32 - c[i]).abs() <= 3);
    assert!(
        grass([0x64, 0x9a, 0x3f]) || grass([0x5b, 0x8c, 0x3a]),
        "ground right under the hopper: {below:?} at ({mid}, {})",
        bottom + 1
    );
}
