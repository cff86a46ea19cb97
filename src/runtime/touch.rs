//! A touch screen: the platform's fingers, in pixels, become the on-screen controls' actions
//! (`[[touch.controls]]`) or the game's touches, and the first of those the pointer and
//! `mouse_left`. Platform-independent: the window and the page report touches the same way,
//! and a [`Touchscreen`] returns what they do ([`TouchOut`]) for the runner to carry out.

use ludus_core::{ActionId, Anchor, MAX_TOUCHES, TouchControl, TouchControlKind, TouchDef};

/// What the platform says a finger did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Down,
    Move,
    Up,
    /// The platform took the finger away (a gesture of the system's): not a release.
    Cancel,
}

/// The window's size and pixel ratio, in the pixels touches are reported in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screen {
    pub w: f32,
    pub h: f32,
    pub dpi: f32,
}

/// A control's circle on a screen, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
}

/// A stick's radius, in pixels at a pixel ratio of 1.
const STICK_RADIUS: f32 = 64.0;
/// A button's radius, likewise.
const BUTTON_RADIUS: f32 = 40.0;
/// The room between a control and the window's edge, likewise.
const MARGIN: f32 = 28.0;
/// A finger counts as on a control within this many of its radii of its centre (a thumb
/// misses by a little).
const REACH: f32 = 1.3;
/// A control never takes more than this share of the window's shorter side across.
const MOST_OF_SIDE: f32 = 0.4;

/// Where `control` sits on `screen`: inset from the edge or corner it names.
pub fn place(control: &TouchControl, screen: Screen) -> Placed {
    let base = match control.kind {
        TouchControlKind::Stick { .. } => STICK_RADIUS,
        TouchControlKind::Button { .. } => BUTTON_RADIUS,
    };
    let dpi = screen.dpi.max(0.1);
    let radius = (base * dpi).min(screen.w.min(screen.h) * MOST_OF_SIDE / 2.0);
    let inset = MARGIN * dpi + radius;
    let (col, row) = match control.at {
        Anchor::TopLeft => (0, 0),
        Anchor::Top => (1, 0),
        Anchor::TopRight => (2, 0),
        Anchor::Left => (0, 1),
        Anchor::Center => (1, 1),
        Anchor::Right => (2, 1),
        Anchor::BottomLeft => (0, 2),
        Anchor::Bottom => (1, 2),
        Anchor::BottomRight => (2, 2),
    };
    let along = |i: u8, len: f32| match i {
        0 => inset,
        1 => len / 2.0,
        _ => len - inset,
    };
    Placed {
        x: along(col, screen.w),
        y: along(row, screen.h),
        radius,
    }
}

/// The control a finger at (`x`, `y`) goes down on, if any (the first declared of those it
/// reaches).
pub fn hit(def: &TouchDef, screen: Screen, x: f32, y: f32) -> Option<usize> {
    def.controls.iter().position(|c| {
        let p = place(c, screen);
        (x - p.x).hypot(y - p.y) <= p.radius * REACH
    })
}

/// A stick's value for a finger at (`x`, `y`): the offset from its centre over its radius,
/// clamped to the unit circle (x rightwards, y downwards).
pub fn stick_value(p: Placed, x: f32, y: f32) -> [f32; 2] {
    let (dx, dy) = ((x - p.x) / p.radius, (y - p.y) / p.radius);
    let len = dx.hypot(dy);
    if !len.is_finite() {
        return [0.0, 0.0];
    }
    if len > 1.0 {
        [dx / len, dy / len]
    } else {
        [dx, dy]
    }
}

/// What a finger did, for the runner to carry out in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TouchOut {
    /// A button control's action went down, up, or was cancelled.
    Press(ActionId),
    Release(ActionId),
    Cancel(ActionId),
    /// A stick's axis action took this value.
    Axis(ActionId, f32),
    /// The game's touch `id` went down or moved to these pixels, or lifted (`None`).
    Touch(u32, Option<[f32; 2]>),
    /// The first of the game's fingers went down (true), or the last lifted (false): what a
    /// mouse's left button does.
    MouseLeft(bool),
}

/// Who a finger drives.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Owner {
    /// A control, by index, with where the finger is.
    Control(usize, [f32; 2]),
    /// One of the game's touches, by its id.
    Game(u32),
}

/// The fingers down on a touch screen and what each drives.
///
/// Invariants:
/// - A finger drives what it went down on until it lifts: a control it went down on (a
///   finger that then slides off a stick still steers it), or else one of the game's
///   touches. A control is driven by one finger at a time; another finger going down on it
///   is ignored until it lifts.
/// - The game's touches are numbered from 1, each the lowest number free when it went down,
///   whatever the platform calls the finger; at most [`MAX_TOUCHES`] are down, and a finger
///   past them is ignored until it lifts. So at most `MAX_TOUCHES` plus one per control
///   fingers are ever tracked.
/// - `seen` is set by the first finger down and cleared by [`Touchscreen::hide`] (a key or a
///   pad button used): the controls are drawn while it is set. It changes nothing a tick
///   sees.
#[derive(Clone, Debug, Default)]
pub struct Touchscreen {
    fingers: Vec<(u64, Owner)>,
    seen: bool,
}

