//! Gamepads' keys in the runner: a key that takes values and goes with its pad
//! (`runtime/pads.rs` says when). Leaving rest is a key going down, rest is a key going up:
//! the keyboard's rules (the game's flow actions, playback, re-simulation) apply alike; a
//! change of value while off rest reaches the key map only where its going down did.

use crate::runtime::pads::PadKey;
use crate::runtime::runner::Runner;

impl Runner {
    /// A pad's key changed.
    pub fn pad_key(&mut self, change: PadKey) {
        match change {
            PadKey::Value { key, to: 0.0, .. } => self.key_up(key),
            PadKey::Value { key, from: 0.0, to } => self.key_down_to(key, to),
            PadKey::Value { key, to, .. } => {
                let play = &mut self.play;
                if self.resim.is_none() && play.keys.value(key.name()) != 0.0 {
                    play.keys
                        .key_value(key.name(), to, play.session.bridge_mut());
                }
            }
            PadKey::Gone(key) => {
                if self.resim.is_none() {
                    let play = &mut self.play;
                    play.keys.cancel_key(key.name(), play.session.bridge_mut());
                }
            }
        }
    }
}
