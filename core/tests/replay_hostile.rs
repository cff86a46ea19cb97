//! Hostile recordings: anyone can write a payload and its checksum, so every value is checked
//! before a replay uses it. Crafted recordings (re-encoded with a valid checksum) with values
//! out of range, lists that would decode into gigabytes, and random mutations and bytes: each
//! is refused with a message or decoded, never a panic. Malformed flow fields handed straight
//! to BeginTick (past the decoder) are never installed.

mod support;

use ludus_core::*;
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use support::*;

fn header() -> RecordingHeader {
    RecordingHeader {
        build: "ludus 0.1.0".into(),
        game: "g".into(),
        game_dir: None,
        content_hash: 7,
        tick: TickPolicy::default(),
        ai: AiPolicy::default(),
        seed: 3,
        limits: Limits::default(),
        entities: 0,
    }
}

fn field() -> FlowField {
    FlowField {
        origin: Vec2::new(-320.0, -240.0),
        cell: 32.0,
        cols: 4,
        rows: 3,
        goal: (1, 1),
        dirs: vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2],
    }
}

fn completion(field: FlowField) -> Completion {
    Completion {
        id: RequestId(1),
        world: WorldId(1),
        target: Some(1),
        revision: 1,
        status: JobStatus::Done(JobOutput::FlowField(field)),
    }
}

fn tick(t: u64) -> TickRecord {
    TickRecord {
        tick: t,
        input: TickInput {
            held: 1,
            axes: vec![0.0, 0.5, -1.0],
            ..TickInput::default()
        },
        completions: Vec::new(),
        hash: StateHash::default(),
        detail: None,
    }
}

/// A small valid recording: one segment of five ticks, a flow field applied at tick 3.
fn valid() -> Recording {
    let mut ticks: Vec<TickRecord> = (1..=5).map(tick).collect();
    ticks[2].completions.push(completion(field()));
    Recording {
        header: header(),
        segments: vec![Segment {
            switched: false,
            level: "main".into(),
            ticks,
        }],
        fault: None,
        saved: SaveStore::default(),
    }
}

fn invalid(rec: &Recording) -> String {
    match Recording::from_bytes(&rec.to_bytes()) {
        Err(RecordingError::Invalid(why)) => why,
        other => panic!("expected an invalid-value refusal, got {other:?}"),
    }
}

#[test]
fn a_valid_recording_round_trips() {
    let rec = valid();
    assert_eq!(Recording::from_bytes(&rec.to_bytes()), Ok(rec));
}

#[test]
fn flow_fields_with_empty_or_out_of_range_data_are_refused_with_where_they_are() {
    type Damage = fn(&mut FlowField);
    let cases: [(Damage, &str); 8] = [
        (|f| f.dirs.clear(), "4 x 3 cells with 0 directions"),
        (|f| f.dirs.truncate(5), "with 5 directions"),
        (|f| f.dirs[7] = 9, "direction code 9"),
        (|f| f.dirs[0] = 255, "direction code 255"),
        (|f| f.cols = 0, "0 x 3 cells"),
        (
            |f| {
                f.cols = 100_000;
                f.rows = 100_000
            },
            "100000 x 100000 cells",
        ),
        (|f| f.cell = f32::NAN, "cell size of NaN"),
        (|f| f.goal = (4, 0), "goal cell (4, 0)"),
    ];
    for (damage, expect) in cases {
        let mut rec = valid();
        let JobStatus::Done(JobOutput::FlowField(f)) =
            &mut rec.segments[0].ticks[2].completions[0].status
        else {
            unreachable!()
        };
        damage(f);
        let why = invalid(&rec);
        assert!(why.starts_with("segment 1, tick 3: request 1: "), "{why}");
        assert!(why.contains(expect), "{expect}: {why}");
        let shown = RecordingError::Invalid(why).to_string();
        assert!(shown.len() < 300, "a short message: {shown}");
    }
}

