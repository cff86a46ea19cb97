//! The frame loop's contract, frame by frame: clock, catch-up, input bridge, modes.
//!
//! Every table row is one presentation callback. Times are injected; nothing here reads a clock.

use ludus_core::*;

const MS: u64 = 1_000_000;

/// A simulation double that records every tick and every load.
#[derive(Default)]
struct Recorder {
    ticks: Vec<(u64, TickInput)>,
    fail_at: Option<u64>,
    loads: Vec<LoadRequest>,
    load_answer: Option<LoadStatus>,
    /// What the tick of that number asks of the session (default: go on).
    flow: std::collections::BTreeMap<u64, Flow>,
}

impl Simulation for Recorder {
    fn tick(&mut self, tick: u64, input: &TickInput) -> Result<Flow, Fault> {
        if self.fail_at == Some(tick) {
            return Err(Fault::new(FaultKind::Script, "boom").at(tick, Phase::Gameplay));
        }
        self.ticks.push((tick, input.clone()));
        Ok(self.flow.remove(&tick).unwrap_or_default())
    }

    fn load(&mut self, request: &LoadRequest) -> LoadStatus {
        self.loads.push(request.clone());
        self.load_answer
            .clone()
            .unwrap_or(LoadStatus::Ready(Mode::Playing))
    }
}

fn session(policy: TickPolicy) -> Session {
    Session::new(policy, 4, Mode::Playing).expect("valid policy")
}

const FIRE: ActionId = ActionId(0);
const JUMP: ActionId = ActionId(1);
const MOVE_X: ActionId = ActionId(2);

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
fn zero_tick_frames_keep_their_edges() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    let r = s.frame(5 * MS, &mut sim);
    assert_eq!(r.ticks_run, 0);
    s.input(InputEvent::Release(FIRE));
    let r = s.frame(10 * MS, &mut sim);
    assert_eq!(r.ticks_run, 0);
    let r = s.frame(17 * MS, &mut sim);
    assert_eq!(r.ticks_run, 1);
    let input = &sim.ticks[0].1;
    assert!(
        input.pressed(FIRE),
        "press from two frames ago is delivered"
    );
    assert!(input.released(FIRE), "release too");
    assert!(!input.held(FIRE), "final value is unheld");
}

#[test]
fn catch_up_ticks_consume_edges_once_and_keep_held_values() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.input(InputEvent::Axis(MOVE_X, 0.5));
    let r = s.frame(50 * MS, &mut sim);
    assert_eq!(r.ticks_run, 3);
    let rows: Vec<(bool, bool, f32)> = sim
        .ticks
        .iter()
        .map(|(_, i)| (i.pressed(FIRE), i.held(FIRE), i.axis(MOVE_X)))
        .collect();
    assert_eq!(
        rows,
        vec![(true, true, 0.5), (false, true, 0.5), (false, true, 0.5)],
        "edge once, held and axis on every tick"
    );
    // Held values persist into later frames without new events.
    s.frame(50 * MS + 16_666_667, &mut sim);
    let last = &sim.ticks.last().unwrap().1;
    assert!(last.held(FIRE) && !last.pressed(FIRE) && last.axis(MOVE_X) == 0.5);
}

#[test]
fn press_and_release_in_one_frame_carry_both_edges() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(JUMP));
    s.input(InputEvent::Release(JUMP));
    s.input(InputEvent::Press(JUMP));
    s.input(InputEvent::Release(JUMP));
    s.frame(17 * MS, &mut sim);
    let i = &sim.ticks[0].1;
    assert_eq!(
        (i.pressed(JUMP), i.released(JUMP), i.held(JUMP)),
        (true, true, false)
    );
}

#[test]
fn cancel_never_fabricates_release() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.frame(17 * MS, &mut sim);
    s.input(InputEvent::Cancel(FIRE));
    s.frame(34 * MS, &mut sim);
    let i = &sim.ticks[1].1;
    assert!(i.cancelled(FIRE), "cancelled edge");
    assert!(!i.released(FIRE), "no release");
    assert!(!i.held(FIRE), "no longer held");
    // A later physical release of a cancelled control produces nothing.
    s.input(InputEvent::Release(FIRE));
    s.frame(51 * MS, &mut sim);
    assert_eq!(sim.ticks[2].1, TickInput::neutral());
}

#[test]
fn ui_consumed_input_never_reaches_gameplay() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.ui_consumed(InputEvent::Press(FIRE));
    s.input(InputEvent::Release(FIRE)); // the release goes to gameplay: it must be ignored
    s.frame(17 * MS, &mut sim);
    assert_eq!(sim.ticks[0].1, TickInput::neutral());
    assert_eq!(s.stats().ui_consumed, 1);
}

