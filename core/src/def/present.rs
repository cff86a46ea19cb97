//! What scripts and the HUD show and play: images and their animations, effects, sounds
//! (the HUD's own items are in `hud.rs`).

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

impl EffectDef {
    /// The particle colour of an effect that sets none.
    pub const COLOR: Color = Color::WHITE;
    /// The particles per burst of an effect that sets none.
    pub const PARTICLES: u32 = 12;
    /// The particle speed of an effect that sets none, in world units per second.
    pub const SPEED: f32 = 120.0;
    /// The particle life of an effect that sets none, in seconds.
    pub const DURATION: f32 = 0.4;
    /// The particle size of an effect that sets none, in world units.
    pub const SIZE: f32 = 3.0;
}

/// A sound scripts can request by name: a sound file, or a synthesised tone (so games need no
/// audio files).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SoundDef {
    pub name: String,
    /// A WAV or OGG Vorbis file in the game folder, played instead of the tone.
    pub file: Option<String>,
    pub wave: Wave,
    /// Start and end frequency in Hz (a slide when they differ).
    pub freq: f32,
    pub freq_end: f32,
    pub duration: f32,
    pub volume: f32,
}

impl SoundDef {
    /// The start frequency of a tone that sets none, in Hz.
    pub const FREQ: f32 = 440.0;
    /// The length of a tone that sets none, in seconds.
    pub const DURATION: f32 = 0.1;
    /// The loudness of a sound or track that sets none.
    pub const VOLUME: f32 = 0.5;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wave {
    Sine,
    Square,
    Triangle,
    Saw,
    Noise,
}

/// An image: a PNG in the game folder, whole or cut into a grid of equal frames (a sprite
/// sheet). Frames are numbered from 0 left to right, then top to bottom.
///
/// Invariant: `frame` divides `width` and `height` exactly and neither is zero (content
/// checks it; the renderer clamps a frame index past the last frame to the last).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageDef {
    /// `[images.NAME]`'s name, or the path of an image a sprite names by path.
    pub name: String,
    /// Its path inside the game folder.
    pub file: String,
    /// Size in pixels, from the PNG header.
    pub width: u32,
    pub height: u32,
    /// One frame's size in pixels (the whole image when it is not a sheet).
    pub frame: (u32, u32),
    pub filter: Filter,
}

impl ImageDef {
    /// A whole image of `width` x `height` pixels, one frame, drawn smoothly.
    pub fn whole(name: &str, file: &str, width: u32, height: u32) -> ImageDef {
        ImageDef {
            name: name.to_string(),
            file: file.to_string(),
            width,
            height,
            frame: (width, height),
            filter: Filter::Linear,
        }
    }

    /// Frames per row and rows.
    pub fn grid(&self) -> (u32, u32) {
        (
            self.width / self.frame.0.max(1),
            self.height / self.frame.1.max(1),
        )
    }

    /// How many frames the sheet holds.
    pub fn frames(&self) -> u32 {
        let (c, r) = self.grid();
        c * r
    }

    /// The pixel rectangle `(x, y, w, h)` of frame `n` (the last frame past the end).
    pub fn frame_rect(&self, n: u32) -> (u32, u32, u32, u32) {
        let (cols, _) = self.grid();
        let n = n.min(self.frames().saturating_sub(1));
        let (fw, fh) = self.frame;
        ((n % cols.max(1)) * fw, (n / cols.max(1)) * fh, fw, fh)
    }
}

/// Index of a font in [`crate::GameDef::fonts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FontId(pub u16);

/// A font of the game (`[fonts.NAME]`): labels and HUD lines that name it are drawn in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FontDef {
    pub name: String,
    pub source: FontSource,
}

/// Where a font's glyphs come from.
///
/// Invariant (content checks it): a sheet's `glyphs` are distinct characters, no more than
/// the image has frames; a file's `size` is positive and its file parsed as a font at load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FontSource {
    /// A TrueType or OpenType file, rasterised once at `size` pixels (scaled for other sizes).
    File { file: String, size: f32 },
    /// A bitmap font: frame `i` of the image is the glyph of the `i`-th character of `glyphs`
    /// (each glyph as wide as a frame, drawn with the image's colours and filter).
    Sheet {
        image: crate::AssetId,
        glyphs: String,
    },
}

impl FontSource {
    /// The pixel height a font file is rasterised at unless its table says otherwise.
    pub const SIZE: f32 = 32.0;
}

/// How an image is sampled when drawn larger or smaller than its pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Filter {
    /// Blocky pixels (pixel art).
    Nearest,
    /// Smooth.
    #[default]
    Linear,
}

/// A named sequence of an archetype's sprite frames, advanced by ticks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnimationDef {
    pub name: String,
    /// Frame indices into the sprite's image, in play order (at least one).
    pub frames: Vec<u16>,
    /// Frames per second of simulation time.
    pub fps: f32,
    /// Starts again after the last frame; otherwise stays on it.
    pub looping: bool,
}

impl AnimationDef {
    /// The frames per second of an animation that sets none.
    pub const FPS: f32 = 10.0;
    /// Whether an animation that does not say starts again after its last frame.
    pub const LOOPING: bool = true;

    /// The frame shown `ticks` ticks (a fraction between ticks when interpolating) after the
    /// animation started, at `rate_hz` ticks per second.
    pub fn frame_at(&self, ticks: f64, rate_hz: f64) -> u16 {
        self.frame_after(ticks / rate_hz.max(1e-9))
    }

    /// The frame shown `seconds` of game time after the animation started.
    pub fn frame_after(&self, seconds: f64) -> u16 {
        let n = self.frames.len();
        if n == 0 {
            return 0;
        }
        // Whole frames since the start (saturating: a float past u64 is u64::MAX).
        let step = (seconds.max(0.0) * f64::from(self.fps)) as u64;
        let i = if self.looping {
            (step % n as u64) as usize
        } else {
            step.min(n as u64 - 1) as usize
        };
        self.frames[i]
    }
}
