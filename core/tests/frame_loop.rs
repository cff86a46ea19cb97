//! The frame loop's contract, frame by frame: clock, catch-up, tick policies and tick
//! counting at any frame rate.
//!
//! Every table row is one presentation callback. Times are injected; nothing here reads a clock.

mod support;

use ludus_core::*;
use support::*;

/// One row: elapsed since the previous callback, then what the frame must report.
struct Row {
    dt_ns: u64,
    ticks: u32,
    discarded: u64,
    tick: u64,
    /// Carried phase after the frame, in units of 1e-9 tick.
    phase: u64,
}

fn run_table(policy: TickPolicy, rows: &[Row]) {
    let mut s = session(policy);
    let mut sim = Recorder::default();
    let mut now = 1_000 * MS;
    for (i, row) in rows.iter().enumerate() {
        now += row.dt_ns;
        let r = s.frame(now, &mut sim);
        assert_eq!(r.ticks_run, row.ticks, "frame {i}: ticks run");
        assert_eq!(
            r.ticks_discarded, row.discarded,
            "frame {i}: ticks discarded"
        );
        assert_eq!(r.tick, row.tick, "frame {i}: tick index");
        assert_eq!(s.clock().phase(), row.phase, "frame {i}: carried phase");
        let alpha = row.phase as f64 / TICK_PHASE as f64;
        assert!(
            (r.alpha as f64 - alpha).abs() < 1e-6,
            "frame {i}: alpha {} vs {alpha}",
            r.alpha
        );
        assert!((0.0..1.0).contains(&r.alpha), "frame {i}: alpha in [0, 1)");
    }
}

#[test]
fn first_frame_only_sets_the_baseline() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    let r = s.frame(123_456 * MS, &mut sim);
    assert_eq!(
        r.time,
        FrameTime::default(),
        "first callback has no elapsed time"
    );
    assert_eq!(r.ticks_run, 0);
    assert_eq!(r.tick, 0);
    assert!(sim.ticks.is_empty(), "no start-up time is simulated");
}

#[test]
fn hundred_ms_of_debt_at_60hz_is_six_ticks_four_run_two_discarded() {
    run_table(
        TickPolicy::default(),
        &[
            Row {
                dt_ns: 0,
                ticks: 0,
                discarded: 0,
                tick: 0,
                phase: 0,
            },
            Row {
                dt_ns: 100 * MS,
                ticks: 4,
                discarded: 2,
                tick: 4,
                phase: 0,
            },
        ],
    );
}

#[test]
fn steady_60hz_frames_table() {
    // 16_666_667 ns * 60 = 1_000_000_020 phase: one tick plus 20 units carried each frame.
    let f = 16_666_667;
    run_table(
        TickPolicy::default(),
        &[
            Row {
                dt_ns: 0,
                ticks: 0,
                discarded: 0,
                tick: 0,
                phase: 0,
            },
            Row {
                dt_ns: f,
                ticks: 1,
                discarded: 0,
                tick: 1,
                phase: 20,
            },
            Row {
                dt_ns: f,
                ticks: 1,
                discarded: 0,
                tick: 2,
                phase: 40,
            },
            Row {
                dt_ns: f,
                ticks: 1,
                discarded: 0,
                tick: 3,
                phase: 60,
            },
            Row {
                dt_ns: 8 * MS,
                ticks: 0,
                discarded: 0,
                tick: 3,
                phase: 480_000_060,
            },
            Row {
                dt_ns: 9 * MS,
                ticks: 1,
                discarded: 0,
                tick: 4,
                phase: 20_000_060,
            },
            Row {
                dt_ns: 0,
                ticks: 0,
                discarded: 0,
                tick: 4,
                phase: 20_000_060,
            },
        ],
    );
}

#[test]
fn slow_frames_run_several_ticks_within_budget() {
    // 30 fps at 60 Hz: two ticks per frame; 50 ms: three ticks.
    run_table(
        TickPolicy::default(),
        &[
            Row {
                dt_ns: 0,
                ticks: 0,
                discarded: 0,
                tick: 0,
                phase: 0,
            },
            Row {
                dt_ns: 100 * MS / 3,
                ticks: 1,
                discarded: 0,
                tick: 1,
                phase: 999_999_980,
            },
            Row {
                dt_ns: 50 * MS,
                ticks: 3,
                discarded: 0,
                tick: 4,
                phase: 999_999_980,
            },
            Row {
                dt_ns: 40,
                ticks: 1,
                discarded: 0,
                tick: 5,
                phase: 2_380,
            },
        ],
    );
}

