//! The browser's pads as web/ludus.js reads them from the Gamepad API once a frame: a
//! snapshot of every slot of `navigator.getGamepads()`, and the pad events between two
//! snapshots. Compiled for the browser, and natively for its tests.
//!
//! The layout, [`VALUES`] numbers per slot for [`SLOTS`] slots (web/ludus.js writes it):
//!
//! | at | value |
//! | --- | --- |
//! | 0 | 1 when a pad is connected in the slot, else 0 (and the rest is 0) |
//! | 1 | a hash of the pad's `id` (its model), a whole number below 2³² |
//! | 2 | buttons 0 to 15 of the standard mapping, pressed, as bits |
//! | 3 to 6 | axes 0 to 3: left stick x and y, right stick x and y (down positive) |
//! | 7, 8 | the values of buttons 6 and 7, the triggers (0 to 1) |

use crate::platform::PadEvent;
use ludus_content::PadControl;

/// Slots read: `navigator.getGamepads()` has four in the browsers that matter.
pub const SLOTS: usize = 8;
/// Numbers per slot.
pub const VALUES: usize = 9;
/// Numbers in a snapshot.
pub const LEN: usize = SLOTS * VALUES;

// The events between two snapshots fit in one poll: a slot's disconnection and connection,
// its buttons and its axes.
const _: () = assert!(SLOTS * (2 + 16 + 6) <= crate::platform::MAX_PAD_EVENTS);

/// The controls of the standard mapping's buttons 0 to 15, by index.
const BUTTONS: [PadControl; 16] = [
    PadControl::A,
    PadControl::B,
    PadControl::X,
    PadControl::Y,
    PadControl::Lb,
    PadControl::Rb,
    PadControl::Lt,
    PadControl::Rt,
    PadControl::Select,
    PadControl::Start,
    PadControl::LStick,
    PadControl::RStick,
    PadControl::Up,
    PadControl::Down,
    PadControl::Left,
    PadControl::Right,
];

/// The axes of a slot's values 3 to 8, in order.
const AXES: [PadControl; 6] = [
    PadControl::Lx,
    PadControl::Ly,
    PadControl::Rx,
    PadControl::Ry,
    PadControl::LTrigger,
    PadControl::RTrigger,
];

/// One slot: a connected pad's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Slot {
    id: u32,
    buttons: u16,
    axes: [f32; 6],
}

/// Every slot's pad, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Snapshot {
    slots: [Option<Slot>; SLOTS],
}

impl Snapshot {
    /// Reads the numbers web/ludus.js wrote: anything out of range reads as at rest (NaN,
    /// infinities, bits past 15, axes past 1), a short buffer as empty slots.
    pub fn read(raw: &[f64]) -> Snapshot {
        let mut out = Snapshot::default();
        for (slot, values) in out.slots.iter_mut().zip(raw.chunks_exact(VALUES)) {
            if values[0] != 1.0 {
                continue;
            }
            let whole = |v: f64, max: f64| {
                if (0.0..=max).contains(&v) {
                    v as u64
                } else {
                    0
                }
            };
            let mut axes = [0.0; 6];
            for (a, v) in axes.iter_mut().zip(&values[3..]) {
                *a = if v.is_finite() {
                    v.clamp(-1.0, 1.0) as f32
                } else {
                    0.0
                };
            }
            *slot = Some(Slot {
                id: whole(values[1], f64::from(u32::MAX)) as u32,
                buttons: whole(values[2], f64::from(u16::MAX)) as u16,
                axes,
            });
        }
        out
    }