#[test]
fn focus_loss_cancels_holds_and_requires_release() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.input(InputEvent::Axis(MOVE_X, -1.0));
    s.frame(17 * MS, &mut sim);
    s.signal(Signal::FocusLost);
    s.input(InputEvent::Press(FIRE)); // a repeat while still down: ignored
    s.frame(34 * MS, &mut sim);
    let i = &sim.ticks[1].1;
    assert!(i.cancelled(FIRE) && !i.held(FIRE) && !i.released(FIRE));
    assert_eq!(i.axis(MOVE_X), 0.0, "axes return to rest");
    s.input(InputEvent::Axis(MOVE_X, -1.0)); // axis still deflected: blocked
    s.frame(51 * MS, &mut sim);
    assert_eq!(
        sim.ticks[2].1,
        TickInput::neutral(),
        "held-through control is not accepted"
    );
    s.input(InputEvent::Release(FIRE));
    s.input(InputEvent::Axis(MOVE_X, 0.0));
    s.frame(68 * MS, &mut sim);
    assert_eq!(
        sim.ticks[3].1,
        TickInput::neutral(),
        "the unblocking release is no edge"
    );
    s.input(InputEvent::Press(FIRE));
    s.input(InputEvent::Axis(MOVE_X, 1.0));
    s.frame(85 * MS, &mut sim);
    let i = &sim.ticks[4].1;
    assert!(
        i.pressed(FIRE) && i.held(FIRE) && i.axis(MOVE_X) == 1.0,
        "accepted after release"
    );
}

#[test]
fn pause_stops_time_and_resume_never_catches_up() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    let rows: &[(u64, Option<Signal>, u32, Mode, u64)] = &[
        // (time ms, signal pumped before the frame, ticks run, mode, excluded ms)
        (0, None, 0, Mode::Playing, 0),
        (17, None, 1, Mode::Playing, 0),
        (40, Some(Signal::Pause), 0, Mode::Paused, 23),
        (1_040, None, 0, Mode::Paused, 1_000),
        (5_040, Some(Signal::Resume), 0, Mode::Playing, 4_000),
        (5_057, None, 1, Mode::Playing, 0),
    ];
    for (i, (t, signal, ticks, mode, excluded)) in rows.iter().enumerate() {
        if let Some(sig) = signal {
            s.signal(sig.clone());
        }
        let r = s.frame(t * MS, &mut sim);
        assert_eq!(r.ticks_run, *ticks, "row {i}: ticks");
        assert_eq!(r.mode, *mode, "row {i}: mode");
        assert_eq!(r.time.excluded_ns, excluded * MS, "row {i}: excluded time");
    }
    assert_eq!(s.tick(), 2, "paused time produced no ticks");
}

#[test]
fn input_during_pause_is_closed_and_held_keys_need_release() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.frame(17 * MS, &mut sim);
    s.signal(Signal::Pause);
    s.input(InputEvent::Press(JUMP)); // pressed during pause
    s.frame(34 * MS, &mut sim);
    s.signal(Signal::Resume);
    s.frame(51 * MS, &mut sim);
    s.frame(68 * MS, &mut sim);
    let i = &sim.ticks[1].1;
    assert!(i.cancelled(FIRE), "pause cancelled the hold");
    assert!(
        !i.held(FIRE) && !i.held(JUMP) && !i.pressed(JUMP),
        "nothing held through the pause"
    );
    s.input(InputEvent::Release(JUMP));
    s.input(InputEvent::Press(JUMP));
    s.frame(85 * MS, &mut sim);
    assert!(
        sim.ticks[2].1.pressed(JUMP),
        "a fresh press after release is accepted"
    );
}

#[test]
fn single_step_runs_exactly_one_tick_with_supplied_input() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.signal(Signal::Pause);
    s.frame(17 * MS, &mut sim);
    let mut stepped = TickInput::neutral();
    stepped.set_held(JUMP, true);
    s.signal(Signal::Step(stepped.clone()));
    let r = s.frame(10_000 * MS, &mut sim);
    assert_eq!((r.ticks_run, r.tick, r.mode), (1, 1, Mode::Paused));
    assert_eq!(sim.ticks, vec![(1, stepped)], "the supplied input, once");
    assert_eq!(r.time.accepted_ns, 0, "a step manufactures no wall time");
    s.signal(Signal::Step(TickInput::neutral()));
    s.frame(10_017 * MS, &mut sim);
    assert_eq!(
        sim.ticks[1],
        (2, TickInput::neutral()),
        "neutral by default"
    );
    let r = s.frame(10_034 * MS, &mut sim);
    assert_eq!(r.ticks_run, 0, "no step requested, no tick");
    s.signal(Signal::Resume);
    s.signal(Signal::Step(TickInput::neutral()));
    assert_eq!(s.stats().ignored_steps, 1, "steps only count while paused");
}

