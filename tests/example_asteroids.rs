//! The bundled Asteroids (examples/asteroids), played end to end by the real binary: a recorded
//! game that shoots every rock of three waves wins, one that only flies loses its three ships,
//! the winning game replays hash for hash, and the app draws the rotated ship, the rocks, the
//! bullets and the HUD in a real window under Xvfb.
//!
//! The recorded inputs live in examples/asteroids/tests/ and can be replayed by hand:
//! `ludus sim examples/asteroids --ticks 5000 --input examples/asteroids/tests/win.jsonl`.
//! win.jsonl was played by examples/asteroids/tests/pilot.py (keys only, deciding from what the
//! game shows every 12 ticks); run it again to re-record after a change to the game's motion.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::{ludus, scratch, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("asteroids")
}

/// `ludus sim examples/asteroids --ticks TICKS --check-invariants`, with
/// `--input examples/asteroids/tests/INPUT` when given, plus `extra`: its JSON summary.
fn sim(input: Option<&str>, ticks: u32, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    let mut cmd = ludus();
    cmd.arg("sim")
        .arg(game())
        .args(["--ticks", &ticks.to_string(), "--check-invariants"]);
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

/// The stars (scenery the level scatters on the first tick) are always there.
const STARS: u64 = 40;

#[test]
fn the_asteroids_example_checks() {
    let o = ludus().arg("check").arg(game()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("ok (6 archetypes, 1 level, 1 script"), "{out}");
}

/// win.jsonl: a short burn of the engine while turning right, then the pilot turns toward each
/// rock, leads it and fires, burning the engine again to close in on rocks out of range. It
/// takes the first wave's two big rocks and every piece of them: 2 x (20 + 2 x 50 + 4 x 100).
/// By tick 600 the field is clear and the HUD announces the second wave.
#[test]
fn the_recorded_pilot_clears_the_first_wave() {
    let s = sim(Some("win.jsonl"), 600, &[]);
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["score"], 1040, "{s}");
    assert_eq!(s["vars"]["wave"], 2, "{s}");
    assert_eq!(s["vars"]["banner"], "WAVE 2", "{s}");
    assert_eq!(s["vars"]["lives"], 3, "{s}");
    // No rock is left: the stars, the ship and three bullets still in flight.
    assert_eq!(s["entities"], STARS + 1 + 3, "{s}");
}

/// The whole recording: waves of 2, 3 and 4 big rocks, every one and all six of its pieces shot
/// (9 x 520 points), no ship lost. The run stops at the game over; a recording of it replays
/// with every state hash matching.
#[test]
fn the_recorded_pilot_wins_and_the_recording_replays() {
    let dir = scratch("asteroids", "win");
    let rec = dir.join("win.rec");
    let s = sim(
        Some("win.jsonl"),
        5000,
        &["--record".as_ref(), rec.as_os_str()],
    );
    assert_eq!(s["game_over"]["message"], "YOU WIN", "{s}");
    assert_eq!(s["game_over"]["tick"], 2405, "{s}");
    assert_eq!(s["ticks"], 2405, "the run stops at the game over: {s}");
    assert_eq!(s["score"], 4680, "{s}");
    assert_eq!(s["vars"]["wave"], 3, "{s}");
    assert_eq!(s["vars"]["waves"], 3, "{s}");
    assert_eq!(s["vars"]["lives"], 3, "{s}");
    assert_eq!(s["vars"]["banner"], "", "{s}");
    // No rock left: the stars, the ship and four bullets in flight.
    assert_eq!(s["entities"], STARS + 1 + 4, "{s}");

    support::assert_replays(
        &rec,
        "replayed 2405 ticks of Asteroids: every state hash matches",
    );
}

