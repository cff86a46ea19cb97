//! Small value types: 2D vectors, rectangles, colours.
//!
//! Simulation arithmetic uses only IEEE-754 basic operations (`+ - * /`, `sqrt`) and `libm` for
//! anything transcendental, so the same inputs give the same bits on every target.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Two floats, `x` then `y` (`repr(C)`: a slice of them is a slice of floats in that order,
/// which `in_box8` loads as packed lanes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

impl Vec2 {
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    pub const fn new(x: f32, y: f32) -> Self {
        Vec2 { x, y }
    }

    pub fn length_squared(self) -> f32 {
        self.x * self.x + self.y * self.y
    }

    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }

    /// The unit vector in this direction, or zero for a zero (or non-finite) vector.
    pub fn normalized_or_zero(self) -> Vec2 {
        let len = self.length();
        if len > 0.0 && len.is_finite() {
            Vec2::new(self.x / len, self.y / len)
        } else {
            Vec2::ZERO
        }
    }

    /// Linear interpolation; `t == 1.0` returns `other` exactly.
    pub fn lerp(self, other: Vec2, t: f32) -> Vec2 {
        Vec2::new(
            self.x * (1.0 - t) + other.x * t,
            self.y * (1.0 - t) + other.y * t,
        )
    }

    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The unit vector at `angle` radians (libm, identical on every target).
    pub fn from_angle(angle: f32) -> Vec2 {
        Vec2::new(libm::cosf(angle), libm::sinf(angle))
    }

    /// The angle of this vector in radians, in `(-pi, pi]` (libm, identical on every target).
    pub fn angle(self) -> f32 {
        libm::atan2f(self.y, self.x)
    }

    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }
}

/// `angle` brought into `[-pi, pi)`, so angles that only turn stay small.
pub fn wrap_angle(angle: f32) -> f32 {
    use std::f32::consts::PI;
    if (-PI..PI).contains(&angle) {
        angle
    } else {
        (angle + PI).rem_euclid(2.0 * PI) - PI
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        self.x -= o.x;
        self.y -= o.y;
    }
}

impl Mul<f32> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f32) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

/// An axis-aligned rectangle by its minimum and maximum corners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub min: Vec2,
    pub max: Vec2,
}

impl Rect {
    pub const fn new(min: Vec2, max: Vec2) -> Self {
        Rect { min, max }
    }

    /// A rectangle of `size` centred on the origin.
    pub fn centered(size: Vec2) -> Self {
        Rect::new(size * -0.5, size * 0.5)
    }

    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// The rectangle `by` further out on every side (`by < 0`: further in; the corners may
    /// then cross, and it contains nothing).
    pub fn grown(&self, by: f32) -> Self {
        let by = Vec2::new(by, by);
        Rect::new(self.min - by, self.max + by)
    }

    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    pub fn clamp(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            p.x.max(self.min.x).min(self.max.x),
            p.y.max(self.min.y).min(self.max.y),
        )
    }

    /// A point inside from two unit randoms.
    pub fn lerp(&self, u: f32, v: f32) -> Vec2 {
        Vec2::new(
            self.min.x + (self.max.x - self.min.x) * u,
            self.min.y + (self.max.y - self.min.y) * v,
        )
    }
}

/// An sRGB colour with alpha, 8 bits per channel.
///
/// The one grammar of colours, in content and in scripts alike ([`Color::parse`]): `#rgb`,
/// `#rrggbb` or `#rrggbbaa` in hexadecimal digits of either case (the `#` may be left out;
/// `#rgb` doubles each digit, and alpha is 255 unless given), or one of [`Color::NAMES`] in
/// any case. `Display` writes a colour back in it: its name when it has one, else `#rrggbb`,
/// or `#rrggbbaa` when it is not opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Default for Color {
    fn default() -> Self {
        Color::WHITE
    }
}

impl Color {
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    pub const BLACK: Color = Color::rgb(0, 0, 0);

    /// The colours known by name. A colour with two names (`gray`, `grey`) lists the one
    /// `Display` writes first.
    pub const NAMES: [(&'static str, Color); 10] = [
        ("white", Color::WHITE),
        ("black", Color::BLACK),
        ("red", Color::rgb(230, 57, 70)),
        ("green", Color::rgb(87, 204, 153)),
        ("blue", Color::rgb(69, 123, 214)),
        ("yellow", Color::rgb(255, 209, 102)),
        ("orange", Color::rgb(244, 140, 6)),
        ("purple", Color::rgb(155, 93, 229)),
        ("gray", Color::rgb(128, 128, 128)),
        ("grey", Color::rgb(128, 128, 128)),
    ];

    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Self {
        Color { r, g, b, a }
    }

    /// Reads a colour written in the grammar of [`Color`]; `None` for anything else.
    pub fn parse(text: &str) -> Option<Color> {
        if let Some((_, c)) = Color::NAMES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
        {
            return Some(*c);
        }
        let hex = text.strip_prefix('#').unwrap_or(text);
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let nibble = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        match hex.len() {
            3 => Some(Color::rgb(
                nibble(0)? * 17,
                nibble(1)? * 17,
                nibble(2)? * 17,
            )),
            6 => Some(Color::rgb(byte(0)?, byte(2)?, byte(4)?)),
            8 => Some(Color::rgba(byte(0)?, byte(2)?, byte(4)?, byte(6)?)),
            _ => None,
        }
    }

    /// The colour with its alpha multiplied by `alpha` (0 to 1; 1 leaves it as it is).
    pub fn faded(self, alpha: f32) -> Color {
        Color {
            a: (f32::from(self.a) * alpha.clamp(0.0, 1.0)).round() as u8,
            ..self
        }
    }

    /// Channels as floats in `[0, 1]`.
    pub fn to_f32(self) -> [f32; 4] {
        [
            self.r as f32 / 255.0,
            self.g as f32 / 255.0,
            self.b as f32 / 255.0,
            self.a as f32 / 255.0,
        ]
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((name, _)) = Color::NAMES.iter().find(|(_, c)| c == self) {
            return f.write_str(name);
        }
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)?;
        if self.a != 255 {
            write!(f, "{:02x}", self.a)?;
        }
        Ok(())
    }
}

mod lanes;

pub(crate) use lanes::{
    Least8, MarkTest, all_finite, any_due, copy_finite, each_marked, floor_cells4, floor_i32,
    in_box8, least8, scale8, step_free, step_one, step_within, top_or_at_most8, within8,
};
