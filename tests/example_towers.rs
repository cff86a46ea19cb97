//! The bundled tower defence (examples/towers), played end to end by the real binary: a
//! recorded game that builds towers wins, one that builds nothing loses, a click after the end
//! plays again (the game's own `ludus.restart()`), the runs replay hash for hash, and the app
//! draws it in a real window under Xvfb.
//!
//! The recorded inputs live in examples/towers/tests/ and can be replayed by hand:
//! `ludus sim examples/towers --ticks 5400 --input examples/towers/tests/win.jsonl`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{count, ludus, scratch, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("towers")
}

/// Runs `ludus sim examples/towers --ticks TICKS --input INPUT` (plus `extra`) and returns its
/// one-line JSON summary. The game draws its own ending and goes on running after it, so a
/// run lasts its ticks.
fn sim_file(input: &Path, ticks: u32, extra: &[&std::ffi::OsStr]) -> (serde_json::Value, Output) {
    let o = ludus()
        .arg("sim")
        .arg(game())
        .args(["--ticks", &ticks.to_string(), "--input"])
        .arg(input)
        .args(extra)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let s = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("sim printed one JSON object ({e}): {out} {err}"));
    (s, o)
}

/// The same, for a recorded input in examples/towers/tests/.
fn sim(input: &str, ticks: u32, extra: &[&std::ffi::OsStr]) -> (serde_json::Value, Output) {
    sim_file(&game().join("tests").join(input), ticks, extra)
}

#[test]
fn the_towers_example_checks() {
    let o = ludus().arg("check").arg(game()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("ok"), "{out}");
}

/// win.jsonl: two towers at the start (with a refused click on the road and one without the
/// money between them), the first wave called at once, then a tower whenever the bounties pay
/// for one, calling each wave early. Every enemy dies: the score is every bounty (6 runners;
/// 6 runners and 2 tanks; 5 and 5; 8 and 6, at 5 and 20 each), and the money is the 100 to
/// start plus the bounties less six towers at 50. The game shows its own ending (no app
/// banner, no `game_over`) and runs on, waiting for a press.
#[test]
fn building_towers_wins_and_the_recording_replays() {
    let dir = scratch("towers", "win");
    let rec = dir.join("win.rec");
    let (s, o) = sim("win.jsonl", 5400, &["--record".as_ref(), rec.as_os_str()]);
    assert!(o.status.success(), "{s}");
    assert_eq!(s["faulted"], false, "{s}");
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["ended"], 5199, "{s}");
    assert_eq!(s["vars"]["banner"], "YOU WIN", "the game's own ending: {s}");
    assert_eq!(
        s["vars"]["hint"], "click, Space or Enter to play again",
        "{s}"
    );
    assert_eq!(s["ticks"], 5400, "the game runs on after its end: {s}");
    assert_eq!(s["score"], 385, "{s}");
    assert_eq!(s["vars"]["money"], 185, "{s}");
    assert_eq!(s["vars"]["lives"], 5, "no enemy reached the base: {s}");
    assert_eq!(s["vars"]["wave"], 4, "{s}");
    assert_eq!(s["vars"]["waves"], 4, "{s}");
    // The road (its corners, the base and the paved tiles) and the six towers; no enemy is
    // left, and the last bolt has flown out.
    assert_eq!(s["entities"], 91, "{s}");

    support::assert_replays(
        &rec,
        "replayed 5400 ticks of Towers: every state hash matches",
    );
}

/// lose.jsonl: the first wave called at once and nothing built. The first five of its six
/// runners walk into the base, one life each.
#[test]
fn building_nothing_loses() {
    let (s, o) = sim("lose.jsonl", 1300, &[]);
    assert!(o.status.success(), "{s}");
    assert_eq!(s["faulted"], false, "{s}");
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["ended"], 1156, "{s}");
    assert_eq!(s["vars"]["banner"], "GAME OVER", "{s}");
    // The road only: the sixth runner went with the end.
    assert_eq!(s["entities"], 85, "{s}");
    assert_eq!(s["score"], 0, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    assert_eq!(
        s["vars"]["money"], 100,
        "nothing bought, nothing earned: {s}"
    );
    assert_eq!(s["vars"]["wave"], 1, "{s}");
}

