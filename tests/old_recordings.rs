//! Recordings made by earlier builds keep replaying: content that uses no new feature keeps
//! its exact behaviour, tick for tick.
//!
//! `tests/fixtures/swarm-v1.ludusrec` is 900 ticks of scripted play of
//! `tests/fixtures/swarm-v1` (a frozen copy of the bundled example), recorded by the first
//! release of the recording format (version 1); `swarm-v4.ludusrec`, 300 ticks of the same
//! game recorded by the last build of version 4 (before recordings held saved data and the
//! limits `save_bytes`); `swarm-v5.ludusrec`, 300 ticks with the pointer moving, by the last
//! build of version 5 (before ticks held touches). Every state hash must still match. And
//! `tests/fixtures/bullet-hell` keeps its end as the broadphase learns to skip work.

use std::process::Command;

/// Replays `file` (under tests/fixtures) and checks it names `ticks` ticks, all matching.
fn replays_identically(file: &str, ticks: u32) {
    let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("replay")
        .arg(format!("tests/fixtures/{file}"))
        .output()
        .expect("ludus runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{file}: {stdout}{stderr}");
    assert!(
        stdout.contains(&format!(
            "replayed {ticks} ticks of Swarm: every state hash matches"
        )),
        "{file}: {stdout}{stderr}"
    );
}

#[test]
fn a_version_1_recording_replays_identically() {
    replays_identically("swarm-v1.ludusrec", 900);
}

#[test]
fn a_version_4_recording_replays_identically() {
    let bytes = std::fs::read("tests/fixtures/swarm-v4.ludusrec").expect("the fixture");
    assert_eq!(bytes[8..12], 4u32.to_le_bytes(), "it is of version 4");
    replays_identically("swarm-v4.ludusrec", 300);
}

#[test]
fn a_version_5_recording_replays_identically() {
    let bytes = std::fs::read("tests/fixtures/swarm-v5.ludusrec").expect("the fixture");
    assert_eq!(bytes[8..12], 5u32.to_le_bytes(), "it is of version 5");
    replays_identically("swarm-v5.ludusrec", 300);
}

/// `tests/fixtures/bullet-hell` (700 bullets that look for the ship, about 715 entities: the
/// broadphase passes over the buckets where no pair can be) plays its minute of input to the
/// same end, state hash included, as it did when every bucket was scanned.
#[test]
fn a_crowd_that_looks_for_a_few_plays_as_it_always_has() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .expect("ludus runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let game = "tests/fixtures/bullet-hell";
    assert!(run(&["test", game]).contains("1 passed, 0 failed"));
    // Enough colliders that the scan passes over buckets (`KINDS_MIN`, 256): 732 at tick 600.
    let input = "tests/fixtures/bullet-hell/tests/play.jsonl";
    let sim = run(&["sim", game, "--ticks", "600", "--input", input]);
    let summary: serde_json::Value = serde_json::from_str(&sim).expect("a summary");
    assert_eq!(summary["entities"], 732, "{sim}");
}