impl Touchscreen {
    /// A finger (`id`, the platform's number for it) did `phase` at pixel (`x`, `y`); what it
    /// does is appended to `out`.
    pub fn event(
        &mut self,
        def: &TouchDef,
        screen: Screen,
        (phase, id, x, y): (Phase, u64, f32, f32),
        out: &mut Vec<TouchOut>,
    ) {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        let known = self.fingers.iter().position(|(f, _)| *f == id);
        match (phase, known) {
            (Phase::Down, None) => self.down(def, screen, id, [x, y], out),
            (Phase::Down | Phase::Move, Some(i)) => self.moved(def, screen, i, [x, y], out),
            (Phase::Up | Phase::Cancel, Some(i)) => {
                let (_, owner) = self.fingers.remove(i);
                self.lifted(def, owner, phase == Phase::Cancel, out);
            }
            (Phase::Move | Phase::Up | Phase::Cancel, None) => {}
        }
    }

    fn down(
        &mut self,
        def: &TouchDef,
        screen: Screen,
        id: u64,
        at: [f32; 2],
        out: &mut Vec<TouchOut>,
    ) {
        self.seen = true;
        if let Some(c) = hit(def, screen, at[0], at[1]) {
            if self.driver(c).is_none() {
                self.fingers.push((id, Owner::Control(c, at)));
                match &def.controls[c].kind {
                    TouchControlKind::Button { action, .. } => out.push(TouchOut::Press(*action)),
                    TouchControlKind::Stick { .. } => self.steer(def, screen, c, at, out),
                }
            }
            return;
        }
        let game = self.game_ids();
        if game.len() >= MAX_TOUCHES {
            return;
        }
        let n = (1..).find(|n| !game.contains(n)).unwrap_or(1);
        self.fingers.push((id, Owner::Game(n)));
        out.push(TouchOut::Touch(n, Some(at)));
        if game.is_empty() {
            out.push(TouchOut::MouseLeft(true));
        }
    }

    fn moved(
        &mut self,
        def: &TouchDef,
        screen: Screen,
        i: usize,
        at: [f32; 2],
        out: &mut Vec<TouchOut>,
    ) {
        match self.fingers[i].1 {
            Owner::Control(c, _) => {
                self.fingers[i].1 = Owner::Control(c, at);
                if matches!(
                    def.controls.get(c).map(|k| &k.kind),
                    Some(TouchControlKind::Stick { .. })
                ) {
                    self.steer(def, screen, c, at, out);
                }
            }
            Owner::Game(n) => out.push(TouchOut::Touch(n, Some(at))),
        }
    }

    fn lifted(&mut self, def: &TouchDef, owner: Owner, cancelled: bool, out: &mut Vec<TouchOut>) {
        match owner {
            Owner::Control(c, _) => match def.controls.get(c).map(|k| &k.kind) {
                Some(TouchControlKind::Button { action, .. }) if cancelled => {
                    out.push(TouchOut::Cancel(*action))
                }
                Some(TouchControlKind::Button { action, .. }) => {
                    out.push(TouchOut::Release(*action))
                }
                Some(TouchControlKind::Stick { x, y }) => {
                    out.extend(x.iter().chain(y).map(|a| TouchOut::Axis(*a, 0.0)));
                }
                None => {}
            },
            Owner::Game(n) => {
                out.push(TouchOut::Touch(n, None));
                if self.game_ids().is_empty() {
                    out.push(TouchOut::MouseLeft(false));
                }
            }
        }
    }

    /// Stick `c`'s axes for a finger at `at`.
    fn steer(
        &self,
        def: &TouchDef,
        screen: Screen,
        c: usize,
        at: [f32; 2],
        out: &mut Vec<TouchOut>,
    ) {
        let Some(control) = def.controls.get(c) else {
            return;
        };
        if let TouchControlKind::Stick { x, y } = control.kind {
            let [vx, vy] = stick_value(place(control, screen), at[0], at[1]);
            out.extend(x.map(|a| TouchOut::Axis(a, vx)));
            out.extend(y.map(|a| TouchOut::Axis(a, vy)));
        }
    }