    /// The pad events that lead from `self` to `now`, slot by slot (a slot is one pad's id;
    /// a slot whose pad changed model is a disconnection and a connection), appended to
    /// `out`: at most 2 + 16 + 6 per slot.
    pub fn changes(&self, now: &Snapshot, out: &mut Vec<PadEvent>) {
        for (i, (was, is)) in self.slots.iter().zip(&now.slots).enumerate() {
            let pad = i as u64;
            let same = matches!((was, is), (Some(w), Some(n)) if w.id == n.id);
            if was.is_some() && !same {
                out.push(PadEvent::Disconnected { pad });
            }
            let Some(is) = is else {
                continue;
            };
            let was = match was {
                Some(w) if same => *w,
                _ => {
                    let mut uuid = [0; 16];
                    uuid[..4].copy_from_slice(&is.id.to_le_bytes());
                    out.push(PadEvent::Connected { pad, uuid });
                    Slot::default()
                }
            };
            for (b, control) in BUTTONS.iter().enumerate() {
                let down = is.buttons & (1 << b) != 0;
                if down != (was.buttons & (1 << b) != 0) {
                    out.push(PadEvent::Button {
                        pad,
                        control: *control,
                        down,
                    });
                }
            }
            for ((w, v), control) in was.axes.iter().zip(is.axes).zip(AXES) {
                if *w != v {
                    out.push(PadEvent::Axis {
                        pad,
                        control,
                        value: v,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A snapshot with `slots` filled: (slot, id, buttons, axes).
    fn raw(slots: &[(usize, f64, f64, [f64; 6])]) -> Vec<f64> {
        let mut out = vec![0.0; LEN];
        for (slot, id, buttons, axes) in slots {
            let at = slot * VALUES;
            out[at] = 1.0;
            out[at + 1] = *id;
            out[at + 2] = *buttons;
            out[at + 3..at + 9].copy_from_slice(axes);
        }
        out
    }

    fn events(from: &[f64], to: &[f64]) -> Vec<PadEvent> {
        let mut out = Vec::new();
        Snapshot::read(from).changes(&Snapshot::read(to), &mut out);
        out
    }

    #[test]
    fn snapshots_become_the_events_between_them() {
        use PadControl::{A, B, Lx, Ly, RTrigger, Right, Rx, Ry, Start};
        let none = raw(&[]);
        let still = [0.0; 6];
        let connect = |pad, id: u32| {
            let mut uuid = [0; 16];
            uuid[..4].copy_from_slice(&id.to_le_bytes());
            PadEvent::Connected { pad, uuid }
        };
        let button = |pad, control, down| PadEvent::Button { pad, control, down };
        let axis = |pad, control, value| PadEvent::Axis {
            pad,
            control,
            value,
        };
        let a_and_start = f64::from(1u32 | 1 << 9);
        // (what, the snapshot before, the one after, the events between them).
        type Case<'a> = (&'a str, Vec<f64>, Vec<f64>, Vec<PadEvent>);
        #[rustfmt::skip]
        let cases: Vec<Case> = vec![
            ("nothing", none.clone(), none.clone(), vec![]),
            (
                "a pad connects with A and Start down, the left stick right, a trigger half in",
                none.clone(),
                raw(&[(1, 77.0, a_and_start, [1.0, 0.0, 0.0, 0.0, 0.0, 0.5])]),
                vec![connect(1, 77), button(1, A, true), button(1, Start, true), axis(1, Lx, 1.0), axis(1, RTrigger, 0.5)],
            ),
            (
                "buttons and axes change",
                raw(&[(0, 5.0, 1.0, still)]),
                raw(&[(0, 5.0, f64::from(1u32 << 15), [0.0, -0.5, 0.0, 0.0, 0.0, 0.0])]),
                vec![button(0, A, false), button(0, Right, true), axis(0, Ly, -0.5)],
            ),
            (
                "a pad leaves: its disconnection alone (the runtime lets go of what it held)",
                raw(&[(2, 5.0, 1.0, [0.3; 6])]),
                none.clone(),
                vec![PadEvent::Disconnected { pad: 2 }],
            ),
            (
                "another model in the same slot: gone, then connected afresh",
                raw(&[(0, 5.0, 0.0, still)]),
                raw(&[(0, 6.0, 2.0, still)]),
                vec![PadEvent::Disconnected { pad: 0 }, connect(0, 6), button(0, B, true)],
            ),
            (
                "nonsense reads as rest or the nearest value: NaN, infinities, bits past 15, axes past 1",
                none.clone(),
                raw(&[(0, -3.0, f64::from(1u32 << 16), [f64::NAN, f64::INFINITY, 7.0, -7.0, 0.0, 0.0])]),
                vec![connect(0, 0), axis(0, Rx, 1.0), axis(0, Ry, -1.0)],
            ),
        ];
        for (what, from, to, want) in cases {
            assert_eq!(events(&from, &to), want, "{what}");
        }
        // A short buffer is empty slots.
        assert_eq!(
            Snapshot::read(&[1.0, 2.0]),
            Snapshot::default(),
            "a short buffer"
        );
    }
}