#[test]
fn inputs_names_and_tick_numbers_out_of_range_are_refused() {
    type Damage = fn(&mut Recording);
    let cases: [(Damage, &str); 9] = [
        (
            |r| r.segments[0].ticks[1].input.axes[1] = f32::NAN,
            "axis value NaN for action 1",
        ),
        (
            |r| r.segments[0].ticks[1].input.axes[0] = 1e30,
            "axis value 1e30",
        ),
        (
            |r| r.segments[0].ticks[1].input.axes = vec![0.0; 65],
            "65 axis values",
        ),
        (|r| r.segments[0].ticks[3].tick = 2, "after tick 3"),
        (|r| r.segments[0].ticks[0].tick = 0, "tick 0"),
        (
            |r| r.header.game = "x".repeat(5000),
            "game name is 5000 bytes",
        ),
        (
            |r| r.segments[0].level = "\u{1b}[2J".into(),
            "level name contains control characters",
        ),
        (
            |r| {
                let c = r.segments[0].ticks[2].completions[0].clone();
                r.segments[0].ticks[2].completions = vec![c; 17];
            },
            "17 background results",
        ),
        (
            |r| {
                r.segments[0].ticks[2].completions[0].status = JobStatus::Failed("x".repeat(10_000))
            },
            "a failure message of 10000 bytes",
        ),
    ];
    for (damage, expect) in cases {
        let mut rec = valid();
        damage(&mut rec);
        let why = invalid(&rec);
        assert!(why.contains(expect), "{expect}: {why}");
    }
}

/// The header's postcard bytes followed by `segments` empty segments: two bytes each in the
/// file, far more once decoded.
fn empty_segments(segments: u64) -> Vec<u8> {
    let bare = Recording {
        header: header(),
        segments: Vec::new(),
        fault: None,
        saved: SaveStore::default(),
    };
    let bytes = bare.to_bytes();
    let payload = &bytes[20..bytes.len() - 8];
    // The bare payload ends with the segment count 0, no fault (0) and no saved data (0);
    // replace the count with `segments`.
    let mut crafted = payload[..payload.len() - 3].to_vec();
    let mut n = segments;
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            crafted.push(b);
            break;
        }
        crafted.push(b | 0x80);
    }
    for _ in 0..segments {
        // An empty level name, not switched, no ticks.
        crafted.extend_from_slice(&[0, 0, 0]);
    }
    crafted.extend_from_slice(&[0, 0]);
    frame(&crafted)
}

/// The file format around a payload, with a valid checksum.
fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(payload).to_le_bytes());
    out
}

