//! The bundled Flappy (examples/flappy), played end to end by the real binary: a recorded game
//! flies through twelve gaps (losing a life to the ground on the way and passing through a
//! pipe while it blinks) and then falls three times, a game of one flap falls three times, a
//! game with no input hovers and waits, the best score is kept in the saved data, the recorded
//! game replays hash for hash, and the app draws the bird, the pipes (the top one upside down)
//! and the HUD in a window under Xvfb.
//!
//! The recorded input lives in examples/flappy/tests/ and can be replayed by hand:
//! `ludus sim examples/flappy --ticks 20000 --input examples/flappy/tests/play.jsonl`.

mod support;

use std::path::{Path, PathBuf};
use support::{Scratch, ludus, scratch, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("flappy")
}

/// Runs `ludus sim GAME --ticks 20000 --input INPUT` (plus `extra`) and returns its one-line
/// JSON summary, after checking it ran clean.
fn sim(input: &Path, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    let o = ludus()
        .arg("sim")
        .arg(game())
        .args(["--ticks", "20000", "--input"])
        .arg(input)
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

/// An input file of `lines` in a scratch folder `name`: the folder (removed when its guard
/// drops) and the file.
fn input(name: &str, lines: &str) -> (Scratch, PathBuf) {
    let dir = scratch("flappy", name);
    let path = dir.join("input.jsonl");
    std::fs::write(&path, lines).unwrap();
    (dir, path)
}

#[test]
fn the_flappy_example_checks() {
    let o = ludus().arg("check").arg(game()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("ok (9 archetypes, 1 level, 1 script"), "{out}");
    assert!(
        !(out.contains("warning") || err.contains("warning")),
        "no warnings: {out}{err}"
    );
}

/// play.jsonl: 40 taps of Space. The bird flies through five gaps, is let fall to the ground
/// (a life lost; it bounces back up), blinks through the next pipe without harm, flies
/// through seven more gaps, and is then let fall until its three lives are gone. (The taps
/// were chosen by an autopilot watching trial runs; nothing in the file is read by the game
/// but the key.)
#[test]
fn twelve_gaps_then_three_falls_end_the_game_and_the_recording_replays() {
    let dir = scratch("flappy", "play");
    let rec = dir.join("play.rec");
    let save = dir.join("save.json");
    let s = sim(
        &game().join("tests/play.jsonl"),
        &[
            "--record".as_ref(),
            rec.as_os_str(),
            "--save".as_ref(),
            save.as_os_str(),
        ],
    );
    assert_eq!(s["game_over"]["message"], "GAME OVER - 12 points", "{s}");
    assert_eq!(s["game_over"]["tick"], 1530, "{s}");
    assert_eq!(s["score"], 12, "{s}");
    assert_eq!(s["vars"]["lives"], 0, "{s}");
    assert_eq!(s["vars"]["best"], 12, "{s}");
    assert_eq!(
        std::fs::read_to_string(&save).unwrap(),
        r#"{"best":12}"#,
        "the best score is saved"
    );
    support::assert_replays(
        &rec,
        "replayed 1530 ticks of Flappy: every state hash matches",
    );
    // A better best score is kept, and shown from the start.
    std::fs::write(&save, r#"{"best":30}"#).unwrap();
    let s = sim(
        &game().join("tests/play.jsonl"),
        &["--save".as_ref(), save.as_os_str()],
    );
    assert_eq!(
        (s["score"].as_i64(), s["vars"]["best"].as_i64()),
        (Some(12), Some(30))
    );
    assert_eq!(std::fs::read_to_string(&save).unwrap(), r#"{"best":30}"#);
}

/// One flap starts the game; the bird then falls to the ground, bounces, blinks, and falls
/// again until its lives are gone, before the first pipe reaches it.
#[test]
fn a_single_flap_falls_three_times() {
    let (_dir, path) = input("one", "{\"tick\":40,\"tap\":[\"flap\"]}\n");
    let s = sim(&path, &[]);
    assert_eq!(s["game_over"]["message"], "GAME OVER - 0 points", "{s}");
    assert_eq!(s["game_over"]["tick"], 313, "{s}");
    assert_eq!(
        (s["score"].as_i64(), s["vars"]["lives"].as_i64()),
        (Some(0), Some(0))
    );
}

/// Without a flap the bird hovers where it started and no pipe comes.
#[test]
fn without_a_flap_the_bird_waits() {
    let (_dir, path) = input("idle", "");
    let o = ludus()
        .arg("sim")
        .arg(game())
        .args(["--ticks", "600", "--input"])
        .arg(&path)
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["banner"], "SPACE TO FLAP", "{s}");
    // The bird, the ground, the grass and the four clouds the sky starts with.
    assert_eq!(
        (s["score"].as_i64(), s["entities"].as_i64()),
        (Some(0), Some(7))
    );
}

/// Pixels of `rgb` (each channel within `tol`) in the rectangle `[x0, y0, x1, y1)`.
fn count(f: &support::Frame, [x0, y0, x1, y1]: [u32; 4], rgb: [u8; 3], tol: i32) -> usize {
    let mut n = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let o = ((y * f.width + x) * 4) as usize;
            n += usize::from((0..3).all(|i| (f.px[o + i] as i32 - rgb[i] as i32).abs() <= tol));
        }
    }
    n
}

