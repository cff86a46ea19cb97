//! Gamepads on the desktop: gilrs, with SDL's mapping database, so most pads report their
//! buttons and sticks in the standard layout. On Linux gilrs finds pads through libudev,
//! which `crates/libudev-sys` loads at run time: without libudev there are no pads, and the
//! game plays on with keys.
//!
//! gilrs's own deadzone is off (the game's `[input] deadzone` applies instead, in
//! `runtime/pads.rs`); its d-pad-as-axes and jitter filters stay on.

use crate::platform::{MAX_PAD_EVENTS, PadEvent};
use gilrs::ev::filter::{Filter, Jitter, axis_dpad_to_button};
use gilrs::{Axis, Button, EventType, Gilrs, GilrsBuilder};
use ludus_content::PadControl;

/// The desktop's pads. See [`crate::platform::PadSource`].
pub struct PadSource {
    /// `None` where gilrs found no way to reach pads.
    gilrs: Option<Gilrs>,
    jitter: Jitter,
    /// The pads connected when the source opened, for the first poll to report.
    present: Vec<PadEvent>,
}

impl PadSource {
    pub fn open() -> PadSource {
        let built = GilrsBuilder::new()
            .with_default_filters(false)
            .set_update_state(false)
            .with_force_feedback(false)
            .build();
        // Without a way to reach pads (no libudev, an unsupported platform) there are none.
        let gilrs = built.ok();
        let present = gilrs
            .iter()
            .flat_map(|g| g.gamepads())
            .take(MAX_PAD_EVENTS)
            .map(|(id, pad)| PadEvent::Connected {
                pad: usize::from(id) as u64,
                uuid: pad.uuid(),
            })
            .collect();
        PadSource {
            gilrs,
            jitter: Jitter::new(),
            present,
        }
    }

    /// Appends the events since the last poll (at most [`MAX_PAD_EVENTS`]).
    pub fn poll(&mut self, out: &mut Vec<PadEvent>) {
        out.append(&mut self.present);
        let Some(gilrs) = &mut self.gilrs else {
            return;
        };
        while out.len() < MAX_PAD_EVENTS {
            let Some(ev) = gilrs
                .next_event()
                .filter_ev(&axis_dpad_to_button, gilrs)
                .filter_ev(&self.jitter, gilrs)
            else {
                return;
            };
            gilrs.update(&ev);
            let pad = usize::from(ev.id) as u64;
            let uuid = || gilrs.gamepad(ev.id).uuid();
            out.extend(translate(pad, Raw::from(&ev.event), uuid));
        }
    }
}

/// A gilrs event's kind without its platform code (which only gilrs can make).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Raw {
    Connected,
    Disconnected,
    Pressed(Button),
    Released(Button),
    Changed(Button, f32),
    Moved(Axis, f32),
    /// Repeats, dropped events, force feedback and kinds gilrs may add.
    Other,
}

impl From<&EventType> for Raw {
    fn from(ev: &EventType) -> Raw {
        match *ev {
            EventType::Connected => Raw::Connected,
            EventType::Disconnected => Raw::Disconnected,
            EventType::ButtonPressed(b, _) => Raw::Pressed(b),
            EventType::ButtonReleased(b, _) => Raw::Released(b),
            EventType::ButtonChanged(b, v, _) => Raw::Changed(b, v),
            EventType::AxisChanged(a, v, _) => Raw::Moved(a, v),
            _ => Raw::Other,
        }
    }
}

/// What gilrs's event `ev` of pad `pad` is to the game (`uuid` gives the pad's model, for a
/// connection). Controls without a key (the mode button, C, Z, the Z axes) are nothing, and so
/// are repeats and a button's value, except the triggers', which are their axes.
fn translate(pad: u64, ev: Raw, uuid: impl FnOnce() -> [u8; 16]) -> Option<PadEvent> {
    Some(match ev {
        Raw::Connected => PadEvent::Connected { pad, uuid: uuid() },
        Raw::Disconnected => PadEvent::Disconnected { pad },
        Raw::Pressed(b) => PadEvent::Button {
            pad,
            control: button(b)?,
            down: true,
        },
        Raw::Released(b) => PadEvent::Button {
            pad,
            control: button(b)?,
            down: false,
        },
        Raw::Changed(b, value) => PadEvent::Axis {
            pad,
            control: trigger(b)?,
            value,
        },
        Raw::Moved(a, value) => {
            let (control, sign) = axis(a)?;
            PadEvent::Axis {
                pad,
                control,
                value: sign * value,
            }
        }
        Raw::Other => return None,
    })
}

