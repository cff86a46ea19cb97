//! Frame pacing policy and key-to-action mapping.

use ludus_core::*;

const MS: u64 = 1_000_000;

#[test]
fn pacer_keeps_an_absolute_cadence_and_resets_when_too_late() {
    let policy = PacerPolicy {
        frame_cap_hz: Some(100),
        idle_hz: 20,
        hidden_hz: 5,
        max_lateness_ns: 30 * MS,
    };
    let mut p = FramePacer::new(policy);
    // (now, kind, expected target)
    let rows: &[(u64, FrameKind, Option<u64>)] = &[
        (0, FrameKind::Presented, Some(10 * MS)),
        (10 * MS, FrameKind::Presented, Some(20 * MS)),
        (23 * MS, FrameKind::Presented, Some(30 * MS)), // late by 3 ms: keep cadence
        (45 * MS, FrameKind::Presented, Some(40 * MS)), // late, within bound: no wait, no drift
        (100 * MS, FrameKind::Presented, Some(110 * MS)), // 50 ms late: schedule restarts
        (110 * MS, FrameKind::Idle, Some(160 * MS)),    // kind change restarts at idle rate
        (160 * MS, FrameKind::Idle, Some(210 * MS)),
        (210 * MS, FrameKind::Hidden, Some(410 * MS)),
        (410 * MS, FrameKind::Hidden, Some(610 * MS)),
    ];
    for (i, (now, kind, target)) in rows.iter().enumerate() {
        assert_eq!(p.next_target(*now, *kind), *target, "row {i}");
    }
    assert_eq!(p.lateness_resets(), 1);
    p.reset();
    assert_eq!(
        p.next_target(700 * MS, FrameKind::Hidden),
        Some(900 * MS),
        "reset restarts"
    );
}

#[test]
fn uncapped_presented_frames_do_not_wait() {
    let mut p = FramePacer::new(PacerPolicy::default());
    assert_eq!(p.next_target(5, FrameKind::Presented), None);
    assert!(p.next_target(5, FrameKind::Idle).is_some());
}

#[test]
fn session_paces_hidden_frames_at_the_hidden_rate() {
    let mut s = Session::new(TickPolicy::default(), 1, Mode::Playing).unwrap();
    s.signal(Signal::Hide);
    assert_eq!(
        s.next_frame_target(0, true),
        Some(200 * MS),
        "hidden rate even if presented"
    );
    s.signal(Signal::Show);
    assert_eq!(
        s.next_frame_target(0, false),
        Some(1_000 * MS / 30),
        "idle rate"
    );
}

fn actions() -> ActionSet {
    let mut a = ActionSet::new();
    a.add("fire", ActionKind::Button).unwrap();
    a.add("move_x", ActionKind::Axis).unwrap();
    a
}

fn bindings() -> Vec<KeyBinding> {
    vec![
        KeyBinding {
            key: "space".into(),
            action: ActionId(0),
            scale: 1.0,
        },
        KeyBinding {
            key: "mouse_left".into(),
            action: ActionId(0),
            scale: 1.0,
        },
        KeyBinding {
            key: "a".into(),
            action: ActionId(1),
            scale: -1.0,
        },
        KeyBinding {
            key: "d".into(),
            action: ActionId(1),
            scale: 1.0,
        },
        KeyBinding {
            key: "left".into(),
            action: ActionId(1),
            scale: -1.0,
        },
    ]
}

#[test]
fn action_set_rejects_duplicates_and_overflow() {
    let mut a = actions();
    assert_eq!(
        a.add("fire", ActionKind::Button),
        Err(ActionError::Duplicate("fire".into()))
    );
    assert_eq!(a.add("", ActionKind::Button), Err(ActionError::EmptyName));
    for i in 2..MAX_ACTIONS {
        a.add(&format!("a{i}"), ActionKind::Button).unwrap();
    }
    assert_eq!(
        a.add("one_too_many", ActionKind::Button),
        Err(ActionError::TooMany)
    );
    assert_eq!(a.find("move_x"), Some(ActionId(1)));
}

#[test]
fn several_keys_drive_one_button_and_axes_sum() {
    let mut bridge = InputBridge::new(2);
    let mut keys = KeyMap::new(&actions(), bindings());
    keys.key_down("space", &mut bridge);
    keys.key_down("mouse_left", &mut bridge);
    keys.key_up("space", &mut bridge);
    let i = bridge.take_tick_input();
    assert!(
        i.pressed(ActionId(0)) && i.held(ActionId(0)) && !i.released(ActionId(0)),
        "still held by the mouse"
    );
    keys.key_down("a", &mut bridge);
    keys.key_down("left", &mut bridge);
    assert_eq!(bridge.peek().axis(ActionId(1)), -1.0, "sum clamps to -1");
    keys.key_down("d", &mut bridge);
    assert_eq!(bridge.peek().axis(ActionId(1)), -1.0, "-1 -1 +1");
    keys.key_up("a", &mut bridge);
    assert_eq!(bridge.peek().axis(ActionId(1)), 0.0, "opposite keys cancel");
    keys.key_down("d", &mut bridge); // repeat
    assert_eq!(bridge.peek().axis(ActionId(1)), 0.0, "repeats ignored");
    keys.cancel_all(&mut bridge);
    let i = bridge.take_tick_input();
    assert!(i.cancelled(ActionId(0)) && !i.released(ActionId(0)) && i.axis(ActionId(1)) == 0.0);
}

