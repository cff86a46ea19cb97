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
        "\"inspect\"",
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

// Work: recordings and frames files generated with structure (many segments, restarts,
// rewinds), on a small game, asserting the work each does by counting the ticks it simulates
// and the levels it builds (not by timing it). A bound that stopped holding (a replay building
// a level per few bytes, rewinds re-simulating a long run once per line) fails here.

/// A small game of two levels without scripts: cheap builds, so many of them fit in a test.
pub(super) fn tiny() -> Project {
    thread_local! {
        static TINY: Project = {
            let toml = "name = \"Tiny\"\n[archetypes.dot]\nsprite = { shape = \"circle\", size = 8 }\n\
                        [levels.a]\nplace = [{ archetype = \"dot\", at = [0, 0] }]\n\
                        [levels.b]\nplace = [{ archetype = \"dot\", at = [10, 0] }]\n";
            let files = [("game.toml".to_string(), toml.as_bytes().to_vec())].into();
            Project::from_files("tiny", files).expect("the tiny game loads")
        };
    }
    TINY.with(Project::clone)
}

/// One generated segment: its level (0 `a`, 1 `b`) and its ticks.
fn segment() -> impl Strategy<Value = (u8, u8)> {
    (
        0u8..2,
        prop_oneof![6 => Just(0u8), 2 => 1u8..4, 1 => 4u8..40],
    )
}

/// What may be wrong with a generated recording, at a segment (taken modulo their number): a
/// level the game lacks, a switch no script asked for.
#[derive(Clone, Copy, Debug)]
enum Flaw {
    None,
    Level(usize),
    Switch(usize),
}

fn flaw() -> impl Strategy<Value = Flaw> {
    prop_oneof![
        6 => Just(Flaw::None),
        1 => any::<usize>().prop_map(Flaw::Level),
        1 => any::<usize>().prop_map(Flaw::Switch),
    ]
}

/// A recording of the tiny game with these segments, each tick numbered as a replay runs it
/// and its hash left out (so a replay runs every tick a valid recording holds).
fn generated(segments: &[(u8, u8)], flaw: Flaw, fault: bool) -> Recording {
    let project = tiny();
    let mut rec = Recording {
        header: crate::runtime::headless::header(&project, None, 0),
        segments: segments
            .iter()
            .map(|&(level, ticks)| Segment {
                level: ["a", "b"][usize::from(level)].into(),
                switched: false,
                ticks: (1..=u64::from(ticks))
                    .map(|tick| TickRecord {
                        tick,
                        input: TickInput::neutral(),
                        completions: Vec::new(),
                        hash: StateHash::default(),
                        detail: None,
                    })
                    .collect(),
            })
            .collect(),
        fault: None,
        saved: SaveStore::default(),
    };
    let n = rec.segments.len().max(1);
    match flaw {
        Flaw::None => {}
        Flaw::Level(i) => rec.segments[i % n].level = "nowhere".into(),
        Flaw::Switch(i) => rec.segments[i % n].switched = true,
    }
    let last = rec.segments.last().map_or(0, |s| s.ticks.len() as u64);
    if fault {
        rec.fault = Some(RecordedFault {
            tick: last + 1,
            input: TickInput::neutral(),
            completions: Vec::new(),
            message: "\u{1b}[2J".repeat(8),
        });
    }
    rec
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Whatever a recording holds, its replay runs at most one tick per recorded tick (18
    /// bytes of file or more each) and builds at most FREE_SEGMENTS + 1 levels plus one per
    /// TICKS_PER_SEGMENT recorded ticks.
    #[test]
    fn a_replay_works_in_proportion_to_its_recordings_size(
        segments in prop_oneof![1usize..40, 250usize..360]
            .prop_flat_map(|n| proptest::collection::vec(segment(), n)),
        flaw in flaw(),
        fault in prop::bool::weighted(0.2),
    ) {
        let bytes = generated(&segments, flaw, fault).to_bytes();
        let Ok(rec) = Recording::from_bytes(&bytes) else {
            return Ok(());
        };
        let project = tiny();
        if crate::runtime::verify::mismatch(&rec, &project).is_some() {
            return Ok(());
        }
        let mut work = crate::runtime::work::Work::default();
        let _ = crate::runtime::verify::replay_counting(&rec, &project, None, &mut work);
        // One tick per recorded tick (and the fault's), each 18 bytes or more.
        let ticks = rec.total_ticks() as u64;
        prop_assert!(work.ticks <= ticks + 1, "{work:?} for {ticks} ticks");
        prop_assert!(work.ticks <= bytes.len() as u64 / 18 + 1, "{work:?} in {} bytes", bytes.len());
        // The start, a load of the first level, then one build per further segment.
        let builds = FREE_SEGMENTS as u64 + 1 + ticks / TICKS_PER_SEGMENT as u64;
        prop_assert!(work.builds <= builds, "{work:?} for {ticks} ticks");
    }
}

/// A piece of a generated `--frames` file.
#[derive(Clone, Debug)]
enum Op {
    /// Lines of one frame at 60 Hz each, or of a quarter second (the catch-up budget's worth).
    Forward(u8, bool),
    /// Lines each rewinding this many ticks.
    Rewinds(u8, u32),
    Restarts(u8),
    Pause,
    Step,
    Resume,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1u8..=200, any::<bool>()).prop_map(|(n, slow)| Op::Forward(n, slow)),
        3 => (1u8..=200, prop_oneof![1u32..4, 1u32..2000]).prop_map(|(n, t)| Op::Rewinds(n, t)),
        1 => (1u8..=20).prop_map(Op::Restarts),
        1 => Just(Op::Pause),
        1 => Just(Op::Step),
        1 => Just(Op::Resume),
    ]
}

