//! What a frame draws, as plain data: the camera, one sprite, one line of world text, and how
//! positions are placed between the previous and the current tick.

use crate::def::SpriteShape;
use crate::math::{Color, Rect, Vec2};

/// How to place entities between their previous and current transforms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interpolation {
    /// `prev + (cur - prev) * alpha`, alpha in `[0, 1)`.
    Alpha(f32),
    /// Current transforms exactly (paused, faulted, or a stepped world).
    Exact,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Camera {
    /// World position at the centre of the view.
    pub center: Vec2,
    /// World units visible.
    pub view: Vec2,
}

impl Camera {
    /// The visible world rectangle.
    pub fn rect(&self) -> Rect {
        Rect::new(self.center - self.view * 0.5, self.center + self.view * 0.5)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draw {
    pub pos: Vec2,
    /// Rotation in radians about the centre (0 for entities that do not rotate).
    pub angle: f32,
    pub size: Vec2,
    pub color: Color,
    pub shape: SpriteShape,
    /// The frame of an image (0 for shapes and whole images).
    pub frame: u16,
    pub flip_x: bool,
    /// Mirrored top to bottom.
    pub flip_y: bool,
    pub layer: i16,
    pub depth: f32,
    pub seq: u64,
}

/// Text drawn in the world (above the sprites): the line's centre, its height, its colour.
#[derive(Clone, Debug, PartialEq)]
pub struct TextDraw {
    pub pos: Vec2,
    pub text: std::sync::Arc<str>,
    pub size: f32,
    pub color: Color,
    /// `None`: the game's font, else the bundled one.
    pub font: Option<crate::def::FontId>,
    pub seq: u64,
}