#[test]
fn clamp_and_discard_are_reported_separately() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    let r = s.frame(1_000 * MS, &mut sim);
    assert_eq!(r.time.raw_ns, 1_000 * MS, "raw");
    assert_eq!(r.time.accepted_ns, 250 * MS, "accepted is the clamp");
    assert_eq!(r.time.clamped_ns, 750 * MS, "clamped is the rest");
    assert_eq!(r.time.excluded_ns, 0, "nothing excluded");
    assert_eq!(r.ticks_run, 4, "budget");
    assert_eq!(r.ticks_discarded, 11, "250 ms at 60 Hz is 15 ticks, 4 ran");
    assert_eq!(s.stats().clamped_ns, 750 * MS);
    assert_eq!(s.stats().discarded_ticks, 11);
}

#[test]
fn clock_going_backwards_counts_as_zero_elapsed() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(500 * MS, &mut sim);
    let r = s.frame(400 * MS, &mut sim);
    assert_eq!(r.time.raw_ns, 0);
    assert_eq!(r.ticks_run, 0);
    assert_eq!(s.clock().regressions(), 1);
    let r = s.frame(400 * MS + 16_666_667, &mut sim);
    assert_eq!(r.ticks_run, 1, "timing continues from the new timestamp");
}

#[test]
fn policy_rejects_zero_and_overflowing_configurations() {
    let base = TickPolicy::default();
    let cases: &[(TickPolicy, Option<PolicyError>)] = &[
        (base, None),
        (
            TickPolicy { rate_hz: 0, ..base },
            Some(PolicyError::ZeroRate),
        ),
        (
            TickPolicy {
                max_catch_up_ticks: 0,
                ..base
            },
            Some(PolicyError::ZeroCatchUp),
        ),
        (
            TickPolicy {
                max_frame_delta_ns: 0,
                ..base
            },
            Some(PolicyError::ZeroFrameDelta),
        ),
        (
            TickPolicy {
                rate_hz: u32::MAX,
                max_frame_delta_ns: u64::MAX / 1000,
                ..base
            },
            Some(PolicyError::Overflow {
                rate_hz: u32::MAX,
                max_frame_delta_ns: u64::MAX / 1000,
            }),
        ),
        (
            TickPolicy {
                rate_hz: 1,
                max_frame_delta_ns: u64::MAX,
                ..base
            },
            Some(PolicyError::Overflow {
                rate_hz: 1,
                max_frame_delta_ns: u64::MAX,
            }),
        ),
        // The largest clamp that fits with the carried remainder at rate 1.
        (
            TickPolicy {
                rate_hz: 1,
                max_frame_delta_ns: u64::MAX - (TICK_PHASE - 1),
                ..base
            },
            None,
        ),
        (
            TickPolicy {
                rate_hz: 1,
                max_frame_delta_ns: u64::MAX - (TICK_PHASE - 2),
                ..base
            },
            Some(PolicyError::Overflow {
                rate_hz: 1,
                max_frame_delta_ns: u64::MAX - (TICK_PHASE - 2),
            }),
        ),
    ];
    for (i, (policy, expected)) in cases.iter().enumerate() {
        assert_eq!(policy.validate().err(), *expected, "case {i}: {policy:?}");
        assert_eq!(
            FrameClock::new(*policy).err(),
            *expected,
            "case {i}: clock refuses too"
        );
    }
    let msg = PolicyError::ZeroRate.to_string();
    assert!(msg.contains("rate_hz"), "error names the field: {msg}");
    let msg = PolicyError::Overflow {
        rate_hz: 7,
        max_frame_delta_ns: 9,
    }
    .to_string();
    assert!(
        msg.contains("max_frame_delta") && msg.contains("rate_hz"),
        "{msg}"
    );
}

#[test]
fn largest_policy_does_not_overflow_at_run_time() {
    let policy = TickPolicy {
        rate_hz: 1,
        max_frame_delta_ns: u64::MAX - (TICK_PHASE - 1),
        max_catch_up_ticks: 1,
        mode: TickMode::Realtime,
    };
    let mut s = session(policy);
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.frame(TICK_PHASE - 1, &mut sim); // carries the largest remainder
    let r = s.frame(u64::MAX, &mut sim);
    assert_eq!(r.ticks_run, 1);
    assert!(r.ticks_discarded > 0);
}

