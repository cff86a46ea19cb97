//! `[touch]`: the on-screen controls a touch screen drives.

use crate::def::hud::Anchor;
use crate::frame::input::ActionId;
use serde::{Deserialize, Serialize};

/// A game's on-screen controls, in declaration order.
///
/// The app draws them only once a touch has been seen, and hides them again when a key or a
/// pad button is used. A finger that goes down on a control drives the control's actions
/// until it lifts, and is neither the pointer nor one of the game's touches
/// (`ludus.touches()`); a finger that goes down elsewhere is. Nothing here reaches a tick
/// but the actions and touches it becomes, so a recording replays without it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TouchDef {
    /// At most [`TouchDef::MAX_CONTROLS`], at distinct anchors.
    pub controls: Vec<TouchControl>,
}

impl TouchDef {
    /// The most on-screen controls a game may declare.
    pub const MAX_CONTROLS: usize = 8;
}

/// One on-screen control, at an edge or corner of the window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TouchControl {
    pub at: Anchor,
    pub kind: TouchControlKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TouchControlKind {
    /// A thumbstick: while a finger is on it, its axis actions take the finger's offset from
    /// the stick's centre over its radius, clamped to the unit circle (`x` rightwards, `y`
    /// downwards, as the world's axes); they return to 0 when the finger lifts. At least one
    /// of the two is set.
    Stick {
        x: Option<ActionId>,
        y: Option<ActionId>,
    },
    /// A button: its button action is held while a finger is on it.
    Button {
        action: ActionId,
        /// Text drawn on it (at most [`TouchControlKind::MAX_LABEL`] characters).
        label: Option<String>,
    },
}

impl TouchControlKind {
    /// The longest label a button may carry, in characters.
    pub const MAX_LABEL: usize = 8;
}
