//! The on-screen controls over the game (`[[touch.controls]]`), drawn once a touch has been
//! seen and until a key is used: a stick's base with its knob where the finger holds it, a
//! button's disc (brighter while held) with its label. They are laid out as the runner
//! hit-tests them (`runtime/touch.rs`), so a finger lands on what it sees.

use crate::app::text::Atlas;
use crate::runtime::PlayState;
use crate::runtime::touch::{self as pad, Placed};
use ludus_core::{Color, TouchControlKind};

/// A control at rest and while a finger holds it.
const REST: Color = Color::rgba(255, 255, 255, 56);
const HELD: Color = Color::rgba(255, 255, 255, 120);
/// A stick's knob, at rest and held.
const KNOB: Color = Color::rgba(255, 255, 255, 110);
const KNOB_HELD: Color = Color::rgba(255, 255, 255, 190);
/// A button's label.
const LABEL: Color = Color::rgba(255, 255, 255, 230);

/// What the controls draw, in screen pixels: discs (centre x, y, radius, colour), then labels
/// (text, top-left x, y, scale of the body face, colour) over them.
#[derive(Default)]
pub struct Controls {
    pub discs: Vec<(f32, f32, f32, Color)>,
    pub labels: Vec<(String, f32, f32, f32, Color)>,
}

/// The game's on-screen controls on a `w` x `h` window of pixel ratio `dpi`, if a touch has
/// been seen.
pub fn controls(play: &PlayState, atlas: &Atlas, (w, h, dpi): (f32, f32, f32)) -> Controls {
    let mut out = Controls::default();
    let touch = play.touchscreen();
    if !touch.shown() {
        return out;
    }
    let at = pad::Screen { w, h, dpi };
    for (i, control) in play.def().touch.controls.iter().enumerate() {
        let p = pad::place(control, at);
        let finger = touch.driver(i);
        match &control.kind {
            TouchControlKind::Stick { .. } => stick(p, finger, &mut out),
            TouchControlKind::Button { label, .. } => {
                let colour = if finger.is_some() { HELD } else { REST };
                out.discs.push((p.x, p.y, p.radius, colour));
                if let Some(label) = label {
                    button_label(atlas, p, label, &mut out);
                }
            }
        }
    }
    out
}

/// A stick's base, and its knob moved toward the finger (at most to the base's edge).
fn stick(p: Placed, finger: Option<[f32; 2]>, out: &mut Controls) {
    out.discs.push((p.x, p.y, p.radius, REST));
    let knob = p.radius * 0.45;
    let [vx, vy] = finger.map_or([0.0, 0.0], |[x, y]| pad::stick_value(p, x, y));
    let colour = if finger.is_some() { KNOB_HELD } else { KNOB };
    let reach = p.radius - knob * 0.5;
    out.discs
        .push((p.x + vx * reach, p.y + vy * reach, knob, colour));
}

/// A button's label, centred, its height about the button's radius.
fn button_label(atlas: &Atlas, p: Placed, label: &str, out: &mut Controls) {
    let face = atlas.body();
    let scale = p.radius / face.line_height.max(1.0);
    let width = face.width(label) * scale;
    let (x, y) = (p.x - width / 2.0, p.y - face.line_height * scale / 2.0);
    out.labels.push((label.to_string(), x, y, scale, LABEL));
}