#[test]
fn hidden_time_is_dropped_and_visible_restarts_cleanly() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.signal(Signal::Hide);
    let r = s.frame(17 * MS, &mut sim);
    assert_eq!((r.ticks_run, r.time.excluded_ns), (0, 17 * MS));
    let r = s.frame(3_000 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.time.excluded_ns),
        (0, 2_983 * MS),
        "hidden frames accumulate nothing"
    );
    s.signal(Signal::Show);
    let r = s.frame(9_000 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.time.excluded_ns),
        (0, 6_000 * MS),
        "first visible frame re-baselines"
    );
    let r = s.frame(9_017 * MS, &mut sim);
    assert_eq!(r.ticks_run, 1);
    assert!(sim.ticks[0].1.cancelled(FIRE) && !sim.ticks[0].1.held(FIRE));
    assert!(
        s.next_frame_target(9_017 * MS, true).is_none(),
        "visible frames are swapchain-paced"
    );
}

#[test]
fn a_fault_stops_ticks_until_restart() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder {
        fail_at: Some(3),
        ..Recorder::default()
    };
    s.frame(0, &mut sim);
    let r = s.frame(100 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.tick, r.mode, r.faulted),
        (2, 2, Mode::Faulted, true)
    );
    assert_eq!(r.ticks_discarded, 0, "the fault drops remaining debt");
    assert_eq!(s.fault().unwrap().tick, 3);
    let r = s.frame(1_000 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.mode),
        (0, Mode::Faulted),
        "no ticks while faulted"
    );
    s.signal(Signal::Step(TickInput::neutral()));
    s.frame(1_017 * MS, &mut sim);
    assert_eq!(sim.ticks.len(), 2, "no step while faulted either");
    sim.fail_at = None;
    s.signal(Signal::Restart);
    let r = s.frame(1_034 * MS, &mut sim);
    assert!(r.published);
    assert_eq!(
        (r.mode, r.tick, r.ticks_run),
        (Mode::Playing, 0, 0),
        "new world, baseline only"
    );
    assert!(s.fault().is_none());
    let r = s.frame(1_051 * MS, &mut sim);
    assert_eq!((r.ticks_run, r.tick), (1, 1));
    assert_eq!(sim.loads, vec![LoadRequest::Restart]);
}

#[test]
fn a_game_over_stops_the_ticks_until_a_restart() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    sim.flow.insert(3, Flow::Over);
    s.frame(0, &mut sim);
    let r = s.frame(100 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.tick, r.mode, r.faulted),
        (3, 3, Mode::Over, false),
        "the tick that ended the game completed; none after it"
    );
    for (frame, signal) in [
        (1, None),
        (2, Some(Signal::Step(TickInput::neutral()))),
        (3, Some(Signal::TogglePause)),
    ] {
        if let Some(signal) = signal {
            s.signal(signal);
        }
        let r = s.frame((100 + frame * 500) * MS, &mut sim);
        assert_eq!((r.ticks_run, r.mode), (0, Mode::Over), "frame {frame}");
    }
    assert_eq!(sim.ticks.len(), 3);
    s.signal(Signal::Restart);
    let r = s.frame(2_000 * MS, &mut sim);
    assert!(r.published);
    assert_eq!((r.mode, r.tick), (Mode::Playing, 0));
    let r = s.frame(2_017 * MS, &mut sim);
    assert_eq!((r.ticks_run, r.tick), (1, 1));
    assert_eq!(sim.loads, vec![LoadRequest::Restart]);
}

#[test]
fn a_level_switch_ends_the_tick_chain_and_publishes_at_the_next_frame() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    sim.flow.insert(2, Flow::Switch(1));
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    let r = s.frame(100 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.tick, r.loading, r.published),
        (2, 2, true, false),
        "the chain stops after the tick that asked; four were due"
    );
    assert!(
        sim.loads.is_empty(),
        "nothing loads inside the frame's ticks"
    );
    let r = s.frame(117 * MS, &mut sim);
    assert!(r.published && !r.loading);
    assert_eq!((r.mode, r.tick, r.ticks_run), (Mode::Playing, 0, 0));
    assert_eq!(sim.loads, vec![LoadRequest::Switch(1)]);
    sim.ticks.clear();
    s.frame(134 * MS, &mut sim);
    let (tick, input) = &sim.ticks[0];
    assert_eq!(*tick, 1, "the new world counts from 1");
    assert!(
        input.cancelled(FIRE) && !input.held(FIRE),
        "a button held across the switch must be pressed again"
    );
}

