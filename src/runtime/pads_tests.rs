//! Gamepads without a gamepad: pad events fed through [`Pads`] (the path the platform's
//! events take) number the pads, apply the deadzone and reach the game as its actions, in
//! exact tables.

use crate::platform::PadEvent;
use crate::runtime::pads::{MAX_PADS, PadKey, Pads, dead};
use ludus_content::{Key, PadControl, PadSlot};

const UUID_A: [u8; 16] = [1; 16];
const UUID_B: [u8; 16] = [2; 16];

fn connect(pad: u64, uuid: [u8; 16]) -> PadEvent {
    PadEvent::Connected { pad, uuid }
}

fn leave(pad: u64) -> PadEvent {
    PadEvent::Disconnected { pad }
}

fn button(pad: u64, control: PadControl, down: bool) -> PadEvent {
    PadEvent::Button { pad, control, down }
}

fn axis(pad: u64, control: PadControl, value: f32) -> PadEvent {
    PadEvent::Axis {
        pad,
        control,
        value,
    }
}

fn value(slot: PadSlot, control: PadControl, from: f32, to: f32) -> PadKey {
    PadKey::Value {
        key: Key::Pad(slot, control),
        from,
        to,
    }
}

fn gone(slot: PadSlot, control: PadControl) -> PadKey {
    PadKey::Gone(Key::Pad(slot, control))
}

#[test]
fn pads_are_numbered_in_connection_order_and_a_pad_that_comes_back_keeps_its_number() {
    use PadSlot::{Any, P1, P2, P3, P4};
    let mut pads = Pads::default();
    // (event, then each pad id's number: `None` while it is not connected).
    let ids = [10, 11, 12, 13, 14, 15, 20];
    #[rustfmt::skip]
    let rows: [(PadEvent, [Option<PadSlot>; 7]); 12] = [
        (connect(10, [10; 16]), [Some(P1), None, None, None, None, None, None]),
        (connect(11, [11; 16]), [Some(P1), Some(P2), None, None, None, None, None]),
        (leave(10), [None, Some(P2), None, None, None, None, None]),
        // A new pad does not take the number kept for the one that left...
        (connect(12, [12; 16]), [None, Some(P2), Some(P3), None, None, None, None]),
        // ...which gets it back.
        (connect(10, [10; 16]), [Some(P1), Some(P2), Some(P3), None, None, None, None]),
        (leave(11), [Some(P1), None, Some(P3), None, None, None, None]),
        // Pad 11's model under a new id: the same pad, back with its number.
        (connect(20, [11; 16]), [Some(P1), None, Some(P3), None, None, None, Some(P2)]),
        (connect(13, [13; 16]), [Some(P1), None, Some(P3), Some(P4), None, None, Some(P2)]),
        // Every number is held: a fifth pad has none.
        (connect(14, [14; 16]), [Some(P1), None, Some(P3), Some(P4), Some(Any), None, Some(P2)]),
        (leave(12), [Some(P1), None, None, Some(P4), Some(Any), None, Some(P2)]),
        // Every number is still held, one by a pad that left: a new pad takes that one...
        (connect(15, [15; 16]), [Some(P1), None, None, Some(P4), Some(Any), Some(P3), Some(P2)]),
        // ...and the pad that had it comes back without a number.
        (connect(12, [12; 16]), [Some(P1), None, Some(Any), Some(P4), Some(Any), Some(P3), Some(P2)]),
    ];
    for (i, (event, want)) in rows.into_iter().enumerate() {
        pads.apply(event, 0.0, &mut Vec::new());
        let got: Vec<Option<PadSlot>> = ids.iter().map(|id| pads.slot_of(*id)).collect();
        assert_eq!(got, want, "row {i}: after {event:?}");
    }
}

