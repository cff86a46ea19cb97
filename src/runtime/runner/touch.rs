//! Touches in the window and the page: what the touch screen's fingers do
//! ([`Touchscreen`](crate::runtime::touch::Touchscreen)), carried out on the session, the key
//! map and the pointer.

use super::Runner;
use crate::runtime::touch::{Phase, Screen, TouchOut};
use ludus_content::Key;
use ludus_core::InputEvent;

impl Runner {
    /// A finger (the platform's number `id` for it) did `phase` at pixel (`x`, `y`) of
    /// `screen`. A finger on an on-screen control drives its actions; any other is one of the
    /// game's touches (`ludus.touches()`, in world units through the camera of the last frame
    /// drawn), the first of which is the pointer and holds `mouse_left` as a mouse's left
    /// button does. While input plays back or a reload re-simulates, touches are ignored, as
    /// the game's keys are.
    pub fn touch(&mut self, phase: Phase, id: u64, x: f32, y: f32, screen: Screen) {
        if self.plays_back() || self.resim_ignores_input() {
            return;
        }
        let mut out = Vec::new();
        let play = &mut self.play;
        (play.touch).event(&play.project.def.touch, screen, (phase, id, x, y), &mut out);
        self.carry_out(out, screen);
    }

    /// Every finger is gone (focus lost): the controls let go as if cancelled and the game's
    /// touches lift.
    pub(super) fn lift_all_touches(&mut self) {
        let mut out = Vec::new();
        let play = &mut self.play;
        play.touch.cancel_all(&play.project.def.touch, &mut out);
        // No pixel is converted: only lifts and cancellations come out.
        self.carry_out(
            out,
            Screen {
                w: 1.0,
                h: 1.0,
                dpi: 1.0,
            },
        );
    }

    fn carry_out(&mut self, out: Vec<TouchOut>, screen: Screen) {
        for o in out {
            let event = match o {
                TouchOut::Press(a) => InputEvent::Press(a),
                TouchOut::Release(a) => InputEvent::Release(a),
                TouchOut::Cancel(a) => InputEvent::Cancel(a),
                TouchOut::Axis(a, v) => InputEvent::Axis(a, v),
                TouchOut::Touch(n, at) => {
                    let world = at.map(|[x, y]| self.play.to_world(x, y, screen.w, screen.h));
                    InputEvent::Touch(n, world)
                }
                TouchOut::MouseLeft(true) => {
                    self.key_down(Key::MouseLeft);
                    continue;
                }
                TouchOut::MouseLeft(false) => {
                    self.key_up(Key::MouseLeft);
                    continue;
                }
            };
            self.play.session.input(event);
        }
    }
}