    /// Every finger is gone (focus lost): controls let go as if cancelled, the game's
    /// touches lift. `mouse_left` is left to the key map, which cancels every key.
    pub fn cancel_all(&mut self, def: &TouchDef, out: &mut Vec<TouchOut>) {
        let mut all = Vec::new();
        for (_, owner) in std::mem::take(&mut self.fingers) {
            self.lifted(def, owner, true, &mut all);
        }
        out.extend(all.into_iter().filter(|o| *o != TouchOut::MouseLeft(false)));
    }

    /// The ids of the game's touches down.
    fn game_ids(&self) -> Vec<u32> {
        (self.fingers.iter())
            .filter_map(|(_, o)| match o {
                Owner::Game(n) => Some(*n),
                Owner::Control(..) => None,
            })
            .collect()
    }

    /// Where the finger driving control `c` is, if one is.
    pub fn driver(&self, c: usize) -> Option<[f32; 2]> {
        self.fingers.iter().find_map(|(_, o)| match o {
            Owner::Control(i, at) if *i == c => Some(*at),
            _ => None,
        })
    }

    /// Whether the controls are drawn: a touch was seen since the last key or pad button.
    pub fn shown(&self) -> bool {
        self.seen
    }

    /// A touch was seen without a finger (a `--script` line's `touches`): the controls show.
    pub fn show(&mut self) {
        self.seen = true;
    }

