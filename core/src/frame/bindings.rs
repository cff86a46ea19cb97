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
/// while any of its keys is down; an axis is the clamped sum of the scales of its held keys.
#[derive(Clone, Debug, Default)]
pub struct KeyMap {
    bindings: Vec<KeyBinding>,
    kinds: Vec<ActionKind>,
    down: Vec<String>,
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

    /// A key went down. Key repeats are ignored.
    pub fn key_down(&mut self, key: &str, bridge: &mut InputBridge) {
        if self.down.iter().any(|k| k == key) || self.stale.iter().any(|k| k == key) {
            return;
        }
        self.down.push(key.to_string());
        self.refresh(key, bridge);
    }

    /// A key went up.
    pub fn key_up(&mut self, key: &str, bridge: &mut InputBridge) {
        if let Some(i) = self.stale.iter().position(|k| k == key) {
            self.stale.swap_remove(i);
            return;
        }
        let Some(i) = self.down.iter().position(|k| k == key) else {
            return;
        };
        self.down.swap_remove(i);
        self.refresh(key, bridge);
    }

    /// Every key is up (focus loss): their holds are cancelled, not released.
    pub fn cancel_all(&mut self, bridge: &mut InputBridge) {
        let keys = std::mem::take(&mut self.down);
        for key in &keys {
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
        self.stale.append(&mut self.down);
        self.bindings = bindings;
        self.kinds = actions.iter().map(|(_, a)| a.kind).collect();
    }

    fn refresh(&self, key: &str, bridge: &mut InputBridge) {
        for b in self.bindings.iter().filter(|b| b.key == key) {
            let action = b.action;
            match self.kinds.get(action.0 as usize) {
                Some(ActionKind::Button) => {
                    let any_down = self
                        .bindings
                        .iter()
                        .filter(|o| o.action == action)
                        .any(|o| self.down.contains(&o.key));
                    if any_down {
                        bridge.press(action);
                    } else {
                        bridge.release(action);
                    }
                }
                Some(ActionKind::Axis) => {
                    let sum: f32 = self
                        .bindings
                        .iter()
                        .filter(|o| o.action == action && self.down.contains(&o.key))
                        .map(|o| o.scale)
                        .sum();
                    bridge.set_axis(action, sum);
                }
                None => {}
            }
        }
    }
}