#[test]
fn turns_run_the_first_tick_then_one_tick_per_press() {
    let policy = TickPolicy {
        mode: TickMode::Turns,
        ..TickPolicy::default()
    };
    let mut s = session(policy);
    let mut sim = Recorder::default();
    // (ms since start, input before the frame, ticks the frame runs)
    let rows: &[(u64, &[InputEvent], u32)] = &[
        // The level's first tick runs at once, with no input: the press waits for a turn.
        (0, &[InputEvent::Press(JUMP)], 1),
        (5_000, &[], 1),
        (5_017, &[InputEvent::Release(JUMP)], 0),
        (5_034, &[InputEvent::Press(FIRE)], 1),
        (5_051, &[InputEvent::Release(FIRE)], 0),
        (5_068, &[InputEvent::Axis(MOVE_X, 1.0)], 0),
        (
            9_000,
            &[
                InputEvent::Press(FIRE),
                InputEvent::Release(FIRE),
                InputEvent::Press(JUMP),
            ],
            1,
        ),
        (9_017, &[], 0),
    ];
    for (i, (ms, events, ticks)) in rows.iter().enumerate() {
        for e in *events {
            s.input(*e);
        }
        let r = s.frame(ms * MS, &mut sim);
        assert_eq!(r.ticks_run, *ticks, "row {i}");
        assert_eq!(
            (r.ticks_discarded, r.time.accepted_ns),
            (0, 0),
            "row {i}: no time is debt"
        );
    }
    let inputs: Vec<(u64, bool, bool, bool, bool, f32)> = sim
        .ticks
        .iter()
        .map(|(t, i)| {
            (
                *t,
                i.pressed(FIRE),
                i.released(FIRE),
                i.pressed(JUMP),
                i.released(JUMP),
                i.axis(MOVE_X),
            )
        })
        .collect();
    assert_eq!(
        inputs,
        [
            (1, false, false, false, false, 0.0),
            (2, false, false, true, false, 0.0),
            // The jump's release waited for the next press.
            (3, true, false, false, true, 0.0),
            // So did the fire's release and the axis.
            (4, true, true, true, false, 1.0),
        ]
    );
    // A single step while paused still runs exactly one tick.
    s.signal(Signal::Pause);
    s.signal(Signal::Step(TickInput::neutral()));
    assert_eq!(s.frame(9_034 * MS, &mut sim).ticks_run, 1);
}

#[test]
fn loading_progresses_in_any_mode_and_publishes_at_a_frame_boundary() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder {
        load_answer: Some(LoadStatus::Pending),
        ..Recorder::default()
    };
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.signal(Signal::Load("two".into()));
    let r = s.frame(17 * MS, &mut sim);
    assert!(r.loading);
    assert_eq!(
        (r.ticks_run, r.mode),
        (1, Mode::Playing),
        "the old world keeps playing"
    );
    sim.load_answer = Some(LoadStatus::Ready(Mode::Paused));
    s.input(InputEvent::Release(FIRE));
    s.input(InputEvent::Press(JUMP));
    let r = s.frame(34 * MS, &mut sim);
    assert!(r.published && !r.loading);
    assert_eq!(
        (r.mode, r.tick, r.ticks_run),
        (Mode::Paused, 0, 0),
        "entry mode selected"
    );
    assert_eq!(
        r.time.excluded_ns,
        17 * MS,
        "activation resets the baseline"
    );
    assert_eq!(sim.loads.len(), 2);
    s.signal(Signal::Resume);
    s.frame(51 * MS, &mut sim);
    s.frame(68 * MS, &mut sim);
    let i = &sim.ticks.last().unwrap().1;
    assert!(
        !i.pressed(JUMP) && !i.released(FIRE),
        "activation dropped old-world edges"
    );
}

#[test]
fn failed_load_enters_fault() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder {
        load_answer: Some(LoadStatus::Failed(Fault::new(
            FaultKind::Load,
            "no such level",
        ))),
        ..Recorder::default()
    };
    s.signal(Signal::Load("nope".into()));
    let r = s.frame(0, &mut sim);
    assert_eq!(r.mode, Mode::Faulted);
    assert!(!r.loading);
    assert_eq!(s.fault().unwrap().message, "no such level");
}

#[test]
fn mode_changes_run_no_gameplay() {
    let mut s = session(TickPolicy::default());
    for sig in [
        Signal::Pause,
        Signal::TogglePause,
        Signal::TogglePause,
        Signal::Resume,
        Signal::Hide,
        Signal::Show,
        Signal::FocusLost,
        Signal::FocusGained,
    ] {
        s.signal(sig);
    }
    s.bindings_replaced();
    assert_eq!(s.tick(), 0);
    assert_eq!(s.stats().ticks, 0);
}

#[test]
fn bindings_replacement_cancels_and_blocks() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.input(InputEvent::Press(FIRE));
    s.bindings_replaced();
    s.frame(17 * MS, &mut sim);
    let i = &sim.ticks[0].1;
    assert!(!i.pressed(FIRE) && !i.held(FIRE), "pending press dropped");
    assert!(i.cancelled(FIRE));
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
