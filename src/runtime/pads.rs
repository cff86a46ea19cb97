//! Gamepads as the keys games bind: [`Pads`] numbers the pads a platform reports
//! ([`PadEvent`]s, from gilrs on the desktop, the Gamepad API in the browser, a list in
//! tests), applies the game's deadzone, and turns each change of a control into a change of
//! its keys: `pad2_a` for pad 2's A, `pad_a` for the A of any pad. The runner takes those as it
//! takes the keyboard's keys (`runner/pads.rs`), so pads reach the game through the same key
//! map and input bridge: edges once per tick, recorded and replayed.

use crate::platform::PadEvent;
use crate::runtime::Runner;
use ludus_content::{Key, PadControl, PadSlot};

/// The most pads followed at once; the events of more are ignored until one leaves.
pub const MAX_PADS: usize = 16;

/// Controls per pad.
const CONTROLS: usize = PadControl::ALL.len();

/// A pad seen: connected, or numbered and kept for when it comes back.
#[derive(Clone, Debug)]
struct Pad {
    /// The platform's id (`None` once another pad took it over).
    id: Option<u64>,
    uuid: [u8; 16],
    /// Its number ([`PadSlot::Any`]: none).
    slot: PadSlot,
    connected: bool,
    /// Each control's value after the deadzone (0 at rest), in [`PadControl::ALL`]'s order.
    values: [f32; CONTROLS],
}

/// A change of a pad's key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PadKey {
    /// The key's value went from `from` to `to` (0: at rest, up; a button's is 1 when down).
    Value { key: Key, from: f32, to: f32 },
    /// The key's pad was disconnected while the key was off rest: what it held is cancelled.
    Gone(Key),
}

/// The pads and the values of their keys.
///
/// Invariants:
/// - A pad gets its number at its first connection: the lowest that no pad seen holds; when
///   every number is held, the lowest held by a disconnected pad (which is then forgotten);
///   else none (it still drives `pad_NAME`).
/// - A pad that connects again, with the same id and model, or with the same model as a
///   disconnected numbered pad, is that pad: it keeps its number.
/// - `padN_NAME` has the value of pad N's control; `pad_NAME` has, of the connected pads'
///   values of the control, the one farthest from rest (the first seen on a tie).
/// - Each change of a key's value is reported once, in the order the events came. A pad that
///   disconnects reports its keys off rest as [`PadKey::Gone`], and `pad_NAME` takes what the
///   other pads hold (gone too, when that is nothing).
/// - At most [`MAX_PADS`] pads are kept; a disconnected pad without a number is forgotten.
#[derive(Clone, Debug)]
pub struct Pads {
    pads: Vec<Pad>,
    /// `pad_NAME`'s value of each control.
    any: [f32; CONTROLS],
}

impl Default for Pads {
    fn default() -> Self {
        Pads {
            pads: Vec::new(),
            any: [0.0; CONTROLS],
        }
    }
}

/// `value` after a deadzone of `deadzone`: 0 within it, rescaled beyond it to reach 1 at 1.
/// NaN reads as 0; values are clamped to `[-1, 1]`.
pub fn dead(value: f32, deadzone: f32) -> f32 {
    let deadzone = if deadzone.is_nan() {
        0.0
    } else {
        deadzone.clamp(0.0, 0.9)
    };
    let v = if value.is_nan() {
        0.0
    } else {
        value.clamp(-1.0, 1.0)
    };
    if v.abs() <= deadzone {
        return 0.0;
    }
    (v.signum() * (v.abs() - deadzone) / (1.0 - deadzone)).clamp(-1.0, 1.0)
}

fn index(control: PadControl) -> usize {
    PadControl::ALL
        .iter()
        .position(|c| *c == control)
        .unwrap_or(0)
}

impl Pads {
    /// Applies the platform's `events` to `runner`'s game, with its deadzone.
    pub fn drive(&mut self, events: &[PadEvent], runner: &mut Runner) {
        let deadzone = runner.def().deadzone;
        let mut keys = Vec::new();
        for event in events {
            keys.clear();
            self.apply(*event, deadzone, &mut keys);
            for key in &keys {
                runner.pad_key(*key);
            }
        }
    }

    /// The changes of keys `event` makes, appended to `out` (at most two a control).
    pub fn apply(&mut self, event: PadEvent, deadzone: f32, out: &mut Vec<PadKey>) {
        match event {
            PadEvent::Connected { pad, uuid } => {
                self.connect(pad, uuid);
            }
            PadEvent::Disconnected { pad } => self.disconnect(pad, out),
            PadEvent::Button { pad, control, down } => {
                self.set(pad, control, f32::from(u8::from(down)), out);
            }
            PadEvent::Axis {
                pad,
                control,
                value,
            } => self.set(pad, control, dead(value, deadzone), out),
        }
    }