/// The rows of column `x` whose pixel is within 12 of `rgb`.
fn rows_of(f: &support::Frame, x: u32, rgb: [u8; 3]) -> Vec<u32> {
    (0..f.height)
        .filter(|&y| {
            let o = ((y * f.width + x) * 4) as usize;
            (0..3).all(|i| (f.px[o + i] as i32 - rgb[i] as i32).abs() <= 12)
        })
        .collect()
}

/// Space is tapped every 12 frames from the fifth: the bird climbs on the left (at one tick a
/// frame to the top of the sky, at three it flies level) while the first pipes come in from
/// the right. The frame after 100 frames shows the sky, the grass, the bird, a pipe pair whose
/// top lip is the bottom one upside down (its bright rim toward the gap, below its shadow),
/// and the HUD's birds. The game runs on wall time (at most four ticks a frame); the first
/// pipe reaches the bird only after about 270 ticks.
#[test]
fn the_app_draws_the_bird_the_pipes_and_the_hud_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("flappy", "window");
    let lines: String = (0..100)
        .map(|f| {
            if f >= 5 && (f - 5) % 12 == 0 {
                "{\"tap\":[\"flap\"]}\n"
            } else {
                "{}\n"
            }
        })
        .collect();
    let f = window_frame(&game(), &dir, &lines, Some(60));
    let (w, h) = (f.width, f.height);
    let sky = count(&f, [0, 0, w, h], [0x70, 0xc5, 0xce], 2);
    assert!(sky > (w * h / 2) as usize, "mostly sky: {sky}");
    // The grass along the ground: 800 x 10 units, 1024 x 13 pixels (the help line covers
    // the ground below it).
    let grass = count(&f, [0, 690, w, 720], [0x73, 0xbf, 0x2e], 3);
    assert!((10_000..14_000).contains(&grass), "the grass: {grass}");
    // The bird, 44 units (56 pixels) round, left of the middle (x = -180: pixel 282).
    let bird = count(&f, [200, 0, 370, 700], [0xf7, 0xc5, 0x31], 40);
    assert!(bird > 600, "the bird: {bird} yellow pixels");
    // A pipe pair on the right: its lips' bright rims face the gap between them.
    let rim = [0xc7, 0xf5, 0x9a];
    let column = (w / 2..w)
        .find(|&x| rows_of(&f, x, rim).len() > 6)
        .expect("a pipe's lip in the right half");
    let x = column + 20;
    let (rims, shadows) = (rows_of(&f, x, rim), rows_of(&f, x, [0x2c, 0x6e, 0x24]));
    let mid = |rows: &[u32], upper: bool| -> f32 {
        let part: Vec<u32> = rows
            .iter()
            .copied()
            .filter(|&y| (y < rims[0] + 40) == upper)
            .collect();
        part.iter().sum::<u32>() as f32 / part.len().max(1) as f32
    };
    let (top_rim, top_shadow) = (mid(&rims, true), mid(&shadows, true));
    let (low_rim, low_shadow) = (mid(&rims, false), mid(&shadows, false));
    assert!(
        top_shadow < top_rim && top_rim < low_rim && low_rim < low_shadow,
        "the top lip is upside down, the rims face the gap: top shadow {top_shadow}, top rim \
         {top_rim}, bottom rim {low_rim}, bottom shadow {low_shadow} (column {x})"
    );
    // The HUD's birds at the top right, one a life.
    let icons = count(&f, [w - 200, 0, w, 60], [0xf7, 0xc5, 0x31], 40);
    assert!(icons > 400, "the lives: {icons} yellow pixels");
}
