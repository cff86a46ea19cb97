//! Recordings made by earlier builds keep replaying: content that uses no new feature keeps
//! its exact behaviour, tick for tick.
//!
//! `tests/fixtures/swarm-v1.ludusrec` is 900 ticks of scripted play of
//! `tests/fixtures/swarm-v1` (a frozen copy of the bundled example), recorded by the first
//! release of the recording format (version 1). Every state hash must still match.

use std::process::Command;

#[test]
fn a_version_1_recording_replays_identically() {
    let out = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["replay", "tests/fixtures/swarm-v1.ludusrec"])
        .output()
        .expect("ludus runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("replayed 900 ticks of Swarm: every state hash matches"),
        "{stdout}{stderr}"
    );
}
