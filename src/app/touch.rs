//! The on-screen controls over the game (`[[touch.controls]]`), drawn once a touch has been
//! seen and until a key is used: a stick's base with its knob where the finger holds it, a
//! button's disc (brighter while held) with its label. They are laid out as the runner
//! hit-tests them (`runtime/touch.rs`), so a finger lands on what it sees.

use crate::app::text::{self, Atlas};
use crate::app::ui::{Label, Screen, Ui};
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

/// Adds the game's on-screen controls to `ui`, if a touch has been seen.
pub fn controls(play: &PlayState, atlas: &Atlas, screen: &Screen, ui: &mut Ui) {
    let touch = play.touchscreen();
    if !touch.shown() {
        return;
    }
    let at = pad::Screen {
        w: screen.w,
        h: screen.h,
        dpi: screen.dpi,
    };
    for (i, control) in play.def().touch.controls.iter().enumerate() {
        let p = pad::place(control, at);
        let finger = touch.driver(i);
        match &control.kind {
            TouchControlKind::Stick { .. } => stick(p, finger, ui),
            TouchControlKind::Button { label, .. } => {
                let colour = if finger.is_some() { HELD } else { REST };
                ui.discs.push((p.x, p.y, p.radius, colour));
                if let Some(label) = label {
                    button_label(atlas, p, label, ui);
                }
            }
        }
    }
}

/// A stick's base, and its knob moved toward the finger (at most to the base's edge).
fn stick(p: Placed, finger: Option<[f32; 2]>, ui: &mut Ui) {
    ui.discs.push((p.x, p.y, p.radius, REST));
    let knob = p.radius * 0.45;
    let [vx, vy] = finger.map_or([0.0, 0.0], |[x, y]| pad::stick_value(p, x, y));
    let colour = if finger.is_some() { KNOB_HELD } else { KNOB };
    let reach = p.radius - knob * 0.5;
    ui.discs
        .push((p.x + vx * reach, p.y + vy * reach, knob, colour));
}

/// A button's label, centred, its height about the button's radius.
fn button_label(atlas: &Atlas, p: Placed, label: &str, ui: &mut Ui) {
    let face = atlas.body();
    let scale = p.radius / face.line_height.max(1.0);
    let width = face.width(label) * scale;
    ui.labels.push(Label {
        text: label.to_string(),
        x: p.x - width / 2.0,
        y: p.y - face.line_height * scale / 2.0,
        color: LABEL,
        face: text::BODY,
        scale,
    });
}
