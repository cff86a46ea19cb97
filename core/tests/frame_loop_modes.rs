//! The frame loop's modes, frame by frame: pause, single step, hidden time, faults, game over,
//! level switches, turns and loading.
//!
//! Times are injected; nothing here reads a clock.

mod support;

use ludus_core::*;
use support::*;

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
    assert!(
        i.cancelled(FIRE),
        "pause cancelled the hold: {:?}",
        sim.ticks
    );
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
fn a_gathered_step_takes_what_was_pressed_while_paused_and_play_does_not() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    s.signal(Signal::Pause);
    s.frame(17 * MS, &mut sim);
    // Hold jump and tap fire, then step: the step's tick sees both.
    s.input(InputEvent::Press(JUMP));
    s.input(InputEvent::Press(FIRE));
    s.input(InputEvent::Release(FIRE));
    s.signal(Signal::StepGathered);
    let r = s.frame(34 * MS, &mut sim);
    assert_eq!((r.ticks_run, r.tick), (1, 1), "one tick");
    let (_, first) = &sim.ticks[0];
    assert!(
        first.held(JUMP) && first.pressed(JUMP) && first.pressed(FIRE) && !first.held(FIRE),
        "the step sees the hold and the tap: {first:?}"
    );
    // A second step: jump is still held, no longer a fresh press.
    s.signal(Signal::StepGathered);
    s.frame(51 * MS, &mut sim);
    let (_, second) = &sim.ticks[1];
    assert!(
        second.held(JUMP) && !second.pressed(JUMP) && !second.pressed(FIRE),
        "held, not pressed again: {second:?}"
    );
    // A press made while paused and never stepped does not reach play after resuming.
    s.input(InputEvent::Press(FIRE));
    s.signal(Signal::Resume);
    s.frame(68 * MS, &mut sim);
    s.frame(85 * MS, &mut sim);
    assert!(
        sim.ticks[2..]
            .iter()
            .all(|(_, i)| !i.pressed(FIRE) && !i.held(JUMP)),
        "nothing gathered while paused leaks into play: {:?}",
        &sim.ticks[2..]
    );
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

/// A tick that asks to start again (a script's `restart`) ends the chain like a level switch,
/// and the level is loaded afresh at the next frame; a tick that asks to pause pauses after it.
#[test]
fn a_tick_asking_to_restart_or_pause_is_obeyed_at_the_tick_boundary() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    sim.flow.insert(2, Flow::Restart);
    s.frame(0, &mut sim);
    let r = s.frame(100 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.tick, r.loading, r.mode),
        (2, 2, true, Mode::Playing),
        "the chain stops after the tick that asked"
    );
    assert!(sim.loads.is_empty(), "nothing loads inside the ticks");
    let r = s.frame(117 * MS, &mut sim);
    assert!(r.published);
    assert_eq!((r.tick, r.ticks_run), (0, 0));
    assert_eq!(sim.loads, vec![LoadRequest::Restart]);
    sim.flow.insert(1, Flow::Pause);
    let r = s.frame(200 * MS, &mut sim);
    assert_eq!((r.ticks_run, r.tick, r.mode), (1, 1, Mode::Paused));
    let r = s.frame(1_000 * MS, &mut sim);
    assert_eq!(
        (r.ticks_run, r.mode),
        (0, Mode::Paused),
        "no time while paused"
    );
}

/// The game's own pause and restart actions (`[flow]`) are signals: never gameplay input.
#[test]
fn the_games_flow_actions_pause_and_restart_and_never_reach_gameplay() {
    let mut s = session(TickPolicy::default()).with_flow(FlowActions {
        pause: Some(JUMP),
        restart: Some(FIRE),
    });
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    // (input before the frame, ms, mode after, ticks the frame runs)
    let rows: &[(&[InputEvent], u64, Mode, u32)] = &[
        (&[InputEvent::Press(JUMP)], 17, Mode::Paused, 0),
        (&[InputEvent::Release(JUMP)], 34, Mode::Paused, 0),
        (&[InputEvent::Press(JUMP)], 51, Mode::Playing, 0),
        (
            &[InputEvent::Release(JUMP), InputEvent::Press(MOVE_X)],
            68,
            Mode::Playing,
            1,
        ),
    ];
    for (i, (events, ms, mode, ticks)) in rows.iter().enumerate() {
        for e in *events {
            s.input(*e);
        }
        let r = s.frame(ms * MS, &mut sim);
        assert_eq!((r.mode, r.ticks_run), (*mode, *ticks), "row {i}");
    }
    s.input(InputEvent::Press(FIRE));
    let r = s.frame(85 * MS, &mut sim);
    assert!(r.published, "the restart action restarts");
    assert_eq!(sim.loads, vec![LoadRequest::Restart]);
    assert!(
        sim.ticks
            .iter()
            .all(|(_, i)| !i.pressed(JUMP) && !i.pressed(FIRE) && !i.held(JUMP)),
        "no tick saw them"
    );
    assert!(sim.ticks[0].1.pressed(MOVE_X), "other actions play on");
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