    /// The number of the pad with the platform's id `pad`, while it is connected: `Some(Any)`
    /// for a pad without one.
    #[cfg(test)]
    pub fn slot_of(&self, pad: u64) -> Option<PadSlot> {
        self.pads
            .iter()
            .find(|p| p.connected && p.id == Some(pad))
            .map(|p| p.slot)
    }

    /// Pad `id` connected: the index of its record, if it is followed.
    fn connect(&mut self, id: u64, uuid: [u8; 16]) -> Option<usize> {
        if let Some(i) = self.pads.iter().position(|p| p.id == Some(id)) {
            if self.pads[i].uuid == uuid || self.pads[i].connected {
                self.pads[i].connected = true;
                return Some(i);
            }
            // Another model under the same id: the pad that had it may only come back by model.
            self.pads[i].id = None;
        }
        let back = self
            .pads
            .iter()
            .position(|p| !p.connected && p.slot != PadSlot::Any && p.uuid == uuid);
        if let Some(i) = back {
            self.pads[i].id = Some(id);
            self.pads[i].connected = true;
            return Some(i);
        }
        let slot = self.free_number();
        if self.pads.len() >= MAX_PADS {
            return None;
        }
        self.pads.push(Pad {
            id: Some(id),
            uuid,
            slot,
            connected: true,
            values: [0.0; CONTROLS],
        });
        Some(self.pads.len() - 1)
    }

    /// The number a new pad gets (see [`Pads`]); a disconnected pad whose number it takes is
    /// forgotten.
    fn free_number(&mut self) -> PadSlot {
        let mut reclaim = None;
        for slot in (1..=PadSlot::NUMBERED).filter_map(PadSlot::numbered) {
            match self.pads.iter().find(|p| p.slot == slot) {
                None => return slot,
                Some(p) if !p.connected && reclaim.is_none() => reclaim = Some(slot),
                Some(_) => {}
            }
        }
        let Some(slot) = reclaim else {
            return PadSlot::Any;
        };
        self.pads.retain(|p| p.slot != slot);
        slot
    }

    fn disconnect(&mut self, id: u64, out: &mut Vec<PadKey>) {
        let Some(i) = self
            .pads
            .iter()
            .position(|p| p.connected && p.id == Some(id))
        else {
            return;
        };
        let pad = &mut self.pads[i];
        pad.connected = false;
        let slot = pad.slot;
        let was = std::mem::replace(&mut pad.values, [0.0; CONTROLS]);
        if slot == PadSlot::Any {
            self.pads.remove(i);
        }
        for (c, control) in PadControl::ALL.iter().enumerate() {
            if was[c] != 0.0 && slot != PadSlot::Any {
                out.push(PadKey::Gone(Key::Pad(slot, *control)));
            }
            self.update_any(c, true, out);
        }
    }

    /// Pad `id`'s `control` is at `value` (after the deadzone).
    fn set(&mut self, id: u64, control: PadControl, value: f32, out: &mut Vec<PadKey>) {
        let i = match self
            .pads
            .iter()
            .position(|p| p.connected && p.id == Some(id))
        {
            Some(i) => i,
            // A pad never said to connect (a platform's lost event): it connects now.
            None => match self.connect(id, [0; 16]) {
                Some(i) => i,
                None => return,
            },
        };
        let c = index(control);
        let pad = &mut self.pads[i];
        let from = pad.values[c];
        if from == value {
            return;
        }
        pad.values[c] = value;
        if pad.slot != PadSlot::Any {
            out.push(PadKey::Value {
                key: Key::Pad(pad.slot, control),
                from,
                to: value,
            });
        }
        self.update_any(c, false, out);
    }

    /// `pad_NAME` of control `c` after a change: the connected pads' value farthest from rest.
    /// After a disconnection (`left`), a key put at rest by it is gone rather than up.
    fn update_any(&mut self, c: usize, left: bool, out: &mut Vec<PadKey>) {
        let mut to = 0.0f32;
        for pad in self.pads.iter().filter(|p| p.connected) {
            if pad.values[c].abs() > to.abs() {
                to = pad.values[c];
            }
        }
        let from = self.any[c];
        if from == to {
            return;
        }
        self.any[c] = to;
        let key = Key::Pad(PadSlot::Any, PadControl::ALL[c]);
        out.push(match left && to == 0.0 {
            true => PadKey::Gone(key),
            false => PadKey::Value { key, from, to },
        });
    }
}
