//! The HUD: what a game draws over itself, in screen pixels: lines of text, pictures, rows of
//! icons and bars, each at an anchor of the screen. Presentation only: nothing here is part of
//! the simulation or its hash.

use crate::def::{AssetId, FontId};
use crate::math::{Color, Vec2};
use serde::{Deserialize, Serialize};

/// One item of the game's `hud`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HudItem {
    Text(HudLine),
    Image(HudImage),
    Icons(HudIcons),
    Bar(HudBar),
}

impl HudItem {
    /// Where on the screen it sits.
    pub fn at(&self) -> Anchor {
        match self {
            HudItem::Text(l) => l.at,
            HudItem::Image(i) => i.at,
            HudItem::Icons(i) => i.at,
            HudItem::Bar(b) => b.at,
        }
    }
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
    /// The font it is drawn in (`None`: the game's font, else the bundled one).
    pub font: Option<FontId>,
}

impl HudLine {
    /// Where a line that says nothing sits.
    pub const AT: Anchor = Anchor::TopLeft;
    /// The default size, in pixels.
    pub const SIZE: f32 = 16.0;
    /// The default colour.
    pub const COLOR: Color = Color::WHITE;

    /// A line at the default place, in the default size and colour.
    pub fn plain(text: impl Into<String>) -> HudLine {
        HudLine {
            text: text.into(),
            at: Self::AT,
            size: Self::SIZE,
            color: Self::COLOR,
            font: None,
        }
    }
}

/// Where on the screen a HUD line sits. The lines at one anchor form a block in declaration
/// order, at that edge or centre of the screen. The variants are in the order of
/// [`Anchor::ALL`] (a variant's discriminant is its index there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
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

impl Default for Anchor {
    fn default() -> Self {
        HudLine::AT
    }
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

    /// The name `at` takes for it.
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

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

/// A number a HUD item reads: written in the content, or the value of a name (a game variable,
/// a constant, `score`, `tick` or `entities`, as `{NAME}` in a text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HudNumber {
    Fixed(f64),
    Named(String),
}

/// A picture: one frame of an image.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HudImage {
    pub image: AssetId,
    pub frame: u16,
    /// Width and height in pixels at a pixel ratio of 1.
    pub size: Vec2,
    pub at: Anchor,
}

/// A row of `max` icons, the first `value` of them full (frame `frame`), the rest empty
/// (frame `empty_frame`, or nothing drawn where there is none): hearts, lives.
///
/// Invariant: the row is drawn with at most [`HudIcons::MAX`] icons, whatever the values say
/// (negative and non-numbers count as 0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HudIcons {
    /// The name whose value is how many icons are full.
    pub value: String,
    pub max: HudNumber,
    pub image: AssetId,
    pub frame: u16,
    pub empty_frame: Option<u16>,
    /// One icon's width and height in pixels at a pixel ratio of 1.
    pub size: Vec2,
    pub at: Anchor,
}

impl HudIcons {
    /// The most icons a row holds.
    pub const MAX: u32 = 64;
    /// The frame of a row that names none.
    pub const FRAME: u16 = 0;
}

/// A bar filled in proportion to `value / max` (clamped to 0..1), `color` over `back`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HudBar {
    /// The name whose value fills the bar.
    pub value: String,
    pub max: HudNumber,
    /// Width and height in pixels at a pixel ratio of 1.
    pub size: Vec2,
    pub color: Color,
    pub back: Color,
    pub at: Anchor,
}

impl HudBar {
    /// The size of a bar that sets none, in pixels.
    pub const SIZE: Vec2 = Vec2::new(160.0, 14.0);
    /// The filled part's colour of a bar that sets none.
    pub const COLOR: Color = Color::WHITE;
    /// The empty part's colour of a bar that sets none.
    pub const BACK: Color = Color::rgba(0, 0, 0, 128);
}