fn frames_text(ops: &[Op]) -> String {
    let mut out = String::from("{\"dt_ms\":0}\n");
    for op in ops {
        let (line, n) = match op {
            Op::Forward(n, slow) => {
                let dt = if *slow { "250" } else { "16.667" };
                (format!("{{\"dt_ms\":{dt}}}\n"), *n)
            }
            Op::Rewinds(n, ticks) => (
                format!("{{\"dt_ms\":16.667,\"signal\":\"rewind\",\"ticks\":{ticks}}}\n"),
                *n,
            ),
            Op::Restarts(n) => ("{\"dt_ms\":16.667,\"signal\":\"restart\"}\n".into(), *n),
            Op::Pause => ("{\"dt_ms\":16.667,\"signal\":\"pause\"}\n".into(), 1),
            Op::Step => ("{\"dt_ms\":16.667,\"signal\":\"step\"}\n".into(), 1),
            Op::Resume => ("{\"dt_ms\":16.667,\"signal\":\"resume\"}\n".into(), 1),
        };
        out.push_str(&line.repeat(usize::from(n)));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Whatever a `--frames` file says, the run simulates at most the catch-up budget of ticks
    /// and one level build per line forward, and its rewinds at most RESIM_PER_TICK times the
    /// ticks run forward plus RESIM_PER_LINE per line (builds counted as TICKS_PER_SEGMENT
    /// ticks), or it stops with an error naming a line.
    #[test]
    fn a_frames_run_works_in_proportion_to_its_files_length(
        ops in proptest::collection::vec(op(), 1..8),
    ) {
        use crate::runtime::work::{RESIM_PER_LINE, RESIM_PER_TICK};
        let project = tiny();
        let text = frames_text(&ops);
        let lines = parse("fuzz.jsonl", &text, Format::Frames, &project.def).unwrap();
        let mut d = crate::runtime::headless::headless_run(&project, 0).unwrap();
        d.start_recording(crate::runtime::headless::header(&project, None, 0), false);
        let run = crate::runtime::headless::run_frames(&mut d, &project, ("fuzz.jsonl", &lines), None);
        if let Err(e) = &run {
            prop_assert!(e.starts_with("fuzz.jsonl:"), "the error names its line: {e}");
        }
        let n = lines.len() as u64;
        let catch_up = u64::from(project.def.tick.max_catch_up_ticks);
        let per_segment = TICKS_PER_SEGMENT as u64;
        let forward = n * catch_up;
        let bound = forward + n * per_segment + RESIM_PER_TICK * forward + RESIM_PER_LINE * n;
        prop_assert!(
            d.work.in_ticks() <= bound,
            "{:?} ({} ticks' worth) for {n} lines, bound {bound}",
            d.work,
            d.work.in_ticks()
        );
    }
}

#[test]
fn rewinding_once_per_line_is_refused_at_a_line_and_the_work_stays_bounded() {
    use crate::runtime::work::{RESIM_PER_LINE, RESIM_PER_TICK};
    // 200 frames forward, then a rewind of one tick per line: re-simulating the whole run
    // each time would be quadratic.
    let project = tiny();
    let text = frames_text(&[
        Op::Forward(200, false),
        Op::Rewinds(200, 1),
        Op::Rewinds(100, 1),
    ]);
    let lines = parse("rewinds.jsonl", &text, Format::Frames, &project.def).unwrap();
    let mut d = crate::runtime::headless::headless_run(&project, 0).unwrap();
    d.start_recording(crate::runtime::headless::header(&project, None, 0), false);
    let e = crate::runtime::headless::run_frames(&mut d, &project, ("rewinds.jsonl", &lines), None)
        .unwrap_err();
    // Line 202 is the first rewind (after the baseline line and 200 frames).
    let line: usize = e
        .strip_prefix("rewinds.jsonl:")
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{e}"));
    assert!((202..=501).contains(&line), "{e}");
    assert!(e.contains("rewind less often, or split the run"), "{e}");
    let n = line as u64;
    let bound = 200 + 16 + RESIM_PER_TICK * 200 + RESIM_PER_LINE * n + 16;
    assert!(d.work.in_ticks() <= bound, "{:?} past {bound}", d.work);
}