#[test]
fn lists_that_would_decode_past_the_budget_are_refused_while_filling() {
    let small = empty_segments(FREE_SEGMENTS as u64);
    let rec = Recording::decode_within(&small, 1 << 20).unwrap();
    assert_eq!(rec.segments.len(), FREE_SEGMENTS);
    let big = empty_segments(100_000);
    assert!(big.len() < 400_000);
    match Recording::decode_within(&big, 1 << 20) {
        Err(RecordingError::TooLarge(why)) => {
            assert!(why.contains("more than 1 MiB of memory"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    // Each segment costs a replay a level build: their number is bounded too (see
    // `segments_are_bounded_by_the_ticks_recorded_before_them`).
    match Recording::from_bytes(&empty_segments(100_000)) {
        Err(RecordingError::Invalid(why)) => {
            assert!(
                why.contains(
                    "100000 segments (level activations); segment 257 begins after 0 ticks"
                ),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
    // A count far beyond the bytes present is a clean decoding error.
    let mut lying = empty_segments(3);
    lying[20 + 40..].fill(0xff);
    assert!(Recording::from_bytes(&lying).is_err());
}

/// A recording of `segments` segments of level `main`, the first holding `first` ticks and the
/// last `last` more.
fn segmented(segments: usize, first: u64, last: u64) -> Recording {
    let mut rec = valid();
    let ticks = |n: u64| (1..=n).map(tick).collect::<Vec<_>>();
    rec.segments = (0..segments)
        .map(|i| Segment {
            switched: false,
            level: "main".into(),
            ticks: match i {
                0 => ticks(first),
                i if i + 1 == segments => ticks(last),
                _ => Vec::new(),
            },
        })
        .collect();
    rec
}

#[test]
fn segments_are_bounded_by_the_ticks_recorded_before_them() {
    assert_eq!(
        (FREE_SEGMENTS, TICKS_PER_SEGMENT, MAX_SEGMENTS),
        (256, 16, 10_000)
    );
    // (segments, ticks in the first, ticks in the last, refused with)
    let cases: [(usize, u64, u64, Option<&str>); 9] = [
        (1, 0, 0, None),
        (256, 0, 0, None),
        (
            257,
            0,
            0,
            Some("257 segments (level activations); segment 257 begins after 0 ticks"),
        ),
        (257, 16, 0, None),
        (258, 31, 0, Some("segment 258 begins after 31 ticks")),
        (2000, 16 * 1744, 0, None),
        (
            2000,
            16 * 1744 - 1,
            0,
            Some("segment 2000 begins after 27903 ticks"),
        ),
        // Ticks that come after a segment do not earn it.
        (257, 0, 1000, Some("segment 257 begins after 0 ticks")),
        (
            10_001,
            16 * 10_000,
            0,
            Some("(here 10000), never more than 10000"),
        ),
    ];
    for (segments, first, last, refused) in cases {
        let rec = segmented(segments, first, last);
        let what = format!("{segments} segments, {first} + {last} ticks");
        match (Recording::from_bytes(&rec.to_bytes()), refused) {
            (Ok(r), None) => assert_eq!(r.segments.len(), segments, "{what}"),
            (Err(RecordingError::Invalid(why)), Some(expect)) => {
                assert!(why.contains(expect), "{what}: {why}");
                assert!(
                    why.contains("each costs a replay a level build"),
                    "{what}: {why}"
                );
            }
            (other, _) => panic!("{what}: {other:?}"),
        }
        let most = Recording::most_segments(first);
        assert_eq!(
            refused.is_none(),
            segments <= most || segments == 1,
            "{what}"
        );
    }
    // Bounded by ticks, a segment costs at least 16 recorded ticks of 18 bytes or more.
    let least = TickRecord {
        tick: 1,
        input: TickInput::default(),
        completions: Vec::new(),
        hash: StateHash::default(),
        detail: None,
    };
    let one = valid().to_bytes().len();
    let mut two = valid();
    two.segments[0].ticks.push(TickRecord { tick: 6, ..least });
    assert!(
        two.to_bytes().len() - one >= 18,
        "a tick takes 18 bytes or more"
    );
}

#[test]
fn a_recording_begins_afresh_and_its_fault_message_is_bounded() {
    type Damage = fn(&mut Recording);
    let cases: [(Damage, Option<&str>); 4] = [
        (
            |r| r.segments[0].switched = true,
            Some("segment 1: a recording begins with a level started afresh, not a switch"),
        ),
        (|r| r.fault = Some(recorded_fault("é".repeat(2048))), None),
        (
            |r| r.fault = Some(recorded_fault("x".repeat(4097))),
            Some("the fault at tick 6: a message of 4097 bytes (a fault message has at most 4096)"),
        ),
        (
            |r| r.fault = Some(recorded_fault("x".repeat(10 << 20))),
            Some(
                "the fault at tick 6: a message of 10485760 bytes (a fault message has at most 4096)",
            ),
        ),
    ];
    for (damage, refused) in cases {
        let mut rec = valid();
        damage(&mut rec);
        match (Recording::from_bytes(&rec.to_bytes()), refused) {
            (Ok(r), None) => assert_eq!(r, rec),
            (Err(RecordingError::Invalid(why)), Some(expect)) => assert_eq!(why, expect),
            (other, _) => panic!("{refused:?}: {other:?}"),
        }
    }
}

fn recorded_fault(message: String) -> RecordedFault {
    RecordedFault {
        tick: 6,
        input: TickInput::default(),
        completions: Vec::new(),
        message,
    }
}

#[test]
fn files_past_the_size_limit_are_refused_before_decoding() {
    let mut bytes = valid().to_bytes();
    bytes.resize(MAX_RECORDING_BYTES as usize + 1, 0);
    assert!(matches!(
        Recording::from_bytes(&bytes),
        Err(RecordingError::TooLarge(_))
    ));
}

/// A level with a wall between the enemy and the player, and a navigation grid.
fn nav_def() -> GameDef {
    let mut def = game_def();
    def.levels[0].bounds = Rect::centered(Vec2::new(640.0, 480.0));
    def.levels[0].nav = Some(NavDef {
        cell: 32.0,
        blocking: L_WALL,
        goal: T_PLAYER,
    });
    def.archetypes[1].behaviour.as_mut().unwrap().navigate = true;
    def.archetypes[1].behaviour.as_mut().unwrap().cadence = Some(1);
    place(&mut def, PLAYER, 200.0, 0.0);
    for i in -4..=4 {
        place(&mut def, WALL, 0.0, i as f32 * 32.0);
    }
    place(&mut def, ENEMY, -200.0, 0.0);
    def
}

#[test]
fn malformed_flow_fields_reaching_begin_tick_are_never_installed() {
    let def = Arc::new(nav_def());
    let mut g = Game::new(def.clone(), Box::new(NoConsequences)).unwrap();
    let mut up = TickInput::neutral();
    up.set_axis(ActionId(1), -1.0);
    let mut batches = BTreeMap::new();
    for t in 1..=60u64 {
        g.step(&up).unwrap();
        let batch = g.completions().last_batch().to_vec();
        if !batch.is_empty() {
            batches.insert(t, batch);
        }
    }
    assert!(!batches.is_empty(), "the run computed flow fields");
    type Damage = fn(&mut FlowField);
    let damages: [Damage; 4] = [
        |f| f.dirs.clear(),
        |f| f.dirs.iter_mut().for_each(|d| *d = 200),
        |f| f.cols = u32::MAX,
        |f| f.cell = 0.0,
    ];
    for damage in damages {
        let mut hostile = batches.clone();
        for c in hostile.values_mut().flatten() {
            if let JobStatus::Done(JobOutput::FlowField(f)) = &mut c.status {
                damage(f);
            }
        }
        let mut replay = Game::new(def.clone(), Box::new(NoConsequences)).unwrap();
        replay.set_completions(Completions::replaying(def.limits.jobs, hostile));
        for _ in 1..=60 {
            replay.step(&up).unwrap();
        }
        assert!(replay.completions().stats().failed >= 1);
        assert_eq!(replay.completions().stats().applied, 0);
        assert!(replay.world().nav().field.is_none());
    }
}

fn payload_of(rec: &Recording) -> Vec<u8> {
    let bytes = rec.to_bytes();
    bytes[20..bytes.len() - 8].to_vec()
}

/// One edit of a payload.
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Set(usize, u8),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, b)| Edit::Flip(i, b)),
        (
            any::<usize>(),
            prop_oneof![Just(0u8), Just(0x7f), Just(0x80), Just(0xff), any::<u8>()]
        )
            .prop_map(|(i, b)| Edit::Set(i, b)),
        (
            any::<usize>(),
            proptest::collection::vec(
                prop_oneof![Just(0xffu8), Just(0x80), Just(0), any::<u8>()],
                1..12
            )
        )
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        (any::<usize>(), 1usize..16).prop_map(|(i, n)| Edit::Remove(i, n)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(payload: &mut Vec<u8>, e: &Edit) {
    let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
    match e {
        Edit::Flip(i, b) => {
            let i = at(*i, payload.len());
            if let Some(x) = payload.get_mut(i) {
                *x ^= b;
            }
        }
        Edit::Set(i, b) => {
            let i = at(*i, payload.len());
            if let Some(x) = payload.get_mut(i) {
                *x = *b;
            }
        }
        Edit::Insert(i, bytes) => {
            let i = at(*i, payload.len() + 1);
            payload.splice(i..i, bytes.iter().copied());
        }
        Edit::Remove(i, n) => {
            let i = at(*i, payload.len());
            let end = (i + n).min(payload.len());
            payload.drain(i..end);
        }
        Edit::Truncate(i) => payload.truncate(at(*i, payload.len() + 1)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// Mutated payloads with their checksum fixed reach the decoder and the validator: each is
    /// decoded (and then valid) or refused with a message.
    #[test]
    fn mutated_recordings_with_a_valid_checksum_never_panic(
        edits in proptest::collection::vec(edit(), 1..6)
    ) {
        let mut payload = payload_of(&valid());
        for e in &edits {
            apply(&mut payload, e);
        }
        match Recording::decode_within(&frame(&payload), 64 << 20) {
            Ok(rec) => prop_assert!(rec.validate().is_ok()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// Random payloads behind a valid frame and checksum.
    #[test]
    fn random_payloads_never_panic(payload in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Recording::decode_within(&frame(&payload), 64 << 20);
    }

    /// Random files, with or without the magic bytes in front.
    #[test]
    fn random_files_never_panic(
        magic in any::<bool>(),
        bytes in proptest::collection::vec(any::<u8>(), 0..200)
    ) {
        let mut file = if magic { MAGIC.to_vec() } else { Vec::new() };
        file.extend_from_slice(&bytes);
        let _ = Recording::from_bytes(&file);
    }
}