    /// A key or a pad button was used: the controls hide until the next touch.
    pub fn hide(&mut self) {
        self.seen = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TouchOut::*;

    const MOVE_X: ActionId = ActionId(0);
    const MOVE_Y: ActionId = ActionId(1);
    const FIRE: ActionId = ActionId(2);
    const SCREEN: Screen = Screen {
        w: 1000.0,
        h: 600.0,
        dpi: 1.0,
    };

    fn stick(at: Anchor) -> TouchControl {
        TouchControl {
            at,
            kind: TouchControlKind::Stick {
                x: Some(MOVE_X),
                y: Some(MOVE_Y),
            },
        }
    }

    fn button(at: Anchor) -> TouchControl {
        TouchControl {
            at,
            kind: TouchControlKind::Button {
                action: FIRE,
                label: Some("A".into()),
            },
        }
    }

    fn def() -> TouchDef {
        TouchDef {
            controls: vec![stick(Anchor::BottomLeft), button(Anchor::BottomRight)],
        }
    }

    #[test]
    fn controls_sit_inset_from_their_anchor_and_scale_with_the_pixel_ratio() {
        let hidpi = Screen { dpi: 2.0, ..SCREEN };
        let small = Screen {
            w: 300.0,
            h: 200.0,
            dpi: 1.0,
        };
        // (control, screen, centre x, centre y, radius)
        let cases = [
            (stick(Anchor::BottomLeft), SCREEN, 92.0, 508.0, 64.0),
            (button(Anchor::BottomRight), SCREEN, 932.0, 532.0, 40.0),
            (button(Anchor::Top), SCREEN, 500.0, 68.0, 40.0),
            (stick(Anchor::Center), SCREEN, 500.0, 300.0, 64.0),
            (button(Anchor::Right), SCREEN, 932.0, 300.0, 40.0),
            // Twice the pixels, but never more than a fifth of the shorter side as radius.
            (button(Anchor::BottomRight), hidpi, 864.0, 464.0, 80.0),
            (stick(Anchor::TopLeft), hidpi, 176.0, 176.0, 120.0),
            (stick(Anchor::BottomLeft), small, 68.0, 132.0, 40.0),
        ];
        for (i, (control, screen, x, y, radius)) in cases.into_iter().enumerate() {
            assert_eq!(place(&control, screen), Placed { x, y, radius }, "case {i}");
        }
    }

    #[test]
    fn a_finger_hits_the_control_it_reaches_within_a_little_more_than_its_radius() {
        // (x, y, control hit); the stick is at (92, 508) r 64, the button at (932, 532) r 40.
        let cases = [
            (92.0, 508.0, Some(0)),
            (92.0 + 64.0 * 1.29, 508.0, Some(0)),
            (92.0 + 64.0 * 1.31, 508.0, None),
            (92.0, 508.0 - 83.0, Some(0)),
            (932.0, 532.0 + 51.0, Some(1)),
            (932.0 - 53.0, 532.0, None),
            (500.0, 300.0, None),
            (f32::NAN, 300.0, None),
        ];
        for (x, y, want) in cases {
            assert_eq!(hit(&def(), SCREEN, x, y), want, "({x}, {y})");
        }
        let empty = TouchDef::default();
        assert_eq!(hit(&empty, SCREEN, 92.0, 508.0), None, "no controls");
    }

    #[test]
    fn a_stick_reads_the_offset_over_its_radius_clamped_to_the_unit_circle() {
        let p = Placed {
            x: 100.0,
            y: 200.0,
            radius: 50.0,
        };
        let cases = [
            ((100.0, 200.0), [0.0, 0.0]),
            ((125.0, 200.0), [0.5, 0.0]),
            ((100.0, 160.0), [0.0, -0.8]),
            ((200.0, 200.0), [1.0, 0.0]),
            ((70.0, 240.0), [-0.6, 0.8]),
            ((400.0, 600.0), [0.6, 0.8]),
            ((100.0 - 1e9, 200.0), [-1.0, 0.0]),
        ];
        for ((x, y), want) in cases {
            let got = stick_value(p, x, y);
            assert!(
                (got[0] - want[0]).abs() < 1e-6 && (got[1] - want[1]).abs() < 1e-6,
                "({x}, {y}): {got:?}, want {want:?}"
            );
        }
        let flat = Placed { radius: 0.0, ..p };
        assert_eq!(
            stick_value(flat, 100.0, 200.0),
            [0.0, 0.0],
            "no radius, no value"
        );
    }

    #[test]
    fn fingers_drive_the_control_they_went_down_on_or_else_the_games_touches() {
        let mut screen = Touchscreen::default();
        let d = def();
        // (phase, platform id, x, y, what it does)
        let steps: &[(Phase, u64, f32, f32, &[TouchOut])] = &[
            (Phase::Move, 5, 10.0, 10.0, &[]),
            (
                Phase::Down,
                900,
                92.0 + 32.0,
                508.0,
                &[Axis(MOVE_X, 0.5), Axis(MOVE_Y, 0.0)],
            ),
            // Slid far off the stick: still steering it, clamped.
            (
                Phase::Move,
                900,
                500.0,
                508.0,
                &[Axis(MOVE_X, 1.0), Axis(MOVE_Y, 0.0)],
            ),
            (Phase::Down, 7, 930.0, 530.0, &[Press(FIRE)]),
            // A second finger on a held control is ignored until it lifts.
            (Phase::Down, 8, 932.0, 532.0, &[]),
            (Phase::Up, 8, 932.0, 532.0, &[]),
            (
                Phase::Down,
                3,
                400.0,
                300.0,
                &[Touch(1, Some([400.0, 300.0])), MouseLeft(true)],
            ),
            (
                Phase::Down,
                4,
                410.0,
                310.0,
                &[Touch(2, Some([410.0, 310.0]))],
            ),
            (
                Phase::Move,
                3,
                401.0,
                301.0,
                &[Touch(1, Some([401.0, 301.0]))],
            ),
            (Phase::Up, 3, 401.0, 301.0, &[Touch(1, None)]),
            // The lowest free number.
            (Phase::Down, 11, 20.0, 20.0, &[Touch(1, Some([20.0, 20.0]))]),
            (Phase::Up, 7, 930.0, 530.0, &[Release(FIRE)]),
            (
                Phase::Cancel,
                900,
                0.0,
                0.0,
                &[Axis(MOVE_X, 0.0), Axis(MOVE_Y, 0.0)],
            ),
            (Phase::Up, 4, 0.0, 0.0, &[Touch(2, None)]),
            (Phase::Up, 11, 0.0, 0.0, &[Touch(1, None), MouseLeft(false)]),
            (Phase::Down, 12, f32::INFINITY, 0.0, &[]),
            (Phase::Up, 12, 0.0, 0.0, &[]),
        ];
        for (i, (phase, id, x, y, want)) in steps.iter().enumerate() {
            let mut out = Vec::new();
            screen.event(&d, SCREEN, (*phase, *id, *x, *y), &mut out);
            assert_eq!(out, *want, "step {i}");
        }
        assert!(screen.fingers.is_empty(), "every finger lifted");
    }

    #[test]
    fn at_most_ten_game_touches_and_focus_loss_lets_go_of_everything() {
        let mut screen = Touchscreen::default();
        let d = def();
        let mut out = Vec::new();
        for id in 0..12u64 {
            screen.event(
                &d,
                SCREEN,
                (Phase::Down, id, 300.0 + id as f32, 300.0),
                &mut out,
            );
        }
        let downs = out
            .iter()
            .filter(|o| matches!(o, Touch(_, Some(_))))
            .count();
        assert_eq!(
            downs, MAX_TOUCHES,
            "the eleventh and twelfth fingers are ignored"
        );
        screen.event(&d, SCREEN, (Phase::Down, 99, 930.0, 530.0), &mut out);
        assert_eq!(
            screen.fingers.len(),
            MAX_TOUCHES + 1,
            "a control still takes a finger"
        );
        out.clear();
        screen.cancel_all(&d, &mut out);
        let mut want: Vec<TouchOut> = (1..=10).map(|n| Touch(n, None)).collect();
        want.push(Cancel(FIRE));
        assert_eq!(out, want, "every touch lifts, the button is cancelled");
        assert!(screen.shown(), "the controls stay shown");
        screen.hide();
        assert!(!screen.shown(), "a key hides them");
    }
}
