//! The bundled turn-based example, examples/rogue, played end to end by the real binary:
//! recorded key presses (examples/rogue/tests/*.jsonl, one press per turn) escape through
//! both levels or get the hero killed, a recording of the escape replays identically, and
//! the real app draws the second level in a window under Xvfb.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::{count, ludus, scratch, window_frame, xvfb_available};

fn game() -> PathBuf {
    support::example("rogue")
}

/// `ludus sim examples/rogue --input examples/rogue/tests/INPUT --ticks TICKS`: its summary.
fn sim(input: &str, ticks: u32, extra: &[&std::ffi::OsStr]) -> serde_json::Value {
    let o: Output = ludus()
        .arg("sim")
        .arg(game())
        .arg("--input")
        .arg(game().join("tests").join(input))
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
    assert!(out.contains("2 levels"), "{out}");
}

#[test]
fn the_recorded_escape_climbs_into_the_cellar_with_its_gold_and_health() {
    // escape.jsonl: 42 presses clear the Crypt (two goblins killed, two piles of gold), the
    // 42nd onto its stairs. The step after it has no press: it runs the Cellar's first tick.
    let s = sim("escape.jsonl", 44, &[]);
    assert_eq!(s["level"], "cellar", "{s}");
    assert_eq!(s["world_tick"], 1, "{s}");
    assert_eq!(s["game_over"], serde_json::Value::Null, "{s}");
    // The score and the game variables came along through ludus.load_level.
    assert_eq!(s["score"], 20, "{s}");
    assert_eq!(s["vars"]["turn"], 42, "{s}");
    assert_eq!(s["vars"]["hp"], 5, "{s}");
    assert_eq!(s["vars"]["where"], "The Cellar", "{s}");
}

#[test]
fn the_recorded_escape_wins_the_game() {
    // The Cellar: two goblins waited for and killed, the troll fought in its doorway (it hits
    // the hero once, for 2), its gold taken, the last goblin killed, out by the stairs.
    let s = sim("escape.jsonl", 1000, &[]);
    assert_eq!(s["level"], "cellar", "{s}");
    assert_eq!(
        s["game_over"]["message"], "You escaped with 30 gold!",
        "{s}"
    );
    assert_eq!(s["game_over"]["tick"], 58, "{s}");
    // The Crypt ran 43 ticks (its first, then a tick per press), the Cellar 58; the run stops
    // at the game over.
    assert_eq!(s["ticks"], 101, "{s}");
    assert_eq!(s["score"], 30, "{s}");
    assert_eq!(s["vars"]["turn"], 99, "{s}");
    assert_eq!(s["vars"]["hp"], 3, "{s}");
}

#[test]
fn waiting_next_to_a_goblin_gets_the_hero_killed() {
    // caught.jsonl: ten steps toward the Crypt's middle room, then Space (wait) until the
    // goblin that came out of it has hit the hero five times.
    let s = sim("caught.jsonl", 1000, &[]);
    assert_eq!(s["level"], "crypt", "{s}");
    assert_eq!(
        s["game_over"]["message"], "Killed by a goblin on turn 19",
        "{s}"
    );
    assert_eq!(s["game_over"]["tick"], 20, "{s}");
    assert_eq!(s["ticks"], 20, "{s}");
    assert_eq!(s["vars"]["hp"], 0, "{s}");
    assert_eq!(s["vars"]["turn"], 19, "{s}");
    assert_eq!(s["score"], 0, "{s}");
}

#[test]
fn a_recording_of_the_escape_replays_identically_across_the_level_switch() {
    let dir = scratch("rogue", "replay");
    let rec = dir.join("escape.rec");
    let s = sim(
        "escape.jsonl",
        1000,
        &["--record".as_ref(), rec.as_os_str()],
    );
    assert_eq!(s["ticks"], 101, "{s}");
    support::assert_replays(
        &rec,
        "replayed 101 ticks of Rogue: every state hash matches",
    );
}

#[test]
fn the_app_plays_the_crypt_and_draws_the_cellar_under_xvfb() {
    if !xvfb_available() {
        return;
    }
    let dir = scratch("rogue", "window");
    // The escape's presses until the Crypt's stairs (its first 42 lines), one frame each with an
    // empty frame after it, so the Cellar's first tick runs on a frame without a press.
    let escape = std::fs::read_to_string(game().join("tests/escape.jsonl")).unwrap();
    let mut lines = "{}\n".repeat(5);
    for line in escape.lines().take(42) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        lines.push_str(&format!("{{\"tap\":{}}}\n{{}}\n", v["tap"]));
    }
    lines.push_str(&"{}\n".repeat(10));
    let frame = window_frame(&game(), &dir, &lines, None);
    let px = &frame.px[..];
    let total = px.len() / 4;
    // The Cellar's floor, not the Crypt's (#17141f): the stairs were taken in the window.
    let cellar_floor = count(px, [0x1d, 0x18, 0x12], 2);
    let crypt_floor = count(px, [0x17, 0x14, 0x1f], 2);
    let walls = count(px, [0x5a, 0x54, 0x66], 3);
    let hero = count(px, [0x4c, 0xc9, 0xf0], 12);
    let goblins = count(px, [0x80, 0xb9, 0x18], 12);
    let troll = count(px, [0xf3, 0x72, 0x2c], 12);
    let gold = count(px, [0xff, 0xd1, 0x66], 12);
    let stairs = count(px, [0x9d, 0x4e, 0xdd], 12);
    let title = count(px, [0xe9, 0xc4, 0x6a], 40);
    let text = count(px, [225, 225, 230], 40);
    assert!(
        cellar_floor > total / 4,
        "the Cellar's floor: {cellar_floor}/{total}"
    );
    assert_eq!(crypt_floor, 0, "no Crypt floor left");
    assert!(walls > total / 4, "walls: {walls}/{total}");
    assert!(hero > 500, "the hero: {hero} pixels");
    assert!(goblins > 900, "three goblins: {goblins} pixels");
    assert!(troll > 900, "the troll: {troll} pixels");
    assert!(gold > 400, "six piles of gold: {gold} pixels");
    assert!(stairs > 1000, "the stairs: {stairs} pixels");
    assert!(title > 150, "the level's name at the top: {title} pixels");
    assert!(text > 300, "HP, gold, turn and the message: {text} pixels");
}