/// lose.jsonl, then a click at tick 1300, after the end: the script's `ludus.restart()` starts
/// the game again after that tick, as the `restart` signal does. The run's tick count goes on
/// while the new world's starts again; everything is as at the start, and the recording (two
/// segments) replays hash for hash.
#[test]
fn a_click_after_the_end_plays_again_and_the_recording_replays() {
    let dir = scratch("towers", "again");
    let (input, rec) = (dir.join("again.jsonl"), dir.join("again.rec"));
    let lose = std::fs::read_to_string(game().join("tests/lose.jsonl")).unwrap();
    std::fs::write(&input, lose + "{\"tick\":1300,\"tap\":[\"place\"]}\n").unwrap();
    let (s, o) = sim_file(&input, 1400, &["--record".as_ref(), rec.as_os_str()]);
    assert!(o.status.success(), "{s}");
    let got = [
        ("ticks", s["ticks"].clone()),
        ("world_tick", s["world_tick"].clone()),
        ("game_over", s["game_over"].clone()),
        ("ended", s["vars"]["ended"].clone()),
        ("lives", s["vars"]["lives"].clone()),
        ("money", s["vars"]["money"].clone()),
        ("wave", s["vars"]["wave"].clone()),
        ("hint", s["vars"]["hint"].clone()),
        ("score", s["score"].clone()),
    ];
    let want = serde_json::json!([1400, 100, null, 0, 5, 100, 0, "", 0]);
    for (i, (field, value)) in got.iter().enumerate() {
        assert_eq!(*value, want[i], "{field}: {s}");
    }
    support::assert_replays(
        &rec,
        "replayed 1400 ticks of Towers: every state hash matches",
    );
    // A run that does not record hashes only its last tick: the same hash, also where that
    // tick is the one whose restart replaces the world.
    let other = dir.join("other.rec");
    for ticks in [1300, 1400] {
        let (plain, _) = sim_file(&input, ticks, &[]);
        let (recorded, _) = sim_file(&input, ticks, &["--record".as_ref(), other.as_os_str()]);
        assert_eq!(plain["hash"], recorded["hash"], "{ticks} ticks: {plain}");
    }
}

// The window test (the window run and its skip-if-no-xvfb rule are in tests/support).

/// The player points at the grass and clicks twice (two towers), calls the first wave, and
/// watches for a couple of seconds: the frame shows the meadow, the road, the base, two
/// towers, runners on the road and the HUD. The game runs on wall time, so the test only
/// asserts what stays true from about the first second of the wave to well past the tenth.
#[test]
fn the_app_draws_towers_enemies_and_the_hud_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("towers", "window");
    let mut lines = String::new();
    for f in 0..150 {
        lines.push_str(match f {
            // World units: a tower by the road's first leg, one inside its first bend.
            3 => "{\"pointer\":[-330,-110],\"tap\":[\"place\"]}\n",
            5 => "{\"pointer\":[-180,110],\"tap\":[\"place\"]}\n",
            7 => "{\"tap\":[\"next_wave\"]}\n",
            _ => "{}\n",
        });
    }
    let frame = window_frame(&game(), &dir, &lines, Some(60));
    let px = &frame.px[..];
    let total = px.len() / 4;
    // The view is 800 x 600 world units drawn at 1.28 pixels per unit.
    let grass = count(px, [0x1d, 0x33, 0x24], 2);
    let road = count(px, [0x6b, 0x5a, 0x45], 3);
    let base = count(px, [0x4c, 0xc9, 0xf0], 10);
    let towers = count(px, [0x2e, 0xc4, 0xb6], 10);
    let runners = count(px, [0xef, 0x47, 0x6f], 12);
    let text = count(px, [225, 225, 230], 45);
    assert!(grass > total / 2, "mostly meadow: {grass}/{total}");
    // 79 tiles and 6 corners of 40 units, overlapping every 20: about 2000 x 51 pixels.
    assert!(road > 90_000, "the road is paved: {road} pixels");
    // A 52-unit square: about 66 x 66 pixels.
    assert!(base > 3_500, "the base is drawn: {base} pixels");
    // Two 30-unit circles of about 900 pixels each: both clicks built, nothing more.
    assert!(
        (1_400..2_400).contains(&towers),
        "two towers: {towers} pixels"
    );
    // An 18-unit runner is about 360 pixels.
    assert!(runners > 250, "runners walk the road: {runners} pixels");
    assert!(text > 100, "the HUD is drawn: {text} pixels");
}
