//! What scripts and the HUD show and play: effects, sounds, HUD lines.

use crate::math::Color;
use serde::{Deserialize, Serialize};

/// A visual effect scripts can request by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffectDef {
    pub name: String,
    pub color: Color,
    /// Particles per burst.
    pub particles: u32,
    /// Particle speed in world units per second.
    pub speed: f32,
    /// Particle life in seconds (presentation time).
    pub duration: f32,
    /// Particle size in world units.
    pub size: f32,
}

/// A sound scripts can request by name: a synthesised tone, so games need no audio files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SoundDef {
    pub name: String,
    pub wave: Wave,
    /// Start and end frequency in Hz (a slide when they differ).
    pub freq: f32,
    pub freq_end: f32,
    pub duration: f32,
    pub volume: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wave {
    Sine,
    Square,
    Triangle,
    Saw,
    Noise,
}

/// A line of text drawn over the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HudLine {
    /// The text, with `{score}`, `{tick}`, `{entities}` and `{NAME}` of game variables.
    pub text: String,
    pub at: Anchor,
    /// Text height in pixels at a pixel ratio of 1.
    pub size: f32,
    pub color: Color,
}

impl HudLine {
    /// The default size, in pixels.
    pub const SIZE: f32 = 16.0;

    /// A line at the top left in the default size and colour.
    pub fn plain(text: impl Into<String>) -> HudLine {
        HudLine {
            text: text.into(),
            at: Anchor::TopLeft,
            size: Self::SIZE,
            color: Color::WHITE,
        }
    }
}

/// Where on the screen a HUD line sits. The lines at one anchor form a block in declaration
/// order, at that edge or centre of the screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    #[default]
    TopLeft,
    Top,
    TopRight,
    Left,
    Center,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

impl Anchor {
    /// Every anchor, row by row from the top left; [`Anchor::NAMES`] in the same order.
    pub const ALL: [Anchor; 9] = [
        Anchor::TopLeft,
        Anchor::Top,
        Anchor::TopRight,
        Anchor::Left,
        Anchor::Center,
        Anchor::Right,
        Anchor::BottomLeft,
        Anchor::Bottom,
        Anchor::BottomRight,
    ];
    /// The names `at` takes in TOML.
    pub const NAMES: [&'static str; 9] = [
        "top_left",
        "top",
        "top_right",
        "left",
        "center",
        "right",
        "bottom_left",
        "bottom",
        "bottom_right",
    ];

    pub fn from_name(name: &str) -> Option<Anchor> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }

    /// Horizontal and vertical placement: 0 start, 1 middle, 2 end.
    pub fn grid(self) -> (u8, u8) {
        let i = Self::ALL.iter().position(|a| *a == self).unwrap_or(0) as u8;
        (i % 3, i / 3)
    }
}
