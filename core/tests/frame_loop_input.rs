//! The frame loop's input bridge, frame by frame: edges across zero-tick and catch-up frames,
//! cancel, input the UI consumed, focus loss and bindings replacement.
//!
//! Times are injected; nothing here reads a clock.

mod support;

use ludus_core::*;
use support::*;

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
fn touches_reach_ticks_in_the_order_fingers_went_down_and_the_first_is_the_pointer() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    let t = |id, x, y| Touch::new(id, [x, y]);
    // (events before the frame, the tick's touches, its pointer)
    type Row = (Vec<InputEvent>, Vec<Touch>, Option<[f32; 2]>);
    let rows: Vec<Row> = vec![
        (vec![], vec![], None),
        (
            vec![InputEvent::Touch(5, Some([10.0, 20.0]))],
            vec![t(5, 10.0, 20.0)],
            Some([10.0, 20.0]),
        ),
        (
            vec![
                InputEvent::Touch(2, Some([-4.0, 0.5])),
                InputEvent::Touch(5, Some([11.0, 21.0])),
            ],
            vec![t(5, 11.0, 21.0), t(2, -4.0, 0.5)],
            Some([11.0, 21.0]),
        ),
        // The mouse moves the pointer on its own; a touch that moves takes it back.
        (
            vec![InputEvent::Pointer(Some([0.0, 0.0]))],
            vec![t(5, 11.0, 21.0), t(2, -4.0, 0.5)],
            Some([0.0, 0.0]),
        ),
        (
            vec![InputEvent::Touch(5, Some([12.0, 22.0]))],
            vec![t(5, 12.0, 22.0), t(2, -4.0, 0.5)],
            Some([12.0, 22.0]),
        ),
        // The first lifts: the pointer stays until the finger now first moves.
        (
            vec![InputEvent::Touch(5, None)],
            vec![t(2, -4.0, 0.5)],
            Some([12.0, 22.0]),
        ),
        (
            vec![InputEvent::Touch(2, Some([f32::NAN, 1.0]))],
            vec![t(2, -4.0, 0.5)],
            Some([12.0, 22.0]),
        ),
        (
            vec![InputEvent::Touch(2, Some([-5.0, 0.5]))],
            vec![t(2, -5.0, 0.5)],
            Some([-5.0, 0.5]),
        ),
        // Fingers lifting together, in either order, leave the pointer where it was.
        (
            vec![
                InputEvent::Touch(8, Some([9.0, 9.0])),
                InputEvent::Touch(2, None),
                InputEvent::Touch(8, None),
            ],
            vec![],
            Some([-5.0, 0.5]),
        ),
    ];
    for (i, (events, touches, pointer)) in rows.into_iter().enumerate() {
        for e in events {
            s.input(e);
        }
        let r = s.frame((i as u64 + 1) * 16_666_667, &mut sim);
        assert_eq!(r.ticks_run, 1, "row {i}: one tick");
        let input = &sim.ticks.last().unwrap().1;
        assert_eq!(input.touches, touches, "row {i}: touches");
        assert_eq!(input.pointer, pointer, "row {i}: pointer");
    }
    assert_eq!(s.bridge().stats().ignored_touches, 1, "the NaN move");
}

#[test]
fn touches_outlast_resets_and_an_eleventh_finger_is_ignored() {
    let mut s = session(TickPolicy::default());
    let mut sim = Recorder::default();
    s.frame(0, &mut sim);
    for id in 0..12 {
        s.input(InputEvent::Touch(id, Some([id as f32, 0.0])));
    }
    s.signal(Signal::FocusLost);
    s.signal(Signal::FocusGained);
    s.frame(16_666_667, &mut sim);
    let input = &sim.ticks.last().unwrap().1;
    let ids: Vec<u32> = input.touches.iter().map(|t| t.id).collect();
    assert_eq!(
        ids,
        (0..10).collect::<Vec<u32>>(),
        "ten fingers, through a reset"
    );
    assert_eq!(
        s.bridge().stats().ignored_touches,
        2,
        "the eleventh and twelfth"
    );
    assert!(!input.is_neutral(), "touches are input");
}
