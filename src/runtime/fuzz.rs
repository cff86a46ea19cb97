//! Fuzzing the files `ludus` reads, in-process with proptest, bounded to a few seconds each:
//! recordings (random edits of a real recording of the bundled game with the checksum fixed,
//! so the decoder, the validator and the replay itself see them; and random bytes), and
//! `--input` / `--frames` / `--script` files (random edits of valid files, random lines of
//! JSON-ish tokens, random bytes). Each case is an error message or a success, never a panic.

use crate::runtime::frames::{Format, parse, parse_reader};
use crate::runtime::project::Project;
use ludus_core::*;
use proptest::prelude::*;
use std::sync::OnceLock;

const INPUT: &str = "{\"tick\":1,\"press\":[\"fire\"],\"axis\":{\"move_x\":1}}\n\
                     {\"tick\":40,\"axis\":{\"move_x\":-0.5,\"move_y\":1}}\n\
                     {\"tick\":70,\"release\":[\"fire\"],\"tap\":[\"fire\"]}\n";

const FRAMES: &str = "{\"dt_ms\":0}\n\
                      {\"dt_ms\":16.667,\"press\":[\"fire\"],\"axis\":{\"move_x\":1}}\n\
                      {\"dt_ms\":250,\"signal\":\"pause\"}\n\
                      {\"dt_ns\":16667000,\"signal\":\"step\",\"ui\":[\"fire\"]}\n\
                      {\"dt_ms\":16.667,\"release\":[\"fire\"],\"cancel\":[\"fire\"]}\n";

thread_local! {
    static PROJECT: Project = crate::runtime::bundled::project().expect("the bundled game loads");
}

/// The bundled game (loaded once per test thread; a clone shares its definition).
fn project() -> Project {
    PROJECT.with(Project::clone)
}

/// A recording of 90 ticks of the bundled game (flow fields included).
fn recorded() -> &'static [u8] {
    static R: OnceLock<Vec<u8>> = OnceLock::new();
    R.get_or_init(|| {
        let project = project();
        let mut d = crate::runtime::headless::headless_run(&project, 0).unwrap();
        d.start_recording(crate::runtime::headless::header(&project, None, 0), false);
        let lines = parse("input", INPUT, Format::Input, &project.def).unwrap();
        assert!(d.run_input(lines, 90).is_none());
        d.recording().unwrap().to_bytes()
    })
}

fn with_checksum(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(payload).to_le_bytes());
    out
}

/// What `ludus replay` does with bytes, short of printing.
fn replay(bytes: &[u8]) -> Result<(), String> {
    let rec = Recording::from_bytes(bytes).map_err(|e| e.to_string())?;
    let project = project();
    if let Some(why) = crate::runtime::verify::mismatch(&rec, &project) {
        return Err(why);
    }
    crate::runtime::verify::replay(&rec, &project, None).map(|_| ())
}

/// Byte-level edits: flips, overwrites with varint-significant bytes, inserts, removals.
fn edit(bytes: &mut Vec<u8>, kind: u8, at: usize, value: u8) {
    if bytes.is_empty() {
        bytes.push(value);
        return;
    }
    let i = at % bytes.len();
    match kind % 5 {
        0 => bytes[i] ^= value.max(1),
        1 => bytes[i] = [0x00, 0x7f, 0x80, 0xff, value][usize::from(value) % 5],
        2 => bytes.insert(i, value),
        3 => {
            bytes.remove(i);
        }
        _ => bytes.truncate(i),
    }
}

#[test]
fn the_fuzzed_recording_replays_unchanged() {
    assert_eq!(replay(recorded()), Ok(()));
    let rec = Recording::from_bytes(recorded()).unwrap();
    let completions: usize = rec.segments[0]
        .ticks
        .iter()
        .map(|t| t.completions.len())
        .sum();
    assert!(completions > 0, "the edits can reach flow fields");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Edits anywhere after the header, checksum fixed: decoded and replayed, or refused.
    #[test]
    fn edited_recordings_replay_or_are_refused(
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..4)
    ) {
        let full = recorded();
        let mut payload = full[20..full.len() - 8].to_vec();
        // Most edits land past the header, where the ticks are.
        let header = 80.min(payload.len());
        for (kind, at, value) in edits {
            let mut tail = payload.split_off(header);
            edit(&mut tail, kind, at, value);
            payload.extend_from_slice(&tail);
        }
        let _ = replay(&with_checksum(&payload));
    }

    /// Any bytes, with the frame and checksum made valid.
    #[test]
    fn random_recordings_are_refused(payload in proptest::collection::vec(any::<u8>(), 0..300)) {
        prop_assert!(replay(&with_checksum(&payload)).is_err());
    }
}

/// Pieces of lines that are nearly right.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"tick\"",
        "\"dt_ms\"",
        "\"dt_ns\"",
        "\"press\"",
        "\"release\"",
        "\"tap\"",
        "\"cancel\"",
        "\"axis\"",
        "\"ui\"",
        "\"signal\"",
        "\"fire\"",
        "\"move_x\"",
        "\"move_y\"",
        "\"pause\"",
        "\"step\"",
        "\"nope\"",
        "1",
        "0",
        "-1",
        "1e308",
        "-1e308",
        "18446744073709551616",
        "0.5",
        "NaN",
        "null",
        "true",
        "\"\\u0000\"",
        "\n",
        " ",
        "\r",
        "\u{feff}",
        "\u{1b}",
    ])
}

fn parse_all(text: &[u8]) {
    let project = project();
    for format in [Format::Input, Format::Frames, Format::Script] {
        let _ = parse_reader("fuzz.jsonl", text, format, &project.def);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn edited_input_and_frames_files_parse_or_are_refused(
        base in prop::bool::ANY,
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..6)
    ) {
        let mut bytes = if base { INPUT } else { FRAMES }.as_bytes().to_vec();
        for (kind, at, value) in edits {
            edit(&mut bytes, kind, at, value);
        }
        parse_all(&bytes);
    }

    #[test]
    fn token_soup_parses_or_is_refused(tokens in proptest::collection::vec(token(), 0..40)) {
        parse_all(tokens.concat().as_bytes());
    }

    #[test]
    fn random_bytes_parse_or_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        parse_all(&bytes);
    }
}

#[test]
fn input_lines_that_parse_drive_a_run() {
    // What parses is usable: the run takes it without fault.
    let project = project();
    let lines = parse("input", INPUT, Format::Input, &project.def).unwrap();
    let mut d = crate::runtime::headless::headless_run(&project, 0).unwrap();
    assert!(d.run_input(lines, 80).is_none());
}

#[test]
fn a_recording_stops_before_passing_its_size_limit() {
    let project = project();
    let mut d = crate::runtime::headless::headless_run(&project, 0).unwrap();
    d.start_recording(crate::runtime::headless::header(&project, None, 0), true);
    d.recorder
        .as_mut()
        .unwrap()
        .pretend_size(MAX_RECORDING_BYTES - 1000);
    let lines = parse("input", INPUT, Format::Input, &project.def).unwrap();
    assert!(d.run_input(lines, 50).is_none());
    let error = d.error.clone().unwrap_or_default();
    assert!(d.recorder.is_none());
    assert!(
        error.contains("the recording reached its limit of 128 MiB at tick"),
        "{error}"
    );
    assert!(error.contains("--record-detail"), "{error}");
    assert!(
        d.ticks < 50,
        "the run stops at the limit: {} ticks",
        d.ticks
    );
}
