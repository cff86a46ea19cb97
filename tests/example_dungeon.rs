//! The bundled top-down example, examples/dungeon, played end to end by the real binary: a
//! recorded input (examples/dungeon/tests/clear.jsonl, re-recorded by its pilot.py) clears
//! both rooms with the sword, a hero who never moves is left alone until the wandering foes
//! come within range, a recording replays identically, and the real app draws the rooms, the
//! hero and its sword in a window under Xvfb.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::{count, ludus, scratch, sized_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("dungeon")
}

/// `ludus sim examples/dungeon [--input examples/dungeon/tests/INPUT] --ticks TICKS`: its
/// summary.
fn sim(input: Option<&str>, ticks: u32, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    let mut cmd = ludus();
    cmd.arg("sim").arg(game());
    if let Some(input) = input {
        cmd.arg("--input").arg(game().join("tests").join(input));
    }
    let o: Output = cmd
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

#[test]
fn the_example_checks_clean() {
    let o = ludus().arg("check").arg(game()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out} {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("5 archetypes, 1 level, 1 script"), "{out}");
}

#[test]
fn the_recorded_run_clears_the_dungeon() {
    // clear.jsonl: the pilot dashes once, then walks at the nearest foe (through the door into
    // the east room) and thrusts whenever one is within reach: four slimes (1 each) and two
    // bats (2 each), taking three touches on the way.
    let s = sim(Some("clear.jsonl"), 4000, &[]);
    assert_eq!(s["game_over"]["message"], "The dungeon is clear!", "{s}");
    assert_eq!(s["game_over"]["tick"], 465, "{s}");
    assert_eq!(s["score"], 8, "{s}");
    assert_eq!(s["vars"]["foes"], 0, "{s}");
    assert_eq!(s["vars"]["hp"], 2, "{s}");
    assert_eq!(s["unattached"], 0, "{s}");
}

#[test]
fn foes_leave_a_still_hero_alone_until_they_wander_into_range() {
    // Nobody is within range of the hero's corner at the start: the foes wander, and for a
    // long while none comes near enough to notice it.
    let s = sim(None, 300, &[]);
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    assert_eq!(s["vars"]["hp"], 5, "{s}");
    // In the end they find it.
    let s = sim(None, 5000, &[]);
    assert_eq!(
        s["game_over"]["message"], "The dungeon keeps you. Score 0",
        "{s}"
    );
    assert_eq!(s["game_over"]["tick"], 845, "{s}");
    assert_eq!(s["vars"]["foes"], 6, "{s}");
}

#[test]
fn a_recording_of_the_clear_run_replays_identically() {
    let dir = scratch("dungeon", "replay");
    let rec = dir.join("clear.rec");
    let s = sim(
        Some("clear.jsonl"),
        4000,
        &["--record".as_ref(), rec.as_os_str()],
    );
    assert_eq!(s["ticks"], 465, "{s}");
    support::assert_replays(
        &rec,
        "replayed 465 ticks of Dungeon: every state hash matches",
    );
}

/// The hero walks east for a second, stops and thrusts: the frame shows the flagstones, the
/// brick walls, the hero with its sword out ahead of it, the slimes and bats, and the HUD.
/// The game runs on wall time, so the test asserts only what holds however many ticks the
/// frames ran.
#[test]
fn the_app_draws_the_rooms_the_hero_and_its_sword_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("dungeon", "window");
    let mut lines = String::new();
    for f in 0..72 {
        lines.push_str(match f {
            5 => "{\"axis\":{\"move_x\":1}}\n",
            62 => "{\"axis\":{\"move_x\":0}}\n",
            68 => "{\"tap\":[\"attack\"]}\n",
            _ => "{}\n",
        });
    }
    let ludus = std::path::Path::new(env!("CARGO_BIN_EXE_ludus"));
    let frame = sized_frame(ludus, Some(&game()), &dir, &lines, Some(60));
    assert_eq!(
        (frame.width, frame.height),
        (800, 480),
        "the game's [window]"
    );
    let px = &frame.px[..];
    let total = px.len() / 4;
    let floor = count(px, [0x3b, 0x35, 0x46], 4);
    let bricks = count(px, [0x6b, 0x5b, 0x7b], 14);
    let hero = count(px, [0x3f, 0xa3, 0x4d], 22) + count(px, [0x2d, 0x6a, 0x4f], 12);
    let slimes = count(px, [0x70, 0xe0, 0x00], 40);
    let bats = count(px, [0x9d, 0x4e, 0xdd], 24);
    let sword = count(px, [0xc9, 0xd6, 0xdf], 16) + count(px, [0xff, 0xff, 0xff], 8);
    let text = count(px, [225, 225, 230], 40);
    // The 800 x 480 level fills the window: 23 x 13 floor tiles less the walls inside.
    assert!(floor > total / 3, "the flagstones: {floor}/{total}");
    assert!(bricks > total / 10, "the brick walls: {bricks}/{total}");
    // A hero is about 400 pixels, its green hood and cloak half of them; a slime about 450,
    // of which 300 its bright green; a bat about 250, 100 of them its wings.
    assert!(hero > 150, "the hero: {hero} pixels");
    assert!(slimes > 700, "four slimes: {slimes} pixels");
    assert!(bats > 80, "two bats: {bats} pixels");
    assert!(sword > 20, "the sword, out for ten ticks: {sword} pixels");
    assert!(
        text > 300,
        "HP, foes, score and the help line: {text} pixels"
    );
}