/// The control a gilrs button is, in the standard layout.
fn button(b: Button) -> Option<PadControl> {
    Some(match b {
        Button::South => PadControl::A,
        Button::East => PadControl::B,
        Button::West => PadControl::X,
        Button::North => PadControl::Y,
        Button::LeftTrigger => PadControl::Lb,
        Button::RightTrigger => PadControl::Rb,
        Button::LeftTrigger2 => PadControl::Lt,
        Button::RightTrigger2 => PadControl::Rt,
        Button::Select => PadControl::Select,
        Button::Start => PadControl::Start,
        Button::DPadUp => PadControl::Up,
        Button::DPadDown => PadControl::Down,
        Button::DPadLeft => PadControl::Left,
        Button::DPadRight => PadControl::Right,
        Button::LeftThumb => PadControl::LStick,
        Button::RightThumb => PadControl::RStick,
        Button::C | Button::Z | Button::Mode | Button::Unknown => return None,
    })
}

/// The axis a trigger's value is (gilrs reports the triggers as buttons with a value).
fn trigger(b: Button) -> Option<PadControl> {
    match b {
        Button::LeftTrigger2 => Some(PadControl::LTrigger),
        Button::RightTrigger2 => Some(PadControl::RTrigger),
        _ => None,
    }
}

/// The axis a gilrs axis is, and the sign that makes down positive (gilrs has up positive).
fn axis(a: Axis) -> Option<(PadControl, f32)> {
    Some(match a {
        Axis::LeftStickX => (PadControl::Lx, 1.0),
        Axis::LeftStickY => (PadControl::Ly, -1.0),
        Axis::RightStickX => (PadControl::Rx, 1.0),
        Axis::RightStickY => (PadControl::Ry, -1.0),
        Axis::LeftZ | Axis::RightZ | Axis::DPadX | Axis::DPadY | Axis::Unknown => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gilrs_events_are_the_pad_events_of_the_standard_layout() {
        use PadControl::{A, LTrigger, Lb, Left, Lx, Ly, Rt, Ry, Y};
        let uuid = [7; 16];
        let to = |control, down| {
            Some(PadEvent::Button {
                pad: 3,
                control,
                down,
            })
        };
        let at = |control, value| {
            Some(PadEvent::Axis {
                pad: 3,
                control,
                value,
            })
        };
        let cases: [(Raw, Option<PadEvent>); 16] = [
            (Raw::Connected, Some(PadEvent::Connected { pad: 3, uuid })),
            (Raw::Disconnected, Some(PadEvent::Disconnected { pad: 3 })),
            (Raw::Pressed(Button::South), to(A, true)),
            (Raw::Released(Button::North), to(Y, false)),
            (Raw::Pressed(Button::LeftTrigger), to(Lb, true)),
            (Raw::Pressed(Button::RightTrigger2), to(Rt, true)),
            (Raw::Pressed(Button::DPadLeft), to(Left, true)),
            (Raw::Changed(Button::LeftTrigger2, 0.5), at(LTrigger, 0.5)),
            (Raw::Changed(Button::South, 1.0), None),
            (Raw::Moved(Axis::LeftStickX, -0.25), at(Lx, -0.25)),
            // gilrs has up positive; the world, and pads' keys, down.
            (Raw::Moved(Axis::LeftStickY, 0.75), at(Ly, -0.75)),
            (Raw::Moved(Axis::RightStickY, -1.0), at(Ry, 1.0)),
            (Raw::Moved(Axis::LeftZ, 0.5), None),
            (Raw::Pressed(Button::Mode), None),
            (Raw::Pressed(Button::Unknown), None),
            (Raw::Other, None),
        ];
        for (ev, want) in cases {
            assert_eq!(translate(3, ev, || uuid), want, "{ev:?}");
        }
    }

    #[test]
    fn every_pad_button_comes_from_one_gilrs_button() {
        let all = [
            Button::South,
            Button::East,
            Button::North,
            Button::West,
            Button::C,
            Button::Z,
            Button::LeftTrigger,
            Button::LeftTrigger2,
            Button::RightTrigger,
            Button::RightTrigger2,
            Button::Select,
            Button::Start,
            Button::Mode,
            Button::LeftThumb,
            Button::RightThumb,
            Button::DPadUp,
            Button::DPadDown,
            Button::DPadLeft,
            Button::DPadRight,
            Button::Unknown,
        ];
        for control in PadControl::ALL.iter().filter(|c| !c.is_axis()) {
            let from: Vec<Button> = all
                .into_iter()
                .filter(|b| button(*b) == Some(*control))
                .collect();
            assert_eq!(from.len(), 1, "{control:?} comes from {from:?}");
        }
    }

    #[test]
    fn a_machine_without_pads_opens_a_source_that_reports_none() {
        // Test machines have no pads (and may have no libudev): the source opens all the same.
        let mut source = PadSource::open();
        let mut events = Vec::new();
        source.poll(&mut events);
        source.poll(&mut events);
        assert!(events.len() <= MAX_PAD_EVENTS, "bounded: {events:?}");
    }
}