#[test]
fn a_pads_controls_change_its_own_keys_and_any_pads_and_a_pad_that_leaves_lets_go() {
    use PadControl::{A, LTrigger, Lx, Ly, RTrigger};
    use PadSlot::{Any, P1, P2, P3};
    let mut pads = Pads::default();
    // (event, the key changes it makes), with a deadzone of 0.5.
    #[rustfmt::skip]
    let rows: Vec<(PadEvent, Vec<PadKey>)> = vec![
        (connect(1, UUID_A), vec![]),
        (button(1, A, true), vec![value(P1, A, 0.0, 1.0), value(Any, A, 0.0, 1.0)]),
        (button(1, A, true), vec![]),
        (connect(2, UUID_B), vec![]),
        // Any pad's A is already down.
        (button(2, A, true), vec![value(P2, A, 0.0, 1.0)]),
        (button(1, A, false), vec![value(P1, A, 1.0, 0.0)]),
        // Within the deadzone: at rest.
        (axis(1, Lx, 0.25), vec![]),
        (axis(1, Lx, 0.75), vec![value(P1, Lx, 0.0, 0.5), value(Any, Lx, 0.0, 0.5)]),
        // Any pad's stick is the one farthest from rest.
        (axis(2, Lx, -1.0), vec![value(P2, Lx, 0.0, -1.0), value(Any, Lx, 0.5, -1.0)]),
        (axis(2, Lx, -0.5), vec![value(P2, Lx, -1.0, 0.0), value(Any, Lx, -1.0, 0.5)]),
        (axis(1, LTrigger, f32::NAN), vec![]),
        (axis(2, RTrigger, 1.0), vec![value(P2, RTrigger, 0.0, 1.0), value(Any, RTrigger, 0.0, 1.0)]),
        // Pad 2 leaves: what only it held is gone (cancelled, not released); pad 1 still
        // holds any pad's stick.
        (leave(2), vec![gone(P2, A), gone(Any, A), gone(P2, RTrigger), gone(Any, RTrigger)]),
        (leave(2), vec![]),
        (leave(1), vec![gone(P1, Lx), gone(Any, Lx)]),
        // A pad never said to connect connects with its first event; numbers 1 and 2 are kept
        // for the pads that left.
        (axis(7, Ly, 1.0), vec![value(P3, Ly, 0.0, 1.0), value(Any, Ly, 0.0, 1.0)]),
        (leave(99), vec![]),
    ];
    for (i, (event, want)) in rows.into_iter().enumerate() {
        let mut got = Vec::new();
        pads.apply(event, 0.5, &mut got);
        assert_eq!(got, want, "row {i}: {event:?}");
    }
}

#[test]
fn the_deadzone_reads_rest_within_it_and_rescales_beyond_it() {
    // (value, deadzone, after).
    let rows: [(f32, f32, f32); 12] = [
        (0.0, 0.15, 0.0),
        (0.15, 0.15, 0.0),
        (-0.15, 0.15, 0.0),
        (1.0, 0.15, 1.0),
        (-1.0, 0.15, -1.0),
        (0.75, 0.5, 0.5),
        (-0.75, 0.5, -0.5),
        (2.0, 0.5, 1.0),
        (f32::NAN, 0.5, 0.0),
        (0.5, 0.0, 0.5),
        (0.25, f32::NAN, 0.25),
        // A deadzone past 0.9 (only a game built in code can have one) is 0.9.
        (0.85, 5.0, 0.0),
    ];
    for (v, zone, want) in rows {
        assert_eq!(dead(v, zone), want, "{v} with a deadzone of {zone}");
    }
}

#[test]
fn no_more_than_the_most_pads_are_followed() {
    let mut pads = Pads::default();
    let mut out = Vec::new();
    for id in 0..100 {
        pads.apply(connect(id, [id as u8; 16]), 0.0, &mut out);
        pads.apply(button(id, PadControl::B, true), 0.0, &mut out);
    }
    let followed = (0..100).filter(|id| pads.slot_of(*id).is_some()).count();
    assert_eq!(followed, MAX_PADS, "pads past the most are ignored");
    assert_eq!(out.len(), 4 + 1, "pads 1 to 4 and any pad's B");
    let rows = [
        // A pad without a number leaves: room for one more.
        (leave(10), 10, None),
        (connect(50, [50; 16]), 50, Some(PadSlot::Any)),
        (connect(51, [51; 16]), 51, None),
        // Pad 1 leaves: its number is kept for it, until a new pad needs one.
        (leave(0), 0, None),
        (connect(52, [52; 16]), 52, Some(PadSlot::P1)),
    ];
    for (event, id, want) in rows {
        pads.apply(event, 0.0, &mut out);
        assert_eq!(pads.slot_of(id), want, "after {event:?}, pad {id}");
    }
}
