//! The on-screen controls in a real window under Xvfb: none are drawn until a touch has been
//! seen (here a `--script` line's `touches`), then the stick's base and knob and the button
//! are, over a black level, in the colours they are drawn in.

mod support;

use support::{count, scratch, window_frame, xvfb_available};

const GAME: &str = r##"name = "Touch"

[window]
help = false

[input.actions.move_x]
kind = "axis"
keys = { a = -1, d = 1 }

[input.actions.move_y]
kind = "axis"
keys = { w = -1, s = 1 }

[input.actions.fire]
kind = "button"
keys = ["space"]

[[touch.controls]]
kind = "stick"
x_action = "move_x"
y_action = "move_y"
at = "bottom_left"

[[touch.controls]]
kind = "button"
action = "fire"
at = "bottom_right"

[levels.one]
background = "#000000"
"##;

/// White at alpha 56 over black: a control at rest.
const REST: [u8; 3] = [56, 56, 56];
/// A stick's knob (white at alpha 110) over its base.
const KNOB: [u8; 3] = [142, 142, 142];

/// The pixels of a control at rest and of the knob in a window run of `script`.
fn controls(name: &str, script: &str) -> (usize, usize) {
    let dir = scratch("touch", name);
    let game = dir.join("game");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.toml"), GAME).unwrap();
    let frame = window_frame(&game, &dir, script, None);
    (count(&frame.px, REST, 3), count(&frame.px, KNOB, 3))
}

#[test]
fn the_controls_are_drawn_once_a_touch_has_been_seen() {
    if !xvfb_available() {
        return;
    }
    let quiet = "{}\n".repeat(20);
    let (rest, knob) = controls("quiet", &quiet);
    assert_eq!((rest, knob), (0, 0), "no touch, no controls");
    let touched = format!(
        "{{}}\n{{\"touches\":[{{\"id\":1,\"x\":0,\"y\":0}}]}}\n{{\"touches\":[]}}\n{}",
        "{}\n".repeat(17)
    );
    let (rest, knob) = controls("touched", &touched);
    // The stick's base (radius 64) less its knob (radius 29), and the button (radius 40):
    // 15250 pixels, less the edge of each disc, which fades over its outer eighth.
    assert!(
        (10_000..15_300).contains(&rest),
        "the base and the button: {rest} pixels"
    );
    assert!((1_800..2_700).contains(&knob), "the knob: {knob} pixels");
}
