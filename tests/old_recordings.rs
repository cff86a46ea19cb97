//! Recordings made by earlier builds keep replaying: content that uses no new feature keeps
//! its exact behaviour, tick for tick.
//!
//! `tests/fixtures/swarm-v1.ludusrec` is 900 ticks of scripted play of
//! `tests/fixtures/swarm-v1` (a frozen copy of the bundled example), recorded by the first
//! release of the recording format (version 1); `swarm-v4.ludusrec`, 300 ticks of the same
//! game recorded by the last build of version 4 (before recordings held saved data and the
//! limits `save_bytes`); `swarm-v5.ludusrec`, 300 ticks with the pointer moving, by the last
//! build of version 5 (before ticks held touches). Every state hash must still match.

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
