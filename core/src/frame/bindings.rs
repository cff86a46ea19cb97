//! Physical keys to game actions: the platform-independent half of input mapping.

use crate::frame::input::{ActionId, ActionKind, ActionSet, InputBridge};
use serde::{Deserialize, Serialize};

/// What one key does: drive a button, or push an axis by `scale` while held.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeyBinding {
    /// Platform-neutral key name, lower case: `w`, `left`, `space`, `f3`, `mouse_left`...
    pub key: String,
    pub action: ActionId,
    /// For axis actions, the value this key contributes while held (usually -1 or 1).
    pub scale: f32,
}

/// Maps key events to bridge events. Several keys may drive one action: a button is held
/// while any of its keys is down; an axis is the clamped sum of its keys' scales, each times
/// the key's value.
///
/// A key's value is 1 while a key or button is down and 0 while it is up; a gamepad's stick
/// or trigger has its position (`-1..=1`, after the deadzone) and is down while off rest. A
/// key drives a button action by being down or up, whatever its value.
#[derive(Clone, Debug, Default)]
pub struct KeyMap {
    bindings: Vec<KeyBinding>,
    kinds: Vec<ActionKind>,
    /// The keys down, each with its value (never 0).
    down: Vec<(String, f32)>,
    /// Keys down when the bindings were replaced: ignored until released.
    stale: Vec<String>,
}

impl KeyMap {
    pub fn new(actions: &ActionSet, bindings: Vec<KeyBinding>) -> Self {
        KeyMap {
            bindings,
            kinds: actions.iter().map(|(_, a)| a.kind).collect(),
            down: Vec::new(),
            stale: Vec::new(),
        }
    }

    pub fn bindings(&self) -> &[KeyBinding] {
        &self.bindings
    }

    /// Whether any binding uses `key`.
    pub fn is_bound(&self, key: &str) -> bool {
        self.bindings.iter().any(|b| b.key == key)
    }

    /// The actions `key` drives.
    pub fn actions_of<'a>(&'a self, key: &'a str) -> impl Iterator<Item = ActionId> + 'a {
        self.bindings
            .iter()
            .filter(move |b| b.key == key)
            .map(|b| b.action)
    }

    /// `key`'s value: 0 while it is up (or ignored until released, after new bindings).
    pub fn value(&self, key: &str) -> f32 {
        self.down
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0.0, |(_, v)| *v)
    }

    /// A key went down. Key repeats are ignored.
    pub fn key_down(&mut self, key: &str, bridge: &mut InputBridge) {
        if self.value(key) == 0.0 {
            self.key_value(key, 1.0, bridge);
        }
    }

    /// A key went up.
    pub fn key_up(&mut self, key: &str, bridge: &mut InputBridge) {
        self.key_value(key, 0.0, bridge);
    }

    /// A key took `value` (a pad's stick or trigger; 0: at rest, which is up). Values are
    /// clamped to `[-1, 1]`; NaN reads as 0. The same value again is ignored, as a repeat is.
    pub fn key_value(&mut self, key: &str, value: f32, bridge: &mut InputBridge) {
        let value = if value.is_nan() {
            0.0
        } else {
            value.clamp(-1.0, 1.0)
        };
        if let Some(i) = self.stale.iter().position(|k| k == key) {
            if value == 0.0 {
                self.stale.swap_remove(i);
            }
            return;
        }
        let at = self.down.iter().position(|(k, _)| k == key);
        match (at, value == 0.0) {
            (None, true) => return,
            (Some(i), true) => {
                self.down.swap_remove(i);
            }
            (Some(i), false) if self.down[i].1 == value => return,
            (Some(i), false) => self.down[i].1 = value,
            (None, false) => self.down.push((key.to_string(), value)),
        }
        // Button actions hear only a key going down or up; axes every change of value.
        let toggled = at.is_some() == (value == 0.0);
        self.refresh(key, toggled, bridge);
    }

    /// A key is gone (its pad was disconnected): it holds nothing any more. A button action
    /// no other key holds is cancelled, not released; an axis loses the key's part.
    pub fn cancel_key(&mut self, key: &str, bridge: &mut InputBridge) {
        if let Some(i) = self.stale.iter().position(|k| k == key) {
            self.stale.swap_remove(i);
            return;
        }
        let Some(i) = self.down.iter().position(|(k, _)| k == key) else {
            return;
        };
        self.down.swap_remove(i);
        for b in self.bindings.iter().filter(|b| b.key == key) {
            match self.kinds.get(b.action.0 as usize) {
                Some(ActionKind::Button) if !self.holds(b.action) => bridge.cancel(b.action),
                Some(ActionKind::Button) => {}
                Some(ActionKind::Axis) => bridge.set_axis(b.action, self.sum(b.action)),
                None => {}
            }
        }
    }

    /// Every key is up (focus loss): their holds are cancelled, not released.
    pub fn cancel_all(&mut self, bridge: &mut InputBridge) {
        let keys = std::mem::take(&mut self.down);
        for (key, _) in &keys {
            for b in self.bindings.iter().filter(|b| &b.key == key) {
                match self.kinds.get(b.action.0 as usize) {
                    Some(ActionKind::Button) => bridge.cancel(b.action),
                    Some(ActionKind::Axis) => bridge.set_axis(b.action, 0.0),
                    None => {}
                }
            }
        }
    }

    /// New bindings. Held actions are cancelled; keys down now are ignored until released.
    pub fn replace(
        &mut self,
        actions: &ActionSet,
        bindings: Vec<KeyBinding>,
        bridge: &mut InputBridge,
    ) {
        bridge.rebind();
        self.stale.extend(self.down.drain(..).map(|(k, _)| k));
        self.bindings = bindings;
        self.kinds = actions.iter().map(|(_, a)| a.kind).collect();
    }

    /// Whether any key bound to `action` is down.
    fn holds(&self, action: ActionId) -> bool {
        self.bindings
            .iter()
            .filter(|o| o.action == action)
            .any(|o| self.value(&o.key) != 0.0)
    }

    /// An axis action's value before clamping: its down keys' scales times their values.
    fn sum(&self, action: ActionId) -> f32 {
        self.bindings
            .iter()
            .filter(|o| o.action == action)
            .map(|o| (o, self.value(&o.key)))
            .filter(|(_, v)| *v != 0.0)
            .map(|(o, v)| o.scale * v)
            .sum()
    }

    /// What `key`'s actions are now; buttons only when the key went down or up (`toggled`).
    fn refresh(&self, key: &str, toggled: bool, bridge: &mut InputBridge) {
        for b in self.bindings.iter().filter(|b| b.key == key) {
            let action = b.action;
            match self.kinds.get(action.0 as usize) {
                Some(ActionKind::Button) if !toggled => {}
                Some(ActionKind::Button) => {
                    if self.holds(action) {
                        bridge.press(action);
                    } else {
                        bridge.release(action);
                    }
                }
                Some(ActionKind::Axis) => bridge.set_axis(action, self.sum(action)),
                None => {}
            }
        }
    }
}
