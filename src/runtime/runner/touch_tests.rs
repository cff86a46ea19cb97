//! A touch screen through the runner, on the swarm and its on-screen controls: what each
//! finger does reaches the ticks, as recorded in the window's history.

use super::*;
use crate::runtime::touch::{Phase, Screen};
use std::cell::Cell;
use std::path::Path;

thread_local! {
    static NOW: Cell<u64> = const { Cell::new(1) };
}

fn clock() -> u64 {
    NOW.get()
}

const SCREEN: Screen = Screen {
    w: 1280.0,
    h: 800.0,
    dpi: 1.0,
};

fn swarm() -> Runner {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/swarm");
    Runner::new(Project::from_folder(&dir).unwrap(), 0, clock).unwrap()
}

/// One frame of 60 Hz after `fingers` (phase, finger, x, y); the tick's recorded input.
fn frame(runner: &mut Runner, fingers: &[(Phase, u64, f32, f32)]) -> TickInput {
    for &(phase, id, x, y) in fingers {
        runner.touch(phase, id, x, y, SCREEN);
    }
    let now = NOW.get() + 16_666_667;
    NOW.set(now);
    let report = runner.frame(now, 1.0 / 60.0);
    assert_eq!(report.ticks_run, 1, "one tick a frame");
    let rec = runner.play.timed.history.recording().expect("a history");
    let ticks = &rec.segments.last().expect("a segment").ticks;
    ticks.last().expect("a tick").input.clone()
}

#[test]
fn fingers_drive_the_swarms_stick_and_button_and_elsewhere_are_its_touches() {
    let mut r = swarm();
    let def = r.def().clone();
    let (move_x, move_y, fire) = (
        def.actions.find("move_x").unwrap(),
        def.actions.find("move_y").unwrap(),
        def.actions.find("fire").unwrap(),
    );
    // The stick sits at (92, 708) with radius 64, the button at (1212, 732).
    NOW.set(1);
    r.frame(1, 0.0);
    assert!(
        !r.play().touchscreen().shown(),
        "no controls before a touch"
    );
    let input = frame(&mut r, &[(Phase::Down, 900, 92.0 + 32.0, 708.0 - 32.0)]);
    assert!(r.play().touchscreen().shown(), "a touch shows them");
    assert_eq!(
        (
            input.axis(move_x),
            input.axis(move_y),
            &input.touches,
            input.pointer
        ),
        (0.5, -0.5, &vec![], None),
        "a finger on the stick steers, and is no touch of the game's"
    );
    let input = frame(&mut r, &[(Phase::Move, 900, 92.0 + 300.0, 708.0 - 400.0)]);
    assert_eq!(
        (input.axis(move_x), input.axis(move_y)),
        (0.6, -0.8),
        "slid off the stick, it still steers, clamped to the unit circle"
    );
    let input = frame(&mut r, &[(Phase::Down, 901, 1212.0, 732.0)]);
    assert!(
        input.pressed(fire) && input.held(fire),
        "the button presses fire"
    );
    let input = frame(
        &mut r,
        &[(Phase::Up, 901, 1212.0, 732.0), (Phase::Up, 900, 0.0, 0.0)],
    );
    assert_eq!(
        (
            input.released(fire),
            input.held(fire),
            input.axis(move_x),
            input.axis(move_y)
        ),
        (true, false, 0.0, 0.0),
        "lifting lets go of both"
    );
    // A finger on the game: one of its touches, the pointer, and `mouse_left` (fire).
    let centre = r.play().to_world(640.0, 400.0, SCREEN.w, SCREEN.h);
    let input = frame(&mut r, &[(Phase::Down, 5, 640.0, 400.0)]);
    assert_eq!(
        input.touches,
        vec![Touch::new(1, centre)],
        "the game's touch 1"
    );
    assert_eq!(
        input.pointer,
        Some(centre),
        "the first touch is the pointer"
    );
    assert!(
        input.pressed(fire),
        "the first touch presses mouse_left, which fires"
    );
    let input = frame(&mut r, &[(Phase::Up, 5, 640.0, 400.0)]);
    assert_eq!(
        (input.touches.len(), input.released(fire), input.pointer),
        (0, true, Some(centre)),
        "lifted: no touch, fire released, the pointer where it was"
    );
    r.key_down(Key::Space);
    assert!(!r.play().touchscreen().shown(), "a key hides the controls");
    r.key_up(Key::Space);
}

#[test]
fn focus_loss_lets_go_of_every_finger() {
    let mut r = swarm();
    let def = r.def().clone();
    let (move_x, fire) = (
        def.actions.find("move_x").unwrap(),
        def.actions.find("fire").unwrap(),
    );
    NOW.set(1);
    r.frame(1, 0.0);
    let input = frame(
        &mut r,
        &[
            (Phase::Down, 1, 92.0 - 64.0, 708.0),
            (Phase::Down, 2, 1212.0, 732.0),
            (Phase::Down, 3, 600.0, 300.0),
        ],
    );
    assert_eq!(
        (input.axis(move_x), input.held(fire), input.touches.len()),
        (-1.0, true, 1)
    );
    r.focus_lost();
    let input = frame(&mut r, &[(Phase::Move, 3, 610.0, 300.0)]);
    assert_eq!(
        (
            input.axis(move_x),
            input.held(fire),
            input.released(fire),
            input.touches.len()
        ),
        (0.0, false, false, 0),
        "let go, not released (the focus loss drops the edges, as for keys); a lifted \
         finger's moves are ignored"
    );
}