#[test]
fn keys_down_across_a_rebinding_wait_for_release() {
    let mut bridge = InputBridge::new(2);
    let mut keys = KeyMap::new(&actions(), bindings());
    keys.key_down("space", &mut bridge);
    bridge.take_tick_input();
    keys.replace(
        &actions(),
        vec![KeyBinding {
            key: "space".into(),
            action: ActionId(0),
            scale: 1.0,
        }],
        &mut bridge,
    );
    assert!(
        bridge.peek().cancelled(ActionId(0)),
        "the hold is cancelled"
    );
    keys.key_down("space", &mut bridge);
    assert!(!bridge.peek().held(ActionId(0)), "stale key ignored");
    keys.key_up("space", &mut bridge);
    keys.key_down("space", &mut bridge);
    assert!(
        bridge.peek().pressed(ActionId(0)),
        "after a release it works"
    );
}

/// `fire` bound to `space` and a pad's trigger; `move_x` to `a`/`d` and a stick at half
/// scale, inverted.
fn valued_keys() -> KeyMap {
    let mut b = bindings();
    b.push(KeyBinding {
        key: "pad_rtrigger".into(),
        action: ActionId(0),
        scale: 1.0,
    });
    b.push(KeyBinding {
        key: "pad_lx".into(),
        action: ActionId(1),
        scale: -0.5,
    });
    KeyMap::new(&actions(), b)
}

#[test]
fn a_valued_key_pushes_an_axis_by_scale_times_value_and_holds_a_button_while_off_rest() {
    let mut bridge = InputBridge::new(2);
    let mut keys = valued_keys();
    // (key, value, fire held, fire pressed since the last row, move_x).
    let rows: [(&str, f32, bool, bool, f32); 9] = [
        ("pad_lx", 0.5, false, false, -0.25),
        ("pad_lx", -1.0, false, false, 0.5),
        ("d", 1.0, false, false, 1.0),
        ("pad_lx", 1.0, false, false, 0.5),
        ("pad_lx", f32::NAN, false, false, 1.0),
        ("pad_rtrigger", 0.2, true, true, 1.0),
        ("pad_rtrigger", 0.9, true, false, 1.0),
        ("pad_rtrigger", 0.0, false, false, 1.0),
        ("pad_lx", 3.0, false, false, 0.5),
    ];
    for (i, (key, value, held, pressed, axis)) in rows.into_iter().enumerate() {
        keys.key_value(key, value, &mut bridge);
        let input = bridge.take_tick_input();
        assert_eq!(input.held(ActionId(0)), held, "row {i}: fire held");
        assert_eq!(input.pressed(ActionId(0)), pressed, "row {i}: fire pressed");
        assert_eq!(input.axis(ActionId(1)), axis, "row {i}: move_x");
    }
    assert_eq!(keys.value("pad_lx"), 1.0, "values are clamped to 1");
    assert_eq!(keys.value("pad_rtrigger"), 0.0, "at rest");
    // key_down of a key already off rest is a repeat; key_up puts it at rest.
    keys.key_down("pad_lx", &mut bridge);
    assert_eq!(keys.value("pad_lx"), 1.0, "a repeat changes nothing");
    keys.key_up("pad_lx", &mut bridge);
    assert_eq!(bridge.peek().axis(ActionId(1)), 1.0, "d alone");
}

#[test]
fn a_key_that_is_gone_cancels_what_only_it_held() {
    let mut bridge = InputBridge::new(2);
    let mut keys = valued_keys();
    keys.key_value("pad_rtrigger", 0.7, &mut bridge);
    keys.key_down("space", &mut bridge);
    keys.key_value("pad_lx", -1.0, &mut bridge);
    keys.key_down("d", &mut bridge);
    bridge.take_tick_input();
    // Space still holds fire: the trigger going away changes nothing there.
    keys.cancel_key("pad_rtrigger", &mut bridge);
    keys.cancel_key("pad_lx", &mut bridge);
    let i = bridge.take_tick_input();
    assert!(
        i.held(ActionId(0)) && !i.cancelled(ActionId(0)),
        "space holds fire"
    );
    assert_eq!(
        i.axis(ActionId(1)),
        1.0,
        "the stick's half is gone, d's remains"
    );
    keys.key_value("pad_rtrigger", 0.7, &mut bridge);
    keys.key_up("space", &mut bridge);
    bridge.take_tick_input();
    keys.cancel_key("pad_rtrigger", &mut bridge);
    let i = bridge.take_tick_input();
    assert!(
        i.cancelled(ActionId(0)) && !i.released(ActionId(0)) && !i.held(ActionId(0)),
        "the last key gone cancels: no release"
    );
    keys.cancel_key("pad_rtrigger", &mut bridge);
    assert_eq!(
        bridge.take_tick_input().cancelled,
        0,
        "a key gone twice is gone once"
    );
}
