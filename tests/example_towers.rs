//! The bundled tower defence (examples/towers), played end to end by the real binary: a
//! recorded game that builds towers wins, one that builds nothing loses, the winning game
//! replays hash for hash, and the app draws it in a real window under Xvfb.
//!
//! The recorded inputs live in examples/towers/tests/ and can be replayed by hand:
//! `ludus sim examples/towers --ticks 20000 --input examples/towers/tests/win.jsonl`.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::{count, ludus, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("towers")
}

fn scratch(name: &str) -> PathBuf {
    support::scratch("towers", name)
}

/// Runs `ludus sim examples/towers --ticks 20000 --input tests/INPUT` (plus `extra`) and
/// returns its one-line JSON summary.
fn sim(input: &str, extra: &[&std::ffi::OsStr]) -> (serde_json::Value, Output) {
    let o = ludus()
        .arg("sim")
        .arg(game())
        .args(["--ticks", "20000", "--input"])
        .arg(game().join("tests").join(input))
        .args(extra)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let s = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("sim printed one JSON object ({e}): {out} {err}"));
    (s, o)
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
/// start plus the bounties less six towers at 50.
#[test]
fn building_towers_wins_and_the_recording_replays() {
    let dir = scratch("win");
    let rec = dir.join("win.rec");
    let (s, o) = sim("win.jsonl", &["--record".as_ref(), rec.as_os_str()]);
    assert!(o.status.success(), "{s}");
    assert_eq!(s["faulted"], false, "{s}");
    assert_eq!(s["game_over"]["message"], "YOU WIN", "{s}");
    assert_eq!(s["game_over"]["tick"], 5199, "{s}");
    assert_eq!(s["ticks"], 5199, "the run stops at the game over: {s}");
    assert_eq!(s["score"], 385, "{s}");
    assert_eq!(s["vars"]["money"], 185, "{s}");
    assert_eq!(s["vars"]["lives"], 5, "no enemy reached the base: {s}");
    assert_eq!(s["vars"]["wave"], 4, "{s}");
    assert_eq!(s["vars"]["waves"], 4, "{s}");
    assert_eq!(
        s["vars"]["banner"], "",
        "the app shows the message, not the HUD: {s}"
    );
    // The road (6 corners, the base, 79 paved tiles) and the six towers; no enemy is left.
    assert_eq!(s["entities"], 92, "{s}");

    support::assert_replays(
        &rec,
        "replayed 5199 ticks of Towers: every state hash matches",
    );
    std::fs::remove_dir_all(dir).ok();
}

/// lose.jsonl: the first wave called at once and nothing built. The first five of its six
/// runners walk into the base, one life each.
#[test]
fn building_nothing_loses() {
    let (s, o) = sim("lose.jsonl", &[]);
    assert!(o.status.success(), "{s}");
    assert_eq!(s["faulted"], false, "{s}");
    assert_eq!(s["game_over"]["message"], "GAME OVER", "{s}");
    assert_eq!(s["game_over"]["tick"], 1156, "{s}");
    assert_eq!(s["score"], 0, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    assert_eq!(
        s["vars"]["money"], 100,
        "nothing bought, nothing earned: {s}"
    );
    assert_eq!(s["vars"]["wave"], 1, "{s}");
    assert_eq!(s["vars"]["banner"], "", "{s}");
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
    let dir = scratch("window");
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
    std::fs::remove_dir_all(dir).ok();
}