/// reckless.jsonl: the engine held from tick 2 and never a shot. The ship speeds up the screen
/// (wrapping top to bottom) into the rocks; each new ship, appearing in the middle once it is
/// clear, still has the engine held. The third wreck ends the game, with nothing scored.
#[test]
fn flying_without_shooting_loses_all_three_ships() {
    let s = sim(Some("reckless.jsonl"), 5000, &[]);
    assert_eq!(s["game_over"]["message"], "GAME OVER", "{s}");
    assert_eq!(s["game_over"]["tick"], 1598, "{s}");
    assert_eq!(s["ticks"], 1598, "{s}");
    assert_eq!(s["score"], 0, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    assert_eq!(s["vars"]["wave"], 1, "{s}");
    // Each wreck broke the rock it hit: a big one into two middle ones (one of which a later
    // ship hit, into two small ones), and then one small one. The ship is gone.
    assert_eq!(s["entities"], STARS + 3, "{s}");

    // It was the flying: a ship left alone in the middle has lost none by then.
    let idle = sim(None, 1598, &[]);
    assert_eq!(idle["game_over"], serde_json::Value::Null, "{idle}");
    assert_eq!(idle["vars"]["lives"], 3, "{idle}");
    assert_eq!(
        idle["entities"],
        STARS + 1 + 2,
        "the ship and two big rocks: {idle}"
    );
}

// The window test (the window run and its skip-if-no-xvfb rule are in tests/support).

/// The pixels within `tol` of a colour, as (x, y).
fn pixels(px: &[u8], width: u32, rgb: [u8; 3], tol: i32) -> Vec<(f64, f64)> {
    px.chunks(4)
        .enumerate()
        .filter(|(_, p)| (0..3).all(|i| (p[i] as i32 - rgb[i] as i32).abs() <= tol))
        .map(|(i, _)| ((i as u32 % width) as f64, (i as u32 / width) as f64))
        .collect()
}

/// The direction of a blob's long axis (degrees from the screen's x axis, y down, in -90..90)
/// and how much longer than wide it is (the ratio of its second moments).
fn long_axis(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0 / n, y + p.1 / n));
    let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
    for (x, y) in points {
        sxx += (x - mx) * (x - mx) / n;
        syy += (y - my) * (y - my) / n;
        sxy += (x - mx) * (y - my) / n;
    }
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let half = (sxx + syy) / 2.0;
    let spread = (half * half - (sxx * syy - sxy * sxy)).max(0.0).sqrt();
    (angle.to_degrees(), (half + spread) / (half - spread))
}

/// The player turns right for a moment, waits for the first wave, fires and burns the engine:
/// the frame shows the starfield, two big rocks, the ship turned away from straight up (its
/// long rect drawn along its new facing), its bullets and the HUD. The game runs on wall time,
/// so the test asserts only what holds however many ticks the frames ran (the first rock
/// reaches the middle hundreds of ticks later).
#[test]
fn the_app_draws_the_rotated_ship_rocks_and_hud_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("asteroids", "window");
    let mut lines = String::new();
    for f in 0..150 {
        lines.push_str(match f {
            5 => "{\"axis\":{\"turn\":1}}\n",
            15 => "{\"axis\":{\"turn\":0}}\n",
            110 => "{\"press\":[\"fire\"]}\n",
            125 => "{\"press\":[\"thrust\"]}\n",
            _ => "{}\n",
        });
    }
    let frame = window_frame(&game(), &dir, &lines, Some(60));
    let (px, info) = (&frame.px[..], &frame);
    let total = px.len() / 4;
    let count = |rgb: [u8; 3], tol: i32| pixels(px, info.width, rgb, tol).len();
    // The view is 800 x 600 world units drawn at 1.28 pixels per unit.
    let space = count([0x0b, 0x0d, 0x17], 2);
    let rocks =
        count([0x9a, 0x8c, 0x98], 6) + count([0xb5, 0xa6, 0x9b], 6) + count([0xc9, 0xbd, 0xb3], 6);
    let bullets = count([0xff, 0xf3, 0xb0], 12);
    let stars = count([0x5c, 0x67, 0x7d], 6);
    let text = count([225, 225, 230], 40);
    let wave = count([0x8e, 0xca, 0xe6], 30);
    assert!(space > total * 3 / 4, "mostly empty space: {space}/{total}");
    // A big rock is 62 x 50 units, about 5000 pixels; even if a bullet broke one, more than 6000.
    assert!(rocks > 6_000, "the first wave's rocks: {rocks} pixels");
    // A bullet is a 5-unit circle, about 25 pixels.
    assert!(bullets > 25, "bullets: {bullets} pixels");
    // Forty 3-unit stars of about 10 pixels each.
    assert!(stars > 200, "the stars: {stars} pixels");
    assert!(text > 150, "score, ships and the help line: {text} pixels");
    assert!(wave > 40, "\"wave 1/3\": {wave} pixels");

    // The ship: a 30 x 12 rect, about 590 pixels. It started facing straight up (its long axis
    // vertical: ±90 degrees) and the player turned it right, so its long axis is drawn turned
    // away from the vertical (by about 45 degrees at 60 frames a second), and it is still a long
    // thin rect (second moments about 30² : 12²). Left unturned, the axis measures 90 degrees.
    let ship = pixels(px, info.width, [0x4c, 0xc9, 0xf0], 10);
    assert!(
        (400..800).contains(&ship.len()),
        "one ship: {} pixels",
        ship.len()
    );
    let (axis, ratio) = long_axis(&ship);
    assert!(ratio > 4.0, "the ship is a long rect: ratio {ratio:.2}");
    assert!(
        axis.abs() < 80.0,
        "the ship is drawn turned away from straight up: its long axis at {axis:.1} degrees"
    );
}