#[test]
fn tick_index_exhaustion_faults_instead_of_wrapping() {
    let mut s = session(TickPolicy::default()).with_start_tick(u64::MAX - 1);
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    let r = s.frame(100 * MS, &mut sim);
    assert_eq!(r.ticks_run, 1, "the last representable tick runs");
    assert_eq!(r.tick, u64::MAX);
    assert_eq!(r.mode, Mode::Faulted, "then the session stops");
    assert_eq!(s.fault().unwrap().kind, FaultKind::Exhausted);
    assert_eq!(sim.ticks.last().unwrap().0, u64::MAX);
}

#[test]
fn fixed_timestep_is_independent_of_frame_rate() {
    // The same 2 seconds at 30, 60, 144 and 1000 fps runs the same number of ticks.
    for fps in [30u64, 60, 144, 1000] {
        let mut s = session(TickPolicy {
            max_catch_up_ticks: 100,
            ..TickPolicy::default()
        });
        let mut sim = Recorder::default();
        let mut now = 0;
        s.frame(now, &mut sim);
        let frames = 2 * fps;
        for k in 1..=frames {
            let next = k * 2_000 * MS / frames;
            now = next;
            s.frame(now, &mut sim);
        }
        assert_eq!(s.tick(), 120, "{fps} fps");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// However the same accepted time is split into frames, the same number of ticks is
        /// due: run plus discarded plus the carried fraction always adds up.
        #[test]
        fn tick_count_does_not_depend_on_frame_splitting(
            rate in 1u32..1000,
            deltas in proptest::collection::vec(0u64..250_000_000, 1..200),
            budget in 1u32..8,
        ) {
            let policy = TickPolicy { rate_hz: rate, max_frame_delta_ns: 250_000_000, max_catch_up_ticks: budget, mode: TickMode::Realtime };
            let mut unbounded = Session::new(TickPolicy { max_catch_up_ticks: u32::MAX, ..policy }, 1, Mode::Playing).unwrap();
            let mut bounded = Session::new(policy, 1, Mode::Playing).unwrap();
            let mut sim_a = Recorder::default();
            let mut sim_b = Recorder::default();
            let mut now = 0u64;
            unbounded.frame(now, &mut sim_a);
            bounded.frame(now, &mut sim_b);
            let total: u64 = deltas.iter().sum();
            for d in &deltas {
                now += d;
                unbounded.frame(now, &mut sim_a);
                bounded.frame(now, &mut sim_b);
            }
            let expected = (total as u128 * rate as u128 / TICK_PHASE as u128) as u64;
            prop_assert_eq!(unbounded.tick(), expected);
            prop_assert_eq!(unbounded.stats().discarded_ticks, 0);
            prop_assert_eq!(bounded.tick() + bounded.stats().discarded_ticks, expected);
            prop_assert_eq!(unbounded.clock().phase(), (total as u128 * rate as u128 % TICK_PHASE as u128) as u64);
        }

        /// Random callbacks, signals and input never break the report's accounting.
        #[test]
        fn random_frames_keep_accounting_consistent(
            steps in proptest::collection::vec((0u64..2_000_000_000, 0u8..12, 0u8..4), 1..300),
        ) {
            let mut s = Session::new(TickPolicy::default(), 4, Mode::Playing).unwrap();
            let mut sim = Recorder::default();
            let mut now = 0u64;
            for (dt, sig, act) in steps {
                now = now.saturating_add(dt);
                match sig {
                    0 => s.signal(Signal::Pause),
                    1 => s.signal(Signal::Resume),
                    2 => s.signal(Signal::Hide),
                    3 => s.signal(Signal::Show),
                    4 => s.signal(Signal::FocusLost),
                    5 => s.signal(Signal::Step(TickInput::neutral())),
                    6 => s.input(InputEvent::Press(ActionId(act))),
                    7 => s.input(InputEvent::Release(ActionId(act))),
                    _ => {}
                }
                let r = s.frame(now, &mut sim);
                prop_assert_eq!(r.time.raw_ns, r.time.accepted_ns + r.time.clamped_ns + r.time.excluded_ns);
                prop_assert!(r.ticks_run <= 4);
                prop_assert!((0.0..1.0).contains(&r.alpha));
                prop_assert_eq!(r.tick, sim.ticks.len() as u64);
            }
        }
    }
}
